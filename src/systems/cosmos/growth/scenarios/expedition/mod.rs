//! `kind = "expedition"`: FP/FM over a multi-day expedition (C-FAT-1..5): quantile bands
//! per day, P(exhausted) per day, time to first exhaustion and the success rate of a
//! reference test as the maluses bite, each taken at the day's worst point and at its end.
//!
//! With `[[expedition.travellers]]`, a party shares the fights, the food and the potions
//! (issue 10 item 8): per-traveller answers and the party's (P(someone exhausted),
//! P(the party can go on) per day).
//!
//! Files: `raw.rs` (the file as written), `model.rs` (validation), `legs.rs` (piloting and
//! march legs), `sim.rs` (one traveller), `party.rs` (a party), `report.rs` and
//! `party_report.rs` (outputs), `trace.rs` and `trace_text.rs` (`cosmosim trace`).

/// Default expeditions per run.
pub const DEFAULT_TRIALS: u64 = 50_000;
/// The rule family this kind is made of (an expedition is endurance: the previous edition has no endurance rule, C-EDITION).
const NEEDS: Option<crate::systems::CurrentOnly> = Some(crate::systems::CurrentOnly::Endurance);

mod legs;
mod linked;
mod members;
mod model;
mod party;
mod party_report;
mod raw;
mod report;
mod sim;
mod trace;
mod trace_text;
mod trace_view;
mod trek_text;

pub use crate::systems::cosmos::growth::fatigue::reference::{
    can_test, track_of, ReferenceTable, ReferenceTest,
};
pub use legs::{march_table, piloting_by_day, Legs, March, Pace, Piloting};
pub use linked::{linked_path, LinkedCombat};
pub use model::{model, ExpeditionModel, Member, Party, MAX_RATIONS, MAX_TRAVELLERS};
pub use party::{PartyAcc, PartySim};
pub use report::run;
pub use sim::{ExpeditionSim, Moment, TrekAcc};
pub use trace::trace;
