//! A traced skirmish in words and JSON (`trace.rs` keeps its steps), in the book's terms.

use serde_json::{json, Value};

use crate::lang::Lang;
use crate::systems::trace::Traced;
use crate::systems::trinites::words::{attack, declares, regen, zone};

use super::model::Skirmish;
use super::sim::Outcome;
use super::trace::{outcome, Step, Unanswered};

/// Trial `trial`'s steps as lines and JSON in `lang`.
pub(super) fn render(lang: Lang, m: &Skirmish, trial: u64, o: &Outcome, steps: &[Step]) -> Traced {
    let t = |w: u8| m.names[w as usize].as_str();
    let spot = |s: u8| {
        if s == 0 {
            (
                "melee".to_string(),
                tr!(lang, "trace_trinites.spot_melee").to_string(),
            )
        } else {
            let g = &m.groups[s as usize - 1].name;
            (g.clone(), tr!(lang, "trace_trinites.spot_post", group = g))
        }
    };
    // Lines keep the file's names as written (no capital).
    Traced::told(trial, outcome(m, o.end), steps, |step| {
        Some(match step {
            Step::Initiative {
                who,
                roll,
                score,
                zone: z,
            } => (
                0,
                tr!(
                    lang,
                    "trace_trinites.initiative_zone",
                    who = t(who),
                    roll = roll.text(lang),
                    score,
                    zone = zone(lang, z).1
                ),
                roll.json(json!({"step": "initiative", "who": t(who), "score": score, "zone": zone(lang, z).0})),
            ),
            Step::Regen {
                who,
                light,
                archonte,
                before,
                after,
                left,
            } => regen(lang, t(who), json!(t(who)), light, archonte, [before, after, left]),
            Step::Disarmed {
                who,
                back,
                bare_hands,
            } => (
                2,
                if back {
                    tr!(lang, "trace_trinites.weapon_back", who = t(who))
                } else if bare_hands {
                    tr!(lang, "trace_trinites.weapon_away_bare_hands", who = t(who))
                } else {
                    tr!(lang, "trace_trinites.weapon_away", who = t(who))
                },
                json!({"step": "disarmed", "who": t(who), "weapon_back": back, "bare_hands": bare_hands}),
            ),
            Step::LosesWeapon { who } => (
                3,
                tr!(lang, "trace_trinites.loses_weapon", who = t(who)),
                json!({"step": "loses_weapon", "who": t(who)}),
            ),
            Step::Declares { who, free, malus } => declares(lang, t(who), json!(t(who)), free, malus),
            Step::Tactic {
                who,
                target,
                feint,
                roll,
                reaction,
                ok,
            } => {
                let r = reaction.map_or(String::new(), |r| {
                    tr!(lang, "trace_trinites.tactic_reaction", roll = r.text(lang))
                });
                let verdict = if ok {
                    tr!(lang, "trace_trinites.tactic_works")
                } else {
                    tr!(lang, "trace_trinites.tactic_fails")
                };
                let text = tr_fill!(
                    if feint {
                        tr!(lang, "trace_trinites.feint")
                    } else {
                        tr!(lang, "trace_trinites.disarm")
                    },
                    who = t(who),
                    target = t(target),
                    roll = roll.text(lang),
                    reaction = r,
                    verdict
                );
                let mut j = roll.json(json!({"step": if feint { "feint" } else { "disarm" }, "who": t(who), "target": t(target), "ok": ok}));
                if let (Some(r), Value::Object(map)) = (reaction, &mut j) {
                    map.insert("reaction".into(), r.json(json!({})));
                }
                (2, text, j)
            }
            Step::Move {
                who,
                dest,
                metres,
                test,
                left,
            } => {
                let (to_json, to_text) = spot(dest);
                let how = match test {
                    None => String::new(),
                    Some(r) => tr!(lang, "trace_trinites.move_test", roll = r.text(lang)),
                };
                let text = if left == 0 {
                    tr!(
                        lang,
                        "trace_trinites.move",
                        who = t(who),
                        to = to_text,
                        metres,
                        test = how
                    )
                } else {
                    tr!(
                        lang,
                        "trace_trinites.move_halfway",
                        who = t(who),
                        to = to_text,
                        metres,
                        test = how,
                        left
                    )
                };
                let mut j = json!({"step": "move", "who": t(who), "to": to_json, "metres": metres, "left": left});
                if let (Some(r), Value::Object(map)) = (test, &mut j) {
                    map.insert("test".into(), r.json(json!({})));
                }
                (2, text, j)
            }
            Step::Attack {
                who,
                target,
                ranged,
                roll,
            } => (
                2,
                attack(lang, t(who), target.map(t), ranged, &roll),
                roll.json(json!({"step": "attack", "who": t(who), "target": target.map(t), "ranged": ranged})),
            ),
            Step::Versus {
                who,
                total,
                success,
            } => (
                3,
                tr!(
                    lang,
                    "trace_trinites.versus",
                    who = t(who),
                    total,
                    verdict = if success {
                        tr!(lang, "trace_trinites.success")
                    } else {
                        tr!(lang, "trace_trinites.failure")
                    }
                ),
                json!({"step": "versus", "who": t(who), "final": total, "success": success}),
            ),
            Step::Unanswered { who, why } => {
                let (key, text) = match why {
                    Unanswered::Inert => (
                        "inert",
                        tr!(
                            lang,
                            "trace_trinites.inert",
                            who = t(who),
                            verdict = tr!(lang, "trace_trinites.hits")
                        ),
                    ),
                    Unanswered::Feinted => (
                        "feinted",
                        tr!(lang, "trace_trinites.feinted", who = t(who)),
                    ),
                    Unanswered::Parried => (
                        "parried_instead",
                        tr!(lang, "trace_trinites.parried_instead", who = t(who)),
                    ),
                };
                (
                    3,
                    text,
                    json!({"step": "unanswered", "who": t(who), "why": key}),
                )
            }
            Step::Reaction {
                who,
                parries_for,
                roll,
                hit,
                tie,
            } => {
                // The tie note only on a tie (audit of 2026-12-07, afternoon).
                let verdict = crate::systems::trinites::words::verdict(lang, true, hit, tie);
                let text = match parries_for {
                    None => tr!(
                        lang,
                        "trace_trinites.reaction",
                        who = t(who),
                        roll = roll.text(lang),
                        verdict
                    ),
                    Some(w) => tr!(
                        lang,
                        "trace_trinites.parry",
                        who = t(who),
                        ward = t(w),
                        roll = roll.text(lang),
                        verdict
                    ),
                };
                (
                    3,
                    text,
                    roll.json(json!({"step": "reaction", "who": t(who), "parries_for": parries_for.map(t), "hit": hit, "tie": tie})),
                )
            }
            Step::Damage { to, boxes, zone } => (
                3,
                if zone {
                    tr!(lang, "trace_trinites.zone_damage", who = t(to), boxes)
                } else {
                    tr!(lang, "trace_trinites.hit_damage", who = t(to), boxes)
                },
                json!({"step": "damage", "to": t(to), "boxes": boxes, "zone_weapon_miss": zone}),
            ),
            Step::LeavesCover { who } => (
                2,
                tr!(lang, "trace_trinites.leaves_cover", who = t(who)),
                json!({"step": "leaves_cover", "who": t(who)}),
            ),
            Step::Guards { who } => (
                2,
                tr!(lang, "trace_trinites.guards", who = t(who)),
                json!({"step": "guards", "who": t(who)}),
            ),
            Step::ParrySpent { who, ward } => (
                3,
                tr!(lang, "trace_trinites.parry_spent", who = t(who), ward = t(ward)),
                json!({"step": "parry_spent", "who": t(who), "ward": t(ward)}),
            ),
            Step::Life(l) => l.told(lang, |w| t(w).to_string(), |w| json!(t(w))),
            Step::End { end, rounds } => crate::systems::trinites::words::end(lang, outcome(m, end), rounds),
        })
    })
}
