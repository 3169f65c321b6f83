//! `kind = "leveling"`: stats, HP/PM, karma, skill and DNA points at levels 1..N
//! (C-LEVEL-1..4, C-LD-1), as per-level quantile bands.
//!
//! Files: `raw.rs` (the file as written), `model.rs` (validation), `sim.rs` (the
//! simulation), `report.rs` (outputs), `trace.rs` and `trace_text.rs` (`cosmosim trace`).

/// Default characters per run.
pub const DEFAULT_TRIALS: u64 = 100_000;

mod builds;
mod genes;
mod model;
mod raw;
mod report;
mod sim;
mod skills;
mod skills_model;
mod trace;
mod trace_text;

pub use model::{
    model, DnaPlan, LevelingModel, MAX_BUILDS, MAX_DNA_POLICIES, MAX_GENES, MAX_WISHES,
};
pub use report::run;
pub use sim::{LevelAcc, LevelingSim, PolicyAcc, QUANTITIES};
pub use skills::exact_wish_met;
pub use skills_model::SkillPlan;
pub use trace::{trace, Step};
