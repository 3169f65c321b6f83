//! Optional legs of an expedition day: a piloting leg (C-PILOT) and a march measured in
//! grid units (C-MOVE, C-INV, C-FAT-4). Both reuse the small-rule code of the
//! `cosmos-piloting` and `cosmos-movement` tables.

use serde::Deserialize;

use super::super::common::{bad, in_range};
use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::fatigue::{FATIGUE_MAX, FATIGUE_MIN};
use crate::systems::cosmos::growth::movement::{movement, Mover};
use crate::systems::cosmos::growth::piloting::{crew_score, p_success, LADDER, WORLD_SHIP_DIE};
use crate::systems::cosmos::growth::GrowthRules;
use crate::systems::cosmos::SpecError;
use crate::systems::cosmos::TestRules;

/// `[expedition.piloting]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPiloting {
    scores: Vec<i64>,
    vehicle_die: i64,
}

/// `[expedition.march]` as written.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMarch {
    agilite: i64,
    #[serde(default)]
    inventory_slots_used: i64,
    #[serde(default)]
    karma: i64,
    turns_per_day: i64,
    #[serde(default)]
    pace: Pace,
}

/// Every turn walked, or every turn a sprint (an Agilité test, C-MOVE).
#[derive(Clone, Copy, Debug, Default, Deserialize, serde::Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Pace {
    #[default]
    Walk,
    Sprint,
}

/// The daily piloting leg: crew score, vehicle die, stress steps per day.
#[derive(Clone, Debug, PartialEq)]
pub struct Piloting {
    pub score: i64,
    pub vehicle_die: u32,
    pub stress: Vec<u32>,
}

/// The daily march in grid units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct March {
    pub mover: Mover,
    pub turns_per_day: u32,
    pub pace: Pace,
}

/// The optional legs of a validated expedition.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Legs {
    pub piloting: Option<Piloting>,
    pub march: Option<March>,
}

/// Validates the piloting leg; `stress` is the per-day stress already read from the day
/// plans (0..2 steps, C-PILOT).
pub fn piloting(
    file: &ScenarioFile,
    raw: &RawPiloting,
    stress: Vec<u32>,
) -> Result<Piloting, UserError> {
    let at = ["expedition", "piloting"];
    if raw.scores.is_empty() || raw.scores.len() > 8 {
        return Err(bad(
            file,
            &[&at[..], &["scores"]].concat(),
            tr!(
                file.lang,
                "growth.legs.pilot_scores",
                count = raw.scores.len()
            ),
            tr!(file.lang, "growth.legs.pilot_scores_allowed"),
        ));
    }
    let mut scores = Vec::new();
    for (i, &s) in raw.scores.iter().enumerate() {
        let is = i.to_string();
        scores.push(in_range(
            file,
            &[&at[..], &["scores", is.as_str()]].concat(),
            s,
            0,
            100,
            "",
        )?);
    }
    let dice = tr!(file.lang, "growth.legs.dice_allowed");
    let die = raw.vehicle_die;
    if !(0..=100).contains(&die)
        || !(LADDER.contains(&(die as u32)) || die == WORLD_SHIP_DIE as i64)
    {
        return Err(bad(
            file,
            &[&at[..], &["vehicle_die"]].concat(),
            tr!(file.lang, "growth.legs.not_vehicle_die", die),
            dice,
        ));
    }
    Ok(Piloting {
        score: crew_score(&scores),
        vehicle_die: die as u32,
        stress,
    })
}

/// Validates the march; `force` is the traveller's (C-INV capacity).
pub fn march(file: &ScenarioFile, raw: &RawMarch, force: i32) -> Result<March, UserError> {
    let p = |k: &'static str| ["expedition", "march", k];
    Ok(March {
        mover: Mover {
            agility: in_range(file, &p("agilite"), raw.agilite, 1, 100, "")? as i32,
            force,
            load: in_range(
                file,
                &p("inventory_slots_used"),
                raw.inventory_slots_used,
                0,
                1000,
                tr!(file.lang, "growth.legs.capacity_why"),
            )? as i32,
            fp: 0,
            karma: in_range(file, &p("karma"), raw.karma, -10, 10, " (C-TEST-3)")? as i8,
        },
        turns_per_day: in_range(file, &p("turns_per_day"), raw.turns_per_day, 1, 100_000, "")?
            as u32,
        pace: raw.pace,
    })
}

/// Grid units marched in a day at each morning FP value -3..10 (exact per turn: the walk,
/// or the expected sprint over the Agilité test; C-MOVE, C-INV, C-FAT-4).
pub fn march_table(
    m: &March,
    rules: &TestRules,
    growth: &GrowthRules,
) -> Result<[f64; 14], SpecError> {
    let mut out = [0.0; 14];
    for (i, fp) in (FATIGUE_MIN..=FATIGUE_MAX).enumerate() {
        let r = movement(&Mover { fp, ..m.mover }, rules, growth)?;
        let per_turn = match m.pace {
            Pace::Walk => r.walk as f64,
            Pace::Sprint => r.expected_sprint(),
        };
        out[i] = per_turn * m.turns_per_day as f64;
    }
    Ok(out)
}

/// P(the piloting leg succeeds) on each day (exact, C-PILOT).
pub fn piloting_by_day(p: &Piloting) -> Vec<f64> {
    p.stress
        .iter()
        .map(|&s| p_success(p.score, p.vehicle_die, s))
        .collect()
}
