//! The Nephilim tables: `nephilim-dice`, `nephilim-test`, `nephilim-initiative`,
//! `nephilim-magic`.

mod dice_table;
mod initiative_table;
mod magic_table;
mod report;
mod test_table;

pub use dice_table::dice_output;
pub use initiative_table::{initiative_mc, initiative_output, InitCounts};
pub use magic_table::{magic_output, MagicGrid};
pub use report::report_outputs;
pub use test_table::{test_mc, test_output, TestCounts};

use crate::context::{Context, Method};
use crate::report::Provenance;

use super::OPTIONS;

/// `-3..14` for a contiguous list, else the values.
pub(crate) fn range_text(v: &[i64]) -> String {
    match (v.first(), v.last()) {
        (Some(a), Some(b)) if v.len() > 2 && v.windows(2).all(|w| w[1] == w[0] + 1) => {
            format!("{a}..{b}")
        }
        _ => v
            .iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(","),
    }
}

/// Provenance of a Nephilim table for the method used.
pub(crate) fn provenance(name: &str, ctx: &Context, method: Method, trials: u64) -> Provenance {
    match method {
        Method::Exact => Provenance::exact(name, "nephilim", ctx.options.in_force(OPTIONS)),
        Method::Mc => Provenance::monte_carlo(
            name,
            "nephilim",
            ctx.options.in_force(OPTIONS),
            ctx.engine.seed(),
            trials,
        ),
    }
}
