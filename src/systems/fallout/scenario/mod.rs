//! The 2d20 scenarios: an action-point economy over a sequence of tests (F-AP), and
//! firefights (`kind = "combat"`, see `systems::fallout::combat`).
//!
//! The `kind` key picks between them; a file without `kind` is an ap-economy file (the
//! 2d20 system had only that kind before, and its files stay valid).

mod model;
mod raw;
mod report;
mod sim;
mod trace;

pub use crate::systems::fallout::ap::Buy;
pub use model::{ApEconomy, Policy, Step, STEPS_MAX};
pub use sim::{ApAcc, ApSim, StepAcc};

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::fallout::Shortfall;
use crate::systems::{RunOverrides, ScenarioKind, ScenarioResult};

/// Trials when neither the file nor the command line sets them.
pub const DEFAULT_TRIALS: u64 = 200_000;

/// `system = "fallout"` scenario files: `kind` absent or `"ap-economy"`, or `"combat"`.
/// Registered with `kind: None` so that files without `kind` keep working; the choice
/// between kinds is made here.
pub static AP_ECONOMY: ScenarioKind = ScenarioKind {
    system: "fallout",
    kind: None,
    run: run_any,
    defaults: None,
    trace: trace_any,
};

enum Kind {
    ApEconomy,
    Combat,
}

fn kind(file: &ScenarioFile) -> Result<Kind, UserError> {
    match file.header()?.kind.as_deref() {
        None | Some("ap-economy") => Ok(Kind::ApEconomy),
        Some("combat") => Ok(Kind::Combat),
        Some(other) => Err(file.error_at(
            &["kind"],
            "kind",
            &tr!(file.lang, "fallout.model.unknown_kind", value = other),
            tr!(file.lang, "fallout.model.kind_allowed"),
        )),
    }
}

fn run_any(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    match kind(file)? {
        Kind::ApEconomy => run(file, o),
        Kind::Combat => super::combat::run(file, o),
    }
}

fn trace_any(
    file: &ScenarioFile,
    req: &crate::systems::trace::TraceRequest,
) -> anyhow::Result<crate::systems::trace::TraceResult> {
    match kind(file)? {
        Kind::ApEconomy => trace::trace(&load(file, &req.overrides)?, req),
        Kind::Combat => super::combat::trace(file, req),
    }
}

/// A loaded ap-economy file with the settings of the run (`run` and `trace` alike): the
/// model under the face parameters in force, the run's context and trial count, and the
/// F-AP rules in force (shortfall reading, pool cap, bonus dice).
pub(super) struct Loaded {
    model: ApEconomy,
    ctx: crate::context::Context,
    trials: u64,
    shortfall: Shortfall,
    cap: u32,
    bonus: crate::systems::fallout::BonusRules,
}

fn load(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<Loaded> {
    let (model, raw) = ApEconomy::from_file(file)?;
    let (ctx, trials) = o.resolve(file, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
    let cap = crate::systems::fallout::pool_max(&ctx.options);
    crate::systems::fallout::check_start_pool(
        file,
        &["start", "group_ap"],
        model.start_group,
        cap,
    )?;
    let model = model.with_faces(
        crate::systems::fallout::crit_face(&ctx.options),
        crate::systems::fallout::complication_from(&ctx.options),
    );
    Ok(Loaded {
        model,
        shortfall: Shortfall::from_options(&ctx.options),
        bonus: crate::systems::fallout::BonusRules::from_options(&ctx.options),
        ctx,
        trials,
        cap,
    })
}

impl Loaded {
    fn sim(&self) -> ApSim<'_> {
        ApSim::new(&self.model, self.shortfall)
            .with_pool_max(self.cap)
            .with_bonus(self.bonus)
    }
}

fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let l = load(file, o)?;
    let (ctx, trials) = (&l.ctx, l.trials);
    let sim = l.sim();
    let progress = ctx.progress(trials, "fallout ap-economy");
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    report::result(file, &l.model, &acc, ctx, trials)
}
