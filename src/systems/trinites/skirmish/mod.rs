//! Trinités skirmishes from scenario files (`system = "trinites"`, `kind = "skirmish"`):
//! groups on two to four sides, melee and ranged weapons, distance and cover, the
//! initiative track with its wrap-around, free actions, pain, primes and pénalités, the
//! three life lines with coma, and the Adam's Karma regeneration (T-TEST, T-DUAL, T-CONF,
//! T-LIFE, T-COMBAT).

mod acc;
mod exchange;
mod keys;
mod life;
mod model;
mod pairs;
mod raw;
mod report;
mod sim;
mod state;
mod strike;
mod tactic;
mod target;
mod trace;
mod trace_text;

pub use acc::{FighterAcc, SkirmishAcc, SkirmishSim};
pub use exchange::{exchange, exchanges, Exchange};
pub use keys::{Tactic, CIRCUMSTANCES_SHOT, CIRCUMSTANCES_STRIKE, TACTICS};
pub use model::{load, validate, Cover, Group, Profile, Skirmish, Targeting, COVERS};
pub use model::{
    COMBATANTS_MAX, COUNT_MAX, DISTANCE_MAX, ROUNDS_MAX, SIDES_MAX, SKILL_MAX, SKILL_MIN,
    TRIALS_MAX,
};
pub use pairs::{group_pairs, PairRun, PairsSpec, PAIR_TRIALS_DEFAULT, PAIR_TRIALS_MAX};
pub use raw::RawSkirmish;
pub use sim::{fight, End, Outcome, Setup};
pub use strike::{
    attack_modifier, hit_damage, hit_damage_in, hit_given, range_difficulty, reaction_modifier,
    roll_hit, standard_damage, StrikeMods, POINT_BLANK,
};

use crate::scenario::ScenarioFile;
use crate::systems::trinites::TrinitesRules;
use crate::systems::{RunOverrides, ScenarioKind, ScenarioResult, TrialLimits};

/// Skirmishes per run when neither the file nor the command line says.
pub const DEFAULT_TRIALS: u64 = 20_000;

/// The `system = "trinites"`, `kind = "skirmish"` scenario files.
pub static SCENARIO_KIND: ScenarioKind = ScenarioKind {
    system: "trinites",
    kind: Some("skirmish"),
    run,
    defaults: None,
    trace: trace::trace,
};

/// The simulation of a validated skirmish under the rules in force.
pub fn simulation(m: &Skirmish, rules: TrinitesRules) -> SkirmishSim {
    SkirmishSim {
        setup: Setup::new(m),
        rules,
    }
}

fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let m = load(file)?;
    let limits = TrialLimits {
        default: DEFAULT_TRIALS,
        max: TRIALS_MAX,
    };
    let (ctx, trials) = o.resolve(file, &m.run, &m.rules, limits)?;
    let rules = TrinitesRules::from_options(&ctx.options);
    let sim = simulation(&m, rules);
    let progress = ctx.progress(trials, "trinites skirmishes");
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    let ex = exchanges(&m, &rules);
    let pair_runs = m
        .pairs
        .as_ref()
        .map(|spec| (spec, pairs::run_pairs(&m, spec, rules, &ctx)));
    report::result(
        file,
        &m,
        &acc,
        &ex,
        pair_runs.as_ref().map(|(s, r)| (*s, r.as_slice())),
        &ctx,
    )
}
