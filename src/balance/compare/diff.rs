//! What moved between two output folders. Rows are joined on their key columns (polars
//! full join); each numeric figure present on both sides is compared: exact figures move
//! when |new − base| > 1e-9; Monte Carlo figures get a two-sample z test with each side's
//! standard error read from its 95% interval ((hi − lo) / (2·1.96); an exact side has
//! none), and move when the Benjamini-Hochberg procedure over every Monte Carlo figure
//! compared rejects at the chosen false-discovery rate.

use std::collections::BTreeMap;

use polars::prelude::*;
use statrs::distribution::{ContinuousCDF, Normal};

use crate::balance::figures::{self, Role};
use crate::stats::z95;

use super::load::Loaded;

/// One figure of one row compared.
#[derive(Clone, Debug)]
pub struct Move {
    pub output: String,
    pub row: String,
    pub figure: String,
    /// `exact` or `monte_carlo`.
    pub method: &'static str,
    pub base: f64,
    pub new: f64,
    pub delta: f64,
    /// Two-sided p-value and BH-adjusted q-value (Monte Carlo only).
    pub p: Option<f64>,
    pub q: Option<f64>,
    pub moved: bool,
}

/// Structure and provenance changes of one output.
#[derive(Clone, Debug, Default)]
pub struct OutputDiff {
    pub name: String,
    pub keys: Vec<String>,
    pub columns_added: Vec<String>,
    pub columns_removed: Vec<String>,
    pub rows_added: Vec<String>,
    pub rows_removed: Vec<String>,
    /// (what, base, new) from the `.meta.json` files.
    pub provenance: Vec<(String, String, String)>,
}

#[derive(Clone, Debug, Default)]
pub struct Comparison {
    pub outputs_added: Vec<String>,
    pub outputs_removed: Vec<String>,
    pub outputs: Vec<OutputDiff>,
    /// Every figure compared, moved or not.
    pub figures: Vec<Move>,
    /// Monte Carlo figures without an interval (counts, means without interval): not
    /// tested.
    pub untested: usize,
    pub alpha: f64,
}

impl Comparison {
    pub fn moved(&self) -> impl Iterator<Item = &Move> {
        self.figures.iter().filter(|m| m.moved)
    }

    /// True when anything moved or was added or removed.
    pub fn changed(&self) -> bool {
        self.moved().next().is_some()
            || !self.outputs_added.is_empty()
            || !self.outputs_removed.is_empty()
            || self.outputs.iter().any(OutputDiff::structural)
    }
}

impl OutputDiff {
    /// True when columns or rows were added or removed.
    pub fn structural(&self) -> bool {
        !(self.columns_added.is_empty()
            && self.columns_removed.is_empty()
            && self.rows_added.is_empty()
            && self.rows_removed.is_empty())
    }
}

const PROVENANCE_KEYS: &[&str] = &["method", "seed", "trials", "version"];

fn text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Null => "—".into(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn provenance_diff(b: &serde_json::Value, n: &serde_json::Value) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for k in PROVENANCE_KEYS {
        if b[k] != n[k] {
            out.push((k.to_string(), text(&b[k]), text(&n[k])));
        }
    }
    for group in ["rule_options", "parameters"] {
        let keys: std::collections::BTreeSet<&String> = [&b[group], &n[group]]
            .iter()
            .filter_map(|v| v.as_object())
            .flat_map(|o| o.keys())
            .collect();
        for k in keys {
            if b[group][k] != n[group][k] {
                out.push((
                    format!("{group}.{k}"),
                    text(&b[group][k]),
                    text(&n[group][k]),
                ));
            }
        }
    }
    if b["scenario"]["sha256"] != n["scenario"]["sha256"] {
        let short = |v: &serde_json::Value| text(v).chars().take(12).collect::<String>();
        out.push((
            "scenario sha256".into(),
            short(&b["scenario"]["sha256"]),
            short(&n["scenario"]["sha256"]),
        ));
    }
    // A linked file (an expedition's combat file) moves the numbers as the scenario does.
    if b["linked"] != n["linked"] {
        let hashes = |v: &serde_json::Value| {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .map(|f| text(&f["sha256"]).chars().take(12).collect::<String>())
                        .collect::<Vec<_>>()
                        .join(", ")
                })
                .unwrap_or_default()
        };
        out.push((
            "linked sha256".into(),
            hashes(&b["linked"]),
            hashes(&n["linked"]),
        ));
    }
    out
}

/// Key columns of a side as text, plus a presence marker, for the join.
fn keyed(frame: &DataFrame, keys: &[String], marker: &str) -> PolarsResult<DataFrame> {
    let mut f = frame.clone();
    for k in keys {
        let c = f.column(k)?.cast(&DataType::String)?;
        f.with_column(c)?;
    }
    f.with_column(Column::new(marker.into(), vec![true; f.height()]))?;
    Ok(f)
}

fn f64_at(frame: &DataFrame, col: &str, row: usize) -> Option<f64> {
    figures::cell(frame, col, row)
        .as_f64()
        .filter(|x| x.is_finite())
}

/// Standard error of a side read from its 95% interval; `None` when the interval is
/// half-open or missing in that row (a quantile beyond the horizon, issue 26 item 1):
/// such a figure cannot be tested, and a standard error of 0 would make any difference
/// look certain.
fn std_error(frame: &DataFrame, role: &Role, row: usize, suffix: &str) -> Option<f64> {
    match role {
        Role::Estimate { lo, hi } => {
            match (
                f64_at(frame, &format!("{lo}{suffix}"), row),
                f64_at(frame, &format!("{hi}{suffix}"), row),
            ) {
                (Some(l), Some(h)) => Some(interval_width(l, h) / (2.0 * z95())),
                _ => None,
            }
        }
        _ => Some(0.0),
    }
}

/// The width an interval stands for. A quantile of whole days or tests has whole-number
/// ends: `[170, 171]` covers the continuous `[169.5, 171.5]`, and a sample quantile moves
/// by whole units, so its width is counted one unit wider (a continuity correction).
/// Without it two seeds of the same rules read a 2-day move of a median as certain
/// (p = 3e-8 on mutation.toml at 20,000 trials; the calibration in tests/calibration.rs).
fn interval_width(lo: f64, hi: f64) -> f64 {
    let whole = |x: f64| x.fract() == 0.0;
    let w = (hi - lo).max(0.0);
    if whole(lo) && whole(hi) {
        w + 1.0
    } else {
        w
    }
}

/// Two-sided p-value of a difference with standard errors `sb`, `sn`.
fn p_value(delta: f64, sb: f64, sn: f64) -> f64 {
    let se = (sb * sb + sn * sn).sqrt();
    if se == 0.0 {
        return if delta.abs() <= 1e-12 { 1.0 } else { 0.0 };
    }
    2.0 * (1.0 - Normal::standard().cdf((delta / se).abs()))
}

/// The names of `names` that the other side does not `have`, in order.
fn lacking<'a>(
    names: impl IntoIterator<Item = &'a String>,
    have: impl Fn(&String) -> bool,
) -> Vec<String> {
    names.into_iter().filter(|x| !have(x)).cloned().collect()
}

/// Compares two loaded folders at false-discovery rate `alpha`.
pub fn compare(
    base: &BTreeMap<String, Loaded>,
    new: &BTreeMap<String, Loaded>,
    alpha: f64,
) -> anyhow::Result<Comparison> {
    let mut c = Comparison {
        alpha,
        outputs_added: lacking(new.keys(), |k| base.contains_key(k)),
        outputs_removed: lacking(base.keys(), |k| new.contains_key(k)),
        ..Default::default()
    };
    for (name, b) in base {
        let Some(n) = new.get(name) else { continue };
        compare_output(name, b, n, &mut c)?;
    }
    benjamini_hochberg(&mut c.figures, alpha);
    Ok(c)
}

fn compare_output(name: &str, b: &Loaded, n: &Loaded, c: &mut Comparison) -> anyhow::Result<()> {
    let (bo, no) = (b.as_output(name), n.as_output(name));
    let bcols = figures::column_names(&b.frame);
    let ncols = figures::column_names(&n.frame);
    let mut d = OutputDiff {
        name: name.to_string(),
        columns_added: lacking(&ncols, |x| bcols.contains(x)),
        columns_removed: lacking(&bcols, |x| ncols.contains(x)),
        provenance: provenance_diff(&b.meta, &n.meta),
        ..Default::default()
    };
    // The longer key run of the two sides (a grid with one karma value needs fewer keys).
    let kb = figures::key_columns(&b.frame);
    let kn = figures::key_columns(&n.frame);
    let keys: Vec<String> = if kn.len() > kb.len() { kn } else { kb };
    if keys
        .iter()
        .any(|k| !bcols.contains(k) || !ncols.contains(k))
    {
        d.keys = keys;
        c.outputs.push(d);
        return Ok(());
    }
    d.keys = keys.clone();
    let left = keyed(&b.frame, &keys, "__base")?;
    let right = keyed(&n.frame, &keys, "__new")?;
    let j = left.join(
        &right,
        keys.iter().map(String::as_str),
        keys.iter().map(String::as_str),
        JoinArgs::new(JoinType::Full)
            .with_coalesce(JoinCoalesce::CoalesceColumns)
            .with_suffix(Some("__new".into())),
        None,
    )?;
    let present =
        |col: &str, r: usize| matches!(figures::cell(&j, col, r), figures::Cell::Bool(true));
    let row_text = |r: usize| row_text(&j, &keys, r);
    let broles: BTreeMap<String, Role> = figures::roles(&bo).into_iter().collect();
    let nroles: BTreeMap<String, Role> = figures::roles(&no).into_iter().collect();
    let mut compared: Vec<(String, Role, Role)> = Vec::new();
    for col in &bcols {
        if keys.contains(col) || !ncols.contains(col) {
            continue;
        }
        let (Some(rb), Some(rn)) = (broles.get(col), nroles.get(col)) else {
            continue;
        };
        if matches!(rb, Role::Bound | Role::Text | Role::Key) {
            continue;
        }
        compared.push((col.clone(), rb.clone(), rn.clone()));
    }
    for r in 0..j.height() {
        match (present("__base", r), present("__new", r)) {
            (true, false) => {
                d.rows_removed.push(row_text(r));
                continue;
            }
            (false, true) => {
                d.rows_added.push(row_text(r));
                continue;
            }
            (false, false) => continue,
            (true, true) => {}
        }
        for (col, rb, rn) in &compared {
            let mc = matches!(rb, Role::Estimate { .. }) || matches!(rn, Role::Estimate { .. });
            let untested = matches!(rb, Role::Unsupported) || matches!(rn, Role::Unsupported);
            if untested && !mc {
                c.untested += 1;
                continue;
            }
            let newcol = format!("{col}__new");
            let (vb, vn) = (f64_at(&j, col, r), f64_at(&j, &newcol, r));
            let (base, new) = match (vb, vn) {
                (Some(x), Some(y)) => (x, y),
                (None, None) => continue,
                (x, y) => (x.unwrap_or(f64::NAN), y.unwrap_or(f64::NAN)),
            };
            let delta = new - base;
            let (method, p, moved) = if delta.is_nan() && mc {
                // A Monte Carlo figure defined on one side only (a rate with no events,
                // a quantile reached at one seed only): noise cannot be told from a move.
                c.untested += 1;
                continue;
            } else if delta.is_nan() {
                // An exact figure defined on one side only.
                ("exact", None, true)
            } else if mc {
                let (Some(sb), Some(sn)) =
                    (std_error(&j, rb, r, ""), std_error(&j, rn, r, "__new"))
                else {
                    c.untested += 1;
                    continue;
                };
                ("monte_carlo", Some(p_value(delta, sb, sn)), false)
            } else {
                ("exact", None, delta.abs() > 1e-9)
            };
            c.figures.push(Move {
                output: name.to_string(),
                row: row_text(r),
                figure: col.clone(),
                method,
                base,
                new,
                delta,
                p,
                q: None,
                moved,
            });
        }
    }
    d.rows_added.sort();
    d.rows_removed.sort();
    c.outputs.push(d);
    Ok(())
}

/// How a compared row is named: `key=value, ...` of its key columns.
pub fn row_text(frame: &DataFrame, keys: &[String], r: usize) -> String {
    keys.iter()
        .map(|k| {
            format!(
                "{k}={}",
                figures::cell(frame, k, r).to_string().trim_matches('"')
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Benjamini-Hochberg over the Monte Carlo figures: q-values, and `moved` where q <= alpha.
pub fn benjamini_hochberg(figures: &mut [Move], alpha: f64) {
    let mut idx: Vec<usize> = (0..figures.len())
        .filter(|&i| figures[i].p.is_some())
        .collect();
    let m = idx.len();
    idx.sort_by(|&a, &b| {
        figures[a]
            .p
            .unwrap_or(1.0)
            .total_cmp(&figures[b].p.unwrap_or(1.0))
    });
    let mut running = 1.0f64;
    for (rank, &i) in idx.iter().enumerate().rev() {
        let p = figures[i].p.unwrap_or(1.0);
        running = running.min(p * m as f64 / (rank + 1) as f64);
        figures[i].q = Some(running.min(1.0));
        figures[i].moved = running <= alpha;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(p: f64) -> Move {
        Move {
            output: "o".into(),
            row: String::new(),
            figure: "f".into(),
            method: "monte_carlo",
            base: 0.0,
            new: 0.0,
            delta: 0.0,
            p: Some(p),
            q: None,
            moved: false,
        }
    }

    #[test]
    fn bh_by_hand() {
        // p sorted: 0.001, 0.01, 0.03, 0.5; m = 4, alpha 0.05: thresholds 0.0125, 0.025,
        // 0.0375, 0.05 -> the first three are rejected; q = 0.004, 0.02, 0.04, 0.5.
        let mut v: Vec<Move> = [0.03, 0.5, 0.001, 0.01].iter().map(|&p| mv(p)).collect();
        benjamini_hochberg(&mut v, 0.05);
        let moved: Vec<bool> = v.iter().map(|m| m.moved).collect();
        assert_eq!(moved, [true, false, true, true]);
        assert!((v[0].q.unwrap() - 0.04).abs() < 1e-12);
        assert!((v[2].q.unwrap() - 0.004).abs() < 1e-12);
    }

    #[test]
    fn whole_number_intervals_count_one_unit_wider() {
        assert_eq!(interval_width(170.0, 171.0), 2.0);
        assert_eq!(interval_width(5.0, 5.0), 1.0);
        assert!((interval_width(0.42, 0.44) - 0.02).abs() < 1e-12);
        // Medians of 171 [170, 171] and 169 [168, 170]: z = 2 / sqrt(0.51² + 0.77²) = 2.17,
        // not the 3.5 of the plain widths.
        let se = |l, h| interval_width(l, h) / (2.0 * z95());
        let z = 2.0 / (se(170.0, 171.0).powi(2) + se(168.0, 170.0).powi(2)).sqrt();
        assert!((z - 2.174).abs() < 0.001, "{z}");
    }

    #[test]
    fn z_test_from_intervals() {
        // Same value: p = 1; 1.96 combined standard errors apart: p = 0.05.
        assert_eq!(p_value(0.0, 0.01, 0.01), 1.0);
        let se = 0.01f64;
        let d = 1.959963984540054 * (2.0 * se * se).sqrt();
        assert!((p_value(d, se, se) - 0.05).abs() < 1e-9);
        assert_eq!(p_value(0.1, 0.0, 0.0), 0.0);
    }
}
