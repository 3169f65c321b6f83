//! Nephilim duels from scenario files (`system = "nephilim"`, `kind = "duel"`):
//! initiative segments, extra actions and delay (N-INIT), attack against parry or dodge
//! (N-TEST, N-OPP), wound and fatigue counters (N-HEALTH).

mod acc;
mod model;
mod raw;
mod report;
mod sim;
mod trace;

pub use acc::{DuelAcc, FighterAcc, A_WINS, BOTH_OUT, B_WINS, UNDECIDED};
pub use model::{
    load, load_with, DefenceKind, Delay, DuelModel, Fighter, ACTIONS_MAX, ROUNDS_MAX, TRIALS_MAX,
};
pub use raw::RawDuel;
pub use sim::DuelSim;

use crate::context::Context;
use crate::scenario::ScenarioFile;
use crate::systems::nephilim::NephilimRules;
use crate::systems::{RunOverrides, ScenarioKind, ScenarioResult, TrialLimits};

/// Duels per run when neither the file nor the command line says.
pub const DEFAULT_TRIALS: u64 = 200_000;
/// Most duels per cell of the actions grid (the grid has 9 cells).
pub const GRID_TRIALS_MAX: u64 = 100_000;

/// The `system = "nephilim"`, `kind = "duel"` scenario files.
pub static SCENARIO_KIND: ScenarioKind = ScenarioKind {
    system: "nephilim",
    kind: Some("duel"),
    defaults: None,
    run,
    trace: trace::trace,
};

/// What `run` and `trace` both start from: the file's duel under the settings in force,
/// the rules, the run's context and trial count.
fn setup(
    file: &ScenarioFile,
    o: &RunOverrides,
) -> anyhow::Result<(DuelSim, NephilimRules, Context, u64)> {
    // The starting counters against the boxes per state in force (`--option` too), the
    // same validation for `check` and `run`.
    let (raw, model) = load_with(file, &o.options)?;
    let limits = TrialLimits {
        default: DEFAULT_TRIALS,
        max: TRIALS_MAX,
    };
    let (ctx, trials) = o.resolve(file, &raw.run, &raw.rules, limits)?;
    let rules = NephilimRules::from_options(&ctx.options);
    let actions = [model.fighters[0].actions, model.fighters[1].actions];
    Ok((DuelSim::new(model, &rules, actions), rules, ctx, trials))
}

fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (sim, rules, ctx, trials) = setup(file, o)?;
    let progress = ctx.progress(trials, "nephilim duels");
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    // The actions grid: each (a, b) its own streams, so a cell's numbers do not depend on
    // the file's own actions.
    let grid_trials = trials.min(GRID_TRIALS_MAX);
    let mut grid = Vec::new();
    for a in 1..=ACTIONS_MAX {
        for b in 1..=ACTIONS_MAX {
            let cell = DuelSim::new(sim.model.clone(), &rules, [a, b]);
            let key = ctx
                .stream
                .clone()
                .int("grid_actions_a", a.into())
                .int("grid_actions_b", b.into());
            let acc = ctx
                .engine
                .run(&cell, &key, grid_trials, &crate::engine::Progress::hidden());
            grid.push(report::GridCell {
                actions: [a, b],
                acc,
                trials: grid_trials,
            });
        }
    }
    report::result(file, &sim, &rules, &acc, &grid, &ctx, trials, grid_trials)
}
