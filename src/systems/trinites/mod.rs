//! Trinités (trinites.fr.txt): exploding d12 tests, the Trinité's two dice, confrontations
//! and the duel of an Adam' against humans (T-TEST, T-DUAL, T-CONF, T-RETRY, T-LIFE,
//! T-COMBAT).

pub mod cli;
mod confrontation;
pub mod duel;
mod options;
pub mod tables;
mod test;

pub use confrontation::{confront, side_dist, ConfOutcome, SideDist};
pub use options::{DualKeep, RegenAction, RegenTiming, RisqueIncident, TrinitesRules, OPTIONS};
pub use test::{
    kept_dist, natural_dist, roll_natural, roll_test, succeeds, KeptDist, TestRoll, EXPLODE_DEPTH,
    TARGET,
};
