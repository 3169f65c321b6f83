//! `kind = "mutation"`: days of exposure until an ultimate mutation (C-GENE-1..5), as
//! survival curves, time-to-event quantiles, ultimate shares and a Chance x karma sweep.
//! Exposure is daily Pµ dice and/or events (a bite, a dose); Chance can follow the
//! character's levels and karma the campaign's other tests.

use crate::scenario::ScenarioFile;
use crate::systems::{RunOverrides, ScenarioResult};

/// Default characters per run (and per sweep cell).
pub const DEFAULT_TRIALS: u64 = 20_000;
/// The rule family this kind is made of (mutation is genetics: the previous edition has no genetics rule, C-EDITION).
const NEEDS: Option<crate::systems::CurrentOnly> = Some(crate::systems::CurrentOnly::Genetics);

mod model;
mod raw;
mod report;
mod sim;
mod trace;

pub use trace::trace;

pub use model::{check, model, Event, Levels, MutationModel, When};
pub use sim::{MutationAcc, MutationSim};

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (m, rules_map, run, title, question) = model(file)?;
    let (ctx, trials) = o.resolve_needing(file, &run, &rules_map, DEFAULT_TRIALS, NEEDS)?;
    report::report(file, &m, &ctx, trials, title, question)
}
