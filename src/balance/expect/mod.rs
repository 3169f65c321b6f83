//! `cosmosim expect FILE`: a designer's intent about figures, decided exactly or by a
//! sequential Monte Carlo rule with the file's error rate controlled (see `decide.rs`).
//! Format: `raw.rs`; validation: `model.rs` (what computes a figure: `source.rs`);
//! judging: `check.rs`, `table_file.rs`; outputs: `report.rs`, `meta.rs` (provenance).

pub mod check;
pub mod decide;
pub mod meta;
pub mod model;
mod outcome;
mod raw;
pub mod report;
mod source;
mod table_file;

pub use check::{check_file, validate_file, Compute, Outcome, Settings};
pub use decide::Verdict;
pub use model::ExpectFile;
pub use report::{all_hold, csv, headline, junit, markdown, FileOutcomes};
pub use source::{default_trials, merged_options, Source};
pub(crate) use source::{option_pair, source};
