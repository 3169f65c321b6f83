//! An expedition's steps as lines to read and JSON (issue 27): every move of FP and FM in
//! the rulebook's terms (C-FAT-1..4), in the current language.

use serde_json::{json, Value};

use crate::systems::trace::Traced;

use super::trace::{Step, OUTCOMES};
use super::trace_view::{fat, View};
use super::trek_text::trek;

/// Trial `trial`'s steps as lines and JSON (current language).
pub fn render(v: &View, trial: u64, outcome: u8, steps: &[Step]) -> Traced {
    Traced::told(trial, OUTCOMES[outcome as usize], steps, |step| {
        Some(match step {
            Step::Start { who, f } => (
                0,
                tr!(
                    v.lang,
                    "trace_expedition.start",
                    who = v.who(who),
                    fp = f.fp,
                    fm = f.fm
                ),
                json!({"step": "start", "who": v.who(who), "after": fat(f)}),
            ),
            Step::Day { day } => (
                0,
                tr!(v.lang, "trace_expedition.day", day),
                json!({"step": "day", "day": day}),
            ),
            Step::March { fp, units } => (
                1,
                tr!(
                    v.lang,
                    "trace_expedition.march",
                    units = v.lang.num(units, 1),
                    fp
                ),
                json!({"step": "march", "fp": fp, "units": units}),
            ),
            Step::Encounters { count } => (
                1,
                tr!(v.lang, "trace_expedition.encounters", count),
                json!({"step": "encounters", "count": count}),
            ),
            Step::Combat { rounds, down } => {
                let (path, names) = v.combat.clone().unwrap_or_default();
                let down: Vec<String> = names
                    .iter()
                    .enumerate()
                    .filter(|(c, _)| down & (1 << c) != 0)
                    .map(|(_, n)| n.clone())
                    .collect();
                let shown = if down.is_empty() {
                    tr!(v.lang, "trace_expedition.nobody").to_string()
                } else {
                    down.join(", ")
                };
                (
                    1,
                    tr!(
                        v.lang,
                        "trace_expedition.combat",
                        file = path,
                        rounds,
                        down = shown
                    ),
                    json!({"step": "combat", "file": path, "rounds": rounds, "down": down}),
                )
            }
            Step::Rations { left } => (
                1,
                tr!(v.lang, "trace_expedition.rations", left),
                json!({"step": "rations", "left": left}),
            ),
            Step::Of { who, step } => trek(v, who, step),
            Step::Evening {
                who,
                worst,
                end,
                exhausted,
                p_worst,
                p_end,
            } => {
                let mut text = tr!(
                    v.lang,
                    "trace_expedition.evening",
                    who = v.who(who),
                    wfp = worst.fp,
                    wfm = worst.fm,
                    efp = end.fp,
                    efm = end.fm,
                    test = v.reference,
                    threshold = v.threshold,
                    p_worst = v.lang.num(p_worst, 3),
                    p_end = v.lang.num(p_end, 3)
                );
                if exhausted {
                    text += tr!(v.lang, "trace_expedition.exhausted_today");
                }
                (
                    1,
                    text,
                    json!({"step": "evening", "who": v.who(who), "worst": fat(worst), "end": fat(end), "exhausted": exhausted, "p_reference_worst": p_worst, "p_reference_end": p_end}),
                )
            }
            Step::SetOff { exhausted, knocked } => {
                let mut out: Vec<String> = v
                    .listed(exhausted)
                    .into_iter()
                    .map(|n| tr!(v.lang, "trace_expedition.is_exhausted", who = n))
                    .collect();
                out.extend(
                    v.listed(knocked)
                        .into_iter()
                        .map(|n| tr!(v.lang, "trace_expedition.is_knocked_out", who = n)),
                );
                let text = if out.is_empty() {
                    tr!(v.lang, "trace_expedition.set_off").to_string()
                } else {
                    tr!(
                        v.lang,
                        "trace_expedition.cannot_set_off",
                        list = out.join(", ")
                    )
                };
                (
                    1,
                    text,
                    json!({"step": "set_off", "exhausted": v.listed(exhausted), "knocked_out": v.listed(knocked)}),
                )
            }
            Step::End {
                outcome,
                party,
                first,
                stop,
            } => {
                let o = OUTCOMES[outcome as usize];
                let when = |d: i64| {
                    if d <= v.days {
                        tr!(v.lang, "trace_expedition.on_day", day = d)
                    } else {
                        tr!(v.lang, "trace_expedition.never").to_string()
                    }
                };
                let text = if party {
                    tr!(
                        v.lang,
                        "trace_expedition.end_party",
                        outcome = o,
                        stop = when(stop),
                        first = when(first)
                    )
                } else {
                    tr!(
                        v.lang,
                        "trace_expedition.end",
                        outcome = o,
                        first = when(first)
                    )
                };
                let never = |d: i64| (d <= v.days).then_some(d);
                (
                    0,
                    text,
                    json!({"step": "end", "outcome": o, "first_exhaustion": never(first), "stopped": if party { json!(never(stop)) } else { Value::Null }}),
                )
            }
        })
    })
}
