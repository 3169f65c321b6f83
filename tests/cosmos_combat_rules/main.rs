//! Great Cosmos combat, rules added for issue 9: in-combat fatigue (C-FAT-2, C-FAT-4),
//! scripted reinforcements and departures, element overrides and two-element combatants
//! (C-ELEM), and the readings 10b-10e (docs/rules.md). Exact values where a small case
//! has one; Monte Carlo within 5 sigma of the exact value otherwise.

#[path = "../common/mod.rs"]
mod common;

use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{load, FighterAcc};
use cosmosim::systems::cosmos::{Outcome, TestRules, TestSpec};

use common::combat::{agrees, run_opts, run_text, scenario};

mod elements;
mod events;
mod fatigue;
mod readings;

const N: u64 = 20_000;

fn load_err(text: &str) -> String {
    load(&ScenarioFile::from_text(
        "t.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .err()
    .unwrap_or_else(|| panic!("accepted:\n{text}"))
    .to_string()
}

/// P(success or better) of a test at threshold `t`, karma 0 (C-TEST-2).
fn p_hit(t: f64) -> f64 {
    let d = TestSpec::new(t, 0).unwrap().exact(&TestRules::default());
    d.prob_where(|o| o.is_success())
}

// Fighters are in name order: foe (0), hero (1).
const FOE: usize = 0;
const HERO: usize = 1;

/// Combats in which `a` ended with FP `fp` (track -3..10).
fn fp_end(a: &FighterAcc, fp: i32) -> u64 {
    a.fp_end[(fp + 3) as usize]
}

fn fm_end(a: &FighterAcc, fm: i32) -> u64 {
    a.fm_end[(fm + 3) as usize]
}

const HARMLESS: &str = "hp = 1000\nattacks = [\"tickle\"]";
