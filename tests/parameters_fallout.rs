//! 2d20 rule parameters (issue 16): the group AP pool's cap (F-AP, `fallout_ap_pool_max`).
//! The book's 6 gives today's bytes; a lower cap loses more AP and leaves the end pool
//! within it; a file's starting pool is checked against the cap in force, `[rules]` or
//! `--option` alike (exit 2 with the range).

mod common;

use common::params::{cosmosim, csvs};

const FIREFIGHT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/fallout/firefight.toml"
);
const AP_ECONOMY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/fallout/ap-economy.toml"
);

fn run(dir: &std::path::Path, file: &str, out: &str, opts: &[&str]) -> std::process::Output {
    let mut args = vec!["run", file, "--trials", "20000", "--out", out, "--quiet"];
    for o in opts {
        args.extend(["--option", o]);
    }
    cosmosim(dir, &args)
}

/// The group row's figure `column` of combat-ap.csv.
fn group(dir: &std::path::Path, out: &str, column: &str) -> f64 {
    let csv = std::fs::read_to_string(dir.join(out).join("combat-ap.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = head.iter().position(|h| *h == column).unwrap();
    let row = lines.find(|l| l.starts_with("group,")).unwrap();
    row.split(',').nth(at).unwrap().parse().unwrap()
}

#[test]
fn ap_pool_cap_at_six_gives_todays_bytes_and_a_lower_cap_loses_more() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    for file in [FIREFIGHT, AP_ECONOMY] {
        assert!(run(t, file, "book", &[]).status.success());
        let o = run(t, file, "six", &["fallout_ap_pool_max=6"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(csvs(&t.join("six")), csvs(&t.join("book")), "{file}");
    }
    assert!(run(t, FIREFIGHT, "book", &[]).status.success());
    assert!(run(t, FIREFIGHT, "cap2", &["fallout_ap_pool_max=2"])
        .status
        .success());
    assert!(run(t, FIREFIGHT, "cap30", &["fallout_ap_pool_max=30"])
        .status
        .success());
    let lost = |out: &str| group(t, out, "mean_lost_to_cap");
    assert!(
        lost("cap2") > lost("book") + 0.1,
        "{} {}",
        lost("cap2"),
        lost("book")
    );
    assert!(lost("cap30") <= lost("book"));
    assert!(group(t, "cap2", "mean_end_pool") <= 2.0);
}

#[test]
fn the_starting_pool_is_checked_against_the_cap_in_force() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    // firefight.toml starts with 2 AP in the group pool.
    let o = run(t, FIREFIGHT, "x", &["fallout_ap_pool_max=1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("pools.group_ap") && err.contains("0..1"),
        "{err}"
    );
    let o = run(t, AP_ECONOMY, "y", &["fallout_ap_pool_max=1"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("start.group_ap") && err.contains("0..1"),
        "{err}"
    );
    // A file's own [rules] cap lets it start above the book's 6.
    let text = std::fs::read_to_string(FIREFIGHT)
        .unwrap()
        .replace("group_ap = 2", "group_ap = 9");
    let text = format!("{text}\n[rules]\nfallout_ap_pool_max = 10\n");
    std::fs::write(t.join("big.toml"), &text).unwrap();
    let big = t.join("big.toml").to_string_lossy().into_owned();
    let o = run(t, &big, "z", &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(t, &["check", &big]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = run(t, &big, "w", &["fallout_ap_pool_max=8"]);
    assert_eq!(o.status.code(), Some(2));
    let o = cosmosim(
        t,
        &[
            "run",
            &big,
            "--option",
            "fallout_ap_pool_max=31",
            "--out",
            "v",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("from 1 to 30"));
}
