//! One module folder per game system, all sharing the engine, the dice and the report.

pub mod cosmos;
mod scenario_kind;

pub use scenario_kind::{RunOverrides, ScenarioKind, ScenarioResult};

use crate::rules::OptionSpec;

/// The rule options of every system, for the registry.
pub fn option_specs() -> &'static [&'static [OptionSpec]] {
    &[cosmos::OPTIONS, cosmos::combat::OPTIONS]
}

/// Every table of every system with default settings, for `cosmosim report`
/// (`trials` per cell for the Monte Carlo cross-checks).
pub fn report_outputs(ctx: &crate::context::Context, trials: u64) -> anyhow::Result<Vec<crate::report::Output>> {
    let mut all = Vec::new();
    all.extend(cosmos::cli::report_outputs(ctx, trials)?);
    Ok(all)
}

/// Every kind of scenario file, by its `system` key.
pub fn scenario_kinds() -> Vec<&'static ScenarioKind> {
    let kinds: Vec<&'static ScenarioKind> = vec![&cosmos::combat::SCENARIO_KIND];
    kinds
}
