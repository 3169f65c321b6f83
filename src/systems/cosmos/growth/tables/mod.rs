//! The growth tables: `cosmos-aura`, `cosmos-piloting`, `cosmos-movement` (all exact).

mod aura_table;
mod movement_table;
mod piloting_table;

pub use aura_table::{aura_output, AuraGrid};
pub use movement_table::{movement_output, MovementGrid};
pub use piloting_table::{piloting_output, PilotingGrid};

use crate::context::Context;
use crate::report::Output;

/// The default tables for `cosmosim report`.
pub fn report_outputs(ctx: &Context) -> anyhow::Result<Vec<Output>> {
    Ok(vec![
        aura_output(&AuraGrid::default(), ctx)?,
        piloting_output(&PilotingGrid::default(), ctx)?,
        movement_output(&MovementGrid::default(), ctx)?,
    ])
}
