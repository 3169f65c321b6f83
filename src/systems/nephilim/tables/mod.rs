//! The Nephilim tables: `nephilim-dice`, `nephilim-test`, `nephilim-initiative`,
//! `nephilim-magic`, `nephilim-meta`.

mod dice_table;
mod initiative_table;
mod magic_mc;
mod magic_table;
mod meta_table;
mod report;
mod test_table;

pub use dice_table::dice_output;
pub use initiative_table::{initiative_mc, initiative_output, InitCounts};
pub use magic_mc::{magic_mc_output, report_magic_grid};
pub use magic_table::{magic_output, MagicGrid};
pub use meta_table::{meta_output, DEFAULT_KA};
pub use report::report_outputs;
pub use test_table::{test_mc, test_output, TestCounts};

use crate::context::{Context, Method};
use crate::report::Provenance;

pub(crate) use crate::report::range_text;

/// Provenance of a Nephilim table for the method used.
pub(crate) fn provenance(name: &str, ctx: &Context, method: Method, trials: u64) -> Provenance {
    Provenance::for_method(
        method,
        name,
        "nephilim",
        super::in_force(&ctx.options),
        ctx.engine.seed(),
        trials,
    )
}
