//! One module folder per game system, all sharing the engine, the dice and the report.

pub mod cosmos;
pub mod fallout;
pub mod mask;
pub mod nephilim;
pub mod report_parts;
mod scenario_kind;
pub mod trace;
pub mod trinites;

pub use scenario_kind::{
    CheckedOnly, CurrentOnly, RunOverrides, ScenarioKind, ScenarioResult, TrialLimits,
};

/// Every table of every system with default settings, for `cosmosim report`
/// (`trials` per cell for the Monte Carlo cross-checks).
pub fn report_outputs(
    ctx: &crate::context::Context,
    trials: u64,
) -> anyhow::Result<Vec<crate::report::Output>> {
    let mut all = Vec::new();
    all.extend(cosmos::cli::report_outputs(ctx, trials)?);
    all.extend(cosmos::growth::cli::report_outputs(ctx, trials)?);
    all.extend(nephilim::cli::report_outputs(ctx, trials)?);
    all.extend(fallout::cli::report_outputs(ctx, trials)?);
    all.extend(trinites::cli::report_outputs(ctx, trials)?);
    Ok(all)
}

/// The files a scenario file reads besides itself (a party expedition's linked combat
/// file): shard manifests record their hashes with the scenario's, so `merge` refuses
/// parts run against other versions of them. Only Great Cosmos expeditions link a file.
pub fn linked_inputs(file: &std::path::Path) -> Vec<std::path::PathBuf> {
    cosmos::growth::scenarios::expedition::linked_path(file)
        .into_iter()
        .collect()
}

/// Every kind of scenario file, by its `system` key.
pub fn scenario_kinds() -> Vec<&'static ScenarioKind> {
    let kinds: Vec<&'static ScenarioKind> = vec![
        &fallout::scenario::AP_ECONOMY,
        &trinites::duel::SCENARIO_KIND,
        &trinites::skirmish::SCENARIO_KIND,
        &nephilim::duel::SCENARIO_KIND,
        &cosmos::combat::SCENARIO_KIND,
        &cosmos::growth::scenarios::CREATION,
        &cosmos::growth::scenarios::LEVELING,
        &cosmos::growth::scenarios::MUTATION,
        &cosmos::growth::scenarios::EXPEDITION,
        &cosmos::growth::scenarios::CAMPAIGN,
    ];
    kinds
}
