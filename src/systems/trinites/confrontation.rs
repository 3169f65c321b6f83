//! Exact confrontations (T-CONF): side A acts, side B opposes (prevents the action).

use super::{kept_dist, succeeds, DualKeep};

/// One side of a confrontation: P(failure) and P(success with each final result).
#[derive(Clone, Debug)]
pub struct SideDist {
    pub p_fail: f64,
    /// (final result >= the target, probability), ascending.
    pub success: Vec<(i64, f64)>,
    pub truncated_mass: f64,
}

/// The exact result distribution of one side's test against `target` (T-TEST, book 12).
pub fn side_dist(dual: bool, modifier: i64, rule: DualKeep, target: i64, depth: u32) -> SideDist {
    let k = kept_dist(dual, modifier, rule, target, depth);
    let mut p_fail = 0.0;
    let mut success: Vec<(i64, f64)> = Vec::new();
    for ((natural, _), p) in k.dist.outcomes() {
        if succeeds(*natural, modifier, target) {
            let f = natural + modifier;
            match success.last_mut() {
                Some((last, q)) if *last == f => *q += p,
                _ => success.push((f, *p)),
            }
        } else {
            p_fail += p;
        }
    }
    // Outcomes are sorted by (natural, deva) so finals are already ascending.
    SideDist {
        p_fail,
        success,
        truncated_mass: k.truncated_mass,
    }
}

/// Probabilities of a confrontation's three endings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConfOutcome {
    pub a_wins: f64,
    pub b_wins: f64,
    pub nobody: f64,
}

/// T-CONF: a side with final >= the target (book 12) wins; both: the higher final wins; equal finals: B,
/// the side preventing the action, wins; neither: nobody.
pub fn confront(a: &SideDist, b: &SideDist) -> ConfOutcome {
    let mut a_wins = 0.0;
    let mut b_wins = 0.0;
    // a_wins: Σ pa(f)·(b fails + P(b succeeds below f)); two pointers over ascending finals.
    let mut below = 0.0;
    let mut j = 0;
    for &(f, pa) in &a.success {
        while j < b.success.len() && b.success[j].0 < f {
            below += b.success[j].1;
            j += 1;
        }
        a_wins += pa * (b.p_fail + below);
    }
    let mut at_or_below = 0.0;
    let mut i = 0;
    for &(g, pb) in &b.success {
        while i < a.success.len() && a.success[i].0 <= g {
            at_or_below += a.success[i].1;
            i += 1;
        }
        b_wins += pb * (a.p_fail + at_or_below);
    }
    ConfOutcome {
        a_wins,
        b_wins,
        nobody: a.p_fail * b.p_fail,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::trinites::{EXPLODE_DEPTH, TARGET};

    #[test]
    fn sums_to_one_and_ties_go_to_b() {
        let a = side_dist(false, 3, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
        let o = confront(&a, &a);
        assert!((o.a_wins + o.b_wins + o.nobody - 1.0).abs() < 1e-12);
        // Symmetric sides: B gets the ties, so B wins more.
        assert!(o.b_wins > o.a_wins);
    }

    #[test]
    fn by_hand_modifier_11_against_minus_12() {
        // B at -12 succeeds only on 12,12,x (final >= 12 needs natural >= 24).
        let a = side_dist(false, 11, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
        let b = side_dist(false, -12, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
        let o = confront(&a, &b);
        assert!((o.nobody - (1.0 / 12.0) * (1.0 - 1.0 / 144.0)).abs() < 1e-12);
    }
}
