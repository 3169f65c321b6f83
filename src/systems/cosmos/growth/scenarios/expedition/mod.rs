//! `kind = "expedition"`: FP/FM over a multi-day expedition (C-FAT-1..5): quantile bands
//! per day, P(exhausted) per day, time to first exhaustion and the success rate of a
//! reference test as the maluses bite, each taken at the day's worst point and at its end.
//!
//! Files: `model.rs` (raw keys and validation), `legs.rs` (piloting and march legs),
//! `sim.rs` (the simulation), `report.rs` (outputs).

/// Default expeditions per run.
pub const DEFAULT_TRIALS: u64 = 50_000;

mod legs;
mod model;
mod report;
mod sim;

pub use crate::systems::cosmos::growth::fatigue::reference::{
    can_test, track_of, ReferenceTable, ReferenceTest,
};
pub use legs::{march_table, piloting_by_day, Legs, March, Pace, Piloting};
pub use model::{check, model, ExpeditionModel};
pub use report::run;
pub use sim::{ExpeditionSim, Moment, TrekAcc};
