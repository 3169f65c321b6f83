//! A traced skirmish in words and JSON (`trace.rs` keeps its steps), in the book's terms.

use serde_json::{json, Value};

use crate::systems::trace::Traced;
use crate::systems::trinites::words::{declares, regen, zone};

use super::model::Skirmish;
use super::sim::Outcome;
use super::trace::{outcome, Step, Unanswered};

/// Trial `trial`'s steps as lines and JSON (current language).
pub(super) fn render(m: &Skirmish, trial: u64, o: &Outcome, steps: &[Step]) -> Traced {
    let t = |w: u8| m.names[w as usize].as_str();
    let spot = |s: u8| {
        if s == 0 {
            (
                "melee".to_string(),
                crate::tr!("trace_trinites.spot_melee").to_string(),
            )
        } else {
            let g = &m.groups[s as usize - 1].name;
            (g.clone(), crate::tr!("trace_trinites.spot_post", group = g))
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
                crate::tr!(
                    "trace_trinites.initiative_zone",
                    who = t(who),
                    roll = roll.text(),
                    score = score,
                    zone = zone(z).1
                ),
                roll.json(json!({"step": "initiative", "who": t(who), "score": score, "zone": zone(z).0})),
            ),
            Step::Round { round } => (
                0,
                crate::tr!("trace_trinites.round", round = round),
                json!({"step": "round", "round": round}),
            ),
            Step::Turn { who, init } => (
                1,
                crate::tr!("trace_trinites.turn", who = t(who), init = init),
                json!({"step": "turn", "who": t(who), "initiative": init}),
            ),
            Step::Regen {
                who,
                light,
                archonte,
                before,
                after,
                left,
            } => regen(t(who), json!(t(who)), light, archonte, [before, after, left]),
            Step::Disarmed { who, back } => (
                2,
                if back {
                    crate::tr!("trace_trinites.weapon_back", who = t(who))
                } else {
                    crate::tr!("trace_trinites.weapon_away", who = t(who))
                },
                json!({"step": "disarmed", "who": t(who), "weapon_back": back}),
            ),
            Step::LosesWeapon { who } => (
                3,
                crate::tr!("trace_trinites.loses_weapon", who = t(who)),
                json!({"step": "loses_weapon", "who": t(who)}),
            ),
            Step::Declares { who, free, malus } => declares(t(who), json!(t(who)), free, malus),
            Step::Tactic {
                who,
                target,
                feint,
                roll,
                reaction,
                ok,
            } => {
                let r = reaction.map_or(String::new(), |r| {
                    crate::tr!("trace_trinites.tactic_reaction", roll = r.text())
                });
                let verdict = if ok {
                    crate::tr!("trace_trinites.tactic_works")
                } else {
                    crate::tr!("trace_trinites.tactic_fails")
                };
                let text = crate::tr_fill!(
                    if feint {
                        crate::tr!("trace_trinites.feint")
                    } else {
                        crate::tr!("trace_trinites.disarm")
                    },
                    who = t(who),
                    target = t(target),
                    roll = roll.text(),
                    reaction = r,
                    verdict = verdict
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
                    Some(r) => crate::tr!("trace_trinites.move_test", roll = r.text()),
                };
                let text = if left == 0 {
                    crate::tr!(
                        "trace_trinites.move",
                        who = t(who),
                        to = to_text,
                        metres = metres,
                        test = how
                    )
                } else {
                    crate::tr!(
                        "trace_trinites.move_halfway",
                        who = t(who),
                        to = to_text,
                        metres = metres,
                        test = how,
                        left = left
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
                match (target, ranged) {
                    (Some(k), false) => crate::tr!(
                        "trace_trinites.attack",
                        who = t(who),
                        target = t(k),
                        roll = roll.text()
                    ),
                    (Some(k), true) => crate::tr!(
                        "trace_trinites.shoot",
                        who = t(who),
                        target = t(k),
                        roll = roll.text()
                    ),
                    (None, _) => crate::tr!(
                        "trace_trinites.attack_all",
                        who = t(who),
                        roll = roll.text()
                    ),
                },
                roll.json(json!({"step": "attack", "who": t(who), "target": target.map(t), "ranged": ranged})),
            ),
            Step::Versus {
                who,
                total,
                success,
            } => (
                3,
                crate::tr!(
                    "trace_trinites.versus",
                    who = t(who),
                    total = total,
                    verdict = if success {
                        crate::tr!("trace_trinites.success")
                    } else {
                        crate::tr!("trace_trinites.failure")
                    }
                ),
                json!({"step": "versus", "who": t(who), "final": total, "success": success}),
            ),
            Step::Unanswered { who, why } => {
                let (key, text) = match why {
                    Unanswered::Inert => (
                        "inert",
                        crate::tr!(
                            "trace_trinites.inert",
                            who = t(who),
                            verdict = crate::tr!("trace_trinites.hits")
                        ),
                    ),
                    Unanswered::Feinted => (
                        "feinted",
                        crate::tr!("trace_trinites.feinted", who = t(who)),
                    ),
                    Unanswered::Parried => (
                        "parried_instead",
                        crate::tr!("trace_trinites.parried_instead", who = t(who)),
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
            } => {
                let verdict = if hit {
                    crate::tr!("trace_trinites.hits")
                } else {
                    crate::tr!("trace_trinites.reaction_wins")
                };
                let text = match parries_for {
                    None => crate::tr!(
                        "trace_trinites.reaction",
                        who = t(who),
                        roll = roll.text(),
                        verdict = verdict
                    ),
                    Some(w) => crate::tr!(
                        "trace_trinites.parry",
                        who = t(who),
                        ward = t(w),
                        roll = roll.text(),
                        verdict = verdict
                    ),
                };
                (
                    3,
                    text,
                    roll.json(json!({"step": "reaction", "who": t(who), "parries_for": parries_for.map(t), "hit": hit})),
                )
            }
            Step::Damage { to, boxes, zone } => (
                3,
                if zone {
                    crate::tr!("trace_trinites.zone_damage", who = t(to), boxes = boxes)
                } else {
                    crate::tr!("trace_trinites.hit_damage", who = t(to), boxes = boxes)
                },
                json!({"step": "damage", "to": t(to), "boxes": boxes, "zone_weapon_miss": zone}),
            ),
            Step::LeavesCover { who } => (
                2,
                crate::tr!("trace_trinites.leaves_cover", who = t(who)),
                json!({"step": "leaves_cover", "who": t(who)}),
            ),
            Step::Guards { who } => (
                2,
                crate::tr!("trace_trinites.guards", who = t(who)),
                json!({"step": "guards", "who": t(who)}),
            ),
            Step::Life(l) => l.told(|w| t(w).to_string(), |w| json!(t(w))),
            Step::End { end, rounds } => {
                let name = outcome(m, end);
                (
                    0,
                    crate::tr!("trace_trinites.end", rounds = rounds, outcome = name),
                    json!({"step": "end", "outcome": name, "rounds": rounds}),
                )
            }
        })
    })
}
