//! Initiative segments in a duel (N-INIT). Source: nephilim-v3.fr.txt, "L'initiative".

use crate::dice::Dist;
use crate::engine::Rng64;

use super::{DSampler, NephilimRules};

/// Distribution of (initiative A - initiative B) minus the Rapidité + Réaction difference:
/// the difference of two +1D-1D rolls.
pub fn gap_noise(rules: &NephilimRules) -> Dist<i64> {
    let r = rules.die.roll_dist();
    r.sub(&r)
}

/// P(a character acts in an earlier segment than its single opponent) when its
/// Rapidité + Réaction exceeds the opponent's by `difference`. The first segment runs
/// from the highest initiative down a fixed width (option `init_segment`); with two
/// characters the lower one acts in a later segment iff the gap reaches that width.
/// Crits only break ties inside a segment, so they never matter here.
pub fn p_earlier_segment(difference: i64, rules: &NephilimRules) -> f64 {
    p_earlier_over(difference, &gap_noise(rules), rules)
}

/// As [`p_earlier_segment`] with a precomputed [`gap_noise`].
pub fn p_earlier_over(difference: i64, noise: &Dist<i64>, rules: &NephilimRules) -> f64 {
    let need = rules.init_segment.gap() - difference;
    // An empty float sum is -0.0, which a CSV prints as -0.0000000000; + 0.0 makes it 0
    // and leaves every other value as it is (audit of 2026-12-06).
    noise.prob_where(|w| *w >= need) + 0.0
}

/// Draws one duel's initiatives; true iff A acts in an earlier segment than B.
#[inline(always)]
pub fn sample_earlier(difference: i64, gap: i64, d: &DSampler, rng: &mut Rng64) -> bool {
    let a = difference + d.roll(rng);
    let b = d.roll(rng);
    a - b >= gap
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleOptions;

    #[test]
    fn by_hand() {
        // N-INIT default (six): the first segment is H..H-5, a gap of 6 is needed.
        let six = NephilimRules::default();
        assert_eq!(p_earlier_segment(-3, &six), 0.0);
        // Difference -2: only the full swing W = +8 (4-0 for A, 0-4 for B): (1/36)^2.
        assert!((p_earlier_segment(-2, &six) - 1.0 / 1296.0).abs() < 1e-15);
        assert!(p_earlier_segment(13, &six) < 1.0);
        assert!((p_earlier_segment(14, &six) - 1.0).abs() < 1e-12);
        let five = NephilimRules::from_options(
            &RuleOptions::from_pairs(&["init_segment=five"], crate::lang::Lang::En).unwrap(),
        );
        assert!((p_earlier_segment(-3, &five) - 1.0 / 1296.0).abs() < 1e-15);
        assert_eq!(p_earlier_segment(-4, &five), 0.0);
        assert!((p_earlier_segment(13, &five) - 1.0).abs() < 1e-12);
    }
}
