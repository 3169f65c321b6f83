//! The expedition file: raw keys and their validation into an [`ExpeditionModel`].

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::UserError;
use crate::scenario::{RunSection, ScenarioFile};
use crate::systems::cosmos::growth::fatigue::expedition::{
    DayPlan, Encounter, PotionUse, Traveller,
};
use crate::systems::cosmos::growth::fatigue::Potion;
use crate::systems::cosmos::growth::genetics::DiceExpr;
use crate::systems::cosmos::growth::scenarios::Parsed;
use crate::systems::cosmos::growth::stats::Stat;

use super::legs::{self, Legs, RawMarch, RawPiloting};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Raw {
    system: String,
    kind: String,
    title: Option<String>,
    question: Option<String>,
    #[serde(default)]
    run: RunSection,
    #[serde(default)]
    rules: BTreeMap<String, toml::Value>,
    expedition: RawExpedition,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpedition {
    days: i64,
    traveller: RawTraveller,
    day: RawDay,
    #[serde(default)]
    changes: Vec<RawChange>,
    encounter: Option<RawEncounter>,
    #[serde(default)]
    potions: Vec<RawPotion>,
    reference_test: RawReference,
    piloting: Option<RawPiloting>,
    march: Option<RawMarch>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTraveller {
    force: i64,
    esprit: i64,
    mental_health: Option<i64>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDay {
    march_fp: Option<i64>,
    march_fm: Option<i64>,
    meals: Option<i64>,
    pauses: Option<i64>,
    sleep_hours: Option<i64>,
    rest_quality: Option<i64>,
    encounters: Option<String>,
    piloting_stress: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawChange {
    days: Vec<i64>,
    march_fp: Option<i64>,
    march_fm: Option<i64>,
    meals: Option<i64>,
    pauses: Option<i64>,
    sleep_hours: Option<i64>,
    rest_quality: Option<i64>,
    encounters: Option<String>,
    piloting_stress: Option<i64>,
}

/// The keys of a day plan, from `[expedition.day]` or a change.
#[derive(Debug, Default)]
struct RawDayLoose {
    march_fp: Option<i64>,
    march_fm: Option<i64>,
    meals: Option<i64>,
    pauses: Option<i64>,
    sleep_hours: Option<i64>,
    rest_quality: Option<i64>,
    encounters: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawEncounter {
    rounds: String,
    hp_lost: String,
    pm_spent: String,
    #[serde(default = "zero")]
    psychic_attacks: String,
}

fn zero() -> String {
    "0".into()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPotion {
    potion: Potion,
    count: i64,
    when_fp: Option<i64>,
    when_fm: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReference {
    stat: String,
    threshold: f64,
    #[serde(default)]
    karma: i64,
    /// Taken on the turn after a concentrate action (C-FAT-5).
    #[serde(default)]
    concentrate: bool,
}

/// The validated expedition.
#[derive(Clone, PartialEq)]
pub struct ExpeditionModel {
    pub traveller: Traveller,
    pub plans: Vec<DayPlan>,
    pub encounter: Encounter,
    pub potions: Vec<PotionUse>,
    pub reference: (Stat, f64, i8),
    /// The reference test follows a concentrate action (C-FAT-5).
    pub concentrate: bool,
    /// Optional piloting and march legs.
    pub legs: Legs,
}

/// As the derived form, with the legs printed only when given: the engine task hashes
/// this text, so expeditions without legs keep their numbers.
impl std::fmt::Debug for ExpeditionModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("ExpeditionModel");
        d.field("traveller", &self.traveller)
            .field("plans", &self.plans)
            .field("encounter", &self.encounter)
            .field("potions", &self.potions)
            .field("reference", &self.reference);
        if self.concentrate {
            d.field("concentrate", &self.concentrate);
        }
        if self.legs != Legs::default() {
            d.field("legs", &self.legs);
        }
        d.finish()
    }
}

fn bad(file: &ScenarioFile, path: &[&str], msg: String, allowed: &str) -> UserError {
    file.error_at(
        path,
        &crate::systems::cosmos::growth::scenarios::shown_key(path),
        &msg,
        allowed,
    )
}

fn num(
    file: &ScenarioFile,
    path: &[&str],
    v: Option<i64>,
    default: i64,
    lo: i64,
    hi: i64,
) -> Result<i64, UserError> {
    let v = v.unwrap_or(default);
    if !(lo..=hi).contains(&v) {
        return Err(bad(
            file,
            path,
            format!("{v} is out of range"),
            &format!("{lo}..{hi}"),
        ));
    }
    Ok(v)
}

fn dice(file: &ScenarioFile, path: &[&str], s: &str) -> Result<DiceExpr, UserError> {
    DiceExpr::parse(s).map_err(|_| {
        bad(
            file,
            path,
            format!("\"{s}\" is not a dice expression"),
            "NdF, NdF+K, NdF-K or K, e.g. \"2d4\", \"1d2-1\", \"0\"",
        )
    })
}

fn plan(
    file: &ScenarioFile,
    at: &[&str],
    d: &RawDayLoose,
    base: &DayPlan,
) -> Result<DayPlan, UserError> {
    let p = |k: &'static str| [at, &[k]].concat();
    Ok(DayPlan {
        march_fp: num(
            file,
            &p("march_fp"),
            d.march_fp,
            base.march_fp as i64,
            -20,
            20,
        )? as i32,
        march_fm: num(
            file,
            &p("march_fm"),
            d.march_fm,
            base.march_fm as i64,
            -20,
            20,
        )? as i32,
        meals: num(file, &p("meals"), d.meals, base.meals as i64, 0, 3)? as u32,
        pauses: num(file, &p("pauses"), d.pauses, base.pauses as i64, 0, 3)? as u32,
        sleep_hours: num(
            file,
            &p("sleep_hours"),
            d.sleep_hours,
            base.sleep_hours as i64,
            0,
            24,
        )? as u32,
        rest_quality: num(
            file,
            &p("rest_quality"),
            d.rest_quality,
            base.rest_quality as i64,
            0,
            3,
        )? as i32,
        encounters: match &d.encounters {
            Some(s) => dice(file, &p("encounters"), s)?,
            None => base.encounters,
        },
    })
}

/// Validates an expedition file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<ExpeditionModel>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let e = &raw.expedition;
    let days = num(file, &["expedition", "days"], Some(e.days), 0, 1, 365)? as usize;
    let t = &e.traveller;
    let traveller = Traveller {
        force: num(
            file,
            &["expedition", "traveller", "force"],
            Some(t.force),
            0,
            1,
            100,
        )? as i32,
        esprit: num(
            file,
            &["expedition", "traveller", "esprit"],
            Some(t.esprit),
            0,
            1,
            100,
        )? as i32,
        mental_health: match t.mental_health {
            None => None,
            Some(m) => Some(num(
                file,
                &["expedition", "traveller", "mental_health"],
                Some(m),
                0,
                0,
                150,
            )? as i32),
        },
    };
    let zero = DiceExpr::constant(0);
    let defaults = DayPlan {
        march_fp: 0,
        march_fm: 0,
        meals: 3,
        pauses: 0,
        sleep_hours: 8,
        rest_quality: 0,
        encounters: zero,
    };
    let d = &e.day;
    let loose = RawDayLoose {
        march_fp: d.march_fp,
        march_fm: d.march_fm,
        meals: d.meals,
        pauses: d.pauses,
        sleep_hours: d.sleep_hours,
        rest_quality: d.rest_quality,
        encounters: d.encounters.clone(),
    };
    let base = plan(file, &["expedition", "day"], &loose, &defaults)?;
    let mut plans = vec![base; days];
    // C-PILOT: stress moves the die 1 or 2 steps up.
    let stress_of = |at: &[&str], v: Option<i64>, default: u32| -> Result<u32, UserError> {
        if v.is_some() && e.piloting.is_none() {
            return Err(bad(
                file,
                &[at, &["piloting_stress"]].concat(),
                "piloting_stress without a piloting leg".into(),
                "an [expedition.piloting] table (scores, vehicle_die), or no piloting_stress",
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
    for (i, c) in e.changes.iter().enumerate() {
        let is = i.to_string();
        let at = ["expedition", "changes", is.as_str()];
        for (j, &day) in c.days.iter().enumerate() {
            if !(1..=days as i64).contains(&day) {
                let js = j.to_string();
                return Err(bad(
                    file,
                    &[&at[..], &["days", js.as_str()]].concat(),
                    format!("day {day} is outside the expedition"),
                    &format!("1..{days}"),
                ));
            }
            let loose = RawDayLoose {
                march_fp: c.march_fp,
                march_fm: c.march_fm,
                meals: c.meals,
                pauses: c.pauses,
                sleep_hours: c.sleep_hours,
                rest_quality: c.rest_quality,
                encounters: c.encounters.clone(),
            };
            plans[day as usize - 1] = plan(file, &at, &loose, &base)?;
            stress[day as usize - 1] = stress_of(&at, c.piloting_stress, base_stress)?;
        }
    }
    let encounter = match &e.encounter {
        None => Encounter {
            rounds: zero,
            hp_lost: zero,
            pm_spent: zero,
            psychic_attacks: zero,
        },
        Some(r) => Encounter {
            rounds: dice(file, &["expedition", "encounter", "rounds"], &r.rounds)?,
            hp_lost: dice(file, &["expedition", "encounter", "hp_lost"], &r.hp_lost)?,
            pm_spent: dice(file, &["expedition", "encounter", "pm_spent"], &r.pm_spent)?,
            psychic_attacks: dice(
                file,
                &["expedition", "encounter", "psychic_attacks"],
                &r.psychic_attacks,
            )?,
        },
    };
    if e.potions.len() > 8 {
        return Err(bad(
            file,
            &["expedition", "potions"],
            format!("{} potion stocks", e.potions.len()),
            "at most 8 [[expedition.potions]] entries",
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
            return Err(bad(file, &[&at[..], &["potion"]].concat(), "no use policy".into(), "when_fp = N and/or when_fm = N (drink in the evening when the track is at least N)"));
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
            format!("unknown stat \"{}\"", r.stat),
            &Stat::names(),
        )
    })?;
    if !(r.threshold.is_finite() && (-100.0..=200.0).contains(&r.threshold)) {
        return Err(bad(
            file,
            &["expedition", "reference_test", "threshold"],
            format!("{} is out of range", r.threshold),
            "-100..200",
        ));
    }
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
    let model = ExpeditionModel {
        traveller,
        plans,
        encounter,
        potions,
        reference: (stat, r.threshold, karma),
        concentrate: r.concentrate,
        legs,
    };
    Ok((model, raw.rules, raw.run, raw.title, raw.question))
}

/// Validates the file.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (_, rules, ..) = model(file)?;
    file.rule_options(&rules)?;
    Ok(())
}
