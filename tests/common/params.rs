//! Running cosmosim on temp dirs for the rule-parameter tests (issue 16): tables, combat
//! runs, and reading one figure of a CSV.

use std::path::Path;

// Handed on for the files that take their other helpers from here.
#[allow(unused_imports)]
pub use super::runs::cosmosim;

/// `table cosmos-test` at `thresholds`/`karma` with `options`; returns the CSV text.
pub fn test_table(dir: &Path, out: &str, extra: &[&str]) -> String {
    let mut args = vec!["table", "cosmos-test", "--out", out, "--quiet"];
    args.extend_from_slice(extra);
    let o = cosmosim(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let name = if extra.contains(&"mc") {
        "cosmos-test-mc.csv"
    } else {
        "cosmos-test.csv"
    };
    std::fs::read_to_string(dir.join(out).join(name)).unwrap()
}

/// The figure `column` in the row of `threshold` and `karma`.
pub fn figure(csv: &str, threshold: i64, karma: i64, column: &str) -> f64 {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
    for l in lines {
        let cells: Vec<&str> = l.split(',').collect();
        let num = |c: &str| cells[at(c)].parse::<f64>().unwrap();
        if num("threshold") == threshold as f64 && num("karma") == karma as f64 {
            return num(column);
        }
    }
    panic!("no row threshold {threshold}, karma {karma}");
}

/// `run scenario --trials 20000` with `options` into `out`.
pub fn combat_run(dir: &Path, scenario: &str, out: &str, options: &[&str]) {
    let mut args = vec![
        "run", scenario, "--trials", "20000", "--out", out, "--quiet",
    ];
    for o in options {
        args.extend(["--option", o]);
    }
    let o = cosmosim(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The CSV files of a run, by name (charts and provenance are not compared).
pub fn csvs(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap())
        })
        .collect();
    v.sort();
    v
}

/// The figure `column` of `combatant` in `file` (CSV) of run `out`.
pub fn cell(dir: &Path, out: &str, file: &str, combatant: &str, column: &str) -> f64 {
    let csv = std::fs::read_to_string(dir.join(out).join(file)).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = head.iter().position(|h| *h == column).unwrap();
    for l in lines {
        let cells: Vec<&str> = l.split(',').collect();
        if cells[0] == combatant {
            return cells[at].parse().unwrap();
        }
    }
    panic!("no row {combatant} in {file}");
}

/// The exact column (`p_met_exact`, 7th) of a `leveling-skills.csv` text, row by row.
#[allow(dead_code)]
pub fn skills_exact_column(text: &str) -> Vec<String> {
    text.lines()
        .skip(1)
        .map(|l| l.split(',').nth(6).unwrap().to_string())
        .collect()
}

/// Asserts every simulated P(wish met) (4th column) of a `leveling-skills.csv` text lies
/// within 5 standard errors of its exact value (7th) at `trials` trials; returns how many
/// rows had an exact value.
#[allow(dead_code)]
pub fn skills_within_5_se(text: &str, trials: f64) -> usize {
    let mut checked = 0;
    for l in text.lines().skip(1) {
        let c: Vec<&str> = l.split(',').collect();
        let (Ok(p), Ok(e)) = (c[3].parse::<f64>(), c[6].parse::<f64>()) else {
            continue;
        };
        let se = (e * (1.0 - e) / trials).sqrt();
        assert!((p - e).abs() <= 5.0 * se + 1e-9, "{l}");
        checked += 1;
    }
    checked
}

/// Every file of a run (CSV, meta, summary, charts), by name.
#[allow(dead_code)]
pub fn run_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The row of `creation-<output>.csv` (run `dir`) whose first field is `first`, as fields.
#[allow(dead_code)]
pub fn creation_row(dir: &Path, output: &str, first: &str) -> Vec<String> {
    let csv = std::fs::read_to_string(dir.join(format!("creation-{output}.csv"))).unwrap();
    csv.lines()
        .find(|l| l.starts_with(&format!("{first},")))
        .unwrap_or_else(|| panic!("no row {first} in creation-{output}.csv"))
        .split(',')
        .map(str::to_string)
        .collect()
}

/// Column `i` of the `creation-distributions.csv` row of `quantity` (1 = mean, 8 = p95).
#[allow(dead_code)]
pub fn creation_figure(dir: &Path, quantity: &str, i: usize) -> f64 {
    creation_row(dir, "distributions", quantity)[i]
        .parse()
        .unwrap()
}

/// Writes `text` to `dir/name`; returns the path as a string.
pub fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// `run file --trials n --seed 1` with `options` into `out`; asserts success.
pub fn run(dir: &Path, file: &str, out: &str, trials: &str, options: &[&str]) {
    let mut args = vec![
        "run", file, "--trials", trials, "--seed", "1", "--out", out, "--quiet",
    ];
    for o in options {
        args.extend(["--option", o]);
    }
    let o = cosmosim(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The figure `column` on day `d` of `expedition-days.csv` in run `out`.
pub fn day(dir: &Path, out: &str, d: i64, column: &str) -> f64 {
    let csv = std::fs::read_to_string(dir.join(out).join("expedition-days.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        if c[at("day")] == d.to_string() {
            return c[at(column)].parse().unwrap();
        }
    }
    panic!("no day {d}");
}
