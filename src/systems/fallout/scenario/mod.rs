//! The 2d20 scenario: an action-point economy over a sequence of tests (F-AP).

mod model;
mod output;
mod sim;

pub use model::{ApEconomy, Buy, Policy, Step, STEPS_MAX};
pub use sim::{ApAcc, ApSim, StepAcc};

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::fallout::Shortfall;
use crate::systems::{RunOverrides, ScenarioKind, ScenarioResult};

/// Trials when neither the file nor the command line sets them.
pub const DEFAULT_TRIALS: u64 = 200_000;

/// `system = "fallout"` scenario files.
pub static AP_ECONOMY: ScenarioKind = ScenarioKind {
    system: "fallout",
    kind: None,
    check,
    run,
    defaults: None,
};

fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (_, raw) = ApEconomy::from_file(file)?;
    file.rule_options(&raw.rules)?;
    Ok(())
}

fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (model, raw) = ApEconomy::from_file(file)?;
    let (ctx, trials) = o.resolve(file, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
    let sim = ApSim::new(&model, Shortfall::from_options(&ctx.options));
    let progress = ctx.progress(trials, "fallout ap-economy");
    // One task per file: the whole sequence is one stream family.
    let acc = ctx.engine.run(&sim, 0, trials, &progress);
    progress.finish();
    output::result(file, &model, &acc, &ctx, trials)
}
