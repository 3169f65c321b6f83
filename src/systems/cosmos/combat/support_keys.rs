//! The keys of support actions (`[support.<name>]`, a combatant's `support` list) and of
//! policy rules (`[[combatants.<name>.policy.rules]]`): raw serde forms and their
//! validation. Every error names file, line, column, key and what is allowed.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::dice::DiceExpr;
use crate::error::UserError;
use crate::scenario::ScenarioFile;

use super::fight::{ILLUMINATION, NONE, SEPULCRALE};
use super::keys::stat_index;
use super::model::{Fighter, Mode};
use super::raw::{RawMode, RawStat};
use super::support::{SupportAction, SupportKind, SupportTarget, MAX_SUPPORT, MAX_SUPPORT_DEFS};
use super::trigger::{Cond, Rule, Rules, Then, MAX_COND_DEPTH, MAX_COND_ITEMS, MAX_RULES};

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

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawSpend {
    Dark,
    Light,
    None,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawPostureWord {
    Illumination,
    #[serde(alias = "sépulcrale")]
    Sepulcrale,
    Any,
}

/// `when = { ... }`: every key given must hold.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCond {
    pub round_at_least: Option<i64>,
    pub round: Option<i64>,
    pub own_hp_below: Option<f64>,
    pub ally_hp_below: Option<f64>,
    pub enemy_hp_below: Option<f64>,
    pub enemy_posture: Option<RawPostureWord>,
    pub ally_posture: Option<RawPostureWord>,
    pub ally_down: Option<bool>,
    pub own_fp_at_least: Option<i64>,
    pub own_fm_at_least: Option<i64>,
    pub all: Option<Vec<RawCond>>,
    pub any: Option<Vec<RawCond>>,
}

/// One rule: `when` and exactly one of `spend`, `final_skill`, `mode`, `use`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawRule {
    pub when: Option<RawCond>,
    pub spend: Option<RawSpend>,
    pub final_skill: Option<bool>,
    pub mode: Option<RawMode>,
    #[serde(rename = "use")]
    pub use_: Option<String>,
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
            &format!("{} support actions", raw.len()),
            &format!("at most {MAX_SUPPORT_DEFS}"),
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
                &format!("`{k}` does not apply to kind = \"{kind}\""),
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
                    "missing key `heal` for kind = \"heal\"",
                    "HP restored as dice terms and whole numbers, e.g. \"2d8+4\"",
                ));
            };
            let dice = DiceExpr::parse(text).map(|d| d.at_least(0)).map_err(|e| {
                err(
                    "heal",
                    &e,
                    "dice terms and whole numbers such as \"2d8+4\", \"d6\" or \"12\"",
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
                    &format!("{modifier} is out of range"),
                    &format!(
                        "-{SUPPORT_MODIFIER_MAX}..{SUPPORT_MODIFIER_MAX} percentage points on the holder's tests"
                    ),
                ));
            }
            let mult = s.damage_mult.unwrap_or(1.0);
            if !(0.0..=DAMAGE_MULT_MAX).contains(&mult) {
                return Err(err(
                    "damage_mult",
                    &format!("{mult} is out of range"),
                    &format!("0..{DAMAGE_MULT_MAX} (x the holder's damage dealt)"),
                ));
            }
            if modifier == 0 && mult == 1.0 {
                return Err(err(
                    "modifier",
                    "a buff with neither `modifier` nor `damage_mult` does nothing",
                    "modifier = -100..100 and/or damage_mult = 0..10 (not 1)",
                ));
            }
            let rounds = s.rounds.unwrap_or(1);
            if !(1..=ROUNDS_MAX).contains(&rounds) {
                return Err(err(
                    "rounds",
                    &format!("{rounds} is out of range"),
                    &format!("1..{ROUNDS_MAX} rounds after the one it is placed in"),
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
                    "kind, pm_cost, uses, cooldown (C-FAT-5: the user, next round)",
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
                "not a heal target",
                "self | lowest_hp | lowest_fraction (default; the user included)",
            ))
        }
        (SupportKind::Buff { .. }, None) => SupportTarget::Own,
        (SupportKind::Buff { .. }, Some(RawSupportTarget::Own)) => SupportTarget::Own,
        (SupportKind::Buff { .. }, Some(RawSupportTarget::Ally)) => SupportTarget::Ally,
        (SupportKind::Buff { .. }, Some(RawSupportTarget::Enemy)) => SupportTarget::Enemy,
        (SupportKind::Buff { .. }, Some(_)) => {
            return Err(err(
                "target",
                "not a buff target",
                "self (default) | ally (first standing ally without it) | enemy (by the `target` policy)",
            ))
        }
    };
    if s.pm_cost > super::keys::COST_MAX {
        return Err(err(
            "pm_cost",
            &format!("{} is out of range", s.pm_cost),
            &format!("0..{}", super::keys::COST_MAX),
        ));
    }
    let uses = match s.uses {
        Some(u) if !(1..=super::keys::USES_MAX).contains(&u) => {
            return Err(err(
                "uses",
                &format!("{u} is out of range"),
                &format!(
                    "1..{} uses per combat (no key: unlimited)",
                    super::keys::USES_MAX
                ),
            ))
        }
        u => u.map(|u| u as u8),
    };
    let cooldown = s.cooldown.unwrap_or(0);
    if !(0..=super::keys::COOLDOWN_MAX).contains(&cooldown) {
        return Err(err(
            "cooldown",
            &format!("{cooldown} is out of range"),
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

/// A combatant's policy rules, checked against what it holds, and the support actions
/// they use (indices into `[support.*]`, in order of first mention: the combatant's list).
pub fn rules(
    file: &ScenarioFile,
    name: &str,
    raw: &[RawRule],
    f: &Fighter,
    attack_names: &[String],
    support_names: &[String],
    max_rounds: u32,
) -> Result<(Rules, Vec<usize>), UserError> {
    let mut support = Vec::new();
    let base = ["combatants", name, "policy", "rules"];
    if raw.len() > MAX_RULES {
        return Err(file.error_at(
            &base,
            &format!("combatants.{name}.policy.rules"),
            &format!("{} rules", raw.len()),
            &format!("at most {MAX_RULES}"),
        ));
    }
    let mut list = Vec::new();
    for (i, r) in raw.iter().enumerate() {
        let idx = i.to_string();
        let shown = |k: &str| match k {
            "" => format!("combatants.{name}.policy.rules[{i}]"),
            _ => format!("combatants.{name}.policy.rules[{i}].{k}"),
        };
        let err = |k: &str, msg: &str, allowed: &str| {
            let mut p = base.to_vec();
            p.push(&idx);
            if !k.is_empty() {
                p.push(k);
            }
            file.error_at(&p, &shown(k), msg, allowed)
        };
        let given = [
            r.spend.is_some(),
            r.final_skill.is_some(),
            r.mode.is_some(),
            r.use_.is_some(),
        ];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(err(
                "",
                "a rule does exactly one thing",
                "one of spend = \"dark\" | \"light\" | \"none\", final_skill = true | false, mode = \"offensive\" | \"defensive\", use = \"<attack or support action>\"",
            ));
        }
        let then = if let Some(sp) = r.spend {
            match sp {
                RawSpend::Dark if f.dark_points == 0 => {
                    return Err(err(
                        "spend",
                        "the rule spends Dark points but dark_points = 0",
                        "dark_points >= 1, or spend = \"light\" | \"none\"",
                    ))
                }
                RawSpend::Light if f.light_points == 0 => {
                    return Err(err(
                        "spend",
                        "the rule spends Light points but light_points = 0",
                        "light_points >= 1, or spend = \"dark\" | \"none\"",
                    ))
                }
                RawSpend::Dark => Then::Spend(SEPULCRALE),
                RawSpend::Light => Then::Spend(ILLUMINATION),
                RawSpend::None => Then::Spend(NONE),
            }
        } else if let Some(b) = r.final_skill {
            if f.final_skill.is_none() {
                return Err(err(
                    "final_skill",
                    "the rule uses a Final Skill but the combatant has none",
                    "set `final_skill = \"<attack>\"` on the combatant",
                ));
            }
            Then::FinalSkill(b)
        } else if let Some(m) = r.mode {
            Then::Mode(match m {
                RawMode::Offensive => Mode::Offensive,
                RawMode::Defensive => Mode::Defensive,
            })
        } else {
            let u = r.use_.as_deref().unwrap_or_default();
            if let Some(slot) = f.attacks.iter().position(|&a| attack_names[a] == u) {
                Then::Attack(f.attacks[slot], slot)
            } else if let Some(k) = support_names.iter().position(|s| s == u) {
                let slot = support.iter().position(|&x| x == k).unwrap_or_else(|| {
                    support.push(k);
                    support.len() - 1
                });
                if slot >= MAX_SUPPORT {
                    return Err(err(
                        "use",
                        &format!("\"{u}\" would be support action number {}", slot + 1),
                        &format!("at most {MAX_SUPPORT} different support actions per combatant"),
                    ));
                }
                Then::Support(slot)
            } else {
                let mut own: Vec<String> = f
                    .attacks
                    .iter()
                    .map(|&a| format!("\"{}\"", attack_names[a]))
                    .collect();
                own.extend(support_names.iter().map(|s| format!("\"{s}\"")));
                return Err(err(
                    "use",
                    &format!("\"{u}\" is neither one of the combatant's attacks nor a [support.*] action"),
                    &own.join(", "),
                ));
            }
        };
        let mut path: Vec<String> = base.iter().map(|s| s.to_string()).collect();
        path.push(idx.clone());
        path.push("when".into());
        let when = match &r.when {
            None => Cond::always(),
            Some(c) => cond(file, &path, c, max_rounds, 1)?,
        };
        list.push(Rule { when, then });
    }
    Ok((Rules::new(list), support))
}

/// A `when` table (all its keys must hold) at `path`, nested `depth` deep.
fn cond(
    file: &ScenarioFile,
    path: &[String],
    c: &RawCond,
    max_rounds: u32,
    depth: usize,
) -> Result<Cond, UserError> {
    let shown = |k: &str| {
        let mut s = String::new();
        for (i, p) in path.iter().enumerate() {
            if p.parse::<usize>().is_ok() {
                s += &format!("[{p}]");
            } else {
                if i > 0 {
                    s.push('.');
                }
                s += p;
            }
        }
        format!("{s}.{k}")
    };
    let err = |k: &str, msg: &str, allowed: &str| {
        let mut p: Vec<&str> = path.iter().map(String::as_str).collect();
        p.push(k);
        file.error_at(&p, &shown(k), msg, allowed)
    };
    if depth > MAX_COND_DEPTH {
        return Err(err(
            "all",
            &format!("conditions nested {depth} deep"),
            &format!("at most {MAX_COND_DEPTH} levels of all/any"),
        ));
    }
    let mut out = Vec::new();
    let round = |k: &str, v: i64| {
        if (1..=max_rounds as i64).contains(&v) {
            Ok(v as u32)
        } else {
            Err(err(
                k,
                &format!("round {v} is out of range"),
                &format!("1..{max_rounds} (combat.max_rounds)"),
            ))
        }
    };
    if let Some(v) = c.round_at_least {
        out.push(Cond::RoundAtLeast(round("round_at_least", v)?));
    }
    if let Some(v) = c.round {
        out.push(Cond::Round(round("round", v)?));
    }
    let frac = |k: &str, x: f64| {
        if x > 0.0 && x <= 1.0 {
            Ok(x)
        } else {
            Err(err(
                k,
                &format!("{x} is not a fraction of max HP"),
                "a number above 0 and at most 1, e.g. 0.5 for \"below half HP\"",
            ))
        }
    };
    if let Some(x) = c.own_hp_below {
        out.push(Cond::OwnHpBelow(frac("own_hp_below", x)?));
    }
    if let Some(x) = c.ally_hp_below {
        out.push(Cond::AllyHpBelow(frac("ally_hp_below", x)?));
    }
    if let Some(x) = c.enemy_hp_below {
        out.push(Cond::EnemyHpBelow(frac("enemy_hp_below", x)?));
    }
    let mask = |p: RawPostureWord| match p {
        RawPostureWord::Illumination => 1,
        RawPostureWord::Sepulcrale => 2,
        RawPostureWord::Any => 3,
    };
    if let Some(p) = c.enemy_posture {
        out.push(Cond::EnemyPosture(mask(p)));
    }
    if let Some(p) = c.ally_posture {
        out.push(Cond::AllyPosture(mask(p)));
    }
    match c.ally_down {
        Some(true) => out.push(Cond::AllyDown),
        Some(false) => {
            return Err(err(
                "ally_down",
                "ally_down = false is not a condition",
                "ally_down = true (no ally down: leave the key out, or use any/all)",
            ))
        }
        None => {}
    }
    let track = |k: &str, v: i64| {
        if (-3..=10).contains(&v) {
            Ok(v as i8)
        } else {
            Err(err(
                k,
                &format!("{v} is out of range"),
                "-3..10 (C-FAT-1 fatigue track)",
            ))
        }
    };
    if let Some(v) = c.own_fp_at_least {
        out.push(Cond::OwnFpAtLeast(track("own_fp_at_least", v)?));
    }
    if let Some(v) = c.own_fm_at_least {
        out.push(Cond::OwnFmAtLeast(track("own_fm_at_least", v)?));
    }
    for (k, list) in [("all", &c.all), ("any", &c.any)] {
        let Some(list) = list else { continue };
        if !(1..=MAX_COND_ITEMS).contains(&list.len()) {
            return Err(err(
                k,
                &format!("{} conditions", list.len()),
                &format!("1..{MAX_COND_ITEMS} condition tables"),
            ));
        }
        let mut items = Vec::new();
        for (i, sub) in list.iter().enumerate() {
            let mut p = path.to_vec();
            p.push(k.to_string());
            p.push(i.to_string());
            items.push(cond(file, &p, sub, max_rounds, depth + 1)?);
        }
        out.push(if k == "all" {
            Cond::All(items)
        } else {
            Cond::Any(items)
        });
    }
    Ok(match out.len() {
        1 => out.pop().expect("one condition"),
        _ => Cond::All(out),
    })
}

/// The deciding settings of each `[support.*]` action, flagged when a default decides:
/// `target` (heal: lowest_fraction, buff: self), `stat` (none: it always lands) and a
/// buff's `rounds` (1).
pub fn settings(
    raw: &BTreeMap<String, RawSupport>,
    model: &super::model::CombatModel,
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
                "who the house action goes to",
            );
            push(
                "stat",
                d.stat
                    .map_or("none".to_string(), |s| super::model::STAT_NAMES[s].into()),
                r.stat.is_none(),
                if d.stat.is_none() {
                    "no test: it always lands"
                } else {
                    "a test of this stat decides whether it lands"
                },
            );
        }
        if let SupportKind::Buff { rounds, .. } = d.kind {
            push(
                "rounds",
                rounds.to_string(),
                r.rounds.is_none(),
                "the effect lasts the rest of its round and this many more",
            );
        }
    }
    out
}
