//! The keys of policy rules (`[[combatants.<name>.policy.rules]]`): raw serde forms and
//! their validation into `trigger.rs` rules. Every error names file, line, column, key and
//! what is allowed.

use serde::Deserialize;

use crate::error::UserError;
use crate::scenario::ScenarioFile;

use super::model::{Fighter, Mode};
use super::raw::RawMode;
use super::state::{ILLUMINATION, NONE, SEPULCRALE};
use super::support::MAX_SUPPORT;
use super::trigger::{Cond, Rule, Rules, Then, MAX_COND_DEPTH, MAX_COND_ITEMS, MAX_RULES};

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
    let lang = file.lang;
    let mut support = Vec::new();
    let base = ["combatants", name, "policy", "rules"];
    if raw.len() > MAX_RULES {
        return Err(file.error_at(
            &base,
            &format!("combatants.{name}.policy.rules"),
            &tr!(lang, "combat.check.n_rules", n = raw.len()),
            &tr!(lang, "combat.check.at_most", n = MAX_RULES),
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
                tr!(lang, "combat.check.one_thing"),
                tr!(lang, "combat.check.one_thing_allowed"),
            ));
        }
        let then = if let Some(sp) = r.spend {
            match sp {
                RawSpend::Dark if f.dark_points == 0 => {
                    return Err(err(
                        "spend",
                        tr!(lang, "combat.check.rule_dark_zero"),
                        tr!(lang, "combat.check.rule_dark_allowed"),
                    ))
                }
                RawSpend::Light if f.light_points == 0 => {
                    return Err(err(
                        "spend",
                        tr!(lang, "combat.check.rule_light_zero"),
                        tr!(lang, "combat.check.rule_light_allowed"),
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
                    tr!(lang, "combat.check.rule_fs_none"),
                    tr!(lang, "combat.check.rule_fs_allowed"),
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
                        &tr!(lang, "combat.check.support_slot", name = u, n = slot + 1),
                        &tr!(lang, "combat.check.support_slot_allowed", n = MAX_SUPPORT),
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
                    &tr!(lang, "combat.check.use_unknown", name = u),
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
    let lang = file.lang;
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
            &tr!(lang, "combat.check.nested", depth),
            &tr!(lang, "combat.check.nested_allowed", n = MAX_COND_DEPTH),
        ));
    }
    let mut out = Vec::new();
    let round = |k: &str, v: i64| {
        if (1..=max_rounds as i64).contains(&v) {
            Ok(v as u32)
        } else {
            Err(err(
                k,
                &tr!(lang, "combat.check.round_range", round = v),
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
                &tr!(lang, "combat.check.not_fraction", value = x),
                tr!(lang, "combat.check.fraction_allowed"),
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
                tr!(lang, "combat.check.ally_down_false"),
                tr!(lang, "combat.check.ally_down_allowed"),
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
                &tr!(lang, "combat.check.out_of_range", value = v),
                tr!(lang, "combat.check.fatigue_track_allowed"),
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
                &tr!(lang, "combat.check.n_conditions", n = list.len()),
                &tr!(lang, "combat.check.cond_items_allowed", n = MAX_COND_ITEMS),
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
