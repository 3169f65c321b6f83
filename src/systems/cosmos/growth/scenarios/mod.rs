//! Scenario kinds of the growth rules: `creation`, `leveling`, `mutation`, `expedition`,
//! `campaign`.

pub mod campaign;
mod common;
pub mod creation;
pub mod expedition;
pub mod leveling;
pub mod mutation;

pub use common::{
    bad, cdf_chart, in_range, parse_priority, scenario_result, shown_key, summary, within, Parsed,
};

use crate::scenario::ScenarioFile;
use crate::systems::trace::{TraceRequest, TraceResult};
use crate::systems::{RunOverrides, ScenarioKind, ScenarioResult};

/// A growth kind of system `cosmos`: its `kind` key, `run` and `trace`.
const fn growth_kind(
    kind: &'static str,
    run: fn(&ScenarioFile, &RunOverrides) -> anyhow::Result<ScenarioResult>,
    trace: fn(&ScenarioFile, &TraceRequest) -> anyhow::Result<TraceResult>,
) -> ScenarioKind {
    ScenarioKind {
        system: "cosmos",
        kind: Some(kind),
        run,
        defaults: None,
        trace,
    }
}

/// `kind = "creation"`: what do new characters look like?
pub static CREATION: ScenarioKind = growth_kind("creation", creation::run, creation::trace);
/// `kind = "leveling"`: stats, HP/PM and points at levels 1..10.
pub static LEVELING: ScenarioKind = growth_kind("leveling", leveling::run, leveling::trace);
/// `kind = "mutation"`: days of exposure until an ultimate mutation.
pub static MUTATION: ScenarioKind = growth_kind("mutation", mutation::run, mutation::trace);
/// `kind = "expedition"`: fatigue over a multi-day expedition.
pub static EXPEDITION: ScenarioKind = growth_kind("expedition", expedition::run, expedition::trace);
/// `kind = "campaign"`: karma over a long campaign.
pub static CAMPAIGN: ScenarioKind = growth_kind("campaign", campaign::run, campaign::trace);
