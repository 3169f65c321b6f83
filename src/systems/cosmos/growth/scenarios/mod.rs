//! Scenario kinds of the growth rules: `creation`, `leveling`.

mod common;
pub mod creation;
pub mod leveling;

pub use common::{parse_priority, summary, task_of};

use crate::systems::ScenarioKind;

/// `kind = "creation"`: what do new characters look like?
pub static CREATION: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("creation"),
    check: creation::check,
    run: creation::run,
};
/// `kind = "leveling"`: stats, HP/PM and points at levels 1..10.
pub static LEVELING: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("leveling"),
    check: leveling::check,
    run: leveling::run,
};
