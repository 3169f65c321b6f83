//! The duel scenario: an Adam' against humans (T-COMBAT, T-LIFE).

mod fight;
mod model;
mod primes;
mod run;
mod stats;
mod trace;

pub use fight::{fight, fight_watched, DuelEnd, FightRecord};
pub use model::{
    all_pairs, validate, Combat, Duel, Fighter, RawDuel, RegenAt, ADAM_LINE, HUMAN_LINE, MAX_HUMANS,
};
pub use primes::{half_up, plus_half, Penalty, Prime, PENALTIES, PRIMES};
pub use run::{check, run, SCENARIO_KIND};
pub use stats::{DuelSim, DuelStats};
pub use trace::{Step, OUTCOMES};
