//! 2d20 firefights from scenario files (`system = "fallout"`, `kind = "combat"`): attack
//! tests, combat dice with Effects and weapon qualities, injuries, the group AP pool and
//! the MJ's pool spent by policies (F-TEST, F-AP, F-CD).

mod help_keys;
mod model;
mod raw;
mod report;
mod sim;
mod trace;

pub use model::{load, CombatModel, Combatant, Side, SidePolicy, Target, Weapon, WeaponKind};
pub use model::{COMBATANTS_MAX, ROUNDS_MAX, TRIALS_MAX};
pub use raw::RawCombat;
pub use sim::{
    CombatAcc, CombatSim, ExtraDamage, FighterAcc, PoolAcc, MJ_WINS, PLAYERS_WIN, UNDECIDED,
};
pub(crate) use trace::trace;

use crate::context::Context;
use crate::rules::RuleOptions;
use crate::scenario::ScenarioFile;
use crate::systems::fallout::Shortfall;
use crate::systems::{RunOverrides, ScenarioResult, TrialLimits};

/// Fights per run when neither the file nor the command line says.
pub const DEFAULT_TRIALS: u64 = 200_000;

impl ExtraDamage {
    /// The reading in force (option `fallout_extra_damage`, F-CD).
    pub fn from_options(o: &RuleOptions) -> ExtraDamage {
        match o.get("fallout_extra_damage") {
            "any" => ExtraDamage::Any,
            _ => ExtraDamage::MeleeThrown,
        }
    }
}

/// The simulation of a validated model under the options in force.
pub fn simulation(model: CombatModel, options: &RuleOptions) -> CombatSim {
    CombatSim::new(
        model.with_faces(
            crate::systems::fallout::crit_face(options),
            crate::systems::fallout::complication_from(options),
        ),
        Shortfall::from_options(options),
        ExtraDamage::from_options(options),
    )
    .with_pool_max(crate::systems::fallout::pool_max(options))
    .with_bonus(crate::systems::fallout::BonusRules::from_options(options))
}

/// What `run` and `trace` both start from: the file's simulation under the settings in
/// force, with the run's context and trial count.
fn setup(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<(CombatSim, Context, u64)> {
    let (raw, model) = load(file)?;
    let limits = TrialLimits {
        default: DEFAULT_TRIALS,
        max: TRIALS_MAX,
    };
    let (ctx, trials) = o.resolve(file, &raw.run, &raw.rules, limits)?;
    crate::systems::fallout::check_start_pool(
        file,
        &["pools", "group_ap"],
        model.group_ap,
        crate::systems::fallout::pool_max(&ctx.options),
    )?;
    Ok((simulation(model, &ctx.options), ctx, trials))
}

pub(crate) fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (sim, ctx, trials) = setup(file, o)?;
    let progress = ctx.progress(trials, "fallout firefights");
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    report::result(file, &sim.model, &acc, &ctx, trials)
}
