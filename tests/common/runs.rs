//! Running the binary on temp folders as a CI operator would (`tests/reliability.rs`,
//! `tests/refusals_before_work.rs`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use assert_cmd::cargo::CommandCargoExt;

/// Runs the binary in `dir` with `args` and returns what it did, whatever its exit code.
pub fn cosmosim(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

/// An `expect` file with two checks of `cosmos-test` at threshold 50 and karma 0: an exact
/// one and a Monte Carlo one with its own trials and confidence (the provenance tests).
pub const TWO_CHECKS: &str = r#"
title = "two checks"
seed = 4

[[expect]]
name = "a plain test at 50"
table = "cosmos-test"
params = { thresholds = "50", karma = "0" }
where = { threshold = 50, karma = 0 }
figure = "p_success"
between = [0.38, 0.40]

[[expect]]
name = "the Monte Carlo table agrees"
table = "cosmos-test"
params = { thresholds = "50", karma = "0", method = "mc" }
where = { threshold = 50, karma = 0 }
figure = "p_success"
between = [0.30, 0.50]
trials = 2000
confidence = 0.9
"#;

pub fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

pub fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `scenarios/cosmos/duel.toml` with few trials, as `small.toml` in `dir`.
pub fn small(dir: &Path) -> PathBuf {
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
pub fn snapshot(d: &Path) -> Vec<(PathBuf, Vec<u8>)> {
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

pub fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(d)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    v.sort();
    v
}

pub fn run_ok(args: &[&str], cwd: &Path) {
    let out = bin().args(args).current_dir(cwd).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

pub fn stderr_of(args: &[&str], cwd: &Path, code: i32) -> String {
    let out = bin().args(args).current_dir(cwd).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
    err
}

pub fn wait_for(mut ok: impl FnMut() -> bool, what: &str) {
    let start = Instant::now();
    while !ok() {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out: {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

pub fn staging_exists(parent: &Path, name: &str) -> bool {
    names(parent)
        .iter()
        .any(|n| n.starts_with(&format!(".{name}.staging-")))
}
