//! What a key error adds to serde's message (audit of 2026-12-07, evening), for every kind
//! of file alike: the values the key allows (the kind's own list, or an enumerated key's
//! words when another type was written: `mode = 1`), how to write a dice expression given
//! as a number (`damage = 7`), and an example from the kind's starter for a missing key or
//! a wrong type (the table the key belongs in, and its line).

use serde::de::DeserializeOwned;

use super::file::{MissingAllowed, ScenarioFile};
use super::starters::{enum_words, example, is_dice_key, segments, Seg};

/// The keys of a path without its array places, joined by dots: `group[0]` → `group`,
/// `a.b[2].c` → `a.b.c`, the top → `""` (what [`MissingAllowed`] is given).
fn keys_only(segs: &[Seg]) -> String {
    segs.iter()
        .filter_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
        .collect::<Vec<_>>()
        .join(".")
}

/// The number serde found where a string belongs (`integer `7``), as written.
fn number_found(msg: &str) -> Option<&str> {
    let rest = msg.strip_prefix("invalid type: ")?;
    let (found, expected) = rest.rsplit_once(", expected ")?;
    if expected != "a string" {
        return None;
    }
    found
        .strip_prefix("integer `")
        .or_else(|| found.strip_prefix("floating point `"))?
        .strip_suffix('`')
}

/// ` (did you mean `trials`?)` after serde's "unknown field `trial`, expected one of
/// `trials`, ..." or "unknown variant `forse`, expected ...": the listed name closest to
/// the one written (audit of 2026-12-07, night: a misspelt key listed every key).
fn did_you_mean(msg: &str, lang: crate::lang::Lang) -> Option<String> {
    let rest = msg
        .strip_prefix("unknown field `")
        .or_else(|| msg.strip_prefix("unknown variant `"))?;
    let (typed, tail) = rest.split_once('`')?;
    let listed = tail.strip_prefix(", expected ")?;
    let known: Vec<&str> = listed.split('`').skip(1).step_by(2).collect();
    let near = super::edit::closest(typed, &known, lang);
    (!near.is_empty()).then_some(near)
}

/// The text to append to the message of the error serde gave at `path` (`None`: nothing
/// to add). `T` is the shape the file was read into (for an enumerated key's words).
pub fn key_hints<T: DeserializeOwned>(
    file: &ScenarioFile,
    path: &str,
    message: &str,
    allowed: &MissingAllowed,
) -> Option<String> {
    let msg = message.trim();
    let lang = file.lang;
    if let Some(near) = did_you_mean(msg, lang) {
        return Some(near);
    }
    let segs = segments(path);
    let missing = msg
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'));
    let wrong_type = msg.starts_with("invalid type: ") || msg == "wanted string or table";
    let (table, field) = match missing {
        Some(f) => (segs.clone(), f.to_string()),
        None => match segs.split_last() {
            Some((Seg::Key(k), rest)) if wrong_type || msg.starts_with("invalid value: ") => {
                (rest.to_vec(), k.clone())
            }
            _ => return None,
        },
    };
    let mut out = String::new();
    let words = || {
        match missing {
            Some(f) => enum_words::<T>(&file.text, &segs, Some(f)),
            None if msg == "wanted string or table" => enum_words::<T>(&file.text, &segs, None),
            None => None,
        }
        .map(|w| super::message::or_list(&w, lang))
    };
    if let Some(a) = allowed(&keys_only(&table), &field, lang).or_else(words) {
        out.push_str(&tr!(lang, "error.frame.allowed", message = "", allowed = a));
    }
    if let Some(n) = number_found(msg).filter(|_| is_dice_key(&file.text, &table, &field)) {
        out.push_str(&tr!(lang, "error.hint.quote_dice", key = field, value = n));
    }
    // A number's type error already says what to write ("write a whole number: 40").
    let number = msg.rsplit_once(", expected ").is_some_and(|(_, t)| {
        matches!(
            t,
            "u8" | "u16"
                | "u32"
                | "u64"
                | "usize"
                | "i8"
                | "i16"
                | "i32"
                | "i64"
                | "isize"
                | "f32"
                | "f64"
        )
    });
    if missing.is_some() || (wrong_type && !number) {
        if let Some(e) = example::<T>(&file.text, &table, &field, lang, missing.is_some()) {
            out.push_str(&tr!(lang, "error.hint.then", example = e));
        }
    }
    (!out.is_empty()).then_some(out)
}
