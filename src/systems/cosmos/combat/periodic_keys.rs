//! The keys of periodic effects (`[periodic.<name>]`, a house rule: the rulebook has no
//! regeneration, bleeding, poison or damage aura): raw serde form and validation. A
//! combatant holds effects from the start (`periodic = ["regeneration"]`); an attack places
//! one on whom it wounds (`on_hit = "bleeding"`). Every error names file, line, key and what
//! is allowed.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::dice::DiceExpr;
use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;

use super::periodic::{At, Periodic, PeriodicKind, MAX_HELD, MAX_PERIODIC_DEFS};

/// Caps checked before any work.
pub const AMOUNT_MAX: i64 = 10_000;
pub const ROUNDS_MAX: i64 = 100;
pub const CAP_MAX: i64 = 1_000_000;

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawPeriodicKind {
    Regeneration,
    Damage,
    Aura,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawAt {
    RoundStart,
    TurnStart,
    TurnEnd,
}

/// `[periodic.<name>]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPeriodic {
    pub kind: RawPeriodicKind,
    /// HP healed (regeneration) or lost (damage, aura) at each tick: a dice expression.
    pub amount: String,
    /// When it ticks (default: at the start of the holder's turn).
    pub at: Option<RawAt>,
    /// Only while the holder's HP is below this fraction of its max.
    pub below_hp: Option<f64>,
    /// Held from the start: rounds 1..=rounds; placed by a hit: the `rounds` rounds after
    /// the hit's (default: the whole combat when held, 3 when placed).
    pub rounds: Option<i64>,
    /// Most HP its ticks may total in one combat (held) or one placement (placed).
    pub cap: Option<i64>,
}

/// What a `[periodic.*]` table leaves to its defaults (`check` lists them, and the
/// summary's settings table): when it ticks, and how long it lasts.
pub fn settings(raw: &BTreeMap<String, RawPeriodic>, lang: Lang) -> Vec<super::settings::Setting> {
    let mut out = Vec::new();
    for (name, p) in raw {
        let who = format!("periodic.{name}");
        if p.at.is_none() {
            out.push(super::settings::Setting {
                who: who.clone(),
                key: "at".into(),
                value: "turn_start".into(),
                defaulted: true,
                meaning: tr!(lang, "combat.settings.periodic_at").into(),
            });
        }
        if p.rounds.is_none() {
            out.push(super::settings::Setting {
                who,
                key: "rounds".into(),
                value: tr!(lang, "combat.settings.periodic_rounds_value").into(),
                defaulted: true,
                meaning: tr!(lang, "combat.settings.periodic_rounds").into(),
            });
        }
    }
    out
}

/// Validates the `[periodic.*]` tables (in name order).
pub fn periodic_defs(
    file: &ScenarioFile,
    raw: &BTreeMap<String, RawPeriodic>,
) -> Result<Vec<Periodic>, UserError> {
    if raw.len() > MAX_PERIODIC_DEFS {
        return Err(file.error_at(
            &["periodic"],
            "periodic",
            &tr!(file.lang, "combat.check.periodic_count", n = raw.len()),
            &tr!(file.lang, "combat.check.at_most", n = MAX_PERIODIC_DEFS),
        ));
    }
    raw.iter()
        .map(|(name, p)| periodic_def(file, name, p))
        .collect()
}

fn periodic_def(file: &ScenarioFile, name: &str, p: &RawPeriodic) -> Result<Periodic, UserError> {
    let lang = file.lang;
    let err = |k: &str, msg: &str, allowed: &str| {
        file.error_at(
            &["periodic", name, k],
            &format!("periodic.{name}.{k}"),
            msg,
            allowed,
        )
    };
    let amount = DiceExpr::parse(&p.amount)
        .map(|d| d.at_least(0))
        .map_err(|e| {
            err(
                "amount",
                &e.text(lang),
                tr!(lang, "combat.check.periodic_amount_allowed"),
            )
        })?;
    if amount.max_total() > AMOUNT_MAX {
        return Err(err(
            "amount",
            &tr!(
                lang,
                "combat.check.out_of_range",
                value = amount.max_total()
            ),
            &tr!(lang, "combat.check.periodic_amount_max", max = AMOUNT_MAX),
        ));
    }
    if let Some(b) = p.below_hp {
        if !(b > 0.0 && b <= 1.0) {
            return Err(err(
                "below_hp",
                &tr!(lang, "combat.check.out_of_range", value = b),
                tr!(lang, "combat.check.periodic_below_allowed"),
            ));
        }
    }
    let rounds = match p.rounds {
        Some(r) if !(1..=ROUNDS_MAX).contains(&r) => {
            return Err(err(
                "rounds",
                &tr!(lang, "combat.check.out_of_range", value = r),
                &tr!(lang, "combat.check.rounds_allowed", max = ROUNDS_MAX),
            ))
        }
        r => r.map(|r| r as u16),
    };
    let cap = match p.cap {
        Some(c) if !(1..=CAP_MAX).contains(&c) => {
            return Err(err(
                "cap",
                &tr!(lang, "combat.check.out_of_range", value = c),
                &format!("1..{CAP_MAX}"),
            ))
        }
        c => c.map(|c| c as i32),
    };
    Ok(Periodic {
        name: name.to_string(),
        kind: match p.kind {
            RawPeriodicKind::Regeneration => PeriodicKind::Regeneration,
            RawPeriodicKind::Damage => PeriodicKind::Damage,
            RawPeriodicKind::Aura => PeriodicKind::Aura,
        },
        amount,
        at: match p.at {
            None | Some(RawAt::TurnStart) => At::TurnStart,
            Some(RawAt::RoundStart) => At::RoundStart,
            Some(RawAt::TurnEnd) => At::TurnEnd,
        },
        below_hp: p.below_hp,
        rounds,
        cap,
    })
}

/// A combatant's `periodic = [...]`: indices into the definitions, at most [`MAX_HELD`],
/// each named once.
pub fn held(
    file: &ScenarioFile,
    name: &str,
    list: &Option<Vec<String>>,
    defs: &[Periodic],
) -> Result<Vec<usize>, UserError> {
    let Some(list) = list else {
        return Ok(Vec::new());
    };
    let path = ["combatants", name, "periodic"];
    let key = format!("combatants.{name}.periodic");
    if list.len() > MAX_HELD {
        return Err(file.error_at(
            &path,
            &key,
            &tr!(file.lang, "combat.check.periodic_held", n = list.len()),
            &tr!(file.lang, "combat.check.at_most", n = MAX_HELD),
        ));
    }
    let mut out: Vec<usize> = Vec::new();
    for p in list {
        let i = index(file, &path, &key, p, defs)?;
        if out.contains(&i) {
            return Err(file.error_at(
                &path,
                &key,
                &tr!(
                    file.lang,
                    "combat.check.periodic_twice",
                    name = crate::limits::clip(p, file.lang)
                ),
                tr!(file.lang, "combat.check.periodic_twice_allowed"),
            ));
        }
        out.push(i);
    }
    Ok(out)
}

/// An attack's `on_hit`: a `damage` effect (bleeding, poison) it places on whom it wounds.
pub fn on_hit(
    file: &ScenarioFile,
    attack: &str,
    on_hit: &Option<String>,
    defs: &[Periodic],
) -> Result<Option<usize>, UserError> {
    let Some(p) = on_hit else {
        return Ok(None);
    };
    let path = ["attacks", attack, "on_hit"];
    let key = format!("attacks.{attack}.on_hit");
    let i = index(file, &path, &key, p, defs)?;
    if defs[i].kind != PeriodicKind::Damage {
        return Err(file.error_at(
            &path,
            &key,
            &tr!(
                file.lang,
                "combat.check.on_hit_kind",
                name = crate::limits::clip(p, file.lang)
            ),
            &names(file.lang, defs, |d| d.kind == PeriodicKind::Damage),
        ));
    }
    Ok(Some(i))
}

fn index(
    file: &ScenarioFile,
    path: &[&str],
    key: &str,
    p: &str,
    defs: &[Periodic],
) -> Result<usize, UserError> {
    defs.iter().position(|d| d.name == p).ok_or_else(|| {
        file.error_at(
            path,
            key,
            &tr!(
                file.lang,
                "combat.check.periodic_unknown",
                name = crate::limits::clip(p, file.lang)
            ),
            &names(file.lang, defs, |_| true),
        )
    })
}

/// The names of the definitions that fit, quoted, or how to define one.
fn names(lang: Lang, defs: &[Periodic], fits: impl Fn(&Periodic) -> bool) -> String {
    let v: Vec<String> = defs
        .iter()
        .filter(|d| fits(d))
        .map(|d| format!("\"{}\"", d.name))
        .collect();
    if v.is_empty() {
        tr!(lang, "combat.check.periodic_none_defined").into()
    } else {
        v.join(", ")
    }
}
