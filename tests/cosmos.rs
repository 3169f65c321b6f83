//! Great Cosmos tests and karma (C-TEST-1..5, C-KARMA-1, C-KARMA-3): exact values by hand,
//! Monte Carlo against exact, determinism, golden CSVs and CLI errors.

use std::path::Path;

use assert_cmd::Command;
use cosmosim::context::Context;
use cosmosim::engine::{Moments, Progress};
use cosmosim::rules::RuleOptions;
use cosmosim::systems::cosmos::tables::{test_grid_exact, test_grid_mc, TestGrid};
use cosmosim::systems::cosmos::{
    stationary, KarmaWalk, Outcome, TestRules, TestSpec, KARMA_STATES,
};

fn exact_cell(threshold: f64, karma: i8, rules: &TestRules) -> [f64; 6] {
    let d = TestSpec::new(threshold, karma).unwrap().exact(rules);
    Outcome::ALL.map(|o| d.prob(&o))
}

fn assert_cell(got: [f64; 6], want: [f64; 6]) {
    for i in 0..6 {
        assert!(
            (got[i] - want[i]).abs() < 1e-12,
            "class {i}: got {got:?}, want {want:?}"
        );
    }
}

#[test]
fn threshold_50_karma_0_by_hand() {
    // C-TEST-2: 42 and 66 one face each, 1..10 and 91..100 ten each, 11..50 less the 42.
    assert_cell(
        exact_cell(50.0, 0, &TestRules::default()),
        [0.01, 0.10, 0.39, 0.39, 0.10, 0.01],
    );
}

#[test]
fn karma_plus_10_by_hand() {
    // C-TEST-3/4: score = r - d10; 66 is a crit failure; no crit failure from the band.
    // crit success: r <= 10 + d for d = 1..10 -> sum(10 + d) = 155 of 1000.
    // success: r in 11+d..50+d less the 42 -> 39 per d -> 390.
    assert_cell(
        exact_cell(50.0, 10, &TestRules::default()),
        [0.01, 0.155, 0.39, 0.435, 0.01, 0.0],
    );
}

#[test]
fn karma_minus_10_by_hand() {
    // C-TEST-3/4: score = r + d10; 42 is only a crit; a low score is not a crit.
    // crit failure: r >= 91 - d -> sum(10 + d) = 155; success: r <= 50 - d less the 42
    // (present for d <= 8) -> 445 - 8 = 437.
    assert_cell(
        exact_cell(50.0, -10, &TestRules::default()),
        [0.0, 0.01, 0.437, 0.388, 0.155, 0.01],
    );
}

#[test]
fn threshold_below_10_and_above_90() {
    // Crit bands override the threshold (C-TEST-2): at T = 5 no plain success exists; at
    // T = 95 no plain failure exists and 91..95 stay crit failures.
    let r = TestRules::default();
    assert_cell(exact_cell(5.0, 0, &r), [0.01, 0.10, 0.0, 0.78, 0.10, 0.01]);
    assert_cell(exact_cell(95.0, 0, &r), [0.01, 0.10, 0.78, 0.0, 0.10, 0.01]);
}

#[test]
fn mean_threshold_and_percent_modes() {
    // C-TEST-1: mean of 50 and 55 is 52.5, so 52 succeeds and 53 fails: 11..52 less 42.
    let r = TestRules::default();
    let spec = TestSpec::mean_of(&[50.0, 55.0], 0).unwrap();
    assert!((spec.exact(&r).prob(&Outcome::Success) - 0.41).abs() < 1e-12);
    // +10% as points: 55 -> 65 (11..65 less 42: 54); relative: 55 -> 60.5 (11..60 less 42: 49).
    let base = TestSpec::new(55.0, 0).unwrap();
    let points = base.with_modifier(10.0, cosmosim::systems::cosmos::PercentMode::Points);
    let rel = base.with_modifier(10.0, cosmosim::systems::cosmos::PercentMode::Relative);
    assert!((points.exact(&r).prob(&Outcome::Success) - 0.54).abs() < 1e-12);
    assert!((rel.exact(&r).prob(&Outcome::Success) - 0.49).abs() < 1e-12);
}

#[test]
fn crit_failure_band_shift() {
    // C-FAT-4: extreme fatigue starts the crit-failure band at 86 (86..100 less nothing).
    let spec = TestSpec::new(50.0, 0)
        .unwrap()
        .with_crit_fail_from(86)
        .unwrap();
    let d = spec.exact(&TestRules::default());
    assert!((d.prob(&Outcome::CritFailure) - 0.15).abs() < 1e-12);
    assert!((d.prob(&Outcome::Failure) - 0.34).abs() < 1e-12);
}

#[test]
fn super_crit_on_score_option() {
    // super_crit_roll = score: at karma 0 nothing changes; at +5 the 42 is read after the d10.
    let o = RuleOptions::from_pairs(&["super_crit_roll=score"], cosmosim::lang::Lang::En).unwrap();
    let r = TestRules::from_options(&o);
    assert_cell(
        exact_cell(50.0, 0, &r),
        [0.01, 0.10, 0.39, 0.39, 0.10, 0.01],
    );
    // score 42 <=> r = 42 + d (r in 43..52): 10 of 1000; score 66 <=> r in 67..76: 10.
    let c = exact_cell(50.0, 5, &r);
    assert!((c[0] - 0.01).abs() < 1e-12 && (c[5] - 0.01).abs() < 1e-12);
    // ...but under the natural reading at +5 the super classes are still 1% each too;
    // the difference is *which* rolls: natural 42 with d10 is now a plain success.
    let d = TestSpec::new(50.0, 5).unwrap().exact(&r);
    assert!(d.prob(&Outcome::Success) > 0.0);
}

#[test]
fn intuition_is_a_d6_roll_under() {
    // C-TEST-5: success iff d6 <= intuition.
    use cosmosim::lang::Lang;
    use cosmosim::systems::cosmos::intuition_chance;
    for i in 1..=6 {
        assert!((intuition_chance(i, Lang::En).unwrap() - i as f64 / 6.0).abs() < 1e-12);
    }
    assert!(intuition_chance(0, Lang::En).is_err() && intuition_chance(7, Lang::En).is_err());
}

fn ctx(seed: u64, threads: usize) -> Context {
    Context::new(
        seed,
        threads,
        RuleOptions::default(),
        true,
        cosmosim::lang::Lang::En,
    )
    .unwrap()
}

#[test]
fn monte_carlo_matches_exact_on_a_sub_grid() {
    // Bound: every (cell, class) within 5 standard errors, plus exact zeros stay zero.
    // 40 cells x 6 classes at 5 sigma: a false alarm has probability ~1e-4, and the seed is
    // fixed so the test is deterministic.
    let grid = TestGrid {
        thresholds: vec![5, 30, 55, 80, 95],
        karma: vec![-10, -7, -3, 0, 4, 5, 9, 10],
        modifier: 0.0,
        crit_fail_from: 91,
    };
    let rules = TestRules::default();
    let n = 200_000u64;
    let exact = test_grid_exact(&grid, &rules, cosmosim::lang::Lang::En).unwrap();
    let mc = test_grid_mc(&grid, &rules, &ctx(11, 2), n).unwrap();
    for (e, m) in exact.iter().zip(&mc) {
        assert_eq!(m.total(), n);
        for (i, (&p, &count)) in e.iter().zip(&m.counts).enumerate() {
            let p_hat = count as f64 / n as f64;
            let sigma = (p * (1.0 - p) / n as f64).sqrt();
            assert!(
                (p_hat - p).abs() <= 5.0 * sigma + 1e-15,
                "class {i}: exact {p} mc {p_hat}"
            );
        }
    }
}

#[test]
fn karma_chain_matches_simulation() {
    // C-KARMA-3: the exact stationary distribution vs long trajectories. Each batch is an
    // independent chain; bound = 5 standard errors of the chain-share mean.
    let rules = TestRules::default();
    for threshold in [30.0, 60.0] {
        let pi = stationary(threshold, &rules);
        let walk = KarmaWalk::new(threshold, &rules, 1_000);
        let acc = ctx(3, 2).engine.run(
            &walk,
            &cosmosim::engine::StreamKey::new("test").int("task", threshold as i64),
            40 * 65_536,
            &Progress::hidden(),
        );
        assert_eq!(acc.share.len(), KARMA_STATES);
        for (k, (m, &p)) in acc.share.iter().zip(&pi).enumerate() {
            let m: &Moments = m;
            assert!(
                (m.mean - p).abs() <= 5.0 * m.std_error() + 1e-6,
                "T {threshold} state {k}: exact {p} mc {} se {}",
                m.mean,
                m.std_error()
            );
        }
    }
}

#[test]
fn karma_chain_is_symmetric_where_the_rules_are() {
    // At threshold 50 the d100 is symmetric except for the threshold itself, so mean karma
    // drifts little; at threshold 20 crit failures dominate only through the karma die.
    let pi = stationary(50.0, &TestRules::default());
    let mean: f64 = pi
        .iter()
        .enumerate()
        .map(|(i, p)| (i as f64 - 10.0) * p)
        .sum();
    assert!(mean.abs() < 0.5, "{mean}");
}

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn byte_identical_across_thread_counts() {
    let dirs: Vec<tempfile::TempDir> = (0..3).map(|_| tempfile::tempdir().unwrap()).collect();
    for (d, threads) in dirs.iter().zip(["1", "2", "8"]) {
        cosmosim()
            .args([
                "--quiet",
                "table",
                "cosmos-test",
                "--method",
                "mc",
                "--trials",
                "150000",
            ])
            .args([
                "--thresholds",
                "40..44",
                "--karma",
                "-6,0,6",
                "--seed",
                "7",
                "--threads",
                threads,
            ])
            .arg("--out")
            .arg(d.path())
            .assert()
            .success();
    }
    // A Monte Carlo table is published as <name>-mc (issue 8), as in `report`.
    for f in [
        "cosmos-test-mc.csv",
        "cosmos-test-mc.meta.json",
        "cosmos-test-mc.png",
    ] {
        let a = read(&dirs[0].path().join(f));
        assert_eq!(
            a,
            read(&dirs[1].path().join(f)),
            "{f} differs 1 vs 2 threads"
        );
        assert_eq!(
            a,
            read(&dirs[2].path().join(f)),
            "{f} differs 1 vs 8 threads"
        );
    }
}

/// Golden snapshots: the exact table and a fixed-seed Monte Carlo table. A change here is
/// a change of published numbers: regenerate deliberately with
/// `UPDATE_GOLDEN=1 cargo test --release --test cosmos`.
fn golden(name: &str, args: &[&str]) {
    let d = tempfile::tempdir().unwrap();
    cosmosim()
        .args(["--quiet", "table"])
        .args(args)
        .arg("--out")
        .arg(d.path())
        .assert()
        .success();
    // Monte Carlo tables are written as <name>-mc.csv.
    let stem = if args.contains(&"mc") {
        format!("{}-mc", args[0])
    } else {
        args[0].to_string()
    };
    let got = String::from_utf8(read(&d.path().join(format!("{stem}.csv")))).unwrap();
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &got).unwrap();
    }
    let want = String::from_utf8(read(&path)).unwrap();
    assert_eq!(got, want, "golden {name} changed");
}

#[test]
fn golden_exact_table() {
    golden(
        "cosmos-test-exact.csv",
        &[
            "cosmos-test",
            "--thresholds",
            "8..11,49..51,89..92",
            "--karma",
            "-10,-5,0,5,10",
        ],
    );
}

#[test]
fn golden_monte_carlo_table_pins_the_streams() {
    golden(
        "cosmos-test-mc-seed7.csv",
        &[
            "cosmos-test",
            "--method",
            "mc",
            "--trials",
            "20000",
            "--seed",
            "7",
            "--thresholds",
            "50,55",
            "--karma",
            "0,6",
        ],
    );
}

#[test]
fn golden_karma_drift() {
    golden(
        "cosmos-karma-drift.csv",
        &["cosmos-karma-drift", "--thresholds", "25,50,75"],
    );
}

#[test]
fn rule_option_changes_the_table_and_is_recorded() {
    let d = tempfile::tempdir().unwrap();
    cosmosim()
        .args([
            "--quiet",
            "table",
            "cosmos-test",
            "--thresholds",
            "50",
            "--karma",
            "5",
        ])
        .args(["--option", "super_crit_roll=score", "--out"])
        .arg(d.path())
        .assert()
        .success();
    let meta = String::from_utf8(read(&d.path().join("cosmos-test.meta.json"))).unwrap();
    assert!(meta.contains("\"super_crit_roll\": \"score\""), "{meta}");
    assert!(meta.contains("\"karma_overflow\": \"clamp\""), "{meta}");
}

fn fails_with(args: &[&str], needle: &str) {
    let out = cosmosim().args(args).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "args {args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(needle), "args {args:?}: stderr was {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn bad_flags_exit_2_with_a_clear_message() {
    fails_with(
        &["table", "cosmos-test", "--karma", "11"],
        "11 is out of range; allowed values: -10..10",
    );
    fails_with(
        &["table", "cosmos-test", "--thresholds", "80..20"],
        "range 80..20 is empty",
    );
    fails_with(
        &["table", "cosmos-test", "--method", "guess"],
        "possible values: exact, mc",
    );
    fails_with(
        &["table", "cosmos-test", "--trials", "0"],
        "0 is out of range; allowed: 1..1000000000000",
    );
    fails_with(
        &["table", "cosmos-test", "--crit-fail-from", "5"],
        "5 is out of range; allowed: 11..100",
    );
    fails_with(
        &["table", "cosmos-test", "--option", "karma_overflow=wrap"],
        "allowed: clamp | cancel",
    );
    fails_with(
        &["table", "cosmos-test", "--option", "nonsense=1"],
        "unknown rule option `nonsense`",
    );
    fails_with(&["table", "cosmos-nothing"], "unrecognized subcommand");
}

#[test]
fn failed_run_leaves_previous_outputs_intact() {
    let d = tempfile::tempdir().unwrap();
    let csv = d.path().join("cosmos-test.csv");
    std::fs::write(&csv, "previous").unwrap();
    let out = cosmosim()
        .args([
            "table",
            "cosmos-test",
            "--option",
            "percent_mode=both",
            "--out",
        ])
        .arg(d.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(read(&csv), b"previous");
}
