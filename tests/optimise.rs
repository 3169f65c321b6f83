//! `cosmosim optimise` (issue 12): racing finds the point that is best by construction
//! and spends fewer trials than a plain sweep at the same precision.

use std::fs;

use assert_cmd::Command;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

/// In the duel, the Offensive side's win rate grows with Aldric's HP, all else equal:
/// among 20 HP values the largest is best by construction. Racing must name it and spend
/// at most half the trials of running all 20 at the final count.
#[test]
fn racing_finds_the_best_point_with_fewer_trials_than_a_sweep() {
    let d = tempfile::tempdir().unwrap();
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");
    for threads in ["1", "2"] {
        bin()
            .args([
                "optimise",
                duel,
                "--vary",
                "aldric.hp=148..186:2",
                "--maximise",
                "combat-sides.share",
                "--where",
                "outcome=offensive",
                "--first-trials",
                "4096",
                "--max-trials",
                "262144",
                "--threads",
                threads,
                "--quiet",
                "--out",
            ])
            .arg(d.path().join(threads))
            .assert()
            .success();
    }
    let md = fs::read_to_string(d.path().join("1/optimise.md")).unwrap();
    assert!(md.contains("is at aldric.hp=186"), "{md}");
    let csv = fs::read_to_string(d.path().join("1/optimise.csv")).unwrap();
    assert_eq!(
        csv,
        fs::read_to_string(d.path().join("2/optimise.csv")).unwrap()
    );
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert_eq!(rows.len(), 20);
    let spent: u64 = md
        .lines()
        .find(|l| l.contains("trials spent"))
        .and_then(|l| l.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    let most: u64 = rows
        .iter()
        .map(|r| r[4].parse::<u64>().unwrap())
        .max()
        .unwrap();
    assert!(
        spent * 2 <= most * 20,
        "spent {spent}, plain sweep {}",
        most * 20
    );
    assert!(d.path().join("1/optimise.png").exists());
}

#[test]
fn an_exact_table_is_one_round_and_bad_input_exits_2() {
    let d = tempfile::tempdir().unwrap();
    bin()
        .args([
            "optimise",
            "table",
            "cosmos-test",
            "--vary",
            "karma=-3,0,4",
            "--param",
            "thresholds=50",
            "--maximise",
            "p_crit_success",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("t"))
        .assert()
        .success();
    let md = fs::read_to_string(d.path().join("t/optimise.md")).unwrap();
    // More karma, more crits (C-KARMA-1: the d10 comes off the roll).
    assert!(md.contains("is at karma=4"), "{md}");
    // One round, said in the singular (audit of 2026-12-07 afternoon: "in 1 rounds").
    assert!(md.contains("in 1 round;"), "{md}");
    bin()
        .args([
            "optimise",
            "table",
            "cosmos-test",
            "--vary",
            "karma=0",
            "--param",
            "thresholds=50",
            "--maximise",
            "p_nope",
        ])
        .assert()
        .code(2);
    bin()
        .args(["optimise", "table", "cosmos-test", "--vary", "karma=0"])
        .assert()
        .code(2);
}
