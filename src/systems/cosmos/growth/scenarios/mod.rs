//! Scenario kinds of the growth rules: `creation`, `leveling`.

pub mod campaign;
mod common;
pub mod creation;
pub mod expedition;
pub mod leveling;
pub mod mutation;

pub use common::{
    bad, cdf_chart, in_range, parse_priority, scenario_result, shown_key, summary, within, Parsed,
};

use crate::systems::ScenarioKind;

/// `kind = "creation"`: what do new characters look like?
pub static CREATION: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("creation"),
    run: creation::run,
    defaults: None,
    trace: creation::trace,
};
/// `kind = "leveling"`: stats, HP/PM and points at levels 1..10.
pub static LEVELING: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("leveling"),
    run: leveling::run,
    defaults: None,
    trace: leveling::trace,
};

/// `kind = "mutation"`: days of exposure until an ultimate mutation.
pub static MUTATION: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("mutation"),
    run: mutation::run,
    defaults: None,
    trace: mutation::trace,
};

/// `kind = "expedition"`: fatigue over a multi-day expedition.
pub static EXPEDITION: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("expedition"),
    run: expedition::run,
    defaults: None,
    trace: expedition::trace,
};

/// `kind = "campaign"`: karma over a long campaign.
pub static CAMPAIGN: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("campaign"),
    run: campaign::run,
    defaults: None,
    trace: campaign::trace,
};
