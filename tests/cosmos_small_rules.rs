//! Great Cosmos small rules inside scenarios: aura and anti-aura in combat (C-AURA,
//! C-EDITION), inventory overload in combat (C-INV); exact-vs-Monte-Carlo agreement,
//! golden errors, unchanged results without them.

use assert_cmd::Command;

use cosmosim::context::Context;
use cosmosim::lang::Lang;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{load, simulate, CombatAcc, CombatSim};
use cosmosim::systems::cosmos::growth::aura::{
    aura_average, landed_against_canceller, AuraTarget, Edition,
};
use cosmosim::systems::cosmos::growth::GrowthRules;
use cosmosim::systems::cosmos::{TestRules, TestSpec};

/// A hero (index 1) against a foe (index 0); extra TOML lines for each.
fn duel(hero: &str, hero_policy: &str, foe: &str, extra: &str) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"
{extra}

[attacks.blade]
stat = "force"
damage = "2d10+5"

[attacks.tickle]
stat = "force"
damage = "0"

[attacks.kick]
stat = "agilite"
damage = "100000"

[combatants.hero]
side = "heroes"
level = 3
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 1000000
{hero}

[combatants.hero.policy]
{hero_policy}

[combatants.foe]
side = "foes"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
hp = 1000000
{foe}
"#
    )
}

fn run_text(text: &str, trials: u64) -> (CombatSim, CombatAcc) {
    let file = ScenarioFile::from_text("t.toml", text, cosmosim::lang::Lang::En);
    let (raw, model) = load(&file).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let opts = file.rule_options(&raw.rules).unwrap();
    let ctx = Context::new(7, 2, opts, true, cosmosim::lang::Lang::En).unwrap();
    simulate(model, &ctx, trials)
}

/// |p̂ - p| <= 5 sigma.
fn agrees(count: u64, n: u64, p: f64) {
    let ph = count as f64 / n as f64;
    let bound = 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-12;
    assert!(
        (ph - p).abs() <= bound,
        "p̂ = {ph}, exact {p}, bound {bound}"
    );
}

/// The foe only attacks (no defence), the hero tickles: the foe's tests are its attacks.
const FOE_ATTACKS: &str = "attacks = [\"blade\"]\n\n[combatants.foe.policy]\ndefence = \"none\"";

#[test]
fn a_scenario_without_aura_pins_its_numbers() {
    // duel.toml, seed 5, 20000 combats: pinned so that a change to the engine or the rules
    // shows here (re-pinned when the streams got explicit keys and one stream per combat:
    // issue 23, stream version 2).
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenarios/cosmos/duel.toml", "--trials", "20000"])
        .args(["--seed", "5", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("combat-sides.csv")).unwrap();
    assert_eq!(
        csv,
        "outcome,combats,count,share,share_lo,share_hi,mean_rounds\n\
         defensive,20000,14296,0.7148000000,0.7085017261,0.7210157752,13.3857022943\n\
         offensive,20000,5633,0.2816500000,0.2754585434,0.2879253188,12.3907331795\n\
         nobody_standing,20000,71,0.0035500000,0.0028156394,0.0044750332,14.8591549296\n\
         round_cap,20000,0,0.0000000000,0.0000000000,0.0001920361,0.0000000000\n"
    );
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(summary.contains("rounds: mean 13.11, median 13, 90% of combats end by round 17"));
    assert!(!summary.contains("aura"), "{summary}");
}

#[test]
fn one_aura_use_on_the_first_attack_matches_the_exact_face_average() {
    // C-AURA: one point, no anti-aura yet, so the first use is rolled on the foe's first
    // test: its attack at Force 60, karma 0, no bonus. Over the d6 its success chance is
    // the `cosmos-aura` table's average (face 6: passive Esprit 40).
    for (edition, line) in [
        (Edition::Current, "edition = \"current\""),
        (Edition::Previous, "edition = \"previous\""),
    ] {
        let t = duel(
            "attacks = [\"tickle\"]\naura_points = 1",
            "aura_use_on = \"enemy_attacks\"",
            FOE_ATTACKS,
            &format!("{line}\n[combat]\nmax_rounds = 2"),
        );
        let n = 200_000;
        let (_, acc) = run_text(&t, n);
        let a = acc.fighters[1].aura;
        assert_eq!(
            (a.uses, a.cancelled, a.faces.iter().sum::<u64>()),
            (n, 0, n)
        );
        assert_eq!(acc.fighters[0].aura.suffered, n);
        let target = AuraTarget {
            threshold: 60.0,
            karma: 0,
            bonus: 0.0,
            esprit: 40.0,
        };
        let exact = aura_average(
            Lang::En,
            edition,
            &target,
            &TestRules::default(),
            &GrowthRules::default(),
        )
        .unwrap();
        agrees(a.victim_success, n, exact.p_success);
        // Face 6 loses the action when the passive Esprit 40 test fails.
        let esprit = TestSpec::new(40.0, 0)
            .unwrap()
            .exact(&TestRules::default())
            .prob_where(|o| o.is_success());
        agrees(a.actions_lost, n, (1.0 - esprit) / 6.0);
    }
}

#[test]
fn anti_aura_cancels_as_the_exchange_rule_says() {
    // Four uses on a foe that cancels whenever it holds a point: roll, cancel, roll,
    // cancel (C-AURA); starting with 3 points: cancel x3, then roll; never: all rolled.
    let n = 2_000;
    let cases = [
        (
            FOE_ATTACKS.to_string(),
            4 - landed_against_canceller(4) as u64,
        ),
        (format!("anti_aura = 3\n{FOE_ATTACKS}"), 3),
        (format!("{FOE_ATTACKS}\nanti_aura_use = \"never\""), 0),
    ];
    for (foe, cancelled) in cases {
        let t = duel(
            "attacks = [\"tickle\"]\naura_points = 4",
            "",
            &foe,
            "[combat]\nmax_rounds = 6",
        );
        let (_, acc) = run_text(&t, n);
        let a = acc.fighters[1].aura;
        assert_eq!(a.uses, 4 * n, "{foe}");
        assert_eq!(a.cancelled, cancelled * n, "{foe}");
        assert_eq!(acc.fighters[0].aura.anti_spent, cancelled * n);
    }
}

#[test]
fn aura_policy_picks_the_tests_it_falls_on() {
    let n = 500;
    let uses = |hero_policy: &str, foe: &str| {
        // 40 rounds: the hero's tickles succeed at least 4 times (the foe defends only then).
        let t = duel(
            "attacks = [\"tickle\"]\naura_points = 4",
            hero_policy,
            foe,
            "[combat]\nmax_rounds = 40",
        );
        run_text(&t, n).1.fighters[1].aura.uses
    };
    // The foe's attack threshold is 60: a minimum of 61 keeps the points.
    assert_eq!(uses("aura_min_threshold = 61", FOE_ATTACKS), 0);
    assert_eq!(uses("aura_min_threshold = 60", FOE_ATTACKS), 4 * n);
    assert_eq!(uses("aura_use_on = \"never\"", FOE_ATTACKS), 0);
    // The foe never defends: nothing to spend on; when it defends (the hero's tickles)
    // the points go there.
    assert_eq!(uses("aura_use_on = \"enemy_defences\"", FOE_ATTACKS), 0);
    assert_eq!(
        uses(
            "aura_use_on = \"enemy_defences\"",
            "attacks = [\"tickle\"]\nmode = \"defensive\""
        ),
        4 * n
    );
}

#[test]
fn overload_lowers_agilite_for_turn_order_and_tests() {
    // C-INV: Force 60 carries 24 slots; each slot over is -5 Agilité. The hero (Agilité
    // 60) acts before the foe (40) unless 5 slots over (35).
    let first = |slots: u32| {
        let t = duel(
            &format!("attacks = [\"tickle\"]\ninventory_slots_used = {slots}"),
            "",
            "attacks = [\"tickle\"]",
            "[combat]\nmax_rounds = 1",
        );
        run_text(&t, 1_000).1.fighters[1].first_actor
    };
    assert_eq!(first(24), 1_000);
    assert_eq!(first(27), 1_000);
    // 4 over: 40 against 40, a d20 tie-break (C-TURN-1).
    assert!((300..700).contains(&first(28)));
    assert_eq!(first(29), 0);
    // An Agilité attack (100000 damage on 100000 HP, no defence) at 60 - 2 x 5 = 50 kills iff it succeeds.
    let t = duel(
        "attacks = [\"kick\"]\ninventory_slots_used = 26",
        // No defence, so no riposte (a second kick) on the foe's tickle.
        "defence = \"none\"",
        "attacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    )
    .replace(
        "hp = 1000000\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]",
        "hp = 100000\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]",
    );
    let n = 200_000;
    let (sim, acc) = run_text(&t, n);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    let p = TestSpec::new(50.0, 0)
        .unwrap()
        .exact(&TestRules::default())
        .prob_where(|o| o.is_success());
    agrees(acc.outcome[heroes], n, p);
}

fn check_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), text).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "bad.toml"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    String::from_utf8(out.stderr)
        .unwrap()
        .trim_end()
        .to_string()
}

#[test]
fn golden_errors_for_bad_small_rules() {
    let good = || duel("attacks = [\"blade\"]", "", FOE_ATTACKS, "");
    let cases = [
        (
            good().replacen("hp = 1000000\nattacks = [\"blade\"]", "hp = 1000000\nattacks = [\"blade\"]\naura_points = 5", 1),
            "error: bad.toml:23:15: key `combatants.hero.aura_points`: 5 is out of range; allowed: 0..4 (C-AURA: at most 4 aura points)",
        ),
        (
            good().replace("[combatants.hero.policy]\n", "[combatants.hero.policy]\naura_use_on = \"sometimes\"\n"),
            "error: bad.toml:25:15: key `combatants.hero.policy.aura_use_on`: unknown variant `sometimes`, expected one of `enemy_attacks`, `enemy_defences`, `enemy_tests`, `never`",
        ),
        (
            good().replacen("hp = 1000000\nattacks = [\"blade\"]", "hp = 1000000\nattacks = [\"blade\"]\naura_points = 2", 1).replace("[combatants.hero.policy]\n", "[combatants.hero.policy]\naura_target = \"hero\"\n"),
            "error: bad.toml:26:15: key `combatants.hero.policy.aura_target`: \"hero\" is not an enemy combatant; allowed: \"foe\"",
        ),
        (
            good().replace("[combatants.hero.policy]\n", "[combatants.hero.policy]\naura_min_threshold = 300\n"),
            "error: bad.toml:25:22: key `combatants.hero.policy.aura_min_threshold`: 300 is out of range; allowed: 0..200 (the enemy test's threshold, stat plus modifiers)",
        ),
        (
            good().replacen("hp = 1000000\nattacks = [\"blade\"]", "hp = 1000000\nattacks = [\"blade\"]\nanti_aura = 101", 1),
            "error: bad.toml:23:13: key `combatants.hero.anti_aura`: 101 is out of range; allowed: 0..100",
        ),
        (
            good().replacen("hp = 1000000\nattacks = [\"blade\"]", "hp = 1000000\nattacks = [\"blade\"]\ninventory_slots_used = -1", 1),
            "error: bad.toml:23:24: key `combatants.hero.inventory_slots_used`: -1 is out of range; allowed: 0..1000 (C-INV: capacity is 4 x floor(Force / 10))",
        ),
        (
            good().replace("kind = \"combat\"\n", "kind = \"combat\"\nedition = \"first\"\n"),
            "error: bad.toml:3:11: key `edition`: unknown variant `first`, expected `current` or `previous`",
        ),
        (
            good().replace("[combatants.foe.policy]\n", "[combatants.foe.policy]\nanti_aura_use = \"sometimes\"\n"),
            "error: bad.toml:35:17: key `combatants.foe.policy.anti_aura_use`: unknown variant `sometimes`, expected `always` or `never`",
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
}

#[test]
fn aura_duel_reports_aura_columns_and_lines() {
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["run", "scenarios/cosmos/aura-duel.toml", "--trials", "4000"])
        .args(["-q", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("combat-sides.csv")).unwrap();
    assert!(csv.starts_with("outcome,combats,count,share,share_lo,share_hi,mean_rounds,aura_uses,aura_uses_per_combat,aura_cancelled,aura_rolled,aura_victim_success_share,aura_victim_success_share_lo,aura_victim_success_share_hi,aura_actions_lost\n"), "{csv}");
    // 4 uses per combat against a foe that cancels every other one (C-AURA).
    assert!(
        csv.contains("\naura,4000,") && csv.contains(",16000,4.0000000000,8000,8000,"),
        "{csv}"
    );
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    assert!(
        summary.contains(
            "- aura (current edition): 4.000 uses per combat; cancelled by anti-aura 50.00%"
        ),
        "{summary}"
    );
    assert!(summary.contains("## Aura (C-AURA)"));
}

#[test]
fn an_aura_policy_without_points_is_accepted_and_never_fires() {
    // So `--vary seer.aura_points=0..4` sweeps through 0.
    let t = duel(
        "attacks = [\"tickle\"]\naura_points = 0",
        "aura_use_on = \"enemy_tests\"",
        FOE_ATTACKS,
        "[combat]\nmax_rounds = 3",
    );
    let (sim, acc) = run_text(&t, 1_000);
    assert!(!sim.model.uses_small_rules());
    assert_eq!(acc.fighters[1].aura.uses, 0);
}

/// Runs a scenario text (written to a temp dir) and returns (stderr, exit code, folder).
fn run_file(text: &str, trials: &str) -> (tempfile::TempDir, Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("s.toml"), text).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(dir.path())
        .args(["run", "s.toml", "--trials", trials, "-q", "--out", "out"])
        .output()
        .unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    (dir, out.status.code(), err)
}

/// `column` of `expedition-days.csv`, one value per day.
fn day_column(dir: &tempfile::TempDir, column: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(dir.path().join("out/expedition-days.csv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let i = head
        .iter()
        .position(|h| *h == column)
        .unwrap_or_else(|| panic!("{column}"));
    lines
        .map(|l| l.split(',').nth(i).unwrap().parse().unwrap())
        .collect()
}

fn legs_file() -> String {
    std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cosmos/expedition-legs.toml"
    ))
    .unwrap()
}

#[test]
fn an_expedition_without_legs_pins_its_numbers() {
    // expedition.toml, seed 1, 20000 expeditions: pinned so that a change to the engine or
    // the rules shows here (re-pinned when the streams got explicit keys and one stream per
    // expedition: issue 23, stream version 2).
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cosmos/expedition.toml"
    ))
    .unwrap();
    let (dir, code, err) = run_file(&text, "20000");
    assert_eq!(code, Some(0), "{err}");
    let summary = std::fs::read_to_string(dir.path().join("out/summary.md")).unwrap();
    assert!(
        summary.contains("- P(exhausted at least once in 10 days) = 0.2726 (95% 0.2664..0.2788)"),
        "{summary}"
    );
    // The end-of-day FP (formerly `fp_mean`, issue 10 item 2 labels the moment).
    assert_eq!(day_column(&dir, "fp_end_mean")[0], 0.81295);
    assert!(!summary.contains("piloting") && !summary.contains("march:"));
}

#[test]
fn piloting_leg_success_per_day_is_the_exact_c_pilot_chance() {
    // Crew 3 + 4 = 7 on a d10: 70%; stress 1 on days 4-5: a d12, 7/12 (C-PILOT).
    let (dir, code, err) = run_file(&legs_file(), "2000");
    assert_eq!(code, Some(0), "{err}");
    let p = day_column(&dir, "p_piloting_success_exact");
    let want: Vec<f64> = (1..=10)
        .map(|d| if d == 4 || d == 5 { 7.0 / 12.0 } else { 0.7 })
        .collect();
    for (a, b) in p.iter().zip(&want) {
        assert!((a - b).abs() < 1e-9, "{p:?}");
    }
    // A world-ship ignores stress; stress 2 on a d12 goes past the d20: fails.
    let t = legs_file().replace("vehicle_die = 10", "vehicle_die = 100");
    let (dir, _, _) = run_file(&t, "500");
    assert!(day_column(&dir, "p_piloting_success_exact")
        .iter()
        .all(|&x| (x - 0.07).abs() < 1e-12));
    let t = legs_file()
        .replace("vehicle_die = 10", "vehicle_die = 12")
        .replace("piloting_stress = 1 ", "piloting_stress = 2 ");
    let (dir, _, _) = run_file(&t, "500");
    assert_eq!(day_column(&dir, "p_piloting_success_exact")[3], 0.0);
}

#[test]
fn march_distance_follows_move_overload_and_fatigue() {
    // Day 1 morning: FP -1 (Force 62, C-FAT-1), fresh. Agilité 55: 3 units a turn
    // (C-MOVE); 26 slots on capacity 24 halve it to 1 (C-INV): 100 turns -> 100.
    let (dir, code, err) = run_file(&legs_file(), "2000");
    assert_eq!(code, Some(0), "{err}");
    let d = day_column(&dir, "march_distance_mean");
    assert_eq!(d[0], 100.0);
    // Never more than fresh; on day 6 some travellers start at moderate or extreme FP:
    // (3 - 2) / 2 = 0 at extreme (C-FAT-4), so the mean drops.
    assert!(d.iter().all(|&x| x <= 100.0) && d[5] < 100.0, "{d:?}");
    // Within capacity: 3 a turn.
    let t = legs_file().replace("inventory_slots_used = 26 ", "inventory_slots_used = 24 ");
    let (dir, _, _) = run_file(&t, "500");
    assert_eq!(day_column(&dir, "march_distance_mean")[0], 300.0);
    // Sprinting, overloaded: Agilité test at 55 - 10 = 45 (karma 0): fail 55% (1 unit),
    // plain success 34% (6 / 2 = 3), crit 10% (7 / 2 = 3), super 1% (9 / 2 = 4).
    let t = legs_file().replace("pace = \"walk\"", "pace = \"sprint\"");
    let (dir, _, _) = run_file(&t, "500");
    let want = 100.0 * (0.55 + 0.34 * 3.0 + 0.10 * 3.0 + 0.01 * 4.0);
    assert!((day_column(&dir, "march_distance_mean")[0] - want).abs() < 1e-9);
}

#[test]
fn golden_errors_for_bad_legs() {
    let cases = [
        (
            legs_file().replace("vehicle_die = 10", "vehicle_die = 7"),
            "key `expedition.piloting.vehicle_die`: d7 is not a vehicle die; allowed: 4, 6, 8, 10, 12, 20 or 100 (C-PILOT: d4 light single-seat / fighter .. d20 titan, d100 world-ship)",
        ),
        (
            legs_file().replace("scores = [3, 4]", "scores = []"),
            "key `expedition.piloting.scores`: 0 pilot scores; allowed: 1..8 scores (several pilots add them, C-PILOT)",
        ),
        (
            legs_file().replace("piloting_stress = 1 ", "piloting_stress = 3 "),
            "key `expedition.changes[0].piloting_stress`: 3 is out of range; allowed: 0..2",
        ),
        (
            legs_file().replace("agilite = 55 ", "agilite = 0 "),
            "key `expedition.march.agilite`: 0 is out of range; allowed: 1..100",
        ),
        (
            legs_file().replace("turns_per_day = 100 ", "turns_per_day = 0 "),
            "key `expedition.march.turns_per_day`: 0 is out of range; allowed: 1..100000",
        ),
        (
            legs_file().replace("karma = 0\nturns_per_day", "karma = 11\nturns_per_day"),
            "key `expedition.march.karma`: 11 is out of range; allowed: -10..10 (C-TEST-3)",
        ),
        (
            legs_file().replace("scores = [3, 4]", "scores = [3, 101]"),
            "key `expedition.piloting.scores[1]`: 101 is out of range; allowed: 0..100",
        ),
        (
            legs_file().replace("inventory_slots_used = 26 ", "inventory_slots_used = -2 "),
            "key `expedition.march.inventory_slots_used`: -2 is out of range; allowed: 0..1000 (C-INV: capacity is 4 x floor(Force / 10))",
        ),
        (
            legs_file().replace("pace = \"walk\"", "pace = \"run\""),
            "key `expedition.march.pace`: unknown variant `run`, expected `walk` or `sprint`",
        ),
        (
            legs_file()
                .replace("[expedition.piloting]", "[expedition.unused]")
                .replace("scores = [3, 4]", "")
                .replace("vehicle_die = 10", ""),
            "",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let (_, code, err) = run_file(text, "10");
        assert_eq!(code, Some(2), "{err}");
        if i == cases.len() - 1 {
            // An unknown table is refused by name.
            assert!(err.contains("unknown field `unused`"), "{err}");
            continue;
        }
        let line = err.trim_end();
        assert!(
            line.starts_with("error: s.toml:") && line.ends_with(want),
            "got:  {line}\nwant: ...{want}"
        );
    }
    // piloting_stress without a piloting leg.
    let t = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cosmos/expedition.toml"
    ))
    .unwrap()
    .replace(
        "rest_quality = 0\n",
        "rest_quality = 0\npiloting_stress = 1\n",
    );
    let (_, code, err) = run_file(&t, "10");
    assert_eq!(code, Some(2));
    assert_eq!(err.trim_end(), "error: s.toml:27:19: key `expedition.day.piloting_stress`: piloting_stress without a piloting leg; allowed: an [expedition.piloting] table (scores, vehicle_die), or no piloting_stress");
}

#[test]
fn aura_runs_are_byte_identical_whatever_the_threads() {
    let run = |threads: &str| {
        let dir = tempfile::tempdir().unwrap();
        Command::cargo_bin("cosmosim")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args([
                "run",
                "scenarios/cosmos/aura-duel.toml",
                "--trials",
                "70000",
            ])
            .args(["--threads", threads, "-q", "--out"])
            .arg(dir.path())
            .assert()
            .success();
        let read = |f: &str| std::fs::read(dir.path().join(f)).unwrap();
        (read("combat-sides.csv"), read("summary.md"))
    };
    assert_eq!(run("1"), run("2"));
}
