//! The policies in force for each combatant, and which of them come from a default the
//! file does not write (item "no silent defaults"): `check` prints the defaults a file
//! relies on, `summary.md` lists every policy in force. Every default is documented in
//! docs/scenarios.md.

use crate::lang::Lang;

use super::model::{AttackPolicy, CombatModel, DefencePolicy, Fighter, Mode, TargetPolicy};
use super::raw::RawScenario;

/// One setting of one combatant as the run uses it.
#[derive(Clone, Debug, PartialEq)]
pub struct Setting {
    /// `combatants.<name>` (or `combat`).
    pub who: String,
    /// Key path below `who`, e.g. `policy.final_skill`.
    pub key: String,
    pub value: String,
    /// The file does not write it: the default decides.
    pub defaulted: bool,
    /// What the value means for the fight (one short clause).
    pub meaning: String,
}

impl Setting {
    /// `combatants.hero.policy.final_skill = first_turn (default): ...`
    pub fn line(&self, lang: Lang) -> String {
        tr!(
            lang,
            "combat.settings.line",
            who = self.who,
            key = self.key,
            value = self.value,
            default = if self.defaulted {
                tr!(lang, "combat.settings.default_mark")
            } else {
                ""
            },
            meaning = self.meaning
        )
    }
}

/// Every deciding setting of every combatant group (before `count` expansion), in file
/// order (combatants by name).
pub fn settings(raw: &RawScenario, model: &CombatModel, lang: Lang) -> Vec<Setting> {
    let mut out = Vec::new();
    fn push(
        out: &mut Vec<Setting>,
        who: &str,
        key: &str,
        value: String,
        defaulted: bool,
        meaning: String,
    ) {
        out.push(Setting {
            who: who.to_string(),
            key: key.to_string(),
            value,
            defaulted,
            meaning,
        })
    }
    push(
        &mut out,
        "combat",
        "max_rounds",
        model.max_rounds.to_string(),
        raw.combat.max_rounds.is_none(),
        tr!(lang, "combat.settings.max_rounds").into(),
    );
    super::fatigue::settings(raw, model, &mut out, lang);
    for (name, rf) in &raw.combatants {
        let Some(f) = Fighter::of_entry(&model.fighters, name) else {
            continue;
        };
        let who = format!("combatants.{name}");
        let p = &rf.policy;
        let enemies = model.fighters.iter().filter(|o| o.side != f.side).count();
        push(
            &mut out,
            &who,
            "mode",
            match f.mode {
                Mode::Offensive => "offensive".into(),
                Mode::Defensive => "defensive".into(),
            },
            rf.mode.is_none(),
            match f.mode {
                Mode::Offensive => tr!(lang, "combat.settings.mode_offensive").into(),
                Mode::Defensive => tr!(lang, "combat.settings.mode_defensive").into(),
            },
        );
        let mut push = |key: &str, value: String, defaulted: bool, meaning: String| {
            push(&mut out, &who, key, value, defaulted, meaning)
        };
        push(
            "policy.defence",
            match f.policy.defence {
                DefencePolicy::Best => "best",
                DefencePolicy::Dodge => "dodge",
                DefencePolicy::Parry => "parry",
                DefencePolicy::None => "none",
            }
            .into(),
            p.defence.is_none(),
            tr!(lang, "combat.settings.defence").into(),
        );
        if enemies > 1 {
            push(
                "policy.target",
                match f.policy.target {
                    TargetPolicy::LowestHp => "lowest_hp".to_string(),
                    TargetPolicy::HighestHp => "highest_hp".into(),
                    TargetPolicy::First => "first".into(),
                    TargetPolicy::Random => "random".into(),
                    TargetPolicy::BestElement => "best_element".into(),
                    TargetPolicy::Named(..) => {
                        format!("named ({})", p.target_name.clone().unwrap_or_default())
                    }
                },
                p.target.is_none(),
                tr!(lang, "combat.settings.target").into(),
            );
        }
        if f.attacks.len() > 1 {
            push(
                "policy.attack",
                match f.policy.attack {
                    AttackPolicy::Best => "best",
                    AttackPolicy::First => "first",
                }
                .into(),
                p.attack.is_none(),
                tr!(lang, "combat.settings.attack").into(),
            );
        }
        let spends = |t: &super::model::PointTriggers| {
            let mut v = Vec::new();
            if t.at_start {
                v.push(tr!(lang, "combat.cond.at_start").to_string());
            }
            if t.on_turn_start {
                v.push(tr!(lang, "combat.cond.on_turn_start").into());
            }
            if let Some(x) = t.below_hp {
                v.push(tr!(lang, "combat.cond.below_hp", pct = lang.pct(x, 0)));
            }
            if t.when_ally_down {
                v.push(tr!(lang, "combat.cond.when_ally_down").into());
            }
            v
        };
        for (kind, points, t, given) in [
            (
                "dark",
                f.dark_points,
                &f.policy.dark,
                rf.dark_points.is_some(),
            ),
            (
                "light",
                f.light_points,
                &f.policy.light,
                rf.light_points.is_some(),
            ),
        ] {
            let when = spends(t);
            let defaulted_points = !given && (f.level < 5 || rf.level5_dark.is_none());
            if !when.is_empty() {
                push(
                    &format!("{kind}_points"),
                    points.to_string(),
                    defaulted_points,
                    tr!(lang, "combat.settings.points").into(),
                );
            }
            if points > 0 {
                push(
                    &format!("policy.{kind}_*"),
                    if when.is_empty() {
                        "never".into()
                    } else {
                        when.join(", ")
                    },
                    when.is_empty(),
                    if when.is_empty() {
                        if f.rules.points {
                            tr!(lang, "combat.settings.no_trigger_rules", kind, points)
                        } else {
                            tr!(lang, "combat.settings.no_trigger", kind, points)
                        }
                    } else {
                        tr!(lang, "combat.settings.when_spends", kind)
                    },
                );
            }
        }
        if f.policy.dark.any() && f.policy.light.any() {
            push(
                "policy.prefer",
                if f.policy.prefer_dark {
                    "dark"
                } else {
                    "light"
                }
                .into(),
                p.prefer.is_none(),
                tr!(lang, "combat.settings.prefer").into(),
            );
        }
        if f.final_skill.is_some() && f.level >= 5 {
            let turn = f.policy.final_skill_turn;
            push(
                "policy.final_skill",
                match turn {
                    0 => "never",
                    1 => "first_turn",
                    2 => "second_turn",
                    _ => "third_turn",
                }
                .into(),
                p.final_skill.is_none(),
                match turn {
                    0 => tr!(lang, "combat.settings.fs_never").into(),
                    1 => tr!(lang, "combat.settings.fs_first").into(),
                    2 => tr!(lang, "combat.settings.fs_second").into(),
                    _ => tr!(lang, "combat.settings.fs_third").into(),
                },
            );
        }
        out.extend(super::trigger::settings(&who, f, model, lang));
    }
    out.extend(super::support_keys::settings(&raw.support, model, lang));
    out.extend(super::periodic_keys::settings(&raw.periodic, lang));
    out
}

/// The settings a file relies on without writing them, one line each (what `check`
/// prints).
pub fn defaults_relied_on(model: &CombatModel, lang: Lang) -> Vec<String> {
    model
        .settings
        .iter()
        .filter(|s| s.defaulted)
        .map(|s| s.line(lang))
        .collect()
}

/// The `## Policies in force` section of `summary.md`.
/// A setting's value as a table cell: a number as written (escaping would only add
/// backslashes before its `-` or `.`), any other text (a policy or combatant name from the
/// file) through [`crate::report::md_text`].
fn value_cell(v: &str) -> String {
    if v.parse::<f64>().is_ok() {
        v.to_string()
    } else {
        crate::report::md_text(v)
    }
}

pub fn summary_section(model: &CombatModel, lang: Lang) -> String {
    let mut s = String::from(tr!(lang, "combat.settings.section"));
    for x in &model.settings {
        s += &format!(
            "| {}.{} | {} | {} | {} |\n",
            crate::report::md_text(&x.who),
            // Keys are the tool's own (`mode`, `policy.rules[0]`), never a file's text.
            x.key,
            value_cell(&x.value),
            if x.defaulted {
                tr!(lang, "combat.settings.source_default")
            } else {
                tr!(lang, "combat.settings.source_file")
            },
            x.meaning
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::value_cell;

    #[test]
    fn a_value_cell_keeps_numbers_and_escapes_names() {
        // Numbers as written: no backslash before a sign or a decimal point.
        assert_eq!(value_cell("-1"), "-1");
        assert_eq!(value_cell("0.5"), "0.5");
        assert_eq!(value_cell("lowest_hp"), "lowest_hp");
        // A name from the file (a support action in a rule) cannot open a cell or a tag.
        assert_eq!(
            value_cell("when round >= 1: use a|<b>"),
            "when round \\>= 1: use a\\|\\<b\\>"
        );
    }
}
