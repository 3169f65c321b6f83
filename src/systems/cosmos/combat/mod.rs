//! Great Cosmos combat from scenario files: modes, defences, elements, turn order,
//! Light & Dark postures (C-CMB, C-ELEM, C-TURN, C-LD, C-KARMA-2), counted over many
//! seeded combats.

mod acc;
mod action;
mod affinity;
mod aura_report;
mod aura_use;
mod combatants;
pub mod element;
mod events;
mod fatigue;
mod fatigue_report;
mod fight;
mod gate;
mod headline;
mod hp_any;
mod keys;
mod linked;
mod model;
mod options;
mod order;
mod periodic;
mod periodic_keys;
mod plan;
mod posture;
mod posture_report;
mod prefer;
mod raw;
mod report;
mod resolve;
mod scenario;
mod scenario_fighter;
pub mod settings;
mod sim;
mod sim_build;
mod small;
mod state;
mod support;
mod support_keys;
mod support_report;

mod target;
mod test_def;
mod trace;
mod trace_text;
mod trigger;
mod trigger_keys;
mod turn;
mod watch;

pub use acc::{AuraCounts, CombatAcc, FighterAcc, PostureCounts, END_NAMES, POSTURE_NAMES};
pub use action::defence_stops;
pub use element::{coefficient, DualElement, Element, ELEMENT_NAMES, ELEMENT_TABLE};
pub use linked::{play_from, play_one, Fought};
pub use model::{AuraUse, CombatModel, Fighter, SmallRules, STAT_NAMES};
pub use options::{listed as listed_options, CombatRules, OPTIONS};
pub use periodic::PeriodicCounts;
pub use scenario::{load, RawScenario};
pub use sim::CombatSim;
pub use support::SupportCounts;

use crate::context::Context;
use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::{RunOverrides, ScenarioKind, ScenarioResult};

/// Combats per run when neither the file nor the command line says.
pub const DEFAULT_TRIALS: u64 = 100_000;

/// The `system = "cosmos"`, `kind = "combat"` scenario files.
pub static SCENARIO_KIND: ScenarioKind = ScenarioKind {
    system: "cosmos",
    kind: Some("combat"),
    defaults: Some(defaults),
    run,
    trace: trace::trace,
};

/// The defaults a valid file relies on (the same validation as `check` and `run`).
pub fn defaults(file: &ScenarioFile) -> Result<Vec<String>, UserError> {
    load(file).map(|(_, model)| settings::defaults_relied_on(&model, file.lang))
}

/// Runs `trials` combats of a validated model, streams keyed by the run's file
/// (`ctx.stream`), so a sweep point equals a run of the same file values.
pub fn simulate(model: CombatModel, ctx: &Context, trials: u64) -> (CombatSim, CombatAcc) {
    let sim = CombatSim::new(model, CombatRules::from_options(&ctx.options));
    let progress = ctx.progress(trials, "combats");
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    (sim, acc)
}

fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    // C-LD-1: the given points against the level-5 grant with `--option` too.
    let (raw, model) = scenario::load_with(file, &o.options)?;
    let (ctx, trials) = o.resolve(file, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
    let (sim, acc) = simulate(model, &ctx, trials);
    report::result(file, &raw, &sim, &acc, &ctx, trials)
}
