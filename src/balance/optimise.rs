//! `optimise`: the best grid point by racing (successive elimination).
//!
//! Round r runs every point still in the race at n_r trials (a first count, doubling each
//! round, up to `max_trials`). After each round the leader is the best point estimate;
//! every point whose interval — at a level Bonferroni-corrected over every point and
//! round — lies wholly on the wrong side of the leader's is dropped. The race ends when
//! one point is left or the trial cap is reached; the points still in it are the ones
//! the data cannot tell from the best. Exact figures need one round. A plain sweep at
//! the same precision would run every point at the final count: the answer compares
//! the two.

use crate::stats::Estimate;

use super::expect::decide::{looks, widen};

/// One point's latest estimate.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub label: String,
    pub figure: f64,
    pub interval95: Option<(f64, f64)>,
    /// Degrees of freedom of a Student-t interval over few chains (None: normal).
    pub df: Option<f64>,
    pub trials: u64,
    /// Round it was dropped in (None while in the race).
    pub dropped_in: Option<usize>,
}

#[derive(Clone, Debug)]
pub struct Race {
    pub first_trials: u64,
    pub max_trials: u64,
    pub confidence: f64,
    pub maximise: bool,
}

/// The race's outcome.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub entries: Vec<Entry>,
    /// Index of the best point.
    pub best: usize,
    /// Trials spent in all, and what a plain sweep at the final count would spend.
    pub spent: u64,
    pub plain_sweep: u64,
    pub rounds: usize,
}

impl Outcome {
    /// Points still in the race at the end (the best among them).
    pub fn contenders(&self) -> Vec<usize> {
        (0..self.entries.len())
            .filter(|&i| self.entries[i].dropped_in.is_none())
            .collect()
    }
}

/// Races `labels.len()` points; `eval(i, trials)` gives point i's (figure, 95% interval or
/// None when exact).
pub fn race(
    r: &Race,
    labels: &[String],
    mut eval: impl FnMut(usize, u64) -> anyhow::Result<(f64, Option<(f64, f64)>, Option<f64>)>,
) -> anyhow::Result<Outcome> {
    let schedule = looks(r.first_trials, r.max_trials);
    let alpha = (1.0 - r.confidence) / (labels.len().max(1) * schedule.len()) as f64;
    let mut entries: Vec<Entry> = labels
        .iter()
        .map(|l| Entry {
            label: l.clone(),
            figure: f64::NAN,
            interval95: None,
            df: None,
            trials: 0,
            dropped_in: None,
        })
        .collect();
    let sign = if r.maximise { 1.0 } else { -1.0 };
    let mut spent = 0u64;
    let mut rounds = 0;
    let mut last_count = 0;
    for (round, &t) in schedule.iter().enumerate() {
        rounds = round + 1;
        last_count = t;
        let mut all_exact = true;
        for (i, e) in entries.iter_mut().enumerate() {
            if e.dropped_in.is_some() {
                continue;
            }
            let (f, iv, df) = eval(i, t)?;
            e.figure = f;
            e.interval95 = iv;
            e.df = df;
            e.trials = t;
            spent += if iv.is_some() { t } else { 0 };
            all_exact &= iv.is_none();
        }
        // Intervals at the corrected level, as (lo, hi) on the "higher is better" scale.
        let score = |e: &Entry| -> Estimate {
            let (lo, hi) = match e.interval95 {
                Some(iv) => widen(e.figure, iv, alpha, e.df),
                None => (e.figure, e.figure),
            };
            if sign > 0.0 {
                Estimate {
                    value: e.figure,
                    lo,
                    hi,
                }
            } else {
                Estimate {
                    value: -e.figure,
                    lo: -hi,
                    hi: -lo,
                }
            }
        };
        let live: Vec<usize> = (0..entries.len())
            .filter(|&i| entries[i].dropped_in.is_none() && entries[i].figure.is_finite())
            .collect();
        let Some(&leader) = live.iter().max_by(|&&a, &&b| {
            score(&entries[a])
                .value
                .total_cmp(&score(&entries[b]).value)
        }) else {
            anyhow::bail!("no point gave a number");
        };
        let leader_lo = score(&entries[leader]).lo;
        for &i in &live {
            let hi = score(&entries[i]).hi;
            if i != leader && hi < leader_lo {
                entries[i].dropped_in = Some(round + 1);
            }
        }
        // Exact figures tie only when equal.
        if all_exact {
            let best_val = score(&entries[leader]).value;
            for &i in &live {
                if (score(&entries[i]).value - best_val).abs() > 1e-9 {
                    entries[i].dropped_in = Some(round + 1);
                }
            }
        }
        let left = entries.iter().filter(|e| e.dropped_in.is_none()).count();
        if left <= 1 || all_exact {
            break;
        }
    }
    let best = (0..entries.len())
        .filter(|&i| entries[i].dropped_in.is_none())
        .max_by(|&a, &b| (sign * entries[a].figure).total_cmp(&(sign * entries[b].figure)))
        .unwrap_or(0);
    Ok(Outcome {
        plain_sweep: last_count * labels.len() as u64,
        entries,
        best,
        spent,
        rounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_known_best_point_wins_and_clear_losers_leave_early() {
        // 20 points, point 13 best by construction (0.6), one close rival (0.59).
        let labels: Vec<String> = (0..20).map(|i| format!("p{i}")).collect();
        let truth = |i: usize| match i {
            13 => 0.6,
            7 => 0.59,
            _ => 0.3 + 0.01 * i as f64 % 0.2,
        };
        let r = Race {
            first_trials: 1000,
            max_trials: 1 << 20,
            confidence: 0.95,
            maximise: true,
        };
        let o = race(&r, &labels, |i, t| {
            let h = 1.0 / (t as f64).sqrt();
            Ok((truth(i), Some((truth(i) - h, truth(i) + h)), None))
        })
        .unwrap();
        assert_eq!(o.best, 13);
        // The far points were dropped in the first round; the rival much later.
        assert!(o.entries[0].dropped_in == Some(1));
        assert!(o.entries[7].dropped_in.unwrap() > 3);
        assert!(
            o.spent * 2 <= o.plain_sweep,
            "{} vs {}",
            o.spent,
            o.plain_sweep
        );
        // Minimising picks the smallest.
        let r2 = Race {
            maximise: false,
            ..r
        };
        let o = race(&r2, &labels, |i, _| Ok((truth(i), None, None))).unwrap();
        assert_eq!(o.entries[o.best].figure, 0.3);
        assert_eq!(o.rounds, 1);
    }
}
