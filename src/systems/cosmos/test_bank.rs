//! Many fixed tests' samplers in one compact bank (issue 29).
//!
//! A [`super::TestSampler`] holds a 2 KB table per test. A combat needs one per (test
//! block, karma): 21 per block, 1.3 MB for the linked party against the drake, far more
//! than a core's caches, so most tests of a big fight missed them. Most of those tables
//! are equal: within a karma band (C-TEST-3: no die for |karma| < `karma_die_from`, the
//! die off or on the roll beyond, C-TEST-4 at each bound) the outcome of a (natural, die)
//! pair does not depend on the karma, and combatants with the same stat share a table. The
//! bank keeps each distinct table once, `100 x sides` outcomes long (not the sampler's
//! 2,000), and an index from the key to its table. A draw is the sampler's: the same
//! uniform index over the (natural, karma die) pairs, then a lookup, so every outcome and
//! every byte of a run is the same.

use std::collections::HashMap;

use crate::dice::Die;
use crate::engine::Rng64;

use super::{classify, Outcome, TestRules, TestSpec};

/// Distinct outcome tables, one per distinct test, and where each key's table starts.
#[derive(Clone, Debug)]
pub struct TestBank {
    /// The distinct tables end to end, each `pairs.faces()` outcomes.
    outcomes: Vec<Outcome>,
    /// Per key: the first outcome of its table.
    start: Vec<u32>,
    /// One draw picks the (natural, karma die) pair: the sampler's die, so the draws are
    /// the sampler's.
    pairs: Die,
}

impl TestBank {
    /// One key per spec, in order. The karma die has `karma_die_sides` sides, clamped to
    /// 1..=20 as [`super::TestSampler`] does.
    pub fn new<'s>(specs: impl IntoIterator<Item = &'s TestSpec>, rules: &TestRules) -> TestBank {
        let sides = rules.karma_die_sides.clamp(1, 20) as usize;
        let len = 100 * sides;
        let mut outcomes = Vec::new();
        let mut start = Vec::new();
        let mut seen: HashMap<Vec<Outcome>, u32> = HashMap::new();
        let mut table = Vec::with_capacity(len);
        for spec in specs {
            table.clear();
            table.extend((0..len).map(|i| {
                let natural = (i / sides + 1) as u8;
                let d = (i % sides + 1) as u8;
                classify(natural, d, spec, rules)
            }));
            // Keys come block by block, karma by karma: most equal the previous key's
            // table (same karma band), found without hashing 1,000 outcomes.
            let last = start.last().map(|&at: &u32| at as usize);
            let at = match last {
                Some(p) if outcomes[p..p + len] == table[..] => p as u32,
                _ => *seen.entry(table.clone()).or_insert_with(|| {
                    let at = outcomes.len() as u32;
                    outcomes.extend_from_slice(&table);
                    at
                }),
            };
            start.push(at);
        }
        TestBank {
            outcomes,
            start,
            pairs: Die::known(len as u64),
        }
    }

    /// One test of key `key`: one draw, one lookup (as `TestSampler::sample`).
    #[inline(always)]
    pub fn sample(&self, key: usize, rng: &mut Rng64) -> Outcome {
        self.outcomes[self.start[key] as usize + self.pairs.index(rng) as usize]
    }

    /// [`Self::sample`] with the (natural d100, karma die) pair it drew: the same draw, for
    /// a trace. The pair is `index / sides + 1`, `index % sides + 1` (as the tables are
    /// built); the die face means nothing where no karma die applies.
    pub fn sample_faces(&self, key: usize, rng: &mut Rng64) -> (Outcome, u8, u8) {
        let i = self.pairs.index(rng) as usize;
        let sides = self.pairs.faces() as usize / 100;
        let o = self.outcomes[self.start[key] as usize + i];
        (o, (i / sides + 1) as u8, (i % sides + 1) as u8)
    }

    /// How many distinct tables the bank keeps.
    pub fn tables(&self) -> usize {
        self.outcomes.len() / self.pairs.faces() as usize
    }

    /// The bank's size in bytes (tables and index).
    pub fn bytes(&self) -> usize {
        self.outcomes.len() * std::mem::size_of::<Outcome>() + self.start.len() * 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cosmos::{TestSampler, KARMA_MAX, KARMA_MIN};
    use rand::SeedableRng;

    fn specs(thresholds: &[f64]) -> Vec<TestSpec> {
        thresholds
            .iter()
            .flat_map(|&t| (KARMA_MIN..=KARMA_MAX).map(move |k| TestSpec::new(t, k).unwrap()))
            .collect()
    }

    #[test]
    fn one_table_per_karma_band_and_equal_stats_share() {
        // Book rules, C-TEST-3/4: -10 (42 only a crit), -9..-5 (d10 added), -4..4 (no
        // die), 5..9 (d10 taken off), +10 (66 only a crit failure): five tables a stat,
        // and a second combatant with the same Force 60 adds none.
        let rules = TestRules::default();
        let bank = TestBank::new(&specs(&[60.0, 60.0]), &rules);
        assert_eq!(bank.tables(), 5);
        assert_eq!(bank.bytes(), 5 * 1000 + 42 * 4);
        let bank = TestBank::new(&specs(&[60.0, 45.0]), &rules);
        assert_eq!(bank.tables(), 10);
    }

    #[test]
    fn draws_and_outcomes_are_the_samplers() {
        // The same stream gives the same outcomes, key by key, as one sampler per key.
        for sides in [10u8, 6, 20] {
            let rules = TestRules {
                karma_die_sides: sides,
                ..TestRules::default()
            };
            let all = specs(&[5.0, 37.5, 60.0, 99.0]);
            let bank = TestBank::new(&all, &rules);
            for (key, spec) in all.iter().enumerate() {
                let sampler = TestSampler::new(spec, &rules);
                let mut a = Rng64::seed_from_u64(key as u64);
                let mut b = Rng64::seed_from_u64(key as u64);
                for _ in 0..2_000 {
                    assert_eq!(bank.sample(key, &mut a), sampler.sample(&mut b));
                }
            }
        }
    }
}
