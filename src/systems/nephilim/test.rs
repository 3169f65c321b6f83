//! Tests against a difficulty (N-TEST, N-CRIT) and opposed tests (N-OPP).

use crate::dice::Dist;

use super::DieKind;

/// The four outcomes of a test.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    CritSuccess = 0,
    Success = 1,
    Failure = 2,
    CritFailure = 3,
}

impl Outcome {
    /// Best to worst; the CSV column order.
    pub const ALL: [Outcome; 4] = [
        Outcome::CritSuccess,
        Outcome::Success,
        Outcome::Failure,
        Outcome::CritFailure,
    ];

    /// snake_case name used in CSV columns (`p_<name>`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::CritSuccess => "crit_success",
            Outcome::Success => "success",
            Outcome::Failure => "failure",
            Outcome::CritFailure => "crit_failure",
        }
    }

    /// Critical or simple success.
    pub fn is_success(self) -> bool {
        matches!(self, Outcome::CritSuccess | Outcome::Success)
    }
}

/// The test score (N-TEST): characteristic + skill, or twice the characteristic when no
/// skill applies. Ka tests use [`ka_test_score`].
pub fn test_score(characteristic: i64, skill: Option<i64>) -> i64 {
    characteristic + skill.unwrap_or(characteristic)
}

/// A Ka test counts the normalised Ka once (N-TEST, "Le Ka est la seule exception").
pub fn ka_test_score(normalised_ka: i64) -> i64 {
    normalised_ka
}

/// Classifies a test with `margin` = score - difficulty before the dice and the raw
/// +1D-1D result `raw` (N-TEST, N-CRIT). Success iff margin + raw >= 0.
///
/// `crit` is the lowest critical raw result (`NephilimRules::crit_from`): in the book the
/// extreme one (`die.crit()`, +4 for the nephilim die). A raw result at or above it is a
/// critical success when the test succeeds and the next lower roll would have succeeded
/// too; when that roll was needed "the success needed it" and it is a simple success.
/// Symmetrically at or below -`crit` for failure. A critical raw result on the other side
/// of the threshold is an ordinary result (the crit rules sit in the success and failure
/// paragraphs). With the book's band (only the extreme) this is `raw == crit && margin +
/// crit > 0`, the earlier reading.
#[inline(always)]
pub fn classify(margin: i64, raw: i64, crit: i64) -> Outcome {
    if margin + raw >= 0 {
        if raw >= crit && margin + raw > 0 {
            Outcome::CritSuccess
        } else {
            Outcome::Success
        }
    } else if raw <= -crit && margin + raw + 1 < 0 {
        Outcome::CritFailure
    } else {
        Outcome::Failure
    }
}

/// Exact probability of each outcome (in `Outcome::ALL` order) at `margin`, with the
/// book's crits (the die's extreme results only).
pub fn test_probs(margin: i64, die: DieKind) -> [f64; 4] {
    probs_over(margin, &die.roll_dist(), die.crit())
}

/// As [`test_probs`] with a precomputed +1D-1D distribution.
pub fn probs_over(margin: i64, roll: &Dist<i64>, crit: i64) -> [f64; 4] {
    let mut p = [0.0; 4];
    for (raw, q) in roll.outcomes() {
        p[classify(margin, *raw, crit) as usize] += q;
    }
    p
}

/// Opposed test (N-OPP): distribution of final A - final B. A wins by that margin when
/// positive, B when negative; 0 is a tie (the rulebook does not break it).
pub fn opposed(score_a: i64, score_b: i64, die: DieKind) -> Dist<i64> {
    let r = die.roll_dist();
    r.shift(score_a).sub(&r.shift(score_b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crit_needed_for_success_is_simple() {
        // N-CRIT: margin -4 succeeds only on a raw +4, which was needed.
        assert_eq!(classify(-4, 4, 4), Outcome::Success);
        assert_eq!(classify(-3, 4, 4), Outcome::CritSuccess);
        assert_eq!(classify(-5, 4, 4), Outcome::Failure);
    }

    #[test]
    fn crit_needed_for_failure_is_simple() {
        assert_eq!(classify(3, -4, 4), Outcome::Failure);
        assert_eq!(classify(2, -4, 4), Outcome::CritFailure);
        assert_eq!(classify(4, -4, 4), Outcome::Success);
    }

    #[test]
    fn probabilities_sum_to_one_and_margin_zero_by_hand() {
        for die in DieKind::ALL {
            for m in -10..=10 {
                let p = test_probs(m, die);
                assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            }
        }
        // Nephilim die at margin 0: P(raw = 4) = P(raw = -4) = 1/36; P(raw >= 0) = 22/36.
        let p = test_probs(0, DieKind::Nephilim);
        assert!((p[0] - 1.0 / 36.0).abs() < 1e-12);
        assert!((p[0] + p[1] - 22.0 / 36.0).abs() < 1e-12);
        assert!((p[3] - 1.0 / 36.0).abs() < 1e-12);
    }

    /// `nephilim_crit_band` = 2 (N-CRIT): +3 and +4 are critical with the nephilim die.
    /// At margin 0, P(raw >= 3) = (1 + 2)/36 (4-0; 3-0, 4-1), and symmetrically for
    /// failures; a +3 the success needed (margin -3) stays a simple success.
    #[test]
    fn crit_band_by_hand() {
        let roll = DieKind::Nephilim.roll_dist();
        let p = probs_over(0, &roll, 3);
        assert!((p[0] - 3.0 / 36.0).abs() < 1e-12);
        assert!((p[3] - 3.0 / 36.0).abs() < 1e-12);
        assert!((p[0] + p[1] - 22.0 / 36.0).abs() < 1e-12);
        assert_eq!(classify(-3, 3, 3), Outcome::Success);
        assert_eq!(classify(-2, 3, 3), Outcome::CritSuccess);
        assert_eq!(classify(2, -3, 3), Outcome::Failure);
        assert_eq!(classify(1, -3, 3), Outcome::CritFailure);
        // The book's band is the earlier reading at every margin and raw result.
        for m in -10..=10 {
            assert_eq!(probs_over(m, &roll, 4), test_probs(m, DieKind::Nephilim));
        }
    }

    #[test]
    fn scores() {
        assert_eq!(test_score(2, None), 4);
        assert_eq!(test_score(2, Some(-1)), 1);
        assert_eq!(ka_test_score(3), 3);
        let o = opposed(2, 1, DieKind::Nephilim);
        assert!((o.mean() - 1.0).abs() < 1e-12);
        assert!(
            (o.prob_where(|x| *x > 0) + o.prob(&0) + o.prob_where(|x| *x < 0) - 1.0).abs() < 1e-12
        );
    }
}
