//! Validation of a combatant's small rules: aura and anti-aura (C-AURA), inventory
//! (C-INV). Errors name file, line, column, key and what is allowed.

use std::collections::BTreeMap;

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::aura::AURA_MAX;

use super::model::{AuraUse, SmallRules};
use super::raw::{RawAntiAuraUse, RawAuraUse, RawFighter};

/// Most anti-aura points a combatant may start with.
pub const ANTI_AURA_MAX: i64 = 100;
/// Most inventory slots a scenario may declare.
pub const SLOTS_MAX: i64 = 1000;

/// The small rules of combatant `name`.
pub fn validate_small(
    file: &ScenarioFile,
    name: &str,
    f: &RawFighter,
    groups: &BTreeMap<String, (usize, usize)>,
    all: &BTreeMap<String, RawFighter>,
) -> Result<SmallRules, UserError> {
    let err = |k: &[&str], msg: &str, allowed: &str| -> UserError {
        let mut path = vec!["combatants", name];
        path.extend_from_slice(k);
        file.error_at(&path, &path.join("."), msg, allowed)
    };
    let range = |k: &str, v: Option<i64>, lo: i64, hi: i64, why: &str| match v {
        Some(x) if !(lo..=hi).contains(&x) => Err(err(
            &[k],
            &tr!(file.lang, "combat.check.out_of_range", value = x),
            &format!("{lo}..{hi}{why}"),
        )),
        _ => Ok(v.unwrap_or(0)),
    };
    let aura_points = range(
        "aura_points",
        f.aura_points,
        0,
        AURA_MAX as i64,
        tr!(file.lang, "combat.check.aura_cap"),
    )?;
    let anti_aura = range("anti_aura", f.anti_aura, 0, ANTI_AURA_MAX, "")?;
    let slots = range(
        "inventory_slots_used",
        f.inventory_slots_used,
        0,
        SLOTS_MAX,
        tr!(file.lang, "combat.check.inv_cap"),
    )?;
    let p = &f.policy;
    let aura_use = match p.aura_use_on {
        None | Some(RawAuraUse::EnemyAttacks) => AuraUse::EnemyAttacks,
        Some(RawAuraUse::EnemyDefences) => AuraUse::EnemyDefences,
        Some(RawAuraUse::EnemyTests) => AuraUse::EnemyTests,
        Some(RawAuraUse::Never) => AuraUse::Never,
    };
    // A policy without points is accepted and never fires, so a sweep over aura_points works.
    let min = match p.aura_min_threshold {
        Some(x) if !(0..=200).contains(&x) => {
            return Err(err(
                &["policy", "aura_min_threshold"],
                &tr!(file.lang, "combat.check.out_of_range", value = x),
                tr!(file.lang, "combat.check.anti_threshold_allowed"),
            ))
        }
        v => v.unwrap_or(0) as i32,
    };
    let aura_target = match &p.aura_target {
        None => None,
        Some(t) => match (groups.get(t), all.get(t)) {
            (Some(&g), Some(o)) if o.side != f.side => Some(g),
            _ => {
                let enemies: Vec<String> = all
                    .iter()
                    .filter(|(_, o)| o.side != f.side)
                    .map(|(k, _)| format!("\"{k}\""))
                    .collect();
                return Err(err(
                    &["policy", "aura_target"],
                    &tr!(file.lang, "combat.check.not_enemy", name = t),
                    &enemies.join(", "),
                ));
            }
        },
    };
    Ok(SmallRules {
        aura_points: aura_points as u8,
        anti_aura: anti_aura as u8,
        // A race "disposant de l'aura" (book l. 264) is read from the file giving the
        // combatant an aura tally, 0 included, so a sweep of `aura_points` over 0..4 keeps
        // its race (audit of 2026-12-08).
        has_aura: f.aura_points.is_some(),
        // Without points the policy never fires; keep the default so the model is unchanged.
        aura_use: if aura_points == 0 {
            AuraUse::EnemyAttacks
        } else {
            aura_use
        },
        aura_min_threshold: if aura_points == 0 { 0 } else { min },
        aura_target: if aura_points == 0 { None } else { aura_target },
        anti_aura_always: p.anti_aura_use != Some(RawAntiAuraUse::Never),
        inventory_slots_used: f.inventory_slots_used.map(|_| slots as u16),
    })
}
