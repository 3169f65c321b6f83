//! Runs of the 2d20, Nephilim and Trinités parameter tests (issue 16): a run into a temp
//! folder, a CSV's rows or column, and the "book value gives today's bytes" check.

use std::path::Path;

use super::params::{cosmosim, csvs};

/// Runs cosmosim with `args` then `--option o` for each of `opts`, into `out`; asserts
/// success.
pub fn ok(dir: &Path, args: &[&str], out: &str, opts: &[&str]) {
    let mut a: Vec<&str> = args.to_vec();
    a.extend(["--out", out, "--quiet"]);
    for o in opts {
        a.extend(["--option", o]);
    }
    let o = cosmosim(dir, &a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The cells of one CSV line; a quoted cell may hold commas ("Pick the lock (.., tag 3)").
fn cells(line: &str) -> Vec<String> {
    let (mut out, mut cur, mut quoted) = (Vec::new(), String::new(), false);
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            _ => cur.push(ch),
        }
    }
    out.push(cur);
    out
}

/// The rows of a CSV as (header, rows of cells).
pub fn table(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head = cells(lines.next().unwrap());
    let rows = lines.map(cells).collect();
    (head, rows)
}

/// Column `name` of the CSV at `path`, as numbers.
pub fn column(path: &Path, name: &str) -> Vec<f64> {
    let (head, rows) = table(path);
    let at = head.iter().position(|h| h == name).unwrap();
    rows.iter().map(|r| r[at].parse().unwrap()).collect()
}

/// Asserts that every option of `opts` at its book value gives the bytes of a run without
/// it, for every command of `runs`.
pub fn defaults_are_todays_bytes(runs: &[&[&str]], opts: &[&str]) {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    for (i, args) in runs.iter().enumerate() {
        let book = format!("book{i}");
        ok(t, args, &book, &[]);
        for (j, o) in opts.iter().enumerate() {
            let set = format!("set{i}_{j}");
            ok(t, args, &set, &[o]);
            assert_eq!(csvs(&t.join(&set)), csvs(&t.join(&book)), "{args:?} {o}");
        }
    }
}

/// Asserts that `opt` is refused with exit 2 and its range `range` ("from 1 to 6").
pub fn out_of_range(args: &[&str], opt: &str, range: &str) {
    let d = tempfile::tempdir().unwrap();
    let mut a = args.to_vec();
    a.extend(["--out", "x", "--option", opt]);
    let o = cosmosim(d.path(), &a);
    assert_eq!(o.status.code(), Some(2), "{opt}");
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(range), "{opt}: {err}");
}

/// Asserts exact within 5 standard errors of the Monte Carlo estimate, cell by cell.
pub fn within_5_se(exact: &[f64], mc: &[f64], n: f64, what: &str) {
    assert_eq!(exact.len(), mc.len());
    for (i, (e, m)) in exact.iter().zip(mc).enumerate() {
        let se = (e * (1.0 - e) / n).sqrt().max(1.0 / n);
        assert!(
            (e - m).abs() <= 5.0 * se,
            "{what} row {i}: exact {e} mc {m}"
        );
    }
}
