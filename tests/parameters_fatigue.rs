//! Fatigue parameters (issue 16): the states' thresholds and test maluses (C-FAT-4) and
//! the combat gains (C-FAT-2). Each gives today's bytes at its book value; changed values
//! move the figures they should, checked against hand-computed values.

mod common;

use std::path::Path;

use cosmosim::systems::cosmos::growth::fatigue::{FatigueLevels, FatigueState};

use common::params::{cell, combat_run, cosmosim, csvs, write};

const WOUNDED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/wounded-ambush.toml"
);

const C_FAT_4: [(&str, &str); 6] = [
    ("fatigue_light_from", "4"),
    ("fatigue_moderate_from", "6"),
    ("fatigue_extreme_from", "8"),
    ("fatigue_light_malus", "5"),
    ("fatigue_moderate_malus", "10"),
    ("fatigue_extreme_malus", "30"),
];

const C_FAT_2: [(&str, &str); 8] = [
    ("fatigue_rounds_per_fp", "5"),
    ("fatigue_combat_end_fp", "1"),
    ("fatigue_per_points", "100"),
    ("fatigue_knockout_fm", "3"),
    ("fatigue_psychic_fm", "2"),
    ("fatigue_point_relief", "6"),
    ("fatigue_sepulchral_backlash_fp", "8"),
    ("fatigue_illumination_backlash", "10"),
];

/// Two combatants exchanging harmless blows for exactly `rounds` rounds with in-combat
/// fatigue on; the hero pays `pm_cost` PM an attack (the foe has no PM and waits) and
/// holds one Dark point, used at the start when `dark` is true.
fn harmless(rounds: u32, pm_cost: u32, dark: bool) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"

[combat]
fatigue = true
max_rounds = {rounds}

[attacks.tickle]
stat = "force"
damage = "0"
pm_cost = {pm_cost}

[combatants.hero]
side = "a"
level = 3
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
pm = 5000
attacks = ["tickle"]

[combatants.hero.policy]
dark_at_start = {dark}

[combatants.foe]
side = "b"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
hp = 100
attacks = ["tickle"]
"#
    )
}

/// The movement-table figure `column` at agility 20, no load, FP `fp`.
fn movement(dir: &Path, out: &str, opts: &[&str], fp: i64, column: &str) -> f64 {
    let mut args = vec!["table", "cosmos-movement", "--out", out, "--quiet"];
    for o in opts {
        args.extend(["--option", o]);
    }
    let o = cosmosim(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(dir.join(out).join("cosmos-movement.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        if c[at("agility")] == "20" && c[at("slots_over")] == "0" && c[at("fp")] == fp.to_string() {
            return c[at(column)].parse().unwrap();
        }
    }
    panic!("no movement row at fp {fp}");
}

#[test]
fn fatigue_parameters_at_their_book_values_give_todays_bytes() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let table = |out: &str, opt: Option<&str>| {
        let mut args = vec!["table", "cosmos-movement", "--out", out, "--quiet"];
        if let Some(o) = opt {
            args.extend(["--option", o]);
        }
        assert!(cosmosim(t, &args).status.success());
        std::fs::read_to_string(t.join(out).join("cosmos-movement.csv")).unwrap()
    };
    let book = table("mbook", None);
    combat_run(t, WOUNDED, "wbook", &[]);
    let wbook = csvs(&t.join("wbook"));
    let f = write(t, "harmless.toml", &harmless(12, 60, true));
    combat_run(t, &f, "hbook", &[]);
    let hbook = csvs(&t.join("hbook"));
    for (k, v) in C_FAT_4 {
        let opt = format!("{k}={v}");
        assert_eq!(table(k, Some(&opt)), book, "{opt}");
        combat_run(t, WOUNDED, &format!("w_{k}"), &[&opt]);
        assert_eq!(csvs(&t.join(format!("w_{k}"))), wbook, "{opt}");
    }
    for (k, v) in C_FAT_2 {
        let opt = format!("{k}={v}");
        combat_run(t, &f, &format!("h_{k}"), &[&opt]);
        assert_eq!(csvs(&t.join(format!("h_{k}"))), hbook, "{opt}");
    }
}

/// C-FAT-4 by hand: the states and maluses under changed thresholds.
#[test]
fn fatigue_levels_place_the_states_and_maluses() {
    let book = FatigueLevels::default();
    let states: Vec<FatigueState> = (0..=10).map(|v| book.state(v)).collect();
    assert_eq!(states, (0..=10).map(FatigueState::of).collect::<Vec<_>>());
    let late = FatigueLevels {
        from: [5, 7, 9],
        malus: [0, 20, 40],
        ..book
    };
    assert_eq!(late.state(4), FatigueState::Fresh);
    assert_eq!(late.state(6), FatigueState::Light);
    assert_eq!(late.state(8), FatigueState::Moderate);
    assert_eq!(late.state(9), FatigueState::Extreme);
    assert_eq!(late.state(10), FatigueState::Exhausted);
    assert_eq!(late.test_malus(FatigueState::Moderate), -20.0);
    assert_eq!(late.concentrated_malus(FatigueState::Extreme), -20.0);
    // Out of order thresholds read as their running maximum: the states stay ordered.
    let odd = FatigueLevels {
        from: [6, 4, 8],
        ..book
    };
    assert_eq!(odd.state(5), FatigueState::Fresh);
    assert_eq!(odd.state(6), FatigueState::Moderate);
}

/// The movement table's sprint test (Agilité 20): P(success or better) is 0.21 fresh
/// (scores 1-20 and the 42); at FP 4 the book's light malus (-5) makes it 0.16 (1-15 and
/// 42); light fatigue from 5 leaves FP 4 fresh; a light malus of 10 gives 0.11.
#[test]
fn fatigue_thresholds_and_maluses_move_the_sprint_test() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let p = "p_sprint_success";
    let fresh = movement(t, "b", &[], 0, p);
    assert!((fresh - 0.21).abs() < 1e-9);
    assert!((movement(t, "b", &[], 4, p) - 0.16).abs() < 1e-9);
    assert_eq!(movement(t, "l5", &["fatigue_light_from=5"], 4, p), fresh);
    assert!((movement(t, "m10", &["fatigue_light_malus=10"], 4, p) - 0.11).abs() < 1e-9);
    // The moderate row (FP 6) is not touched by the light malus.
    assert_eq!(
        movement(t, "m10", &["fatigue_light_malus=10"], 6, p),
        movement(t, "b", &[], 6, p)
    );
    let out = cosmosim(
        t,
        &[
            "table",
            "cosmos-movement",
            "--option",
            "fatigue_light_from=11",
            "--out",
            "x",
            "--quiet",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("from 1 to 10"));
}

/// C-FAT-2 by hand in a 10-round harmless combat with fatigue on: the hero pays 40 PM an
/// attack. FP at the end: 10/5 (every 5 rounds) + 1 (combat end) = 3; with every 2
/// rounds 5 + 1 = 6. FM: 400 PM spent is 4 FM per 100, 8 per 50. With its Dark point used
/// at once, the -6 FM relief is lost at the floor (-3), so FM ends lower than with no
/// relief.
#[test]
fn combat_fatigue_gains_move_the_tracks_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "h.toml", &harmless(10, 40, false));
    let c = "combat-combatants.csv";
    let end = |out: &str, opts: &[&str], col: &str| {
        combat_run(t, &f, out, opts);
        cell(t, out, c, "hero", col)
    };
    assert!((end("book", &[], "fp_end_mean") - 3.0).abs() < 1e-9);
    assert!((end("book", &[], "fm_end_mean") - 4.0).abs() < 1e-9);
    assert!((end("r2", &["fatigue_rounds_per_fp=2"], "fp_end_mean") - 6.0).abs() < 1e-9);
    assert!((end("r2", &["fatigue_rounds_per_fp=2"], "fm_end_mean") - 4.0).abs() < 1e-9);
    assert!((end("p50", &["fatigue_per_points=50"], "fm_end_mean") - 8.0).abs() < 1e-9);
    assert!((end("p50", &["fatigue_per_points=50"], "fp_end_mean") - 3.0).abs() < 1e-9);
    // The end gain apart: 10/5 + 0 = 2, 10/5 + 3 = 5; the FM track does not move.
    assert!((end("e0", &["fatigue_combat_end_fp=0"], "fp_end_mean") - 2.0).abs() < 1e-9);
    assert!((end("e3", &["fatigue_combat_end_fp=3"], "fp_end_mean") - 5.0).abs() < 1e-9);
    assert!((end("e3", &["fatigue_combat_end_fp=3"], "fm_end_mean") - 4.0).abs() < 1e-9);
    // The previous edition has no endurance rule: no gain at all, the end one included.
    assert!((end("prev", &["edition=previous"], "fp_end_mean")).abs() < 1e-9);
    assert!((end("prev", &["edition=previous"], "fm_end_mean")).abs() < 1e-9);
    // The foe pays nothing and holds no point: only the rounds tire it.
    assert!((cell(t, "r2", c, "foe", "fp_end_mean") - 6.0).abs() < 1e-9);
    assert!((cell(t, "book", c, "foe", "fp_end_mean") - 3.0).abs() < 1e-9);

    let g = write(t, "g.toml", &harmless(10, 40, true));
    combat_run(t, &g, "d6", &[]);
    combat_run(t, &g, "d0", &["fatigue_point_relief=0"]);
    let fm = |out: &str| cell(t, out, c, "hero", "fm_end_mean");
    assert!(fm("d0") > fm("d6"), "{} {}", fm("d0"), fm("d6"));
}

/// The shipped in-combat fatigue duel (C-FAT-2, C-FAT-4) pinned at a fixed seed: golden
/// CSVs written by this version at --trials 20000 --seed 1 (any --threads).
#[test]
fn tired_duel_matches_its_golden_csvs() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("o").to_string_lossy().into_owned();
    let o = cosmosim(
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &[
            "run",
            "scenarios/cosmos/tired-duel.toml",
            "--trials",
            "20000",
            "--seed",
            "1",
            "-q",
            "--out",
            &out,
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for (name, golden) in [
        (
            "combat-sides.csv",
            include_str!("golden/combat-tired-duel-sides.csv"),
        ),
        (
            "combat-fatigue.csv",
            include_str!("golden/combat-tired-duel-fatigue.csv"),
        ),
    ] {
        let got = std::fs::read_to_string(d.path().join("o").join(name)).unwrap();
        assert_eq!(got, golden, "{name}");
    }
}
