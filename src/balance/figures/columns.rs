//! The cells of an output's frame, its key columns, and what each column is (key, exact,
//! Monte Carlo estimate with its interval, bound, text) and means.

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
    // French reads the column's words from its glossary, never the English words.
    let words = |s: &str| crate::lang::column_words(s, lang);
    // Columns whose words alone mislead: `cosmos-movement` counts a sprint's success as
    // any success, its crit and super as that class alone (audit of 2026-12-07, night: the
    // three summed to more than 1).
    match column {
        "p_sprint_success" => return tr!(lang, "figures.p_sprint_success").into(),
        "p_sprint_crit" => return tr!(lang, "figures.p_sprint_crit").into(),
        "p_sprint_super" => return tr!(lang, "figures.p_sprint_super").into(),
        _ => {}
    }
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

/// Whether a figure is a share or probability (0..1), held to `--precision P` as ±P, or
/// a figure in its own unit (rounds, tests, days, points, karma; means and quantiles),
/// held to ±P of its value (issue 26 item 5: one P, the same effort on every kind; a
/// probability precision on a mean of days could never be reached). Read from the
/// column's name: `p`, `p_*`, `*share*`, `*_per_point` and the test outcome classes.
pub fn is_share(stem: &str) -> bool {
    const CLASSES: [&str; 6] = [
        "success",
        "failure",
        "crit_success",
        "crit_failure",
        "super_success",
        "super_failure",
    ];
    stem == "p"
        || stem.starts_with("p_")
        || stem.contains("share")
        || stem.ends_with("_per_point")
        || CLASSES.contains(&stem)
}
