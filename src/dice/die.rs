use rand::distr::Distribution;
use rand::Rng;

use super::{DiceError, Dist};

/// A fair die with faces `1..=faces`, sampled without bias.
///
/// Sampling uses Lemire's multiply-and-reject method: one 64-bit draw and one widening
/// multiply per roll; the rejection branch is taken with probability `faces / 2^64`, so it
/// never costs time but keeps every face exactly equiprobable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Die {
    faces: u64,
    reject_below: u64,
    /// `2^32 mod faces`: the 32-bit rejection bound of [`Die::index_pair`], computed once
    /// here rather than once per pair of dice.
    reject_below32: u32,
}

impl Die {
    pub const D4: Die = Die::known(4);
    pub const D6: Die = Die::known(6);
    pub const D8: Die = Die::known(8);
    pub const D10: Die = Die::known(10);
    pub const D12: Die = Die::known(12);
    pub const D20: Die = Die::known(20);
    pub const D100: Die = Die::known(100);

    pub(crate) const fn known(faces: u64) -> Die {
        Die {
            faces,
            reject_below: faces.wrapping_neg() % faces,
            reject_below32: if faces < 1 << 32 {
                (faces as u32).wrapping_neg() % faces as u32
            } else {
                0
            },
        }
    }

    /// A die with `faces` faces (at least 1).
    pub fn new(faces: u64) -> Result<Die, DiceError> {
        if faces == 0 {
            return Err(DiceError::NoFaces(faces));
        }
        Ok(Die::known(faces))
    }

    pub fn faces(&self) -> u64 {
        self.faces
    }

    /// A uniform index in `0..faces`.
    #[inline(always)]
    pub fn index<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        let mut m = (rng.next_u64() as u128) * (self.faces as u128);
        while (m as u64) < self.reject_below {
            m = (rng.next_u64() as u128) * (self.faces as u128);
        }
        (m >> 64) as u64
    }

    /// Two independent uniform indices in `0..faces` from one 64-bit draw, one per
    /// 32-bit half (Lemire's multiply-and-reject on 32 bits; `faces` below 2^16). A half
    /// whose leftover would bias a face (probability `faces / 2^32`) is replaced by a
    /// roll of its own, so both stay exactly uniform. The two multiplies are
    /// independent, so a pool of dice costs half the draws at the same latency.
    #[inline(always)]
    pub fn index_pair<R: Rng + ?Sized>(&self, rng: &mut R) -> (u64, u64) {
        debug_assert!(self.faces < 1 << 16);
        let r = rng.next_u64();
        let half = |h: u64| {
            let m = h * self.faces;
            ((m >> 32), (m as u32) >= self.reject_below32)
        };
        let (a, a_ok) = half(r & 0xFFFF_FFFF);
        let (b, b_ok) = half(r >> 32);
        let a = if a_ok { a } else { self.index(rng) };
        let b = if b_ok { b } else { self.index(rng) };
        (a, b)
    }

    /// A face in `1..=faces`.
    #[inline(always)]
    pub fn roll<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        self.index(rng) + 1
    }

    /// The exact distribution of one roll.
    pub fn dist(&self) -> Dist<i64> {
        Dist::die(self.faces)
    }
}

impl Distribution<u64> for Die {
    fn sample<R: Rng + ?Sized>(&self, rng: &mut R) -> u64 {
        self.roll(rng)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn index_pairs_are_uniform_and_independent() {
        use rand::SeedableRng;
        let d = Die::new(5).unwrap();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(9);
        // 25 cells, each 1/25.
        let n = 500_000u64;
        let mut cells = [0u64; 25];
        for _ in 0..n {
            let (a, b) = d.index_pair(&mut rng);
            cells[(a * 5 + b) as usize] += 1;
        }
        let p = 1.0 / 25.0;
        let sd = (n as f64 * p * (1.0 - p)).sqrt();
        for c in cells {
            assert!((c as f64 - n as f64 * p).abs() < 5.0 * sd, "{cells:?}");
        }
    }

    #[test]
    fn index_pairs_read_each_half_and_reroll_a_biased_one() {
        // Low half 2^31 (one half): d20 index 10, leftover 0, below 2^32 mod 20 = 16, so it
        // is rerolled from the next draw (2^62 + 1 -> 5). High half 2^30 + 1: index 5,
        // leftover 20, kept.
        struct Seq(Vec<u64>);
        impl rand::TryRng for Seq {
            type Error = core::convert::Infallible;
            fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
                Ok(self.0.remove(0) as u32)
            }
            fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
                Ok(self.0.remove(0))
            }
            fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
                for b in dst {
                    *b = self.0.remove(0) as u8;
                }
                Ok(())
            }
        }
        let mut rng = Seq(vec![((1u64 << 30) + 1) << 32 | 1 << 31, (1 << 62) + 1]);
        assert_eq!(Die::D20.index_pair(&mut rng), (5, 5));
        assert!(rng.0.is_empty());
    }

    use super::*;
    use crate::engine::stream;

    #[test]
    fn faces_stay_in_range_and_cover_all() {
        let mut rng = stream(1, 0, 0);
        let mut seen = [0u32; 7];
        for _ in 0..10_000 {
            let r = Die::D6.roll(&mut rng) as usize;
            assert!((1..=6).contains(&r));
            seen[r] += 1;
        }
        assert!(seen[1..].iter().all(|&c| c > 1400 && c < 1950), "{seen:?}");
    }

    #[test]
    fn zero_faces_is_rejected() {
        assert_eq!(Die::new(0), Err(DiceError::NoFaces(0)));
        assert_eq!(Die::new(100).unwrap(), Die::D100);
    }

    #[test]
    fn one_face_always_rolls_one() {
        let mut rng = stream(3, 0, 0);
        let d1 = Die::new(1).unwrap();
        assert!((0..100).all(|_| d1.roll(&mut rng) == 1));
    }
}
