//! Speed of the growth simulations: character-years of mutation exposure, expedition-days,
//! four-traveller expeditions and level-ups per second. Memory does not grow with the trial count: every accumulator
//! is a fixed set of tallies (see the `flat_memory` group, which runs 10x the trials into
//! an accumulator of the same size).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use cosmosim::engine::{Engine, Progress, Simulation};
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::growth::genetics::MutationRules;
use cosmosim::systems::cosmos::growth::scenarios::expedition::{
    model as expedition_model, ExpeditionSim, PartySim,
};
use cosmosim::systems::cosmos::growth::scenarios::leveling::{
    model as leveling_model, LevelingSim,
};
use cosmosim::systems::cosmos::growth::scenarios::mutation::{
    model as mutation_model, MutationSim,
};
use cosmosim::systems::cosmos::growth::GrowthRules;
use cosmosim::systems::cosmos::TestRules;

fn file(name: &str) -> ScenarioFile {
    ScenarioFile::read(
        std::path::Path::new(&format!("scenarios/cosmos/{name}.toml")),
        cosmosim::lang::Lang::En,
    )
    .expect("shipped scenario")
}

fn bench(c: &mut Criterion) {
    let engine = Engine::new(1, 1).expect("engine");
    let key = cosmosim::engine::StreamKey::new("bench");
    let rules = TestRules::default();

    // Mutation: a character exposed for up to 365 days (stops at a final ultimate).
    let (mut m, ..) = mutation_model(&file("mutation")).expect("valid");
    m.max_days = 365;
    let sim = MutationSim::new(
        &m,
        MutationRules::from_options(&Default::default()),
        &rules,
        50,
        0,
    );
    let trials = 2_000u64;
    let mut g = c.benchmark_group("mutation");
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials));
    g.bench_function("character_years_365d", |b| {
        b.iter(|| engine.run(&sim, &key, trials, &Progress::hidden()))
    });
    g.finish();

    // Expedition: 10 days per trial.
    let (e, ..) = expedition_model(&file("expedition")).expect("valid");
    let days = e.plans.len() as u64;
    let sim = ExpeditionSim::new(e, &rules).expect("valid");
    let trials = 20_000u64;
    let mut g = c.benchmark_group("expedition");
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials * days));
    g.bench_function("expedition_days", |b| {
        b.iter(|| engine.run(&sim, &key, trials, &Progress::hidden()))
    });
    g.finish();

    // A party of four, 12 days, a fight every other day, shared rations and potions.
    let (pm, ..) = expedition_model(&file("party-expedition-quick")).expect("valid");
    let sim = PartySim::with_growth(pm, &rules, &GrowthRules::default()).expect("valid");
    let trials = 20_000u64;
    let mut g = c.benchmark_group("party_expedition");
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials));
    g.bench_function("four_traveller_expeditions", |b| {
        b.iter(|| engine.run(&sim, &key, trials, &Progress::hidden()))
    });
    g.finish();

    // The same party with each encounter a played combat (issue 10 item 9): the shipped
    // party against the fire drake (party-vs-boss.toml), six combats per expedition.
    let text =
        std::fs::read_to_string("scenarios/cosmos/party-expedition-quick.toml").expect("shipped");
    let a = text.find("[expedition.encounter]").expect("an encounter");
    let b = text.find("# A shared chest").expect("potions");
    let linked = format!(
        "{}[expedition.encounter]\ncombat = \"party-vs-boss.toml\"\nparty = {{ Warrior = \"lancer\", Mage = \"ice_mage\", Scout = \"rogue\", Healer = \"archer\" }}\n\n{}",
        &text[..a],
        &text[b..]
    );
    let lf = ScenarioFile::from_text(
        "scenarios/cosmos/party-expedition-linked.toml",
        &linked,
        cosmosim::lang::Lang::En,
    );
    let (lm, ..) = expedition_model(&lf).expect("valid");
    let sim = PartySim::with_growth(lm, &rules, &GrowthRules::default()).expect("valid");
    let trials = 5_000u64;
    let mut g = c.benchmark_group("party_expedition_linked");
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials));
    g.bench_function("four_traveller_expeditions_with_combats", |b| {
        b.iter(|| engine.run(&sim, &key, trials, &Progress::hidden()))
    });
    g.finish();

    // Leveling: creation + 9 level-ups (30 campaign tests each) per trial.
    let (lm, ..) = leveling_model(&file("leveling")).expect("valid");
    let sim = LevelingSim::new(lm, rules);
    let trials = 10_000u64;
    let mut g = c.benchmark_group("leveling");
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials));
    g.bench_function("characters_to_level_10", |b| {
        b.iter(|| engine.run(&sim, &key, trials, &Progress::hidden()))
    });
    g.finish();

    // Leveling with two DNA build policies spent on the gene tree and two stat builds
    // levelled on copies of the dice (build-paths.toml).
    let (bm, ..) = leveling_model(&file("build-paths")).expect("valid");
    let dna_sim = LevelingSim::new(bm, rules);
    let mut g = c.benchmark_group("leveling");
    g.sample_size(10);
    g.throughput(Throughput::Elements(trials));
    g.bench_function("characters_to_level_10_two_dna_two_stat_builds", |b| {
        b.iter(|| engine.run(&dna_sim, &key, trials, &Progress::hidden()))
    });
    g.finish();

    // Memory stays flat: the accumulator after 10x the trials has the same size.
    let small = engine.run(&sim, &key, 1_000, &Progress::hidden());
    let big = engine.run(&sim, &key, 10_000, &Progress::hidden());
    assert_eq!(small.values.len(), big.values.len());
    assert_eq!(std::mem::size_of_val(&small), std::mem::size_of_val(&big));
    let _ = sim.empty();
}

criterion_group!(benches, bench);
criterion_main!(benches);
