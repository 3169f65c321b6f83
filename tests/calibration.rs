//! Issue 26: the balance gates' error rates, measured over many seeds where the truth is
//! known. Two seeds of the same rules differ by noise only, so any figure `compare` flags
//! between them is a false alarm: on every shipped scenario, at most 5% of seed pairs may
//! show one. Each rate is printed with its 95% interval (run with `--nocapture` to read
//! them). What fits CI time runs here; the longer run (more pairs, more trials) is
//!
//! ```sh
//! cargo test --release --test calibration -- --ignored --nocapture
//! ```
//!
//! Other rates are held beside the feature they measure: few-chain means in `expect`
//! (tests/expect_few_chains.rs), the paired test's power and level in `variants`
//! (tests/variants.rs and `balance::variants::paired`), `tune` and `optimise` (tests/tune.rs,
//! tests/optimise.rs), `--precision` (tests/precision.rs). docs/ci.md lists them all.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn shipped() -> Vec<String> {
    let mut out = Vec::new();
    for system in ["cosmos", "fallout", "nephilim", "trinites"] {
        for e in std::fs::read_dir(root().join("scenarios").join(system)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "toml") {
                out.push(format!(
                    "scenarios/{system}/{}",
                    p.file_name().unwrap().to_string_lossy()
                ));
            }
        }
    }
    out.sort();
    out
}

fn run(scenario: &str, seed: u64, trials: u64, out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .current_dir(root())
        .args(["-q", "run", scenario, "--trials", &trials.to_string()])
        .args(["--seed", &seed.to_string(), "--out"])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{scenario} seed {seed}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Whether `compare --fail-on-change` flags anything between two seeds of `scenario`, and
/// what (the first moved rows of compare.csv).
fn pair_flags(scenario: &str, k: u64, trials: u64, dir: &Path) -> Option<String> {
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    run(scenario, 1000 + 2 * k, trials, &a);
    run(scenario, 1001 + 2 * k, trials, &b);
    let o = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(["-q", "compare"])
        .arg(&a)
        .arg(&b)
        .arg("--out")
        .arg(&c)
        .arg("--fail-on-change")
        .output()
        .unwrap();
    match o.status.code() {
        Some(0) => None,
        Some(1) => {
            let csv = std::fs::read_to_string(c.join("compare.csv")).unwrap_or_default();
            let moved: Vec<&str> = csv.lines().filter(|l| l.ends_with(",true")).collect();
            Some(format!("{scenario} pair {k}: {}", moved.join(" | ")))
        }
        code => panic!(
            "compare {scenario} pair {k}: exit {code:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        ),
    }
}

/// Flagged pairs over `pairs` seed pairs of every shipped scenario, run on two threads.
fn false_alarms(pairs: u64, trials: u64) -> (u64, u64, Vec<String>) {
    let tmp = tempfile::tempdir().unwrap();
    let jobs: Vec<(String, u64)> = shipped()
        .into_iter()
        .flat_map(|s| (0..pairs).map(move |k| (s.clone(), k)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let flags = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some((s, k)) = jobs.get(i) else { break };
                let dir = tmp.path().join(i.to_string());
                if let Some(f) = pair_flags(s, *k, trials, &dir) {
                    flags.lock().unwrap().push(f);
                }
                let _ = std::fs::remove_dir_all(&dir);
            });
        }
    });
    let mut flags = flags.into_inner().unwrap();
    flags.sort();
    (flags.len() as u64, jobs.len() as u64, flags)
}

fn held(what: &str, flagged: u64, total: u64, flags: &[String]) {
    let (lo, hi) = cosmosim::stats::wilson(flagged, total);
    println!(
        "{what}: {flagged} of {total} seed pairs flagged = {:.1}% [95%: {:.1}%, {:.1}%], promise: at most 5%",
        100.0 * flagged as f64 / total as f64,
        100.0 * lo,
        100.0 * hi
    );
    for f in flags {
        println!("  flagged: {f}");
    }
    assert!(total >= 40, "{total} pairs");
    assert!(
        flagged as f64 <= 0.05 * total as f64,
        "{what}: {flagged} of {total} pairs flagged:\n{}",
        flags.join("\n")
    );
}

#[test]
fn two_seeds_of_the_same_rules_are_flagged_in_at_most_5_percent_of_pairs() {
    let (flagged, total, flags) = false_alarms(2, 4000);
    held(
        "compare, every shipped scenario, 4,000 trials",
        flagged,
        total,
        &flags,
    );
}

/// The longer run: 4 pairs of every shipped scenario at 20,000 trials (about 4 minutes on
/// two cores). Before whole-number quantile intervals were counted one unit wider, a
/// median day of mutation.toml and a quartile of expedition-legs.toml flagged 2 of 30
/// pairs of those scenarios.
#[test]
#[ignore]
fn longer_two_seeds_of_the_same_rules_at_20000_trials() {
    let (flagged, total, flags) = false_alarms(4, 20_000);
    held(
        "compare, every shipped scenario, 20,000 trials",
        flagged,
        total,
        &flags,
    );
}
