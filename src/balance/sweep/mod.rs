//! `cosmosim sweep` on every scenario kind: the file run over a grid of edited values,
//! each point run by the kind itself (the same validation, streams and outputs as `run`),
//! and every figure of its outputs written one row per grid point and figure, named as
//! `figures` lists it and as `tune`, `expect` and `optimise` accept it (issue 23).
//!
//! A figure here is what those commands can decide: an exact number or a Monte Carlo
//! estimate with its 95% interval (`figures::Role`). Only those values are kept per point
//! (a few hundred bytes), never a point's outputs.

mod chart;
mod vary;

pub use vary::{grid, parse_vary, text, Vary};

use crate::lang::Lang;
use std::collections::BTreeMap;

use polars::prelude::*;

use crate::error::UserError;
use crate::report::{column, Figure, Output, Provenance};
use crate::scenario::ScenarioFile;
use crate::stats::Estimate;
use crate::systems::{CheckedOnly, RunOverrides};

use super::figures::{cell, key_columns, roles, Cell, Role};
use super::stalemate::{stalemates, warning, Stalemate};
use crate::scenario::edit::{insert_at, key_path};
use chart::{panel, series_groups, value_kind, Labels};
use vary::check_grid;

/// Charts per varied key: the first figure's first rows.
const CHARTED_ROWS: usize = 4;

/// One figure of one output row: `figure` (`<output>.<column>`) and `where` (the row's
/// key columns as `key=value` pairs, empty for a one-row output).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct FigureName {
    figure: String,
    place: String,
}

/// The figure a sweep is about (`--figure`, `--where`): its rows lead the summary and get
/// the charts. Without one, the first figure of the first output does (a combat's side
/// shares).
#[derive(Clone, Debug, Default)]
pub struct Focus {
    pub figure: String,
    pub wanted: Vec<(String, Cell)>,
}

/// The focus as figure rows of the sweep: `<output>.<column>` and, with `--where`, the
/// one row's `where`. Names are resolved as `tune` and `expect` resolve them (aliases
/// such as `p_party` included); an unknown or undecidable figure is a user error.
fn focus_rows(
    outputs: &[Output],
    focus: &Focus,
    lang: Lang,
) -> Result<(String, Option<String>), String> {
    let (f, wanted) = super::figures::resolve(outputs, &focus.figure, &focus.wanted, lang)?;
    if let Some((reason, allowed)) = super::figures::undecidable(&f, &focus.figure, lang) {
        return Err(tr!(
            lang,
            "safety.work.figure_refused",
            reason,
            checkable = allowed
        ));
    }
    let name = format!("{}.{}", f.output.name, f.column);
    if wanted.is_empty() {
        return Ok((name, None));
    }
    let row = super::figures::select_row(f.output, &wanted, lang)?;
    Ok((name, Some(place(f.output, row))))
}

/// A row's `where` as a sweep names it: its key columns as `key=value`, empty for a
/// one-row output.
fn place(o: &Output, row: usize) -> String {
    if o.frame.height() == 1 {
        return String::new();
    }
    key_columns(&o.frame)
        .iter()
        .map(|k| format!("{k}={}", cell(&o.frame, k, row).bare()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Every decidable figure of `outputs`, in output, row and column order, each an
/// [`Estimate`] whose bounds are NaN for an exact figure.
fn figures_of(outputs: &[Output]) -> Vec<(FigureName, Estimate)> {
    let mut out = Vec::new();
    for o in outputs {
        let wanted: Vec<(String, Role)> = roles(o)
            .into_iter()
            .filter(|(_, r)| matches!(r, Role::Exact | Role::Estimate { .. }))
            .collect();
        let num = |c: &str, row: usize| cell(&o.frame, c, row).as_f64().unwrap_or(f64::NAN);
        for row in 0..o.frame.height() {
            let place = place(o, row);
            for (column, role) in &wanted {
                let v = num(column, row);
                let (lo, hi) = match role {
                    Role::Estimate { lo, hi } => (num(lo, row), num(hi, row)),
                    _ => (f64::NAN, f64::NAN),
                };
                let name = FigureName {
                    figure: format!("{}.{column}", o.name),
                    place: place.clone(),
                };
                out.push((name, Estimate::new(v, lo, hi)));
            }
        }
    }
    out
}

/// The scenario with the point's values set.
fn edited(
    file: &ScenarioFile,
    base: &toml::Table,
    varies: &[Vary],
    p: &[toml::Value],
) -> anyhow::Result<ScenarioFile> {
    let mut t = base.clone();
    for (v, x) in varies.iter().zip(p) {
        insert_at(
            &mut t,
            &key_path(base, &v.key),
            x.clone(),
            &v.key,
            file.lang,
        )?;
    }
    Ok(file.edited(toml::to_string(&t)?))
}

/// `key=value ...` of a grid point, for messages, key figures and `optimise`'s candidates.
pub fn label(varies: &[Vary], p: &[toml::Value]) -> String {
    varies
        .iter()
        .zip(p)
        .map(|(v, x)| format!("{}={}", v.key, text(x)))
        .collect::<Vec<_>>()
        .join(" ")
}

/// A grid's output and its warnings (unfinished trials above the file's level at some
/// point, `balance::stalemate`).
pub struct Swept {
    pub output: Output,
    pub warnings: Vec<String>,
}

/// Runs the grid: `run` runs one (edited) file as `cosmosim run` would and returns its
/// outputs. Every point is validated (`run` under `check_only`) before any runs; with
/// `o.check_only` nothing runs.
pub fn sweep(
    file: &ScenarioFile,
    varies: &[Vary],
    o: &RunOverrides,
    focus: Option<&Focus>,
    run: impl Fn(&ScenarioFile, &RunOverrides) -> anyhow::Result<Vec<Output>>,
) -> anyhow::Result<Swept> {
    let base: toml::Table = toml::from_str(&file.text).map_err(|_| {
        file.parse_raw::<toml::Table>()
            .err()
            .unwrap_or_else(|| UserError::new("not TOML"))
    })?;
    let mut seen = std::collections::BTreeSet::new();
    for v in varies {
        if !seen.insert(v.key.clone()) {
            return Err(UserError::new(tr!(file.lang, "sweep.varied_twice", key = v.key)).into());
        }
    }
    check_grid(varies, o, file.lang)?;
    let points = grid(varies);
    let at_point = |e: anyhow::Error, p: &[toml::Value]| -> anyhow::Error {
        match e.downcast::<UserError>() {
            Ok(u) => UserError::new(tr!(
                file.lang,
                "sweep.with_vary",
                label = label(varies, p),
                error = u.0
            ))
            .into(),
            Err(e) => e,
        }
    };
    let checking = RunOverrides {
        check_only: true,
        ..o.clone()
    };
    for p in &points {
        // Where a key goes does not depend on its value: an edit's error is the key's.
        let f = edited(file, &base, varies, p)?;
        match run(&f, &checking) {
            Err(e) if e.is::<CheckedOnly>() => {}
            Err(e) => return Err(at_point(e, p)),
            Ok(_) => {}
        }
    }
    if o.check_only {
        return Err(CheckedOnly.into());
    }
    // Per point, the index of each figure's name and its values: names are kept once.
    let mut names: BTreeMap<FigureName, usize> = BTreeMap::new();
    let mut order: Vec<FigureName> = Vec::new();
    let mut values: Vec<Vec<(usize, Estimate)>> = Vec::with_capacity(points.len());
    let mut first: Option<Provenance> = None;
    // The worst unfinished share of each stalemate row over the grid, and where.
    let level = file.stalemate_warning();
    let mut worst: BTreeMap<(String, String), (Stalemate, usize)> = BTreeMap::new();
    let mut about: Option<(String, Option<String>)> = None;
    for (j, p) in points.iter().enumerate() {
        // A stop (SIGINT...) makes the engine skip every remaining batch; the command layer
        // then discards the partial grid.
        let outputs = run(&edited(file, &base, varies, p)?, o)?;
        if first.is_none() {
            first = outputs.first().map(|x| x.provenance.clone());
            // The focus is checked on the first point's outputs, before any other runs.
            if let Some(f) = focus {
                about = Some(focus_rows(&outputs, f, file.lang).map_err(UserError::new)?);
            }
        } else if let Some(f) = focus {
            // A point may lack the focus another has (a row of the current edition under
            // `rules.edition = previous`, C-EDITION): refused at that point, not charted
            // without it (audit of 2026-12-07).
            focus_rows(&outputs, f, file.lang)
                .map_err(|e| at_point(UserError::new(e).into(), p))?;
        }
        for s in stalemates(&outputs) {
            let k = (s.figure.clone(), s.outcome.clone());
            if worst.get(&k).is_none_or(|w| s.p > w.0.p) {
                worst.insert(k, (s, j));
            }
        }
        let row = figures_of(&outputs)
            .into_iter()
            .map(|(n, v)| {
                let next = order.len();
                let i = *names.entry(n.clone()).or_insert(next);
                if i == next {
                    order.push(n);
                }
                (i, v)
            })
            .collect();
        values.push(row);
    }
    let base_prov = first.unwrap_or_else(|| Provenance::exact("sweep", "", BTreeMap::new()));
    let trials = base_prov.trials;
    let grid = Grid {
        varies,
        points: &points,
        values: &values,
        order: &order,
    };
    let frame = long_frame(grid, trials)?;
    let rows = charted(&order, about.as_ref());
    let figures = charts(grid, &rows, file.lang);
    let mut prov = Provenance {
        output: "sweep".into(),
        scenario: Some(file.reference()),
        parameters: BTreeMap::new(),
        ..base_prov
    };
    for v in varies {
        prov = prov.with_param(
            &format!("vary.{}", v.key),
            v.values.iter().map(text).collect::<Vec<_>>().join(","),
        );
    }
    // `--figure` and `--where` pick the charted rows and the ranges of the key figures:
    // recorded, so the folder says which question it answered (audit of 2026-12-07,
    // evening: sweep.meta.json lacked them).
    if let Some(f) = focus {
        prov = prov.with_param("figure", &f.figure);
        if !f.wanted.is_empty() {
            prov = prov.with_param("where", crate::balance::figures::where_text(&f.wanted));
        }
    }
    let mut key_figures = vec![tr!(
        file.lang,
        "sweep.grid_key",
        points = points.len(),
        trials = trials.map_or("-".into(), |t| t.to_string())
    )];
    key_figures.extend(ranges(grid, &rows, file.lang));
    let warnings: Vec<String> = worst
        .into_values()
        .filter(|(s, _)| s.p > level)
        .map(|(s, j)| warning(&s, level, Some(&label(varies, &points[j])), file.lang))
        .collect();
    let output = Output {
        name: "sweep".into(),
        title: tr!(file.lang, "sweep.title").into(),
        question: tr!(file.lang, "sweep.question").into(),
        frame,
        figures,
        key_figures,
        provenance: prov,
    };
    Ok(Swept { output, warnings })
}

/// A run grid's points and figures, handed whole to the CSV, the charts and the ranges,
/// which all read the same four parts.
#[derive(Clone, Copy)]
struct Grid<'a> {
    varies: &'a [Vary],
    points: &'a [Vec<toml::Value>],
    /// Per point, each figure's index in `order` and its value.
    values: &'a [Vec<(usize, Estimate)>],
    order: &'a [FigureName],
}

/// `figure [where]`, as charts and key figures name a figure row.
fn shown(n: &FigureName) -> String {
    if n.place.is_empty() {
        n.figure.clone()
    } else {
        format!("{} [{}]", n.figure, n.place)
    }
}

/// The CSV: the varied values, `trials`, then `figure`, `where`, `value`, `value_lo`,
/// `value_hi` (bounds empty for exact figures, a value empty when undefined).
fn long_frame(g: Grid, trials: Option<u64>) -> anyhow::Result<DataFrame> {
    let rows: Vec<(usize, usize, Estimate)> = g
        .values
        .iter()
        .enumerate()
        .flat_map(|(j, vs)| vs.iter().map(move |&(i, v)| (j, i, v)))
        .collect();
    let mut cols: Vec<Column> = Vec::new();
    for (k, v) in g.varies.iter().enumerate() {
        let at = |r: &(usize, usize, Estimate)| &g.points[r.0][k];
        let col = if v.values.iter().all(|x| x.is_integer()) {
            let xs: Vec<i64> = rows
                .iter()
                .map(|r| at(r).as_integer().unwrap_or(0))
                .collect();
            Column::new(v.column().into(), xs)
        } else if v.values.iter().all(|x| x.is_integer() || x.is_float()) {
            let xs: Vec<f64> = rows
                .iter()
                .map(|r| {
                    let x = at(r);
                    x.as_float()
                        .unwrap_or_else(|| x.as_integer().unwrap_or(0) as f64)
                })
                .collect();
            Column::new(v.column().into(), xs)
        } else {
            Column::new(
                v.column().into(),
                rows.iter().map(|r| text(at(r))).collect::<Vec<_>>(),
            )
        };
        cols.push(col);
    }
    let opt = |x: f64| x.is_finite().then_some(x);
    cols.push(Column::new("trials".into(), vec![trials; rows.len()]));
    cols.push(column("figure", &rows, |r| g.order[r.1].figure.as_str()));
    cols.push(column("where", &rows, |r| g.order[r.1].place.as_str()));
    cols.push(column("value", &rows, |r| opt(r.2.value)));
    cols.push(column("value_lo", &rows, |r| opt(r.2.lo)));
    cols.push(column("value_hi", &rows, |r| opt(r.2.hi)));
    Ok(DataFrame::new_infer_height(cols)?)
}

/// The figure rows that lead the summary and get charts, up to [`CHARTED_ROWS`]: the
/// focus (`--figure`, and with `--where` its one row), else the first figure of the first
/// output (issue 27: the headline follows the question, never an unrelated default).
fn charted(order: &[FigureName], about: Option<&(String, Option<String>)>) -> Vec<usize> {
    let (figure, place) = match about {
        Some((f, p)) => (f.as_str(), p.as_deref()),
        None => match order.first() {
            Some(first) => (first.figure.as_str(), None),
            None => return Vec::new(),
        },
    };
    (0..order.len())
        .filter(|&i| order[i].figure == figure && place.is_none_or(|p| order[i].place == p))
        .take(CHARTED_ROWS)
        .collect()
}

/// Figure `i` at every point (NaN where a point does not have it).
fn series(values: &[Vec<(usize, Estimate)>], i: usize) -> Vec<Estimate> {
    let nan = Estimate::undefined();
    values
        .iter()
        .map(|vs| vs.iter().find(|x| x.0 == i).map_or(nan, |x| x.1))
        .collect()
}

/// One chart per varied key, a panel per charted figure row.
fn charts(g: Grid, rows: &[usize], lang: Lang) -> Vec<Figure> {
    if rows.is_empty() {
        return Vec::new();
    }
    g.varies
        .iter()
        .enumerate()
        .map(|(k, v)| {
            let groups = series_groups(g.varies, g.points, k);
            let xs: Vec<toml::Value> = g.points.iter().map(|p| p[k].clone()).collect();
            let kind = value_kind(&v.values);
            let panels = rows
                .iter()
                .map(|&i| {
                    let name = shown(&g.order[i]);
                    panel(
                        kind,
                        Labels {
                            title: tr!(lang, "sweep.figure_title", figure = name, key = v.key),
                            x: v.key.clone(),
                            y: tr!(lang, "sweep.figure_axis", figure = g.order[i].figure),
                        },
                        &groups,
                        &v.values,
                        &xs,
                        &series(g.values, i),
                        lang,
                    )
                })
                .collect();
            Figure {
                suffix: Some(v.column()),
                panels,
            }
        })
        .collect()
}

/// Per charted figure row: its value at the first point of the grid and at the last (the
/// swept values' own order, audit of 2026-12-07, evening: "from" was the lowest value and
/// "to" the highest, so a figure that fell along the sweep read as rising), then its
/// lowest and highest when either lies between them.
fn ranges(g: Grid, rows: &[usize], lang: Lang) -> Vec<String> {
    rows.iter()
        .filter_map(|&i| {
            let s = series(g.values, i);
            let v: Vec<f64> = s.iter().map(|e| e.value).collect();
            let [first, last, lo, hi] = ends_and_extremes(&v)?;
            let at = |k: usize| crate::report::md_text(&label(g.varies, &g.points[k]));
            let mut line = tr!(
                lang,
                "sweep.range_key",
                figure = crate::report::md_text(&shown(&g.order[i])),
                from = lang.num(v[first], 4),
                from_at = at(first),
                to = lang.num(v[last], 4),
                to_at = at(last)
            );
            if ![first, last].contains(&lo) || ![first, last].contains(&hi) {
                line += &tr!(
                    lang,
                    "sweep.range_extremes",
                    lo = lang.num(v[lo], 4),
                    lo_at = at(lo),
                    hi = lang.num(v[hi], 4),
                    hi_at = at(hi)
                );
            }
            Some(line)
        })
        .collect()
}

/// The first and last defined (finite) values' indices, then the lowest's and the
/// highest's (the first of equals for the lowest, the last for the highest); None when
/// no value is defined.
fn ends_and_extremes(v: &[f64]) -> Option<[usize; 4]> {
    let defined = || v.iter().enumerate().filter(|(_, x)| x.is_finite());
    let first = defined().next()?.0;
    let last = defined().next_back()?.0;
    let lo = defined().min_by(|a, b| a.1.total_cmp(b.1))?.0;
    let hi = defined().max_by(|a, b| a.1.total_cmp(b.1))?.0;
    Some([first, last, lo, hi])
}

#[cfg(test)]
mod tests {
    use super::ends_and_extremes;

    #[test]
    fn from_and_to_follow_the_sweep_not_the_values() {
        let nan = f64::NAN;
        // Falling: from the first point (0.8) to the last (0.2), which are the extremes.
        assert_eq!(ends_and_extremes(&[0.8, 0.5, 0.2]), Some([0, 2, 2, 0]));
        // Undefined ends are skipped; a hump has its highest inside.
        assert_eq!(
            ends_and_extremes(&[nan, 0.3, 0.9, 0.4, nan]),
            Some([1, 3, 1, 2])
        );
        assert_eq!(ends_and_extremes(&[nan, nan]), None);
    }
}
