//! Help (F-HELP): a helper rolls 1d20 on its own target number; its successes count only
//! if the leader scores at least one. Crits and complications as usual.

use crate::dice::Dist;

use super::test::{pool_dist, DieSpec, PoolResult};

/// Exact distribution of a leader's `dice`-die pool plus one helper's d20.
pub fn helped_dist(leader: &DieSpec, dice: u8, helper: &DieSpec) -> Dist<PoolResult> {
    pool_dist(leader, dice).combine(&helper.dist(), |p, f| PoolResult {
        // F-HELP: the helper's successes need at least one from the leader.
        successes: p.successes
            + if p.successes >= 1 {
                f.successes as i64
            } else {
                0
            },
        complication: p.complication || f.complication,
    })
}

#[cfg(test)]
mod tests {
    use super::super::test::odds;
    use super::*;
    use crate::lang::Lang;

    #[test]
    fn helper_counts_only_after_a_leader_success() {
        // Leader TN 2, helper TN 20, difficulty 1: pass iff a leader die <= 2
        // (the helper can never pass the test alone).
        let leader = DieSpec::new(Lang::En, 2, 0, 1).unwrap();
        let helper = DieSpec::new(Lang::En, 20, 0, 1).unwrap();
        let o = odds(&helped_dist(&leader, 2, &helper), 1);
        assert!((o.p_pass - (1.0 - 0.9f64 * 0.9)).abs() < 1e-12);
    }

    #[test]
    fn matches_brute_force() {
        let leader = DieSpec::new(Lang::En, 9, 2, 2).unwrap();
        let helper = DieSpec::new(Lang::En, 13, 0, 2).unwrap();
        for d in 0..=5u8 {
            let (mut pass, mut comp) = (0u32, 0u32);
            for a in 1..=20u8 {
                for b in 1..=20u8 {
                    for h in 1..=20u8 {
                        let fs = [leader.face(a), leader.face(b)];
                        let ls: u8 = fs.iter().map(|f| f.successes).sum();
                        let hf = helper.face(h);
                        let s = ls + if ls > 0 { hf.successes } else { 0 };
                        pass += u32::from(s >= d);
                        comp += u32::from(fs.iter().any(|f| f.complication) || hf.complication);
                    }
                }
            }
            let o = odds(&helped_dist(&leader, 2, &helper), d);
            assert!(
                (o.p_pass - pass as f64 / 8000.0).abs() < 1e-12,
                "difficulty {d}"
            );
            assert!((o.p_complication - comp as f64 / 8000.0).abs() < 1e-12);
        }
    }
}
