//! Audit of 2026-12-07, afternoon (Great Cosmos growth): a figure of `expedition-days.csv`
//! that was the same in every trial got a clipped interval instead of none. The reference
//! test's share at the end of days 1, 2, 3, 7 and 8 of scenarios/cosmos/forced-march.toml
//! is 0.55 in every trial (no one is tired enough to lose a point of it) and wrote
//! `0.55 [0, 1]`; `expect ... at_least 0.5` widened that to -0.12..1.10 (a probability
//! outside 0..1) and called it an interval that straddles the band. The march distance of
//! scenarios/cosmos/expedition-legs.toml, 100 in every trial on day 1, wrote `100 [0, ]`.
//! Both now follow the convention of a mean with no spread (docs/ci.md): empty `_lo` and
//! `_hi` cells, and `expect` says "all N trials gave the same value". The piloting leg's
//! chance is exact and `figures` says so.

mod common;

use std::path::Path;

use common::trace::{cosmosim, shipped};

/// `scenario` (shipped) copied to `dir` and run for 2000 trials into `dir/r`: the head
/// and rows of its `expedition-days.csv`.
fn days(dir: &Path, scenario: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let name = shipped(dir, scenario);
    let o = cosmosim(dir, &["-q", "run", &name, "--trials", "2000", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    table(&std::fs::read_to_string(dir.join("r/expedition-days.csv")).unwrap())
}

/// The cells of `csv`'s rows, by column name (no cell of these files holds a comma).
fn table(csv: &str) -> (Vec<String>, Vec<Vec<String>>) {
    let mut lines = csv.lines();
    let head = lines.next().unwrap().split(',').map(String::from).collect();
    let rows = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    (head, rows)
}

fn cell<'a>(head: &[String], row: &'a [String], name: &str) -> &'a str {
    let i = head
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("{name}"));
    &row[i]
}

/// Every probability's interval inside 0..1: each `p_*_lo`/`p_*_hi` cell is empty
/// (unbounded) or a number in 0..1.
fn probability_bounds_stay_in_0_1(head: &[String], rows: &[Vec<String>]) {
    for row in rows {
        for (h, c) in head.iter().zip(row) {
            if h.starts_with("p_") && (h.ends_with("_lo") || h.ends_with("_hi")) && !c.is_empty() {
                let x: f64 = c.parse().unwrap();
                assert!((0.0..=1.0).contains(&x), "{h} = {x}");
            }
        }
    }
}

const EXPECT: &str = r#"
title = "probe"
seed = 1

[[expect]]
name = "the evening reference test stays above 0.5 on day 1"
scenario = "forced-march.toml"
figure = "expedition-days.p_reference_success_end"
where = { day = 1 }
at_least = 0.5
trials = 2000
max_trials = 2000
"#;

#[test]
fn a_share_the_same_in_every_trial_has_no_bounds_and_decides_nothing() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let (head, rows) = days(d, "forced-march.toml");
    for day in [1, 2, 3, 7, 8] {
        let row = &rows[day - 1];
        assert_eq!(cell(&head, row, "p_reference_success_end"), "0.5500000000");
        assert_eq!(
            (
                cell(&head, row, "p_reference_success_end_lo"),
                cell(&head, row, "p_reference_success_end_hi")
            ),
            ("", ""),
            "day {day}: no spread, no bound (it read 0 and 1)"
        );
    }
    // A day with spread keeps a real interval, inside 0..1.
    let row = &rows[3];
    let lo: f64 = cell(&head, row, "p_reference_success_worst_lo")
        .parse()
        .unwrap();
    let hi: f64 = cell(&head, row, "p_reference_success_worst_hi")
        .parse()
        .unwrap();
    assert!(0.0 <= lo && lo < hi && hi <= 1.0, "{lo} {hi}");
    probability_bounds_stay_in_0_1(&head, &rows);

    std::fs::write(d.join("e.toml"), EXPECT).unwrap();
    let o = cosmosim(d, &["-q", "expect", "e.toml", "--out", "x"]);
    assert_eq!(o.status.code(), Some(1), "undecided is not success");
    let csv = std::fs::read_to_string(d.join("x/expect.csv")).unwrap();
    let row = csv.lines().nth(1).unwrap();
    assert!(row.contains(",undecided,2000,"), "{row}");
    assert!(
        row.contains("all 2000 trials gave the same value"),
        "it read 'interval -0.121792..1.099648': {row}"
    );
}

#[test]
fn a_march_the_same_in_every_trial_has_no_bounds_and_piloting_is_exact() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let (head, rows) = days(d, "expedition-legs.toml");
    let row = &rows[0];
    assert_eq!(cell(&head, row, "march_distance_mean"), "100.0000000000");
    assert_eq!(
        (
            cell(&head, row, "march_distance_lo"),
            cell(&head, row, "march_distance_hi")
        ),
        ("", ""),
        "no spread, no bound (it read 0 and empty)"
    );
    probability_bounds_stay_in_0_1(&head, &rows);

    // C-PILOT's chance is computed, not simulated: `figures` calls it exact.
    let o = cosmosim(d, &["figures", "expedition-legs.toml", "--lang", "en"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8(o.stdout).unwrap();
    let line = text
        .lines()
        .find(|l| l.contains("p_piloting_success"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        line.contains("exact figure") && !line.contains("no interval"),
        "{line}"
    );
}
