//! What a Trinités file allows for a required key it lacks (duel and skirmish): the
//! ranges and names their validation (`duel/model.rs`, `skirmish/model.rs`) checks, said
//! in the "missing field" message, which serde alone gives without them (audit of
//! 2026-12-07, afternoon).

use crate::lang::Lang;

use super::duel::MAX_HUMANS;
use super::skirmish::{SKILL_MAX, SKILL_MIN};

/// Weapon damage in both kinds (`weapons[].damage`).
const DAMAGE: (i64, i64) = (0, 50);
/// Deva and Archonte Karma (LE KARMA: at most 12).
const KARMA: (i64, i64) = (0, 12);

fn range((lo, hi): (i64, i64)) -> Option<String> {
    Some(format!("{lo}..{hi}"))
}

/// The keys both kinds share: the weapons, and a fighter's skills and weapon.
fn shared(table: &str, field: &str, lang: Lang) -> Option<String> {
    match (table, field) {
        ("", "weapons") => Some(tr!(lang, "trinites.model.no_weapon_allowed").into()),
        ("weapons", "name") => Some(tr!(lang, "trinites.model.weapon_twice_allowed").into()),
        ("weapons", "damage") => range(DAMAGE),
        (_, "rapidite" | "attack" | "reaction") => range((SKILL_MIN, SKILL_MAX)),
        (_, "weapon") => Some(tr!(lang, "trinites.missing.weapon").into()),
        _ => None,
    }
}

/// A duel (`[adam]`, `[humans]`).
pub fn duel(table: &str, field: &str, lang: Lang) -> Option<String> {
    match (table, field) {
        ("", "adam") => Some(tr!(lang, "trinites.missing.adam").into()),
        ("", "humans") => Some(tr!(lang, "trinites.missing.humans").into()),
        ("adam", "deva_karma" | "archonte_karma") => range(KARMA),
        ("humans", "count") => range((1, MAX_HUMANS as i64)),
        _ => shared(table, field, lang),
    }
}

/// A skirmish (`[[group]]`).
pub fn skirmish(table: &str, field: &str, lang: Lang) -> Option<String> {
    match (table, field) {
        ("", "group") => Some(tr!(lang, "trinites.model.no_group_allowed").into()),
        ("group", "name") => Some(tr!(lang, "trinites.missing.group_name").into()),
        ("group", "side") => Some(tr!(
            lang,
            "trinites.missing.side",
            max = super::skirmish::SIDES_MAX
        )),
        _ => shared(table, field, lang),
    }
}
