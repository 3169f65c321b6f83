//! What `cosmosim tune` writes: the answer as a sentence, tune.md, tune.csv (every point
//! evaluated) and tune.png.

use crate::lang::Lang;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::balance::args::TuneArgs;
use crate::balance::dec;
use crate::balance::tune::{Answer, Goal, Point};
use crate::report::{
    column, interval_columns, write_page, Chart, Figure, LineChart, LineSeries, Output, Provenance,
};
use crate::stats::Estimate;

use super::race_page;
use super::subject::estimate_text;

/// A tuned key's value as written: whole numbers without a decimal point.
pub(super) fn shown(x: f64, integer: bool) -> String {
    if integer {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// What a tune ran: the points (each with its last look), every trial of every look, and
/// the stalemate warnings.
pub(super) struct Run<'a> {
    pub(super) points: &'a [Point],
    pub(super) spent: u64,
    pub(super) stalled: &'a [String],
    /// Every row of the figure's output at the answer's points, by point.
    pub(super) at_answer: &'a [(String, Vec<String>)],
    /// The first point's provenance (rule options in force, scenario file).
    pub(super) first: Option<&'a Provenance>,
}

/// The answer as a Markdown line (`summary.md` and the index's key figure): the figure and
/// the key come from flags, so they go in as Markdown text.
pub(super) fn sentence(
    a: &TuneArgs,
    key: &str,
    integer: bool,
    g: &Goal,
    answer: &Answer,
    lang: Lang,
) -> String {
    // The row is named with the figure (issue 27): `combat-sides.share (outcome=party)`.
    let named = if a.where_.is_empty() {
        a.figure.clone()
    } else {
        format!("{} ({})", a.figure, a.where_.join(", "))
    };
    said(
        &crate::report::md_text(&named),
        key,
        integer,
        g,
        answer,
        lang,
    )
}

/// [`sentence`] for the figure's name `f` (Markdown text already).
fn said(f: &str, key: &str, integer: bool, g: &Goal, answer: &Answer, lang: Lang) -> String {
    let key = crate::report::md_text(key);
    let key = key.as_str();
    let fig = |p: &Point| dec(&estimate_text(p.figure, p.interval95), lang);
    let shown = |v: f64, integer: bool| dec(&shown(v, integer), lang);
    let target = dec(&g.target.to_string(), lang);
    // How sure the answer is: exact, at the run's confidence, or not decided.
    let conf = |exact: bool, decided: bool| {
        if exact {
            tr!(lang, "tune.conf_exact").to_string()
        } else if decided {
            let confidence = dec(&g.confidence.to_string(), lang);
            tr!(lang, "tune.confidence", confidence)
        } else {
            tr!(lang, "tune.not_decided").to_string()
        }
    };
    let said = match answer {
        Answer::Found {
            exact_hit: Some(p), ..
        } if p.on_target => tr!(
            lang,
            "tune.within",
            figure = f,
            within = dec(&g.within.to_string(), lang),
            target,
            key,
            value = shown(p.value, integer),
            shown = fig(p),
            conf = conf(p.trials.is_none(), true)
        ),
        Answer::Found {
            exact_hit: Some(p), ..
        } => tr!(
            lang,
            "tune.equals",
            figure = f,
            target,
            key,
            value = shown(p.value, integer)
        ),
        Answer::Found {
            below,
            above,
            all_decided,
            jump,
            ..
        } => {
            let exact = below.trials.is_none() && above.trials.is_none();
            let conf = conf(exact, *all_decided);
            let d6 = |x: f64| dec(&format!("{x:.6}"), lang);
            let at = |x: f64| if integer { shown(x, true) } else { d6(x) };
            if *jump {
                // Audit of 2026-12-07, evening: a step over the target is no crossing
                // at an interpolated value; the bracket is where it jumps.
                tr!(
                    lang,
                    "tune.jump",
                    figure = f,
                    target,
                    key,
                    below = at(below.value),
                    below_figure = fig(below),
                    above = at(above.value),
                    above_figure = fig(above),
                    conf
                )
            } else if integer {
                tr!(
                    lang,
                    "tune.between",
                    figure = f,
                    target,
                    key,
                    below = shown(below.value, true),
                    below_figure = fig(below),
                    above = shown(above.value, true),
                    above_figure = fig(above),
                    conf
                )
            } else {
                tr!(
                    lang,
                    "tune.at",
                    figure = f,
                    target,
                    key,
                    value = d6((below.value + above.value) / 2.0),
                    lo = d6(below.value),
                    hi = d6(above.value),
                    conf
                )
            }
        }
        Answer::NotReached {
            min,
            max,
            tried,
            every_value,
        } => {
            let at = if *every_value {
                tr!(lang, "tune.tried_every").to_string()
            } else {
                tr!(lang, "tune.tried_points", points = tried)
            };
            tr!(
                lang,
                "tune.never",
                figure = f,
                target,
                lo = shown(g.lo, integer),
                hi = shown(g.hi, integer),
                at,
                max = fig(max),
                max_at = shown(max.value, integer),
                min = fig(min),
                min_at = shown(min.value, integer)
            )
        }
    };
    // Audit of 2026-12-07: a crossing found inside, the ends being on one side.
    match answer {
        Answer::Found { probed: true, .. } => format!("{said} {}", tr!(lang, "tune.not_monotone")),
        _ => said,
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn write_tune(
    a: &TuneArgs,
    key: &str,
    integer: bool,
    g: &Goal,
    answer: &Answer,
    run: &Run,
    dir: &Path,
    lang: Lang,
) -> anyhow::Result<Vec<PathBuf>> {
    let (points, stalled) = (run.points, run.stalled);
    let line = sentence(a, key, integer, g, answer, lang);
    let total = run.spent;
    let mut rows: Vec<&Point> = points.iter().collect();
    rows.sort_by(|x, y| x.value.total_cmp(&y.value));
    let mut cols = vec![column("value", &rows, |p| p.value)];
    // An open side of the interval is an empty cell.
    let finite = |x: f64| if x.is_finite() { x } else { f64::NAN };
    cols.extend(interval_columns("figure", &rows, |p| {
        let (lo, hi) = p.interval95.unwrap_or((f64::NAN, f64::NAN));
        Estimate::new(p.figure, finite(lo), finite(hi))
    }));
    cols.extend([
        column("trials", &rows, |p| p.trials.unwrap_or(0)),
        column("decided", &rows, |p| p.decided),
    ]);
    let frame = DataFrame::new_infer_height(cols)?;
    let mut evaluated = LineSeries {
        name: tr!(lang, "tune.series_points").into(),
        ..Default::default()
    };
    for p in &rows {
        evaluated.points.push((p.value, p.figure));
        if let Some((lo, hi)) = p.interval95 {
            evaluated.band.push((p.value, lo, hi));
        }
    }
    let target = LineSeries {
        name: tr!(
            lang,
            "tune.series_target",
            target = dec(&g.target.to_string(), lang)
        ),
        points: vec![(g.lo, g.target), (g.hi, g.target)],
        band: vec![],
    };
    let mut series = vec![evaluated, target];
    if let Answer::Found { below, above, .. } = answer {
        let x = (below.value + above.value) / 2.0;
        let (ymin, ymax) = rows.iter().fold((g.target, g.target), |(a, b), p| {
            (a.min(p.figure), b.max(p.figure))
        });
        series.push(LineSeries {
            name: tr!(lang, "tune.series_answer").into(),
            points: vec![(x, ymin), (x, ymax)],
            band: vec![],
        });
    }
    // An exact table samples nothing: its answer carries no seed, trials or confidence.
    let exact = rows.iter().all(|p| p.trials.is_none());
    let mut provenance = if exact {
        Provenance::exact("tune", "any", Default::default())
    } else {
        Provenance::monte_carlo("tune", "any", Default::default(), a.runs.seed, total)
    }
    .with_param("vary", &a.vary)
    .with_param("figure", &a.figure)
    .with_param("target", g.target);
    if !exact {
        provenance = provenance.with_param("confidence", g.confidence);
    }
    let provenance = race_page::with_run_settings(
        provenance.with_param("source", a.source.join(" ")),
        run.first,
        &[
            ("where", a.where_.join(", ")),
            ("param", a.params.join(" ")),
            ("within", g.within.to_string()),
            ("tolerance", g.tolerance.to_string()),
            ("first_trials", g.first_trials.to_string()),
            ("max_trials", g.max_trials.to_string()),
        ],
    );
    let mut out = Output {
        name: "tune".into(),
        title: tr!(
            lang,
            "tune.title",
            key,
            figure = a.figure,
            target = dec(&g.target.to_string(), lang)
        ),
        question: tr!(
            lang,
            "tune.question",
            key,
            lo = dec(&shown(g.lo, integer), lang),
            hi = dec(&shown(g.hi, integer), lang),
            figure = a.figure,
            target = dec(&g.target.to_string(), lang)
        ),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(LineChart {
            title: tr!(lang, "tune.chart_title", figure = a.figure, key),
            x_label: key.to_string(),
            y_label: a.figure.clone(),
            series,
            ..Default::default()
        })])],
        key_figures: vec![line.clone()],
        provenance,
    };
    let mut files = super::write_outputs(std::slice::from_mut(&mut out), dir, lang)?;
    let mut md = format!(
        "# {}\n\n**{line}**\n\n{}\n\n",
        crate::report::md_text(&out.title),
        crate::report::md_text(&out.question)
    );
    md += &if exact {
        tr!(lang, "tune.method_exact", points = rows.len())
    } else {
        tr!(
            lang,
            "tune.method",
            points = rows.len(),
            total,
            first = g.first_trials,
            max = g.max_trials
        )
    };
    md += "\n\n";
    md += &format!("| {} |\n|---|---|---|---|---|\n", tr!(lang, "tune.header"));
    for p in &rows {
        let [figure, interval] = race_page::figure_cells(p.figure, p.interval95, lang);
        md += &format!(
            "| {} | {figure} | {interval} | {} | {} |\n",
            dec(&shown(p.value, integer), lang),
            p.trials
                .map(|t| t.to_string())
                .unwrap_or_else(|| "–".into()),
            if p.decided {
                tr!(lang, "tune.yes")
            } else {
                tr!(lang, "tune.no")
            }
        );
    }
    md += &race_page::page_end(
        run.at_answer,
        stalled,
        &tr!(lang, "tune.files", key),
        &out.provenance,
        lang,
    );
    files.extend(write_page(dir, "tune", &md, lang)?);
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(value: f64, figure: f64) -> Point {
        Point::exact(value, figure, true)
    }

    /// Audit of 2026-12-07, evening: a jump over the target is said to be one, between
    /// the bracket's two values, in both languages; a crossing still "reaches".
    #[test]
    fn a_jump_is_told_as_one() {
        let g = Goal {
            lo: 0.0,
            hi: 1.0,
            integer: false,
            target: 0.5,
            tolerance: 0.01,
            within: 0.0,
            confidence: 0.95,
            first_trials: 1000,
            max_trials: 4000,
        };
        let found = |jump: bool| Answer::Found {
            below: point(0.3359375, 0.2),
            above: point(0.34375, 0.8),
            exact_hit: None,
            all_decided: true,
            probed: false,
            jump,
        };
        let en = said("p", "x", false, &g, &found(true), Lang::En);
        assert_eq!(
            en,
            "p crosses 0.5 by a jump between x = 0.335938 (0.200000) and x = 0.343750 (0.800000): no value of x in between was found with p near 0.5 (exact)."
        );
        let fr = said("p", "x", false, &g, &found(true), Lang::Fr);
        assert!(
            fr.contains("saute par-dessus 0,5 entre x = 0,335938"),
            "{fr}"
        );
        let en = said("p", "x", false, &g, &found(false), Lang::En);
        assert!(en.starts_with("p reaches 0.5 at x ≈ 0.339844"), "{en}");
        let g = Goal { integer: true, ..g };
        let whole = Answer::Found {
            below: point(41.0, 0.1),
            above: point(42.0, 0.9),
            exact_hit: None,
            all_decided: true,
            probed: false,
            jump: true,
        };
        let en = said("p", "t", true, &g, &whole, Lang::En);
        assert!(
            en.starts_with(
                "p crosses 0.5 by a jump between t = 41 (0.100000) and t = 42 (0.900000)"
            ),
            "{en}"
        );
    }
}
