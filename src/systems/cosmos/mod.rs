//! The Tale of Great Cosmos: d100 roll-under tests with karma (C-TEST, C-KARMA).

pub mod cli;
pub mod combat;
pub mod growth;
mod karma;
mod options;
mod outcome;
pub mod tables;
mod test;
mod test_bank;
mod test_moved;

pub use karma::{
    drift, stationary, stationary_with_band, transition_matrix, transition_matrix_with_band,
    KarmaWalk, KARMA_STATES,
};
pub use options::{CritBand, KarmaOverflow, PercentMode, SuperCritRoll, TestRules, OPTIONS};
pub use outcome::Outcome;
pub use test::{
    classify, intuition_chance, roll_dist, score, threshold_with_modifier, KarmaDie, Roll,
    SpecError, TestSampler, TestSpec, KARMA_MAX, KARMA_MIN,
};
pub use test_bank::TestBank;
pub use test_moved::MovedTests;
