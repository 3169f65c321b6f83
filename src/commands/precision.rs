//! `--precision P`: instead of a trial count, run until every 95% interval of the outputs
//! is at most ±P wide. Trials grow in a fixed schedule — 65,536 (one engine batch), then
//! doubling, then `--max-trials` — and the stopping rule is checked only at those counts.
//! Because the engine's batches are seeded streams, the run at N trials is the same
//! whatever the thread count, so where it stops is too. Each step re-runs from the start
//! (about twice the trials of the last step in all): simple, and the published numbers
//! are exactly those of a plain run at the final trial count.

use crate::engine::BATCH_SIZE;
use crate::error::UserError;
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
pub fn goal(a: &crate::cli::PrecisionArgs) -> anyhow::Result<Option<Precision>> {
    match a.precision {
        None => Ok(None),
        Some(p) => Ok(Some(Precision::new(p, a.max_trials)?)),
    }
}

impl Precision {
    pub fn new(half_width: f64, max_trials: Option<u64>) -> Result<Precision, UserError> {
        if !(half_width > 0.0 && half_width <= 0.5) {
            return Err(UserError::new(crate::tr!(
                "check.precision_range",
                value = half_width
            )));
        }
        let max_trials = max_trials.unwrap_or(DEFAULT_MAX_TRIALS);
        if max_trials == 0 || max_trials > MAX_TRIALS {
            return Err(UserError::new(crate::tr!(
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

/// The widest interval of the outputs: (half-width, `output.column`), over every
/// `<x>_lo`/`<x>_hi` column pair; undefined cells (empty) are skipped.
pub fn widest(outputs: &[Output]) -> Option<(f64, String)> {
    let mut best: Option<(f64, String)> = None;
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
            for i in 0..lo.len().min(hi.len()) {
                if let (Some(l), Some(h)) = (lo.get(i), hi.get(i)) {
                    let half = (h - l) / 2.0;
                    if half.is_finite() && best.as_ref().is_none_or(|b| half > b.0) {
                        best = Some((half, format!("{}.{stem}", o.name)));
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
    /// The widest half-width at the end, and where.
    pub widest: Option<(f64, String)>,
    pub reached: bool,
}

impl<T> Reached<T> {
    /// One sentence for `summary.md` and the terminal.
    pub fn sentence(&self, p: &Precision) -> String {
        let dec = crate::balance::dec;
        let w = match &self.widest {
            Some((h, at)) => crate::tr!(
                "run.precision_widest",
                half_width = dec(&format!("{h:.5}")),
                at = at
            ),
            None => crate::tr!("run.precision_no_interval").into(),
        };
        let half_width = dec(&p.half_width.to_string());
        if self.reached {
            crate::tr!(
                "run.precision_reached",
                half_width = half_width,
                trials = self.trials,
                widest = w
            )
        } else {
            crate::tr!(
                "run.precision_not_reached",
                half_width = half_width,
                trials = self.trials,
                widest = w
            )
        }
    }
}

/// Runs `eval` at each trial count of the schedule until the outputs are precise enough.
pub fn run_to_precision<T>(
    p: &Precision,
    mut eval: impl FnMut(u64) -> anyhow::Result<T>,
    outputs: impl Fn(&T) -> &[Output],
) -> anyhow::Result<Reached<T>> {
    let schedule = p.schedule();
    let mut i = 0;
    loop {
        super::signals::check()?;
        let t = schedule[i];
        let value = eval(t)?;
        let Some(w) = widest(outputs(&value)) else {
            return Err(UserError::new(crate::tr!("check.precision_exact")).into());
        };
        let reached = w.0 <= p.half_width;
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

    #[test]
    fn the_schedule_doubles_from_one_batch_up_to_the_cap() {
        let p = Precision::new(0.01, Some(300_000)).unwrap();
        assert_eq!(p.schedule(), vec![65_536, 131_072, 262_144, 300_000]);
        assert!(Precision::new(0.0, None).is_err());
        assert!(Precision::new(0.6, None).is_err());
    }

    #[test]
    fn widest_reads_every_interval_pair_and_skips_undefined_cells() {
        let o = output(vec![0.1, f64::NAN, 0.4], vec![0.2, f64::NAN, 0.46]);
        let (h, at) = widest(&[o]).unwrap();
        assert!((h - 0.05).abs() < 1e-12, "{h}");
        assert_eq!(at, "t.p");
    }

    #[test]
    fn stops_at_the_first_count_that_is_precise_enough() {
        // A fake run whose half-width is 1/sqrt(trials): ±0.002 needs 250,000 trials.
        let p = Precision::new(0.002, None).unwrap();
        let mut seen = Vec::new();
        let r = run_to_precision(
            &p,
            |t| {
                seen.push(t);
                let h = 1.0 / (t as f64).sqrt();
                Ok(vec![output(vec![0.5 - h], vec![0.5 + h])])
            },
            |v| v.as_slice(),
        )
        .unwrap();
        assert!(r.reached);
        assert_eq!(r.trials, 262_144);
        assert_eq!(seen, vec![65_536, 131_072, 262_144]);
        let capped = Precision::new(0.0001, Some(100_000)).unwrap();
        let r = run_to_precision(
            &capped,
            |t| {
                let h = 1.0 / (t as f64).sqrt();
                Ok(vec![output(vec![0.5 - h], vec![0.5 + h])])
            },
            |v| v.as_slice(),
        )
        .unwrap();
        assert!(!r.reached);
        assert_eq!(r.trials, 100_000);
        assert!(r.sentence(&capped).contains("NOT reached"));
    }
}
