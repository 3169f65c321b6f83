//! The Nephilim tables from the command line and the library: rules from option pairs,
//! a table run and read back, a cell of its CSV, Monte Carlo against exact.

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use cosmosim::rules::RuleOptions;
use cosmosim::systems::nephilim::NephilimRules;

pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

pub fn rules(pairs: &[&str]) -> NephilimRules {
    NephilimRules::from_options(&RuleOptions::from_pairs(pairs, cosmosim::lang::Lang::En).unwrap())
}

pub fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

/// Runs `cosmosim table <args> --out <dir> -q` and returns the CSV text.
pub fn table(dir: &Path, name: &str, args: &[&str]) -> String {
    cosmosim()
        .args(["-q", "table", name, "--out"])
        .arg(dir)
        .args(args)
        .assert()
        .success();
    // Monte Carlo tables are published as <name>-mc (issue 8).
    let name = if args.contains(&"mc") {
        format!("{name}-mc")
    } else {
        name.to_string()
    };
    for ext in ["csv", "png", "meta.json"] {
        assert!(
            dir.join(format!("{name}.{ext}")).is_file(),
            "{name}.{ext} missing"
        );
    }
    fs::read_to_string(dir.join(format!("{name}.csv"))).unwrap()
}

/// The value of `column` in the CSV row whose first fields are `key`.
pub fn cell(csv: &str, key: &str, column: &str) -> f64 {
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = header.iter().position(|h| *h == column).unwrap();
    let row = lines
        .find(|l| l.starts_with(&format!("{key},")))
        .unwrap_or_else(|| panic!("no row {key}"));
    row.split(',').nth(c).unwrap().parse().unwrap()
}

/// Monte Carlo against exact: |p̂ - p| <= 5 sqrt(p(1-p)/n) (+1/n so p = 0 or 1 demands an exact count).
pub fn agrees(hits: u64, n: u64, p: f64) -> bool {
    let phat = hits as f64 / n as f64;
    (phat - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1.0 / n as f64
}
