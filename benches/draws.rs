//! Random numbers each combat kind draws, and its random-number bound (issue 29).
//!
//! `cargo bench --features draw-count --bench draws` runs each shipped fight on a
//! one-thread engine with the counting generator (`engine::rng::CountingRng`), prints the
//! 64-bit Xoshiro256++ words drawn per combat, the generator's own speed here, and the
//! bound: the combats per second a core would run if drawing were all a combat did. A
//! kind's criterion figure (benches/cosmos_combat.rs, cosmos_growth.rs, fallout.rs,
//! trinites.rs) divided by its bound is its fraction of the bound
//! (docs/systems/cosmos-combat.md, "Random numbers per combat").

use std::hint::black_box;
use std::path::Path;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

use cosmosim::context::Context;
use cosmosim::engine::{drawn, Engine, Progress, Simulation, StreamKey};
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat;
use cosmosim::systems::cosmos::growth::scenarios::expedition::{
    model as expedition_model, PartySim,
};
use cosmosim::systems::cosmos::growth::GrowthRules;
use cosmosim::systems::cosmos::TestRules;
use cosmosim::systems::fallout::combat as fallout;
use cosmosim::systems::trinites::{skirmish, TrinitesRules};

fn file(rel: &str) -> ScenarioFile {
    ScenarioFile::read(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join(rel),
        cosmosim::lang::Lang::En,
    )
    .expect("shipped")
}

/// Words drawn per trial of `sim`, on one thread.
fn per_trial<S: Simulation>(engine: &Engine, sim: &S, trials: u64) -> f64 {
    let key = StreamKey::new("bench");
    let before = engine.map_cells(&[()], |_| drawn())[0];
    engine.run(sim, &key, trials, &Progress::hidden());
    let after = engine.map_cells(&[()], |_| drawn())[0];
    (after - before) as f64 / trials as f64
}

/// The generator alone: 64-bit words per second on this core (best of five).
fn words_per_second() -> f64 {
    let n = 1u64 << 27;
    let mut best = f64::MAX;
    for _ in 0..5 {
        let mut r = Xoshiro256PlusPlus::seed_from_u64(1);
        let t = Instant::now();
        let mut x = 0u64;
        for _ in 0..n {
            x ^= r.next_u64();
        }
        black_box(x);
        best = best.min(t.elapsed().as_secs_f64());
    }
    n as f64 / best
}

fn main() {
    // `cargo bench` passes --bench; a filter is not supported (the whole list is short).
    let engine = Engine::new(1, 1).expect("engine");
    let mut rows: Vec<(&str, f64)> = Vec::new();
    for name in ["duel", "apocalypse", "boss-fight"] {
        let f = file(&format!("scenarios/cosmos/{name}.toml"));
        let (raw, model) = combat::load(&f).expect("valid");
        let ctx = Context::new(
            1,
            1,
            f.rule_options(&raw.rules).unwrap(),
            true,
            cosmosim::lang::Lang::En,
        )
        .unwrap();
        let trials = 20_000;
        let before = ctx.engine.map_cells(&[()], |_| drawn())[0];
        let acc = combat::simulate(model, &ctx, trials).1;
        let after = ctx.engine.map_cells(&[()], |_| drawn())[0];
        rows.push((name, (after - before) as f64 / acc.combats as f64));
    }
    // The linked party expedition of benches/cosmos_growth.rs: per expedition.
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cosmos/party-expedition-quick.toml"),
    )
    .expect("shipped");
    let a = text.find("[expedition.encounter]").expect("an encounter");
    let b = text.find("# A shared chest").expect("potions");
    let linked = format!(
        "{}[expedition.encounter]\ncombat = \"party-vs-boss.toml\"\nparty = {{ Warrior = \"lancer\", Mage = \"ice_mage\", Scout = \"rogue\", Healer = \"archer\" }}\n\n{}",
        &text[..a],
        &text[b..]
    );
    let lf = ScenarioFile::from_text(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios/cosmos/party-expedition-linked.toml")
            .to_str()
            .unwrap(),
        &linked,
        cosmosim::lang::Lang::En,
    );
    let (lm, ..) = expedition_model(&lf).expect("valid");
    let sim =
        PartySim::with_growth(lm, &TestRules::default(), &GrowthRules::default()).expect("valid");
    rows.push((
        "party-expedition-linked (per expedition)",
        per_trial(&engine, &sim, 2_000),
    ));
    let (_, model) = fallout::load(&file("scenarios/fallout/firefight.toml")).expect("valid");
    let sim = fallout::simulation(model, &RuleOptions::default());
    rows.push(("fallout firefight", per_trial(&engine, &sim, 20_000)));
    let m = skirmish::load(&file("scenarios/trinites/skirmish.toml")).expect("valid");
    let sim = skirmish::simulation(&m, TrinitesRules::default());
    rows.push(("trinites skirmish", per_trial(&engine, &sim, 20_000)));

    let w = words_per_second();
    println!("Xoshiro256++ alone: {:.3} G words/s on one core", w / 1e9);
    println!(
        "{:<42} {:>14} {:>22}",
        "kind", "words/combat", "bound (combats/s/core)"
    );
    for (name, d) in rows {
        println!("{name:<42} {d:>14.1} {:>22.0}", w / d);
    }
}
