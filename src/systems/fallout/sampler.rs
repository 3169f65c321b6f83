//! Rolling 2d20 pools (F-TEST, F-LUCK): one table lookup per die, rerolls of the dice
//! without success, and whole pools coded for a tally. The exact reading is `test.rs`.

use crate::dice::Die;
use crate::engine::Rng64;

use super::test::DieSpec;

/// Rolls pools quickly: one table lookup per die.
#[derive(Clone, Copy, Debug)]
pub struct PoolSampler {
    lookup: [u8; 20],
}

impl PoolSampler {
    pub fn new(spec: &DieSpec) -> PoolSampler {
        PoolSampler {
            lookup: spec.lookup(),
        }
    }

    /// Rolls one die: its face (1..=20) and (successes, complication as 0/1).
    #[inline(always)]
    fn roll(&self, rng: &mut Rng64) -> (u8, u8, u8) {
        let i = Die::D20.index(rng) as usize;
        let v = self.lookup[i];
        (i as u8 + 1, v & 3, v >> 2)
    }

    /// Rolls one die: (successes, complication as 0/1).
    #[inline(always)]
    pub fn die(&self, rng: &mut Rng64) -> (u8, u8) {
        let (_, s, c) = self.roll(rng);
        (s, c)
    }

    /// [`PoolSampler::die`] with its face first (1..=20): the same draw, for a trace that
    /// shows a rerolled die (audit of 2026-12-07).
    #[inline(always)]
    pub fn die_face(&self, rng: &mut Rng64) -> (u8, u8, u8) {
        self.roll(rng)
    }

    /// Rolls `dice` dice that a reroll may touch: see [`Rerollable`].
    #[inline(always)]
    pub fn pool_zeros(&self, rng: &mut Rng64, dice: u8) -> Rerollable {
        self.pool_zeros_seen(rng, dice, |_, _, _| {})
    }

    /// [`PoolSampler::pool_zeros`], showing `seen` each die as [`PoolSampler::pool_seen`]
    /// does (the firefight's trace, where a die may be rerolled).
    #[inline(always)]
    pub fn pool_zeros_seen(
        &self,
        rng: &mut Rng64,
        dice: u8,
        mut seen: impl FnMut(u8, u8, u8),
    ) -> Rerollable {
        let mut r = Rerollable::default();
        for _ in 0..dice {
            let (f, a, b) = self.roll(rng);
            seen(f, a, b);
            r.successes += a;
            if a == 0 {
                r.zeros += 1;
                r.zero_complications += b;
            } else {
                r.kept_complication |= b;
            }
        }
        r
    }

    /// The same law as [`PoolSampler::pool`], two dice per 64-bit draw
    /// ([`Die::index_pair`]): the table's Monte Carlo cross-check, where the dice are the
    /// whole trial, spends half the draws (issue 28: report time).
    #[inline(always)]
    pub fn pool_paired(&self, rng: &mut Rng64, dice: u8) -> (u8, u8) {
        let (mut s, mut c) = (0u8, 0u8);
        let mut add = |i: u64| {
            let v = self.lookup[i as usize];
            s += v & 3;
            c |= v >> 2;
        };
        for _ in 0..dice / 2 {
            let (a, b) = Die::D20.index_pair(rng);
            add(a);
            add(b);
        }
        if dice % 2 == 1 {
            add(Die::D20.index(rng));
        }
        (s, c)
    }

    /// Rolls `dice` dice: (total successes, 1 if any complication).
    #[inline(always)]
    pub fn pool(&self, rng: &mut Rng64, dice: u8) -> (u8, u8) {
        self.pool_seen(rng, dice, |_, _, _| {})
    }

    /// [`PoolSampler::pool`], showing `seen` each die as rolled: its face (1..=20), its
    /// successes and whether it is a complication (0/1) (F-TEST). A trace reads the dice
    /// here (`cosmosim trace`, issue 27); the batch passes a closure that does nothing.
    #[inline(always)]
    pub fn pool_seen(
        &self,
        rng: &mut Rng64,
        dice: u8,
        mut seen: impl FnMut(u8, u8, u8),
    ) -> (u8, u8) {
        let (mut s, mut c) = (0u8, 0u8);
        for _ in 0..dice {
            let (f, a, b) = self.roll(rng);
            seen(f, a, b);
            s += a;
            c |= b;
        }
        (s, c)
    }
}

/// A pool rolled where a die without success may be rerolled (aiming, Miss Fortune):
/// F-LUCK "Vous devez accepter ce nouveau résultat" (fallout l.119), so a rerolled
/// complication is gone and the new die's own counts instead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rerollable {
    /// Successes of every die so far.
    pub successes: u8,
    /// 1 if a die that will not be rerolled (it scored, or was rerolled already) is a
    /// complication.
    pub kept_complication: u8,
    /// Dice without success, not rerolled yet.
    pub zeros: u8,
    /// How many of those are complications.
    pub zero_complications: u8,
}

impl Rerollable {
    /// Rerolls the highest die without success (the Luck table's "ce dé (le plus haut)";
    /// complication faces are the highest, so a complication goes first) into a die
    /// showing `successes` and `complication`. The caller checks `zeros > 0`.
    #[inline(always)]
    pub fn reroll(&mut self, successes: u8, complication: u8) {
        self.zeros -= 1;
        self.zero_complications = self.zero_complications.saturating_sub(1);
        self.successes += successes;
        self.kept_complication |= complication;
    }

    /// 1 if some die shows a complication now.
    #[inline(always)]
    pub fn complication(&self) -> u8 {
        self.kept_complication | (self.zero_complications > 0) as u8
    }
}

/// Pools of at most [`POOL_CODE_DICE`] dice rolled for a tally (issue 28: the table's
/// Monte Carlo cross-check): each pair of dice that [`PoolSampler::pool_paired`] draws is
/// read in one lookup, and the whole pool comes out as one small code to count, with the
/// same draws in the same order.
#[derive(Clone, Debug)]
pub struct PoolCodes {
    /// The code of a pair of faces, by `a * 20 + b` (indices 0..20 of the first and second
    /// die); the table is a power of two long so a masked index needs no bounds check.
    pair: [u8; 512],
    /// The code of one face, by its index 0..20.
    one: [u8; 32],
}

/// Most dice [`PoolCodes`] rolls: their code stays below [`POOL_CODES`].
pub const POOL_CODE_DICE: u8 = 5;
/// How many pool codes there are: successes (at most 10) in bits 0-3, the number of
/// pairs or lone dice with a complication (at most 3) from bit 4.
pub const POOL_CODES: usize = 64;

impl PoolCodes {
    pub fn new(sampler: &PoolSampler) -> PoolCodes {
        // Successes, and a complication counted once per pair or lone die (so a pool's
        // sum stays in its bits).
        let code = |s: u8, c: u8| s | c << 4;
        let l = &sampler.lookup;
        let mut p = PoolCodes {
            pair: [0; 512],
            one: [0; 32],
        };
        for a in 0..20 {
            p.one[a] = code(l[a] & 3, l[a] >> 2);
            for b in 0..20 {
                p.pair[a * 20 + b] = code((l[a] & 3) + (l[b] & 3), (l[a] | l[b]) >> 2);
            }
        }
        p
    }

    /// Rolls `DICE` dice (at most [`POOL_CODE_DICE`]) as [`PoolSampler::pool_paired`]
    /// does: their code.
    #[inline(always)]
    pub fn pool<const DICE: u8>(&self, rng: &mut Rng64) -> u8 {
        const { assert!(DICE <= POOL_CODE_DICE) };
        let mut code = 0u8;
        for _ in 0..DICE / 2 {
            let (a, b) = Die::D20.index_pair(rng);
            code += self.pair[(a * 20 + b) as usize & 511];
        }
        if DICE % 2 == 1 {
            code += self.one[Die::D20.index(rng) as usize & 31];
        }
        code
    }

    /// A code's total successes and whether the pool had a complication (0/1).
    #[inline]
    pub fn read(code: usize) -> (usize, u64) {
        (code & 15, u64::from(code >= 16))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    /// F-LUCK "Vous devez accepter ce nouveau résultat": a reroll takes a complication
    /// without success first, and what it shows replaces it.
    #[test]
    fn a_reroll_replaces_a_complication_first() {
        // A 20 (complication), a 15 (no success), a 3 (a success) at TN 11.
        let mut r = Rerollable {
            successes: 1,
            kept_complication: 0,
            zeros: 2,
            zero_complications: 1,
        };
        assert_eq!(r.complication(), 1);
        r.reroll(1, 0);
        assert_eq!((r.successes, r.zeros, r.complication()), (2, 1, 0));
        // The 15 rerolled into a 20: that complication stays, the die cannot go again.
        r.reroll(0, 1);
        assert_eq!((r.successes, r.zeros, r.complication()), (2, 0, 1));
    }

    /// Every pool of up to five dice codes as [`PoolSampler::pool_paired`] reads it, on
    /// the same draws: specs with crits, tags and complications on both sides of the TN.
    #[test]
    fn pool_codes_match_pool_paired() {
        use rand::SeedableRng;
        for (tn, tag, comp, crit, from) in [
            (10, 0, 1, 1, 20),
            (7, 3, 2, 2, 18),
            (20, 6, 5, 1, 20),
            (2, 2, 1, 3, 21),
            (15, 0, 4, 1, 16),
        ] {
            let spec = DieSpec::new(Lang::En, tn, tag, comp)
                .unwrap()
                .with_faces(crit, from);
            let sampler = PoolSampler::new(&spec);
            let codes = PoolCodes::new(&sampler);
            let mut seen = [false; POOL_CODES];
            fn check<const D: u8>(s: &PoolSampler, c: &PoolCodes, seen: &mut [bool]) {
                let mut a = Rng64::seed_from_u64(u64::from(D));
                let mut b = a.clone();
                for _ in 0..20_000 {
                    let code = usize::from(c.pool::<D>(&mut a));
                    let (succ, comp) = s.pool_paired(&mut b, D);
                    assert!(code < POOL_CODES);
                    assert_eq!(
                        PoolCodes::read(code),
                        (usize::from(succ), u64::from(comp)),
                        "{D}"
                    );
                    seen[code] = true;
                }
                assert_eq!(a, b);
            }
            check::<1>(&sampler, &codes, &mut seen);
            check::<2>(&sampler, &codes, &mut seen);
            check::<3>(&sampler, &codes, &mut seen);
            check::<4>(&sampler, &codes, &mut seen);
            check::<5>(&sampler, &codes, &mut seen);
            // Even TN 2 with no complication (successes 0, 2, 4...) shows five codes.
            assert!(
                seen.iter().filter(|&&x| x).count() >= 5,
                "{tn} {tag} {comp}"
            );
        }
    }
}
