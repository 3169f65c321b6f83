//! A traveller's step on the trek (morning, fight, meals, pauses, fasting, potion, rest or
//! a sleepless night) in words and JSON, with its FP and FM before and after (C-FAT-1..4).

use serde_json::{json, Value};

use crate::lang::Lang;
use crate::rules::growth::POTION_NAMES;
use crate::systems::cosmos::growth::fatigue::expedition::TrekStep;
use crate::systems::cosmos::growth::fatigue::Fatigue;

use super::trace_view::{fat, View};

/// "FP a → b, FM c → d", a track that did not move shown once, a middle point (after a
/// fight's gains, before its Light/Dark points) when it differs from both ends.
fn tracks(lang: Lang, before: Fatigue, after: Fatigue) -> String {
    tracks_via(lang, before, after, after)
}

fn tracks_via(lang: Lang, before: Fatigue, mid: Fatigue, after: Fatigue) -> String {
    if before == after && mid == after {
        return tr!(
            lang,
            "trace_expedition.unchanged",
            fp = after.fp,
            fm = after.fm
        );
    }
    let one = |a: i32, m: i32, b: i32| {
        if a == b && m == b {
            b.to_string()
        } else if m != b && m != a {
            format!("{a} → {m} → {b}")
        } else {
            format!("{a} → {b}")
        }
    };
    tr!(
        lang,
        "trace_expedition.tracks",
        fp = one(before.fp, mid.fp, after.fp),
        fm = one(before.fm, mid.fm, after.fm)
    )
}

/// The note that a track at exhaustion did not recover (C-FAT-3: only a rest of 12 h or
/// more clears it), for a recovery that met one.
fn stuck(v: &View, before: Fatigue) -> String {
    let r = &v.rules;
    if before.fp >= r.max || before.fm >= r.max {
        tr!(
            v.lang,
            "trace_expedition.stuck",
            hours = r.exhaustion_rest_hours
        )
    } else {
        String::new()
    }
}

/// A fight's JSON with its tracks after the gains, before any Light/Dark point.
fn with_mid(j: Value, mid: Fatigue) -> Value {
    with_mid_as(j, "after_gains", mid)
}

/// `mid` under `key`: a played combat's is the tracks after its points' relief, before
/// its gains.
fn with_mid_as(mut j: Value, key: &str, mid: Fatigue) -> Value {
    j[key] = fat(mid);
    j
}

/// A traveller's step.
pub(super) fn trek(v: &View, who: u8, step: TrekStep) -> (u8, String, Value) {
    let name = v.who(who);
    let r = &v.rules;
    let moved = |kind: &str, before: Fatigue, after: Fatigue, mut j: Value| {
        if let Value::Object(m) = &mut j {
            m.insert("step".into(), json!(kind));
            m.insert("who".into(), json!(name));
            m.insert("before".into(), fat(before));
            m.insert("after".into(), fat(after));
        }
        j
    };
    match step {
        TrekStep::Morning {
            daily,
            march_fp,
            march_fm,
            before,
            after,
        } => (
            1,
            tr!(
                v.lang,
                "trace_expedition.morning",
                who = name,
                daily,
                march_fp = format!("{march_fp:+}"),
                march_fm = format!("{march_fm:+}"),
                tracks = tracks(v.lang, before, after)
            ),
            moved(
                "morning",
                before,
                after,
                json!({"daily": daily, "march_fp": march_fp, "march_fm": march_fm}),
            ),
        ),
        TrekStep::Fight {
            roll,
            before,
            mid,
            after,
        } => {
            let mut text = tr!(
                v.lang,
                "trace_expedition.fight",
                who = name,
                rounds = roll.rounds,
                fp = roll.rounds / r.rounds_per_fp + r.combat_end_fp,
                hp = roll.hp_lost,
                pm = roll.pm_spent,
                hp_steps = roll.hp_steps,
                pm_steps = roll.pm_steps,
                psychic = roll.psychic,
                psychic_fm = r.psychic_fm * roll.psychic,
                tracks = tracks_via(v.lang, before, mid, after)
            );
            let mut j = json!({"rounds": roll.rounds, "hp_lost": roll.hp_lost, "pm_spent": roll.pm_spent, "psychic_attacks": roll.psychic, "hp_steps": roll.hp_steps, "pm_steps": roll.pm_steps});
            if let Some(x) = roll.extras {
                text += &tr!(
                    v.lang,
                    "trace_expedition.fight_extras",
                    physical = x.physical,
                    magical = x.magical,
                    knockout = if x.knockout {
                        tr!(
                            v.lang,
                            "trace_expedition.knocked_out_fm",
                            fm = r.knockout_fm
                        )
                    } else {
                        String::new()
                    },
                    light = x.light_used,
                    dark = x.dark_used,
                    rolled = x.points_rolled,
                    relief = r.point_relief,
                    light_backlashes = x.light_backlashes,
                    dark_backlashes = x.dark_backlashes
                );
                j["extra_physical_actions"] = json!(x.physical);
                j["extra_magical_actions"] = json!(x.magical);
                j["knockout"] = json!(x.knockout);
                j["points_rolled"] = json!(x.points_rolled);
                j["light_points_used"] = json!(x.light_used);
                j["dark_points_used"] = json!(x.dark_used);
                j["light_backlashes"] = json!(x.light_backlashes);
                j["dark_backlashes"] = json!(x.dark_backlashes);
            }
            let j = moved("fight", before, after, j);
            (2, text, with_mid(j, mid))
        }
        TrekStep::Fought {
            rounds,
            stood,
            hp_lost,
            pm_spent,
            hp_steps,
            pm_steps,
            points,
            knockout,
            before,
            mid,
            after,
        } => (
            2,
            tr!(
                v.lang,
                "trace_expedition.fought",
                who = name,
                rounds,
                fp = stood,
                hp = hp_lost,
                pm = pm_spent,
                hp_steps,
                pm_steps,
                points,
                relief = r.point_relief,
                knockout = if knockout {
                    tr!(
                        v.lang,
                        "trace_expedition.knocked_out_fm",
                        fm = r.knockout_fm
                    )
                } else {
                    String::new()
                },
                tracks = tracks_via(v.lang, before, mid, after)
            ),
            with_mid_as(
                moved(
                    "fought",
                    before,
                    after,
                    json!({"rounds": rounds, "round_fp": stood, "hp_lost": hp_lost, "pm_spent": pm_spent, "hp_steps": hp_steps, "pm_steps": pm_steps, "points_used": points, "knockout": knockout}),
                ),
                "after_points",
                mid,
            ),
        ),
        TrekStep::FoughtDelta {
            dfp,
            dfm,
            before,
            after,
        } => (
            2,
            tr!(
                v.lang,
                "trace_expedition.fought_delta",
                who = name,
                dfp = format!("{dfp:+}"),
                dfm = format!("{dfm:+}"),
                tracks = tracks(v.lang, before, after)
            ),
            moved("fought", before, after, json!({"dfp": dfp, "dfm": dfm})),
        ),
        TrekStep::Meals {
            meals,
            before,
            after,
        } => (
            1,
            tr!(
                v.lang,
                "trace_expedition.meals",
                who = name,
                meals,
                relief = meals as i32 * r.meal_relief,
                tracks = tracks(v.lang, before, after)
            ) + &stuck(v, before),
            moved("meals", before, after, json!({"meals": meals})),
        ),
        TrekStep::Pauses {
            pauses,
            before,
            after,
        } => (
            1,
            tr!(
                v.lang,
                "trace_expedition.pauses",
                who = name,
                pauses,
                floor = r.pause_floor,
                tracks = tracks(v.lang, before, after)
            ) + &stuck(v, before),
            moved("pauses", before, after, json!({"pauses": pauses})),
        ),
        TrekStep::Fasting {
            days,
            before,
            after,
        } => (
            1,
            tr!(
                v.lang,
                "trace_expedition.fasting",
                who = name,
                days,
                gain = r.fasting_gain * days,
                tracks = tracks(v.lang, before, after)
            ),
            moved("fasting", before, after, json!({"days_without_food": days})),
        ),
        TrekStep::Potion {
            potion,
            left,
            before,
            after,
        } => {
            let p = POTION_NAMES[potion as usize];
            (
                1,
                tr!(
                    v.lang,
                    "trace_expedition.potion",
                    who = name,
                    potion = p,
                    left,
                    tracks = tracks(v.lang, before, after)
                ) + &stuck(v, before),
                moved("potion", before, after, json!({"potion": p, "left": left})),
            )
        }
        TrekStep::Sleepless {
            nights,
            before,
            after,
        } => (
            1,
            tr!(
                v.lang,
                "trace_expedition.sleepless",
                who = name,
                nights,
                gain = r.sleepless_gain * nights + r.sleepless_extra,
                tracks = tracks(v.lang, before, after)
            ),
            moved(
                "sleepless",
                before,
                after,
                json!({"nights_without_sleep": nights}),
            ),
        ),
        TrekStep::FullRest {
            hours,
            recovered,
            halved,
            quality,
            long,
            modifiers,
            before,
            after,
        } => {
            let mut text = tr!(
                v.lang,
                "trace_expedition.full_rest",
                who = name,
                hours,
                recovered,
                quality,
                mfp = format!("{:+}", modifiers.fp),
                mfm = format!("{:+}", modifiers.fm),
                tracks = tracks(v.lang, before, after)
            );
            if halved {
                text += tr!(v.lang, "trace_expedition.halved");
            }
            if long {
                text += &tr!(
                    v.lang,
                    "trace_expedition.long_rest",
                    hours = r.exhaustion_rest_hours
                );
            } else {
                text += &stuck(v, before);
            }
            (
                1,
                text,
                moved(
                    "full_rest",
                    before,
                    after,
                    json!({"hours": hours, "recovered": recovered, "halved": halved, "rest_quality": quality, "clears_exhaustion": long, "modifiers": fat(modifiers)}),
                ),
            )
        }
        TrekStep::ShortRest {
            hours,
            recovered,
            before,
            after,
        } => {
            let mut text = tr!(
                v.lang,
                "trace_expedition.short_rest",
                who = name,
                hours,
                per = r.short_rest_hours,
                recovered,
                tracks = tracks(v.lang, before, after)
            );
            text += &stuck(v, before);
            (
                1,
                text,
                moved(
                    "short_rest",
                    before,
                    after,
                    json!({"hours": hours, "recovered": recovered}),
                ),
            )
        }
    }
}
