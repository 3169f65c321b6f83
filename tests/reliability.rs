//! Runs that never crash, hang or leave a mixed set of outputs (issue 8): the binary is run
//! on temp folders as a CI operator would — failed writes, signals while computing and
//! while publishing, two runs into one folder, closed pipes, a bounded thread count. Bad
//! input refused before any work: `tests/refusals_before_work.rs`.

mod common;

use std::fs;
use std::process::Stdio;
use std::time::{Duration, Instant};

use common::runs::*;

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
