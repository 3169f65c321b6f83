//! Runs that never crash, hang or leave a mixed set of outputs (issue 8): the binary is run
//! on temp folders as a CI operator would — failed writes, signals while computing and
//! while publishing, two runs into one folder, closed pipes, every cap, bad `--out`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `scenarios/cosmos/duel.toml` with few trials, as `small.toml` in `dir`.
fn small(dir: &Path) -> PathBuf {
    let text = fs::read_to_string(project().join("scenarios/cosmos/duel.toml")).unwrap();
    let text = text
        .lines()
        .map(|l| {
            if l.starts_with("trials") {
                "trials = 1000"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    let p = dir.join("small.toml");
    fs::write(&p, text).unwrap();
    p
}

/// Every file under `d` with its bytes, sorted by path (hidden entries included).
fn snapshot(d: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![d.to_path_buf()];
    while let Some(x) = stack.pop() {
        for e in fs::read_dir(&x).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.strip_prefix(d).unwrap().to_path_buf(),
                    fs::read(&p).unwrap(),
                ));
            }
        }
    }
    out.sort();
    out
}

fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    v.sort();
    v
}

fn run_ok(args: &[&str], cwd: &Path) {
    let out = bin().args(args).current_dir(cwd).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn stderr_of(args: &[&str], cwd: &Path, code: i32) -> String {
    let out = bin().args(args).current_dir(cwd).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    err
}

fn wait_for(mut ok: impl FnMut() -> bool, what: &str) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn staging_exists(parent: &Path, name: &str) -> bool {
    names(parent)
        .iter()
        .any(|n| n.starts_with(&format!(".{name}.staging-")))
}

#[test]
fn a_failed_write_while_publishing_leaves_the_previous_set() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let f = f.to_str().unwrap();
    run_ok(&["run", f, "--out", "out", "--quiet"], t.path());
    let before = snapshot(&t.path().join("out"));
    let out = bin()
        .args(["run", f, "--out", "out", "--seed", "2", "--quiet"])
        .env("COSMOSIM_TEST_FAIL_SYNC_AT", "5")
        .current_dir(t.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("simulated write failure"));
    assert_eq!(snapshot(&t.path().join("out")), before);
    assert_eq!(names(t.path()), vec!["out", "small.toml"]);
}

#[test]
fn sigint_while_publishing_exits_130_and_keeps_the_previous_set() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let f = f.to_str().unwrap();
    run_ok(&["run", f, "--out", "out", "--quiet"], t.path());
    let before = snapshot(&t.path().join("out"));
    let mut child = bin()
        .args(["run", f, "--out", "out", "--seed", "2", "--quiet"])
        .env("COSMOSIM_TEST_PAUSE_BEFORE_PUBLISH_MS", "20000")
        .current_dir(t.path())
        .spawn()
        .unwrap();
    // The staging folder holds the complete new set once every file is written.
    wait_for(
        || {
            names(t.path())
                .iter()
                .find(|n| n.starts_with(".out.staging-"))
                .is_some_and(|s| t.path().join(s).join("summary.md").exists())
        },
        "the new set staged",
    );
    std::thread::sleep(Duration::from_millis(200));
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    let sent = Instant::now();
    let status = child.wait().unwrap();
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(status.code(), Some(130));
    assert_eq!(snapshot(&t.path().join("out")), before);
    assert_eq!(names(t.path()), vec!["out", "small.toml"]);
}

#[test]
fn sigterm_while_simulating_exits_143_within_a_second() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let mut child = bin()
        .args([
            "run",
            f.to_str().unwrap(),
            "--out",
            "out",
            "--trials",
            "1000000000",
            "--quiet",
        ])
        .current_dir(t.path())
        .spawn()
        .unwrap();
    wait_for(|| staging_exists(t.path(), "out"), "the run started");
    std::thread::sleep(Duration::from_millis(300));
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let sent = Instant::now();
    let status = child.wait().unwrap();
    assert!(
        sent.elapsed() < Duration::from_millis(1500),
        "{:?}",
        sent.elapsed()
    );
    assert_eq!(status.code(), Some(143));
    // Nothing was published and nothing hidden is left.
    assert_eq!(names(t.path()), vec!["small.toml"]);
}

#[test]
fn a_second_run_into_the_same_folder_is_refused_while_the_first_writes() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let f = f.to_str().unwrap();
    let mut first = bin()
        .args(["run", f, "--out", "out", "--quiet"])
        .env("COSMOSIM_TEST_PAUSE_BEFORE_PUBLISH_MS", "3000")
        .current_dir(t.path())
        .spawn()
        .unwrap();
    wait_for(
        || t.path().join(".out.lock").exists(),
        "the first run's lock",
    );
    let err = stderr_of(&["run", f, "--out", "out", "--seed", "9"], t.path(), 2);
    assert!(
        err.contains(&format!("is being written by pid {}", first.id())),
        "{err}"
    );
    assert!(first.wait().unwrap().success());
    // The first run's set is complete and the lock is gone.
    assert!(t.path().join("out/summary.md").exists());
    assert_eq!(names(t.path()), vec!["out", "small.toml"]);
}

#[test]
fn closed_pipes_never_abort_a_run_and_stdout_products_fail_cleanly() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    // stderr closed by its reader (as in `2>&1 | head -1`): the run still completes.
    let mut child = bin()
        .args(["run", f.to_str().unwrap(), "--out", "out"])
        .stderr(Stdio::piped())
        .current_dir(t.path())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    assert!(child.wait().unwrap().success());
    // The same complete set as a run with a healthy stderr.
    run_ok(
        &["run", f.to_str().unwrap(), "--out", "ref", "--quiet"],
        t.path(),
    );
    let all = names(&t.path().join("ref"));
    assert!(
        all.len() >= 13 && all.contains(&"summary.md".to_string()),
        "{all:?}"
    );
    assert_eq!(names(&t.path().join("out")), all);
    // stdout is the product of `options`: a full device is exit 1 with a message.
    let full = fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    let out = bin()
        .arg("options")
        .stdout(Stdio::from(full))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot write to standard output"));
}

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
fn a_sweep_of_many_points_keeps_the_thread_count_bounded() {
    let t = tempfile::tempdir().unwrap();
    let f = small(t.path());
    let mut child = bin()
        .args([
            "sweep",
            f.to_str().unwrap(),
            "--trials",
            "100",
            "--threads",
            "6",
            "--vary",
            "aldric.hp=1..1000",
            "--vary",
            "brune.hp=150,151",
            "--out",
            "sw",
            "--quiet",
        ])
        .current_dir(t.path())
        .spawn()
        .unwrap();
    let status = format!("/proc/{}/status", child.id());
    let mut most = 0;
    loop {
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        if let Ok(s) = fs::read_to_string(&status) {
            if let Some(n) = s
                .lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|n| n.trim().parse::<usize>().ok())
            {
                most = most.max(n);
            }
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(child.wait().unwrap().success());
    // 6 workers + main + the signal thread (+ a little slack).
    assert!(most <= 6 + 4, "{most} threads");
    let csv = fs::read_to_string(t.path().join("sw/sweep.csv")).unwrap();
    // Every figure of every one of the 2000 grid points.
    let rows = csv.lines().count() - 1;
    assert!(rows >= 2000 && rows.is_multiple_of(2000), "{rows} rows");
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
