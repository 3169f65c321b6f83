//! Running small Great Cosmos combat scenarios from text, and the 5-sigma agreement check
//! of a Monte Carlo count with an exact probability.

use cosmosim::context::Context;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{load, simulate, CombatAcc, CombatSim};

/// Runs `trials` combats of the scenario `text` at seed 7 on 2 threads, with the file's
/// `[rules]` plus `options` (`key=value`).
pub fn run_opts(text: &str, trials: u64, options: &[&str]) -> (CombatSim, CombatAcc) {
    let file = ScenarioFile::from_text("t.toml", text, cosmosim::lang::Lang::En);
    let (raw, model) = load(&file).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let mut opts = file.rule_options(&raw.rules).unwrap();
    for o in options {
        let (k, v) = o.split_once('=').unwrap();
        opts.set(k, v, cosmosim::lang::Lang::En).unwrap();
    }
    let ctx = Context::new(7, 2, opts, true, cosmosim::lang::Lang::En).unwrap();
    simulate(model, &ctx, trials)
}

pub fn run_text(text: &str, trials: u64) -> (CombatSim, CombatAcc) {
    run_opts(text, trials, &[])
}

/// |p̂ - p| <= 5 sigma.
pub fn agrees(count: u64, n: u64, p: f64) {
    let ph = count as f64 / n as f64;
    let bound = 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-12;
    assert!(
        (ph - p).abs() <= bound,
        "p̂ = {ph}, exact {p}, bound {bound}"
    );
}
