//! `cosmosim tune`: the value of a key where a figure meets a target (see
//! `balance::tune` for the rule), written as tune.md (the answer first), tune.csv (every
//! point evaluated) and tune.png.

use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::balance::args::TuneArgs;
use crate::balance::figures::Cell;
use crate::balance::tune::{tune, Answer, Goal, Point};
use crate::error::UserError;
use crate::report::{write_page, Chart, Figure, LineChart, LineSeries, Output, Provenance};

use super::subject::{Common, Subject};
use super::{publish_set, say, signals};

/// Most evaluations one tune may make (every look of every point).
const MAX_EVALUATIONS: usize = 10_000;

fn user(msg: String) -> anyhow::Error {
    UserError::new(msg).into()
}

/// `KEY=LO..HI` → (key, lo, hi, whole numbers?).
fn parse_vary(s: &str) -> anyhow::Result<(String, f64, f64, bool)> {
    let bad = || {
        user(crate::tr!(
            "check.tune_vary",
            value = crate::limits::clip(s)
        ))
    };
    let (key, range) = s.split_once('=').ok_or_else(bad)?;
    let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
    let (lo_t, hi_t) = (lo.trim(), hi.trim());
    let integer = lo_t.parse::<i64>().is_ok() && hi_t.parse::<i64>().is_ok();
    let (lo, hi): (f64, f64) = (
        lo_t.parse().map_err(|_| bad())?,
        hi_t.parse().map_err(|_| bad())?,
    );
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(user(crate::tr!(
            "check.tune_range",
            value = crate::limits::clip(s)
        )));
    }
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err(bad());
    }
    Ok((key, lo, hi, integer))
}

pub(crate) fn parse_where(items: &[String]) -> anyhow::Result<Vec<(String, Cell)>> {
    items
        .iter()
        .map(|w| {
            let (k, v) = w.split_once('=').ok_or_else(|| {
                user(crate::tr!(
                    "check.where_pair",
                    value = crate::limits::clip(w)
                ))
            })?;
            Ok((k.trim().to_string(), Cell::from_text(v.trim())))
        })
        .collect()
}

fn shown(x: f64, integer: bool) -> String {
    if integer {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// `cosmosim tune ...`.
pub fn tune_cmd(a: &TuneArgs, quiet: bool) -> anyhow::Result<()> {
    crate::limits::check_threads(a.threads)?;
    crate::rules::RuleOptions::from_pairs(&a.options)?;
    let (key, lo, hi, integer) = parse_vary(&a.vary)?;
    let wanted = parse_where(&a.where_)?;
    if a.first_trials > a.max_trials {
        return Err(user(crate::tr!(
            "check.first_above_max",
            first = a.first_trials,
            max = a.max_trials
        )));
    }
    let subject = Subject::from_source(&a.source, &a.params)?;
    let common = Common {
        figure: a.figure.clone(),
        wanted,
        seed: a.seed,
        threads: a.threads,
        options: a.options.clone(),
    };
    let goal = Goal {
        lo,
        hi,
        integer,
        target: a.target,
        tolerance: a.tolerance.unwrap_or((hi - lo) / 1000.0),
        within: a.within,
        confidence: a.confidence,
        first_trials: a.first_trials,
        max_trials: a.max_trials,
    };
    if !(goal.tolerance > 0.0) {
        return Err(user(crate::tr!("check.tolerance").to_string()));
    }
    let mut evaluations = 0usize;
    let mut eval = |v: f64, trials: u64| -> anyhow::Result<Point> {
        signals::check()?;
        evaluations += 1;
        if evaluations > MAX_EVALUATIONS {
            return Err(user(crate::tr!(
                "check.tune_stopped",
                evaluations = MAX_EVALUATIONS
            )));
        }
        let value = if integer {
            toml::Value::Integer(v as i64)
        } else {
            toml::Value::Float(v)
        };
        let (fv, exact) = subject.figure(&[(key.clone(), value)], trials, &common)?;
        let p = Point {
            value: v,
            figure: fv.value,
            interval95: if exact { None } else { fv.interval95 },
            trials: if exact {
                None
            } else {
                fv.trials.or(Some(trials))
            },
            decided: false,
            on_target: false,
        };
        Ok(p)
    };
    // A first evaluation checks the figure and `where` before anything is written.
    eval(lo, a.first_trials)?;
    let mut points: Vec<Point> = Vec::new();
    publish_set(&a.out, quiet, |staging| {
        let answer = tune(&goal, &mut eval, |p| {
            if !quiet {
                say(&format!(
                    "{key} = {}: {} = {:.5}{}",
                    shown(p.value, integer),
                    a.figure,
                    p.figure,
                    p.trials
                        .map(|t| crate::tr!("check.trials_suffix", trials = t))
                        .unwrap_or_default()
                ));
            }
            points.push(p.clone());
        })?;
        signals::check()?;
        write_tune(a, &key, integer, &goal, &answer, &points, staging)
    })?;
    Ok(())
}

fn sentence(a: &TuneArgs, key: &str, integer: bool, g: &Goal, answer: &Answer) -> String {
    let f = &a.figure;
    let fig = |p: &Point| match p.interval95 {
        Some((lo, hi)) => format!("{:.4} [{lo:.4} – {hi:.4}]", p.figure),
        None => format!("{:.6}", p.figure),
    };
    match answer {
        Answer::Found {
            exact_hit: Some(p), ..
        } if p.on_target => format!(
            "{f} is within ±{} of {} at {key} = {}: {} (confidence {}).",
            g.within,
            g.target,
            shown(p.value, integer),
            fig(p),
            g.confidence
        ),
        Answer::Found {
            exact_hit: Some(p), ..
        } => format!(
            "{f} equals {} at {key} = {}.",
            g.target,
            shown(p.value, integer)
        ),
        Answer::Found {
            below,
            above,
            all_decided,
            ..
        } => {
            let conf = if *all_decided {
                format!(" (confidence {})", g.confidence)
            } else {
                " (some steps were not decided at --max-trials: read the bracket with care)"
                    .to_string()
            };
            if integer {
                format!(
                    "{f} reaches {} between {key} = {} ({}) and {key} = {} ({}){conf}.",
                    g.target,
                    shown(below.value, true),
                    fig(below),
                    shown(above.value, true),
                    fig(above)
                )
            } else {
                format!(
                    "{f} reaches {} at {key} ≈ {:.6}, within [{:.6}, {:.6}]{conf}.",
                    g.target,
                    (below.value + above.value) / 2.0,
                    below.value,
                    above.value
                )
            }
        }
        Answer::NotReached { min, max } => format!(
            "{f} never reaches {} on [{}, {}]: max {} at {}, min {} at {}.",
            g.target,
            shown(g.lo, integer),
            shown(g.hi, integer),
            fig(max),
            shown(max.value, integer),
            fig(min),
            shown(min.value, integer)
        ),
    }
}

fn write_tune(
    a: &TuneArgs,
    key: &str,
    integer: bool,
    g: &Goal,
    answer: &Answer,
    points: &[Point],
    dir: &Path,
) -> anyhow::Result<Vec<PathBuf>> {
    let line = sentence(a, key, integer, g, answer);
    let total: u64 = points.iter().filter_map(|p| p.trials).sum();
    let mut rows: Vec<&Point> = points.iter().collect();
    rows.sort_by(|x, y| x.value.total_cmp(&y.value));
    let col = |f: &dyn Fn(&Point) -> f64| rows.iter().map(|p| f(p)).collect::<Vec<f64>>();
    let nan = f64::NAN;
    let frame = DataFrame::new_infer_height(vec![
        Column::new("value".into(), col(&|p| p.value)),
        Column::new("figure".into(), col(&|p| p.figure)),
        Column::new(
            "figure_lo".into(),
            col(&|p| p.interval95.map_or(nan, |i| i.0)),
        ),
        Column::new(
            "figure_hi".into(),
            col(&|p| p.interval95.map_or(nan, |i| i.1)),
        ),
        Column::new(
            "trials".into(),
            rows.iter()
                .map(|p| p.trials.unwrap_or(0))
                .collect::<Vec<u64>>(),
        ),
        Column::new(
            "decided".into(),
            rows.iter().map(|p| p.decided).collect::<Vec<bool>>(),
        ),
    ])?;
    let mut evaluated = LineSeries {
        name: "evaluated points (95% interval)".into(),
        ..Default::default()
    };
    for p in &rows {
        evaluated.points.push((p.value, p.figure));
        if let Some((lo, hi)) = p.interval95 {
            evaluated.band.push((p.value, lo, hi));
        }
    }
    let target = LineSeries {
        name: format!("target {}", g.target),
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
            name: "answer".into(),
            points: vec![(x, ymin), (x, ymax)],
            band: vec![],
        });
    }
    let provenance = Provenance::monte_carlo("tune", "any", Default::default(), a.seed, total)
        .with_param("vary", &a.vary)
        .with_param("figure", &a.figure)
        .with_param("target", g.target)
        .with_param("confidence", g.confidence)
        .with_param("source", a.source.join(" "));
    let mut out = Output {
        name: "tune".into(),
        title: format!("Tune {key} so that {} = {}", a.figure, g.target),
        question: format!(
            "At what {key} in [{}, {}] does {} reach {}?",
            shown(g.lo, integer),
            shown(g.hi, integer),
            a.figure,
            g.target
        ),
        frame,
        figures: vec![Figure {
            suffix: None,
            panels: vec![Chart::Lines(LineChart {
                title: format!("{} against {key}", a.figure),
                x_label: key.to_string(),
                y_label: a.figure.clone(),
                series,
                ..Default::default()
            })],
        }],
        key_figures: vec![line.clone()],
        provenance,
    };
    let mut files = super::write_outputs(std::slice::from_mut(&mut out), dir)?;
    let mut md = format!("# {}\n\n**{line}**\n\n{}\n\n", out.title, out.question);
    md += &format!(
        "{} points evaluated, {total} trials in all. Each bisection step runs a point at \
growing trial counts (from {} doubling up to {}) until its interval, Bonferroni-corrected \
over every look of every step, excludes the target.\n\n",
        rows.len(),
        g.first_trials,
        g.max_trials
    );
    md += "| value | figure | 95% interval | trials | side decided |\n|---|---|---|---|---|\n";
    for p in &rows {
        md += &format!(
            "| {} | {:.6} | {} | {} | {} |\n",
            shown(p.value, integer),
            p.figure,
            p.interval95
                .map(|(l, h)| format!("{l:.6} – {h:.6}"))
                .unwrap_or_else(|| "exact".into()),
            p.trials
                .map(|t| t.to_string())
                .unwrap_or_else(|| "–".into()),
            if p.decided { "yes" } else { "no" }
        );
    }
    md += &format!(
        "\n![The figure against {key}, the target line and the answer](tune.png)\n\nFiles: [`tune.csv`](tune.csv) (every point), [`tune.png`](tune.png) (the figure against {key}, the target line and the answer).\n\n## Provenance\n\n{}\n",
        out.provenance.summary()
    );
    files.extend(write_page(dir, "tune", &md)?);
    Ok(files)
}
