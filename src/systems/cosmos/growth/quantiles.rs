//! Quantile bands from streaming tallies, shared by the scenario outputs.

use crate::engine::{Moments, Tally};
use crate::report::FloatColumns;
use crate::stats::Estimate;

/// The quantiles every band reports: p05, p25, p50, p75, p95.
pub const QUANTILES: [f64; 5] = [0.05, 0.25, 0.5, 0.75, 0.95];

/// Mean and the five quantiles of a tally (NaN when empty).
pub fn band_row(t: &Tally) -> (f64, [f64; 5]) {
    let n = t.total();
    if n == 0 {
        return (f64::NAN, [f64::NAN; 5]);
    }
    let mean = t.iter().map(|(v, c)| v as f64 * c as f64).sum::<f64>() / n as f64;
    let q = QUANTILES.map(|q| t.quantile(q).map_or(f64::NAN, |v| v as f64));
    (mean, q)
}

/// One row of a quantity's distribution in `cols`: `mean` and its 95% interval (`mean_lo`,
/// `mean_hi`, from `moments`), then the quantiles `p05` .. `p95` of [`band_row`]. Returns
/// the mean, the interval and the quantiles.
pub fn push_distribution(
    cols: &mut FloatColumns,
    t: &Tally,
    moments: &Moments,
) -> (f64, Estimate, [f64; 5]) {
    let (mean, q) = band_row(t);
    let ci = Estimate::mean(moments);
    cols.push("mean", mean);
    cols.push("mean_lo", ci.lo);
    cols.push("mean_hi", ci.hi);
    for (name, v) in ["p05", "p25", "p50", "p75", "p95"].into_iter().zip(q) {
        cols.push(name, v);
    }
    (mean, ci, q)
}

/// The `q` quantile of a time-to-event tally where values above its range mean "did not
/// happen" (censored): `None` when fewer than a share `q` of trials saw the event.
pub fn censored_quantile(t: &Tally, q: f64) -> Option<i64> {
    let total = t.total();
    if total == 0 || !(0.0..=1.0).contains(&q) {
        return None;
    }
    let target = (q * total as f64).ceil().max(1.0) as u64;
    let mut acc = t.below;
    for (v, c) in t.iter() {
        acc += c;
        if acc >= target {
            return Some(v);
        }
    }
    None
}

/// The quantile with a 95% distribution-free interval from order statistics:
/// ranks n q -+ z sqrt(n q (1 - q)).
pub fn quantile_interval(t: &Tally, q: f64) -> (Option<i64>, Option<i64>, Option<i64>) {
    let n = t.total().max(1) as f64;
    let h = crate::stats::z95() * (q * (1.0 - q) / n).sqrt();
    (
        censored_quantile(t, q),
        censored_quantile(t, (q - h).max(0.0)),
        censored_quantile(t, (q + h).min(1.0)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn censored_quantiles() {
        let mut t = Tally::new(1, 10);
        for x in [1, 2, 3, 11, 11] {
            t.push(x);
        }
        assert_eq!(censored_quantile(&t, 0.5), Some(3));
        assert_eq!(censored_quantile(&t, 0.61), None);
        let (m, lo, hi) = quantile_interval(&t, 0.2);
        assert_eq!(m, Some(1));
        assert!(lo <= m && (hi.is_none() || hi >= m));
    }
}
