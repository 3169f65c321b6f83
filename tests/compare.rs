//! `compare`: identical folders (nothing moves), a changed rule option (exact moves and
//! the provenance difference), two seeds of the same rules (the share of Monte Carlo
//! figures flagged stays within the false-discovery rate). CLI runs on temp dirs.

use std::path::Path;

use assert_cmd::Command;

fn cosmosim() -> Command {
    let mut c = Command::cargo_bin("cosmosim").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

fn table(out: &Path, args: &[&str]) {
    cosmosim()
        .args(["-q", "table"])
        .args(args)
        .args(["--threads", "2", "--out"])
        .arg(out)
        .assert()
        .success();
}

/// Runs compare; returns (exit code, compare.csv rows as (figure, method, moved), md).
fn compare(
    base: &Path,
    new: &Path,
    out: &Path,
    extra: &[&str],
) -> (i32, Vec<(String, String, bool)>, String) {
    let r = cosmosim()
        .arg("compare")
        .arg(base)
        .arg(new)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap();
    let csv = std::fs::read_to_string(out.join("compare.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let rows = csv
        .lines()
        .skip(1)
        .map(|l| {
            let cells = split_csv(l);
            (
                cells[col("figure")].clone(),
                cells[col("method")].clone(),
                cells[col("moved")] == "true",
            )
        })
        .collect();
    let md = std::fs::read_to_string(out.join("compare.md")).unwrap();
    (r.status.code().unwrap_or(-1), rows, md)
}

/// Splits a CSV line, honouring double quotes (row texts hold commas).
fn split_csv(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

#[test]
fn identical_folders_nothing_moves() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    let args = [
        "cosmos-test",
        "--thresholds",
        "40..60",
        "--method",
        "mc",
        "--trials",
        "5000",
    ];
    table(&a, &args);
    table(&b, &args);
    let (code, rows, md) = compare(&a, &b, &d.path().join("c"), &["--fail-on-change"]);
    assert_eq!(code, 0, "{md}");
    assert!(rows.len() > 100);
    assert!(rows.iter().all(|r| !r.2));
    assert!(md.contains("Nothing moved."), "{md}");
}

#[test]
fn a_changed_rule_option_moves_exact_figures() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    table(&a, &["cosmos-test", "--thresholds", "40..60"]);
    // C-TEST-2: reading 42/66 on the score after the karma die moves super results.
    table(
        &b,
        &[
            "cosmos-test",
            "--thresholds",
            "40..60",
            "--option",
            "super_crit_roll=score",
        ],
    );
    let c = d.path().join("c");
    let (code, rows, md) = compare(&a, &b, &c, &[]);
    assert_eq!(code, 0);
    let moved: Vec<_> = rows.iter().filter(|r| r.2).collect();
    assert!(!moved.is_empty() && moved.iter().all(|r| r.1 == "exact"));
    assert!(moved.iter().any(|r| r.0 == "p_success"));
    assert!(
        md.contains("rule_options.super_crit_roll | natural | score"),
        "{md}"
    );
    assert!(c.join("compare.png").is_file());
    let (code, _, _) = compare(&a, &b, &c, &["--fail-on-change"]);
    assert_eq!(code, 1);
}

#[test]
fn two_seeds_flag_within_the_false_discovery_rate() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    let args = ["cosmos-test", "--method", "mc", "--trials", "4000"];
    table(&a, &[&args[..], &["--seed", "1"]].concat());
    table(&b, &[&args[..], &["--seed", "2"]].concat());
    let (code, rows, md) = compare(&a, &b, &d.path().join("c"), &["--alpha", "0.05"]);
    assert_eq!(code, 0);
    let mc: Vec<_> = rows.iter().filter(|r| r.1 == "monte_carlo").collect();
    // 66 thresholds x 21 karma x 6 classes.
    assert_eq!(mc.len(), 66 * 21 * 6, "{md}");
    let flagged = mc.iter().filter(|r| r.2).count();
    // Every difference is noise: BH keeps the share of false discoveries among flagged
    // figures under 5%, and with no true move at all flags nothing with 95% chance.
    assert!(
        (flagged as f64) <= 0.05 * mc.len() as f64,
        "{flagged} of {} flagged",
        mc.len()
    );
    assert!(md.contains("seed | 1 | 2"), "{md}");
}

#[test]
fn added_and_removed_rows_and_outputs_are_listed() {
    let d = tempfile::tempdir().unwrap();
    let (a, b) = (d.path().join("a"), d.path().join("b"));
    table(&a, &["cosmos-test", "--thresholds", "40..60"]);
    table(&a, &["nephilim-test"]);
    table(&b, &["cosmos-test", "--thresholds", "50..70"]);
    let (code, _, md) = compare(&a, &b, &d.path().join("c"), &["--fail-on-change"]);
    assert_eq!(code, 1);
    assert!(md.contains("removed `nephilim-test`"), "{md}");
    assert!(
        md.contains("rows added (210)") && md.contains("rows removed (210)"),
        "{md}"
    );
    cosmosim()
        .args(["compare", "/nonexistent", "/nonexistent2"])
        .assert()
        .code(2);
}

/// Issue 26 item 1: two seeds of the same rules on a scenario whose quantiles are
/// half-open at some seeds (tests until karma +-10, beyond the horizon): no figure reads
/// as moved with p = 0; a half-open or one-sided Monte Carlo figure is not tested.
#[test]
fn half_open_quantiles_are_not_false_moves() {
    let d = tempfile::tempdir().unwrap();
    for seed in ["2", "3"] {
        cosmosim()
            .args([
                "-q",
                "run",
                "scenarios/cosmos/campaign.toml",
                "--trials",
                "4000",
            ])
            .args(["--seed", seed, "--out"])
            .arg(d.path().join(seed))
            .assert()
            .success();
    }
    let (code, rows, md) = compare(
        &d.path().join("2"),
        &d.path().join("3"),
        &d.path().join("cmp"),
        &["--fail-on-change"],
    );
    let moved: Vec<&(String, String, bool)> = rows.iter().filter(|r| r.2).collect();
    assert_eq!(code, 0, "{moved:?}\n{md}");
    assert!(rows.iter().any(|r| r.1 == "monte_carlo"));
}
