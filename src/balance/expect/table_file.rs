//! "Is the table in our rulebook right?": a published CSV (the designer's printed values,
//! rounded to `precision`) compared cell by cell with the computed table. A cell holds
//! when the computed value is within half the precision of the printed one; Monte Carlo
//! cells use the sequential rule, each cell counted in the Bonferroni split.

use crate::lang::Lang;
use std::path::Path;
use std::rc::Rc;

use crate::balance::figures::{self, Cell, Role};
use crate::error::UserError;
use crate::limits::MAX_TABLE_FILE_ROWS;
use crate::report::Output;

use super::decide::{self, Band, Verdict};
use super::model::{ExpectFile, Expectation};
use super::outcome::{Compute, Outcome, Settings};

/// A printed cell: published row line, key text, column and value.
struct Printed {
    line: usize,
    wanted: Vec<(String, Cell)>,
    column: String,
    value: f64,
}

#[allow(clippy::too_many_arguments)]
pub fn check(
    file: &ExpectFile,
    e: &Expectation,
    m: usize,
    compute: &mut dyn Compute,
    s: &Settings,
    outs: Rc<Vec<Output>>,
    path: &Path,
    output: Option<&str>,
    precision: f64,
    lang: Lang,
) -> anyhow::Result<Outcome> {
    let err = |key: &str, msg: String, allowed: &str| -> anyhow::Error {
        file.error(e.index, key, &msg, allowed).into()
    };
    let shown = path.display().to_string();
    let (header, rows) = read_published(path, lang)?;
    let names: Vec<String> = outs.iter().map(|o| o.name.clone()).collect();
    let pick = |outs: &[Output]| -> Option<usize> {
        match output {
            Some(n) => outs.iter().position(|o| o.name == n),
            None if outs.len() == 1 => Some(0),
            None => None,
        }
    };
    let idx = pick(&outs).ok_or_else(|| {
        err(
            "output",
            tr!(lang, "fr_errors.table_file.which_output", file = shown),
            &names.join(", "),
        )
    })?;
    let out = &outs[idx];
    let roles = figures::roles(out);
    let keys = figures::key_columns(&out.frame);
    let mut key_cols = Vec::new();
    let mut fig_cols = Vec::new();
    for h in &header {
        match roles.iter().find(|(n, _)| n == h).map(|(_, r)| r) {
            None => {
                let all: Vec<String> = roles.iter().map(|(n, _)| n.clone()).collect();
                return Err(err(
                    "table_file",
                    tr!(
                        lang,
                        "fr_errors.table_file.not_a_column",
                        file = shown,
                        column = h,
                        output = out.name
                    ),
                    &all.join(", "),
                ));
            }
            Some(_) if keys.contains(h) => key_cols.push(h.clone()),
            Some(Role::Exact | Role::Estimate { .. }) => fig_cols.push(h.clone()),
            Some(_) => {
                return Err(err(
                    "table_file",
                    tr!(
                        lang,
                        "fr_errors.table_file.neither",
                        file = shown,
                        column = h
                    ),
                    &tr!(
                        lang,
                        "fr_errors.table_file.key_columns",
                        columns = keys.join(", ")
                    ),
                ))
            }
        }
    }
    // A table that prints no figure would hold whatever the rules compute.
    if fig_cols.is_empty() {
        return Err(err(
            "table_file",
            tr!(
                lang,
                "safety.expect.no_figure_column",
                file = shown,
                columns = header.join(", ")
            ),
            &tr!(
                lang,
                "safety.expect.no_figure_column_allowed",
                output = out.name
            ),
        ));
    }
    if rows.is_empty() {
        return Err(err(
            "table_file",
            tr!(lang, "safety.expect.no_rows", file = shown),
            tr!(lang, "safety.expect.no_rows_allowed"),
        ));
    }
    let mut printed = Vec::new();
    for (line, cells) in &rows {
        let wanted: Vec<(String, Cell)> = header
            .iter()
            .zip(cells)
            .filter(|(h, _)| key_cols.contains(h))
            .map(|(h, c)| (h.clone(), c.clone()))
            .collect();
        figures::select_row(out, &wanted, lang).map_err(|msg| {
            err(
                "table_file",
                format!("{shown}:{line}: {msg}"),
                tr!(lang, "fr_errors.table_file.row_allowed"),
            )
        })?;
        for (h, c) in header.iter().zip(cells) {
            if fig_cols.contains(h) {
                let value = c.as_f64().ok_or_else(|| {
                    err(
                        "table_file",
                        tr!(
                            lang,
                            "fr_errors.table_file.not_number",
                            file = shown,
                            line,
                            column = h,
                            cell = c
                        ),
                        tr!(lang, "fr_errors.table_file.not_number_allowed"),
                    )
                })?;
                printed.push(Printed {
                    line: *line,
                    wanted: wanted.clone(),
                    column: h.clone(),
                    value,
                });
            }
        }
    }
    let mc = out.provenance.method != "exact";
    let n0 = out.provenance.trials.unwrap_or(1);
    let looks = if mc { s.schedule(e, n0) } else { vec![0] };
    let alpha = decide::look_alpha(e.confidence, m, printed.len(), looks.len());
    let mut outs = outs;
    let mut bad: Vec<(String, Verdict, f64)> = Vec::new();
    let mut verdict = Verdict::Holds;
    let mut trials = None;
    for (k, &n) in looks.iter().enumerate() {
        if k > 0 {
            outs = compute.outputs(&e.source, &e.options, Some(n))?;
        }
        let out = &outs[pick(&outs).unwrap_or(0)];
        trials = out.provenance.trials;
        bad.clear();
        for p in &printed {
            let band = Band::between(p.value - precision / 2.0, p.value + precision / 2.0);
            let f = figures::find(std::slice::from_ref(out), &p.column, lang)
                .map_err(|msg| err("table_file", msg, ""))?;
            let row = figures::select_row(out, &p.wanted, lang)
                .map_err(|msg| err("table_file", msg, ""))?;
            let v = figures::value_at(&f, row, lang).map_err(|msg| err("table_file", msg, ""))?;
            let cell_verdict = match v.interval95 {
                Some(iv) if mc => {
                    let (lo, hi) = decide::widen(v.value, iv, alpha, v.df);
                    decide::interval(lo, hi, &band)
                }
                _ => decide::exact(v.value, &band),
            };
            if cell_verdict != Verdict::Holds {
                let key = figures::where_text(&p.wanted);
                bad.push((
                    format!(
                        "line {} ({key}) {}: printed {}, computed {}",
                        p.line,
                        p.column,
                        decide::num(p.value),
                        decide::num(v.value)
                    ),
                    cell_verdict,
                    band.miss(v.value),
                ));
            }
        }
        verdict = if bad.iter().any(|b| b.1 == Verdict::Fails) {
            Verdict::Fails
        } else if bad.is_empty() {
            Verdict::Holds
        } else {
            Verdict::Undecided
        };
        if verdict != Verdict::Undecided {
            break;
        }
    }
    let worst = bad
        .iter()
        .map(|b| b.2)
        .max_by(|a, b| a.abs().total_cmp(&b.abs()));
    let mut message = format!(
        "{} of {} printed cells within ±{} of the computed table",
        printed.len() - bad.len(),
        printed.len(),
        decide::num(precision / 2.0)
    );
    for (text, v, _) in bad.iter().take(5) {
        message += &format!("; {} {text}", v.as_str());
    }
    if bad.len() > 5 {
        message += &format!("; and {} more", bad.len() - 5);
    }
    let mut message_shown = tr!(
        lang,
        "expect.cells_within",
        ok = printed.len() - bad.len(),
        total = printed.len(),
        tolerance = crate::balance::dec(&decide::num(precision / 2.0), lang)
    );
    for (text, v, _) in bad.iter().take(5) {
        message_shown += &format!("; {} {text}", v.shown(lang));
    }
    if bad.len() > 5 {
        message_shown += &tr!(lang, "expect.and_more", more = bad.len() - 5);
    }
    Ok(Outcome {
        name: e.name.clone(),
        source: e.source.describe(),
        what: format!("table_file {shown}"),
        method: if mc { "monte_carlo" } else { "exact" },
        value: None,
        interval: None,
        confidence: mc.then_some(1.0 - alpha),
        band: format!("printed to {}", decide::num(precision)),
        band_shown: tr!(
            lang,
            "expect.printed_to",
            precision = crate::balance::dec(&decide::num(precision), lang)
        ),
        verdict,
        trials: if mc { trials } else { None },
        looks: if mc { looks } else { Vec::new() },
        miss: worst.filter(|_| verdict != Verdict::Holds),
        message,
        message_shown,
    })
}

/// A published table as read: its header, then each row's line index and cells.
type Published = (Vec<String>, Vec<(usize, Vec<Cell>)>);

/// Reads a published table: header + rows of comma-separated cells, as a spreadsheet saves
/// them (a UTF-8 byte-order mark, `"quoted"` cells with `""` for a quote).
fn read_published(path: &Path, lang: Lang) -> Result<Published, UserError> {
    let text = crate::input::read_text(path, crate::input::MAX_TABLE_BYTES).map_err(|e| {
        UserError::new(tr!(
            lang,
            "fr_errors.table_file.cannot_read",
            file = path.display(),
            error = e.text(lang)
        ))
    })?;
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(&text);
    let fields = |i: usize, l: &str| {
        split_fields(l).map_err(|col| {
            UserError::new(tr!(
                lang,
                "safety.expect.open_quote",
                file = path.display(),
                line = i + 1,
                col
            ))
        })
    };
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let header: Vec<String> = lines
        .next()
        .map(|(i, l)| fields(i, l))
        .transpose()?
        .ok_or_else(|| {
            UserError::new(tr!(
                lang,
                "fr_errors.table_file.empty_file",
                file = path.display()
            ))
        })?;
    let mut rows = Vec::new();
    for (i, l) in lines {
        let cells: Vec<Cell> = fields(i, l)?.iter().map(|c| Cell::from_text(c)).collect();
        if cells.len() != header.len() {
            return Err(UserError::new(tr!(
                lang,
                "fr_errors.table_file.cells_for_columns",
                file = path.display(),
                line = i + 1,
                cells = cells.len(),
                columns = header.len()
            )));
        }
        rows.push((i + 1, cells));
        if rows.len() > MAX_TABLE_FILE_ROWS {
            return Err(UserError::new(tr!(
                lang,
                "fr_errors.table_file.too_many_rows",
                file = path.display(),
                max = MAX_TABLE_FILE_ROWS
            )));
        }
    }
    Ok((header, rows))
}

/// The cells of one CSV line, unquoted and trimmed; `Err(column)` of a quote left open.
fn split_fields(line: &str) -> Result<Vec<String>, usize> {
    let mut cells = Vec::new();
    let mut cell = String::new();
    let mut chars = line.chars().enumerate().peekable();
    let mut quoted_from = None;
    while let Some((i, c)) = chars.next() {
        match (quoted_from, c) {
            (Some(_), '"') if chars.peek().map(|p| p.1) == Some('"') => {
                chars.next();
                cell.push('"');
            }
            (Some(_), '"') => quoted_from = None,
            (Some(_), c) => cell.push(c),
            // Only a quote opening a cell (after blanks) quotes it.
            (None, '"') if cell.trim().is_empty() => {
                cell.clear();
                quoted_from = Some(i + 1);
            }
            (None, ',') => cells.push(std::mem::take(&mut cell).trim().to_string()),
            (None, c) => cell.push(c),
        }
    }
    if let Some(col) = quoted_from {
        return Err(col);
    }
    cells.push(cell.trim().to_string());
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_as_a_spreadsheet_writes_them() {
        assert_eq!(split_fields("a, b ,c").unwrap(), ["a", "b", "c"]);
        assert_eq!(
            split_fields("\"0.52\", \"x,y\",\"say \"\"hi\"\"\",").unwrap(),
            ["0.52", "x,y", "say \"hi\"", ""]
        );
        assert_eq!(split_fields("\"open, 1").unwrap_err(), 1);
    }

    #[test]
    fn a_byte_order_mark_and_quoted_numbers_are_read() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("t.csv");
        std::fs::write(
            &p,
            "\u{FEFF}\"threshold\",\"p_success\"\r\n\"50\",\"0.52\"\r\n60,\"0.6\"\r\n",
        )
        .unwrap();
        let (header, rows) = read_published(&p, Lang::En).unwrap();
        assert_eq!(header, ["threshold", "p_success"]);
        assert_eq!(rows[0], (2, vec![Cell::Int(50), Cell::Float(0.52)]));
        assert_eq!(rows[1], (3, vec![Cell::Int(60), Cell::Float(0.6)]));
        std::fs::write(&p, "a,b\n1,\"2\n").unwrap();
        let e = read_published(&p, Lang::En).unwrap_err().0;
        assert!(e.contains("t.csv:2:3"), "{e}");
    }
}
