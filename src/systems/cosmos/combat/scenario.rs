//! Combat scenario files: validation of the raw model into a [`CombatModel`]. Every
//! error names file, line, column, key and what is allowed.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::aura::Edition;

use super::model::*;
pub use super::raw::*;
use super::scenario_fighter::{element, validate_fighter};
use crate::dice::DiceExpr;

const DEFAULT_MAX_ROUNDS: u32 = 50;

/// Reads and validates a combat scenario.
pub fn load(file: &ScenarioFile) -> Result<(RawScenario, CombatModel), UserError> {
    load_with(file, &[])
}

/// [`load`] with the `--option` pairs of the command on top of the file's `[rules]`: the
/// parameters that bound scenario values (`level5_points`, C-LD-1) are those in force, in
/// `check` and `run` alike (`run` resolves the same pairs afterwards).
pub fn load_with(
    file: &ScenarioFile,
    options: &[String],
) -> Result<(RawScenario, CombatModel), UserError> {
    let raw: RawScenario = file.parse_raw_hinted(&super::raw::allowed)?;
    let mut model = validate(file, &raw, options)?;
    model.settings = super::settings::settings(&raw, &model, file.lang);
    Ok((raw, model))
}

fn validate(
    file: &ScenarioFile,
    raw: &RawScenario,
    options: &[String],
) -> Result<CombatModel, UserError> {
    let max_rounds = raw.combat.max_rounds.unwrap_or(DEFAULT_MAX_ROUNDS);
    if !(1..=1000).contains(&max_rounds) {
        return Err(file.error_at(
            &["combat", "max_rounds"],
            "combat.max_rounds",
            &tr!(file.lang, "combat.check.rounds_range", rounds = max_rounds),
            "1..1000",
        ));
    }
    // The rule options are checked here too so `check` catches them; `--option` wins.
    let mut in_force = file.rule_options(&raw.rules)?;
    for (k, v) in crate::rules::RuleOptions::from_pairs(options, file.lang)?.explicitly_set() {
        in_force.set(&k, &v, file.lang)?;
    }
    let grant = in_force.integer("level5_points") as u8;
    if raw.attacks.is_empty() {
        return Err(file.error_at(
            &[],
            "attacks",
            tr!(file.lang, "combat.check.no_attack"),
            tr!(file.lang, "combat.check.no_attack_allowed"),
        ));
    }
    let periodic = super::periodic_keys::periodic_defs(file, &raw.periodic)?;
    let mut attacks = Vec::new();
    let mut attack_index = BTreeMap::new();
    for (name, a) in &raw.attacks {
        attack_index.insert(name.clone(), attacks.len());
        let mut at = validate_attack(file, name, a)?;
        at.on_hit = super::periodic_keys::on_hit(file, name, &a.on_hit, &periodic)?;
        attacks.push(at);
    }
    let attack_names = raw
        .attacks
        .keys()
        .map(|k| format!("\"{k}\""))
        .collect::<Vec<_>>()
        .join(", ");

    let support = super::support_keys::support_defs(file, &raw.support)?;
    let attack_list: Vec<String> = raw.attacks.keys().cloned().collect();
    let support_names: Vec<String> = raw.support.keys().cloned().collect();

    let sides: Vec<String> = raw
        .combatants
        .values()
        .map(|f| f.side.clone())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    if sides.len() < 2 {
        return Err(file.error_at(
            &["combatants"],
            "combatants",
            &tr!(file.lang, "combat.check.sides_found", n = sides.len()),
            tr!(file.lang, "combat.check.two_sides_allowed"),
        ));
    }
    // First index of each named group, for `target = "named"`.
    let mut group_start = BTreeMap::new();
    let mut total = 0usize;
    for (name, f) in &raw.combatants {
        let count = f.count.unwrap_or(1);
        if !(1..=8).contains(&count) {
            return Err(file.error_at(
                &["combatants", name, "count"],
                &format!("combatants.{name}.count"),
                &tr!(file.lang, "combat.check.out_of_range", value = count),
                "1..8",
            ));
        }
        group_start.insert(name.clone(), (total, count as usize));
        total += count as usize;
    }
    if total > MAX_FIGHTERS {
        return Err(file.error_at(
            &["combatants"],
            "combatants",
            &tr!(file.lang, "combat.check.combatants_total", n = total),
            &tr!(file.lang, "combat.check.at_most", n = MAX_FIGHTERS),
        ));
    }
    let mut fighters = Vec::new();
    let mut small = Vec::new();
    let mut affinity = Vec::new();
    for (name, f) in &raw.combatants {
        let rules = super::small::validate_small(file, name, f, &group_start, &raw.combatants)?;
        let (first, aff) = super::affinity::validate(
            file,
            name,
            &f.element,
            &f.elements,
            &f.element_coefficients,
        )?;
        let mut fighter = validate_fighter(
            file,
            name,
            f,
            &sides,
            &attack_index,
            &attack_names,
            &group_start,
            &raw.combatants,
            grant,
        )?;
        fighter.element = first;
        fighter.periodic = super::periodic_keys::held(file, name, &f.periodic, &periodic)?;
        (fighter.rules, fighter.support) = super::trigger_keys::rules(
            file,
            name,
            &f.policy.rules,
            &fighter,
            &attack_list,
            &support_names,
            max_rounds,
        )?;
        let count = f.count.unwrap_or(1);
        for i in 1..=count {
            let mut c = fighter.clone();
            if count > 1 {
                c.name = format!("{name}_{i}");
            }
            fighters.push(c);
            small.push(rules);
            affinity.push(aff);
        }
    }
    let events = super::events::validate(file, &raw.events, &group_start, max_rounds)?;
    let fatigue = super::fatigue::validate(file, raw, &fighters)?;
    Ok(CombatModel {
        events,
        fatigue,
        affinity,
        support,
        periodic,
        title: raw.title.as_ref().map_or_else(
            || tr!(file.lang, "combat.report.default_title").into(),
            |t| t.in_lang(file.lang).to_string(),
        ),
        question: raw.question.as_ref().map_or_else(
            || tr!(file.lang, "combat.report.default_question").into(),
            |t| t.in_lang(file.lang).to_string(),
        ),
        sides,
        fighters,
        attacks,
        max_rounds,
        edition: match raw.edition {
            Some(RawEdition::Previous) => Edition::Previous,
            _ => Edition::Current,
        },
        small,
        settings: Vec::new(),
    })
}

fn validate_attack(file: &ScenarioFile, name: &str, a: &RawAttack) -> Result<Attack, UserError> {
    let key = |k: &str| format!("attacks.{name}.{k}");
    // A dice total below 0 deals no damage (C-CMB-4 reading in the rules guide).
    let dice = DiceExpr::parse(&a.damage)
        .map(|d| d.at_least(0))
        .map_err(|e| {
            file.error_at(
                &["attacks", name, "damage"],
                &key("damage"),
                &e.text(file.lang),
                tr!(file.lang, "combat.check.dice_allowed"),
            )
        })?;
    if dice.max_total() <= 0 {
        // Valid, but likely a typo: such an attack can never hurt anyone.
        file.warn_at(
            &["attacks", name, "damage"],
            &key("damage"),
            &tr!(
                file.lang,
                "combat.check.never_damage",
                dice = crate::limits::clip(&a.damage, file.lang)
            ),
        );
    }
    let mut elements = Vec::new();
    match (&a.element, &a.elements) {
        (Some(_), Some(_)) => {
            return Err(file.error_at(
                &["attacks", name, "elements"],
                &key("elements"),
                tr!(file.lang, "combat.check.element_both"),
                tr!(file.lang, "combat.check.element_one_of"),
            ));
        }
        (Some(e), None) => elements.push(element(
            file,
            &["attacks", name, "element"],
            &key("element"),
            e,
        )?),
        (None, Some(list)) => {
            if list.len() > 2 {
                return Err(file.error_at(
                    &["attacks", name, "elements"],
                    &key("elements"),
                    &tr!(file.lang, "combat.check.n_elements", n = list.len()),
                    tr!(file.lang, "combat.check.one_or_two_elements"),
                ));
            }
            for (i, e) in list.iter().enumerate() {
                let idx = i.to_string();
                elements.push(element(
                    file,
                    &["attacks", name, "elements", &idx],
                    &format!("{}[{i}]", key("elements")),
                    e,
                )?);
            }
        }
        (None, None) => {}
    }
    let k = super::keys::attack_keys(file, name, a)?;
    if a.pm_cost > 100_000 {
        return Err(file.error_at(
            &["attacks", name, "pm_cost"],
            &key("pm_cost"),
            &tr!(file.lang, "combat.check.out_of_range", value = a.pm_cost),
            "0..100000",
        ));
    }
    Ok(Attack {
        name: name.to_string(),
        stat: k.stat,
        stats: k.stats,
        dice,
        elements,
        pm_cost: a.pm_cost as i32,
        hp_cost: k.hp_cost,
        modifier: k.modifier,
        threshold: k.threshold,
        targets: k.targets,
        uses: k.uses,
        cooldown: k.cooldown,
        undodgeable: a.undodgeable,
        unparryable: a.unparryable,
        on_hit: None,
    })
}
