//! Validation of one combatant of a combat scenario file into a [`Fighter`]: stats,
//! attacks, elements, policy, and its Light/Dark points against the level-5 grant in
//! force (C-LD-1). Every error names file, line, column, key and what is allowed.

use std::collections::BTreeMap;

use crate::error::UserError;
use crate::scenario::ScenarioFile;

use super::element::Element;
use super::model::*;
use super::raw::*;

fn fraction(
    file: &ScenarioFile,
    name: &str,
    key: &str,
    v: Option<f64>,
) -> Result<Option<f64>, UserError> {
    match v {
        Some(x) if !(x > 0.0 && x <= 1.0) => Err(file.error_at(
            &["combatants", name, "policy", key],
            &format!("combatants.{name}.policy.{key}"),
            &tr!(file.lang, "combat.check.not_fraction", value = x),
            tr!(file.lang, "combat.check.fraction_allowed"),
        )),
        _ => Ok(v),
    }
}

#[allow(clippy::too_many_arguments)]
pub(super) fn validate_fighter(
    file: &ScenarioFile,
    name: &str,
    f: &RawFighter,
    sides: &[String],
    attack_index: &BTreeMap<String, usize>,
    attack_names: &str,
    groups: &BTreeMap<String, (usize, usize)>,
    all: &BTreeMap<String, RawFighter>,
    grant: u8,
) -> Result<Fighter, UserError> {
    let lang = file.lang;
    let at = |k: &[&str]| -> Vec<String> {
        let mut v = vec!["combatants".to_string(), name.to_string()];
        v.extend(k.iter().map(|s| s.to_string()));
        v
    };
    let err = |k: &[&str], msg: &str, allowed: &str| -> UserError {
        let path = at(k);
        let refs: Vec<&str> = path.iter().map(String::as_str).collect();
        file.error_at(&refs, &path.join("."), msg, allowed)
    };
    if !(1..=30).contains(&f.level) {
        return Err(err(
            &["level"],
            &tr!(lang, "combat.check.level_range", level = f.level),
            "1..30",
        ));
    }
    // C-LEVEL-1: stats 20..80 at levels 1-2, 20..85 from level 3.
    let cap = if f.level <= 2 { 80 } else { 85 };
    let raw_stats = [
        f.stats.force,
        f.stats.esprit,
        f.stats.charisme,
        f.stats.agilite,
        f.stats.precision,
        f.stats.chance,
    ];
    let mut stats = [0i32; 6];
    for (i, v) in raw_stats.iter().enumerate() {
        if !(20..=cap).contains(v) {
            return Err(err(
                &["stats", STAT_NAMES[i]],
                &tr!(lang, "combat.check.stat_range", value = v, level = f.level),
                &tr!(lang, "combat.check.stat_allowed", cap),
            ));
        }
        stats[i] = *v as i32;
    }
    if !(1..=1_000_000).contains(&f.hp) {
        return Err(err(
            &["hp"],
            &tr!(lang, "combat.check.hp_range", hp = f.hp),
            "1..1000000",
        ));
    }
    if !(0..=1_000_000).contains(&f.pm) {
        return Err(err(
            &["pm"],
            &tr!(lang, "combat.check.pm_range", pm = f.pm),
            "0..1000000",
        ));
    }
    let element = match &f.element {
        Some(e) => {
            let path = at(&["element"]);
            let refs: Vec<&str> = path.iter().map(String::as_str).collect();
            Some(element(file, &refs, &path.join("."), e)?)
        }
        None => None,
    };
    if f.attacks.is_empty() {
        return Err(err(
            &["attacks"],
            tr!(lang, "combat.check.no_attack_listed"),
            attack_names,
        ));
    }
    if f.attacks.len() > MAX_ATTACKS {
        return Err(err(
            &["attacks"],
            &tr!(lang, "combat.check.attacks_listed", n = f.attacks.len()),
            &tr!(lang, "combat.check.at_most", n = MAX_ATTACKS),
        ));
    }
    let (start, armour) = super::keys::start_and_armour(file, name, f, f.hp as i32, f.pm as i32)?;
    let mut attacks = Vec::new();
    for (i, a) in f.attacks.iter().enumerate() {
        let idx = i.to_string();
        let &ai = attack_index.get(a).ok_or_else(|| {
            let path = at(&["attacks", &idx]);
            let refs: Vec<&str> = path.iter().map(String::as_str).collect();
            file.error_at(
                &refs,
                &format!("combatants.{name}.attacks[{i}]"),
                &tr!(lang, "combat.check.undefined_attack", name = a),
                attack_names,
            )
        })?;
        attacks.push(ai);
    }
    let final_skill = match &f.final_skill {
        Some(a) => {
            let &ai = attack_index.get(a).ok_or_else(|| {
                err(
                    &["final_skill"],
                    &tr!(lang, "combat.check.undefined_attack", name = a),
                    attack_names,
                )
            })?;
            // Below level 5 it is kept but never used (C-LD-4), so a sweep over levels works.
            Some(ai)
        }
        None => None,
    };
    // C-LD-1: 1 Light + 1 Dark at level 1, +3 split at level 5, the MJ decides from 6.
    let level5_dark = f.level5_dark.unwrap_or(2);
    // The split takes at most the grant in force (parameter `level5_points`, C-LD-1).
    if level5_dark > 10 {
        return Err(err(
            &["level5_dark"],
            &tr!(lang, "combat.check.level5_dark", n = level5_dark),
            tr!(lang, "combat.check.level5_dark_allowed"),
        ));
    }
    // The counts given are checked against the grant in force (the file's `[rules]` and
    // the command's `--option`).
    check_points(file, name, f, grant)?;
    // The model keeps the book's counts (grant 3) where a count is left to the rules, so
    // the engine task, a hash of the model, does not depend on the grant; the grant in
    // force replaces them when the simulation is built (`Level5Points`).
    let (light, dark) = points_under(f, 3);
    let (light_spent, dark_spent) = (f.light_spent.unwrap_or(0), f.dark_spent.unwrap_or(0));
    let (light, dark) = (
        light.saturating_sub(light_spent),
        dark.saturating_sub(dark_spent),
    );
    let actions = f.actions.unwrap_or(1);
    if !(1..=MAX_ACTIONS).contains(&actions) {
        return Err(err(
            &["actions"],
            &tr!(lang, "combat.check.actions_range", n = actions),
            &format!("1..{MAX_ACTIONS}"),
        ));
    }
    let karma = f.karma.unwrap_or(0);
    if !(-10..=10).contains(&karma) {
        return Err(err(
            &["karma"],
            &tr!(lang, "combat.check.karma_range", karma),
            tr!(lang, "combat.check.karma_allowed"),
        ));
    }
    let p = &f.policy;
    let dark_t = PointTriggers {
        at_start: p.dark_at_start,
        on_turn_start: p.dark_on_turn_start,
        below_hp: fraction(file, name, "dark_below_hp", p.dark_below_hp)?,
        when_ally_down: p.dark_when_ally_down,
    };
    let light_t = PointTriggers {
        at_start: p.light_at_start,
        on_turn_start: p.light_on_turn_start,
        below_hp: fraction(file, name, "light_below_hp", p.light_below_hp)?,
        when_ally_down: p.light_when_ally_down,
    };
    if dark_t.any() && dark == 0 {
        return Err(err(
            &["policy"],
            tr!(lang, "combat.check.policy_dark_zero"),
            tr!(lang, "combat.check.policy_dark_allowed"),
        ));
    }
    if p.final_skill.is_some_and(|t| t != RawFinalSkill::Never) && final_skill.is_none() {
        return Err(err(
            &["policy", "final_skill"],
            tr!(lang, "combat.check.policy_fs_none"),
            tr!(lang, "combat.check.policy_fs_allowed"),
        ));
    }
    if light_t.any() && light == 0 {
        return Err(err(
            &["policy"],
            tr!(lang, "combat.check.policy_light_zero"),
            tr!(lang, "combat.check.policy_light_allowed"),
        ));
    }
    let target = match (p.target.unwrap_or_default(), &p.target_name) {
        (RawTarget::Named, None) => {
            return Err(err(
                &["policy", "target"],
                tr!(lang, "combat.check.named_needs_name"),
                tr!(lang, "combat.check.named_allowed"),
            ));
        }
        (RawTarget::Named, Some(t)) => {
            let enemies: Vec<String> = all
                .iter()
                .filter(|(_, o)| o.side != f.side)
                .map(|(k, _)| format!("\"{k}\""))
                .collect();
            match (groups.get(t), all.get(t)) {
                (Some(&(first, count)), Some(o)) if o.side != f.side => {
                    TargetPolicy::Named(first, count)
                }
                _ => {
                    return Err(err(
                        &["policy", "target_name"],
                        &tr!(lang, "combat.check.not_enemy", name = t),
                        &enemies.join(", "),
                    ))
                }
            }
        }
        (_, Some(_)) => {
            return Err(err(
                &["policy", "target_name"],
                tr!(lang, "combat.check.target_name_unused"),
                tr!(lang, "combat.check.target_name_allowed"),
            ));
        }
        (RawTarget::LowestHp, None) => TargetPolicy::LowestHp,
        (RawTarget::HighestHp, None) => TargetPolicy::HighestHp,
        (RawTarget::First, None) => TargetPolicy::First,
        (RawTarget::Random, None) => TargetPolicy::Random,
        (RawTarget::BestElement, None) => TargetPolicy::BestElement,
    };
    Ok(Fighter {
        name: name.to_string(),
        side: sides.iter().position(|s| *s == f.side).unwrap_or(0),
        level: f.level,
        stats,
        hp: f.hp as i32,
        pm: f.pm as i32,
        mode: match f.mode.unwrap_or_default() {
            RawMode::Offensive => Mode::Offensive,
            RawMode::Defensive => Mode::Defensive,
        },
        element,
        attacks,
        final_skill,
        light_points: light,
        dark_points: dark,
        actions,
        karma: karma as i8,
        policy: Policy {
            dark: dark_t,
            light: light_t,
            prefer_dark: p.prefer.unwrap_or_default() == RawPrefer::Dark,
            // C-LD-4: level 5 or more.
            final_skill_turn: match p.final_skill.unwrap_or_default() {
                _ if f.level < 5 => 0,
                RawFinalSkill::FirstTurn => 1,
                RawFinalSkill::SecondTurn => 2,
                RawFinalSkill::ThirdTurn => 3,
                RawFinalSkill::Never => 0,
            },
            defence: match p.defence.unwrap_or_default() {
                RawDefence::Best => DefencePolicy::Best,
                RawDefence::Dodge => DefencePolicy::Dodge,
                RawDefence::Parry => DefencePolicy::Parry,
                RawDefence::None => DefencePolicy::None,
            },
            target,
            attack: match p.attack.unwrap_or_default() {
                RawAttackChoice::Best => AttackPolicy::Best,
                RawAttackChoice::First => AttackPolicy::First,
            },
            offensive_below_hp: fraction(file, name, "offensive_below_hp", p.offensive_below_hp)?,
            defensive_below_hp: fraction(file, name, "defensive_below_hp", p.defensive_below_hp)?,
        },
        start,
        armour,
        support: Vec::new(),
        rules: Default::default(),
        periodic: Vec::new(),
        level5: (f.level >= 5 && (f.light_points.is_none() || f.dark_points.is_none())).then_some(
            super::model::Level5Points {
                dark_share: f.level5_dark,
                light_given: f.light_points,
                dark_given: f.dark_points,
                light_spent,
                dark_spent,
            },
        ),
    })
}

/// C-LD-1: a combatant's (Light, Dark) points under a level-5 grant of `grant` (parameter
/// `level5_points`), before the points spent: those given, else 1 + 1 below level 5, and
/// from level 5 the grant split by `level5_dark` (at most the grant) or two thirds Dark,
/// rounded (3 -> 2 Dark + 1 Light).
pub(super) fn points_under(f: &RawFighter, grant: u8) -> (u8, u8) {
    if f.level < 5 {
        return (f.light_points.unwrap_or(1), f.dark_points.unwrap_or(1));
    }
    super::model::Level5Points {
        dark_share: f.level5_dark,
        light_given: f.light_points,
        dark_given: f.dark_points,
        light_spent: 0,
        dark_spent: 0,
    }
    .resolve(grant)
}

/// The Light/Dark points of combatant `name` checked against its level under the level-5
/// grant in force (C-LD-1): at most 1 of each below level 5, 1 + grant of each and
/// 2 + grant in all at level 5, 10 of each from level 6; the points spent at most those
/// held. The one check of `check` and `run` ([`load_with`]).
fn check_points(
    file: &ScenarioFile,
    name: &str,
    f: &RawFighter,
    grant: u8,
) -> Result<(), UserError> {
    let lang = file.lang;
    let err = |k: &str, msg: &str, allowed: &str| -> UserError {
        file.error_at(
            &["combatants", name, k],
            &format!("combatants.{name}.{k}"),
            msg,
            allowed,
        )
    };
    let (light, dark) = points_under(f, grant);
    let (max_each, max_total, why) = match f.level {
        1..=4 => (1, 2, tr!(lang, "combat.check.points_below5").to_string()),
        5 => (
            1 + grant,
            2 + grant,
            tr!(lang, "combat.check.points_at5", grant, total = 2 + grant),
        ),
        _ => (10, 20, tr!(lang, "combat.check.points_from6").to_string()),
    };
    let counts = tr!(
        lang,
        "combat.check.points_at_level",
        light,
        dark,
        level = f.level
    );
    if light > max_each || light as u32 + dark as u32 > max_total as u32 {
        return Err(err("light_points", &counts, &why));
    }
    if dark > max_each {
        return Err(err("dark_points", &counts, &why));
    }
    // Points already spent before this combat come off what it holds at the start.
    let (light_spent, dark_spent) = (f.light_spent.unwrap_or(0), f.dark_spent.unwrap_or(0));
    if light_spent > light {
        return Err(err(
            "light_spent",
            &tr!(
                lang,
                "combat.check.light_spent",
                spent = light_spent,
                of = light
            ),
            &tr!(lang, "combat.check.light_spent_allowed", n = light),
        ));
    }
    if dark_spent > dark {
        return Err(err(
            "dark_spent",
            &tr!(
                lang,
                "combat.check.dark_spent",
                spent = dark_spent,
                of = dark
            ),
            &tr!(lang, "combat.check.dark_spent_allowed", n = dark),
        ));
    }
    Ok(())
}

pub(super) fn element(
    file: &ScenarioFile,
    path: &[&str],
    shown: &str,
    name: &str,
) -> Result<Element, UserError> {
    Element::parse(name).ok_or_else(|| {
        file.error_at(
            path,
            shown,
            &tr!(file.lang, "combat.check.unknown_element", name),
            &super::element::allowed_elements(file.lang),
        )
    })
}
