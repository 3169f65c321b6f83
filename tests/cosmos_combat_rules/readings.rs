//! Readings 10b, 10c, 10d and 10e (docs/rules.md), and the fatigue switch table.

use super::*;

/// The exact outcome distribution of a test at threshold `t`, karma `k` (C-TEST-2..4).
fn dist(t: f64, k: i8) -> cosmosim::dice::Dist<Outcome> {
    TestSpec::new(t, k).unwrap().exact(&TestRules::default())
}

#[test]
fn reading_10b_a_riposte_s_damage_triggers_the_sepulchral_counter() {
    // The hero holds Sépulcrale from the start (karma locked at -10, C-KARMA-2) and pokes
    // the foe (0 damage, so no provocation; 100 PM a use). The foe parries (Force 60); a
    // crit parry that stops the poke ripostes at its source with a 5-damage jab (C-CMB-3).
    // The foe's own action goes to `bait`, so only a riposte can hurt the hero. With
    // `any_damage` (default) the jab's damage triggers the hero's counter (C-LD-6), which
    // pays 100 PM more. Fatigue counts it: the point takes FM to -3, each 100 PM +1 FM, so
    // FM -1 at the end iff a counter came. P = sum over attack tiers a >= 1 of
    // P(A = a) P(parry tier >= max(a, 2)) P(jab hits).
    let text = scenario(
        "[attacks.poke]\nstat = \"force\"\ndamage = \"0\"\npm_cost = 100\n\n[attacks.jab]\nstat = \"force\"\ndamage = \"5\"\n",
        "attacks = [\"poke\"]\n@policy\ndark_at_start = true",
        "hp = 100000\nattacks = [\"jab\"]\n[combatants.foe.policy]\ndefence = \"parry\"\ntarget = \"named\"\ntarget_name = \"bait\"",
        "[combat]\nmax_rounds = 1\nfatigue = true\n\n[combatants.bait]\nside = \"heroes\"\nlevel = 3\nstats = { force = 60, esprit = 40, charisme = 40, agilite = 30, precision = 50, chance = 50 }\nhp = 100000\nattacks = [\"tickle\"]\n",
    )
    .replace("hp = 100\npm = 100", "hp = 100\npm = 200");
    // Name order: bait (0), foe (1), hero (2).
    let (a, d) = (dist(60.0, -10), dist(60.0, 0));
    let jab = d.prob_where(|o| o.is_success());
    let mut p = 0.0;
    for oa in Outcome::ALL {
        if oa.tier() >= 1 {
            let need = oa.tier().max(2);
            p += a.prob(&oa) * d.prob_where(|o| o.tier() >= need) * jab;
        }
    }
    let n = 200_000;
    let (_, acc) = run_opts(&text, n, &[]);
    let h = &acc.fighters[2];
    assert_eq!(fm_end(h, -1) + fm_end(h, -2), n);
    agrees(fm_end(h, -1), n, p);
    let (_, acc) = run_opts(&text, 2000, &["sepulchral_counter_on=actions_only"]);
    assert_eq!(fm_end(&acc.fighters[2], -2), 2000);
}

#[test]
fn reading_10c_no_point_between_the_halves_of_a_simultaneous_exchange() {
    // Equal Agilité (50): d20s decide (hero first 0.475, foe first 0.475, equal 0.05:
    // simultaneous, C-TURN-1). Both Offensive, attacks at threshold 200, tier multipliers
    // 1. The foe's hit (60 x 1.5) takes the hero below half HP, which spends its Dark
    // point (C-LD-2). Foe first: the hero then acts in Sépulcrale (karma -10, x2: 20 a
    // hit); hero first, or simultaneous (10c: the point waits for the end of the
    // exchange): 15 a hit at karma 0. Spending it between the halves would give the
    // simultaneous case the foe-first value: 0.05 x p x (20 p' - 15 p) more, ~10 sigma.
    let text = scenario(
        "[attacks.ten]\nstat = \"force\"\ndamage = \"10\"\nthreshold = 200\n\n[attacks.big]\nstat = \"force\"\ndamage = \"60\"\nthreshold = 200\n",
        "mode = \"offensive\"\nattacks = [\"ten\"]\n@policy\ndark_below_hp = 0.5",
        "hp = 100000\nmode = \"offensive\"\nattacks = [\"big\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace("agilite = 60", "agilite = 50")
    .replace("agilite = 40", "agilite = 50");
    let p = dist(200.0, 0).prob_where(|o| o.is_success());
    let p_sep = dist(200.0, -10).prob_where(|o| o.is_success());
    let foe_first = p * 20.0 * p_sep + (1.0 - p) * 15.0 * p;
    let exact = (0.475 + 0.05) * 15.0 * p + 0.475 * foe_first;
    let n = 400_000;
    let (_, acc) = run_opts(&text, n, &["crit_damage_mult=1", "super_damage_mult=1"]);
    let mean = acc.fighters[HERO].dealt.sum as f64 / n as f64;
    // Per combat the hero deals at most 20: variance <= 100.
    let bound = 5.0 * (100.0 / n as f64).sqrt();
    assert!(
        (mean - exact).abs() <= bound,
        "mean {mean}, exact {exact}, bound {bound}"
    );
    let between = exact + 0.05 * (foe_first - 15.0 * p);
    assert!((mean - between).abs() > bound, "{mean} {between}");
}

#[test]
fn reading_10e_an_illumination_begun_mid_round_keeps_its_slot_or_acts_next() {
    // `fast` (Agilité 80) nicks the hero (Agilité 40) for 1, which spends its Light point
    // (`light_below_hp = 1`): Illumination mid-round. `mid` (Agilité 60) then swings a
    // 1000-damage blow; the hero never defends but Illumination evades a hit that is not
    // a super success on d10 <= 7 (C-LD-5). keep_slot (default): the hero acts after mid,
    // if it survives; next: right after fast. No nick (a failed test): no posture, the
    // hero acts iff mid misses. One round; actions counted.
    let text = r#"system = "cosmos"
kind = "combat"

[combat]
max_rounds = 1

[attacks.tickle]
stat = "force"
damage = "0"

[attacks.nick]
stat = "force"
damage = "1"
threshold = 200

[attacks.blow]
stat = "force"
damage = "1000"
threshold = 200

[combatants.hero]
side = "heroes"
level = 3
stats = { force = 60, esprit = 50, charisme = 40, agilite = 40, precision = 50, chance = 50 }
hp = 100
attacks = ["tickle"]

[combatants.hero.policy]
defence = "none"
light_below_hp = 1.0

[combatants.fast]
side = "foes"
level = 3
stats = { force = 60, esprit = 40, charisme = 40, agilite = 80, precision = 50, chance = 50 }
hp = 1000
attacks = ["nick"]

[combatants.mid]
side = "foes"
level = 3
stats = { force = 60, esprit = 40, charisme = 40, agilite = 60, precision = 50, chance = 50 }
hp = 1000
attacks = ["blow"]
"#;
    // Name order: fast (0), hero (1), mid (2).
    let d = dist(200.0, 0);
    let hit = d.prob_where(|o| o.is_success());
    let miss = 1.0 - hit;
    let survive = miss + 0.7 * (hit - d.prob(&Outcome::SuperSuccess));
    let n = 100_000;
    for (option, p) in [
        ("keep_slot", hit * survive + miss * miss),
        ("next", hit + miss * miss),
    ] {
        let (_, acc) = run_opts(text, n, &[&format!("illumination_mid_round={option}")]);
        let h = &acc.fighters[1];
        // The nick comes first (C-TURN-1), so the hero never acts first.
        assert_eq!(h.first_actor, 0);
        agrees(h.posture[0].entered, n, hit);
        agrees(h.actions, n, p);
    }
}

#[test]
fn reading_10d_disadvantage_3_takes_20_off_the_next_attack_of_the_backlash() {
    // The hero holds Sépulcrale from the start (rounds 1-3, karma -10) and strikes for
    // 100 (x2 in posture, x0.5 in its backlash; tier multipliers 1) with a 2-round
    // cooldown: it acts in rounds 1 and 4 only; round 4 is its first backlash turn
    // (karma back to 0). Disadvantage faces (C-LD-6), one each: 3 -20 on that action's
    // attack test (10d), 4 -10 and 5 -20 on every test, others nothing on the test. Mean
    // damage = 200 P(hit | 60, k -10) + 50 (3 p60 + p40 + p50 + p40) / 6; without the
    // face-3 malus it would be 50 (p60 - p40) / 6 higher (~10 sigma).
    let text = scenario(
        "[attacks.strike]\nstat = \"force\"\ndamage = \"100\"\ncooldown = 2\n",
        "attacks = [\"strike\"]\n@policy\ndark_at_start = true",
        "hp = 100000\nattacks = [\"tickle\"]\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 4",
    );
    let p = |t: f64, k: i8| dist(t, k).prob_where(|o| o.is_success());
    let round4 = (3.0 * p(60.0, 0) + p(40.0, 0) + p(50.0, 0) + p(40.0, 0)) / 6.0;
    let exact = 200.0 * p(60.0, -10) + 50.0 * round4;
    let n = 400_000;
    let (_, acc) = run_opts(&text, n, &["crit_damage_mult=1", "super_damage_mult=1"]);
    let h = &acc.fighters[HERO];
    assert_eq!(h.actions, 2 * n);
    assert_eq!(h.posture[1].backlash, n);
    let mean = h.dealt.sum as f64 / n as f64;
    // Per combat at most 250: variance <= 250^2 / 4.
    let bound = 5.0 * (250.0 * 250.0 / 4.0 / n as f64).sqrt();
    assert!(
        (mean - exact).abs() <= bound,
        "mean {mean}, exact {exact}, bound {bound}"
    );
    let no_malus = exact + 50.0 * (p(60.0, 0) - p(40.0, 0)) / 6.0;
    assert!((mean - no_malus).abs() > bound, "{mean} {no_malus}");
}

#[test]
fn fatigue_on_writes_its_table_and_check_lists_the_switch() {
    use assert_cmd::Command;
    let dir = tempfile::tempdir().unwrap();
    let off = scenario(
        "",
        "actions = 2\nattacks = [\"tickle\"]",
        HARMLESS,
        "[combat]\nmax_rounds = 6",
    );
    let path = dir.path().join("s.toml");
    std::fs::write(&path, &off).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("combat.fatigue = false (default)"),
        "{stdout}"
    );
    let on = off.replace("max_rounds = 6", "max_rounds = 6\nfatigue = true");
    std::fs::write(&path, &on).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("combatants.hero.natural_actions = 2 (default)"),
        "{stdout}"
    );
    Command::cargo_bin("cosmosim")
        .unwrap()
        .args(["run", "--trials", "500", "-q", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("out/combat-fatigue.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "combatant,side,track,combats,end_mean,p_fresh,p_light,p_moderate,p_extreme,p_exhausted,p_exhausted_lo,p_exhausted_hi"
    );
    // 6 rounds, nobody hurt: +1 FP after round 5 and +1 at the end: FP 2 for both.
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&row[..4], &["foe", "foes", "fp", "500"], "{csv}");
    let num = |i: usize| row[i].parse::<f64>().unwrap();
    assert_eq!((num(4), num(5), num(9)), (2.0, 1.0, 0.0), "{csv}");
    assert_eq!(csv.lines().count(), 5, "{csv}");
    let summary = std::fs::read_to_string(dir.path().join("out/summary.md")).unwrap();
    assert!(summary.contains("## Fatigue at combat end"), "{summary}");
    assert!(
        summary.contains("| combat.fatigue | true | file |"),
        "{summary}"
    );
}
