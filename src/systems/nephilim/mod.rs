//! Nephilim v3 (fan rules): +1D-1D tests with the 0,1,2,2,3,4 die (N-DIE, N-TEST,
//! N-CRIT, N-OPP), initiative segments (N-INIT), Ka (N-KA), spell casting (N-MAGIC) and
//! health counters (N-HEALTH).

pub mod cli;
mod die;
pub mod duel;
pub mod health;
mod initiative;
pub mod ka;
mod magic;
mod options;
pub mod tables;
mod test;

pub use die::{DSampler, DieKind};
pub use initiative::{gap_noise, p_earlier_over, p_earlier_segment, sample_earlier};
pub use magic::{Casting, Circle, Duration, MagicModel, Plexus, Spell};
pub use options::{in_force, in_force_duel, InitSegment, NephilimRules, BAND_PARAMETERS, OPTIONS};
pub use test::{classify, ka_test_score, opposed, probs_over, test_probs, test_score, Outcome};
