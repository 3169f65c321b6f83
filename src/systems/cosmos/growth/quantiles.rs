//! Quantile bands from streaming tallies, shared by the scenario outputs.

use crate::engine::Tally;

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
