//! The Trinités test (T-TEST) and the Trinité's two dice (T-DUAL), exact and sampled.

use crate::dice::{Die, Dist};
use crate::engine::Rng64;

use super::DualKeep;

/// A test succeeds when natural + skill + difficulty reaches 12 (LE TEST, T-TEST).
pub const TARGET: i64 = 12;

/// Extra rolls allowed when exact distributions explode the d12: the cut branch has
/// probability 12^-13 ≈ 9.3e-15 per die, and its value (156) succeeds at every modifier
/// the tables cover, so success probabilities are not affected at all.
pub const EXPLODE_DEPTH: u32 = 12;

/// T-TEST: a natural 1 always fails; otherwise success iff natural + modifier >= 12.
#[inline(always)]
pub fn succeeds(natural: i64, modifier: i64) -> bool {
    natural != 1 && natural + modifier >= TARGET
}

/// The natural result of one exploding d12 (a 12 is rolled again and added, repeatedly).
pub fn natural_dist(depth: u32) -> crate::dice::Exploded {
    Dist::die(12).explode(depth)
}

/// T-DUAL: which die the Trinité keeps, as (natural kept, Deva kept?).
#[inline(always)]
pub fn keep(deva: i64, archonte: i64, modifier: i64, rule: DualKeep) -> (i64, bool) {
    match rule {
        DualKeep::DevaIfSuccess if succeeds(deva, modifier) => (deva, true),
        // The higher natural is best both for success and for the margin; ties: Deva.
        _ if deva >= archonte => (deva, true),
        _ => (archonte, false),
    }
}

/// Distribution of the kept natural and whether the Deva die was kept (always `false`
/// for a single d12), with the mass cut by the explosion depth.
#[derive(Clone, Debug)]
pub struct KeptDist {
    pub dist: Dist<(i64, bool)>,
    /// Upper bound on the probability held by cut branches.
    pub truncated_mass: f64,
}

impl KeptDist {
    /// P(success) at `modifier`.
    pub fn p_success(&self, modifier: i64) -> f64 {
        self.dist.prob_where(|(n, _)| succeeds(*n, modifier))
    }

    /// P(the Deva die is kept).
    pub fn p_deva_kept(&self) -> f64 {
        self.dist.prob_where(|(_, d)| *d)
    }
}

/// The exact kept-natural distribution of a test (single d12 or the Trinité's two).
pub fn kept_dist(dual: bool, modifier: i64, rule: DualKeep, depth: u32) -> KeptDist {
    let one = natural_dist(depth);
    if !dual {
        return KeptDist {
            dist: one.dist.map(|n| (*n, false)),
            truncated_mass: one.truncated_mass,
        };
    }
    let t = one.truncated_mass;
    KeptDist {
        dist: one
            .dist
            .combine(&one.dist, |d, a| keep(*d, *a, modifier, rule)),
        truncated_mass: 1.0 - (1.0 - t) * (1.0 - t),
    }
}

/// One sampled test: the kept natural and whether it came from the Deva die.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestRoll {
    pub natural: i64,
    pub deva_kept: bool,
}

impl TestRoll {
    #[inline(always)]
    pub fn succeeds(&self, modifier: i64) -> bool {
        succeeds(self.natural, modifier)
    }
}

/// One exploding d12, unbounded (a run of twelves is as long as the dice say).
#[inline(always)]
pub fn roll_natural(rng: &mut Rng64) -> i64 {
    let mut total = 0;
    loop {
        let r = Die::D12.roll(rng) as i64;
        total += r;
        if r != 12 {
            return total;
        }
    }
}

/// One sampled test; the Deva die is rolled first, then the Archonte.
#[inline(always)]
pub fn roll_test(rng: &mut Rng64, dual: bool, modifier: i64, rule: DualKeep) -> TestRoll {
    let deva = roll_natural(rng);
    if !dual {
        return TestRoll {
            natural: deva,
            deva_kept: false,
        };
    }
    let archonte = roll_natural(rng);
    let (natural, deva_kept) = keep(deva, archonte, modifier, rule);
    TestRoll { natural, deva_kept }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn single_by_hand() {
        let k = kept_dist(false, 0, DualKeep::Highest, EXPLODE_DEPTH);
        // +11: every natural but 1 succeeds.
        assert!(close(k.p_success(11), 11.0 / 12.0));
        // 0: only an exploded 12 (12 + anything) reaches 12.
        assert!(close(k.p_success(0), 1.0 / 12.0));
        // -1: 12 then 1..11 is 13..23, all succeed; so 1/12 again.
        assert!(close(k.p_success(-1), 1.0 / 12.0));
        // -12: needs 24+: 12, 12, anything = 1/144.
        assert!(close(k.p_success(-12), 1.0 / 144.0));
        assert!(close(k.p_success(5), 6.0 / 12.0));
        assert_eq!(k.p_deva_kept(), 0.0);
    }

    #[test]
    fn dual_by_hand() {
        // +6: a die succeeds on 6..12 (7 faces of 12): fail only if both fail, (5/12)^2.
        let k = kept_dist(true, 6, DualKeep::Highest, EXPLODE_DEPTH);
        assert!(close(k.p_success(6), 1.0 - 25.0 / 144.0));
        // Deva kept iff deva >= archonte: (1 + P(equal)) / 2, P(equal) = Σ p².
        let one = natural_dist(EXPLODE_DEPTH).dist;
        let eq: f64 = one.outcomes().iter().map(|(_, p)| p * p).sum();
        assert!((k.p_deva_kept() - (1.0 + eq) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn deva_if_success_keeps_more_deva_same_success() {
        let hi = kept_dist(true, 4, DualKeep::Highest, EXPLODE_DEPTH);
        let dv = kept_dist(true, 4, DualKeep::DevaIfSuccess, EXPLODE_DEPTH);
        assert!(close(hi.p_success(4), dv.p_success(4)));
        assert!(dv.p_deva_kept() > hi.p_deva_kept());
    }

    #[test]
    fn truncation_is_negligible() {
        let e = natural_dist(EXPLODE_DEPTH);
        assert!(e.truncated_mass < 1e-14 && e.truncated_mass > 0.0);
        assert!((e.dist.mass() - 1.0).abs() < 1e-12);
    }
}
