//! The book's words shared by the Trinités traces (duel and skirmish, issue 27): the zones
//! of the initiative track (T-COMBAT), the life lines (T-LIFE) and a test's roll (T-TEST,
//! T-DUAL), each as a JSON name and as text in the current language.

use serde_json::{json, Value};

use super::track::Zone;

/// A zone of the initiative track: its JSON name and its words (T-COMBAT).
pub fn zone(z: Zone) -> (&'static str, &'static str) {
    match z {
        Zone::Feu => ("feu", crate::tr!("trace_trinites.zone_feu")),
        Zone::Garde => ("garde", crate::tr!("trace_trinites.zone_garde")),
        Zone::Retrait => ("retrait", crate::tr!("trace_trinites.zone_retrait")),
    }
}

/// The state `ticked` boxes leave a fighter in, on lines of `line` boxes (T-LIFE): the
/// first box ticked endolori, the second line blessé, the third inconscient, a box beyond
/// the third line dead.
pub fn life(ticked: i64, line: i64) -> (&'static str, &'static str) {
    if ticked <= 0 {
        ("unhurt", crate::tr!("trace_trinites.life_unhurt"))
    } else if ticked <= line {
        ("endolori", crate::tr!("trace_trinites.life_endolori"))
    } else if ticked <= 2 * line {
        ("blesse", crate::tr!("trace_trinites.life_blesse"))
    } else if ticked <= 3 * line {
        ("inconscient", crate::tr!("trace_trinites.life_inconscient"))
    } else {
        ("dead", crate::tr!("trace_trinites.life_dead"))
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
    pub fn text(&self) -> String {
        let die = match self.deva {
            None => String::new(),
            Some(true) => format!(" ({})", crate::tr!("trace_trinites.deva")),
            Some(false) => format!(" ({})", crate::tr!("trace_trinites.archonte")),
        };
        let verdict = if self.success() {
            crate::tr!("trace_trinites.success")
        } else if self.natural == 1 {
            crate::tr!("trace_trinites.natural_one")
        } else {
            crate::tr!("trace_trinites.failure")
        };
        crate::tr!(
            "trace_trinites.roll",
            natural = self.natural,
            die = die,
            modifier = format!("{:+}", self.modifier),
            total = self.natural + self.modifier,
            target = self.target,
            verdict = verdict
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
