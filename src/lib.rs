//! cosmosim: exact and seeded Monte Carlo answers to balance questions about tabletop RPG
//! rules. The modules follow the program's steps: `cli` -> `scenario` -> `engine` ->
//! `systems/<game>` -> `report`.

// First, so that `tr!`, `tr_fill!` and `words!` are in scope in every module below.
#[macro_use]
pub mod lang;
pub mod args;
pub mod balance;
pub mod cli;
pub mod commands;
pub mod context;
pub mod dice;
pub mod engine;
pub mod error;
pub mod input;
pub mod limits;
pub mod report;
pub mod rules;
pub mod scenario;
pub mod stats;
pub mod systems;
