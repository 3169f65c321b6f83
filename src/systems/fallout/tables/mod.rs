//! The 2d20 tables: `fallout-test`, `fallout-help`, `fallout-luck`, `fallout-damage`.

mod chart;
mod damage_table;
mod help_table;
mod luck_table;
mod report;
mod test_cells;
mod test_mc;
mod test_table;

pub use damage_table::{damage_output, damage_rows, DamageGrid, DamageRow};
pub use help_table::{help_output, HelpGrid};
pub use luck_table::{luck_output, LuckGrid, LUCK_POLICY};
pub use report::report_outputs;
pub use test_cells::{cell_key, TestAcc, TestCell, TestGrid};
pub use test_mc::test_grid_mc;
pub use test_table::test_output;

pub(crate) use crate::report::range_text;
