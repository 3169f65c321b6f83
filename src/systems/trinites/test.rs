//! The Trinités test (T-TEST) and the Trinité's two dice (T-DUAL), exact and sampled.

use crate::dice::{Die, Dist};
use crate::engine::Rng64;

use super::DualKeep;

/// A test succeeds when natural + skill + difficulty reaches 12 in the book: "Le test est
/// une réussite lorsque le résultat final est supérieur ou égal à 12" (trinites.fr.txt
/// l. 56; T-TEST). The parameter `trinites_target` moves it (`TrinitesRules::target`);
/// every test, confrontation and exact table reads the one in force.
pub const TARGET: i64 = 12;
/// Range of `trinites_target`: from 2 (only the natural 1 fails at modifier 0) to 24 (an
/// unmodified test needs two twelves), within what the explosion depth covers exactly.
pub const TARGET_MIN: i64 = 2;
pub const TARGET_MAX: i64 = 24;

/// Extra rolls allowed when exact distributions explode the d12: the cut branch has
/// probability 12^-13 ≈ 9.3e-15 per die, and its value (156) succeeds at every modifier
/// the tables cover, so success probabilities are not affected at all.
pub const EXPLODE_DEPTH: u32 = 12;

/// T-TEST: a natural 1 always fails; otherwise success iff natural + modifier >= the
/// target in force (book 12, parameter `trinites_target`).
#[inline(always)]
pub fn succeeds(natural: i64, modifier: i64, target: i64) -> bool {
    natural != 1 && natural + modifier >= target
}

/// The natural result of one exploding d12 (a 12 is rolled again and added, repeatedly).
pub fn natural_dist(depth: u32) -> crate::dice::Exploded {
    Dist::die(12).explode(depth)
}

/// T-DUAL: which die the Trinité keeps, as (natural kept, Deva kept?).
#[inline(always)]
pub fn keep(deva: i64, archonte: i64, modifier: i64, rule: DualKeep, target: i64) -> (i64, bool) {
    match rule {
        DualKeep::DevaIfSuccess if succeeds(deva, modifier, target) => (deva, true),
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
    /// The success target it was computed for (T-TEST).
    pub target: i64,
}

impl KeptDist {
    /// P(success) at `modifier`, against the target of the distribution.
    pub fn p_success(&self, modifier: i64) -> f64 {
        self.dist
            .prob_where(|(n, _)| succeeds(*n, modifier, self.target))
    }

    /// P(the Deva die is kept).
    pub fn p_deva_kept(&self) -> f64 {
        self.dist.prob_where(|(_, d)| *d)
    }
}

/// The exact kept-natural distribution of a test (single d12 or the Trinité's two)
/// against `target` (T-TEST; the Deva-if-success reading depends on it).
pub fn kept_dist(dual: bool, modifier: i64, rule: DualKeep, target: i64, depth: u32) -> KeptDist {
    let one = natural_dist(depth);
    if !dual {
        return KeptDist {
            dist: one.dist.map(|n| (*n, false)),
            truncated_mass: one.truncated_mass,
            target,
        };
    }
    let t = one.truncated_mass;
    KeptDist {
        dist: one
            .dist
            .combine(&one.dist, |d, a| keep(*d, *a, modifier, rule, target)),
        truncated_mass: 1.0 - (1.0 - t) * (1.0 - t),
        target,
    }
}

/// One sampled test: the kept natural and whether it came from the Deva die.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestRoll {
    pub natural: i64,
    pub deva_kept: bool,
}

impl TestRoll {
    /// Success at `modifier` against `target` (T-TEST). The target is not stored in the
    /// roll: two words return in registers, which keeps the samplers' hot loops as fast
    /// as with the book's constant.
    #[inline(always)]
    pub fn succeeds(&self, modifier: i64, target: i64) -> bool {
        succeeds(self.natural, modifier, target)
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

/// One sampled test against `target`; the Deva die is rolled first, then the Archonte.
#[inline(always)]
pub fn roll_test(
    rng: &mut Rng64,
    dual: bool,
    modifier: i64,
    rule: DualKeep,
    target: i64,
) -> TestRoll {
    let deva = roll_natural(rng);
    if !dual {
        return TestRoll {
            natural: deva,
            deva_kept: false,
        };
    }
    let archonte = roll_natural(rng);
    let (natural, deva_kept) = keep(deva, archonte, modifier, rule, target);
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
        let k = kept_dist(false, 0, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
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
        let k = kept_dist(true, 6, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
        assert!(close(k.p_success(6), 1.0 - 25.0 / 144.0));
        // Deva kept iff deva >= archonte: (1 + P(equal)) / 2, P(equal) = Σ p².
        let one = natural_dist(EXPLODE_DEPTH).dist;
        let eq: f64 = one.outcomes().iter().map(|(_, p)| p * p).sum();
        assert!((k.p_deva_kept() - (1.0 + eq) / 2.0).abs() < 1e-12);
    }

    #[test]
    fn deva_if_success_keeps_more_deva_same_success() {
        let hi = kept_dist(true, 4, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
        let dv = kept_dist(true, 4, DualKeep::DevaIfSuccess, TARGET, EXPLODE_DEPTH);
        assert!(close(hi.p_success(4), dv.p_success(4)));
        assert!(dv.p_deva_kept() > hi.p_deva_kept());
    }

    /// `trinites_target` (T-TEST): at target 10 and modifier 0 a single d12 succeeds on
    /// 10, 11 and any exploded 12 (3/12); at 14, only a 12 followed by 2..12 (11/144); the
    /// natural 1 still fails at any target.
    #[test]
    fn target_moves_success_by_hand() {
        let at =
            |t: i64, m: i64| kept_dist(false, m, DualKeep::Highest, t, EXPLODE_DEPTH).p_success(m);
        assert!(close(at(10, 0), 3.0 / 12.0));
        assert!(close(at(14, 0), 11.0 / 144.0));
        assert!(close(at(2, 0), 11.0 / 12.0));
        assert!(close(at(TARGET, 0), 1.0 / 12.0));
        assert!(!succeeds(1, 30, 2));
        // Deva-if-success reads the target in force: at target 10, a Deva 10 is kept over
        // an Archonte 11 (it succeeds); at 12 it is not.
        assert_eq!(keep(10, 11, 0, DualKeep::DevaIfSuccess, 10), (10, true));
        assert_eq!(keep(10, 11, 0, DualKeep::DevaIfSuccess, 12), (11, false));
    }

    #[test]
    fn truncation_is_negligible() {
        let e = natural_dist(EXPLODE_DEPTH);
        assert!(e.truncated_mass < 1e-14 && e.truncated_mass > 0.0);
        assert!((e.dist.mass() - 1.0).abs() < 1e-12);
    }
}
