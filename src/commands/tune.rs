//! `cosmosim tune`: the value of a key where a figure meets a target (see
//! `balance::tune` for the rule), written as tune.md (the answer first), tune.csv (every
//! point evaluated) and tune.png.

use crate::lang::Lang;
use std::path::Path;

use super::user;
use crate::balance::args::TuneArgs;
use crate::balance::dec;
use crate::balance::figures::Cell;
use crate::balance::tune::{tune, Answer, Goal, Point};

use super::subject::{Common, Subject};
use super::tune_page::{shown, write_tune, Run};
use super::{publish_set, race_page, say, signals};

/// Most evaluations one tune may make (every look of every point).
const MAX_EVALUATIONS: usize = 10_000;

/// `KEY=LO..HI` → (key, lo, hi, whole numbers?).
fn parse_vary(s: &str, lang: Lang) -> anyhow::Result<(String, f64, f64, bool)> {
    let bad = || {
        user(tr!(
            lang,
            "check.tune_vary",
            value = crate::limits::clip(s, lang)
        ))
    };
    let (key, range) = s.split_once('=').ok_or_else(bad)?;
    if let Some((lo, hi)) = crate::limits::dashed_range(range) {
        return Err(user(tr!(
            lang,
            "syntax.dash_range",
            value = crate::limits::clip(s, lang),
            lo,
            hi
        )));
    }
    let (lo, hi) = range.split_once("..").ok_or_else(bad)?;
    let (lo_t, hi_t) = (lo.trim(), hi.trim());
    let integer = lo_t.parse::<i64>().is_ok() && hi_t.parse::<i64>().is_ok();
    let (lo, hi): (f64, f64) = (
        lo_t.parse().map_err(|_| bad())?,
        hi_t.parse().map_err(|_| bad())?,
    );
    if !(lo.is_finite() && hi.is_finite() && lo < hi) {
        return Err(user(tr!(
            lang,
            "check.tune_range",
            value = crate::limits::clip(s, lang)
        )));
    }
    let key = key.trim().to_string();
    if key.is_empty() {
        return Err(bad());
    }
    Ok((key, lo, hi, integer))
}

pub(crate) fn parse_where(items: &[String], lang: Lang) -> anyhow::Result<Vec<(String, Cell)>> {
    items
        .iter()
        .map(|w| {
            let (k, v) = w.split_once('=').ok_or_else(|| {
                user(tr!(
                    lang,
                    "check.where_pair",
                    value = crate::limits::clip(w, lang)
                ))
            })?;
            Ok((k.trim().to_string(), Cell::from_text(v.trim())))
        })
        .collect()
}

/// The key's value as written in the file: a whole number or a real one.
fn key_value(x: f64, integer: bool) -> toml::Value {
    if integer {
        toml::Value::Integer(x as i64)
    } else {
        toml::Value::Float(x)
    }
}

pub fn tune_cmd(a: &TuneArgs, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    a.runs.check(lang)?;
    let (key, lo, hi, integer) = parse_vary(&a.vary, lang)?;
    let wanted = parse_where(&a.where_, lang)?;
    race_page::check_trial_bounds(a.first_trials, a.max_trials, lang)?;
    let subject = Subject::from_source(&a.source, &a.params, lang)?;
    let common = Common {
        figure: a.figure.clone(),
        wanted,
        seed: a.runs.seed,
        threads: a.runs.threads,
        options: a.runs.options.clone(),
        stalled: Default::default(),
        rows: Default::default(),
        first: Default::default(),
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
    if goal.tolerance.is_nan() || goal.tolerance <= 0.0 {
        return Err(user(tr!(lang, "check.tolerance")));
    }
    let mut evaluations = 0usize;
    // Every trial run, each look of each point included (issue 26 item 6).
    let spent = std::cell::Cell::new(0u64);
    let mut eval = |v: f64, trials: u64| -> anyhow::Result<Point> {
        signals::check()?;
        evaluations += 1;
        if evaluations > MAX_EVALUATIONS {
            return Err(user(tr!(
                lang,
                "check.tune_stopped",
                evaluations = MAX_EVALUATIONS
            )));
        }
        let value = key_value(v, integer);
        let (fv, exact) = subject.figure(&[(key.clone(), value)], trials, &common, lang)?;
        if !exact {
            spent.set(spent.get() + trials);
        }
        Ok(Point {
            value: v,
            figure: fv.value,
            interval95: fv.interval95.filter(|_| !exact),
            df: fv.df,
            trials: (!exact).then(|| fv.trials.unwrap_or(trials)),
            decided: false,
            on_target: false,
        })
    };
    // `--write` is checked before any trial (audit of 2026-12-07 afternoon: a key the
    // file does not write was refused after the whole tune had run).
    if a.write.is_some() {
        let Subject::Scenario(file) = &subject else {
            return Err(user(tr!(lang, "tune.write_table")));
        };
        let probe = key_value(lo, integer);
        if crate::scenario::edit::set_in_place(&file.text, &key, &probe).is_none() {
            return Err(user(tr!(
                file.lang,
                "tune.write_no_key",
                key,
                file = file.path.display()
            )));
        }
    }
    // A first evaluation checks the figure and `where` before anything is written.
    eval(lo, a.first_trials)?;
    let mut points: Vec<Point> = Vec::new();
    let mut found: Option<Answer> = None;
    publish_set(
        &a.out_dir(),
        quiet,
        |staging| {
            let answer = tune(&goal, &mut eval, |p| {
                if !quiet {
                    say(&format!(
                        "{key} = {}: {} = {}{}",
                        dec(&shown(p.value, integer), lang),
                        a.figure,
                        dec(&format!("{:.5}", p.figure), lang),
                        p.trials
                            .map(|t| tr!(lang, "tune.trials", trials = t))
                            .unwrap_or_default()
                    ));
                }
                points.push(p.clone());
            })?;
            signals::check()?;
            let stalled = common.stalemate_warnings();
            // Warnings print whatever --quiet says (it silences progress and file lists).
            for w in &stalled {
                super::warn(w, lang);
            }
            // Every row of the figure's output at the answer's points (issue 27).
            let answer_points: Vec<&Point> = match &answer {
                Answer::Found {
                    exact_hit: Some(p), ..
                } if p.on_target => vec![p],
                Answer::Found { below, above, .. } => vec![below, above],
                Answer::NotReached { .. } => vec![],
            };
            let seen = common.rows.borrow();
            let at_answer: Vec<(String, Vec<String>)> = answer_points
                .iter()
                .filter_map(|p| {
                    let value = key_value(p.value, integer);
                    let at = super::subject::point_label(&[(key.clone(), value)]);
                    seen.get(&at).map(|rows| (at, rows.clone()))
                })
                .collect();
            if !quiet {
                race_page::say_rows(&at_answer, lang);
            }
            let first = common.first.borrow();
            let run = Run {
                points: &points,
                spent: spent.get(),
                stalled: &stalled,
                at_answer: &at_answer,
                first: first.as_ref(),
            };
            found = Some(answer.clone());
            write_tune(a, &key, integer, &goal, &answer, &run, staging, lang)
        },
        lang,
    )?;
    if let (Some(out), Subject::Scenario(file), Some(answer)) = (&a.write, &subject, &found) {
        write_back(a, file, out, &key, integer, &goal, answer, quiet)?;
    }
    Ok(())
}

/// The value `tune --write` sets: the point on the target, else the bracket's side nearer
/// the target (whole numbers) or its middle (real keys); None when the target is not
/// reached over the range.
fn tuned_value(answer: &Answer, integer: bool, target: f64) -> Option<f64> {
    match answer {
        Answer::Found {
            exact_hit: Some(p), ..
        } => Some(p.value),
        Answer::Found { below, above, .. } if integer => {
            let near = |p: &Point| (p.figure - target).abs();
            Some(if near(below) <= near(above) {
                below.value
            } else {
                above.value
            })
        }
        Answer::Found { below, above, .. } => Some((below.value + above.value) / 2.0),
        Answer::NotReached { .. } => None,
    }
}

/// `tune --write FILE` (issue 27 item 3): the scenario's own text with the tuned value
/// set in place and a first comment line saying what was tuned; checked like any file
/// before it is written (atomically).
#[allow(clippy::too_many_arguments)]
fn write_back(
    a: &TuneArgs,
    file: &crate::scenario::ScenarioFile,
    out: &Path,
    key: &str,
    integer: bool,
    g: &Goal,
    answer: &Answer,
    quiet: bool,
) -> anyhow::Result<()> {
    let Some(v) = tuned_value(answer, integer, g.target) else {
        say(&tr!(
            file.lang,
            "tune.write_not_reached",
            file = out.display()
        ));
        return Ok(());
    };
    let value = key_value(v, integer);
    let Some(text) = crate::scenario::edit::set_in_place(&file.text, key, &value) else {
        return Err(user(tr!(
            file.lang,
            "tune.write_no_key",
            key,
            file = file.path.display()
        )));
    };
    // One header line, replaced by the next tune rather than stacked.
    let body: String = text
        .lines()
        .skip_while(|l| l.starts_with(WRITE_HEADER))
        .map(|l| format!("{l}\n"))
        .collect();
    let wh = if a.where_.is_empty() {
        String::new()
    } else {
        format!(" where {}", a.where_.join(", "))
    };
    let within = if g.within > 0.0 {
        format!(" ± {}", g.within)
    } else {
        String::new()
    };
    let header = format!(
        "{WRITE_HEADER} {} {}: {key} = {value} for {}{wh} = {}{within} (seed {}, confidence {})\n",
        env!("CARGO_PKG_VERSION"),
        today(),
        a.figure,
        g.target,
        a.runs.seed,
        g.confidence
    );
    let written = crate::scenario::ScenarioFile::from_text(
        &out.display().to_string(),
        &(header + &body),
        file.lang,
    );
    let kind = super::run::kind_of(&written)?;
    super::run::validate(&written, kind, &crate::systems::RunOverrides::default())?;
    crate::report::write_atomic(out, written.text.as_bytes(), file.lang)?;
    if !quiet {
        say(&tr!(file.lang, "page.wrote", path = out.display()));
    }
    Ok(())
}

/// How the line `tune --write` puts first begins.
const WRITE_HEADER: &str = "# tuned by cosmosim";

/// Today's date (UTC), as YYYY-MM-DD.
fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() / 86_400)
        .unwrap_or(0) as i64;
    civil(days)
}

/// The date `days` after 1970-01-01 (H. Hinnant's civil-from-days algorithm).
fn civil(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_the_written_value() {
        assert_eq!(civil(0), "1970-01-01");
        assert_eq!(civil(11_016), "2000-02-29");
        assert_eq!(civil(20_784), "2026-11-27");
        let p = |value: f64, figure: f64| Point::exact(value, figure, true);
        let a = Answer::Found {
            below: p(183.0, 0.48),
            above: p(184.0, 0.505),
            exact_hit: None,
            all_decided: true,
            probed: false,
            jump: false,
        };
        assert_eq!(tuned_value(&a, true, 0.5), Some(184.0));
        assert_eq!(tuned_value(&a, false, 0.5), Some(183.5));
        let n = Answer::NotReached {
            min: p(1.0, 0.1),
            max: p(2.0, 0.2),
            tried: 2,
            every_value: true,
        };
        assert_eq!(tuned_value(&n, true, 0.5), None);
    }
}
