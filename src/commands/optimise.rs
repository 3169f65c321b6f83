//! `cosmosim optimise`: the best grid point by racing (see `balance::optimise`), written
//! as optimise.md (the answer first), optimise.csv and optimise.png.

use super::user;
use crate::lang::Lang;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::balance::args::OptimiseArgs;
use crate::balance::dec;
use crate::balance::optimise::{race, Outcome, Race};
use crate::balance::sweep::{self, parse_vary};
use crate::error::UserError;
use crate::report::{column, text_column};
use crate::report::{
    interval_columns, md_text, write_page, BarChart, BarSeries, Chart, Figure, Output, Provenance,
};
use crate::stats::Estimate;

use super::subject::{estimate_text, Common, Subject};
use super::tune::parse_where;
use super::{publish_set, say, signals, write_outputs};

/// Most candidates one race may have.
const MAX_POINTS: usize = 1_000;

/// `cosmosim optimise ...`.
pub fn optimise(a: &OptimiseArgs, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    a.runs.check(lang)?;
    let (figure, maximise) = match (&a.maximise, &a.minimise) {
        (Some(f), None) => (f.clone(), true),
        (None, Some(f)) => (f.clone(), false),
        _ => return Err(user(tr!(lang, "check.optimise_goal"))),
    };
    super::race_page::check_trial_bounds(a.first_trials, a.max_trials, lang)?;
    let varies = a
        .vary
        .iter()
        .map(|v| parse_vary(v).map_err(|e| UserError::new(e.text(lang))))
        .collect::<Result<Vec<_>, _>>()?;
    // Refused at the first flag that takes the grid past the cap, counted to there.
    let mut count: usize = 1;
    for v in &varies {
        count = count.saturating_mul(v.values.len());
        if count > MAX_POINTS {
            return Err(user(tr!(
                lang,
                "check.too_many_candidates",
                count,
                max = MAX_POINTS
            )));
        }
    }
    let points = sweep::grid(&varies);
    let labels: Vec<String> = points.iter().map(|p| sweep::label(&varies, p)).collect();
    let grid: Vec<Vec<(String, toml::Value)>> = points
        .into_iter()
        .map(|p| varies.iter().map(|v| v.key.clone()).zip(p).collect())
        .collect();
    let subject = Subject::from_source(&a.source, &a.params, lang)?;
    let common = Common {
        figure: figure.clone(),
        wanted: parse_where(&a.where_, lang)?,
        seed: a.runs.seed,
        threads: a.runs.threads,
        options: a.runs.options.clone(),
        stalled: Default::default(),
        rows: Default::default(),
        first: Default::default(),
    };
    // Every candidate is checked (and its figure found) before anything is written.
    for p in &grid {
        subject.figure(p, 64.min(a.first_trials), &common, lang)?;
    }
    let r = Race {
        first_trials: a.first_trials,
        max_trials: a.max_trials,
        confidence: a.confidence,
        maximise,
    };
    publish_set(
        &a.out_dir(),
        quiet,
        |staging| {
            let outcome = race(&r, &labels, |i, t| {
                let (fv, exact) = subject.figure(&grid[i], t, &common, lang)?;
                if !quiet {
                    say(&format!(
                        "{}: {figure} = {}{}",
                        labels[i],
                        dec(&format!("{:.5}", fv.value), lang),
                        tr!(lang, "tune.trials", trials = t)
                    ));
                }
                Ok((fv.value, if exact { None } else { fv.interval95 }, fv.df))
            })?;
            signals::check()?;
            let stalled = common.stalemate_warnings();
            // Warnings print whatever --quiet says (it silences progress and file lists).
            for w in &stalled {
                super::warn(w, lang);
            }
            // Every row of the figure's output at the best point (issue 27).
            let at = super::subject::point_label(&grid[outcome.best]);
            let best_rows: Vec<(String, Vec<String>)> = common
                .rows
                .borrow()
                .get(&at)
                .map(|rows| vec![(at.clone(), rows.clone())])
                .unwrap_or_default();
            if !quiet {
                super::race_page::say_rows(&best_rows, lang);
            }
            let first = common.first.borrow();
            let run = Raced {
                stalled: &stalled,
                best_rows: &best_rows,
                first: first.as_ref(),
            };
            write(a, &figure, maximise, &outcome, &run, staging, lang)
        },
        lang,
    )
}

/// What a race left beside its outcome: the stalemate warnings, every row at the best
/// point and the first point's provenance (rule options in force, scenario file).
struct Raced<'a> {
    stalled: &'a [String],
    best_rows: &'a [(String, Vec<String>)],
    first: Option<&'a Provenance>,
}

fn write(
    a: &OptimiseArgs,
    figure: &str,
    maximise: bool,
    o: &Outcome,
    run: &Raced,
    dir: &Path,
    lang: Lang,
) -> anyhow::Result<Vec<PathBuf>> {
    let (stalled, best_rows) = (run.stalled, run.best_rows);
    let best = &o.entries[o.best];
    let others: Vec<String> = o
        .contenders()
        .into_iter()
        .filter(|&i| i != o.best)
        .map(|i| md_text(&o.entries[i].label))
        .collect();
    // The answer is a Markdown line (`summary.md` and the index's key figure); the figure
    // and the points come from flags.
    // The row is named with the figure, as `tune` does (audit of 2026-12-07 afternoon):
    // `combat-combatants.p_down (combatant=brune)`.
    let named = if a.where_.is_empty() {
        figure.to_string()
    } else {
        format!("{figure} ({})", a.where_.join(", "))
    };
    let md_figure = md_text(&named);
    let iv =
        |e: &crate::balance::optimise::Entry| dec(&estimate_text(e.figure, e.interval95), lang);
    let mut line = tr_fill!(
        if maximise {
            tr!(lang, "optimise.best_max")
        } else {
            tr!(lang, "optimise.best_min")
        },
        figure = md_figure,
        point = md_text(&best.label),
        value = iv(best)
    );
    let confidence = dec(&a.confidence.to_string(), lang);
    if others.is_empty() {
        line += &tr!(lang, "optimise.ahead", confidence);
    } else {
        line += &tr!(
            lang,
            "optimise.not_told_apart",
            confidence,
            others = others.join("; ")
        );
    }
    let spend = tr_fill!(
        if lang.singular(o.rounds as u64) {
            tr!(lang, "optimise.spend_one")
        } else {
            tr!(lang, "optimise.spend")
        },
        spent = o.spent,
        rounds = o.rounds,
        per_point = o.plain_sweep / o.entries.len().max(1) as u64,
        sweep = o.plain_sweep,
        percent = format!(
            "{:.0}",
            100.0 * o.spent as f64 / o.plain_sweep.max(1) as f64
        )
    );
    let e = &o.entries;
    let mut cols = vec![text_column("point", e, |x| x.label.as_str())];
    cols.extend(interval_columns("figure", e, |x| {
        let (lo, hi) = x.interval95.unwrap_or((f64::NAN, f64::NAN));
        Estimate::new(x.figure, lo, hi)
    }));
    cols.extend([
        column("trials", e, |x| x.trials),
        column("dropped_in_round", e, |x| x.dropped_in.map(|r| r as u64)),
        column("contender", e, |x| x.dropped_in.is_none()),
    ]);
    let frame = DataFrame::new_infer_height(cols)?;
    let chart = BarChart {
        title: tr!(lang, "optimise.chart_title", figure),
        x_label: tr!(lang, "optimise.chart_x").into(),
        y_label: figure.to_string(),
        categories: e.iter().map(|x| x.label.clone()).collect(),
        series: vec![BarSeries {
            name: figure.to_string(),
            values: e.iter().map(|x| x.figure).collect(),
            intervals: e
                .iter()
                .map(|x| x.interval95.unwrap_or((x.figure, x.figure)))
                .collect(),
        }],
        ..Default::default()
    };
    let total_trials = o.spent;
    let mut out = Output {
        name: "optimise".into(),
        title: if maximise {
            tr!(lang, "optimise.title_max", figure)
        } else {
            tr!(lang, "optimise.title_min", figure)
        },
        question: tr_fill!(
            if maximise {
                tr!(lang, "optimise.question_max")
            } else {
                tr!(lang, "optimise.question_min")
            },
            points = o.entries.len(),
            figure
        ),
        frame,
        figures: vec![Figure::new(vec![Chart::Bars(chart)])],
        key_figures: vec![line.clone(), spend.clone()],
        provenance: Provenance::monte_carlo(
            "optimise",
            "any",
            Default::default(),
            a.runs.seed,
            total_trials,
        )
        .with_param("vary", a.vary.join(" "))
        .with_param("figure", figure)
        .with_param("confidence", a.confidence)
        .with_param("source", a.source.join(" ")),
    };
    out.provenance = super::race_page::with_run_settings(
        out.provenance,
        run.first,
        &[
            (
                "goal",
                if maximise { "maximise" } else { "minimise" }.into(),
            ),
            ("where", a.where_.join(", ")),
            ("param", a.params.join(" ")),
            ("first_trials", a.first_trials.to_string()),
            ("max_trials", a.max_trials.to_string()),
        ],
    );
    let mut files = write_outputs(std::slice::from_mut(&mut out), dir, lang)?;
    let mut md = format!(
        "# {}\n\n**{line}**\n\n{spend}\n\n{}\n\n",
        crate::report::md_text(&out.title),
        crate::report::md_text(&out.question)
    );
    md += tr!(lang, "optimise.racing");
    md += "\n\n";
    md += &format!(
        "| {} |\n|---|---|---|---|---|\n",
        tr!(lang, "optimise.header")
    );
    let mut order: Vec<usize> = (0..e.len()).collect();
    let s = if maximise { -1.0 } else { 1.0 };
    order.sort_by(|&x, &y| (s * e[x].figure).total_cmp(&(s * e[y].figure)));
    for i in order {
        let x = &e[i];
        let [figure, interval] = super::race_page::figure_cells(x.figure, x.interval95, lang);
        md += &format!(
            "| {} | {figure} | {interval} | {} | {} |\n",
            md_text(&x.label),
            x.trials,
            x.dropped_in
                .map(|r| r.to_string())
                .unwrap_or_else(|| tr!(lang, "optimise.still_in").into())
        );
    }
    md += &super::race_page::page_end(
        best_rows,
        stalled,
        tr!(lang, "optimise.files"),
        &out.provenance,
        lang,
    );
    files.extend(write_page(dir, "optimise", &md, lang)?);
    Ok(files)
}
