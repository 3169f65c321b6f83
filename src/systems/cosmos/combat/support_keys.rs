//! The keys of support actions (`[support.<name>]`): raw serde form, validation and the
//! defaults `check` lists. Every error names file, line, column, key and what is allowed.
//! Policy rules (which use them) are in `trigger_keys.rs`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::dice::DiceExpr;
use crate::error::UserError;
use crate::scenario::ScenarioFile;

use super::keys::stat_index;
use super::raw::RawStat;
use super::support::{SupportAction, SupportKind, SupportTarget, MAX_SUPPORT_DEFS};

/// Caps checked before any work.
pub const SUPPORT_MODIFIER_MAX: i64 = 100;
pub const DAMAGE_MULT_MAX: f64 = 10.0;
pub const ROUNDS_MAX: i64 = 100;

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawSupportKind {
    Heal,
    Buff,
    Concentrate,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawSupportTarget {
    #[serde(rename = "self")]
    Own,
    LowestHp,
    LowestFraction,
    Ally,
    Enemy,
}

/// `[support.<name>]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSupport {
    pub kind: RawSupportKind,
    /// Heal: HP restored, a dice expression.
    pub heal: Option<String>,
    pub target: Option<RawSupportTarget>,
    /// A test of this stat decides whether it lands (default: it always does).
    pub stat: Option<RawStat>,
    /// Buff: percentage points on the holder's tests (negative: a debuff).
    pub modifier: Option<i64>,
    /// Buff: multiplier on the holder's damage dealt.
    pub damage_mult: Option<f64>,
    /// Buff: rounds after this one it lasts.
    pub rounds: Option<i64>,
    #[serde(default)]
    pub pm_cost: u32,
    pub uses: Option<i64>,
    pub cooldown: Option<i64>,
}

/// Validates the `[support.*]` tables (in name order).
pub fn support_defs(
    file: &ScenarioFile,
    raw: &BTreeMap<String, RawSupport>,
) -> Result<Vec<SupportAction>, UserError> {
    if raw.len() > MAX_SUPPORT_DEFS {
        return Err(file.error_at(
            &["support"],
            "support",
            &tr!(file.lang, "combat.check.support_count", n = raw.len()),
            &tr!(file.lang, "combat.check.at_most", n = MAX_SUPPORT_DEFS),
        ));
    }
    raw.iter()
        .map(|(name, s)| support_def(file, name, s))
        .collect()
}

fn support_def(
    file: &ScenarioFile,
    name: &str,
    s: &RawSupport,
) -> Result<SupportAction, UserError> {
    let err = |k: &str, msg: &str, allowed: &str| {
        file.error_at(
            &["support", name, k],
            &format!("support.{name}.{k}"),
            msg,
            allowed,
        )
    };
    let not_for = |k: &str, given: bool, kind: &str, allowed: &str| {
        if given {
            Err(err(
                k,
                &tr!(file.lang, "combat.check.not_for_kind", key = k, kind),
                allowed,
            ))
        } else {
            Ok(())
        }
    };
    let kind = match s.kind {
        RawSupportKind::Heal => {
            let Some(text) = &s.heal else {
                return Err(err(
                    "heal",
                    tr!(file.lang, "combat.check.heal_missing"),
                    tr!(file.lang, "combat.check.heal_missing_allowed"),
                ));
            };
            let dice = DiceExpr::parse(text).map(|d| d.at_least(0)).map_err(|e| {
                err(
                    "heal",
                    &e.text(file.lang),
                    tr!(file.lang, "combat.check.heal_dice_allowed"),
                )
            })?;
            for (k, g) in [
                ("modifier", s.modifier.is_some()),
                ("damage_mult", s.damage_mult.is_some()),
                ("rounds", s.rounds.is_some()),
            ] {
                not_for(
                    k,
                    g,
                    "heal",
                    "kind, heal, target, stat, pm_cost, uses, cooldown",
                )?;
            }
            SupportKind::Heal(dice)
        }
        RawSupportKind::Buff => {
            not_for(
                "heal",
                s.heal.is_some(),
                "buff",
                "kind, modifier, damage_mult, rounds, target, stat, pm_cost, uses, cooldown",
            )?;
            let modifier = s.modifier.unwrap_or(0);
            if !(-SUPPORT_MODIFIER_MAX..=SUPPORT_MODIFIER_MAX).contains(&modifier) {
                return Err(err(
                    "modifier",
                    &tr!(file.lang, "combat.check.out_of_range", value = modifier),
                    &tr!(
                        file.lang,
                        "combat.check.support_modifier_allowed",
                        max = SUPPORT_MODIFIER_MAX
                    ),
                ));
            }
            let mult = s.damage_mult.unwrap_or(1.0);
            if !(0.0..=DAMAGE_MULT_MAX).contains(&mult) {
                return Err(err(
                    "damage_mult",
                    &tr!(file.lang, "combat.check.out_of_range", value = mult),
                    &tr!(
                        file.lang,
                        "combat.check.damage_mult_allowed",
                        max = DAMAGE_MULT_MAX
                    ),
                ));
            }
            if modifier == 0 && mult == 1.0 {
                return Err(err(
                    "modifier",
                    tr!(file.lang, "combat.check.buff_nothing"),
                    tr!(file.lang, "combat.check.buff_nothing_allowed"),
                ));
            }
            let rounds = s.rounds.unwrap_or(1);
            if !(1..=ROUNDS_MAX).contains(&rounds) {
                return Err(err(
                    "rounds",
                    &tr!(file.lang, "combat.check.out_of_range", value = rounds),
                    &tr!(file.lang, "combat.check.rounds_allowed", max = ROUNDS_MAX),
                ));
            }
            SupportKind::Buff {
                modifier: modifier as i32,
                damage_mult: mult,
                rounds: rounds as u8,
            }
        }
        RawSupportKind::Concentrate => {
            for (k, g) in [
                ("heal", s.heal.is_some()),
                ("modifier", s.modifier.is_some()),
                ("damage_mult", s.damage_mult.is_some()),
                ("rounds", s.rounds.is_some()),
                ("target", s.target.is_some()),
                ("stat", s.stat.is_some()),
            ] {
                not_for(
                    k,
                    g,
                    "concentrate",
                    tr!(file.lang, "combat.check.concentrate_keys"),
                )?;
            }
            SupportKind::Concentrate
        }
    };
    let target = match (&kind, s.target) {
        (SupportKind::Concentrate, _) => SupportTarget::Own,
        (SupportKind::Heal(_), None) => SupportTarget::LowestFraction,
        (SupportKind::Heal(_), Some(RawSupportTarget::Own)) => SupportTarget::Own,
        (SupportKind::Heal(_), Some(RawSupportTarget::LowestHp)) => SupportTarget::LowestHp,
        (SupportKind::Heal(_), Some(RawSupportTarget::LowestFraction)) => {
            SupportTarget::LowestFraction
        }
        (SupportKind::Heal(_), Some(_)) => {
            return Err(err(
                "target",
                tr!(file.lang, "combat.check.not_heal_target"),
                tr!(file.lang, "combat.check.heal_target_allowed"),
            ))
        }
        (SupportKind::Buff { .. }, None) => SupportTarget::Own,
        (SupportKind::Buff { .. }, Some(RawSupportTarget::Own)) => SupportTarget::Own,
        (SupportKind::Buff { .. }, Some(RawSupportTarget::Ally)) => SupportTarget::Ally,
        (SupportKind::Buff { .. }, Some(RawSupportTarget::Enemy)) => SupportTarget::Enemy,
        (SupportKind::Buff { .. }, Some(_)) => {
            return Err(err(
                "target",
                tr!(file.lang, "combat.check.not_buff_target"),
                tr!(file.lang, "combat.check.buff_target_allowed"),
            ))
        }
    };
    if s.pm_cost > super::keys::COST_MAX {
        return Err(err(
            "pm_cost",
            &tr!(file.lang, "combat.check.out_of_range", value = s.pm_cost),
            &format!("0..{}", super::keys::COST_MAX),
        ));
    }
    let uses = match s.uses {
        Some(u) if !(1..=super::keys::USES_MAX).contains(&u) => {
            return Err(err(
                "uses",
                &tr!(file.lang, "combat.check.out_of_range", value = u),
                &tr!(
                    file.lang,
                    "combat.check.uses_allowed",
                    max = super::keys::USES_MAX
                ),
            ))
        }
        u => u.map(|u| u as u8),
    };
    let cooldown = s.cooldown.unwrap_or(0);
    if !(0..=super::keys::COOLDOWN_MAX).contains(&cooldown) {
        return Err(err(
            "cooldown",
            &tr!(file.lang, "combat.check.out_of_range", value = cooldown),
            &format!("0..{} rounds", super::keys::COOLDOWN_MAX),
        ));
    }
    Ok(SupportAction {
        name: name.to_string(),
        kind,
        target,
        stat: s.stat.map(stat_index),
        pm_cost: s.pm_cost as i32,
        uses,
        cooldown: cooldown as u8,
    })
}

/// The deciding settings of each `[support.*]` action, flagged when a default decides:
/// `target` (heal: lowest_fraction, buff: self), `stat` (none: it always lands) and a
/// buff's `rounds` (1).
pub fn settings(
    raw: &BTreeMap<String, RawSupport>,
    model: &super::model::CombatModel,
    lang: crate::lang::Lang,
) -> Vec<super::settings::Setting> {
    let mut out = Vec::new();
    for (r, d) in raw.values().zip(&model.support) {
        let who = format!("support.{}", d.name);
        let mut push = |key: &str, value: String, defaulted: bool, meaning: &str| {
            out.push(super::settings::Setting {
                who: who.clone(),
                key: key.to_string(),
                value,
                defaulted,
                meaning: meaning.to_string(),
            })
        };
        if d.kind != SupportKind::Concentrate {
            push(
                "target",
                match d.target {
                    SupportTarget::Own => "self",
                    SupportTarget::LowestHp => "lowest_hp",
                    SupportTarget::LowestFraction => "lowest_fraction",
                    SupportTarget::Ally => "ally",
                    SupportTarget::Enemy => "enemy",
                }
                .into(),
                r.target.is_none(),
                tr!(lang, "combat.settings.support_target"),
            );
            push(
                "stat",
                d.stat
                    .map_or("none".to_string(), |s| super::model::STAT_NAMES[s].into()),
                r.stat.is_none(),
                if d.stat.is_none() {
                    tr!(lang, "combat.settings.support_no_stat")
                } else {
                    tr!(lang, "combat.settings.support_stat")
                },
            );
        }
        if let SupportKind::Buff { rounds, .. } = d.kind {
            push(
                "rounds",
                rounds.to_string(),
                r.rounds.is_none(),
                tr!(lang, "combat.settings.support_rounds"),
            );
        }
    }
    out
}
