//! A figure named `<output>.<column>` (or an alias) found in a set of outputs, the closest
//! names when it is not there, the row a `where` table picks, and the value with its
//! interval at that row.

use crate::lang::Lang;

use crate::report::Output;

use super::columns::*;

/// A figure found in a set of outputs: which output and which column.
pub struct FigureRef<'a> {
    pub output: &'a Output,
    pub column: String,
    pub role: Role,
}

fn list(v: &[String]) -> String {
    v.iter()
        .map(|s| format!("`{s}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Every `<output>.<column>` of `outputs` that `expect`, `tune` and `sweep` can decide.
pub fn decidable_names(outputs: &[Output]) -> Vec<String> {
    outputs
        .iter()
        .flat_map(|o| {
            roles(o)
                .into_iter()
                .filter(|(_, r)| matches!(r, Role::Exact | Role::Estimate { .. }))
                .map(move |(c, _)| format!("{}.{c}", o.name))
        })
        .collect()
}

/// `; closest: `a`, `b`` for a mistyped figure name (up to five decidable names, those
/// containing the typed text first, then by Jaro-Winkler similarity), or nothing.
fn closest(outputs: &[Output], figure: &str, lang: Lang) -> String {
    let typed = figure.trim().to_lowercase();
    let column = typed.rsplit('.').next().unwrap_or(&typed).to_string();
    let mut scored: Vec<(f64, String)> = decidable_names(outputs)
        .into_iter()
        .map(|n| {
            let tail = n.rsplit('.').next().unwrap_or(&n).to_string();
            let score = if n.contains(&typed) || (!column.is_empty() && tail.contains(&column)) {
                1.0
            } else {
                strsim::jaro_winkler(&typed, &n).max(strsim::jaro_winkler(&column, &tail))
            };
            (score, n)
        })
        .filter(|(score, _)| *score >= 0.75)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let names: Vec<String> = scored.into_iter().take(5).map(|(_, n)| n).collect();
    if names.is_empty() {
        String::new()
    } else {
        tr!(lang, "safety.work.closest", names = list(&names))
    }
}

/// Finds `<output>.<column>` (or `<column>` for a one-output result). The error names the
/// closest decidable figures and lists the names that exist.
pub fn find<'a>(outputs: &'a [Output], figure: &str, lang: Lang) -> Result<FigureRef<'a>, String> {
    let names: Vec<String> = outputs.iter().map(|o| o.name.clone()).collect();
    let (output, column) = match figure.split_once('.') {
        Some((o, c)) => {
            let out = outputs.iter().find(|x| x.name == o).ok_or_else(|| {
                tr!(
                    lang,
                    "safety.work.unknown_output",
                    output = o,
                    outputs = list(&names)
                ) + &closest(outputs, figure, lang)
            })?;
            (out, c)
        }
        None if outputs.len() == 1 => (&outputs[0], figure),
        None => {
            return Err(tr!(
                lang,
                "safety.work.which_output",
                figure,
                outputs = list(&names)
            ) + &closest(outputs, figure, lang))
        }
    };
    let roles = roles(output);
    let Some((_, role)) = roles.iter().find(|(n, _)| n == column) else {
        let cols: Vec<String> = roles.iter().map(|(n, _)| n.clone()).collect();
        return Err(tr!(
            lang,
            "safety.work.no_column",
            output = output.name,
            column,
            columns = list(&cols)
        ) + &closest(outputs, figure, lang));
    };
    Ok(FigureRef {
        output,
        column: column.to_string(),
        role: role.clone(),
    })
}

/// A figure and its `where`, headline aliases resolved (issue 23 item 3): `p_<outcome>`
/// (and `p_win_<side>`) names the share of that outcome in the output keyed by `outcome`
/// (`combat-sides.share` where `outcome = "<side>"` in a Great Cosmos combat; `p` in the
/// 2d20, Nephilim and Trinités outcome tables), so the short names designers know read the
/// same figure in every command. Any other name is looked up as it is ([`find`]).
pub fn resolve<'a>(
    outputs: &'a [Output],
    figure: &str,
    wanted: &[(String, Cell)],
    lang: Lang,
) -> Result<(FigureRef<'a>, Vec<(String, Cell)>), String> {
    let exact = find(outputs, figure, lang);
    if exact.is_ok() || figure.contains('.') {
        return exact.map(|f| (f, wanted.to_vec()));
    }
    let Some(rest) = figure.strip_prefix("p_") else {
        return exact.map(|f| (f, wanted.to_vec()));
    };
    let outcome = side_of(rest);
    for o in outputs {
        let names = column_names(&o.frame);
        if !names.iter().any(|n| n == "outcome") {
            continue;
        }
        let share = roles(o)
            .into_iter()
            .find(|(c, r)| matches!(r, Role::Estimate { .. }) && (c == "share" || c == "p"));
        let Some((column, role)) = share else {
            continue;
        };
        for row in 0..o.frame.height() {
            let Cell::Text(name) = cell(&o.frame, "outcome", row) else {
                continue;
            };
            let snake = name
                .to_lowercase()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_");
            if snake == rest || side_of(&snake) == outcome {
                let mut w = wanted.to_vec();
                w.push(("outcome".into(), Cell::Text(name)));
                return Ok((
                    FigureRef {
                        output: o,
                        column,
                        role,
                    },
                    w,
                ));
            }
        }
    }
    exact.map(|f| (f, wanted.to_vec()))
}

/// The side an outcome name is about: `win_players`, `players_win` and `players_wins`
/// all name `players` (audit of 2026-12-07 afternoon: the 2d20's `players_win` and the
/// Nephilim `a_wins` rows answered `p_players_win` but not the documented `p_win_players`).
fn side_of(name: &str) -> &str {
    name.strip_prefix("win_")
        .or_else(|| name.strip_suffix("_wins"))
        .or_else(|| name.strip_suffix("_win"))
        .unwrap_or(name)
}

/// The aliases of the outcome rows of `o` (`p_<outcome>` and `p_win_<side>`), each with
/// the row it names, for `figures`; empty for an output without an outcome share.
pub fn aliases(o: &Output) -> Vec<(Vec<String>, String, String)> {
    if !column_names(&o.frame).iter().any(|n| n == "outcome") {
        return Vec::new();
    }
    let share = roles(o)
        .into_iter()
        .find(|(c, r)| matches!(r, Role::Estimate { .. }) && (c == "share" || c == "p"));
    let Some((column, _)) = share else {
        return Vec::new();
    };
    (0..o.frame.height())
        .filter_map(|row| match cell(&o.frame, "outcome", row) {
            Cell::Text(name) => Some(name),
            _ => None,
        })
        .map(|name| {
            let snake = name
                .to_lowercase()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_");
            let side = side_of(&snake);
            let mut names = vec![format!("p_{snake}")];
            let not_a_side = [
                "nobody_standing",
                "round_cap",
                "undecided",
                "draw",
                "both_out",
            ];
            if side != snake || !not_a_side.contains(&side) {
                names.push(format!("p_win_{side}"));
            }
            (names, format!("{}.{column}", o.name), name)
        })
        .collect()
}

/// Why `f` cannot be decided against a band or a target, with the columns of its output
/// that can; `None` for an exact figure or an estimate with its interval. `expect`,
/// `tune` and `optimise` share this refusal: a Monte Carlo number without an interval
/// read as exact would give a confident answer built on noise.
pub fn undecidable(f: &FigureRef, figure: &str, lang: Lang) -> Option<(String, String)> {
    let reason = match f.role {
        Role::Exact | Role::Estimate { .. } => return None,
        Role::Unsupported => tr!(lang, "safety.work.no_interval", figure),
        _ => tr!(lang, "safety.work.not_a_figure", figure),
    };
    let checkable: Vec<String> = roles(f.output)
        .into_iter()
        .filter(|(_, r)| matches!(r, Role::Exact | Role::Estimate { .. }))
        .map(|(n, _)| n)
        .collect();
    Some((reason, checkable.join(", ")))
}

/// The one row whose cells match every `where` pair. The error names the key columns and
/// how many rows matched.
pub fn select_row(output: &Output, wanted: &[(String, Cell)], lang: Lang) -> Result<usize, String> {
    let frame = &output.frame;
    let names = column_names(frame);
    let keys = key_columns(frame);
    for (k, _) in wanted {
        if !names.contains(k) {
            return Err(tr!(
                lang,
                "safety.work.where_not_column",
                key = k,
                output = output.name,
                keys = list(&keys),
                columns = list(&names)
            ));
        }
    }
    let rows: Vec<usize> = (0..frame.height())
        .filter(|&r| wanted.iter().all(|(k, v)| cell(frame, k, r).matches(v)))
        .collect();
    match rows.as_slice() {
        [r] => Ok(*r),
        [] => Err(tr!(
            lang,
            "safety.work.no_row",
            output = output.name,
            wanted = where_text(wanted),
            keys = list(&keys)
        ) + &rows_text(output, &keys, lang)),
        many => Err(tr!(
            lang,
            "safety.work.many_rows",
            count = many.len(),
            output = output.name,
            wanted = if wanted.is_empty() {
                tr!(lang, "safety.work.no_where").to_string()
            } else {
                where_text(wanted)
            },
            keys = list(&keys)
        )),
    }
}

/// `; its rows: a = 1, b = "x"; ...` (up to twelve rows), for a `where` that matched none.
fn rows_text(output: &Output, keys: &[String], lang: Lang) -> String {
    let frame = &output.frame;
    let n = frame.height();
    let rows: Vec<String> = (0..n.min(12))
        .map(|r| {
            keys.iter()
                .map(|k| format!("{k} = {}", cell(frame, k, r)))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    if rows.is_empty() {
        return String::new();
    }
    let more = if n > 12 { "; ..." } else { "" };
    tr!(lang, "safety.work.rows", rows = rows.join("; ")) + more
}

pub fn where_text(wanted: &[(String, Cell)]) -> String {
    wanted
        .iter()
        .map(|(k, v)| format!("{k} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A figure's number in one row, with its 95% interval when it is an estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct FigureValue {
    pub value: f64,
    pub interval95: Option<(f64, f64)>,
    /// Degrees of freedom of a Student-t interval over few chains, from the output's
    /// provenance parameter [`crate::report::T_DF_PARAM`] (None: a normal or Wilson interval).
    pub df: Option<f64>,
    pub trials: Option<u64>,
}

/// Reads the figure at `row`; an empty cell (0 events out of 0) or a non-number is an
/// error.
pub fn value_at(f: &FigureRef, row: usize, lang: Lang) -> Result<FigureValue, String> {
    let frame = &f.output.frame;
    let num = |c: &str| cell(frame, c, row).as_f64();
    let value = num(&f.column).ok_or_else(|| {
        tr!(
            lang,
            "safety.work.empty_cell",
            output = f.output.name,
            column = f.column
        )
    })?;
    // Issue 26 item 3: a half-open interval (a quantile whose bound no trial reached:
    // an empty `_lo` or `_hi`) is unbounded on that side, so a figure is decided the same
    // way on every seed rather than refused on some.
    let interval95 = match &f.role {
        Role::Estimate { lo, hi } => Some((
            num(lo).unwrap_or(f64::NEG_INFINITY),
            num(hi).unwrap_or(f64::INFINITY),
        )),
        _ => None,
    };
    let trials = num("trials")
        .map(|t| t as u64)
        .or(f.output.provenance.trials);
    let df = f
        .output
        .provenance
        .parameters
        .get(crate::report::T_DF_PARAM)
        .and_then(|d| d.parse::<f64>().ok());
    Ok(FigureValue {
        value,
        interval95,
        df,
        trials,
    })
}
