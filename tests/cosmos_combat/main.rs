//! Great Cosmos combat: rules pinned on small scenarios (C-CMB, C-ELEM, C-TURN, C-LD,
//! C-KARMA-2), exact-vs-Monte-Carlo agreement, golden errors, determinism, CLI.

use assert_cmd::Command;

use cosmosim::context::Context;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{
    defence_stops, load, simulate, CombatAcc, CombatSim, Element, ELEMENT_TABLE,
};
use cosmosim::systems::cosmos::{Outcome, TestRules, TestSpec};

mod chances;
mod cli;
mod exact;
mod postures;

/// A hero against one enemy. `hero` and `enemy` are extra TOML lines for each.
fn duel(hero: &str, hero_policy: &str, enemy: &str, extra: &str) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"
{extra}

[attacks.blade]
stat = "force"
damage = "2d10+5"

[attacks.kill]
stat = "force"
damage = "1000"

[attacks.tickle]
stat = "force"
damage = "0"

[attacks.doom]
stat = "esprit"
damage = "1000"

[combatants.hero]
side = "heroes"
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
pm = 100
{hero}

[combatants.hero.policy]
{hero_policy}

[combatants.foe]
side = "foes"
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
{enemy}
"#
    )
}

fn run_text(text: &str, trials: u64, options: &[&str]) -> (CombatSim, CombatAcc) {
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

const HARMLESS: &str = "level = 3\nhp = 1000000\nattacks = [\"tickle\"]";
const N: u64 = 20_000;

fn hero(acc: &CombatAcc) -> &cosmosim::systems::cosmos::combat::FighterAcc {
    // Fighters are in name order: foe, hero.
    &acc.fighters[1]
}

/// |p̂ - p| <= 5 sqrt(p(1-p)/n).
fn agrees(count: u64, n: u64, p: f64) {
    let ph = count as f64 / n as f64;
    let bound = 5.0 * (p * (1.0 - p) / n as f64).sqrt();
    assert!(
        (ph - p).abs() <= bound,
        "p̂ = {ph}, exact {p}, bound {bound}"
    );
}
