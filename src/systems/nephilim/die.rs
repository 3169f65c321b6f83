//! The D die and the +1D-1D roll (N-DIE).

use crate::dice::{Die, Dist};
use crate::engine::Rng64;

/// Which die plays D (rule option `die`, N-DIE).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DieKind {
    /// Faces 0,1,2,2,3,4 (nephilim-v3.fr.txt, "Le système de jeu", step 4).
    Nephilim,
    /// A plain d6: "plus héroïque", crits at +-5 ("Histoires de dés").
    D6,
    /// A plain d4: "moins héroïque", crits at +-3 ("Histoires de dés").
    D4,
}

const NEPHILIM_FACES: [i64; 6] = [0, 1, 2, 2, 3, 4];
const D6_FACES: [i64; 6] = [1, 2, 3, 4, 5, 6];
const D4_FACES: [i64; 4] = [1, 2, 3, 4];

impl DieKind {
    /// Every die option, in the order tables list them.
    pub const ALL: [DieKind; 3] = [DieKind::Nephilim, DieKind::D6, DieKind::D4];

    /// The option value naming this die.
    pub fn name(self) -> &'static str {
        match self {
            DieKind::Nephilim => "nephilim",
            DieKind::D6 => "d6",
            DieKind::D4 => "d4",
        }
    }

    /// The die named `s` (option value), if any.
    pub fn parse(s: &str) -> Option<DieKind> {
        DieKind::ALL.into_iter().find(|d| d.name() == s)
    }

    /// The faces of one D.
    pub fn faces(self) -> &'static [i64] {
        match self {
            DieKind::Nephilim => &NEPHILIM_FACES,
            DieKind::D6 => &D6_FACES,
            DieKind::D4 => &D4_FACES,
        }
    }

    /// The raw +1D-1D result that is critical (its negative too): the largest possible.
    pub fn crit(self) -> i64 {
        let f = self.faces();
        f[f.len() - 1] - f[0]
    }

    /// Exact distribution of one D.
    pub fn dist(self) -> Dist<i64> {
        Dist::faces(self.faces()).expect("die faces are program constants")
    }

    /// Exact distribution of +1D-1D.
    pub fn roll_dist(self) -> Dist<i64> {
        let d = self.dist();
        d.sub(&d)
    }

    /// A sampler for Monte Carlo runs.
    pub fn sampler(self) -> DSampler {
        let faces = self.faces();
        DSampler {
            die: Die::new(faces.len() as u64).expect("dice have faces"),
            faces,
        }
    }
}

/// Draws D and +1D-1D without allocation.
#[derive(Clone, Copy, Debug)]
pub struct DSampler {
    die: Die,
    faces: &'static [i64],
}

impl DSampler {
    #[inline(always)]
    pub fn d(&self, rng: &mut Rng64) -> i64 {
        self.faces[self.die.index(rng) as usize]
    }

    /// One +1D-1D.
    #[inline(always)]
    pub fn roll(&self, rng: &mut Rng64) -> i64 {
        self.d(rng) - self.d(rng)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crit_values_follow_n_die() {
        assert_eq!(DieKind::Nephilim.crit(), 4);
        assert_eq!(DieKind::D6.crit(), 5);
        assert_eq!(DieKind::D4.crit(), 3);
    }

    #[test]
    fn sixes_counted_as_threes_give_the_same_difference() {
        // "utiliser des dés à six faces normaux et compter les 6 comme des 3".
        let d = Dist::faces(&[1, 2, 3, 4, 5, 3]).unwrap();
        let diff = d.sub(&d);
        let neph = DieKind::Nephilim.roll_dist();
        for x in -4..=4 {
            assert!((diff.prob(&x) - neph.prob(&x)).abs() < 1e-15);
        }
    }

    #[test]
    fn roll_ranges() {
        for k in DieKind::ALL {
            let r = k.roll_dist();
            assert_eq!((r.min_value(), r.max_value()), (-k.crit(), k.crit()));
            assert!((r.mean()).abs() < 1e-12);
        }
    }
}
