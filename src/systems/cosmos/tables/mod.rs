//! The Great Cosmos tables: `cosmos-test` and `cosmos-karma-drift`.

mod karma_drift;
mod report;
mod test_table;

pub use report::report_outputs;
pub use karma_drift::{karma_drift_output, KarmaDriftParams, KarmaDriftRow};
pub use test_table::{test_grid_exact, test_grid_mc, test_output, CellCounts, TestGrid};

/// Representative karma values of the five karma bands (-10, -9..-5, -4..4, 5..9, +10).
pub(crate) const KARMA_BANDS: [i64; 5] = [-10, -5, 0, 5, 10];
