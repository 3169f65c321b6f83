//! The normal d100 test (C-TEST-1..4): natural roll, karma die, six outcome classes.

use crate::dice::{Die, Dist};
use crate::engine::Rng64;
use crate::error::UserError;
use crate::lang::Lang;

use super::{CritBand, Outcome, PercentMode, SuperCritRoll, TestRules};

/// The widest karma range (the book's, C-TEST-3): tables and chains are sized for it; the
/// parameter `karma_bound` narrows the range in force.
pub const KARMA_MIN: i8 = -10;
pub const KARMA_MAX: i8 = 10;

/// Which karma die applies (C-TEST-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum KarmaDie {
    /// |karma| < 5: the score is the natural roll.
    None,
    /// karma >= 5: a d10 is taken off the roll.
    Minus,
    /// karma <= -5: a d10 is added to the roll.
    Plus,
}

impl KarmaDie {
    /// The book's karma die (from +/-5, C-TEST-3).
    pub fn for_karma(karma: i8) -> KarmaDie {
        KarmaDie::from(karma, 5)
    }

    /// The karma die under the parameter `karma_die_from` (C-TEST-3).
    pub fn from(karma: i8, from: i8) -> KarmaDie {
        if karma >= from {
            KarmaDie::Minus
        } else if karma <= -from {
            KarmaDie::Plus
        } else {
            KarmaDie::None
        }
    }
}

/// The score `s` (C-TEST-3): the natural roll moved by the karma d10, clamped to 1..100.
#[inline(always)]
pub fn score(natural: u8, d10: u8, die: KarmaDie) -> u8 {
    let s = match die {
        KarmaDie::None => natural as i16,
        KarmaDie::Minus => natural as i16 - d10 as i16,
        KarmaDie::Plus => natural as i16 + d10 as i16,
    };
    s.clamp(1, 100) as u8
}

/// What a roll shows once the dice are read: whether the super-crit value (42/66 in the
/// book, parameters `super_success_roll`/`super_failure_roll`, on the natural roll or the
/// score per `super_crit_roll`) came up, and the score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Roll {
    /// `SUPER_SUCCESS`, `SUPER_FAILURE` or 0.
    pub special: u8,
    pub score: u8,
}

/// `Roll::special` when the super-success roll came up.
pub const SUPER_SUCCESS: u8 = 1;
/// `Roll::special` when the super-failure roll came up.
pub const SUPER_FAILURE: u8 = 2;

impl Roll {
    #[inline(always)]
    pub fn read(natural: u8, d10: u8, die: KarmaDie, rules: &TestRules) -> Roll {
        let s = score(natural, d10, die);
        let special = match rules.super_crit_roll {
            SuperCritRoll::Natural => natural,
            SuperCritRoll::Score => s,
        };
        // Only the two special rolls matter; folding the rest keeps exact distributions
        // small. The super success is checked first when a variant makes them equal.
        let special = if special == rules.super_success_roll {
            SUPER_SUCCESS
        } else if special == rules.super_failure_roll {
            SUPER_FAILURE
        } else {
            0
        };
        Roll { special, score: s }
    }
}

/// A single test: effective threshold (after modifiers), karma, crit-failure band.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestSpec {
    threshold: f64,
    karma: i8,
    crit_band: CritBand,
}

/// The threshold after a percentage bonus/malus (C-TEST-1, option `percent_mode`).
pub fn threshold_with_modifier(base: f64, percent: f64, mode: PercentMode) -> f64 {
    match mode {
        PercentMode::Points => base + percent,
        PercentMode::Relative => base * (1.0 + percent / 100.0),
    }
}

/// Why a test cannot be built. Rule code passes it up as a value; the layer that knows the
/// run's language words it ([`SpecError::user`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SpecError {
    ThresholdNotANumber(f64),
    /// C-TEST-3.
    KarmaOutOfRange(i8),
    NoStat,
    CritFailFrom(u8),
}

impl SpecError {
    pub fn user(self, lang: Lang) -> UserError {
        UserError::new(match self {
            SpecError::ThresholdNotANumber(t) => {
                tr!(lang, "cosmos.test.threshold_nan", threshold = t)
            }
            SpecError::KarmaOutOfRange(k) => tr!(lang, "cosmos.test.karma_range", karma = k),
            SpecError::NoStat => tr!(lang, "cosmos.test.no_stat").to_string(),
            SpecError::CritFailFrom(f) => tr!(lang, "cosmos.test.crit_fail_from", from = f),
        })
    }
}

impl TestSpec {
    /// A test against `threshold` (not clamped, C-TEST-1) at `karma` (-10..=10).
    pub fn new(threshold: f64, karma: i8) -> Result<TestSpec, SpecError> {
        if !threshold.is_finite() {
            return Err(SpecError::ThresholdNotANumber(threshold));
        }
        if !(KARMA_MIN..=KARMA_MAX).contains(&karma) {
            return Err(SpecError::KarmaOutOfRange(karma));
        }
        Ok(TestSpec {
            threshold,
            karma,
            crit_band: CritBand::Book,
        })
    }

    /// A test against the mean of several stats, kept as a real number (C-TEST-1).
    pub fn mean_of(stats: &[f64], karma: i8) -> Result<TestSpec, SpecError> {
        if stats.is_empty() {
            return Err(SpecError::NoStat);
        }
        TestSpec::new(stats.iter().sum::<f64>() / stats.len() as f64, karma)
    }

    /// The same test with a percentage bonus (positive) or malus (negative).
    pub fn with_modifier(self, percent: f64, mode: PercentMode) -> TestSpec {
        TestSpec {
            threshold: threshold_with_modifier(self.threshold, percent, mode),
            ..self
        }
    }

    /// The same test with the crit-failure band starting at `from` (a user's value; 101
    /// means no band).
    pub fn with_crit_fail_from(self, from: u8) -> Result<TestSpec, SpecError> {
        if !(11..=101).contains(&from) {
            return Err(SpecError::CritFailFrom(from));
        }
        Ok(TestSpec {
            crit_band: CritBand::From(from),
            ..self
        })
    }

    /// The same test with the rules' band or the fatigue-widened one (C-FAT-4).
    pub fn with_crit_band(self, band: CritBand) -> TestSpec {
        TestSpec {
            crit_band: band,
            ..self
        }
    }

    pub fn threshold(&self) -> f64 {
        self.threshold
    }

    pub fn karma(&self) -> i8 {
        self.karma
    }

    /// Where the crit-failure band starts under `rules`.
    pub fn crit_fail_from(&self, rules: &TestRules) -> u8 {
        rules.crit_fail_from(self.crit_band)
    }

    /// The karma die of this test under the rules' `karma_die_from` (C-TEST-3).
    pub fn karma_die(&self, rules: &TestRules) -> KarmaDie {
        KarmaDie::from(self.karma, rules.karma_die_from)
    }

    /// The outcome class of a read roll (C-TEST-2 order, C-TEST-4 extremes).
    #[inline(always)]
    pub fn classify_roll(&self, roll: Roll, rules: &TestRules) -> Outcome {
        let k = self.karma;
        // C-TEST-4 at the bound in force (parameter `karma_bound`, C-KARMA-1).
        let (lo, hi) = (-rules.karma_bound, rules.karma_bound);
        if roll.special == SUPER_SUCCESS {
            // C-TEST-4: at -10 the 42 is only a crit.
            return if k == lo {
                Outcome::CritSuccess
            } else {
                Outcome::SuperSuccess
            };
        }
        if roll.special == SUPER_FAILURE {
            // C-TEST-4: at +10 the 66 is only a crit failure.
            return if k == hi {
                Outcome::CritFailure
            } else {
                Outcome::SuperFailure
            };
        }
        if roll.score <= rules.crit_success_to && k != lo {
            return Outcome::CritSuccess;
        }
        if roll.score >= rules.crit_fail_from(self.crit_band) && k != hi {
            return Outcome::CritFailure;
        }
        if (roll.score as f64) <= self.threshold {
            Outcome::Success
        } else {
            Outcome::Failure
        }
    }

    /// The exact outcome distribution.
    pub fn exact(&self, rules: &TestRules) -> Dist<Outcome> {
        roll_dist(self.karma_die(rules), rules).map(|r| self.classify_roll(*r, rules))
    }

    /// [`Self::roll`] with the faces it drew: the natural d100 and the karma die (0 when
    /// no karma die applies). The same draws in the same order, so a trace shows the dice
    /// the batch run rolls.
    pub fn roll_faces(&self, rng: &mut Rng64, rules: &TestRules) -> (Outcome, u8, u8) {
        let natural = Die::D100.roll(rng) as u8;
        let die = self.karma_die(rules);
        let d10 = if die == KarmaDie::None {
            0
        } else {
            Die::known(rules.karma_die_sides as u64).roll(rng) as u8
        };
        let o = self.classify_roll(Roll::read(natural, d10, die, rules), rules);
        (o, natural, d10)
    }

    /// One test drawn at random.
    #[inline]
    pub fn roll(&self, rng: &mut Rng64, rules: &TestRules) -> Outcome {
        let natural = Die::D100.roll(rng) as u8;
        let die = self.karma_die(rules);
        let d10 = if die == KarmaDie::None {
            0
        } else {
            Die::known(rules.karma_die_sides as u64).roll(rng) as u8
        };
        self.classify_roll(Roll::read(natural, d10, die, rules), rules)
    }
}

/// The outcome of rolling `natural` and `d10` for `spec` (C-TEST-2..4).
pub fn classify(natural: u8, d10: u8, spec: &TestSpec, rules: &TestRules) -> Outcome {
    spec.classify_roll(
        Roll::read(natural, d10, spec.karma_die(rules), rules),
        rules,
    )
}

/// P(an intuition roll succeeds): d6 <= intuition (C-TEST-5), intuition 1..6.
pub fn intuition_chance(intuition: i64, lang: crate::lang::Lang) -> Result<f64, UserError> {
    if !(1..=6).contains(&intuition) {
        return Err(UserError::new(tr!(
            lang,
            "cosmos.test.intuition",
            intuition
        )));
    }
    Ok(Dist::die(6).cdf(intuition))
}

/// The exact distribution of a read roll under one karma die; shared by every threshold.
pub fn roll_dist(die: KarmaDie, rules: &TestRules) -> Dist<Roll> {
    let d100 = Dist::die(100);
    match die {
        KarmaDie::None => d100.map(|n| Roll::read(*n as u8, 0, die, rules)),
        _ => d100.combine(&Dist::die(rules.karma_die_sides as u64), |n, d| {
            Roll::read(*n as u8, *d as u8, die, rules)
        }),
    }
}

/// A fast sampler for one fixed test: a table from the (natural, karma die) pair to the
/// outcome, so a trial is one unbiased draw and one lookup, with no branch on the rules.
#[derive(Clone)]
pub struct TestSampler {
    /// The outcome of each pair, stored as `Outcome` so a draw needs no conversion.
    lut: [Outcome; MAX_PAIRS],
    /// One draw picks the (natural, karma die) pair among 100 x sides (1000 in the book).
    pairs: Die,
}

/// The largest karma die parameter (`karma_die_sides`, 20) times the d100.
const MAX_PAIRS: usize = 100 * 20;

impl TestSampler {
    pub fn new(spec: &TestSpec, rules: &TestRules) -> TestSampler {
        let sides = rules.karma_die_sides.clamp(1, 20) as usize;
        let mut lut = [Outcome::SuperSuccess; MAX_PAIRS];
        for (i, slot) in lut.iter_mut().enumerate().take(100 * sides) {
            let natural = (i / sides + 1) as u8;
            let d = (i % sides + 1) as u8;
            *slot = classify(natural, d, spec, rules);
        }
        TestSampler {
            lut,
            pairs: TestSampler::pairs(rules),
        }
    }

    /// The die a sampler draws its (natural, karma die) pair with under `rules`.
    pub fn pairs(rules: &TestRules) -> Die {
        Die::known(100 * rules.karma_die_sides.clamp(1, 20) as u64)
    }

    /// The outcome of pair `i` (what [`TestSampler::sample`] gives when it draws `i`).
    pub fn outcome_at(&self, i: usize) -> Outcome {
        self.lut[i]
    }

    #[inline(always)]
    pub fn sample(&self, rng: &mut Rng64) -> Outcome {
        self.lut[self.pairs.index(rng) as usize]
    }

    /// The outcome's index (0 = super success .. 5 = super failure).
    #[inline(always)]
    pub fn sample_index(&self, rng: &mut Rng64) -> u8 {
        self.sample(rng) as u8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules() -> TestRules {
        TestRules::default()
    }

    #[test]
    fn score_is_clamped() {
        assert_eq!(score(3, 10, KarmaDie::Minus), 1);
        assert_eq!(score(95, 10, KarmaDie::Plus), 100);
        assert_eq!(score(50, 7, KarmaDie::None), 50);
    }

    #[test]
    fn crit_band_overrides_threshold() {
        // C-TEST-2: a 7 is a CritSuccess even when T = 5.
        let spec = TestSpec::new(5.0, 0).unwrap();
        assert_eq!(classify(7, 0, &spec, &rules()), Outcome::CritSuccess);
        let spec = TestSpec::new(95.0, 0).unwrap();
        assert_eq!(classify(93, 0, &spec, &rules()), Outcome::CritFailure);
        assert_eq!(classify(42, 0, &spec, &rules()), Outcome::SuperSuccess);
        assert_eq!(classify(66, 0, &spec, &rules()), Outcome::SuperFailure);
    }

    #[test]
    fn karma_extremes() {
        // C-TEST-4 at -10: natural 42 is a crit, a low score is not.
        let low = TestSpec::new(50.0, -10).unwrap();
        assert_eq!(classify(42, 3, &low, &rules()), Outcome::CritSuccess);
        assert_eq!(classify(2, 3, &low, &rules()), Outcome::Success);
        // C-TEST-4 at +10: natural 66 is a crit failure, a high score is not.
        let high = TestSpec::new(50.0, 10).unwrap();
        assert_eq!(classify(66, 3, &high, &rules()), Outcome::CritFailure);
        assert_eq!(classify(99, 3, &high, &rules()), Outcome::Failure);
        assert_eq!(
            classify(99, 3, &TestSpec::new(97.0, 10).unwrap(), &rules()),
            Outcome::Success
        );
    }

    #[test]
    fn score_mode_reads_42_after_karma_die() {
        let r = TestRules {
            super_crit_roll: SuperCritRoll::Score,
            ..rules()
        };
        let spec = TestSpec::new(50.0, 5).unwrap();
        assert_eq!(classify(45, 3, &spec, &r), Outcome::SuperSuccess);
        assert_eq!(classify(42, 3, &spec, &r), Outcome::Success);
    }

    #[test]
    fn percent_modes() {
        let s = TestSpec::new(55.0, 0).unwrap();
        assert_eq!(s.with_modifier(10.0, PercentMode::Points).threshold(), 65.0);
        assert!((s.with_modifier(10.0, PercentMode::Relative).threshold() - 60.5).abs() < 1e-12);
        assert_eq!(
            TestSpec::mean_of(&[50.0, 55.0], 0).unwrap().threshold(),
            52.5
        );
    }

    #[test]
    fn out_of_range_inputs_are_errors() {
        assert!(TestSpec::new(50.0, 11).is_err());
        assert!(TestSpec::new(f64::NAN, 0).is_err());
        assert!(TestSpec::mean_of(&[], 0).is_err());
        assert!(TestSpec::new(50.0, 0)
            .unwrap()
            .with_crit_fail_from(5)
            .is_err());
    }

    #[test]
    fn sampler_table_matches_classify() {
        let spec = TestSpec::new(55.0, 6).unwrap();
        let s = TestSampler::new(&spec, &rules());
        assert_eq!(s.lut[41 * 10 + 4], classify(42, 5, &spec, &rules()));
    }
}
