//! `--precision P`: instead of a trial count, run until every 95% interval of the outputs
//! is at most ±P wide. Trials grow in a fixed schedule — 65,536 (one engine batch), then
//! doubling, then `--max-trials` — and the stopping rule is checked only at those counts.
//! Because the engine's batches are seeded streams, the run at N trials is the same
//! whatever the thread count, so where it stops is too. Each step re-runs from the start
//! (about twice the trials of the last step in all): simple, and the published numbers
//! are exactly those of a plain run at the final trial count.

use super::user;
use crate::engine::BATCH_SIZE;
use crate::error::UserError;
use crate::lang::Lang;
use crate::limits::MAX_TRIALS;
use crate::report::Output;

/// What `--precision` asks for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Precision {
    /// Largest allowed half-width of every interval.
    pub half_width: f64,
    /// Give up (and say so) at this many trials.
    pub max_trials: u64,
}

/// The default `--max-trials` for `--precision`.
pub const DEFAULT_MAX_TRIALS: u64 = 1 << 26;

/// The validated goal of `--precision`, if given.
pub fn goal(a: &crate::cli::PrecisionArgs, lang: Lang) -> anyhow::Result<Option<Precision>> {
    Ok(a.precision
        .map(|p| Precision::new(p, a.max_trials, lang))
        .transpose()?)
}

impl Precision {
    pub fn new(
        half_width: f64,
        max_trials: Option<u64>,
        lang: Lang,
    ) -> Result<Precision, UserError> {
        if !(half_width > 0.0 && half_width <= 0.5) {
            return Err(UserError::new(tr!(
                lang,
                "check.precision_range",
                value = half_width
            )));
        }
        let max_trials = max_trials.unwrap_or(DEFAULT_MAX_TRIALS);
        if max_trials == 0 || max_trials > MAX_TRIALS {
            return Err(UserError::new(tr!(
                lang,
                "check.max_trials_range",
                value = max_trials,
                max = MAX_TRIALS
            )));
        }
        Ok(Precision {
            half_width,
            max_trials,
        })
    }

    /// The trial counts tried, in order.
    pub fn schedule(&self) -> Vec<u64> {
        let mut out = Vec::new();
        let mut t = BATCH_SIZE.min(self.max_trials);
        loop {
            out.push(t);
            if t >= self.max_trials {
                break;
            }
            t = (t * 2).min(self.max_trials);
        }
        out
    }
}

/// Whether a figure is a share or probability (0..1), held to `--precision P` as ±P;
/// shared with `expect`, which keeps such a figure's bands and intervals in 0..1.
pub use crate::balance::figures::is_share;

/// The interval of the outputs furthest from the precision: its half-width, where
/// (`output.column`), whether it is held relative to its value, and `excess`, its
/// half-width over what P allows it (at most 1: reached).
#[derive(Clone, Debug, PartialEq)]
pub struct Widest {
    pub half_width: f64,
    pub at: String,
    pub relative: bool,
    pub excess: f64,
}

/// The interval furthest from ±P over every `<x>_lo`/`<x>_hi` column pair: a share's
/// half-width against P, another figure's against P x |value| (a value of 0 against P).
/// Undefined cells and half-open intervals (a quantile beyond the horizon: more trials
/// cannot close it) are skipped.
pub fn widest(outputs: &[Output], p: f64) -> Option<Widest> {
    let mut best: Option<Widest> = None;
    for o in outputs {
        for c in o.frame.get_column_names() {
            let Some(stem) = c.strip_suffix("_lo") else {
                continue;
            };
            let hi_name = format!("{stem}_hi");
            let (Ok(lo), Ok(hi)) = (o.frame.column(c), o.frame.column(&hi_name)) else {
                continue;
            };
            let (Ok(lo), Ok(hi)) = (lo.f64(), hi.f64()) else {
                continue;
            };
            let value = o
                .frame
                .column(stem)
                .ok()
                .and_then(|v| v.f64().ok().cloned());
            // A sweep's long table names each row's figure (`combat-sides.share`): the
            // kind is that figure's, row by row.
            let named = (stem == "value")
                .then(|| {
                    o.frame
                        .column("figure")
                        .ok()
                        .and_then(|f| f.str().ok().cloned())
                })
                .flatten();
            for i in 0..lo.len().min(hi.len()) {
                let relative = match named.as_ref().and_then(|f| f.get(i)) {
                    Some(figure) => !is_share(figure.rsplit('.').next().unwrap_or(figure)),
                    None => !is_share(stem),
                };
                if let (Some(l), Some(h)) = (lo.get(i), hi.get(i)) {
                    let half = (h - l) / 2.0;
                    if !half.is_finite() {
                        continue;
                    }
                    let allowed = if relative {
                        let v = value
                            .as_ref()
                            .and_then(|v| v.get(i))
                            .unwrap_or((l + h) / 2.0);
                        if v.abs() > 0.0 {
                            p * v.abs()
                        } else {
                            p
                        }
                    } else {
                        p
                    };
                    let excess = half / allowed;
                    if best.as_ref().is_none_or(|b| excess > b.excess) {
                        best = Some(Widest {
                            half_width: half,
                            at: format!("{}.{stem}", o.name),
                            relative,
                            excess,
                        });
                    }
                }
            }
        }
    }
    best
}

/// The outcome of a run to precision.
pub struct Reached<T> {
    pub value: T,
    pub trials: u64,
    /// The interval furthest from the precision at the end.
    pub widest: Option<Widest>,
    pub reached: bool,
}

impl<T> Reached<T> {
    /// One sentence for `summary.md` and the terminal.
    pub fn sentence(&self, p: &Precision, lang: Lang) -> String {
        let dec = crate::balance::dec;
        let w = match &self.widest {
            Some(w) if w.relative => tr!(
                lang,
                "run.precision_widest_relative",
                half_width = dec(&format!("{:.5}", w.half_width), lang),
                at = w.at,
                share = lang.pct(w.excess * p.half_width, 2)
            ),
            Some(w) => tr!(
                lang,
                "run.precision_widest",
                half_width = dec(&format!("{:.5}", w.half_width), lang),
                at = w.at
            ),
            None => tr!(lang, "run.precision_no_interval").into(),
        };
        let half_width = dec(&p.half_width.to_string(), lang);
        let units = tr!(
            lang,
            "run.precision_units",
            half_width,
            relative = lang.pct(p.half_width, 2)
        );
        tr_fill!(
            if self.reached {
                tr!(lang, "run.precision_reached")
            } else {
                tr!(lang, "run.precision_not_reached")
            },
            half_width,
            trials = self.trials,
            widest = w,
            units
        )
    }
}

/// Runs `eval` at each trial count of the schedule until the outputs are precise enough.
/// Intervals narrow as 1/sqrt(trials): after the first step, the trials the widest one
/// needs are about `trials x excess²`. Past twice the cap (room for the first step's own
/// noise), the goal cannot be reached, and that is said now rather than after doubling to
/// the cap (issue 26 item 5: hours of work before "NOT reached").
fn unreachable_said_now(
    p: &Precision,
    trials: u64,
    w: &Widest,
    last: u64,
    lang: Lang,
) -> anyhow::Result<()> {
    let needed = trials as f64 * w.excess * w.excess;
    if needed <= 2.0 * last as f64 {
        return Ok(());
    }
    let needed = if needed >= 1e15 {
        lang.num(needed, 0)
    } else {
        crate::lang::int(needed.ceil() as u64)
    };
    Err(user(tr!(
        lang,
        "check.precision_unreachable",
        half_width = lang.num(p.half_width, 6),
        max = crate::lang::int(p.max_trials),
        trials = crate::lang::int(trials),
        width = lang.num(w.half_width, 6),
        at = &w.at,
        needed,
        cap = crate::lang::int(MAX_TRIALS)
    )))
}

pub fn run_to_precision<T>(
    p: &Precision,
    mut eval: impl FnMut(u64) -> anyhow::Result<T>,
    outputs: impl Fn(&T) -> &[Output],
    lang: Lang,
) -> anyhow::Result<Reached<T>> {
    let schedule = p.schedule();
    let mut i = 0;
    loop {
        super::signals::check()?;
        let t = schedule[i];
        let value = eval(t)?;
        let Some(w) = widest(outputs(&value), p.half_width) else {
            return Err(user(tr!(lang, "check.precision_exact")));
        };
        let reached = w.excess <= 1.0;
        if i == 0 && !reached {
            unreachable_said_now(p, t, &w, *schedule.last().unwrap_or(&t), lang)?;
        }
        if reached || i + 1 == schedule.len() {
            return Ok(Reached {
                value,
                trials: t,
                widest: Some(w),
                reached,
            });
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use polars::prelude::*;

    fn output(lo: Vec<f64>, hi: Vec<f64>) -> Output {
        Output {
            name: "t".into(),
            title: String::new(),
            question: String::new(),
            frame: DataFrame::new_infer_height(vec![
                Column::new("p_lo".into(), lo),
                Column::new("p_hi".into(), hi),
            ])
            .unwrap(),
            figures: vec![],
            key_figures: vec![],
            provenance: crate::report::Provenance::exact("t", "x", Default::default()),
        }
    }

    /// A fake run whose half-width is 1/sqrt(trials).
    fn fake_run(t: u64) -> anyhow::Result<Vec<Output>> {
        let h = 1.0 / (t as f64).sqrt();
        Ok(vec![output(vec![0.5 - h], vec![0.5 + h])])
    }

    fn output_named(stem: &str, v: Vec<f64>, lo: Vec<f64>, hi: Vec<f64>) -> Output {
        let mut o = output(lo.clone(), hi.clone());
        o.frame = DataFrame::new_infer_height(vec![
            Column::new(stem.into(), v),
            Column::new(format!("{stem}_lo").into(), lo),
            Column::new(format!("{stem}_hi").into(), hi),
        ])
        .unwrap();
        o
    }

    #[test]
    fn the_schedule_doubles_from_one_batch_up_to_the_cap() {
        let p = Precision::new(0.01, Some(300_000), Lang::En).unwrap();
        assert_eq!(p.schedule(), vec![65_536, 131_072, 262_144, 300_000]);
        assert!(Precision::new(0.0, None, Lang::En).is_err());
        assert!(Precision::new(0.6, None, Lang::En).is_err());
    }

    #[test]
    fn widest_reads_every_interval_pair_and_skips_undefined_cells() {
        let o = output(vec![0.1, f64::NAN, 0.4], vec![0.2, f64::NAN, 0.46]);
        let w = widest(&[o], 0.01).unwrap();
        assert!((w.half_width - 0.05).abs() < 1e-12, "{w:?}");
        assert_eq!(w.at, "t.p");
        assert!(!w.relative);
        assert!((w.excess - 5.0).abs() < 1e-9, "{w:?}");
    }

    #[test]
    fn figures_in_their_own_unit_are_held_relative_to_their_value() {
        // A mean of 200 rounds ±3 is within 2% (3 <= 0.02 x 200), a share ±0.03 is not.
        let rounds = output_named("mean", vec![200.0], vec![197.0], vec![203.0]);
        let w = widest(std::slice::from_ref(&rounds), 0.02).unwrap();
        assert!(w.relative && (w.excess - 0.75).abs() < 1e-9, "{w:?}");
        let share = output_named("share", vec![0.5], vec![0.47], vec![0.53]);
        let w = widest(&[rounds, share], 0.02).unwrap();
        assert_eq!(w.at, "t.share");
        assert!(!w.relative && (w.excess - 1.5).abs() < 1e-9, "{w:?}");
        // A sweep's rows are held by their figure's kind.
        let mut sweep = output_named(
            "value",
            vec![0.5, 200.0],
            vec![0.49, 197.0],
            vec![0.51, 203.0],
        );
        sweep
            .frame
            .with_column(Column::new(
                "figure".into(),
                ["combat-sides.share", "combat-sides.mean_rounds"],
            ))
            .unwrap();
        let w = widest(&[sweep], 0.02).unwrap();
        assert!(w.relative && (w.excess - 0.75).abs() < 1e-9, "{w:?}");
        // A value of 0 is held to ±P; a half-open interval is skipped.
        let zero = output_named(
            "tests",
            vec![0.0, 40.0],
            vec![0.0, 39.0],
            vec![0.01, f64::NAN],
        );
        let w = widest(&[zero], 0.02).unwrap();
        assert!((w.excess - 0.25).abs() < 1e-9, "{w:?}");
        for (stem, share) in [
            ("p", true),
            ("p_down", true),
            ("share_first", true),
            ("apocalypse_per_point", true),
            ("crit_success", true),
            ("mean", false),
            ("day", false),
            ("tests", false),
            ("rations_left", false),
        ] {
            assert_eq!(is_share(stem), share, "{stem}");
        }
    }

    #[test]
    fn stops_at_the_first_count_that_is_precise_enough() {
        // A fake run whose half-width is 1/sqrt(trials): ±0.002 needs 250,000 trials.
        let p = Precision::new(0.002, None, Lang::En).unwrap();
        let mut seen = Vec::new();
        let r = run_to_precision(
            &p,
            |t| {
                seen.push(t);
                fake_run(t)
            },
            |v| v.as_slice(),
            Lang::En,
        )
        .unwrap();
        assert!(r.reached);
        assert_eq!(r.trials, 262_144);
        assert_eq!(seen, vec![65_536, 131_072, 262_144]);
        // ±0.0028 needs 127,551 trials: within twice a cap of 100,000, so the run goes
        // to the cap and says NOT reached.
        let capped = Precision::new(0.0028, Some(100_000), Lang::En).unwrap();
        let r = run_to_precision(&capped, fake_run, |v| v.as_slice(), Lang::En).unwrap();
        assert!(!r.reached);
        assert_eq!(r.trials, 100_000);
        assert!(r.sentence(&capped, Lang::En).contains("NOT reached"));
    }

    #[test]
    fn a_goal_out_of_reach_is_said_after_the_first_step() {
        // ±0.0001 needs 10^8 trials, past twice a cap of 100,000: refused after the
        // first step, naming the trials it would need; nothing else runs.
        let capped = Precision::new(0.0001, Some(100_000), Lang::En).unwrap();
        let mut seen = Vec::new();
        let r = run_to_precision(
            &capped,
            |t| {
                seen.push(t);
                fake_run(t)
            },
            |v| v.as_slice(),
            Lang::En,
        );
        let e = r.err().expect("refused").to_string();
        assert!(e.contains("100000000"), "{e}");
        assert!(e.contains("--max-trials"), "{e}");
        assert_eq!(seen, vec![65_536]);
    }
}
