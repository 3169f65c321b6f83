//! One 2d20 skill test (F-TEST): the per-die reading and the exact pool distribution.

use crate::dice::Dist;
use crate::error::UserError;
use crate::lang::Lang;

/// Lowest and highest target number handled (attribute + skill).
pub const TN_MIN: u8 = 2;
pub const TN_MAX: u8 = 20;
/// Highest difficulty (F-TEST: 0..5).
pub const DIFFICULTY_MAX: u8 = 5;
/// Pool size: 2d20 plus at most 3 bonus dice (F-TEST, F-AP).
pub const DICE_MIN: u8 = 2;
pub const DICE_MAX: u8 = 5;
/// Highest skill rank (a tag skill's crit range).
pub const TAG_RANK_MAX: u8 = 6;
/// Highest face counting two successes on any skill in the book: "Chaque résultat de 1
/// est une réussite critique et compte pour deux réussites" (fallout-2d20.fr.txt l. 21;
/// F-TEST). The parameter `fallout_crit_face` moves it ([`crit_face`]).
pub const CRIT_FACE: u8 = 1;
/// Highest `fallout_crit_face` allowed: the tag rank's own cap, so a crit face never
/// reads wider than the best tag skill.
pub const CRIT_FACE_MAX: u8 = TAG_RANK_MAX;

/// The crit face in force (parameter `fallout_crit_face`, F-TEST), resolved once per run.
pub fn crit_face(o: &crate::rules::RuleOptions) -> u8 {
    o.integer("fallout_crit_face") as u8
}

/// Complication range (marge de complication, fallout-2d20.fr.txt "Table des marges de
/// complication": 1 = 20 only ... 5 = 16-20).
pub const COMPLICATION_MAX: u8 = 5;

/// Lowest face of a complication at the Normale range in the book: "Chaque résultat de 20
/// entraîne une complication" (fallout-2d20.fr.txt l. 25; F-TEST). The parameter
/// `fallout_complication_from` moves it ([`complication_from`]); each step of the range
/// widens the band by one face below it, as the book's table does from 20.
pub const COMPLICATION_FROM: u8 = 20;
/// Range of `fallout_complication_from`: 21 means a Normale test has no complication (a
/// range of 2 then gives 20 only); 11 keeps the widest band (range 5: 7-20) above the
/// lowest TN, so a complication never covers the whole die.
pub const COMPLICATION_FROM_MIN: u8 = 11;
pub const COMPLICATION_FROM_MAX: u8 = 21;

/// The Normale complication face in force (parameter `fallout_complication_from`,
/// F-TEST), resolved once per run.
pub fn complication_from(o: &crate::rules::RuleOptions) -> u8 {
    o.integer("fallout_complication_from") as u8
}

/// How one d20 of a test reads: target number, tag rank (0 = not a tag skill) and
/// complication range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DieSpec {
    pub tn: u8,
    pub tag_rank: u8,
    pub complication: u8,
    /// Faces up to this count two successes on any skill (book 1; `fallout_crit_face`),
    /// when they are also successes (at or under the TN).
    pub crit_face: u8,
    /// Lowest complication face at range 1 (book 20; `fallout_complication_from`); range
    /// `r` makes faces from `complication_from + 1 - r` complications.
    pub complication_from: u8,
}

/// What one d20 gave: successes (0, 1 or 2) and whether it is a complication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Face {
    pub successes: u8,
    pub complication: bool,
}

impl DieSpec {
    /// Checks every value against the rules' ranges.
    pub fn new(lang: Lang, tn: u8, tag_rank: u8, complication: u8) -> Result<DieSpec, UserError> {
        if !(TN_MIN..=TN_MAX).contains(&tn) {
            return Err(UserError::new(tr!(
                lang,
                "fallout.model.tn_range",
                tn,
                min = TN_MIN,
                max = TN_MAX
            )));
        }
        if tag_rank > TAG_RANK_MAX || tag_rank > tn {
            return Err(UserError::new(tr!(
                lang,
                "fallout.model.tag_range",
                rank = tag_rank,
                max = TAG_RANK_MAX.min(tn)
            )));
        }
        if !(1..=COMPLICATION_MAX).contains(&complication) {
            return Err(UserError::new(tr!(
                lang,
                "fallout.model.complication_range",
                range = complication,
                max = COMPLICATION_MAX
            )));
        }
        Ok(DieSpec {
            tn,
            tag_rank,
            complication,
            crit_face: CRIT_FACE,
            complication_from: COMPLICATION_FROM,
        })
    }

    /// The same reading with faces 1..=`crit_face` critical (parameter
    /// `fallout_crit_face`, range checked by the registry).
    pub fn with_crit_face(self, crit_face: u8) -> DieSpec {
        DieSpec { crit_face, ..self }
    }

    /// The same reading with the Normale complication from face `from` (parameter
    /// `fallout_complication_from`, range checked by the registry).
    pub fn with_complication_from(self, from: u8) -> DieSpec {
        DieSpec {
            complication_from: from,
            ..self
        }
    }

    /// Both face parameters in force (`fallout_crit_face`, `fallout_complication_from`).
    pub fn with_faces(self, crit_face: u8, complication_from: u8) -> DieSpec {
        self.with_crit_face(crit_face)
            .with_complication_from(complication_from)
    }

    /// Reads a face 1..=20 (F-TEST): <= TN is 1 success; a 1 (a face <= the crit face in
    /// force and the TN), or a face <= the tag rank of a
    /// tag skill, is 2; a face >= complication_from + 1 - complication range (book: 21 -
    /// range) is a complication (a face can be
    /// both a success and a complication when TN reaches the complication range).
    #[inline]
    pub fn face(&self, r: u8) -> Face {
        // A crit face is a crit only if it is also a success: with the book's 1 it always
        // is (TN >= 2), so the book reading is unchanged.
        let successes = if r <= self.tag_rank || (r <= self.crit_face && r <= self.tn) {
            2
        } else if r <= self.tn {
            1
        } else {
            0
        };
        Face {
            successes,
            // Book: r >= 21 - range (F-TEST); the sum keeps clear of u8 underflow.
            complication: r + self.complication > self.complication_from,
        }
    }

    /// Exact distribution of one die's (successes, complication).
    pub fn dist(&self) -> Dist<Face> {
        Dist::die(20).map(|&r| self.face(r as u8))
    }

    /// Faces 1..=20 packed for sampling: successes in bits 0-1, complication in bit 2.
    pub fn lookup(&self) -> [u8; 20] {
        std::array::from_fn(|i| {
            let f = self.face(i as u8 + 1);
            f.successes | (u8::from(f.complication) << 2)
        })
    }
}

/// What a whole pool gave: total successes and whether any die was a complication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct PoolResult {
    pub successes: i64,
    pub complication: bool,
}

/// Exact distribution of a pool of `dice` d20 read with `spec`.
pub fn pool_dist(spec: &DieSpec, dice: u8) -> Dist<PoolResult> {
    let one = spec.dist();
    let mut acc = Dist::certain(PoolResult {
        successes: 0,
        complication: false,
    });
    for _ in 0..dice {
        acc = acc.combine(&one, |p, f| PoolResult {
            successes: p.successes + f.successes as i64,
            complication: p.complication || f.complication,
        });
    }
    acc
}

/// The three headline numbers of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TestOdds {
    pub p_pass: f64,
    /// Expected action points: successes above the difficulty on a pass, 0 on a failure.
    pub mean_ap: f64,
    pub p_complication: f64,
}

/// Exact P(pass) of `spec` against `difficulty` with 0, 1, 2 and 3 bonus d20 (F-AP), the
/// table a dice-buying policy reads.
pub fn p_pass_by_bonus(spec: &DieSpec, difficulty: u8) -> [f64; 4] {
    std::array::from_fn(|k| odds(&pool_dist(spec, 2 + k as u8), difficulty).p_pass)
}

/// Whether `crit` and `complication_from` are the book's 1 and 20 (F-TEST), under which a
/// model's readings stay as loaded.
pub fn book_faces(crit: u8, complication_from: u8) -> bool {
    (crit, complication_from) == (CRIT_FACE, COMPLICATION_FROM)
}

/// P(pass), E[AP] and P(complication) of a pool distribution against `difficulty`.
pub fn odds(pool: &Dist<PoolResult>, difficulty: u8) -> TestOdds {
    let d = difficulty as i64;
    let mut o = TestOdds {
        p_pass: 0.0,
        mean_ap: 0.0,
        p_complication: 0.0,
    };
    for (r, p) in pool.outcomes() {
        if r.successes >= d {
            o.p_pass += p;
            o.mean_ap += p * (r.successes - d) as f64;
        }
        if r.complication {
            o.p_complication += p;
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force over every ordered roll of `dice` d20.
    fn enumerate(spec: &DieSpec, dice: u32, difficulty: i64) -> TestOdds {
        let n = 20u64.pow(dice);
        let (mut pass, mut ap, mut comp) = (0u64, 0i64, 0u64);
        for mut k in 0..n {
            let (mut s, mut c) = (0i64, false);
            for _ in 0..dice {
                let f = spec.face((k % 20) as u8 + 1);
                k /= 20;
                s += f.successes as i64;
                c |= f.complication;
            }
            if s >= difficulty {
                pass += 1;
                ap += s - difficulty;
            }
            comp += u64::from(c);
        }
        TestOdds {
            p_pass: pass as f64 / n as f64,
            mean_ap: ap as f64 / n as f64,
            p_complication: comp as f64 / n as f64,
        }
    }

    #[test]
    fn pool_matches_brute_force() {
        for (tn, tag, comp) in [(10, 0, 1), (7, 3, 2), (20, 6, 5), (2, 2, 1), (15, 0, 4)] {
            let spec = DieSpec::new(Lang::En, tn, tag, comp).unwrap();
            for dice in 2..=3u8 {
                for d in 0..=5u8 {
                    let e = odds(&pool_dist(&spec, dice), d);
                    let b = enumerate(&spec, dice as u32, d as i64);
                    assert!(
                        (e.p_pass - b.p_pass).abs() < 1e-12,
                        "{tn} {tag} {comp} {dice} {d}"
                    );
                    assert!((e.mean_ap - b.mean_ap).abs() < 1e-12);
                    assert!((e.p_complication - b.p_complication).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn faces_follow_f_test() {
        let s = DieSpec::new(Lang::En, 12, 4, 3).unwrap();
        assert_eq!(s.face(1).successes, 2);
        assert_eq!(s.face(4).successes, 2);
        assert_eq!(s.face(5).successes, 1);
        assert_eq!(s.face(12).successes, 1);
        assert_eq!(s.face(13).successes, 0);
        assert!(!s.face(17).complication && s.face(18).complication && s.face(20).complication);
    }

    /// `fallout_crit_face` (F-TEST): faces up to it count two successes when they are also
    /// at or under the TN; the book's 1 is the reading of every earlier version.
    #[test]
    fn crit_face_widens_the_double_successes() {
        let book = DieSpec::new(Lang::En, 10, 0, 1).unwrap();
        assert_eq!(book.with_crit_face(CRIT_FACE), book);
        let wide = book.with_crit_face(3);
        let two = |s: &DieSpec| (1..=20).filter(|&r| s.face(r).successes == 2).count();
        assert_eq!((two(&book), two(&wide)), (1, 3));
        // TN 2 under crit face 3: a 3 is a failure, not a crit.
        let low = DieSpec::new(Lang::En, 2, 0, 1).unwrap().with_crit_face(3);
        assert_eq!((low.face(2).successes, low.face(3).successes), (2, 0));
        // The exact pool still matches enumeration under the new value.
        for d in 0..=4u8 {
            let e = odds(&pool_dist(&wide, 3), d);
            let b = enumerate(&wide, 3, d as i64);
            assert!((e.p_pass - b.p_pass).abs() < 1e-12 && (e.mean_ap - b.mean_ap).abs() < 1e-12);
        }
    }

    /// `fallout_complication_from` (F-TEST): the Normale band starts at it and each step
    /// of the range adds the face below, as the book's table does from 20 (l. 47-52).
    #[test]
    fn complication_from_moves_the_band() {
        let comp = |s: &DieSpec| {
            (1..=20)
                .filter(|&r| s.face(r).complication)
                .collect::<Vec<u8>>()
        };
        for range in 1..=5u8 {
            let book = DieSpec::new(Lang::En, 10, 0, range).unwrap();
            assert_eq!(book.with_complication_from(COMPLICATION_FROM), book);
            assert_eq!(comp(&book), (21 - range..=20).collect::<Vec<_>>());
            let s = book.with_complication_from(18);
            assert_eq!(comp(&s), (19 - range..=20).collect::<Vec<_>>());
            let none = book.with_complication_from(21);
            assert_eq!(comp(&none), (22 - range..=20).collect::<Vec<_>>());
        }
        let wide = DieSpec::new(Lang::En, 8, 0, 2)
            .unwrap()
            .with_complication_from(16);
        for d in 0..=3u8 {
            let e = odds(&pool_dist(&wide, 3), d);
            let b = enumerate(&wide, 3, d as i64);
            assert!((e.p_complication - b.p_complication).abs() < 1e-12);
            assert!((e.p_pass - b.p_pass).abs() < 1e-12);
        }
    }

    #[test]
    fn ranges_are_checked() {
        assert!(DieSpec::new(Lang::En, 1, 0, 1).is_err());
        assert!(DieSpec::new(Lang::En, 21, 0, 1).is_err());
        assert!(DieSpec::new(Lang::En, 5, 6, 1)
            .unwrap_err()
            .0
            .contains("allowed: 0..5"));
        assert!(DieSpec::new(Lang::En, 10, 0, 6).is_err());
        assert!(DieSpec::new(Lang::En, 10, 0, 0).is_err());
    }
}
