//! `cosmosim trace` on 2d20 ap-economy files (issue 27): replayed sequences tally to the
//! run's per-test figures, `--find` picks sequences by what happened, the account is in
//! French too, and the run's summary says how to see a trial.

use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials};

fn shipped(dir: &Path) -> String {
    let name = "ap-economy.toml";
    let from = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/fallout")
        .join(name);
    std::fs::copy(from, dir.join(name)).unwrap();
    name.to_string()
}

/// Columns of `ap-flow.csv` by name, one row per test.
fn csv(dir: &Path) -> Vec<std::collections::HashMap<String, String>> {
    let text = std::fs::read_to_string(dir.join("ap-flow.csv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| head.iter().cloned().zip(fields(l)).collect())
        .collect()
}

/// A CSV line's fields; a quoted field may hold commas (a test's name does).
fn fields(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// A share or mean over `n` trials as the whole count it was made of.
fn count(row: &std::collections::HashMap<String, String>, col: &str, n: f64) -> i64 {
    (row[col].parse::<f64>().unwrap() * n).round() as i64
}

fn steps(t: &serde_json::Value) -> &Vec<serde_json::Value> {
    t["steps"].as_array().unwrap()
}

/// The `result` steps of a trial, one per test.
fn results(t: &serde_json::Value) -> Vec<&serde_json::Value> {
    steps(t).iter().filter(|s| s["step"] == "result").collect()
}

#[test]
fn replayed_sequences_tally_to_the_run_per_test() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d);
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trials = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trials", "0..299", "--format", "json"],
    ));
    assert_eq!(trials.len(), 300);
    let rows = csv(&d.join("r"));
    assert_eq!(rows.len(), 7);
    let (mut pass, mut comp, mut bonus, mut pool, mut mj) = (
        vec![0i64; 7],
        vec![0i64; 7],
        vec![0i64; 7],
        vec![0i64; 7],
        vec![0i64; 7],
    );
    let mut all = 0;
    for (i, t) in trials.iter().enumerate() {
        assert_eq!(t["trial"], i as u64);
        let r = results(t);
        assert_eq!(r.len(), 7);
        for (k, s) in r.iter().enumerate() {
            let passed = s["passed"].as_bool().unwrap();
            assert_eq!(
                passed,
                s["successes"].as_i64().unwrap() >= s["difficulty"].as_i64().unwrap()
            );
            pass[k] += i64::from(passed);
            comp[k] += i64::from(s["complication"].as_bool().unwrap());
            pool[k] += s["group_ap"].as_i64().unwrap();
            mj[k] += s["mj_ap"].as_i64().unwrap();
        }
        // Bonus dice bought, per test, and the dice rolled: 2 + bonus (F-AP, F-TEST).
        let mut test = 0usize;
        let mut bought = 0;
        for s in steps(t) {
            match s["step"].as_str().unwrap() {
                "test" => {
                    test = s["test"].as_u64().unwrap() as usize - 1;
                    bought = 0;
                }
                "buy" => {
                    bonus[test] += 1;
                    bought += 1;
                }
                "roll" => assert_eq!(s["dice"].as_array().unwrap().len(), 2 + bought),
                _ => {}
            }
        }
        let every = r.iter().all(|s| s["passed"] == true);
        all += i64::from(every);
        let want = if every { "all_passed" } else { "some_failed" };
        assert_eq!(t["outcome"], want);
        assert_eq!(steps(t).last().unwrap()["outcome"], want);
    }
    for (k, row) in rows.iter().enumerate() {
        assert_eq!(pass[k], count(row, "p_pass", 300.0), "test {}", k + 1);
        assert_eq!(
            comp[k],
            count(row, "p_complication", 300.0),
            "test {}",
            k + 1
        );
        assert_eq!(
            bonus[k],
            count(row, "mean_bonus_dice", 300.0),
            "test {}",
            k + 1
        );
        assert_eq!(
            pool[k],
            count(row, "mean_pool_after", 300.0),
            "test {}",
            k + 1
        );
        assert_eq!(
            mj[k],
            count(row, "mean_mj_pool_after", 300.0),
            "test {}",
            k + 1
        );
    }
    assert!(all > 0 && all < 300, "{all}");
    // The run's summary offers both outcomes, as counted.
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("## See a trial"), "{s}");
    assert!(
        s.contains("`cosmosim trace ap-economy.toml --trial 0 --seed 1`"),
        "{s}"
    );
    assert!(
        s.contains("`cosmosim trace ap-economy.toml --find outcome=all_passed --seed 1`"),
        "{s}"
    );
    assert!(s.contains("--find outcome=some_failed --seed 1`"), "{s}");
}

#[test]
fn find_picks_sequences_by_what_happened_and_refuses_bad_conditions() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d);
    let found = json_trials(&cosmosim(
        d,
        &[
            "trace", &f, "--find", "failed=7", "--count", "3", "--format", "json",
        ],
    ));
    assert_eq!(found.len(), 3);
    for t in &found {
        assert_eq!(t["outcome"], "some_failed");
        assert_eq!(results(t)[6]["passed"], false);
        // Replayed alone, the same account.
        let n = t["trial"].as_u64().unwrap().to_string();
        let again = json_trials(&cosmosim(
            d,
            &["trace", &f, "--trial", &n, "--format", "json"],
        ));
        assert_eq!(again[0], *t);
    }
    let found = json_trials(&cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "outcome=all_passed,mj_ap",
            "--format",
            "json",
        ],
    ));
    assert_eq!(found[0]["outcome"], "all_passed");
    assert!(steps(&found[0])
        .iter()
        .any(|s| s["step"] == "buy" && s["to_mj"].as_u64().unwrap() > 0));
    // The MJ's pool only grows by dice bought without AP.
    let text = String::from_utf8_lossy(&cosmosim(d, &["trace", &f, "--find", "ap_lost"]).stdout)
        .to_string();
    assert!(text.contains("AP lost above the cap of 6"), "{text}");
    assert!(text.contains("Test 1/7: Scout the ruins"), "{text}");

    for (cond, says) in [
        ("bogus", "outcome=<all_passed|some_failed>"),
        ("outcome=draw", "all_passed, some_failed"),
        ("failed=9", "1..7"),
        ("complication=2", "without a value"),
    ] {
        let o = cosmosim(d, &["trace", &f, "--find", cond]);
        assert_eq!(o.status.code(), Some(2), "{cond}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{cond}: {e}");
    }
}

#[test]
fn the_account_is_in_french_too() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d);
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Test 1/7 :") && text.contains("réserve du groupe"),
        "{text}"
    );
    assert!(text.contains("Fin de la séquence :"), "{text}");
    assert!(text.contains("jette "), "{text}");
}
