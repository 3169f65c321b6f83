//! Tests whose threshold moves during a fight (issue 29): a buff, a posture's bonus or
//! malus, a fatigue track.
//!
//! [`super::TestBank`] holds the tests at their block's own threshold. A test with a
//! modifier went through [`TestSpec::roll`], which builds the spec and the karma die and
//! reads the roll step by step on every test. What a (natural d100, karma die) pair shows
//! depends on the threshold and the crit-failure band only once it is neither a super roll
//! (C-TEST-4) nor a critical success (C-TEST-2); the rest is fixed per run and karma band
//! (C-TEST-3: no die, die taken off, die added; C-TEST-4 at each bound). So one table per
//! band gives each pair's fixed outcome or its score, and a test draws the d100 then the
//! karma die exactly as `TestSpec::roll` does (the same words in the same order), reads
//! its pair and compares the score with its crit band and threshold: the same outcome.

use crate::dice::Die;
use crate::engine::Rng64;

use super::test::{SUPER_FAILURE, SUPER_SUCCESS};
use super::{KarmaDie, Outcome, Roll, TestRules, KARMA_MAX, KARMA_MIN};

/// A code at or above this is an outcome no threshold changes (`FIXED + outcome`); below
/// it, the score (1..=100).
const FIXED: u8 = 128;

/// What a test at one karma reads: where its band's table starts, whether it rolls the
/// karma die, and whether the crit-failure band applies (not at +bound, C-TEST-4).
#[derive(Clone, Copy, Debug, Default)]
struct Band {
    at: u32,
    die: bool,
    crit_fail: bool,
}

/// The per-band tables of a run's rules.
#[derive(Clone, Debug)]
pub struct MovedTests {
    /// The distinct tables end to end, `100 x sides` codes each, pair `natural x sides +
    /// die` (faces from 0).
    codes: Vec<u8>,
    /// Per karma, from `KARMA_MIN`.
    bands: [Band; (KARMA_MAX - KARMA_MIN + 1) as usize],
    sides: u32,
    /// `Die::known(karma_die_sides)`, as `TestSpec::roll` builds it on every test.
    karma_die: Die,
}

impl MovedTests {
    pub fn new(rules: &TestRules) -> MovedTests {
        let sides = u32::from(rules.karma_die_sides.max(1));
        let (lo, hi) = (-rules.karma_bound, rules.karma_bound);
        let mut codes = Vec::new();
        let mut seen: Vec<((KarmaDie, bool, bool), u32)> = Vec::new();
        let mut bands = [Band::default(); (KARMA_MAX - KARMA_MIN + 1) as usize];
        for (i, k) in (KARMA_MIN..=KARMA_MAX).enumerate() {
            let die = KarmaDie::from(k, rules.karma_die_from);
            let key = (die, k == lo, k == hi);
            let at = match seen.iter().find(|s| s.0 == key) {
                Some(s) => s.1,
                None => {
                    let at = codes.len() as u32;
                    for p in 0..100 * sides {
                        let natural = (p / sides + 1) as u8;
                        let d = (p % sides + 1) as u8;
                        codes.push(code(Roll::read(natural, d, die, rules), k, rules));
                    }
                    seen.push((key, at));
                    at
                }
            };
            bands[i] = Band {
                at,
                die: die != KarmaDie::None,
                crit_fail: k != hi,
            };
        }
        MovedTests {
            codes,
            bands,
            sides,
            karma_die: Die::known(u64::from(rules.karma_die_sides)),
        }
    }

    /// One test against `threshold` (after every modifier) with the crit-failure band from
    /// `crit_from`, at `karma`: [`TestSpec::roll`]'s draws and outcome.
    #[inline(always)]
    pub fn roll(&self, threshold: f64, crit_from: u8, karma: i8, rng: &mut Rng64) -> Outcome {
        let band = self.bands[(karma - KARMA_MIN) as usize];
        let natural = Die::D100.index(rng) as u32;
        let d = if band.die {
            self.karma_die.index(rng) as u32
        } else {
            0
        };
        let c = self.codes[(band.at + natural * self.sides + d) as usize];
        if c >= FIXED {
            Outcome::ALL[usize::from(c - FIXED)]
        } else if band.crit_fail && c >= crit_from {
            Outcome::CritFailure
        } else if f64::from(c) <= threshold {
            Outcome::Success
        } else {
            Outcome::Failure
        }
    }

    /// The tables' size in bytes.
    pub fn bytes(&self) -> usize {
        self.codes.len()
    }
}

/// The code of a read roll at karma `k`: `TestSpec::classify_roll`'s first three steps,
/// which no threshold or crit band reaches.
fn code(roll: Roll, k: i8, rules: &TestRules) -> u8 {
    let (lo, hi) = (-rules.karma_bound, rules.karma_bound);
    let fixed = |o: Outcome| FIXED + o as u8;
    if roll.special == SUPER_SUCCESS {
        // C-TEST-4: at -bound the 42 is only a crit.
        fixed(if k == lo {
            Outcome::CritSuccess
        } else {
            Outcome::SuperSuccess
        })
    } else if roll.special == SUPER_FAILURE {
        // C-TEST-4: at +bound the 66 is only a crit failure.
        fixed(if k == hi {
            Outcome::CritFailure
        } else {
            Outcome::SuperFailure
        })
    } else if roll.score <= rules.crit_success_to && k != lo {
        fixed(Outcome::CritSuccess)
    } else {
        roll.score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cosmos::{CritBand, PercentMode, SuperCritRoll, TestSpec};
    use rand::SeedableRng;

    /// Every karma, thresholds below, inside and above the scores, each crit band, under
    /// the book's rules and variants of each parameter the tables read: the same outcome
    /// and the same generator state after every test as `TestSpec::roll`.
    #[test]
    fn moved_tests_are_test_spec_roll_draw_for_draw() {
        let book = TestRules::default();
        let variants = [
            book,
            TestRules {
                karma_die_sides: 6,
                karma_die_from: 3,
                ..book
            },
            TestRules {
                karma_die_sides: 20,
                karma_bound: 7,
                crit_success_to: 10,
                ..book
            },
            TestRules {
                super_crit_roll: SuperCritRoll::Score,
                super_success_roll: 66,
                super_failure_roll: 66,
                percent_mode: PercentMode::Relative,
                ..book
            },
        ];
        let mut tests = 0;
        for (v, rules) in variants.iter().enumerate() {
            let moved = MovedTests::new(rules);
            let mut a = Rng64::seed_from_u64(v as u64);
            let mut b = a.clone();
            for k in -rules.karma_bound..=rules.karma_bound {
                for t in [-3.0, 0.0, 4.5, 37.0, 60.5, 91.0, 99.9, 100.0, 140.0] {
                    for band in [CritBand::Book, CritBand::Fatigued, CritBand::From(101)] {
                        let spec = TestSpec::new(t, k).unwrap().with_crit_band(band);
                        let from = rules.crit_fail_from(band);
                        for _ in 0..300 {
                            let o = moved.roll(t, from, k, &mut a);
                            assert_eq!(o, spec.roll(&mut b, rules), "rules {v}, {k}, {t}");
                            assert_eq!(a, b);
                            tests += 1;
                        }
                    }
                }
            }
        }
        assert!(tests > 100_000);
    }

    #[test]
    fn one_table_per_karma_band() {
        // Book rules: -10, -9..-5, -4..4, 5..9, +10.
        assert_eq!(MovedTests::new(&TestRules::default()).bytes(), 5 * 1000);
    }
}
