//! The small sums and charts every fight-like scenario report makes alike (2d20 combat, Nephilim
//! duel, Trinités skirmish and duel), written once so the kinds cannot drift apart.

use crate::report::{BarChart, BarSeries};
use crate::stats::{Estimate, Proportion};

/// `num / den`, or 0 when nothing was counted (a rate over no attempts reads as none).
pub fn ratio(num: u64, den: u64) -> f64 {
    if den > 0 {
        num as f64 / den as f64
    } else {
        0.0
    }
}

/// The mean of `(round, count)` pairs; NaN when there are none.
pub fn mean_round(rounds: impl IntoIterator<Item = (i64, u64)>) -> f64 {
    let (s, c) = rounds
        .into_iter()
        .fold((0u64, 0u64), |(s, c), (r, k)| (s + r as u64 * k, c + k));
    if c > 0 {
        s as f64 / c as f64
    } else {
        f64::NAN
    }
}

/// The answers as a Markdown list, one item each, for a summary's opening.
pub fn answer_list(key: &[String]) -> String {
    key.iter().map(|k| format!("- {k}\n")).collect()
}

/// Each count's share of `n` trials with its 95% interval, in the counts' order.
pub fn shares(counts: &[u64], n: u64) -> Vec<Proportion> {
    counts.iter().map(|&c| Proportion::new(c, n)).collect()
}

/// A chart of shares: one series of probabilities, each bar with its 95% interval, on the
/// whole 0..1 scale so the outcome and pair charts of every kind read alike. `words`:
/// the title, then the x and y axes' labels.
pub fn share_bars<R, E: Into<Estimate>>(
    [title, x_label, y_label]: [String; 3],
    categories: Vec<String>,
    series: impl Into<String>,
    rows: &[R],
    share: impl Fn(&R) -> E,
) -> BarChart {
    BarChart {
        title,
        x_label,
        y_label,
        categories,
        series: vec![BarSeries::with_intervals(series, rows, share)],
        y_range: Some((0.0, 1.0)),
    }
}
