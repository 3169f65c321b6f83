//! Great Cosmos combat: rules pinned on small scenarios (C-CMB, C-ELEM, C-TURN, C-LD,
//! C-KARMA-2), exact-vs-Monte-Carlo agreement, golden errors, determinism, CLI.

use assert_cmd::Command;

use cosmosim::context::Context;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{
    defence_stops, load, simulate, CombatAcc, CombatSim, Element, ELEMENT_TABLE,
};
use cosmosim::systems::cosmos::{Outcome, TestRules, TestSpec};

/// A hero against one enemy. `hero` and `enemy` are extra TOML lines for each.
fn duel(hero: &str, hero_policy: &str, enemy: &str, extra: &str) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"
{extra}

[attacks.blade]
stat = "force"
damage = "2d10+5"

[attacks.kill]
stat = "force"
damage = "1000"

[attacks.tickle]
stat = "force"
damage = "0"

[attacks.doom]
stat = "esprit"
damage = "1000"

[combatants.hero]
side = "heroes"
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
pm = 100
{hero}

[combatants.hero.policy]
{hero_policy}

[combatants.foe]
side = "foes"
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
{enemy}
"#
    )
}

fn run_text(text: &str, trials: u64, options: &[&str]) -> (CombatSim, CombatAcc) {
    let file = ScenarioFile::from_text("t.toml", text, cosmosim::lang::Lang::En);
    let (raw, model) = load(&file).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut opts = file.rule_options(&raw.rules).unwrap();
    for o in options {
        let (k, v) = o.split_once('=').unwrap();
        opts.set(k, v, cosmosim::lang::Lang::En).unwrap();
    }
    let ctx = Context::new(7, 2, opts, true, cosmosim::lang::Lang::En).unwrap();
    simulate(model, &ctx, trials)
}

const HARMLESS: &str = "level = 3\nhp = 1000000\nattacks = [\"tickle\"]";
const N: u64 = 20_000;

fn hero(acc: &CombatAcc) -> &cosmosim::systems::cosmos::combat::FighterAcc {
    // Fighters are in name order: foe, hero.
    &acc.fighters[1]
}

#[test]
fn sepulcrale_below_level_5_against_harmless_enemies_fires_apocalypse_once_per_dark_point() {
    // C-LD-6 + C-LD-3: the posture expires after 3 turns without Revive.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 10",
    );
    let (_, acc) = run_text(&t, N, &[]);
    let sep = hero(&acc).posture[1];
    assert_eq!(sep.entered, N);
    assert_eq!(sep.apocalypse, N);
    assert_eq!(sep.revive, 0);
    assert_eq!(sep.ends, [N, 0, 0, 0]);
    assert_eq!(acc.apocalypse_combats, N);
    // Level 5, 1 Light + 4 Dark points, spent at each turn start once allowed: each fires.
    let t = duel(
        "level = 5\nlevel5_dark = 3\nattacks = [\"blade\"]",
        "dark_on_turn_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 40",
    );
    let (_, acc) = run_text(&t, N, &[]);
    let sep = hero(&acc).posture[1];
    assert_eq!(sep.entered, 4 * N);
    assert_eq!(sep.apocalypse, 4 * N);
}

#[test]
fn a_posture_in_which_revive_fired_never_fires_apocalypse() {
    // Strong enemy: Revive fires in many postures; Apocalypse exactly in the others.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        "level = 3\nhp = 500\nmode = \"offensive\"\nattacks = [\"blade\"]",
        "[combat]\nmax_rounds = 10",
    )
    .replace("hp = 100\npm = 100", "hp = 60\npm = 100");
    let (_, acc) = run_text(&t, N, &[]);
    let sep = hero(&acc).posture[1];
    assert!(sep.revive > N / 50 && sep.apocalypse > N / 50, "{sep:?}");
    assert_eq!(sep.revive_and_apocalypse, 0);
    // Every posture ends one way; all but holder_down fire unless Revive fired, and a
    // Sépulcrale holder can only go down after its Revive.
    assert_eq!(sep.apocalypse, sep.entered - sep.revive);
}

#[test]
fn backlash_iff_a_third_posture_turn_began() {
    // C-LD-3. Expiry at the end of turn 3: backlash every time.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 3",
    );
    let sep = hero(&run_text(&t, N, &[]).1).posture[1];
    assert_eq!((sep.backlash, sep.ends[0]), (N, N));
    // Combat ends after 2 posture turns: no backlash.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 2",
    );
    let sep = hero(&run_text(&t, N, &[]).1).posture[1];
    assert_eq!((sep.backlash, sep.ends[2]), (0, N));
    // Final Skill on posture turn 2: no backlash; on turn 3: backlash.
    for (turn, backlash) in [("second_turn", 0), ("third_turn", N)] {
        let t = duel(
            "level = 5\ndark_points = 1\nlight_points = 1\nattacks = [\"blade\"]\nfinal_skill = \"blade\"",
            &format!("dark_at_start = true\nfinal_skill = \"{turn}\""),
            HARMLESS,
            "[combat]\nmax_rounds = 3",
        );
        let sep = hero(&run_text(&t, N, &[]).1).posture[1];
        assert_eq!((sep.backlash, sep.ends[1]), (backlash, N), "{turn}");
    }
}

#[test]
fn apocalypse_on_without_final_skill_never_fires_on_a_final_skill_exit() {
    let t = duel(
        "level = 5\ndark_points = 1\nlight_points = 1\nattacks = [\"blade\"]\nfinal_skill = \"blade\"",
        "dark_at_start = true\nfinal_skill = \"first_turn\"",
        HARMLESS,
        "[combat]\nmax_rounds = 5",
    );
    let sep = hero(&run_text(&t, N, &["apocalypse_on=expiry,combat_end"]).1).posture[1];
    assert_eq!((sep.ends[1], sep.apocalypse), (N, 0));
    let sep = hero(&run_text(&t, N, &[]).1).posture[1];
    assert_eq!((sep.ends[1], sep.apocalypse), (N, N));
}

#[test]
fn crit_attack_is_stopped_only_by_crit_or_better_defence() {
    // C-CMB-2: stops iff defence tier >= attack tier (tiers 1/2/3).
    use Outcome::*;
    let hits = [Success, CritSuccess, SuperSuccess];
    let expected = [
        // defence: Super, Crit, Success, Failure, CritFail, SuperFail
        [true, true, true, false, false, false], // Success attack
        [true, true, false, false, false, false], // Crit attack
        [true, false, false, false, false, false], // Super attack
    ];
    for (a, row) in hits.iter().zip(expected) {
        for (d, want) in Outcome::ALL.iter().zip(row) {
            assert_eq!(defence_stops(*a, *d), want, "{a:?} vs {d:?}");
        }
    }
}

#[test]
fn karma_is_locked_in_posture_and_restored_after() {
    // C-KARMA-2: two rounds, all inside the posture: no drift; restore gives the start
    // value back, keep leaves the locked value.
    let body = |policy: &str| {
        duel(
            "level = 3\nkarma = 3\nattacks = [\"blade\"]",
            policy,
            "level = 3\nhp = 1000000\nattacks = [\"blade\"]",
            "[combat]\nmax_rounds = 2",
        )
    };
    let acc = run_text(&body("dark_at_start = true"), N, &[]).1;
    assert_eq!(hero(&acc).karma_end[13], N);
    let acc = run_text(
        &body("dark_at_start = true"),
        N,
        &["posture_karma_exit=keep"],
    )
    .1;
    assert_eq!(hero(&acc).karma_end[0], N);
    let acc = run_text(
        &body("light_at_start = true"),
        N,
        &["posture_karma_exit=keep"],
    )
    .1;
    assert_eq!(hero(&acc).karma_end[20], N);
    // Control: without a posture, karma drifts in some combats (C-KARMA-1).
    let acc = run_text(&body(""), N, &[]).1;
    assert!(hero(&acc).karma_end[13] < N * 95 / 100);
}

#[test]
fn illumination_acts_first() {
    // C-TURN-3: Agilité 20 in Illumination goes before Agilité 80.
    let t = |policy: &str| {
        duel(
            "level = 3\nattacks = [\"blade\"]\nstats = { force = 60, esprit = 50, charisme = 40, agilite = 20, precision = 50, chance = 50 }",
            policy,
            "level = 3\nhp = 1000\nattacks = [\"blade\"]",
            "",
        )
        .replace("stats = { force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }\n", "")
        .replace("agilite = 40", "agilite = 80")
    };
    let acc = run_text(&t("light_at_start = true"), N, &[]).1;
    assert_eq!(hero(&acc).first_actor, N);
    let acc = run_text(&t(""), N, &[]).1;
    assert_eq!(acc.fighters[0].first_actor, N);
}

/// |p̂ - p| <= 5 sqrt(p(1-p)/n).
fn agrees(count: u64, n: u64, p: f64) {
    let ph = count as f64 / n as f64;
    let bound = 5.0 * (p * (1.0 - p) / n as f64).sqrt();
    assert!(
        (ph - p).abs() <= bound,
        "p̂ = {ph}, exact {p}, bound {bound}"
    );
}

#[test]
fn one_round_kill_chance_matches_the_exact_test_distribution() {
    // The hero strikes first (Agilité 60 > 40) an Offensive foe (no defence) with HP 16
    // for a flat 10: Success deals 10 x 1.5 (Offensive) = 15, not enough; a crit deals
    // 10 x 1.5 x 1.5 = 22 and a super 30: the round-1 win chance is P(crit or super).
    let t = duel(
        "level = 3\nmode = \"offensive\"\nattacks = [\"ten\"]",
        "",
        "level = 3\nhp = 16\nmode = \"offensive\"\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace(
        "[attacks.kill]",
        "[attacks.ten]\nstat = \"force\"\ndamage = \"10\"\n\n[attacks.kill]",
    );
    let n = 400_000;
    let (sim, acc) = run_text(&t, n, &[]);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    let exact = TestSpec::new(60.0, 0).unwrap().exact(&TestRules::default());
    let p = exact.prob(&Outcome::CritSuccess) + exact.prob(&Outcome::SuperSuccess);
    agrees(acc.outcome[heroes], n, p);
    // A Defensive foe parries or dodges (Force 60 / Agilité 40: parry at 60): the hero
    // wins iff its crit is not met by a crit/super parry, or it rolls a super and the
    // parry is not a super.
    let t2 = t.replace(
        "hp = 16\nmode = \"offensive\"",
        "hp = 16\nmode = \"defensive\"",
    );
    let (_, acc) = run_text(&t2, n, &[]);
    let d = exact.clone();
    let (dc, ds) = (
        d.prob(&Outcome::CritSuccess),
        d.prob(&Outcome::SuperSuccess),
    );
    let p = exact.prob(&Outcome::CritSuccess) * (1.0 - dc - ds)
        + exact.prob(&Outcome::SuperSuccess) * (1.0 - ds);
    agrees(acc.outcome[heroes], n, p);
}

/// The rulebook table as printed (cosmos-current.fr.txt, "Forces et faiblesses
/// élémentaires"): column = attacking element, row = target element.
const RULEBOOK_TABLE: &str = "\
\tFeu\tAir\tEau\tTerre\tGlace\tMétal\tÉlec\tSang\tPoison\tPlante\tDark\tLight
Feu\t1\t1,5\t2\t1,25\t0\t0,5\t1\t1,25\t1\t0\t0,75\t1
Air\t0,5\t1\t0,5\t1\t1,25\t1\t1\t1\t1\t0,5\t1\t1
Eau\t0\t1,5\t1\t1,5\t1,75\t0,5\t2\t1\t1,25\t1,5\t1\t1
Terre\t0,75\t0\t0,75\t1\t1\t1,25\t0,75\t0,75\t1\t1,25\t1\t0,75
Glace\t2\t0,75\t0,25\t1\t1\t1\t1\t0,25\t0\t0,5\t1\t1
Métal\t1,5\t0,5\t1,5\t0,75\t1\t1\t2\t0,75\t0\t0\t1\t0,75
Élec\t1\t1\t1,5\t1\t1\t0,5\t1\t1\t1\t0,5\t1\t1
Sang\t0,75\t1\t1\t1,25\t1,75\t1,25\t2\t1\t1,25\t1\t1\t1
Poison\t1\t1\t1\t1\t2\t1\t1\t0,75\t1\t1\t1\t1
Plante\t2\t1,5\t0,5\t1,25\t1,5\t2\t1,5\t1\t1,5\t1\t1,25\t0,75
Dark\t1,25\t1\t1\t1\t1\t1\t1,25\t1\t1\t0,75\t1\t2
Light\t1\t1\t1\t1\t1\t1\t1\t1\t1\t1,25\t2\t1";

#[test]
fn element_table_matches_the_rulebook_cell_by_cell() {
    let mut lines = RULEBOOK_TABLE.lines();
    let header: Vec<Element> = lines
        .next()
        .unwrap()
        .split('\t')
        .skip(1)
        .map(|n| Element::parse(n).unwrap())
        .collect();
    assert_eq!(header.len(), 12);
    let mut cells = 0;
    for line in lines {
        let mut f = line.split('\t');
        let target = Element::parse(f.next().unwrap()).unwrap();
        for (attacker, v) in header.iter().zip(f) {
            let v: f64 = v.replace(',', ".").parse().unwrap();
            assert_eq!(
                ELEMENT_TABLE[target.0 as usize][attacker.0 as usize],
                v,
                "{} on {}",
                attacker.name(),
                target.name()
            );
            cells += 1;
        }
    }
    assert_eq!(cells, 144);
}

fn write_tmp(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn check_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    write_tmp(&dir, "bad.toml", text);
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "bad.toml"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr)
        .unwrap()
        .trim_end()
        .to_string()
}

fn good() -> String {
    duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_below_hp = 0.5",
        "level = 3\nhp = 100\nattacks = [\"blade\"]",
        "",
    )
}

#[test]
fn golden_errors_for_bad_files() {
    let cases: Vec<(String, &str)> = vec![
        (
            good().replace("pm = 100\n", "pm = 100\nmana = 3\n"),
            "error: bad.toml:26:1: key `combatants.hero.mana`: unknown field `mana`, expected one of `side`, `level`, `count`, `stats`, `hp`, `pm`, `hp_start`, `pm_start`, `fp_start`, `fm_start`, `light_spent`, `dark_spent`, `armour`, `mode`, `element`, `elements`, `element_coefficients`, `attacks`, `final_skill`, `light_points`, `dark_points`, `level5_dark`, `actions`, `karma`, `aura_points`, `anti_aura`, `inventory_slots_used`, `natural_actions`, `periodic`, `policy`",
        ),
        (
            good().replace("hp = 100\npm = 100", "hp = \"lots\"\npm = 100"),
            "error: bad.toml:24:6: key `combatants.hero.hp`: invalid type: string \"lots\", expected i64",
        ),
        (
            good().replace("force = 60, esprit = 50", "force = 84, esprit = 50").replace("level = 3\nattacks = [\"blade\"]\n\n[combatants.hero.policy]", "level = 2\nattacks = [\"blade\"]\n\n[combatants.hero.policy]"),
            "error: bad.toml:23:19: key `combatants.hero.stats.force`: 84 is out of range at level 2; allowed: 20..80 (C-LEVEL-1: 80 at levels 1-2, 85 from level 3)",
        ),
        (
            good().replace("attacks = [\"blade\"]\n\n[combatants.hero.policy]", "attacks = [\"blade\", \"fireball\"]\n\n[combatants.hero.policy]"),
            "error: bad.toml:27:21: key `combatants.hero.attacks[1]`: undefined attack \"fireball\"; allowed: \"blade\", \"doom\", \"kill\", \"tickle\"",
        ),
        (
            good().replace("damage = \"2d10+5\"", "damage = \"2d10+5\"\nelement = \"wood\""),
            "error: bad.toml:8:11: key `attacks.blade.element`: unknown element \"wood\"; allowed: feu, air, eau, terre, glace, metal, elec, sang, poison, plante, dark, light",
        ),
        (
            good().replace("dark_below_hp = 0.5", "dark_below_hp = 1.5"),
            "error: bad.toml:30:17: key `combatants.hero.policy.dark_below_hp`: 1.5 is not a fraction of max HP; allowed: a number above 0 and at most 1, e.g. 0.5 for \"below half HP\"",
        ),
        (
            good().replace("pm = 100\n", "pm = 100\ndark_points = 0\n"),
            "error: bad.toml:30:1: key `combatants.hero.policy`: the policy spends Dark points but dark_points = 0; allowed: dark_points >= 1, or no dark_* trigger",
        ),
        (
            good().replace("dark_below_hp = 0.5", "final_skill = \"first_turn\""),
            "error: bad.toml:30:15: key `combatants.hero.policy.final_skill`: the policy uses a Final Skill but the combatant has none; allowed: set `final_skill = \"<attack>\"` on the combatant, or final_skill = \"never\"",
        ),
        (
            good().replace("[combatants.hero.policy]", "[combatants.hero.policy]\ntarget = \"named\"\ntarget_name = \"hero\""),
            "error: bad.toml:31:15: key `combatants.hero.policy.target_name`: \"hero\" is not an enemy combatant; allowed: \"foe\"",
        ),
        (
            good().replace("damage = \"2d10+5\"", "damage = \"2d\""),
            "error: bad.toml:7:10: key `attacks.blade.damage`: `2d` is not a dice expression; allowed: dice terms and whole numbers such as \"2d10+5\", \"d6\", \"1d8+1d4-2\" or \"12\"",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, want) in cases {
        let got = check_error(&text);
        if got != want {
            wrong.push(format!("got:  {got}\nwant: {want}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    // Rule options in [rules] are checked too.
    let e = check_error(&good().replace(
        "kind = \"combat\"\n",
        "kind = \"combat\"\n[rules]\napocalypse_on = [\"expiry\", \"sunset\"]\n",
    ));
    assert!(
        e.starts_with("error: bad.toml:4:17: key `rules.apocalypse_on`:")
            && e.contains("expiry, final_skill, combat_end"),
        "{e}"
    );
}

#[test]
fn check_accepts_the_shipped_scenarios() {
    for f in ["apocalypse", "duel", "party-vs-boss", "aura-duel"] {
        Command::cargo_bin("cosmosim")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["check", &format!("scenarios/cosmos/{f}.toml")])
            .assert()
            .success();
    }
}

fn run_cli(out: &std::path::Path, args: &[&str]) {
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("-q")
        .assert()
        .success();
}

#[test]
fn run_is_byte_identical_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let base = [
        "run",
        "scenarios/cosmos/apocalypse.toml",
        "--trials",
        "150000",
        "--seed",
        "3",
    ];
    run_cli(&a, &[&base[..], &["--threads", "1"]].concat());
    run_cli(&b, &[&base[..], &["--threads", "2"]].concat());
    for f in [
        "combat-sides.csv",
        "combat-postures.csv",
        "combat-rounds.csv",
        "combat-karma.csv",
        "summary.md",
    ] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f}"
        );
    }
    let summary = std::fs::read_to_string(a.join("summary.md")).unwrap();
    assert!(
        summary.contains("Apocalypse fired per Dark point spent:"),
        "{summary}"
    );
    assert!(std::fs::read_to_string(a.join("combat-postures.csv")).unwrap().starts_with(
        "combatant,posture,combats,points_spent,points_per_combat,apocalypse,apocalypse_per_point,apocalypse_per_point_lo,apocalypse_per_point_hi,"
    ));
    let meta = std::fs::read_to_string(a.join("combat-sides.meta.json")).unwrap();
    assert!(
        meta.contains("\"sha256\"") && meta.contains("apocalypse.toml"),
        "{meta}"
    );
}

#[test]
fn sweep_writes_one_row_per_grid_point_and_a_point_equals_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let (sw, run) = (dir.path().join("sw"), dir.path().join("run"));
    run_cli(
        &sw,
        &[
            "sweep",
            "scenarios/cosmos/duel.toml",
            "--trials",
            "30000",
            "--vary",
            "aldric.hp=120,150",
            "--vary",
            "brune.mode=offensive,defensive",
        ],
    );
    let csv = std::fs::read_to_string(sw.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0], "aldric_hp,brune_mode,trials,figure,where,value,value_lo,value_hi",
        "{csv}"
    );
    // Every grid point has the same figures, named as `figures` lists them.
    let per_point = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    let n = per_point("120,offensive,30000,");
    assert!(n >= 4, "{csv}");
    for p in ["120,defensive,", "150,offensive,", "150,defensive,"] {
        assert_eq!(per_point(p), n, "{p}");
    }
    assert_eq!(lines.len(), 1 + 4 * n);
    let row = lines
        .iter()
        .find(|l| l.starts_with("150,defensive,30000,combat-sides.share,outcome=defensive,"))
        .unwrap_or_else(|| panic!("{csv}"));
    assert!(sw.join("sweep-aldric_hp.png").exists() && sw.join("sweep-brune_mode.png").exists());
    // The grid point with the file's own values gives the run's numbers (streams keyed by
    // the file's values).
    run_cli(
        &run,
        &["run", "scenarios/cosmos/duel.toml", "--trials", "30000"],
    );
    let sides = std::fs::read_to_string(run.join("combat-sides.csv")).unwrap();
    let def: Vec<&str> = sides
        .lines()
        .find(|l| l.starts_with("defensive,"))
        .unwrap()
        .split(',')
        .collect();
    let header: Vec<&str> = sides.lines().next().unwrap().split(',').collect();
    let at = |c: &str| def[header.iter().position(|h| *h == c).unwrap()];
    let cells: Vec<&str> = row.split(',').collect();
    assert_eq!(&cells[5..8], &[at("share"), at("share_lo"), at("share_hi")]);
    // A value the file cannot take is a located error with exit code 2.
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "sweep",
            "scenarios/cosmos/duel.toml",
            "--trials",
            "100",
            "--out",
        ])
        .arg(dir.path().join("bad"))
        .args(["--vary", "aldric.stats.force=70,90"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.starts_with("error: with --vary aldric.stats.force=90: scenarios/cosmos/duel.toml:"),
        "{e}"
    );
    assert!(
        e.contains(
            "key `combatants.aldric.stats.force`: 90 is out of range at level 3; allowed: 20..85"
        ),
        "{e}"
    );
}

#[test]
fn illumination_evade_advantage_and_defence_match_the_exact_chance() {
    // C-LD-5: the hero (Offensive, so no defence outside Illumination) enters
    // Illumination at the start: karma reads +10, it acts first (a harmless swing), then
    // the foe swings a 1000-damage blow. The blow is evaded on d10 <= 7 unless it is a
    // super success; otherwise the hero still dodges (Agilité 60, +10 / +20 under
    // advantage 4 / 5) and stops it iff its tier reaches the attack's (C-CMB-2).
    let t = duel(
        "level = 3\nmode = \"offensive\"\nattacks = [\"tickle\"]",
        "light_at_start = true",
        // No defence for the foe, so no riposte on the hero's swing.
        "level = 3\nhp = 1000000\nattacks = [\"kill\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    );
    let n = 400_000;
    let (sim, acc) = run_text(&t, n, &[]);
    let foes = sim.model.sides.iter().position(|s| s == "foes").unwrap();
    let rules = TestRules::default();
    let attack = TestSpec::new(60.0, 0).unwrap().exact(&rules);
    let defence = |t: f64| TestSpec::new(t, 10).unwrap().exact(&rules);
    let stops = |tier: u8| -> f64 {
        // Advantage d6: 4 -> +10, 5 -> +20, else nothing.
        [60.0, 60.0, 60.0, 70.0, 80.0, 60.0]
            .iter()
            .map(|&th| defence(th).prob_where(|d| d.tier() >= tier) / 6.0)
            .sum()
    };
    let mut p_down = 0.0;
    for o in [
        Outcome::Success,
        Outcome::CritSuccess,
        Outcome::SuperSuccess,
    ] {
        let evade = if o == Outcome::SuperSuccess { 0.0 } else { 0.7 };
        p_down += attack.prob(&o) * (1.0 - evade) * (1.0 - stops(o.tier()));
    }
    agrees(acc.outcome[foes], n, p_down);
    assert_eq!(
        acc.outcome[foes] + acc.outcome[sim.model.sides.len() + 1],
        n
    );
}

#[test]
fn round_cap_is_reported() {
    let t = duel(
        "level = 3\nattacks = [\"tickle\"]",
        "",
        HARMLESS,
        "[combat]\nmax_rounds = 7",
    );
    let (sim, acc) = run_text(&t, 1000, &[]);
    assert_eq!(acc.outcome[sim.model.sides.len() + 1], 1000);
    assert_eq!(acc.rounds[7], 1000);
}

#[test]
fn sepulcrale_damage_and_locked_karma_match_the_exact_chance() {
    // C-LD-6 + C-KARMA-2: in Sépulcrale the hero tests at karma -10 (d10 added, no crit
    // below 11, natural 42 only a crit) and deals x2: a flat 10 kills a 20-HP Offensive
    // foe on any hit. With sepulchral_damage_mult = 1.5 a plain hit deals 15 and only the
    // crit (natural 42 at -10) deals 10 x 1.5 x 1.5 = 22. The hero does not defend, so
    // no riposte adds a second blow.
    let t = duel(
        "level = 3\nattacks = [\"ten\"]",
        "dark_at_start = true\ndefence = \"none\"",
        "level = 3\nhp = 20\nmode = \"offensive\"\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace(
        "[attacks.kill]",
        "[attacks.ten]\nstat = \"force\"\ndamage = \"10\"\n\n[attacks.kill]",
    );
    let n = 400_000;
    let exact = TestSpec::new(60.0, -10)
        .unwrap()
        .exact(&TestRules::default());
    let (sim, acc) = run_text(&t, n, &[]);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    agrees(acc.outcome[heroes], n, exact.prob_where(|o| o.is_success()));
    let (_, acc) = run_text(&t, n, &["sepulchral_damage_mult=1.5"]);
    assert_eq!(exact.prob(&Outcome::SuperSuccess), 0.0);
    agrees(acc.outcome[heroes], n, exact.prob(&Outcome::CritSuccess));
}

#[test]
fn extra_actions_are_spaced_by_four_plus_d6_and_ties_roll_d20() {
    // C-TURN-2 / C-TURN-1: the hero (Agilité 60, 2 actions) acts at 60 and at
    // 60 - (4 + d6); the foe at 52. A hit from either side kills (no defence: both
    // Offensive). Second hero action before the foe iff d6 <= 3; d6 = 4 ties at 52 (d20s,
    // lowest first; equal: simultaneous); d6 >= 5 after the foe.
    let t = duel(
        "level = 3\nmode = \"offensive\"\nactions = 2\nattacks = [\"kill\"]",
        "",
        "level = 3\nhp = 100\nmode = \"offensive\"\nattacks = [\"kill\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace("force = 60, esprit = 50", "force = 70, esprit = 50")
    .replace("agilite = 40", "agilite = 52");
    let n = 400_000;
    let (sim, acc) = run_text(&t, n, &[]);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    let rules = TestRules::default();
    let p = TestSpec::new(70.0, 0)
        .unwrap()
        .exact(&rules)
        .prob_where(|o| o.is_success());
    let q = TestSpec::new(60.0, 0)
        .unwrap()
        .exact(&rules)
        .prob_where(|o| o.is_success());
    let (first, equal) = (0.475, 0.05);
    let second = 0.5 * p
        + (1.0 / 6.0) * (first * p + equal * p * (1.0 - q) + first * p * (1.0 - q))
        + (1.0 / 3.0) * p * (1.0 - q);
    agrees(acc.outcome[heroes], n, p + (1.0 - p) * second);
    // The simultaneous case: both hit, both down.
    let nobody = (1.0 - p) * (1.0 / 6.0) * equal * p * q;
    agrees(acc.outcome[sim.model.sides.len()], n, nobody);
}

#[test]
fn the_documented_example_is_a_valid_scenario() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenarios.md")).unwrap();
    let start = doc.find("```toml\n").unwrap() + 8;
    let end = start + doc[start..].find("```").unwrap();
    let file = ScenarioFile::from_text(
        "docs/scenarios.md",
        &doc[start..end],
        cosmosim::lang::Lang::En,
    );
    let (_, model) = load(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        model.sides,
        vec!["party".to_string(), "raiders".to_string()]
    );
    // level5_dark = 3: 1 Light + 4 Dark points (C-LD-1).
    let hero = model.fighters.iter().find(|f| f.name == "hero").unwrap();
    assert_eq!((hero.light_points, hero.dark_points), (1, 4));
}
