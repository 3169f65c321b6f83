//! Exact answers about creation (C-CREATE-1..3).

use super::*;

/// P(the ten HP/PM dice are accepted), the book's window.
pub fn p_hp_pm_accept() -> f64 {
    p_hp_pm_accept_in(HP_PM_SUM)
}

/// P(the ten HP/PM dice are accepted) with the sum window `w` (parameters).
pub fn p_hp_pm_accept_in(w: (i64, i64)) -> f64 {
    Dist::die(100)
        .sum_of(HP_PM_DICE)
        .prob_where(|s| (w.0..=w.1).contains(s))
}

/// One stat die after its individual rerolls: uniform on 20..=80.
pub fn stat_die() -> Dist<i64> {
    stat_die_in(&StatBounds::default())
}

/// One stat die after its individual rerolls: uniform on the window in force
/// (`create_die_min..=create_die_max`, validated non-empty before any run).
pub fn stat_die_in(b: &StatBounds) -> Dist<i64> {
    Dist::uniform(b.die_min as i64..=b.die_max as i64).expect("a non-empty die window")
}

/// P(the six stat dice are accepted).
pub fn p_stats_accept() -> f64 {
    p_stats_accept_in(STAT_SUM, &StatBounds::default())
}

/// P(the six stat dice are accepted) with the sum window `w` and the die window of `b`
/// (parameters).
pub fn p_stats_accept_in(w: (i64, i64), b: &StatBounds) -> f64 {
    stat_die_in(b)
        .sum_of(STAT_DICE)
        .prob_where(|s| (w.0..=w.1).contains(s))
}

/// P(the two conversion dice are accepted).
pub fn p_conversion_accept() -> f64 {
    p_conversion_accept_in(CONVERSION_SUM, &StatBounds::default())
}

/// P(the two conversion dice are accepted) with the sum window `w` and the die window
/// of `b` (parameters).
pub fn p_conversion_accept_in(w: (i64, i64), b: &StatBounds) -> f64 {
    stat_die_in(b)
        .sum_of(2)
        .prob_where(|s| (w.0..=w.1).contains(s))
}

/// Expected single d100 rolls per stat die (a die lands in 20..80 with p = 61/100).
pub fn d100_rolls_per_stat_die() -> f64 {
    d100_rolls_per_stat_die_in(&StatBounds::default())
}

/// Expected single d100 rolls per stat die in the window of `b`: 100 / faces.
pub fn d100_rolls_per_stat_die_in(b: &StatBounds) -> f64 {
    100.0 / b.faces() as f64
}

/// The distribution of HP (or PM, by symmetry) under the random split: five dice out
/// of ten, given that the ten are accepted.
pub fn hp_random_split() -> Dist<i64> {
    hp_random_split_in(HP_PM_SUM)
}

/// [`hp_random_split`] with the sum window `w` (parameters).
pub fn hp_random_split_in(w: (i64, i64)) -> Dist<i64> {
    let five = Dist::die(100).sum_of(5);
    let cdf: Vec<(i64, f64)> = {
        let mut acc = 0.0;
        five.outcomes()
            .iter()
            .map(|(v, p)| {
                acc += p;
                (*v, acc)
            })
            .collect()
    };
    let f = |x: i64| -> f64 {
        match cdf.binary_search_by(|(v, _)| v.cmp(&x)) {
            Ok(i) => cdf[i].1,
            Err(0) => 0.0,
            Err(i) => cdf[i - 1].1,
        }
    };
    let weights = five
        .outcomes()
        .iter()
        .map(|(h, p)| (*h, p * (f(w.1 - h) - f(w.0 - h - 1))));
    Dist::from_weights(weights).expect("accepted sums exist")
}
