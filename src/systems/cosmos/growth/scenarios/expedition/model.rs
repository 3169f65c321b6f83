//! The expedition file validated into an [`ExpeditionModel`] (raw keys in `raw.rs`).

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::fatigue::expedition::{
    DayPlan, Encounter, FightExtras, PotionUse, Traveller,
};
use crate::systems::cosmos::growth::fatigue::{Fatigue, FATIGUE_MAX, FATIGUE_MIN};
use crate::systems::cosmos::growth::genetics::DiceExpr;
use crate::systems::cosmos::growth::scenarios::Parsed;
use crate::systems::cosmos::growth::stats::Stat;

use super::super::common::{bad, in_range, threshold};
use super::legs::{self, Legs};
use super::linked::LinkedCombat;
pub use super::members::{Member, Party};
use super::raw::{Raw, RawDay, RawEncounter, RawMember, RawTraveller};

/// At most this many travellers in a party.
pub const MAX_TRAVELLERS: usize = 8;
/// At most this many shared rations.
pub const MAX_RATIONS: i64 = 100_000;

/// The validated expedition.
#[derive(Clone, PartialEq, Debug)]
pub struct ExpeditionModel {
    /// The single traveller (with a party: its first member).
    pub traveller: Traveller,
    /// The party, when `[[expedition.travellers]]` is given.
    pub party: Option<Party>,
    /// The other C-FAT-2 events of a fight, when any is given.
    pub extras: Option<FightExtras>,
    /// A combat scenario played at each encounter instead of the abstract one (item 9).
    pub linked: Option<LinkedCombat>,
    pub plans: Vec<DayPlan>,
    pub encounter: Encounter,
    pub potions: Vec<PotionUse>,
    pub reference: (Stat, f64, i8),
    /// The reference test follows a concentrate action (C-FAT-5).
    pub concentrate: bool,
    /// Optional piloting and march legs.
    pub legs: Legs,
}

fn num(
    file: &ScenarioFile,
    path: &[&str],
    v: Option<i64>,
    default: i64,
    lo: i64,
    hi: i64,
) -> Result<i64, UserError> {
    in_range(file, path, v.unwrap_or(default), lo, hi, "")
}

fn dice(file: &ScenarioFile, path: &[&str], s: &str) -> Result<DiceExpr, UserError> {
    // A cap (`1d5000`: faces 1..1000) says which; the rest is not dice at all.
    DiceExpr::parse(s).map_err(|e| {
        bad(
            file,
            path,
            match e.key() {
                "syntax.not_dice" => tr!(file.lang, "growth.valid.not_dice", text = s),
                _ => e.text(file.lang),
            },
            tr!(file.lang, "growth.valid.dice_allowed"),
        )
    })
}

fn plan(
    file: &ScenarioFile,
    at: &[&str],
    d: &RawDay,
    base: &DayPlan,
) -> Result<DayPlan, UserError> {
    // A key of the day, or the base plan's value.
    let n = |k: &'static str, v: Option<i64>, base: i64, lo: i64, hi: i64| {
        num(file, &[at, &[k]].concat(), v, base, lo, hi)
    };
    Ok(DayPlan {
        march_fp: n("march_fp", d.march_fp, base.march_fp as i64, -20, 20)? as i32,
        march_fm: n("march_fm", d.march_fm, base.march_fm as i64, -20, 20)? as i32,
        meals: n("meals", d.meals, base.meals as i64, 0, 3)? as u32,
        pauses: n("pauses", d.pauses, base.pauses as i64, 0, 3)? as u32,
        sleep_hours: n("sleep_hours", d.sleep_hours, base.sleep_hours as i64, 0, 24)? as u32,
        rest_quality: n(
            "rest_quality",
            d.rest_quality,
            base.rest_quality as i64,
            0,
            3,
        )? as i32,
        encounters: match &d.encounters {
            Some(s) => dice(file, &[at, &["encounters"]].concat(), s)?,
            None => base.encounters,
        },
    })
}

/// Validates an expedition file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<ExpeditionModel>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let e = &raw.expedition;
    let days = num(file, &["expedition", "days"], Some(e.days), 0, 1, 365)? as usize;
    let (traveller, party) = travellers(file, e)?;
    let zero = DiceExpr::constant(0);
    let d = &e.day;
    let base = plan(file, &["expedition", "day"], d, &DayPlan::default())?;
    let mut plans = vec![base; days];
    // C-PILOT: stress moves the die 1 or 2 steps up.
    let stress_of = |at: &[&str], v: Option<i64>, default: u32| -> Result<u32, UserError> {
        if v.is_some() && e.piloting.is_none() {
            return Err(bad(
                file,
                &[at, &["piloting_stress"]].concat(),
                tr!(file.lang, "growth.valid.stress_without_piloting"),
                tr!(file.lang, "growth.valid.stress_without_piloting_allowed"),
            ));
        }
        num(
            file,
            &[at, &["piloting_stress"]].concat(),
            v,
            default as i64,
            0,
            2,
        )
        .map(|x| x as u32)
    };
    let base_stress = stress_of(&["expedition", "day"], d.piloting_stress, 0)?;
    let mut stress = vec![base_stress; days];
    // Which block changed each day: a day changed twice is refused, not settled by order
    // (audit of 2026-12-07, night: the later block won silently).
    let mut changed_by: Vec<Option<usize>> = vec![None; days];
    for (i, c) in e.changes.iter().enumerate() {
        let is = i.to_string();
        let at = ["expedition", "changes", is.as_str()];
        for (j, &day) in c.days.iter().enumerate() {
            if !(1..=days as i64).contains(&day) {
                let js = j.to_string();
                return Err(bad(
                    file,
                    &[&at[..], &["days", js.as_str()]].concat(),
                    tr!(file.lang, "growth.valid.day_outside", day),
                    &format!("1..{days}"),
                ));
            }
            if let Some(first) = changed_by[day as usize - 1].replace(i) {
                let js = j.to_string();
                return Err(bad(
                    file,
                    &[&at[..], &["days", js.as_str()]].concat(),
                    tr!(
                        file.lang,
                        "growth.valid.day_changed_twice",
                        day,
                        first,
                        second = i
                    ),
                    tr!(file.lang, "growth.valid.day_changed_twice_allowed"),
                ));
            }
            plans[day as usize - 1] = plan(file, &at, &c.keys(), &base)?;
            stress[day as usize - 1] = stress_of(&at, c.piloting_stress, base_stress)?;
        }
    }
    let linked = match &e.encounter {
        Some(r) => super::linked::linked(file, r, party.as_ref().map(|p| &p.members[..]))?,
        None => None,
    };
    let encounter = match &e.encounter {
        Some(r) if linked.is_none() => {
            let at = |k: &'static str| ["expedition", "encounter", k];
            let need = |k: &'static str, v: &Option<String>| -> Result<DiceExpr, UserError> {
                match v {
                    Some(s) => dice(file, &at(k), s),
                    None => Err(bad(
                        file,
                        &["expedition", "encounter"],
                        tr!(file.lang, "growth.valid.missing_key", key = k),
                        tr!(file.lang, "growth.valid.encounter_allowed"),
                    )),
                }
            };
            Encounter {
                rounds: need("rounds", &r.rounds)?,
                hp_lost: need("hp_lost", &r.hp_lost)?,
                pm_spent: need("pm_spent", &r.pm_spent)?,
                psychic_attacks: match &r.psychic_attacks {
                    Some(s) => dice(file, &at("psychic_attacks"), s)?,
                    None => zero,
                },
            }
        }
        _ => Encounter {
            rounds: zero,
            hp_lost: zero,
            pm_spent: zero,
            psychic_attacks: zero,
        },
    };
    let extras = match &e.encounter {
        Some(r) if linked.is_none() => extras(file, r)?,
        _ => None,
    };
    if e.potions.len() > 8 {
        return Err(bad(
            file,
            &["expedition", "potions"],
            tr!(
                file.lang,
                "growth.valid.potion_stocks",
                count = e.potions.len()
            ),
            tr!(file.lang, "growth.valid.potion_stocks_allowed"),
        ));
    }
    let mut potions = Vec::new();
    for (i, p) in e.potions.iter().enumerate() {
        let is = i.to_string();
        let at = ["expedition", "potions", is.as_str()];
        let count = num(
            file,
            &[&at[..], &["count"]].concat(),
            Some(p.count),
            0,
            0,
            1000,
        )? as u32;
        if p.when_fp.is_none() && p.when_fm.is_none() {
            return Err(bad(
                file,
                &[&at[..], &["potion"]].concat(),
                tr!(file.lang, "growth.valid.no_policy"),
                tr!(file.lang, "growth.valid.no_policy_allowed"),
            ));
        }
        let w = |k: &'static str, v: Option<i64>| -> Result<Option<i32>, UserError> {
            v.map(|x| num(file, &[&at[..], &[k]].concat(), Some(x), 0, -3, 10).map(|x| x as i32))
                .transpose()
        };
        potions.push(PotionUse {
            potion: p.potion,
            count,
            when_fp: w("when_fp", p.when_fp)?,
            when_fm: w("when_fm", p.when_fm)?,
        });
    }
    let r = &e.reference_test;
    let stat = Stat::parse(&r.stat).ok_or_else(|| {
        bad(
            file,
            &["expedition", "reference_test", "stat"],
            tr!(file.lang, "growth.common.unknown_stat", name = r.stat),
            &Stat::names(),
        )
    })?;
    threshold(
        file,
        &["expedition", "reference_test", "threshold"],
        r.threshold,
        " (C-TEST-1)",
    )?;
    let karma = num(
        file,
        &["expedition", "reference_test", "karma"],
        Some(r.karma),
        0,
        -10,
        10,
    )? as i8;
    let legs = Legs {
        piloting: match &e.piloting {
            Some(p) => Some(legs::piloting(file, p, stress)?),
            None => None,
        },
        march: match &e.march {
            Some(m) => Some(legs::march(file, m, traveller.force)?),
            None => None,
        },
    };
    if party.is_some() {
        for (k, given) in [
            ("piloting", e.piloting.is_some()),
            ("march", e.march.is_some()),
        ] {
            if given {
                return Err(bad(
                    file,
                    &["expedition", k],
                    tr!(file.lang, "growth.valid.leg_with_party", key = k),
                    tr!(file.lang, "growth.valid.leg_with_party_allowed"),
                ));
            }
        }
    }
    let model = ExpeditionModel {
        traveller,
        party,
        extras,
        linked,
        plans,
        encounter,
        potions,
        reference: (stat, r.threshold, karma),
        concentrate: r.concentrate,
        legs,
    };
    Ok((
        model,
        raw.rules,
        raw.run,
        crate::scenario::Text::pick(raw.title, file.lang),
        crate::scenario::Text::pick(raw.question, file.lang),
    ))
}

/// The traveller or the party (exactly one of `traveller` and `travellers`).
fn travellers(
    file: &ScenarioFile,
    e: &super::raw::RawExpedition,
) -> Result<(Traveller, Option<Party>), UserError> {
    match (&e.traveller, e.travellers.is_empty()) {
        (Some(t), true) => {
            if e.party.is_some() {
                return Err(bad(
                    file,
                    &["expedition", "party"],
                    tr!(file.lang, "growth.valid.party_single"),
                    tr!(file.lang, "growth.valid.party_single_allowed"),
                ));
            }
            Ok((one(file, &["expedition", "traveller"], t)?, None))
        }
        (Some(_), false) => Err(bad(
            file,
            &["expedition", "travellers"],
            tr!(file.lang, "growth.valid.both_travellers"),
            tr!(file.lang, "growth.valid.both_travellers_allowed"),
        )),
        (None, true) => Err(bad(
            file,
            &["expedition"],
            tr!(file.lang, "growth.valid.no_traveller"),
            tr!(file.lang, "growth.valid.no_traveller_allowed"),
        )),
        (None, false) => {
            let n = e.travellers.len();
            if n > MAX_TRAVELLERS {
                return Err(bad(
                    file,
                    &["expedition", "travellers"],
                    tr!(file.lang, "growth.valid.travellers_count", count = n),
                    &tr!(
                        file.lang,
                        "growth.valid.travellers_count_allowed",
                        max = MAX_TRAVELLERS
                    ),
                ));
            }
            let mut members: Vec<Member> = Vec::with_capacity(n);
            for (i, m) in e.travellers.iter().enumerate() {
                let is = i.to_string();
                let at = ["expedition", "travellers", is.as_str()];
                members.push(member(file, &at, m, &members)?);
            }
            let rations = match e.party.as_ref().and_then(|p| p.rations) {
                None => None,
                Some(r) => Some(num(
                    file,
                    &["expedition", "party", "rations"],
                    Some(r),
                    0,
                    0,
                    MAX_RATIONS,
                )? as u32),
            };
            Ok((members[0].traveller, Some(Party { members, rations })))
        }
    }
}

fn one(file: &ScenarioFile, at: &[&str], t: &RawTraveller) -> Result<Traveller, UserError> {
    stats(file, at, t.force, t.esprit, t.mental_health)
}

fn stats(
    file: &ScenarioFile,
    at: &[&str],
    force: i64,
    esprit: i64,
    mental_health: Option<i64>,
) -> Result<Traveller, UserError> {
    let p = |k: &'static str| [at, &[k]].concat();
    Ok(Traveller {
        force: num(file, &p("force"), Some(force), 0, 1, 100)? as i32,
        esprit: num(file, &p("esprit"), Some(esprit), 0, 1, 100)? as i32,
        mental_health: match mental_health {
            None => None,
            Some(m) => Some(num(file, &p("mental_health"), Some(m), 0, 0, 150)? as i32),
        },
    })
}

fn member(
    file: &ScenarioFile,
    at: &[&str],
    m: &RawMember,
    before: &[Member],
) -> Result<Member, UserError> {
    let p = |k: &'static str| [at, &[k]].concat();
    let name = m.name.trim();
    let ok = !name.is_empty()
        && name.len() <= 32
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ');
    if !ok || before.iter().any(|b| b.name == name) {
        return Err(bad(
            file,
            &p("name"),
            tr!(file.lang, "growth.valid.bad_name", name = m.name),
            tr!(file.lang, "growth.valid.bad_name_allowed"),
        ));
    }
    let traveller = stats(file, at, m.force, m.esprit, m.mental_health)?;
    let fp_mod = num(file, &p("fp_modifier"), Some(m.fp_modifier), 0, -3, 3)? as i32;
    let fm_mod = num(file, &p("fm_modifier"), Some(m.fm_modifier), 0, -3, 3)? as i32;
    let base = Fatigue::start(traveller.force, traveller.esprit, traveller.mental_health);
    // C-FAT-1: modifiers summed, then clamped at -3 (and within the track).
    let start = Fatigue {
        fp: (base.fp + fp_mod).clamp(FATIGUE_MIN, FATIGUE_MAX),
        fm: (base.fm + fm_mod).clamp(FATIGUE_MIN, FATIGUE_MAX),
    };
    Ok(Member {
        name: name.to_string(),
        traveller,
        start,
    })
}

/// The other C-FAT-2 events of a fight (None when no key is given, so that older files
/// keep their streams).
fn extras(file: &ScenarioFile, r: &RawEncounter) -> Result<Option<FightExtras>, UserError> {
    let keys = [
        ("extra_physical_actions", &r.extra_physical_actions),
        ("extra_magical_actions", &r.extra_magical_actions),
        ("knockout", &r.knockout),
        ("light_points", &r.light_points),
        ("dark_points", &r.dark_points),
        ("light_backlashes", &r.light_backlashes),
        ("dark_backlashes", &r.dark_backlashes),
    ];
    if keys.iter().all(|(_, v)| v.is_none()) {
        return Ok(None);
    }
    let mut d = [DiceExpr::constant(0); 7];
    for (slot, (k, v)) in d.iter_mut().zip(keys) {
        if let Some(s) = v {
            *slot = dice(file, &["expedition", "encounter", k], s)?;
        }
    }
    let [extra_physical, extra_magical, knockout, light_points, dark_points, light_backlashes, dark_backlashes] =
        d;
    Ok(Some(FightExtras {
        extra_physical,
        extra_magical,
        knockout,
        light_points,
        dark_points,
        light_backlashes,
        dark_backlashes,
    }))
}
