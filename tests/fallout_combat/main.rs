//! 2d20 combat (F-CD, F-AP, F-TEST): the exact `fallout-damage` table by hand and against
//! the sampler, the combat scenario's first round against an exact computation, qualities
//! reading Effects, determinism, golden CSV and located errors.

#[path = "../common/mod.rs"]
mod common;

use std::path::Path;

use assert_cmd::Command;
use cosmosim::engine::{stream, Engine, Progress};
use cosmosim::lang::Lang;
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::fallout::combat::{load, simulation, PLAYERS_WIN};
use cosmosim::systems::fallout::tables::{damage_rows, DamageGrid};
use cosmosim::systems::fallout::{cd_dist, odds, pool_dist, roll_cd, DieSpec};

use common::cli::check_and_run_error;

mod actions;
mod audit;
mod damage;
mod scenario;

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// Runs a firefight file's text for `n` fights at `seed` (two threads, default options).
fn run_text(text: &str, seed: u64, n: u64) -> cosmosim::systems::fallout::combat::CombatAcc {
    let (_, model) = load(&ScenarioFile::from_text("d.toml", text, Lang::En)).unwrap();
    Engine::new(seed, 2).unwrap().run(
        &simulation(model, &RuleOptions::default()),
        &cosmosim::engine::StreamKey::new("test").int("task", 0),
        n,
        &Progress::hidden(),
    )
}

/// A one-round duel of A (players) against B (mj), both with the weapon `weapon`;
/// `extra` is TOML added after the `[combat]` keys (more keys, or further tables).
fn duel(weapon: &str, extra: &str) -> String {
    format!(
        "system = \"fallout\"\nkind = \"combat\"\n[combat]\nmax_rounds = 1\ninjury_at = 0\n{extra}\n[weapons.w]\n{weapon}\n\
         [[combatant]]\nname = \"A\"\nside = \"players\"\ntn = 11\nhp = 10\ninitiative = 5\nweapon = \"w\"\n\
         [[combatant]]\nname = \"B\"\nside = \"mj\"\ntn = 9\nhp = 4\ndr = 2\ninitiative = 1\nweapon = \"w\"\n"
    )
}
