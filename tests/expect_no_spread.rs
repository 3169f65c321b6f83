//! Audit of 2026-12-07 (D1): a mean over trials that all gave the same value got a
//! zero-width interval, `0 [0, 0]`, and `expect` took it for proof. The group's pool after
//! test 7 of scenarios/fallout/ap-economy.toml is about 0.0884 (200,000 trials: 0.0884
//! [0.0869, 0.0899]); at 30 trials, seed 3 sees an empty pool in every trial, and `at_most
//! 0.05` said "holds". Such a mean is now unbounded on both sides (empty `_lo`/`_hi`
//! cells), so the expectation is undecided.

use std::path::Path;

mod common;
use common::runs::cosmosim;

const EXPECT: &str = r#"
title = "pool"

[[expect]]
name = "pool after test 7 is at most 0.05"
scenario = "ap.toml"
figure = "ap-flow.mean_pool_after"
where = { test = 7 }
at_most = 0.05
trials = 30
max_trials = 30
"#;

#[test]
fn a_mean_whose_trials_all_agree_decides_nothing() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/fallout/ap-economy.toml"),
        d.join("ap.toml"),
    )
    .unwrap();
    std::fs::write(d.join("e.toml"), EXPECT).unwrap();

    // The run itself: every one of the 30 trials ends test 7 with an empty pool.
    let o = cosmosim(
        d,
        &[
            "-q", "run", "ap.toml", "--seed", "3", "--trials", "30", "--out", "r",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let csv = std::fs::read_to_string(d.join("r/ap-flow.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|c| *c == name).unwrap();
    // Test 7's name holds no comma: plain splitting is safe on the last row.
    let row: Vec<&str> = csv.lines().last().unwrap().split(',').collect();
    assert_eq!(row[col("test")], "7");
    assert_eq!(row[col("mean_pool_after")], "0.0000000000");
    assert_eq!(
        (
            row[col("mean_pool_after_lo")],
            row[col("mean_pool_after_hi")]
        ),
        ("", ""),
        "no spread: no bound, written as empty cells (never 0..0 nor inf)"
    );
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(
        summary.contains("0.00 AP [-∞, ∞]") && summary.contains("showed no spread"),
        "{summary}"
    );

    let o = cosmosim(d, &["-q", "expect", "e.toml", "--seed", "3", "--out", "x"]);
    assert_eq!(o.status.code(), Some(1), "undecided is not success");
    let csv = std::fs::read_to_string(d.join("x/expect.csv")).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(row.contains(",undecided,30,"), "{row}");
    assert!(row.contains(",0.0000000000,,,"), "{row}");
    assert!(row.contains("all 30 trials gave the same value"), "{row}");
}
