//! Group keys of issue 25 (T-COMBAT, T-CONF): the Frapper / Tirer circumstances, the
//! action policy `tactic` (Feinter, Désarmer un adversaire) with its skills and pénalité,
//! and `parries_for` (Anticiper un évènement: a parry for an ally). Validated raw -> model,
//! every error located (file:line:col, key path, allowed values).

use crate::error::UserError;
use crate::scenario::{int_in, ScenarioFile};
use crate::systems::trinites::duel::{Penalty, PENALTIES};

use super::model::{Cover, Group, SKILL_MAX, SKILL_MIN};
use super::raw::{RawGroup, RawSkirmish};

/// Frapper circumstances a group's strikes may carry (trinites "Frapper / Circonstances
/// Difficulté"): attacker higher +3, large target +3, target higher -3, darkness -3, small
/// target -3.
pub const CIRCUMSTANCES_STRIKE: [(&str, i64); 5] = [
    ("attacker_high", 3),
    ("target_large", 3),
    ("target_high", -3),
    ("darkness", -3),
    ("target_small", -3),
];

/// Tirer circumstances a group's shots may carry (trinites "Tirer / Circonstances"): very
/// large target +3, very small target -3, fast-moving target -3, low light -3.
pub const CIRCUMSTANCES_SHOT: [(&str, i64); 4] = [
    ("target_very_large", 3),
    ("target_very_small", -3),
    ("target_moving_fast", -3),
    ("low_light", -3),
];

/// The sum of a group's `circumstances` difficulties (Frapper / Tirer tables, trinites
/// l. 566-572 and 668-679), the ones a scenario can state for a group's attacks; "cible
/// inerte / immobile", range and cover are computed by the fight.
pub(super) fn circumstance(
    f: &ScenarioFile,
    g: &RawGroup,
    i: usize,
    ranged: bool,
) -> Result<i64, UserError> {
    let idx = i.to_string();
    let table: &[(&str, i64)] = if ranged {
        &CIRCUMSTANCES_SHOT
    } else {
        &CIRCUMSTANCES_STRIKE
    };
    let mut circumstance = 0;
    for (k, name) in g.circumstances.iter().flatten().enumerate() {
        let Some(&(_, x)) = table.iter().find(|(n, _)| n == name) else {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            return Err(f.error_at(
                &["group", &idx, "circumstances", &k.to_string()],
                &format!("group[{i}].circumstances[{k}]"),
                &tr!(f.lang, "audit25.unknown_circumstance", value = name),
                &names.join(", "),
            ));
        };
        circumstance += x;
    }
    Ok(circumstance)
}

/// The free action a group declares before its attacks each turn, when it can (T-COMBAT,
/// LES ACTIONS).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tactic {
    /// Attacks only (the behaviour before issue 25).
    None,
    /// Feinter (l. 551-557): Subterfuge against the target's Tactique; on a success the
    /// next action (option `trinites_feint_scope`) cannot be reacted to.
    Feint,
    /// Désarmer un adversaire (l. 507-512): Mêlée against Mêlée, an advanced action (l. 420:
    /// a pénalité without a prime); on a success the target's weapon flies away.
    Disarm,
}

/// Every tactic with its file name.
pub const TACTICS: [(Tactic, &str); 3] = [
    (Tactic::None, "none"),
    (Tactic::Feint, "feint"),
    (Tactic::Disarm, "disarm"),
];

/// A group's tactic keys, validated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TacticKeys {
    pub tactic: Tactic,
    /// Subterfuge: the feint's skill.
    pub subterfuge: i64,
    /// Tactique: the reaction to a feint.
    pub tactics: i64,
    /// The pénalité an advanced action (Désarmer) imposes.
    pub disarm_penalty: Penalty,
}

/// Pénalités a disarm may take: the ones that hinder an action without damage (l. 735:
/// "Les effets de la pénalité doivent constituer une gêne effective"; Blessure légère only
/// lowers damage), Abandon de position avantageuse only from cover.
const DISARM_PENALTIES: [Penalty; 5] = [
    Penalty::Difficulte,
    Penalty::Facilite,
    Penalty::Danger,
    Penalty::Ralentissement,
    Penalty::Risque,
];

/// `tactic`, `subterfuge`, `tactics` and `disarm_penalty` of group `i`.
pub(super) fn tactic_keys(
    f: &ScenarioFile,
    g: &RawGroup,
    i: usize,
    ranged: bool,
    cover: Cover,
) -> Result<TacticKeys, UserError> {
    let idx = i.to_string();
    let names = |l: &[&str]| {
        l.iter()
            .map(|n| format!("\"{n}\""))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let tactic = match g.tactic.as_deref() {
        None => Tactic::None,
        Some(v) => TACTICS
            .iter()
            .find(|t| t.1 == v)
            .map(|t| t.0)
            .ok_or_else(|| {
                f.error_at(
                    &["group", &idx, "tactic"],
                    &format!("group[{i}].tactic"),
                    &tr!(f.lang, "trinites.model.unknown_value", value = v),
                    &names(&TACTICS.map(|t| t.1)),
                )
            })?,
    };
    // Désarmer: "Compétence: Mêlée ... Condition(s): Engagé" (l. 508-510).
    if tactic == Tactic::Disarm && ranged {
        return Err(f.error_at(
            &["group", &idx, "tactic"],
            &format!("group[{i}].tactic"),
            tr!(f.lang, "audit25b.disarm_ranged"),
            &names(&["none", "feint"]),
        ));
    }
    let mut allowed: Vec<&str> = DISARM_PENALTIES.iter().map(|p| p.name()).collect();
    if cover != Cover::None {
        allowed.push("abandon_position");
    }
    let disarm_penalty = match g.disarm_penalty.as_deref() {
        None => Penalty::Difficulte,
        Some(_) if tactic != Tactic::Disarm => {
            return Err(f.error_at(
                &["group", &idx, "disarm_penalty"],
                &format!("group[{i}].disarm_penalty"),
                tr!(f.lang, "audit25b.disarm_penalty_unused"),
                "tactic = \"disarm\"",
            ))
        }
        Some(v) => {
            let p = PENALTIES
                .iter()
                .map(|p| p.0)
                .chain([Penalty::AbandonPosition])
                .find(|p| p.name() == v && allowed.contains(&p.name()));
            p.ok_or_else(|| {
                f.error_at(
                    &["group", &idx, "disarm_penalty"],
                    &format!("group[{i}].disarm_penalty"),
                    &tr!(f.lang, "trinites.model.unknown_value", value = v),
                    &names(&allowed),
                )
            })?
        }
    };
    let skill = |k: &'static str, v: Option<i64>| {
        int_in(
            f,
            &["group", &idx, k],
            &format!("group[{i}].{k}"),
            v.unwrap_or(0),
            SKILL_MIN,
            SKILL_MAX,
        )
    };
    Ok(TacticKeys {
        tactic,
        subterfuge: skill("subterfuge", g.subterfuge)?,
        tactics: skill("tactics", g.tactics)?,
        disarm_penalty,
    })
}

/// `bare_hands` and `bare_hands_damage` of group `i`: Frapper "avec une arme -Mêlée- ou à
/// mains nues -Corps à corps" (l. 563), so a disarmed fighter may still strike. The copy
/// of the book gives no damage for bare hands, so the file says it; both keys or neither.
pub(super) fn bare_hands(
    f: &ScenarioFile,
    g: &RawGroup,
    i: usize,
    ranged: bool,
) -> Result<Option<(i64, i64)>, UserError> {
    let idx = i.to_string();
    let at = |key: &str, msg: &str, allowed: &str| {
        f.error_at(
            &["group", &idx, key],
            &format!("group[{i}].{key}"),
            msg,
            allowed,
        )
    };
    match (g.bare_hands, g.bare_hands_damage) {
        (None, None) => Ok(None),
        (Some(_), None) => Err(at(
            "bare_hands",
            tr!(f.lang, "bare_hands.needs_damage"),
            "bare_hands_damage = 1",
        )),
        (None, Some(_)) => Err(at(
            "bare_hands_damage",
            tr!(f.lang, "bare_hands.needs_skill"),
            "bare_hands = 6",
        )),
        (Some(_), Some(_)) if ranged => Err(at(
            "bare_hands",
            tr!(f.lang, "bare_hands.ranged"),
            tr!(f.lang, "audit25b.parry_needs_melee_allowed"),
        )),
        (Some(s), Some(d)) => Ok(Some((
            int_in(
                f,
                &["group", &idx, "bare_hands"],
                &format!("group[{i}].bare_hands"),
                s,
                SKILL_MIN,
                SKILL_MAX,
            )?,
            int_in(
                f,
                &["group", &idx, "bare_hands_damage"],
                &format!("group[{i}].bare_hands_damage"),
                d,
                0,
                50,
            )?,
        ))),
    }
}

/// Resolves every group's `parries_for` (l. 472, "Il peut ainsi protéger quelqu'un d'une
/// attaque avec une parade") to the ward group's index: another group of the same side;
/// the protector parries, so it holds a melee weapon.
pub(super) fn parries_for(
    f: &ScenarioFile,
    raw: &RawSkirmish,
    groups: &mut [Group],
) -> Result<(), UserError> {
    for i in 0..groups.len() {
        let Some(name) = raw.group[i].parries_for.as_deref() else {
            continue;
        };
        let idx = i.to_string();
        let side = groups[i].profile.side;
        let allies: Vec<String> = groups
            .iter()
            .enumerate()
            .filter(|(k, h)| *k != i && h.profile.side == side)
            .map(|(_, h)| format!("\"{}\"", h.name))
            .collect();
        let at = |msg: &str, allowed: &str| {
            f.error_at(
                &["group", &idx, "parries_for"],
                &format!("group[{i}].parries_for"),
                msg,
                allowed,
            )
        };
        if groups[i].profile.ranged() {
            return Err(at(
                tr!(f.lang, "audit25b.parry_needs_melee"),
                tr!(f.lang, "audit25b.parry_needs_melee_allowed"),
            ));
        }
        let ward = groups
            .iter()
            .enumerate()
            .position(|(k, h)| k != i && h.profile.side == side && h.name == name);
        let Some(w) = ward else {
            let allowed = if allies.is_empty() {
                tr!(f.lang, "audit25b.no_ally").to_string()
            } else {
                allies.join(", ")
            };
            return Err(at(
                &tr!(f.lang, "audit25b.bad_ward", value = name),
                &allowed,
            ));
        };
        groups[i].profile.parries_for = Some(w);
    }
    Ok(())
}
