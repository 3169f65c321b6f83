//! The raw serde shape of a `kind = "mutation"` file, before validation (`model.rs`).

use serde::Deserialize;

use crate::systems::cosmos::growth::genetics::RawGene;

use super::super::campaign::raw::RawThreshold;

crate::scenario::raw_scenario! {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)]
    pub(super) struct Raw {
        pub mutation: RawMutation,
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMutation {
    pub chance: i64,
    #[serde(default)]
    pub karma: i64,
    pub max_days: i64,
    #[serde(default)]
    pub therapy_every_days: i64,
    /// "sample" for the shipped illustrative tree; otherwise `genes` is required.
    pub tree: Option<String>,
    #[serde(default)]
    pub genes: Vec<RawGene>,
    #[serde(default)]
    pub schedule: Vec<RawPhase>,
    pub sweep: Option<RawSweep>,
    /// Exposures that happen on given days or by a daily chance (a bite, a dose).
    #[serde(default)]
    pub events: Vec<RawEvent>,
    /// The character levels up during the exposure: its Chance follows.
    pub levels: Option<RawLevels>,
    /// The character's other tests between mutations move karma (C-KARMA-1).
    pub campaign: Option<RawCampaign>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPhase {
    pub days: Option<i64>,
    pub pmu: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSweep {
    pub chance: Vec<i64>,
    pub karma: Vec<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawEvent {
    pub name: String,
    #[serde(default)]
    pub days: Vec<i64>,
    pub daily_chance: Option<f64>,
    pub pmu: Option<String>,
    #[serde(default)]
    pub mutations: i64,
    #[serde(default)]
    pub major: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawLevels {
    #[serde(default = "one")]
    pub start: i64,
    pub days_per_level: i64,
    pub chance_per_level: Option<i64>,
    pub chance: Option<Vec<i64>>,
}

fn one() -> i64 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCampaign {
    pub tests_per_day: i64,
    pub thresholds: Vec<RawThreshold>,
}
