//! Combat dice (F-CD): the standard 2d20 combat die is a d6 with faces 1, 2, 0, 0,
//! 1+Effect, 1+Effect (not printed in fallout-2d20.fr.txt; the decisions file gives it).
//! Damage is the sum of the faces; Effects are counted separately and read by weapon
//! qualities (Vicious, Piercing, Stun).

use crate::dice::{Die, Dist};
use crate::engine::Rng64;

/// (damage, effect) of each face of the combat die, faces 1..6 (F-CD).
pub const CD_FACES: [(u8, u8); 6] = [(1, 0), (2, 0), (0, 0), (0, 0), (1, 1), (1, 1)];
/// Most combat dice in one damage roll (weapon dice plus up to 3 bought), a cap on
/// scenario weapons and on the `fallout-damage` grid.
pub const CD_MAX: u8 = 20;
/// Most extra combat dice bought with AP on one hit (F-CD).
pub const EXTRA_CD_MAX: u8 = 3;

/// The result of one roll of combat dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct CdRoll {
    pub damage: i64,
    pub effects: i64,
}

/// Exact joint distribution of damage and Effects of `n` combat dice.
pub fn cd_dist(n: u8) -> Dist<CdRoll> {
    let one = Dist::die(6).map(|&f| {
        let (d, e) = CD_FACES[(f - 1) as usize];
        CdRoll {
            damage: d as i64,
            effects: e as i64,
        }
    });
    let mut acc = Dist::certain(CdRoll {
        damage: 0,
        effects: 0,
    });
    for _ in 0..n {
        acc = acc.combine(&one, |a, b| CdRoll {
            damage: a.damage + b.damage,
            effects: a.effects + b.effects,
        });
    }
    acc
}

/// Rolls `n` combat dice: (damage, effects). No allocation.
#[inline(always)]
pub fn roll_cd(rng: &mut Rng64, n: u8) -> (u32, u32) {
    let (mut d, mut e) = (0u32, 0u32);
    for _ in 0..n {
        let (fd, fe) = CD_FACES[Die::D6.index(rng) as usize];
        d += fd as u32;
        e += fe as u32;
    }
    (d, e)
}

/// Like [`roll_cd`] (same draws), plus the number of blank dice (faces 0).
pub fn roll_cd_blanks(rng: &mut Rng64, n: u8) -> (u32, u32, u8) {
    let (mut d, mut e, mut b) = (0u32, 0u32, 0u8);
    for _ in 0..n {
        let (fd, fe) = CD_FACES[Die::D6.index(rng) as usize];
        d += fd as u32;
        e += fe as u32;
        b += (fd == 0) as u8;
    }
    (d, e, b)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::stream;

    // F-CD by hand: one die gives 0 (2/6), 1 (3/6, two of them with an Effect), 2 (1/6).
    #[test]
    fn one_die_by_hand() {
        let d = cd_dist(1);
        let dmg = d.map(|r| r.damage);
        assert!((dmg.prob(&0) - 2.0 / 6.0).abs() < 1e-12);
        assert!((dmg.prob(&1) - 3.0 / 6.0).abs() < 1e-12);
        assert!((dmg.prob(&2) - 1.0 / 6.0).abs() < 1e-12);
        assert!((d.map(|r| r.effects).mean() - 2.0 / 6.0).abs() < 1e-12);
        assert!((dmg.mean() - 5.0 / 6.0).abs() < 1e-12);
    }

    // F-CD: two dice, P(damage 4) = P(2,2) = 1/36; P(0) = (2/6)^2.
    #[test]
    fn two_dice_by_hand() {
        let dmg = cd_dist(2).map(|r| r.damage);
        assert!((dmg.prob(&4) - 1.0 / 36.0).abs() < 1e-12);
        assert!((dmg.prob(&0) - 4.0 / 36.0).abs() < 1e-12);
        assert!((cd_dist(5).mass() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn sampler_mean_matches_exact() {
        let mut rng = stream(3, 0, 0);
        let n = 200_000u64;
        let (mut sd, mut se) = (0u64, 0u64);
        for _ in 0..n {
            let (d, e) = roll_cd(&mut rng, 4);
            sd += d as u64;
            se += e as u64;
        }
        // Per-die variance of damage is 17/36 - (5/6)^2 < 0.5: sd of the mean of 4 dice
        // over 200k trials is < 0.0032; 5 sd tolerance.
        assert!((sd as f64 / n as f64 - 4.0 * 5.0 / 6.0).abs() < 0.016);
        assert!((se as f64 / n as f64 - 4.0 / 3.0).abs() < 0.016);
    }
}
