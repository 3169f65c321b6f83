//! `kind = "campaign"`: karma over many tests at mixed thresholds, with and without
//! posture locks (C-KARMA-1..3): trajectories, time to first reach +-10, stationary shares;
//! postures paid in Light/Dark points and the game master's grants when the file says so.

use crate::scenario::ScenarioFile;
use crate::systems::{RunOverrides, ScenarioResult};

/// Default trajectories per variant.
pub const DEFAULT_TRIALS: u64 = 20_000;

mod gm;
mod model;
// The mutation kind's `[mutation.campaign]` takes the same thresholds.
pub(super) mod raw;
mod report;
mod sim;
mod trace;

pub use trace::trace;

pub use model::{model, Campaign, CampaignModel, Grant, Script};
pub use sim::{exact_checkpoints, CampaignAcc, CampaignSim};

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (c, rules_map, run, title, question) = model(file)?;
    let (ctx, trials) = o.resolve(file, &run, &rules_map, DEFAULT_TRIALS)?;
    report::report(file, &c, &ctx, trials, title, question)
}
