//! Issue 24 items 4, 6 and 9: no confident answer built on noise, no input that runs for
//! hours or fills the memory, and the small defects of untrusted input (write errors,
//! negative flag values, a closed stdout, polars' thread pool, duplicate table entries,
//! `lang` case, French messages).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command as Std, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::Command;

mod answers;
mod defects;
mod hours;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// (exit code, stderr) of a command run in `dir`.
fn run_in(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = bin().args(args).current_dir(dir).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The duel with `trials` trials, written into `dir`.
fn duel(dir: &Path, trials: u64) -> PathBuf {
    let text = fs::read_to_string(project().join("scenarios/cosmos/duel.toml"))
        .unwrap()
        .replacen("trials = 1000000", &format!("trials = {trials}"), 1);
    let p = dir.join("duel.toml");
    fs::write(&p, text).unwrap();
    p
}

/// Runs `cmd` to its end, killed after `limit`: whether it finished in time.
fn finishes_within(mut cmd: Std, limit: Duration) -> (bool, std::process::ExitStatus) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return (true, status);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            return (false, child.wait().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn exe() -> PathBuf {
    assert_cmd::cargo::cargo_bin("cosmosim")
}

/// An expectations file `e.toml` in `dir` with `body` after its title.
fn expect_file(dir: &Path, body: &str) -> PathBuf {
    let p = dir.join("e.toml");
    fs::write(&p, format!("title = \"work\"\n\n{body}")).unwrap();
    p
}
