//! Rule variants side by side: a variants file names rule changes (`[variants.<name>]`
//! with option/parameter values) and the tables and scenarios to study; every variant and
//! the book rules are computed on the same seeds, each variant is compared with the book
//! (exact moves > 1e-9 as in `compare`; Monte Carlo moves by a paired t test on blocks
//! run on shared seeds, with Benjamini-Hochberg), and the headline figures are set side by side. The command layer
//! computes and publishes; this module validates the file and writes text and charts.

mod model;
mod paired;
mod raw;
mod report;
mod study;

pub use model::{Headline, Variant, VariantsFile, BOOK};
pub use paired::{block_seed, BLOCKS, PAIRED};
pub use report::{chart, csv, headline_csv, markdown};
pub use study::{study, HeadlineValue, Study, VariantResult};
