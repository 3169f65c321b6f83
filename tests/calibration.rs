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
//! Other rates are held beside the feature they measure: proportions, means over trials,
//! quantiles and exact values in `expect` (tests/expect_calibration.rs), few-chain means in `expect`
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

/// `cosmosim compare A B --out C [extra...]`.
fn compare(a: &Path, b: &Path, c: &Path, extra: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(["-q", "compare"])
        .arg(a)
        .arg(b)
        .arg("--out")
        .arg(c)
        .args(extra)
        .output()
        .unwrap()
}

/// Whether `compare --fail-on-change` flags anything between two seeds of `scenario`, and
/// what (the first moved rows of compare.csv).
fn pair_flags(scenario: &str, k: u64, trials: u64, dir: &Path) -> Option<String> {
    let (a, b, c) = (dir.join("a"), dir.join("b"), dir.join("c"));
    run(scenario, 1000 + 2 * k, trials, &a);
    run(scenario, 1001 + 2 * k, trials, &b);
    let o = compare(&a, &b, &c, &["--fail-on-change"]);
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

/// One row of a table's CSV, as numbers by column name.
fn row(csv: &Path) -> std::collections::BTreeMap<String, f64> {
    let text = std::fs::read_to_string(csv).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let vals: Vec<f64> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    head.iter().map(|h| h.to_string()).zip(vals).collect()
}

fn table(args: &[&str], out: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args([
            "-q",
            "table",
            "cosmos-test",
            "--thresholds",
            "60",
            "--karma",
            "6",
        ])
        .args(args)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

const CLASSES: [&str; 6] = [
    "super_success",
    "crit_success",
    "success",
    "failure",
    "crit_failure",
    "super_failure",
];

/// `--precision 0.005` on the test table at threshold 60, karma +6, against its exact
/// values (C-TEST): over 40 seeds, every interval is within ±0.005 and the six outcome
/// classes' 95% intervals cover the exact value in at least 90% of the 240 cases
/// (95% expected).
#[test]
fn precision_runs_stop_within_their_goal_and_their_intervals_cover_the_truth() {
    let d = tempfile::tempdir().unwrap();
    table(&[], &d.path().join("exact"));
    let exact = row(&d.path().join("exact/cosmos-test.csv"));
    let (mut covered, mut total) = (0u64, 0u64);
    for seed in 1..=40 {
        let out = d.path().join(format!("s{seed}"));
        table(
            &[
                "--method",
                "mc",
                "--precision",
                "0.005",
                "--seed",
                &seed.to_string(),
            ],
            &out,
        );
        let mc = row(&out.join("cosmos-test-mc.csv"));
        for c in CLASSES {
            let (lo, hi) = (mc[&format!("{c}_lo")], mc[&format!("{c}_hi")]);
            assert!(
                (hi - lo) / 2.0 <= 0.005 + 1e-12,
                "seed {seed} {c}: [{lo}, {hi}]"
            );
            let truth = exact[&format!("p_{c}")];
            total += 1;
            if lo <= truth && truth <= hi {
                covered += 1;
            }
        }
    }
    let (lo, hi) = cosmosim::stats::wilson(covered, total);
    println!(
        "--precision 0.005 coverage: {covered} of {total} = {:.1}% [95%: {:.1}%, {:.1}%], promise: 95%",
        100.0 * covered as f64 / total as f64,
        100.0 * lo,
        100.0 * hi
    );
    assert!(
        covered as f64 >= 0.90 * total as f64,
        "{covered} of {total}"
    );
}

/// `compare`'s power on a known small move: reading 42/66 on the score moves P(success)
/// at threshold 60, karma +6 by exactly +0.005 (C-TEST-2). Book and variant at
/// independent seeds, 200,000 trials each: z = 0.005 / 0.00158 = 3.2, a power of about
/// 0.89 at 5% and about 0.78 after Benjamini-Hochberg over the six classes (two of which
/// move). Measured: 14 of 20 seed pairs. It must flag the move in at least 12 of 20 and
/// never against the exact direction.
#[test]
fn compare_sees_a_known_small_move_in_most_seed_pairs() {
    let d = tempfile::tempdir().unwrap();
    let mut seen = 0u64;
    let pairs = 20u64;
    for k in 0..pairs {
        let (a, b, c) = (
            d.path().join(format!("a{k}")),
            d.path().join(format!("b{k}")),
            d.path().join(format!("c{k}")),
        );
        let trials = ["--method", "mc", "--trials", "200000", "--seed"];
        table(&[&trials[..], &[&(2 * k + 1).to_string()]].concat(), &a);
        table(
            &[
                &trials[..],
                &[
                    &(2 * k + 2).to_string(),
                    "--option",
                    "super_crit_roll=score",
                ],
            ]
            .concat(),
            &b,
        );
        let o = compare(&a, &b, &c, &[]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let csv = std::fs::read_to_string(c.join("compare.csv")).unwrap();
        let success = csv
            .lines()
            .find(|l| l.contains(",p_success,"))
            .expect("p_success compared");
        if success.ends_with(",true") {
            seen += 1;
            let delta: f64 = success.split(',').nth(6).unwrap().parse().unwrap();
            assert!(delta > 0.0, "{success}");
        }
    }
    let (lo, hi) = cosmosim::stats::wilson(seen, pairs);
    println!(
        "compare power on +0.005 at 200,000 trials: {seen} of {pairs} = {:.0}% [95%: {:.0}%, {:.0}%]",
        100.0 * seen as f64 / pairs as f64,
        100.0 * lo,
        100.0 * hi
    );
    assert!(seen >= 12, "{seen} of {pairs}");
}
