//! The book's words shared by the Trinités traces (duel and skirmish, issue 27): the zones
//! of the initiative track (T-COMBAT), the life lines (T-LIFE) and a test's roll (T-TEST,
//! T-DUAL), each as a JSON name and as text in a language.

use serde_json::{json, Value};

use crate::lang::Lang;

use super::track::Zone;

/// A zone of the initiative track: its JSON name and its words (T-COMBAT).
pub fn zone(lang: Lang, z: Zone) -> (&'static str, &'static str) {
    match z {
        Zone::Feu => ("feu", tr!(lang, "trace_trinites.zone_feu")),
        Zone::Garde => ("garde", tr!(lang, "trace_trinites.zone_garde")),
        Zone::Retrait => ("retrait", tr!(lang, "trace_trinites.zone_retrait")),
    }
}

/// The state `ticked` boxes leave a fighter in, on lines of `line` boxes (T-LIFE): the
/// first box ticked endolori, the second line blessé, the third inconscient, a box beyond
/// the third line dead.
pub fn life(lang: Lang, ticked: i64, line: i64) -> (&'static str, &'static str) {
    if ticked <= 0 {
        ("unhurt", tr!(lang, "trace_trinites.life_unhurt"))
    } else if ticked <= line {
        ("endolori", tr!(lang, "trace_trinites.life_endolori"))
    } else if ticked <= 2 * line {
        ("blesse", tr!(lang, "trace_trinites.life_blesse"))
    } else if ticked <= 3 * line {
        ("inconscient", tr!(lang, "trace_trinites.life_inconscient"))
    } else {
        ("dead", tr!(lang, "trace_trinites.life_dead"))
    }
}

/// One test as the book reads it (T-TEST, T-DUAL): the kept natural (which of the
/// Trinité's two dice when `die` says), the modifier, the final result against the
/// target; and its JSON fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roll {
    pub natural: i64,
    pub modifier: i64,
    /// `None` for a single d12; `Some(true)` when the Trinité kept the Deva die.
    pub deva: Option<bool>,
    pub target: i64,
}

impl Roll {
    pub fn new(r: super::TestRoll, dual: bool, modifier: i64, target: i64) -> Roll {
        Roll {
            natural: r.natural,
            modifier,
            deva: dual.then_some(r.deva_kept),
            target,
        }
    }

    pub fn success(&self) -> bool {
        super::succeeds(self.natural, self.modifier, self.target)
    }

    /// `d12 7 (Deva) +6 = 13 ≥ 12: success`.
    pub fn text(&self, lang: Lang) -> String {
        let die = match self.deva {
            None => String::new(),
            Some(true) => format!(" ({})", tr!(lang, "trace_trinites.deva")),
            Some(false) => format!(" ({})", tr!(lang, "trace_trinites.archonte")),
        };
        let verdict = if self.success() {
            tr!(lang, "trace_trinites.success")
        } else if self.natural == 1 {
            tr!(lang, "trace_trinites.natural_one")
        } else {
            tr!(lang, "trace_trinites.failure")
        };
        tr!(
            lang,
            "trace_trinites.roll",
            natural = self.natural,
            die,
            modifier = format!("{:+}", self.modifier),
            total = self.natural + self.modifier,
            target = self.target,
            verdict
        )
    }

    /// The roll's JSON fields, added to `j`.
    pub fn json(&self, mut j: Value) -> Value {
        if let Value::Object(m) = &mut j {
            m.insert("natural".into(), json!(self.natural));
            m.insert("modifier".into(), json!(self.modifier));
            m.insert("final".into(), json!(self.natural + self.modifier));
            m.insert("target".into(), json!(self.target));
            m.insert("success".into(), json!(self.success()));
            if let Some(d) = self.deva {
                m.insert("die".into(), json!(if d { "deva" } else { "archonte" }));
            }
        }
        j
    }
}

/// A line of an account starts with a capital (a name may start one: "l'Adam'").
pub fn capital(s: String) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if f.is_lowercase() => f.to_uppercase().chain(c).collect(),
        _ => s,
    }
}

/// A regeneration in both Trinités fights (T-LIFE): `who` regains one Light or Darkness
/// point, boxes ticked before and after, points of that Karma left; `archonte` when the
/// Archonte regenerates the unconscious Adam' at the end of a round. `j` names `who` in
/// the JSON.
pub fn regen(
    lang: Lang,
    who: &str,
    j: Value,
    light: bool,
    archonte: bool,
    [before, after, left]: [i64; 3],
) -> (u8, String, Value) {
    let text = tr_fill!(
        match (light, archonte) {
            (true, _) => tr!(lang, "trace_trinites.regen_light"),
            (false, false) => tr!(lang, "trace_trinites.regen_dark"),
            (false, true) => tr!(lang, "trace_trinites.regen_archonte"),
        },
        who,
        left,
        before,
        after
    );
    (
        if archonte { 1 } else { 2 },
        text,
        json!({"step": "regenerate", "who": j, "karma": if light { "light" } else { "darkness" }, "archonte": archonte, "before": before, "after": after, "left": left}),
    )
}

/// Free actions declared and their malus on every test of the turn (T-COMBAT), in both
/// fights.
/// An attack's line in a trace (duel and skirmish): on `target`, or on every foe in reach
/// (`None`); a ranged one is worded as a shot.
pub fn attack(lang: Lang, who: &str, target: Option<&str>, ranged: bool, roll: &Roll) -> String {
    match target {
        Some(target) => tr_fill!(
            if ranged {
                tr!(lang, "trace_trinites.shoot")
            } else {
                tr!(lang, "trace_trinites.attack")
            },
            who,
            target,
            roll = roll.text(lang)
        ),
        None => tr!(
            lang,
            "trace_trinites.attack_all",
            who,
            roll = roll.text(lang)
        ),
    }
}

pub fn declares(lang: Lang, who: &str, j: Value, free: i64, malus: i64) -> (u8, String, Value) {
    (
        2,
        tr!(lang, "trace_trinites.declares", who, free, malus),
        json!({"step": "declares", "who": j, "free_actions": free, "malus": malus}),
    )
}

/// The steps a fighter's life and initiative take in both Trinités fights (T-LIFE,
/// T-COMBAT), and their rounds: one type, so the duel and the skirmish tell them in the
/// same words.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LifeStep {
    Round {
        round: u32,
    },
    /// A turn in the feu de l'action at this initiative score.
    Turn {
        who: u8,
        init: i64,
    },
    /// Life boxes ticked before and after, on lines of `line` boxes (T-LIFE).
    Ticks {
        who: u8,
        before: i64,
        after: i64,
        line: i64,
    },
    /// La douleur: a wound on the blessé line lowers the initiative.
    Pain {
        who: u8,
        by: i64,
        init: i64,
        zone: Zone,
    },
    /// Inconscient: the initiative die goes en retrait.
    Falls {
        who: u8,
    },
    /// The initiative change at the end of the turn (Accélération, Ralentissement).
    Shift {
        who: u8,
        delta: i64,
        init: i64,
        zone: Zone,
    },
    /// Risque: the failed action ends the turn (`trinites_risque_incident = lose_turn`).
    Risque {
        who: u8,
    },
}

impl LifeStep {
    /// The step's depth in the account, its line (in `lang`) and its JSON; `t`
    /// names a fighter in the line, `j` in the JSON.
    pub fn told(
        self,
        lang: Lang,
        t: impl Fn(u8) -> String,
        j: impl Fn(u8) -> Value,
    ) -> (u8, String, Value) {
        match self {
            LifeStep::Round { round } => (
                0,
                tr!(lang, "trace_trinites.round", round),
                json!({"step": "round", "round": round}),
            ),
            LifeStep::Turn { who, init } => (
                1,
                tr!(lang, "trace_trinites.turn", who = t(who), init),
                json!({"step": "turn", "who": j(who), "initiative": init}),
            ),
            LifeStep::Ticks {
                who,
                before,
                after,
                line,
            } => {
                let (state, words) = life(lang, after, line);
                (
                    3,
                    tr!(
                        lang,
                        "trace_trinites.ticks",
                        who = t(who),
                        before,
                        after,
                        boxes = 3 * line,
                        state = words
                    ),
                    json!({"step": "ticks", "who": j(who), "before": before, "after": after, "line": line, "state": state}),
                )
            }
            LifeStep::Pain {
                who,
                by,
                init,
                zone: z,
            } => (
                3,
                tr!(
                    lang,
                    "trace_trinites.pain",
                    who = t(who),
                    by,
                    init,
                    zone = zone(lang, z).1
                ),
                json!({"step": "pain", "who": j(who), "by": by, "initiative": init, "zone": zone(lang, z).0}),
            ),
            LifeStep::Falls { who } => (
                3,
                tr!(lang, "trace_trinites.falls", who = t(who)),
                json!({"step": "falls", "who": j(who)}),
            ),
            LifeStep::Shift {
                who,
                delta,
                init,
                zone: z,
            } => (
                2,
                tr!(
                    lang,
                    "trace_trinites.shift",
                    who = t(who),
                    delta = format!("{delta:+}"),
                    init,
                    zone = zone(lang, z).1
                ),
                json!({"step": "shift", "who": j(who), "delta": delta, "initiative": init, "zone": zone(lang, z).0}),
            ),
            LifeStep::Risque { who } => (
                2,
                tr!(lang, "trace_trinites.risque", who = t(who)),
                json!({"step": "risque", "who": j(who)}),
            ),
        }
    }
}

/// How a strike ended against one target; `tie` when the reaction won by equalling the
/// attack's final (T-CONF: ties go to the side preventing the action), the only case the
/// tie rule decides (audit of 2026-12-07, afternoon: it was said on every reaction win).
pub fn verdict(lang: Lang, attack_ok: bool, hit: bool, tie: bool) -> &'static str {
    match (attack_ok, hit) {
        (_, true) => tr!(lang, "trace_trinites.hits"),
        (true, false) if tie => tr!(lang, "trace_trinites.reaction_wins_tie"),
        (true, false) => tr!(lang, "trace_trinites.reaction_wins"),
        (false, false) => tr!(lang, "trace_trinites.attack_fails"),
    }
}

/// Whether a reaction `r` at `rm` that won (`hit` false) against an attack's final
/// `attack_final` won only by equalling it (T-CONF).
#[inline]
pub fn tie(hit: bool, r: super::TestRoll, rm: i64, attack_final: i64, target: i64) -> bool {
    !hit && r.succeeds(rm, target) && attack_final == r.natural + rm
}

/// The last step of a Trinités duel or skirmish: the outcome after so many rounds (one
/// round in the singular), the same line and JSON for both kinds.
pub fn end(lang: Lang, outcome: &str, rounds: u32) -> (u8, String, Value) {
    (
        0,
        crate::tr_fill!(
            if lang.singular(u64::from(rounds)) {
                crate::tr!(lang, "trace_trinites.end_one")
            } else {
                crate::tr!(lang, "trace_trinites.end")
            },
            rounds,
            outcome
        ),
        json!({"step": "end", "outcome": outcome, "rounds": rounds}),
    )
}
