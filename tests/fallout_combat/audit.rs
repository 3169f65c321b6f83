//! The 2d20 audit of 2026-12-07, afternoon: rerolls decided with the help counted, the AP
//! flow that balances, complications in the combatants table, a summary with no decided
//! fight, help loops and chains refused, the trace's final faces.

use super::*;

/// L (TN 10, 1 Luck point) attacks at difficulty 2, helped by H (TN 9); M cannot fall.
/// `luck_or_aim` is the key L rerolls with.
fn helped(luck_or_aim: &str) -> String {
    format!(
        "system = \"fallout\"\nkind = \"combat\"\n[combat]\nmax_rounds = 1\ninjury_at = 0\n\
         [weapons.gun]\ndamage = 1\ntype = \"ranged\"\n[weapons.pea]\ndamage = 1\ntype = \"ranged\"\ndifficulty = 5\n\
         [[combatant]]\nname = \"L\"\nside = \"players\"\ntn = 10\nhp = 10\ninitiative = 5\n{luck_or_aim}\nweapon = \"gun\"\n\
         [[combatant]]\nname = \"H\"\nside = \"players\"\ntn = 9\nhp = 10\ninitiative = 1\nhelp = \"L\"\nweapon = \"gun\"\n\
         [[combatant]]\nname = \"M\"\nside = \"mj\"\ntn = 2\nhp = 100\ninitiative = 3\nweapon = \"pea\"\n"
    )
}

/// Exact P(hit), E[AP], E[AP^2] and P(reroll) of L's attack: 2d20 at TN 10 plus H's d20
/// at TN 9, difficulty 2, one reroll of a no-success d20 of L when the attack, help
/// counted, misses (F-HELP "s'il en obtient au moins une", F-LUCK).
fn exact_helped_reroll() -> [f64; 4] {
    let (l, h) = (
        DieSpec::new(Lang::En, 10, 0, 1).unwrap(),
        DieSpec::new(Lang::En, 9, 0, 1).unwrap(),
    );
    let s = |spec: &DieSpec, f: u8| spec.face(f).successes as i64;
    let total = |own: i64, help: i64| own + if own > 0 { help } else { 0 };
    let mut o = [0.0f64; 4];
    let mut spent = 0.0;
    let mut add = |t: i64, w: f64| {
        if t >= 2 {
            o[0] += w;
            o[1] += w * (t - 2) as f64;
            o[2] += w * ((t - 2) * (t - 2)) as f64;
        }
    };
    for a in 1..=20u8 {
        for b in 1..=20u8 {
            for c in 1..=20u8 {
                let (own, help) = (s(&l, a) + s(&l, b), s(&h, c));
                let zero = s(&l, a) == 0 || s(&l, b) == 0;
                if total(own, help) < 2 && zero {
                    spent += 1.0 / 8000.0;
                    for r in 1..=20u8 {
                        add(total(own + s(&l, r), help), 1.0 / 160_000.0);
                    }
                } else {
                    add(total(own, help), 1.0 / 8000.0);
                }
            }
        }
    }
    o[3] = spent;
    o
}

/// F-LUCK (l.119 "Relancer 1d20") with F-HELP (l.56 "Jetez ensuite 1d20 et ajoutez les
/// réussites ... s'il en obtient au moins une"): the reroll is decided on the attack with
/// its help counted, the policy docs/systems/fallout.md 3c states ("when its attack
/// misses"). Exact (the auditor's enumeration): P(hit) 0.689375, E[AP] 0.24675, P(reroll)
/// 0.4975; before, the reroll was decided on L's own dice: P(Luck spent) 0.70 and E[AP]
/// 0.359. A Luck point and an aim reroll alike.
#[test]
fn a_reroll_is_decided_with_the_help_counted() {
    let [p, ap, ap2, spent] = exact_helped_reroll();
    assert!((p - 0.689375).abs() < 1e-12, "{p}");
    assert!((ap - 0.24675).abs() < 1e-12, "{ap}");
    assert!((spent - 0.4975).abs() < 1e-12, "{spent}");
    let n = 400_000u64;
    for key in ["luck = 1", "minor = \"aim\""] {
        let acc = run_text(&helped(key), 31, n);
        let l = &acc.fighters[0];
        let rerolls = if key.starts_with("luck") {
            assert_eq!(l.aim_rerolls, 0);
            l.luck_spent
        } else {
            assert_eq!(l.luck_spent, 0);
            l.aim_rerolls
        };
        let close = |k: u64, q: f64| {
            let f = k as f64 / n as f64;
            let sd = (q * (1.0 - q) / n as f64).sqrt();
            assert!((f - q).abs() <= 5.0 * sd, "{key}: {f} vs {q} (sd {sd})");
        };
        assert_eq!(l.attacks, n);
        close(l.hits, p);
        close(rerolls, spent);
        let sd = ((ap2 - ap * ap) / n as f64).sqrt();
        let mean = acc.pools[0].earned as f64 / n as f64;
        assert!((mean - ap).abs() <= 5.0 * sd, "{key}: E[AP] {mean} vs {ap}");
        // Turn order L, M, H (initiative 5, 3, 1).
        assert_eq!(acc.fighters[2].helps, n);
    }
}

/// Writes `text` as `f.toml` in a temporary folder and runs `cosmosim <args...> f.toml
/// <more...>` there; stdout, after a success.
fn cli(dir: &Path, text: &str, args: &[&str], more: &[&str]) -> String {
    std::fs::write(dir.join("f.toml"), text).unwrap();
    let out = cosmosim()
        .current_dir(dir)
        .args(args)
        .arg("f.toml")
        .args(more)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out).unwrap()
}

/// A CSV of a run as (header, rows of numbers by column name).
fn csv(path: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = read(path);
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

/// The auditor's `aim.toml`: P (TN 8, aims, 1 Luck point) with 6 AP buys a bonus d20
/// (1 AP) and a second aim (1 AP) every fight, one round against a target that never
/// falls.
fn aim_file(trials: u64) -> String {
    format!(
        "system = \"fallout\"\nkind = \"combat\"\n[run]\ntrials = {trials}\nseed = 12\n\
         [combat]\nmax_rounds = 1\ninjury_at = 0\n[pools]\ngroup_ap = 6\nmj_ap = 0\n\
         [policy.players]\nbuy = \"always\"\nmax_bonus = 1\nextra_minor = true\nkeep = 0\n\
         [policy.mj]\nbuy = \"never\"\n[weapons.gun]\ndamage = 1\ntype = \"ranged\"\ndifficulty = 3\n\
         [[combatant]]\nname = \"P\"\nside = \"players\"\ntn = 8\nhp = 10\ninitiative = 5\nluck = 1\nminor = \"aim\"\nweapon = \"gun\"\n\
         [[combatant]]\nname = \"M\"\nside = \"mj\"\ntn = 2\nhp = 100\nweapon = \"gun\"\n"
    )
}

/// F-AP ("action capitale supplémentaire (2 PA)", "action mineure supplémentaire (1
/// PA)"): the AP of second major and extra minor actions are in `combat-ap.csv`, so each
/// pool's flow balances per fight: start + earned (+ received) - lost - spent = end. Audit
/// of 2026-12-07, afternoon: `aim.toml` started with 6 and ended with 4.05 having earned
/// 0.05 and spent 1.00 (the second aim's 1 AP shown nowhere). Both pools of a fight with
/// second major actions on both sides, gifts to the MJ and extra damage, too.
#[test]
fn the_ap_flow_balances_with_extra_actions() {
    let dir = tempfile::tempdir().unwrap();
    let mix = include_str!("../../scenarios/fallout/firefight.toml")
        .replace("trials = 200000", "trials = 3000")
        .replace(
            "give_mj_ap = false",
            "give_mj_ap = true\nsecond_major = true\nextra_minor = true",
        )
        .replace("max_bonus = 1", "max_bonus = 1\nsecond_major = true")
        .replace("name = \"Ranger\"", "name = \"Ranger\"\nminor = \"aim\"");
    for (text, start) in [(aim_file(4000), [6.0, 0.0]), (mix, [2.0, 2.0])] {
        let out = dir.path().join("o");
        let _ = std::fs::remove_dir_all(&out);
        cli(
            dir.path(),
            &text,
            &["-q", "run"],
            &["--out", out.to_str().unwrap()],
        );
        let rows = csv(&out.join("combat-ap.csv"));
        if start[0] == 6.0 {
            // aim.toml: a second aim every fight, the AP missing from the flow before.
            assert_eq!(rows[0]["mean_spent_on_extra_minor"], "1.0000000000");
        }
        for (r, s) in rows.iter().zip(start) {
            let v = |c: &str| -> f64 { r[&format!("mean_{c}")].parse().unwrap() };
            let end = s + v("earned") + v("received_from_players")
                - v("lost_to_cap")
                - v("spent_on_d20")
                - v("spent_on_damage")
                - v("spent_on_second_major")
                - v("spent_on_extra_minor");
            assert!((end - v("end_pool")).abs() < 1e-8, "{r:?}: {end}");
        }
    }
    // The last run (the firefight with extra actions) spent on each kind.
    let rows = csv(&dir.path().join("o/combat-ap.csv"));
    let v = |r: usize, c: &str| -> f64 { rows[r][&format!("mean_{c}")].parse().unwrap() };
    assert!(v(0, "spent_on_second_major") > 0.1 && v(0, "spent_on_extra_minor") > 0.0);
    assert!(v(1, "spent_on_second_major") > 0.1 && v(1, "received_from_players") > 0.1);
}

/// F-TEST (a 20 is a complication): `combat-combatants.csv` shows each combatant's
/// complications per fight (tallied, shown nowhere before the audit of 2026-12-07,
/// afternoon). One attack of 2d20 at TN 11 with no reroll: 1 - 0.95^2 = 0.0975.
#[test]
fn complications_per_fight_are_in_the_combatants_table() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000u64;
    let text = duel("damage = 1\ntype = \"melee\"", "").replace("hp = 4\n", "hp = 200\n")
        + &format!("[run]\ntrials = {n}\nseed = 4\n");
    cli(dir.path(), &text, &["-q", "run"], &["--out", "o"]);
    let rows = csv(&dir.path().join("o/combat-combatants.csv"));
    let f: f64 = rows[0]["complications_per_fight"].parse().unwrap();
    let q = 1.0 - 0.95f64 * 0.95;
    let sd = (q * (1.0 - q) / n as f64).sqrt();
    assert_eq!(rows[0]["name"], "A");
    assert!((f - q).abs() <= 5.0 * sd, "{f} vs {q}");
}

/// A run where the round cap stops every fight (`aim.toml`: one round, nobody can fall)
/// has no mean length: the summary says no fight is decided, in English and French, in
/// Markdown and HTML, "after 1 round" (audit of 2026-12-07, afternoon: "decided fights
/// last NaN rounds on average", "after 1 rounds").
#[test]
fn a_summary_with_no_decided_fight_shows_no_nan() {
    let dir = tempfile::tempdir().unwrap();
    for (lang, says, after) in [
        ("en", "no fight is decided", "after 1 round"),
        ("fr", "aucun combat n'est décidé", "après 1 round"),
    ] {
        let out = format!("o-{lang}");
        cli(
            dir.path(),
            &aim_file(2000),
            &["-q", "--lang", lang, "run"],
            &["--out", &out],
        );
        for page in ["summary.md", "summary.html"] {
            let text = read(&dir.path().join(&out).join(page));
            // The page's table sorting script calls `isNaN`.
            assert!(!text.replace("isNaN", "").contains("NaN"), "{lang} {page}");
            assert!(!text.contains("1 rounds"), "{lang} {page}");
            assert!(text.contains(after), "{lang} {page}");
            let escaped = [says.to_string(), says.replace('\'', "&#39;")];
            assert!(escaped.iter().any(|s| text.contains(s)), "{lang} {page}");
        }
    }
}

/// F-HELP: a helper rolls into its ally's attacks and attacks not while the ally
/// stands, so a `help` naming a helper is refused, located, by `check` and `run` alike:
/// two combatants helping each other (no attack at all) and a chain (the second helper's
/// d20 joins no attack). Audit of 2026-12-07, afternoon: both accepted.
#[test]
fn help_loops_and_chains_are_refused() {
    let good = duel("damage = 1\ntype = \"melee\"", "")
        + "[[combatant]]\nname = \"C\"\nside = \"players\"\ntn = 9\nhp = 10\nweapon = \"w\"\nhelp = \"A\"\n";
    assert!(load(&ScenarioFile::from_text("g.toml", &good, Lang::En)).is_ok());
    // The line of the `k`-th `help = "C"` of `text` (from 1).
    let line = |text: &str, k: usize| {
        let n = text
            .lines()
            .enumerate()
            .filter(|(_, l)| *l == "help = \"C\"");
        format!("bad.toml:{}:", n.map(|(i, _)| i + 1).nth(k - 1).unwrap())
    };
    // A helps C, C helps A: refused at A's key, the first written.
    let mutual = good.replace(
        "initiative = 5\nweapon = \"w\"",
        "initiative = 5\nweapon = \"w\"\nhelp = \"C\"",
    );
    let e = check_and_run_error(&mutual);
    assert!(
        e.contains(&line(&mutual, 1))
            && e.contains("combatant[0].help")
            && e.contains("names a helper (C helps A)")
            && e.contains("who attacks"),
        "{e}"
    );
    // D helps C, who helps A.
    let chain = good.clone()
        + "[[combatant]]\nname = \"D\"\nside = \"players\"\ntn = 9\nhp = 10\nweapon = \"w\"\nhelp = \"C\"\n";
    let e = check_and_run_error(&chain);
    assert!(
        e.contains(&line(&chain, 1))
            && e.contains("combatant[3].help")
            && e.contains("names a helper (C helps A)"),
        "{e}"
    );
    let fr = load(&ScenarioFile::from_text("bad.toml", &chain, Lang::Fr))
        .err()
        .unwrap()
        .to_string();
    assert!(
        fr.contains("combatant[3].help") && fr.contains("nomme un combattant qui aide lui-même"),
        "{fr}"
    );
}

/// The trace's attack step shows the d20 that count (audit of 2026-12-07, afternoon:
/// `"dice":[7,14]` beside `"successes":2`, the 14 rerolled to 11 by a Luck point): at TN
/// 11 a 1 gives 2 successes and 2..11 one, so P's successes are its final faces'.
#[test]
fn the_trace_attack_shows_the_faces_after_rerolls() {
    let dir = tempfile::tempdir().unwrap();
    let text = duel("damage = 1\ntype = \"melee\"", "")
        .replace("hp = 4\n", "hp = 200\n")
        .replace(
            "weapon = \"w\"\n[[combatant]]",
            "weapon = \"w\"\nluck = 1\n[[combatant]]",
        );
    let out = cli(
        dir.path(),
        &text,
        &["trace"],
        &["--trials", "0..60", "--format", "json"],
    );
    let mut rerolled = 0;
    for line in out.lines().filter(|l| l.starts_with('{')) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        for s in v["steps"].as_array().unwrap() {
            if s["step"] != "attack" || s["who"] != "A" {
                continue;
            }
            let faces: Vec<u64> = s["dice"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| f.as_u64().unwrap())
                .collect();
            let count: u64 = faces
                .iter()
                .map(|&f| match f {
                    1 => 2,
                    2..=11 => 1,
                    _ => 0,
                })
                .sum();
            assert_eq!(s["successes"].as_u64().unwrap(), count, "{s}");
            rerolled += u32::from(s["dice"] != s["dice_as_rolled"]);
        }
    }
    assert!(rerolled > 5, "{rerolled}");
}
