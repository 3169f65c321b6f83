//! The Trinités tables: `trinites-test` and `trinites-confrontation`.

mod conf_table;
mod report;
mod test_table;

pub use conf_table::{conf_grid_exact, conf_mc, conf_output, ConfCell, ConfGrid};
pub use report::report_outputs;
pub use test_table::{test_cell_mc, test_output, TestCellCounts, TestGrid};

pub(crate) use crate::report::range_text;

use crate::context::{Context, Method};
use crate::report::Provenance;
use crate::systems::trinites::{EXPLODE_DEPTH, OPTIONS};

/// Provenance of a Trinités table for the method used; an exact table also records how
/// deep dice explode and the probability mass that depth leaves out (`trunc`).
pub(crate) fn provenance(
    name: &str,
    ctx: &Context,
    method: Method,
    trials: u64,
    trunc: f64,
) -> Provenance {
    let prov = Provenance::for_method(
        method,
        name,
        "trinites",
        ctx.options.in_force(OPTIONS),
        ctx.engine.seed(),
        trials,
    );
    match method {
        Method::Exact => prov
            .with_param("explode_depth", EXPLODE_DEPTH)
            .with_param("truncated_mass", format!("{trunc:e}")),
        Method::Mc => prov,
    }
}

/// `true`/`false` as the CSV text the contract asks for.
pub(crate) fn bool_text(b: bool) -> &'static str {
    if b {
        "true"
    } else {
        "false"
    }
}
