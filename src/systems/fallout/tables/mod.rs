//! The 2d20 tables: `fallout-test`, `fallout-help`, `fallout-luck`.

mod chart;
mod help_table;
mod luck_table;
mod report;
mod test_table;

pub use help_table::{help_output, HelpGrid};
pub use luck_table::{luck_output, LuckGrid, LUCK_POLICY};
pub use report::report_outputs;
pub use test_table::{cell_task, test_grid_mc, test_output, TestAcc, TestCell, TestGrid};

/// `2..20` for a contiguous list, else the values.
pub(crate) fn range_text(v: &[u8]) -> String {
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
