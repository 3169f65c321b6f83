//! Miss Fortune (F-LUCK): one Luck point rerolls one d20; the new result stands.
//!
//! Policy modelled (a player's choice, not a rule): spend the point only when the test
//! failed and some die gave no success; reroll that die (the highest such die, which is
//! the one most likely to be a complication). Which zero-success die is rerolled does not
//! change the successes, so P(pass) and E[AP] do not depend on that tie-break.

use crate::dice::Dist;

use super::test::DieSpec;

/// Exact effect of one Miss Fortune reroll on a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LuckOdds {
    /// P(pass) with the reroll policy.
    pub p_pass: f64,
    /// E[AP] with the reroll policy (0 on a failed test).
    pub mean_ap: f64,
    /// P(the point is spent): the first roll failed and had a zero-success die.
    pub p_spent: f64,
}

/// P(pass), E[AP] and P(spent) of a `dice`-die test at `difficulty` with one reroll.
pub fn luck_odds(spec: &DieSpec, dice: u8, difficulty: u8) -> LuckOdds {
    let d = difficulty as i64;
    let one = spec.dist();
    // State: (successes, whether some die gave no success).
    let mut pool: Dist<(i64, bool)> = Dist::certain((0, false));
    for _ in 0..dice {
        pool = pool.combine(&one, |&(s, z), f| {
            (s + f.successes as i64, z || f.successes == 0)
        });
    }
    let mut o = LuckOdds {
        p_pass: 0.0,
        mean_ap: 0.0,
        p_spent: 0.0,
    };
    for &((s, zero), p) in pool.outcomes() {
        if s >= d {
            o.p_pass += p;
            o.mean_ap += p * (s - d) as f64;
        } else if zero {
            o.p_spent += p;
            // The rerolled die gave 0, so the others hold all `s` successes.
            for (f, q) in one.outcomes() {
                let t = s + f.successes as i64;
                if t >= d {
                    o.p_pass += p * q;
                    o.mean_ap += p * q * (t - d) as f64;
                }
            }
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn one_die_short_by_hand() {
        // TN 10, difficulty 2, 2d20, no tag. One success and one zero die (a 2..10 and an
        // 11..20): 2 * 0.45 * 0.5 = 0.45; the reroll then passes with P(die <= 10) = 0.5.
        // Both dice zero: 0.25; only a rerolled 1 (2 successes) passes: 0.05.
        let spec = DieSpec::new(Lang::En, 10, 0, 1).unwrap();
        let o = luck_odds(&spec, 2, 2);
        // P(pass) without luck: 1 - P(S <= 1). S = 0: 0.25; S = 1: 2 * 0.45 * 0.5 = 0.45.
        let p0 = 1.0 - 0.25 - 0.45;
        assert!(
            (o.p_pass - (p0 + 0.45 * 0.5 + 0.25 * 0.05)).abs() < 1e-12,
            "{o:?}"
        );
        assert!((o.p_spent - 0.70).abs() < 1e-12);
    }

    #[test]
    fn matches_brute_force() {
        let spec = DieSpec::new(Lang::En, 8, 3, 1).unwrap();
        for d in 0..=5u8 {
            let (mut pass, mut ap) = (0.0f64, 0.0f64);
            for a in 1..=20u8 {
                for b in 1..=20u8 {
                    for c in 1..=20u8 {
                        let f = [spec.face(a), spec.face(b), spec.face(c)];
                        let s: i64 = f.iter().map(|x| x.successes as i64).sum();
                        if s >= d as i64 {
                            pass += 1.0;
                            ap += (s - d as i64) as f64;
                        } else if f.iter().any(|x| x.successes == 0) {
                            for r in 1..=20u8 {
                                let t = s + spec.face(r).successes as i64;
                                if t >= d as i64 {
                                    pass += 0.05;
                                    ap += 0.05 * (t - d as i64) as f64;
                                }
                            }
                        }
                    }
                }
            }
            let o = luck_odds(&spec, 3, d);
            assert!((o.p_pass - pass / 8000.0).abs() < 1e-12, "difficulty {d}");
            assert!((o.mean_ap - ap / 8000.0).abs() < 1e-12);
        }
    }
}
