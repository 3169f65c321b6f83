//! Figures: any numeric CSV column of any output, named `<output>.<column>` (or the column
//! alone when there is one output), one row picked by its key columns. `figures` lists
//! them; `expect` reads them; a later `tune` can reuse the same lookup.
//!
//! Outputs carry no schema of their own, so the roles of columns are read from the frame
//! and the names the tables use consistently: the key columns are the shortest run of
//! leading columns that tells the rows apart; a Monte Carlo figure `x` has its 95% interval
//! in `x_lo`/`x_hi` (or, for `p_x`, `x_lo`/`x_hi`; for `x_mc`, `x_lo`/`x_hi`).

use crate::lang::Lang;
use polars::prelude::{AnyValue, DataFrame, DataType};

use crate::report::Output;

/// A value of a `where` table or of a key cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    Int(i64),
    Float(f64),
    Text(String),
    Bool(bool),
    Null,
}

impl Cell {
    pub fn from_toml(v: &toml::Value) -> Option<Cell> {
        Some(match v {
            toml::Value::Integer(i) => Cell::Int(*i),
            toml::Value::Float(f) => Cell::Float(*f),
            toml::Value::String(s) => Cell::Text(s.clone()),
            toml::Value::Boolean(b) => Cell::Bool(*b),
            _ => return None,
        })
    }

    /// A CSV field as written by the tool (or a designer): number, bool or text.
    pub fn from_text(s: &str) -> Cell {
        let t = s.trim();
        if t.is_empty() {
            Cell::Null
        } else if let Ok(i) = t.parse::<i64>() {
            Cell::Int(i)
        } else if let Ok(f) = t.parse::<f64>() {
            Cell::Float(f)
        } else if t == "true" || t == "false" {
            Cell::Bool(t == "true")
        } else {
            Cell::Text(t.to_string())
        }
    }

    /// Same value, numbers compared to 1e-9 whatever their type.
    pub fn matches(&self, other: &Cell) -> bool {
        match (self.as_f64(), other.as_f64()) {
            (Some(a), Some(b)) => (a - b).abs() <= 1e-9,
            _ => match (self, other) {
                (Cell::Text(a), Cell::Text(b)) => a == b,
                (Cell::Bool(a), Cell::Bool(b)) => a == b,
                (Cell::Text(a), Cell::Bool(b)) | (Cell::Bool(b), Cell::Text(a)) => {
                    a == &b.to_string()
                }
                _ => false,
            },
        }
    }

    /// The cell as typed after `--where k=`: text without quotes.
    pub fn bare(&self) -> String {
        match self {
            Cell::Text(s) => s.clone(),
            other => other.to_string(),
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Cell::Int(i) => Some(*i as f64),
            Cell::Float(f) => Some(*f),
            _ => None,
        }
    }
}

impl std::fmt::Display for Cell {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cell::Int(i) => write!(f, "{i}"),
            Cell::Float(x) => write!(f, "{x}"),
            Cell::Text(s) => write!(f, "\"{s}\""),
            Cell::Bool(b) => write!(f, "{b}"),
            Cell::Null => write!(f, "(empty)"),
        }
    }
}

/// The cell at (`column`, `row`).
pub fn cell(frame: &DataFrame, column: &str, row: usize) -> Cell {
    let Ok(c) = frame.column(column) else {
        return Cell::Null;
    };
    match c.get(row) {
        Ok(AnyValue::Null) | Err(_) => Cell::Null,
        Ok(AnyValue::Boolean(b)) => Cell::Bool(b),
        Ok(AnyValue::String(s)) => Cell::Text(s.to_string()),
        Ok(AnyValue::StringOwned(s)) => Cell::Text(s.to_string()),
        Ok(AnyValue::Float64(x)) => Cell::Float(x),
        Ok(AnyValue::Float32(x)) => Cell::Float(x as f64),
        Ok(v) if c.dtype().is_integer() => v.extract::<i64>().map_or(Cell::Null, Cell::Int),
        Ok(v) => Cell::Text(v.to_string()),
    }
}

/// Column names of a frame.
pub fn column_names(frame: &DataFrame) -> Vec<String> {
    frame
        .get_column_names()
        .iter()
        .map(|s| s.to_string())
        .collect()
}

/// The shortest run of leading columns whose values tell every row apart; at least the
/// first column when it is not a float (so a one-row table keeps its key).
pub fn key_columns(frame: &DataFrame) -> Vec<String> {
    let names = column_names(frame);
    let rows = frame.height();
    let first_is_key = frame
        .columns()
        .first()
        .is_some_and(|c| !c.dtype().is_float());
    for k in usize::from(first_is_key).min(names.len())..=names.len() {
        let mut seen = std::collections::HashSet::with_capacity(rows);
        let unique = (0..rows).all(|r| {
            let key: Vec<String> = names[..k]
                .iter()
                .map(|c| cell(frame, c, r).to_string())
                .collect();
            seen.insert(key)
        });
        if unique {
            return names[..k].to_vec();
        }
    }
    names
}

/// What a column is for, as `figures` and `expect` see it.
#[derive(Clone, Debug, PartialEq)]
pub enum Role {
    Key,
    /// An exact number (compared to 1e-9).
    Exact,
    /// A Monte Carlo estimate with its 95% interval in these columns.
    Estimate {
        lo: String,
        hi: String,
    },
    /// A bound of another column's interval.
    Bound,
    /// A Monte Carlo number without an interval (a count, a mean without its interval):
    /// it cannot be decided statistically.
    Unsupported,
    /// Not a number.
    Text,
}

/// The interval columns of `column`, if the frame has them.
pub fn interval_of(names: &[String], column: &str) -> Option<(String, String)> {
    let mut stems = vec![column.to_string()];
    if let Some(s) = column.strip_prefix("p_") {
        stems.push(s.to_string());
    }
    if let Some(s) = column.strip_suffix("_mc") {
        stems.push(s.to_string());
        if let Some(s2) = s.strip_prefix("p_") {
            stems.push(s2.to_string());
        }
    }
    stems.into_iter().find_map(|s| {
        let (lo, hi) = (format!("{s}_lo"), format!("{s}_hi"));
        (names.contains(&lo) && names.contains(&hi)).then_some((lo, hi))
    })
}

/// Role of every column of an output, in column order.
pub fn roles(output: &Output) -> Vec<(String, Role)> {
    let frame = &output.frame;
    let names = column_names(frame);
    let keys = key_columns(frame);
    let mc = output.provenance.method != "exact";
    let bounds: Vec<String> = names
        .iter()
        .filter_map(|n| interval_of(&names, n))
        .flat_map(|(a, b)| [a, b])
        .collect();
    names
        .iter()
        .map(|n| {
            let numeric = frame
                .column(n)
                .map(|c| c.dtype().is_primitive_numeric() || c.dtype() == &DataType::Null)
                .unwrap_or(false);
            let role = if keys.contains(n) {
                Role::Key
            } else if !numeric {
                Role::Text
            } else if bounds.contains(n) && interval_of(&names, n).is_none() {
                Role::Bound
            } else if let Some((lo, hi)) = interval_of(&names, n).filter(|_| mc) {
                Role::Estimate { lo, hi }
            } else if !mc || n.contains("exact") {
                Role::Exact
            } else {
                Role::Unsupported
            };
            (n.clone(), role)
        })
        .collect()
}

/// A plain-words reading of a column name (`p_x` = probability of x, `x_lo` = lower end
/// of x's 95% interval...).
pub fn meaning(column: &str, lang: Lang) -> String {
    let words = |s: &str| s.replace('_', " ");
    if let Some(s) = column.strip_suffix("_lo") {
        return tr!(lang, "figures.lower_end", what = words(s));
    }
    if let Some(s) = column.strip_suffix("_hi") {
        return tr!(lang, "figures.upper_end", what = words(s));
    }
    if column == "trials" {
        return tr!(lang, "figures.trials").into();
    }
    if let Some(s) = column.strip_prefix("p_") {
        return tr!(lang, "figures.probability", what = words(s));
    }
    if let Some(s) = column.strip_prefix("mean_") {
        return tr!(lang, "figures.mean", what = words(s));
    }
    if column.len() == 3
        && column.starts_with('p')
        && column[1..].chars().all(|c| c.is_ascii_digit())
    {
        return tr!(
            lang,
            "figures.percentile",
            n = column[1..].trim_start_matches('0')
        );
    }
    if let Some((a, b)) = column.split_once("_per_") {
        return tr!(lang, "figures.per", what = words(a), per = words(b));
    }
    if let Some(s) = column.strip_prefix("share") {
        return tr!(lang, "figures.share", rest = words(s));
    }
    words(column)
}

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
    let outcome = rest.strip_prefix("win_").unwrap_or(rest);
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
            if snake == outcome || snake == rest {
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

/// The listing `cosmosim figures` prints for a set of outputs.
pub fn describe(outputs: &[Output], lang: Lang) -> String {
    let mut s = String::new();
    let single = outputs.len() == 1;
    for o in outputs {
        let keys = key_columns(&o.frame);
        s += &format!("{} — {}\n", o.name, o.title);
        if !o.question.is_empty() {
            s += &format!("  {}\n", o.question);
        }
        s += &tr!(
            lang,
            "figures.method",
            method = o.provenance.method,
            rows = o.frame.height(),
            keys = if keys.is_empty() {
                tr!(lang, "figures.no_keys").to_string()
            } else {
                keys.join(", ")
            }
        );
        s.push('\n');
        if o.frame.height() > 0 && !keys.is_empty() {
            let ex: Vec<(String, Cell)> = keys
                .iter()
                .map(|k| (k.clone(), cell(&o.frame, k, 0)))
                .collect();
            s += &tr!(
                lang,
                "figures.example",
                example = format!("{{ {} }}", where_text(&ex))
            );
            s.push('\n');
        }
        s += tr!(lang, "figures.columns");
        s.push('\n');
        for (name, role) in roles(o) {
            let figure = if single {
                name.clone()
            } else {
                format!("{}.{name}", o.name)
            };
            let how = match &role {
                Role::Key => tr!(lang, "figures.role_key").to_string(),
                Role::Exact => tr!(lang, "figures.role_exact").to_string(),
                Role::Estimate { lo, hi } => {
                    tr!(lang, "figures.role_estimate", lo, hi)
                }
                Role::Bound => tr!(lang, "figures.role_bound").to_string(),
                Role::Unsupported => tr!(lang, "figures.role_unsupported").to_string(),
                Role::Text => tr!(lang, "figures.role_text").to_string(),
            };
            s += &format!("    {figure:<44} {how:<40} {}\n", meaning(&name, lang));
        }
        s += "\n";
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Provenance;
    use polars::prelude::*;

    fn output(mc: bool) -> Output {
        let mut frame = df!(
            "threshold" => [50i64, 50, 60, 60],
            "karma" => [0i64, 5, 0, 5],
            "p_success" => [0.39, 0.4, 0.49, 0.5],
        )
        .unwrap();
        let prov = if mc {
            frame
                .with_column(Column::new("success_lo".into(), [0.38, 0.39, 0.48, 0.49]))
                .unwrap();
            frame
                .with_column(Column::new("success_hi".into(), [0.40, 0.41, 0.50, 0.51]))
                .unwrap();
            Provenance::monte_carlo("t", "cosmos", Default::default(), 1, 1000)
        } else {
            Provenance::exact("t", "cosmos", Default::default())
        };
        Output {
            name: "t".into(),
            title: "T".into(),
            question: "q".into(),
            frame,
            figures: vec![],
            key_figures: vec![],
            provenance: prov,
        }
    }

    #[test]
    fn keys_are_the_shortest_unique_prefix() {
        assert_eq!(key_columns(&output(false).frame), ["threshold", "karma"]);
    }

    #[test]
    fn lookup_and_row_selection() {
        let outs = vec![output(true)];
        let f = find(&outs, "p_success", Lang::En).unwrap();
        assert!(matches!(f.role, Role::Estimate { .. }));
        let row = select_row(
            f.output,
            &[
                ("threshold".into(), Cell::Int(60)),
                ("karma".into(), Cell::Float(5.0)),
            ],
            Lang::En,
        )
        .unwrap();
        let v = value_at(&f, row, Lang::En).unwrap();
        assert_eq!(v.value, 0.5);
        assert_eq!(v.interval95, Some((0.49, 0.51)));
        assert_eq!(v.trials, Some(1000));
        let e = find(&outs, "t.p_sucess", Lang::En).err().unwrap();
        assert!(
            e.contains("`p_success`") && e.contains("`success_lo`"),
            "{e}"
        );
        let e = find(&outs, "x.p_success", Lang::En).err().unwrap();
        assert!(e.contains("`t`"), "{e}");
        let e = select_row(f.output, &[("threshold".into(), Cell::Int(60))], Lang::En).unwrap_err();
        assert!(e.contains("2 rows") && e.contains("`karma`"), "{e}");
        let e = select_row(f.output, &[("thresh".into(), Cell::Int(60))], Lang::En).unwrap_err();
        assert!(e.contains("`threshold`"), "{e}");
    }

    #[test]
    fn roles_and_meanings() {
        let r = roles(&output(false));
        assert_eq!(r[2].1, Role::Exact);
        let r = roles(&output(true));
        assert_eq!(r[3].1, Role::Bound);
        assert_eq!(
            meaning("p_crit_success", Lang::En),
            "probability: crit success"
        );
        assert!(meaning("success_lo", Lang::En).starts_with("lower end"));
        assert_eq!(meaning("p95", Lang::En), "95th percentile");
        assert!(describe(&[output(true)], Lang::En).contains("key columns: threshold, karma"));
    }
}
