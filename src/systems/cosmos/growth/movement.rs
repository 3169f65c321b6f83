//! Movement and sprint (C-MOVE), with overload (C-INV) and FP fatigue (C-FAT-4).
//! Source: cosmos-current.fr.txt, "Règle de déplacement".

use crate::systems::cosmos::{Outcome, SpecError, TestRules, TestSpec};

use super::fatigue::FatigueState;
use super::{inventory, GrowthRules, OverloadAgility, SprintFatigueOrder};

/// Who moves: Agilité, Force and load (for overload), FP, karma.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mover {
    pub agility: i32,
    pub force: i32,
    pub load: i32,
    pub fp: i32,
    pub karma: i8,
}

/// Distances (grid units) by sprint outcome and their exact chances.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveResult {
    /// Move of a normal turn (move then act, or act then move).
    pub walk: i32,
    /// Sprint distance after a failed / successful / crit / super Agilité test.
    pub sprint: [i32; 4],
    /// P(failed or worse), P(plain success), P(crit success), P(super success).
    pub p: [f64; 4],
}

impl MoveResult {
    /// Expected distance of a sprint.
    pub fn expected_sprint(&self) -> f64 {
        (0..4).map(|i| self.sprint[i] as f64 * self.p[i]).sum()
    }
}

/// Manhattan grid distance (C-MOVE: never diagonal).
pub fn grid_distance(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// Move per turn before maluses: ceil(Agilité / 20) (C-MOVE).
pub fn base_move(agility: i32) -> i32 {
    (agility.max(0) + 19) / 20
}

/// Multiplies `m` by the sprint factor of `tier` (0 failure: x1, 1: x2, 2 crit: x2.5,
/// 3 super: x3), floored (C-MOVE).
pub fn sprint_factor(m: i32, tier: usize) -> i32 {
    match tier {
        1 => 2 * m,
        2 => 5 * m / 2,
        3 => 3 * m,
        _ => m,
    }
}

/// Walk and sprint distances of `who`, exactly.
pub fn movement(
    who: &Mover,
    rules: &TestRules,
    growth: &GrowthRules,
) -> Result<MoveResult, SpecError> {
    let state = rules.fatigue.state(who.fp);
    let over_malus = inventory::agility_malus(who.force, who.load);
    let overloaded = inventory::overloaded(who.force, who.load);
    if state == FatigueState::Exhausted {
        // C-FAT-4: FP 10 cannot move or act.
        return Ok(MoveResult {
            walk: 0,
            sprint: [0; 4],
            p: [1.0, 0.0, 0.0, 0.0],
        });
    }
    let agility_for_move = match growth.overload_agility {
        OverloadAgility::Tests => who.agility,
        OverloadAgility::Stat => who.agility + over_malus as i32,
    };
    let fatigue = state.move_malus();
    let halve = |m: i32| if overloaded { m / 2 } else { m };
    let raw = base_move(agility_for_move);
    let walk = halve((raw - fatigue).max(0));
    let mut sprint = [0; 4];
    for (tier, s) in sprint.iter_mut().enumerate() {
        let m = match growth.sprint_fatigue_order {
            SprintFatigueOrder::Before => sprint_factor((raw - fatigue).max(0), tier),
            SprintFatigueOrder::After => (sprint_factor(raw, tier) - fatigue).max(0),
        };
        *s = halve(m);
    }
    // The sprint test: Agilité with the FP malus and the overload malus (C-TEST-1 points).
    let spec = TestSpec::new(who.agility as f64, who.karma)?
        .with_modifier(
            rules.fatigue.test_malus(state) + over_malus,
            rules.percent_mode,
        )
        .with_crit_band(state.crit_band());
    let d = spec.exact(rules);
    let p = [
        d.prob_where(|o| !o.is_success()),
        d.prob(&Outcome::Success),
        d.prob(&Outcome::CritSuccess),
        d.prob(&Outcome::SuperSuccess),
    ];
    Ok(MoveResult { walk, sprint, p })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(agility: i32, load: i32, fp: i32) -> Mover {
        Mover {
            agility,
            force: 50,
            load,
            fp,
            karma: 0,
        }
    }

    #[test]
    fn base_moves() {
        assert_eq!(base_move(20), 1);
        assert_eq!(base_move(21), 2);
        assert_eq!(base_move(55), 3);
        assert_eq!(grid_distance((0, 0), (2, -3)), 5);
        assert_eq!(sprint_factor(3, 2), 7);
    }

    #[test]
    fn fatigue_and_overload() {
        let (t, g) = (TestRules::default(), GrowthRules::default());
        // Agilité 55: 3 units; sprint 6 / 7 / 9.
        let r = movement(&who(55, 0, 0), &t, &g).unwrap();
        assert_eq!((r.walk, r.sprint), (3, [3, 6, 7, 9]));
        // Moderate FP (-1) before the multiplier, then overload halves: 2 -> 1; 4,5,6 -> 2,2,3.
        let r = movement(&who(55, 21, 6), &t, &g).unwrap();
        assert_eq!((r.walk, r.sprint), (1, [1, 2, 2, 3]));
        // Plain-success chance at 55 -5 (overload) -10 (moderate) = 40: scores 11..40.
        assert!((r.p[1] - 0.30).abs() < 1e-12, "{}", r.p[1]);
        let after = GrowthRules {
            sprint_fatigue_order: SprintFatigueOrder::After,
            ..g
        };
        let r = movement(&who(55, 0, 8), &t, &after).unwrap();
        assert_eq!(r.sprint, [1, 4, 5, 7]);
        let r = movement(&who(55, 0, 10), &t, &g).unwrap();
        assert_eq!((r.walk, r.expected_sprint()), (0, 0.0));
    }
}
