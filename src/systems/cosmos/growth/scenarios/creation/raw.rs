//! The creation file as written: serde structs, shared with the leveling scenario.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::systems::cosmos::growth::creation::{HpPmSplit, MovePolicy, StatAssign};

crate::scenario::raw_scenario! {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    pub(super) struct Raw {
        #[serde(default)]
        pub creation: RawPolicy,
    }
}

/// The `[creation]` table, shared with the leveling scenario.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPolicy {
    pub(super) hp_pm_split: Option<HpPmSplit>,
    pub(super) stat_assign: Option<StatAssign>,
    pub(super) priority: Option<Vec<String>>,
    pub(super) move_policy: Option<MovePolicy>,
    pub(super) move_points: Option<i64>,
    pub(super) conversion: Option<RawConversion>,
    /// `[[creation.races]]`: race/class sheets, the intended one first, then the fallback
    /// list (C-CREATE-2/3; illustrative data: the book has no race list).
    pub(super) races: Option<Vec<RawSheet>>,
}

/// One race/class sheet: `min` and `max` by stat name.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSheet {
    pub(super) name: String,
    #[serde(default)]
    pub(super) min: BTreeMap<String, i64>,
    #[serde(default)]
    pub(super) max: BTreeMap<String, i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawConversion {
    pub(super) force: i64,
    pub(super) esprit: i64,
    pub(super) charisme: i64,
    pub(super) agilite: i64,
    /// C-CREATE-3 "le reste des informations valides le demeure": the character's own
    /// HP, PM, skill and DNA points and level stay.
    pub(super) hp: i64,
    pub(super) pm: i64,
    pub(super) skill_points: i64,
    pub(super) dna_points: i64,
    pub(super) level: i64,
}
