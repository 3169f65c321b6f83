//! Scenario kinds of the growth rules: `creation`, `leveling`.

pub mod campaign;
mod common;
pub mod creation;
pub mod expedition;
pub mod leveling;
pub mod mutation;

pub use common::{cdf_chart, parse_priority, shown_key, summary, task_of, Parsed};

use crate::systems::ScenarioKind;

/// `kind = "creation"`: what do new characters look like?
pub static CREATION: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("creation"),
    check: creation::check,
    run: creation::run,
    defaults: None,
};
/// `kind = "leveling"`: stats, HP/PM and points at levels 1..10.
pub static LEVELING: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("leveling"),
    check: leveling::check,
    run: leveling::run,
    defaults: None,
};

/// `kind = "mutation"`: days of exposure until an ultimate mutation.
pub static MUTATION: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("mutation"),
    check: mutation::check,
    run: mutation::run,
    defaults: None,
};

/// `kind = "expedition"`: fatigue over a multi-day expedition.
pub static EXPEDITION: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("expedition"),
    check: expedition::check,
    run: expedition::run,
    defaults: None,
};

/// `kind = "campaign"`: karma over a long campaign.
pub static CAMPAIGN: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("campaign"),
    check: campaign::check,
    run: campaign::run,
    defaults: None,
};
