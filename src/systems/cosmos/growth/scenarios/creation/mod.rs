//! `kind = "creation"`: distributions of HP, PM, stats, points and rerolls of new
//! characters (C-CREATE-1..3), with the rejection probabilities computed exactly and
//! checked against the simulation.
//!
//! Files: `raw.rs` (the file as written), `model.rs` (validation), `sim.rs` (simulation),
//! `report.rs` (outputs).

mod model;
mod races;
mod raw;
mod report;
mod sim;
mod trace;

pub use model::{check, moves_within, policy, policy_text, races_text, sheets};
pub use races::{expected_rerolls, p_intended};
pub use raw::RawPolicy;
pub use report::run;
pub use sim::{CreationAcc, CreationSim, QUANTITIES};
pub use trace::trace;

/// Default characters per run: about a second on two cores.
pub const DEFAULT_TRIALS: u64 = 200_000;
/// Caps of a converted character's inputs (C-CREATE-3).
pub const MAX_CONVERSION_LEVEL: i64 = 20;
pub const MAX_POOL: i64 = 100_000;
pub const MAX_POINTS: i64 = 1_000;
