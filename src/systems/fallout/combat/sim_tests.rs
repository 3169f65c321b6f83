//! Tests of `sim.rs`: target choice by bit masks against the plain scan.

use super::*;
use crate::scenario::ScenarioFile;

const FIREFIGHT: &str = include_str!("../../../../scenarios/fallout/firefight.toml");

/// The choice as first written: a scan of every combatant in order, the first of the
/// lowest HP for `weakest` (`min_by_key` keeps the first of equals).
fn scan(sim: &CombatSim, i: usize, hp: &[u32; COMBATANTS_MAX], down: u32) -> Option<usize> {
    let m = &sim.model;
    let side = m.combatants[i].side;
    let mut enemies =
        (0..m.combatants.len()).filter(|&j| m.combatants[j].side != side && down >> j & 1 == 0);
    match m.policies[side as usize].target {
        Target::First => enemies.next(),
        Target::Weakest => enemies.min_by_key(|&j| hp[j]),
    }
}

#[test]
fn target_masks_pick_as_the_scan() {
    for (policy, weakest) in [
        ("target = \"weakest\"", true),
        ("target = \"first\"", false),
    ] {
        // Both sides under one policy, so each is checked from either side.
        let text = FIREFIGHT
            .replace("target = \"first\"", policy)
            .replace("target = \"weakest\"", policy);
        let file = ScenarioFile::from_text("firefight.toml", &text, crate::lang::Lang::En);
        let (_, model) = super::super::load(&file).unwrap();
        let n = model.combatants.len();
        assert!(
            model
                .policies
                .iter()
                .all(|p| (p.target == Target::Weakest) == weakest),
            "{policy}"
        );
        let sim = CombatSim::new(model, Shortfall::Split, ExtraDamage::MeleeThrown);
        // xorshift: HP with many ties (0..4) and every set of combatants down.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = |k: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % k
        };
        for _ in 0..4000 {
            let mut hp = [0u32; COMBATANTS_MAX];
            for h in hp.iter_mut().take(n) {
                *h = next(4) as u32;
            }
            let down = next(1 << n) as u32;
            for i in 0..n {
                assert_eq!(
                    sim.target(i, &hp, down),
                    scan(&sim, i, &hp, down),
                    "{policy}: attacker {i}, hp {hp:?}, down {down:b}"
                );
            }
        }
    }
}
