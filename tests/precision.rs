//! `--precision P` (issue 12 part 3): the trial count grows (65,536 then doubling) until
//! every 95% interval is at most ±P wide, checked at fixed counts, so the stopping point
//! and the numbers are the same for any --threads.

use std::fs;

use assert_cmd::Command;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

/// At threshold 50, karma 0, P(success) = 0.39 exactly (C-TEST): a 95% half-width of
/// ±0.002 needs n >= 1.96^2 * 0.39 * 0.61 / 0.002^2 = 228,480 trials, so the schedule
/// stops at 262,144 (at 131,072 the half-width is about ±0.0026).
#[test]
fn a_table_stops_at_the_first_count_that_reaches_the_precision() {
    let n_star = 1.959964f64.powi(2) * 0.39 * 0.61 / 0.002f64.powi(2);
    assert!(n_star > 131_072.0 && n_star < 262_144.0, "{n_star}");
    let mut csvs = Vec::new();
    for threads in ["1", "2"] {
        let d = tempfile::tempdir().unwrap();
        bin()
            .args([
                "table",
                "cosmos-test",
                "--method",
                "mc",
                "--thresholds",
                "50",
                "--karma",
                "0",
                "--precision",
                "0.002",
                "--threads",
                threads,
                "--quiet",
                "--out",
            ])
            .arg(d.path())
            .assert()
            .success();
        let csv = fs::read_to_string(d.path().join("cosmos-test-mc.csv")).unwrap();
        let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
        assert_eq!(row[8], "262144", "{csv}");
        let meta = fs::read_to_string(d.path().join("cosmos-test-mc.meta.json")).unwrap();
        assert!(meta.contains("\"precision\": \"0.002\""), "{meta}");
        csvs.push(csv);
    }
    assert_eq!(csvs[0], csvs[1]);
}

#[test]
fn a_scenario_run_says_how_many_trials_it_took_and_the_cap_is_honest() {
    let d = tempfile::tempdir().unwrap();
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");
    bin()
        .args(["run", duel, "--precision", "0.5", "--quiet", "--out"])
        .arg(d.path().join("a"))
        .assert()
        .success();
    let s = fs::read_to_string(d.path().join("a/summary.md")).unwrap();
    assert!(
        s.contains("Precision ±0.5 reached with 65536 trials"),
        "{s}"
    );
    bin()
        .args([
            "run",
            duel,
            // ±0.025 needs about 1,300 trials (±0.0286 at 1,000): within twice the cap,
            // so the run goes to the cap and says so (further out, the next test).
            "--precision",
            "0.025",
            "--max-trials",
            "1000",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("b"))
        .assert()
        .success();
    let s = fs::read_to_string(d.path().join("b/summary.md")).unwrap();
    assert!(
        s.contains("NOT reached: stopped at --max-trials 1000"),
        "{s}"
    );
    // Both flags choose the trial count: refused.
    bin()
        .args(["run", duel, "--precision", "0.01", "--trials", "5"])
        .assert()
        .code(2);
    // An exact table has no interval to narrow.
    bin()
        .args(["table", "cosmos-test", "--precision", "0.01", "--out"])
        .arg(d.path().join("c"))
        .assert()
        .code(2);
}

/// Issue 26 item 5: precision is held in each figure's own terms. A campaign's "tests to
/// +-10" (about a thousand tests) is held to +-2% of its value, not to +-0.02 tests, so the
/// run stops; before, it doubled to --max-trials and said NOT reached.
#[test]
fn precision_on_figures_in_their_own_unit_is_relative_and_reached() {
    let d = tempfile::tempdir().unwrap();
    let campaign = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cosmos/campaign.toml"
    );
    bin()
        .args([
            "run",
            campaign,
            "--precision",
            "0.02",
            "--max-trials",
            "1000000",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("c"))
        .assert()
        .success();
    let s = fs::read_to_string(d.path().join("c/summary.md")).unwrap();
    assert!(s.contains("Precision ±0.02 reached with"), "{s}");
    assert!(s.contains("of its value"), "{s}");
    assert!(
        s.contains("other figures (means, days, tests, points) to ±2.00% of their value"),
        "{s}"
    );
}

/// Issue 26 item 5: a goal out of reach is said after the first step (65,536 trials), with
/// the trials it would need, instead of doubling to --max-trials first; exit 2, nothing
/// written. ±0.0001 on the duel's shares needs hundreds of millions of trials.
#[test]
fn a_goal_out_of_reach_is_refused_after_the_first_step_and_writes_nothing() {
    let d = tempfile::tempdir().unwrap();
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");
    let out = bin()
        .args([
            "run",
            duel,
            "--precision",
            "0.0001",
            "--max-trials",
            "1000000",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("a"))
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8_lossy(&out);
    assert!(
        err.contains("cannot be reached within --max-trials 1000000"),
        "{err}"
    );
    assert!(err.contains("after 65536 trials"), "{err}");
    assert!(!d.path().join("a").exists());
}
