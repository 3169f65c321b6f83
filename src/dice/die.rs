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
