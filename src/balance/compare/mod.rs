//! `cosmosim compare BASE NEW`: what moved between two output folders (`load.rs` reads
//! them, `diff.rs` joins and tests, `report.rs` writes compare.md/csv and the chart).

mod diff;
mod load;
mod meta;
mod report;

pub use diff::{benjamini_hochberg, compare, row_text, Comparison, Move, OutputDiff};
pub use load::{load_folder, Loaded};
pub use meta::meta_json;
pub use report::{by_size, chart, csv, headline, markdown};
