//! The small sums every fight-like scenario report makes alike (2d20 combat, Nephilim
//! duel, Trinités skirmish and duel), written once so the kinds cannot drift apart.

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
