//! A traced combat in words (current language) and as JSON: one line per step, names
//! instead of indices. Nothing here decides anything; the steps come from the batch code.

use serde_json::{json, Value};

use crate::lang::Lang;
use crate::systems::cosmos::Outcome;
use crate::systems::trace::{finished, Traced};

use super::acc::END_NAMES;
use super::action::{RIPOSTE, SEP_COUNTER};
use super::model::Mode;
use super::sim::CombatSim;
use super::state::ILLUMINATION;
use super::watch::{Skip, Step};

/// The rulebook's names of the six stats (the same words in both languages).
const STATS: [&str; 6] = [
    "Force",
    "Esprit",
    "Charisme",
    "Agilité",
    "Précision",
    "Chance",
];

fn posture(p: u8) -> &'static str {
    if p == ILLUMINATION {
        "Illumination"
    } else {
        "Sépulcrale"
    }
}

/// A number as a designer writes it: 62, 62.5, 1.25.
fn num(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.2}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

fn signed(k: i32) -> String {
    if k > 0 {
        format!("+{k}")
    } else {
        k.to_string()
    }
}

/// Trial `trial`'s steps as lines and JSON.
pub(super) fn render(
    sim: &CombatSim,
    trial: u64,
    outcome: usize,
    steps: &[Step],
    lang: Lang,
) -> Traced {
    let m = &sim.model;
    let name = |f: u8| m.fighters[f as usize].name.as_str();
    let attack = |a: u8| m.attacks[a as usize].name.as_str();
    let outcomes = super::trace::outcome_names(sim);
    let mut lines: Vec<(u8, String)> = Vec::with_capacity(steps.len());
    let mut json_steps: Vec<Value> = Vec::with_capacity(steps.len());
    let mut i = 0;
    while i < steps.len() {
        let (depth, text, j): (u8, String, Value) = match steps[i] {
            Step::Round { round } => {
                // The round's slots follow it: one line with the order.
                let mut order = Vec::new();
                let mut slots = Vec::new();
                while let Some(Step::Slot { who, action, d20 }) = steps.get(i + 1) {
                    let mut s = name(*who).to_string();
                    if *action > 0 {
                        s.push_str(&tr!(lang, "trace.extra_action", n = action + 1));
                    }
                    if *d20 > 0 {
                        s.push_str(&tr!(lang, "trace.tie_d20", d20));
                    }
                    order.push(s);
                    slots.push(json!({"who": name(*who), "action": action, "d20": d20}));
                    i += 1;
                }
                let text = tr!(lang, "trace.round", round, order = order.join(", "));
                (
                    0,
                    text,
                    json!({"step": "round", "round": round, "order": slots}),
                )
            }
            Step::Simultaneous { who } => {
                let names: Vec<&str> = (0..m.fighters.len())
                    .filter(|&f| who >> f & 1 != 0)
                    .map(|f| name(f as u8))
                    .collect();
                (
                    1,
                    tr!(lang, "trace.simultaneous", who = names.join(", ")),
                    json!({"step": "simultaneous", "who": names}),
                )
            }
            Step::Slot { who, .. } => (1, name(who).to_string(), json!({"step": "slot"})),
            Step::Skip { who, why } => {
                let (key, text) = match why {
                    Skip::IlluminationBacklash => (
                        "illumination_backlash",
                        tr!(lang, "trace.skip.illumination_backlash", who = name(who)),
                    ),
                    Skip::Exhausted => (
                        "exhausted",
                        tr!(lang, "trace.skip.exhausted", who = name(who)),
                    ),
                    Skip::NoTarget => (
                        "no_target",
                        tr!(lang, "trace.skip.no_target", who = name(who)),
                    ),
                    Skip::NoAttack => (
                        "no_attack",
                        tr!(lang, "trace.skip.no_attack", who = name(who)),
                    ),
                    Skip::ExtraActionLost => (
                        "extra_action_lost",
                        tr!(lang, "trace.skip.extra_action_lost", who = name(who)),
                    ),
                };
                (
                    1,
                    text,
                    json!({"step": "skip", "who": name(who), "why": key}),
                )
            }
            Step::Attack {
                who,
                attack: a,
                target,
                mode,
                final_skill,
                by,
                ruled,
            } => {
                let mut how = Vec::new();
                if mode == Mode::Offensive {
                    how.push(tr!(lang, "trace.mode_offensive").to_string());
                }
                if final_skill {
                    how.push(tr!(lang, "trace.final_skill").to_string());
                }
                if by == RIPOSTE {
                    how.push(tr!(lang, "trace.riposte").to_string());
                }
                if by == SEP_COUNTER {
                    how.push(tr!(lang, "trace.sepulchral_counter").to_string());
                }
                if ruled {
                    how.push(tr!(lang, "trace.ruled").to_string());
                }
                let how = if how.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", how.join("; "))
                };
                let by_name = match by {
                    RIPOSTE => "riposte",
                    SEP_COUNTER => "sepulchral_counter",
                    _ => "action",
                };
                let text = tr!(
                    lang,
                    "trace.attack",
                    who = name(who),
                    target = name(target),
                    attack = attack(a),
                    how
                );
                let mode = if mode == Mode::Offensive {
                    "offensive"
                } else {
                    "defensive"
                };
                (
                    if by == 0 { 1 } else { 2 },
                    text,
                    json!({"step": "attack", "who": name(who), "target": name(target),
                        "attack": attack(a), "mode": mode, "final_skill": final_skill,
                        "by": by_name, "policy_rule": ruled}),
                )
            }
            Step::Support {
                who,
                action,
                target,
                landed,
            } => {
                let s = &m.support[action as usize].name;
                let text = if landed {
                    tr!(
                        lang,
                        "trace.support",
                        who = name(who),
                        action = s,
                        target = name(target)
                    )
                } else {
                    tr!(
                        lang,
                        "trace.support_failed",
                        who = name(who),
                        action = s,
                        target = name(target)
                    )
                };
                (
                    1,
                    text,
                    json!({"step": "support", "who": name(who), "action": s,
                        "target": name(target), "landed": landed}),
                )
            }
            Step::Defends { who } => (
                2,
                tr!(lang, "trace.defends", who = name(who)),
                json!({"step": "defends", "who": name(who)}),
            ),
            Step::Test {
                who,
                stat,
                threshold,
                karma,
                modifier,
                natural,
                die,
                die_kind,
                score,
                outcome,
            } => {
                let what = match stat {
                    Some(s) => STATS[s as usize].to_string(),
                    None => tr!(lang, "trace.attack_test").to_string(),
                };
                let modifier_text = if modifier == 0 {
                    String::new()
                } else {
                    tr!(lang, "trace.modifier", m = signed(modifier))
                };
                use crate::systems::cosmos::KarmaDie;
                let roll = match die_kind {
                    KarmaDie::None => tr!(lang, "trace.roll_natural", natural),
                    KarmaDie::Minus => tr!(lang, "trace.roll_minus", natural, die, score),
                    KarmaDie::Plus => tr!(lang, "trace.roll_plus", natural, die, score),
                };
                let text = tr!(
                    lang,
                    "trace.test",
                    who = name(who),
                    what,
                    threshold = num(threshold),
                    karma = signed(karma as i32),
                    modifier = modifier_text,
                    roll,
                    outcome = outcome.label(lang)
                );
                (
                    3,
                    text,
                    json!({"step": "test", "who": name(who),
                        "stat": stat.map(|s| super::model::STAT_NAMES[s as usize]),
                        "threshold": threshold, "karma": karma, "modifier": modifier,
                        "natural": natural,
                        "karma_die": (die_kind != KarmaDie::None).then_some(die),
                        "score": score,
                        "outcome": outcome.name()}),
                )
            }
            Step::Aura { who, holder, face } => {
                let text = if face == 0 {
                    tr!(
                        lang,
                        "trace.aura_cancelled",
                        who = name(who),
                        holder = name(holder)
                    )
                } else {
                    tr!(
                        lang,
                        "trace.aura",
                        who = name(who),
                        holder = name(holder),
                        face
                    )
                };
                (
                    3,
                    text,
                    json!({"step": "aura", "who": name(who), "holder": name(holder), "face": face}),
                )
            }
            Step::Karma { who, from, to } if from == to => {
                i += 1;
                let _ = who;
                continue;
            }
            Step::Karma { who, from, to } => (
                3,
                tr!(
                    lang,
                    "trace.karma",
                    who = name(who),
                    from = signed(from as i32),
                    to = signed(to as i32)
                ),
                json!({"step": "karma", "who": name(who), "from": from, "to": to}),
            ),
            Step::CritIgnored { who, rolled } => (
                3,
                tr!(
                    lang,
                    "trace.crit_ignored",
                    who = name(who),
                    rolled = rolled.label(lang)
                ),
                json!({"step": "crit_ignored", "who": name(who), "rolled": rolled.name(),
                    "counts_as": Outcome::Failure.name()}),
            ),
            Step::AuraLost { who } => (
                3,
                tr!(lang, "trace.aura_lost", who = name(who)),
                json!({"step": "aura_lost", "who": name(who)}),
            ),
            Step::Evade { who, roll, evaded } => (
                2,
                if evaded {
                    tr!(lang, "trace.evaded", who = name(who), roll)
                } else {
                    tr!(lang, "trace.not_evaded", who = name(who), roll)
                },
                json!({"step": "evade", "who": name(who), "d10": roll, "evaded": evaded}),
            ),
            Step::Stopped { who, riposte } => (
                2,
                if riposte {
                    tr!(lang, "trace.stopped_riposte", who = name(who))
                } else {
                    tr!(lang, "trace.stopped", who = name(who))
                },
                json!({"step": "stopped", "who": name(who), "riposte": riposte}),
            ),
            Step::Damage {
                from,
                to,
                dice,
                multiplier,
                element,
                unfloored,
                before_armour,
                after_armour,
            } => {
                // The armour step takes its percentage of the product before the floor
                // (`resolve.rs`): show that product, not the floored one it never uses.
                let (armour, before) = if after_armour != before_armour {
                    (
                        tr!(lang, "trace.armour", after = after_armour),
                        num(unfloored),
                    )
                } else {
                    (String::new(), before_armour.to_string())
                };
                let text = tr!(
                    lang,
                    "trace.damage",
                    to = name(to),
                    dice,
                    mult = num(multiplier),
                    element = num(element),
                    before,
                    armour
                );
                (
                    2,
                    text,
                    json!({"step": "damage", "from": name(from), "to": name(to), "dice": dice,
                        "multiplier": multiplier, "element": element, "unfloored": unfloored,
                        "before_armour": before_armour, "after_armour": after_armour}),
                )
            }
            Step::Hp { who, before, after } => (
                2,
                if after > before {
                    tr!(lang, "trace.healed", who = name(who), before, after)
                } else {
                    tr!(lang, "trace.hp", who = name(who), before, after)
                },
                json!({"step": "hp", "who": name(who), "before": before, "after": after}),
            ),
            Step::Revive { who, hp } => (
                2,
                tr!(lang, "trace.revive", who = name(who), hp),
                json!({"step": "revive", "who": name(who), "hp": hp}),
            ),
            Step::Down { who } => (
                2,
                tr!(lang, "trace.down", who = name(who)),
                json!({"step": "down", "who": name(who)}),
            ),
            Step::Posture {
                who,
                posture: p,
                face,
            } => {
                let text = if face > 0 {
                    tr!(
                        lang,
                        "trace.posture_face",
                        who = name(who),
                        posture = posture(p),
                        face
                    )
                } else {
                    tr!(lang, "trace.posture", who = name(who), posture = posture(p))
                };
                (
                    1,
                    text,
                    json!({"step": "posture", "who": name(who), "posture": posture(p).to_lowercase(),
                        "advantage": face}),
                )
            }
            Step::PostureEnd {
                who,
                posture: p,
                reason,
                apocalypse,
                backlash,
                disadvantage,
            } => {
                let reason_name = END_NAMES[reason as usize];
                let mut after = Vec::new();
                if apocalypse {
                    after.push(tr!(lang, "trace.apocalypse").to_string());
                }
                if backlash {
                    after.push(if disadvantage > 0 {
                        tr!(lang, "trace.backlash_face", face = disadvantage)
                    } else {
                        tr!(lang, "trace.backlash").to_string()
                    });
                }
                let after = if after.is_empty() {
                    String::new()
                } else {
                    format!(": {}", after.join("; "))
                };
                let reason_text = match reason_name {
                    "expiry" => tr!(lang, "trace.ends.expiry"),
                    "final_skill" => tr!(lang, "trace.ends.final_skill"),
                    "combat_end" => tr!(lang, "trace.ends.combat_end"),
                    _ => tr!(lang, "trace.ends.holder_down"),
                };
                let text = tr!(
                    lang,
                    "trace.posture_end",
                    who = name(who),
                    posture = posture(p),
                    reason = reason_text,
                    after
                );
                (
                    1,
                    text,
                    json!({"step": "posture_end", "who": name(who),
                        "posture": posture(p).to_lowercase(), "reason": reason_name,
                        "apocalypse": apocalypse, "backlash": backlash,
                        "disadvantage": disadvantage}),
                )
            }
            Step::Fatigue { who, fp, fm } => (
                2,
                tr!(lang, "trace.fatigue", who = name(who), fp, fm),
                json!({"step": "fatigue", "who": name(who), "fp": fp, "fm": fm}),
            ),
            Step::Joins { who } => (
                1,
                tr!(lang, "trace.joins", who = name(who)),
                json!({"step": "joins", "who": name(who)}),
            ),
            Step::Leaves { who } => (
                1,
                tr!(lang, "trace.leaves", who = name(who)),
                json!({"step": "leaves", "who": name(who)}),
            ),
            Step::Periodic {
                who,
                effect,
                amount,
            } => {
                use super::periodic::PeriodicKind as K;
                let p = &m.periodic[effect as usize];
                let (who, effect) = (name(who), &p.name);
                let text = match p.kind {
                    K::Regeneration => {
                        tr!(lang, "trace.periodic_regeneration", who, effect, amount)
                    }
                    K::Damage => tr!(lang, "trace.periodic_damage", who, effect, amount),
                    K::Aura => tr!(lang, "trace.periodic_aura", who, effect, amount),
                };
                (
                    1,
                    text,
                    json!({"step": "periodic", "who": who, "effect": effect, "amount": amount}),
                )
            }
            Step::Placed {
                who,
                from,
                effect,
                until,
            } => {
                let p = &m.periodic[effect as usize];
                (
                    2,
                    tr!(
                        lang,
                        "trace.periodic_placed",
                        who = name(who),
                        from = name(from),
                        effect = p.name,
                        until
                    ),
                    json!({"step": "placed", "who": name(who), "from": name(from), "effect": p.name, "until": until}),
                )
            }
            Step::KarmaEvent { who, by } => (
                1,
                tr!(
                    lang,
                    "trace.karma_event",
                    who = name(who),
                    by = signed(by as i32)
                ),
                json!({"step": "karma_event", "who": name(who), "by": by}),
            ),
            Step::End { outcome, rounds } => {
                finished(lang, &outcomes[outcome as usize], rounds.into())
            }
        };
        crate::systems::trace::add_step(&mut lines, &mut json_steps, depth, text, j);
        i += 1;
    }
    Traced {
        trial,
        outcome: outcomes[outcome].clone(),
        lines,
        steps: json_steps,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_a_designer_writes_them() {
        assert_eq!(num(62.0), "62");
        assert_eq!(num(62.5), "62.5");
        assert_eq!(num(1.126), "1.13");
        assert_eq!(signed(3), "+3");
        assert_eq!(signed(-2), "-2");
        assert_eq!(signed(0), "0");
    }
}
