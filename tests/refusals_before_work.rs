//! Bad input refused before any work (issue 8): every cap with the cap in the message, bad
//! `--out` folders, options given twice or for another system, duplicated keys, long bad
//! values; the default output folders; warnings that reach `check` and the summary. The
//! binary is run on temp folders as a CI operator would.

mod common;

use std::fs;
use std::time::{Duration, Instant};

use common::runs::*;

#[test]
fn every_size_is_capped_before_work_with_the_cap_in_the_message() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let f = f.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec!["table", "cosmos-test", "--threads", "100000"],
            "0..1024",
        ),
        (vec!["run", f, "--threads", "2000"], "0..1024"),
        (
            vec![
                "table",
                "cosmos-test",
                "--method",
                "mc",
                "--trials",
                "1000000000001",
            ],
            "1..1000000000000",
        ),
        (
            vec![
                "table",
                "cosmos-karma-drift",
                "--method",
                "mc",
                "--burn-in",
                "99999999999999",
            ],
            "0..10000000",
        ),
        (
            vec![
                "sweep",
                f,
                "--vary",
                "aldric.hp=1..1000",
                "--vary",
                "brune.hp=1..1000",
            ],
            "at most 10000",
        ),
        (
            vec![
                "sweep",
                f,
                "--vary",
                "aldric.hp=1..5",
                "--max-points",
                "2000000",
            ],
            "1..100000",
        ),
        (
            vec!["table", "cosmos-test", "--thresholds=-99999999999..5"],
            "-100..200",
        ),
    ];
    for (args, cap) in cases {
        let start = Instant::now();
        let err = stderr_of(&args, t.path(), 2);
        assert!(err.contains(cap), "{args:?}: {err}");
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{args:?} did work"
        );
    }
    let big = fs::read_to_string(f)
        .unwrap()
        .replace("trials = 1000", "trials = 1000000000000000");
    fs::write(t.path().join("big.toml"), big).unwrap();
    for cmd in ["check", "run"] {
        let err = stderr_of(&[cmd, "big.toml"], t.path(), 2);
        assert!(
            err.contains("big.toml:") && err.contains("1..1000000000000"),
            "{err}"
        );
    }
    // --max-points raises the grid cap explicitly.
    run_ok(
        &[
            "sweep",
            f,
            "--trials",
            "10",
            "--vary",
            "aldric.hp=100..102",
            "--max-points",
            "3",
            "--out",
            "sw",
            "--quiet",
        ],
        t.path(),
    );
}

#[test]
fn bad_out_folders_are_refused_before_computing() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let f = f.to_str().unwrap();
    fs::write(t.path().join("afile"), "x").unwrap();
    for (out, why) in [
        ("afile", "is a file, not a folder"),
        (
            "afile/sub",
            "is a file, so no folder can be created under it",
        ),
    ] {
        let start = Instant::now();
        let err = stderr_of(
            &["run", f, "--out", out, "--trials", "100000000"],
            t.path(),
            2,
        );
        assert!(err.contains(why), "{err}");
        assert!(start.elapsed() < Duration::from_secs(5));
        let err = stderr_of(&["table", "cosmos-test", "--out", out], t.path(), 2);
        assert!(err.contains(why), "{err}");
    }
}

#[test]
fn default_folders_mirror_the_scenario_path_and_mc_tables_keep_their_name() {
    let t = tempfile::tempdir().unwrap();
    for sys in ["cosmos", "trinites"] {
        fs::create_dir_all(t.path().join("scenarios").join(sys)).unwrap();
        fs::copy(
            project().join(format!("scenarios/{sys}/duel.toml")),
            t.path().join(format!("scenarios/{sys}/duel.toml")),
        )
        .unwrap();
    }
    run_ok(
        &[
            "run",
            "scenarios/cosmos/duel.toml",
            "--trials",
            "500",
            "--quiet",
        ],
        t.path(),
    );
    run_ok(
        &[
            "run",
            "scenarios/trinites/duel.toml",
            "--trials",
            "200",
            "--quiet",
        ],
        t.path(),
    );
    run_ok(
        &[
            "sweep",
            "scenarios/cosmos/duel.toml",
            "--trials",
            "100",
            "--vary",
            "aldric.level=3,4",
            "--quiet",
        ],
        t.path(),
    );
    let reports = t.path().join("reports");
    assert!(reports.join("cosmos/duel/summary.md").exists());
    assert!(reports.join("trinites/duel/summary.md").exists());
    assert!(reports
        .join("cosmos/duel/sweep-aldric.level/sweep.csv")
        .exists());
    run_ok(
        &["table", "cosmos-test", "--thresholds", "50", "--quiet"],
        t.path(),
    );
    let exact = fs::read(reports.join("cosmos-test.csv")).unwrap();
    run_ok(
        &[
            "table",
            "cosmos-test",
            "--thresholds",
            "50",
            "--method",
            "mc",
            "--trials",
            "1000",
            "--quiet",
        ],
        t.path(),
    );
    assert_eq!(fs::read(reports.join("cosmos-test.csv")).unwrap(), exact);
    assert!(reports.join("cosmos-test-mc.csv").exists());
    // Earlier sets in the folder are kept beside the new one.
    assert!(reports.join("cosmos/duel/summary.md").exists());
}

#[test]
fn options_given_twice_or_for_another_system_and_silly_sweeps() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let f = f.to_str().unwrap();
    let err = stderr_of(
        &[
            "table",
            "cosmos-test",
            "--option",
            "karma_overflow=clamp",
            "--option",
            "karma_overflow=cancel",
        ],
        t.path(),
        2,
    );
    assert!(err.contains("given twice"), "{err}");
    let out = bin()
        .args([
            "table",
            "cosmos-test",
            "--thresholds",
            "50",
            "--option",
            "die=d6",
        ])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("warning: rule option `die` is a nephilim option")
            && err.contains("super_crit_roll"),
        "{err}"
    );
    let meta = fs::read_to_string(t.path().join("reports/cosmos-test.meta.json")).unwrap();
    assert!(meta.contains("super_crit_roll"), "{meta}");
    for (key, flag) in [
        ("system=cosmos", None),
        ("run.trials=5,6", Some("--trials")),
    ] {
        let mut args = vec!["sweep", f, "--vary", key];
        if let Some(fl) = flag {
            args.extend([fl, "10"]);
        }
        let err = stderr_of(&args, t.path(), 2);
        assert!(err.contains("cannot be varied"), "{err}");
    }
}

#[test]
fn warnings_for_harmless_attacks_and_capped_fights_reach_check_and_the_summary() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let text = fs::read_to_string(&f).unwrap().replace("2d10+5", "2d10-50");
    fs::write(t.path().join("nohurt.toml"), text).unwrap();
    let out = bin()
        .args(["check", "nohurt.toml"])
        .current_dir(t.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("nohurt.toml:") && err.contains("can never deal damage"),
        "{err}"
    );
    run_ok(&["run", "nohurt.toml", "--out", "nh", "--quiet"], t.path());
    let summary = fs::read_to_string(t.path().join("nh/summary.md")).unwrap();
    assert!(summary.contains("## Warnings"), "{summary}");
    assert!(summary.contains("reached the round cap"), "{summary}");
    // Nobody spent a Dark point: the rate per point is undefined (empty), not 0.
    run_ok(
        &[
            "sweep",
            "nohurt.toml",
            "--trials",
            "50",
            "--vary",
            "aldric.hp=100,101",
            "--out",
            "sw",
            "--quiet",
        ],
        t.path(),
    );
    let csv = fs::read_to_string(t.path().join("sw/sweep.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|c| *c == "value").unwrap();
    assert!(csv.lines().count() > 3);
    // An undefined value (0 of 0) is an empty cell, never NaN or a made-up number.
    for row in csv.lines().skip(1) {
        let v = row.split(',').nth(col).unwrap();
        assert!(
            v.is_empty() || v.parse::<f64>().is_ok_and(f64::is_finite),
            "{row}"
        );
    }
}

#[test]
fn a_duplicated_key_is_named() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let text = fs::read_to_string(&f).unwrap().replacen(
        "[combatants.aldric]\n",
        "[combatants.aldric]\nhp = 5\n",
        1,
    );
    fs::write(t.path().join("dup.toml"), text).unwrap();
    let err = stderr_of(&["check", "dup.toml"], t.path(), 2);
    assert!(
        err.contains("dup.toml:") && err.contains("duplicate key `hp`"),
        "{err}"
    );
}

#[test]
fn a_long_bad_value_is_not_echoed_in_full() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let blob = "y".repeat(5000);
    let text = fs::read_to_string(&f)
        .unwrap()
        .replacen("hp = 150", &format!("hp = \"{blob}\""), 1);
    fs::write(t.path().join("long.toml"), text).unwrap();
    let err = stderr_of(&["check", "long.toml"], t.path(), 2);
    assert!(err.contains("long.toml:") && err.contains("hp"), "{err}");
    assert!(err.len() < 300, "{} characters: {err}", err.len());
    let err = stderr_of(
        &["table", "cosmos-test", "--option", &format!("{blob}=1")],
        t.path(),
        2,
    );
    assert!(err.len() < 2000, "{} characters", err.len());
}
