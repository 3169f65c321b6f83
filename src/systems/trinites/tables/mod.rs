//! The Trinités tables: `trinites-test` and `trinites-confrontation`.

mod conf_table;
mod report;
mod test_table;

pub use conf_table::{conf_grid_exact, conf_mc, conf_output, ConfCell, ConfGrid};
pub use report::report_outputs;
pub use test_table::{test_cell_mc, test_output, TestCellCounts, TestGrid};

pub(crate) use crate::report::range_text;

/// `true`/`false` as the CSV text the contract asks for.
pub(crate) fn bool_text(b: bool) -> String {
    if b { "true" } else { "false" }.to_string()
}
