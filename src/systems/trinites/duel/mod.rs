//! The duel scenario: an Adam' against humans (T-COMBAT, T-LIFE).

mod fight;
mod model;
mod primes;
mod raw;
mod report;
mod sim;
mod trace;

pub use fight::{fight, fight_watched, DuelEnd, FightRecord};
pub use model::{
    all_pairs, pair_list, unpaired, validate, weapon_list, Combat, Duel, Fighter, RegenAt,
    ADAM_LINE, HUMAN_LINE, MAX_HUMANS,
};
pub use primes::{half_up, plus_half, Penalty, Prime, PENALTIES, PRIMES};
pub use raw::RawDuel;
pub(crate) use report::{best_and_worst, pair_columns, pair_row};
pub use sim::{DuelSim, DuelStats};
pub use trace::{Step, OUTCOMES};

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::trinites::TrinitesRules;
use crate::systems::{RunOverrides, ScenarioKind, ScenarioResult};

/// The Trinités scenario kind (one kind: `system = "trinites"`, no `kind` key).
pub static SCENARIO_KIND: ScenarioKind = ScenarioKind {
    system: "trinites",
    kind: None,
    run,
    defaults: None,
    trace: trace::trace,
};

/// Duels per pair when neither the file nor the command line says.
pub(super) const DEFAULT_TRIALS: u64 = 20_000;

pub(super) fn load(file: &ScenarioFile) -> Result<Duel, UserError> {
    let raw: RawDuel = file.parse_raw_hinted(&super::missing::duel)?;
    validate(file, raw)
}

/// Reads and validates a duel file, rule options included.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let duel = load(file)?;
    file.rule_options(&duel.rules)?;
    Ok(())
}

/// Validates and runs a duel file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let duel = load(file)?;
    let (ctx, trials) = o.resolve(file, &duel.run, &duel.rules, DEFAULT_TRIALS)?;
    let rules = TrinitesRules::from_options(&ctx.options);
    let progress = ctx.progress(trials * duel.pairs.len() as u64, "trinites duel");
    let results: Vec<report::PairResult> = duel
        .pairs
        .iter()
        .map(|&pair| {
            let sim = DuelSim {
                combat: duel.combat,
                pair,
                rules,
            };
            report::PairResult {
                pair,
                stats: ctx
                    .engine
                    .run(&sim, &sim.key(&ctx.stream), trials, &progress),
            }
        })
        .collect();
    progress.finish();
    report::result(file, &duel, &ctx, trials, &results)
}
