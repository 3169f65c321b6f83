//! Rule parameters of Great Cosmos added after the first set (issue 16): the crit-failure
//! band (C-TEST-2) and its widening by extreme fatigue (C-FAT-4), the karma bound
//! (C-KARMA-1, C-TEST-4, C-KARMA-2) and the level-5 Light/Dark grant (C-LD-1). Each gives
//! today's bytes at its book value and moves the figures it should, checked against
//! hand-computed exact values, and Monte Carlo agrees with exact under changed values.

mod common;

use cosmosim::systems::cosmos::{CritBand, Outcome, TestRules, TestSpec};

use common::combat::run_opts;
use common::params::{cell, combat_run, cosmosim, csvs, figure, test_table};

const APOCALYPSE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/apocalypse.toml"
);

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

/// `table cosmos-karma-drift` at threshold 50 with `extra`; returns the CSV text.
fn drift_table(dir: &std::path::Path, out: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "table",
        "cosmos-karma-drift",
        "--thresholds",
        "50",
        "--out",
        out,
        "--quiet",
    ];
    args.extend_from_slice(extra);
    let o = cosmosim(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let name = if extra.contains(&"mc") {
        "cosmos-karma-drift-mc.csv"
    } else {
        "cosmos-karma-drift.csv"
    };
    std::fs::read_to_string(dir.join(out).join(name)).unwrap()
}

/// The karma-drift figure `column` at `karma` (threshold 50).
fn at_karma(csv: &str, karma: i64, column: &str) -> f64 {
    figure(csv, 50, karma, column)
}

#[test]
fn new_parameters_at_their_book_values_give_todays_bytes() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let book = drift_table(t, "book", &[]);
    for opt in ["karma_bound=10", "crit_failure_from=91"] {
        assert_eq!(drift_table(t, opt, &["--option", opt]), book, "{opt}");
    }
    combat_run(t, APOCALYPSE, "cbook", &[]);
    let cbook = csvs(&t.join("cbook"));
    for opt in [
        "level5_points=3",
        "karma_bound=10",
        "crit_failure_from=91",
        "fatigue_crit_failure_extra=5",
    ] {
        let out = format!("c_{opt}");
        combat_run(t, APOCALYPSE, &out, &[opt]);
        assert_eq!(csvs(&t.join(&out)), cbook, "{opt} at its default");
    }
}

/// C-TEST-2 at threshold 50, karma 0: the band 96-100 holds 0.05, the 91-95 scores
/// become plain failures (0.44 with 66 apart); 101 leaves no band.
#[test]
fn crit_failure_from_moves_the_crit_failure_band() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let grid = ["--thresholds", "50", "--karma", "0"];
    let book = test_table(t, "book", &grid);
    assert!(close(figure(&book, 50, 0, "p_crit_failure"), 0.10));
    let at = |out: &str, opt: &str| {
        let mut a = grid.to_vec();
        a.extend(["--option", opt]);
        test_table(t, out, &a)
    };
    let c96 = at("c96", "crit_failure_from=96");
    assert!(close(figure(&c96, 50, 0, "p_crit_failure"), 0.05));
    assert!(close(figure(&c96, 50, 0, "p_failure"), 0.44));
    let none = at("c101", "crit_failure_from=101");
    assert!(close(figure(&none, 50, 0, "p_crit_failure"), 0.0));
    assert!(close(figure(&none, 50, 0, "p_failure"), 0.49));
    for col in [
        "p_super_success",
        "p_crit_success",
        "p_success",
        "p_super_failure",
    ] {
        assert_eq!(figure(&c96, 50, 0, col), figure(&book, 50, 0, col), "{col}");
        assert_eq!(
            figure(&none, 50, 0, col),
            figure(&book, 50, 0, col),
            "{col}"
        );
    }
    // The explicit flag still wins over the parameter.
    let mut a = grid.to_vec();
    a.extend(["--option", "crit_failure_from=96", "--crit-fail-from", "91"]);
    assert_eq!(test_table(t, "flag", &a), book);
}

/// C-FAT-4: extreme fatigue widens the band by `fatigue_crit_failure_extra` below
/// `crit_failure_from`. At threshold 95, karma 0, every score from the band start is a
/// crit failure: 86-100 in the book (0.15), 91-100 with no widening (0.10), 81-100 with 10
/// (0.20), 91-100 again when the band moves to 96 and widens by 5.
#[test]
fn fatigue_crit_failure_extra_widens_the_fatigued_band_only() {
    let p = |rules: &TestRules, band: CritBand| {
        TestSpec::new(95.0, 0)
            .unwrap()
            .with_crit_band(band)
            .exact(rules)
            .prob(&Outcome::CritFailure)
    };
    let book = TestRules::default();
    let with = |extra: u8, from: u8| TestRules {
        fatigue_crit_failure_extra: extra,
        crit_failure_from: from,
        ..book
    };
    assert!(close(p(&book, CritBand::Fatigued), 0.15));
    assert!(close(p(&book, CritBand::Book), 0.10));
    assert!(close(p(&with(0, 91), CritBand::Fatigued), 0.10));
    assert!(close(p(&with(10, 91), CritBand::Fatigued), 0.20));
    assert!(close(p(&with(10, 91), CritBand::Book), 0.10));
    assert!(close(p(&with(5, 96), CritBand::Fatigued), 0.10));

    // In combat, a hero at FP 8 (extreme fatigue) rolls more crit failures with a wider
    // band, so karma climbs more (C-KARMA-1); a fresh hero does not move.
    let text = |fp: u8| {
        format!(
            r#"system = "cosmos"
kind = "combat"

[attacks.blade]
stat = "force"
damage = "1d6"

[combatants.hero]
side = "a"
level = 3
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 2000
pm = 100
fp_start = {fp}
attacks = ["blade"]

[combatants.foe]
side = "b"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
hp = 2000
attacks = ["blade"]
"#
        )
    };
    let mean_karma = |fp: u8, opts: &[&str]| {
        let (sim, acc) = run_opts(&text(fp), 4000, opts);
        let hero = sim.model.fighters.iter().position(|f| f.name == "hero");
        let k = &acc.fighters[hero.unwrap()].karma_end;
        let n: u64 = k.iter().sum();
        k.iter()
            .enumerate()
            .map(|(i, c)| (i as f64 - 10.0) * *c as f64)
            .sum::<f64>()
            / n as f64
    };
    let tired_0 = mean_karma(8, &["fatigue_crit_failure_extra=0"]);
    let tired_20 = mean_karma(8, &["fatigue_crit_failure_extra=20"]);
    assert!(tired_20 > tired_0 + 0.5, "{tired_0} {tired_20}");
    assert_eq!(
        mean_karma(0, &["fatigue_crit_failure_extra=0"]),
        mean_karma(0, &["fatigue_crit_failure_extra=20"])
    );
}

/// C-KARMA-1 / C-TEST-4 with karma_bound = 8: the +-8 rows are the extremes and read
/// exactly as the book's +-10 rows (the karma die applies to both); rows inside are
/// unchanged.
#[test]
fn karma_bound_moves_the_extremes_of_the_test_table() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let grid = ["--thresholds", "50", "--karma", "-10..10"];
    let book = test_table(t, "book", &grid);
    // Under the bound the rows are -8..8 (karma never leaves them, C-KARMA-1; asking for
    // -10..10 is refused since the audit of 2026-12-07, night).
    let b8 = test_table(
        t,
        "b8",
        &["--thresholds", "50", "--option", "karma_bound=8"],
    );
    for k in ["9", "10", "-9", "-10"] {
        assert!(
            !b8.lines().any(|l| l.starts_with(&format!("50,{k},"))),
            "{b8}"
        );
    }
    let cols = [
        "p_super_success",
        "p_crit_success",
        "p_success",
        "p_failure",
        "p_crit_failure",
        "p_super_failure",
    ];
    for col in cols {
        assert_eq!(figure(&b8, 50, 8, col), figure(&book, 50, 10, col), "{col}");
        assert_eq!(
            figure(&b8, 50, -8, col),
            figure(&book, 50, -10, col),
            "{col}"
        );
        for k in -7..=7 {
            assert_eq!(
                figure(&b8, 50, k, col),
                figure(&book, 50, k, col),
                "{col} {k}"
            );
        }
    }
    assert_eq!(figure(&b8, 50, 8, "p_super_failure"), 0.0);
    assert!(figure(&book, 50, 8, "p_super_failure") > 0.0);
}

/// C-KARMA-3 under karma_bound = 8: the chain never reaches +-9 or +-10, the stationary
/// law sums to 1, and long simulated trajectories agree with it (4 standard errors).
#[test]
fn karma_bound_in_the_drift_chain_exact_and_monte_carlo() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let opt = ["--option", "karma_bound=8"];
    let exact = drift_table(t, "e8", &opt);
    let mut sum = 0.0;
    for k in -10..=10 {
        let p = at_karma(&exact, k, "p_stationary");
        if k.abs() > 8 {
            assert!(p.abs() < 1e-12, "karma {k}: {p}");
        }
        sum += p;
    }
    assert!((sum - 1.0).abs() < 1e-9);
    assert!(at_karma(&exact, 8, "p_stationary") > 0.0);
    let mc = drift_table(
        t,
        "m8",
        &[
            "--option",
            "karma_bound=8",
            "--method",
            "mc",
            "--trials",
            "400000",
            "--seed",
            "3",
        ],
    );
    for k in -8..=8 {
        let (v, lo, hi) = (
            at_karma(&mc, k, "p_stationary"),
            at_karma(&mc, k, "p_stationary_lo"),
            at_karma(&mc, k, "p_stationary_hi"),
        );
        let e = at_karma(&exact, k, "p_stationary");
        let se = ((hi - lo) / 3.92).max(1e-6);
        assert!((v - e).abs() <= 4.0 * se, "karma {k}: mc {v} vs exact {e}");
    }
    assert_eq!(at_karma(&mc, 9, "p_stationary"), 0.0);
}

/// C-KARMA-2: in a posture karma reads the bound in force. The hero of apocalypse.toml
/// holds Sépulcrale; with a bound of 5 it keeps its karma die (-5 <= -5) but leaves the
/// karma extreme rows of -10, so the run moves.
#[test]
fn karma_bound_moves_a_combat() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    combat_run(t, APOCALYPSE, "book", &[]);
    combat_run(t, APOCALYPSE, "b5", &["karma_bound=5"]);
    assert_ne!(csvs(&t.join("b5")), csvs(&t.join("book")));
}

/// C-LD-1: a level-5 combatant whose points are left to the rules has 1 + 1 and the grant
/// split two thirds Dark (rounded): grant 3 -> 2 Light + 3 Dark, 2 -> 2 + 2, 0 -> 1 + 1;
/// a given level5_dark takes at most the grant; given counts are kept.
#[test]
fn level5_points_sets_the_points_left_to_the_rules() {
    let text = |keys: &str| {
        format!(
            r#"system = "cosmos"
kind = "combat"

[attacks.blade]
stat = "force"
damage = "1d6"

[combatants.hero]
side = "a"
level = 5
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
pm = 100
attacks = ["blade"]
{keys}

[combatants.foe]
side = "b"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
hp = 100
pm = 100
attacks = ["blade"]
"#
        )
    };
    let points = |keys: &str, opt: &str| {
        let opts: Vec<&str> = if opt.is_empty() { vec![] } else { vec![opt] };
        let (sim, _) = run_opts(&text(keys), 10, &opts);
        let f = sim
            .model
            .fighters
            .iter()
            .find(|f| f.name == "hero")
            .unwrap();
        (f.light_points, f.dark_points)
    };
    assert_eq!(points("", ""), (2, 3));
    assert_eq!(points("", "level5_points=3"), (2, 3));
    assert_eq!(points("", "level5_points=2"), (2, 2));
    assert_eq!(points("", "level5_points=0"), (1, 1));
    assert_eq!(points("", "level5_points=6"), (3, 5));
    assert_eq!(points("level5_dark = 3", "level5_points=2"), (1, 3));
    assert_eq!(points("level5_dark = 3", "level5_points=5"), (3, 4));
    assert_eq!(points("light_points = 1", "level5_points=0"), (1, 1));
    assert_eq!(
        points("light_points = 1\ndark_points = 4", "level5_points=0"),
        (1, 4)
    );
    // The level-3 foe keeps 1 + 1 whatever the grant.
    let (sim, _) = run_opts(&text(""), 10, &["level5_points=9"]);
    let f = sim.model.fighters.iter().find(|f| f.name == "foe").unwrap();
    assert_eq!((f.light_points, f.dark_points), (1, 1));

    // apocalypse.toml: the hero (level 5, level5_dark = 3) spends fewer Dark points with
    // a grant of 1 (2 Dark) than with the book's 3 (4 Dark); mira (level 3) has her 1.
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    combat_run(t, APOCALYPSE, "book", &[]);
    combat_run(t, APOCALYPSE, "g1", &["level5_points=1"]);
    let p = "combat-postures.csv";
    let spent = |out: &str, who: &str| cell(t, out, p, who, "points_spent");
    assert!(spent("g1", "hero") < spent("book", "hero"));
    assert!(spent("g1", "hero") <= 2.0 * 20000.0);
}

#[test]
fn out_of_range_new_parameters_are_refused_with_the_range() {
    let d = tempfile::tempdir().unwrap();
    for (opt, range) in [
        ("crit_failure_from=30", "from 31 to 101"),
        ("crit_failure_from=102", "from 31 to 101"),
        ("fatigue_crit_failure_extra=21", "from 0 to 20"),
        ("karma_bound=11", "from 2 to 10"),
        ("karma_bound=1", "from 2 to 10"),
        ("level5_points=11", "from 0 to 10"),
    ] {
        let o = cosmosim(
            d.path(),
            &["run", APOCALYPSE, "--option", opt, "--out", "x", "--quiet"],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{opt}: {err}");
        assert!(err.contains(range), "{opt}: {err}");
    }
}
