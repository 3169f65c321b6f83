//! Small Great Cosmos combat scenarios: a hero against a foe as text, run from text, and
//! the 5-sigma agreement check of a Monte Carlo count with an exact probability.

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

/// A hero (agilite 60, acts first) against `foe` (agilite 40). `attacks` defines extra
/// attacks; `hero` and `foe` are extra TOML lines. The hero never defends, so it never
/// ripostes (C-CMB-3) and only its own actions deal damage; `hero` may end with
/// `@policy` and more policy keys (its last table is `[combatants.hero.policy]`).
pub fn scenario(attacks: &str, hero: &str, foe: &str, extra: &str) -> String {
    let (hero_keys, hero_policy) = hero.split_once("@policy").unwrap_or((hero, ""));
    let level = if hero_keys.contains("level =") {
        ""
    } else {
        "level = 3"
    };
    format!(
        r#"system = "cosmos"
kind = "combat"
{extra}

[attacks.tickle]
stat = "force"
damage = "0"

{attacks}

[combatants.hero]
side = "heroes"
{level}
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
pm = 100
{hero_keys}

[combatants.hero.policy]
defence = "none"
{hero_policy}

[combatants.foe]
side = "foes"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
{foe}
"#
    )
}
