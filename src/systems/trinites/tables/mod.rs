//! The Trinités tables: `trinites-test` and `trinites-confrontation`.

mod conf_table;
mod report;
mod test_table;

pub use conf_table::{conf_grid_exact, conf_mc, conf_output, ConfCell, ConfGrid};
pub use report::report_outputs;
pub use test_table::{test_cell_mc, test_output, TestCellCounts, TestGrid};

/// `-12..12` for a contiguous list, else the values.
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

/// `true`/`false` as the CSV text the contract asks for.
pub(crate) fn bool_text(b: bool) -> String {
    if b { "true" } else { "false" }.to_string()
}
