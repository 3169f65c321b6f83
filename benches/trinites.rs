//! Trinités speed: exact table times, duels and skirmishes per second.

use std::hint::black_box;

use cosmosim::context::{Context, Method};
use cosmosim::engine::{stream, Engine, Progress};
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::trinites::duel::{fight, validate, DuelSim, Penalty, Prime, RawDuel};
use cosmosim::systems::trinites::skirmish;
use cosmosim::systems::trinites::tables::{conf_output, test_output, ConfGrid, TestGrid};
use cosmosim::systems::trinites::TrinitesRules;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn tables(c: &mut Criterion) {
    let ctx = Context::new(1, 1, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap();
    let test = TestGrid {
        modifiers: (-12..=12).collect(),
    };
    c.bench_function("trinites-test exact (50 cells)", |b| {
        b.iter(|| black_box(test_output(&test, &ctx, Method::Exact, 0).unwrap()))
    });
    let conf = ConfGrid {
        modifiers_a: (-12..=12).collect(),
        modifiers_b: (-12..=12).collect(),
    };
    c.bench_function("trinites-confrontation exact (2500 cells)", |b| {
        b.iter(|| black_box(conf_output(&conf, &ctx, Method::Exact, 0).unwrap()))
    });
}

fn duels(c: &mut Criterion) {
    let file = ScenarioFile::read(
        std::path::Path::new("scenarios/trinites/duel.toml"),
        cosmosim::lang::Lang::En,
    )
    .unwrap();
    let raw: RawDuel = file.parse_raw().unwrap();
    let duel = validate(&file, raw).unwrap();
    let rules = TrinitesRules::default();
    const N: u64 = 10_000;
    let mut g = c.benchmark_group("trinites duel (shipped scenario, one thread)");
    g.throughput(Throughput::Elements(N));
    for pair in [
        (Prime::None, Penalty::None),
        (Prime::Efficacite, Penalty::Risque),
    ] {
        let name = format!("{}/{}", pair.0.name(), pair.1.name());
        g.bench_function(name, |b| {
            let mut rng = stream(1, 0, 0);
            b.iter(|| {
                let mut won = 0u32;
                for _ in 0..N {
                    won += (fight(&duel.combat, pair, &rules, &mut rng).rounds > 0) as u32;
                }
                black_box(won)
            })
        });
    }
    g.finish();
    // The figure the speed bar names: duels per second through the engine on 2 threads.
    const M: u64 = 200_000;
    let engine = Engine::new(1, 2).unwrap();
    let key = cosmosim::engine::StreamKey::new("bench");
    let sim = DuelSim {
        combat: duel.combat,
        pair: (Prime::None, Penalty::None),
        rules,
    };
    let mut g = c.benchmark_group("trinites duel (shipped scenario, engine, 2 threads)");
    g.throughput(Throughput::Elements(M));
    g.bench_function("none/none", |b| {
        b.iter(|| black_box(engine.run(&sim, &sim.key(&key), M, &Progress::hidden())))
    });
    g.finish();
}

fn skirmishes(c: &mut Criterion) {
    let file = ScenarioFile::read(
        std::path::Path::new("scenarios/trinites/skirmish.toml"),
        cosmosim::lang::Lang::En,
    )
    .unwrap();
    let m = skirmish::load(&file).unwrap();
    let sim = skirmish::simulation(&m, TrinitesRules::default());
    const N: u64 = 10_000;
    let mut g = c.benchmark_group("trinites skirmish (shipped scenario)");
    g.throughput(Throughput::Elements(N));
    g.bench_function("one thread", |b| {
        let mut rng = stream(1, 0, 0);
        b.iter(|| {
            let mut rounds = 0u32;
            for _ in 0..N {
                rounds += skirmish::fight(&sim.setup, &sim.rules, &mut rng).rounds;
            }
            black_box(rounds)
        })
    });
    const M: u64 = 100_000;
    let engine = Engine::new(1, 2).unwrap();
    let key = cosmosim::engine::StreamKey::new("bench");
    g.throughput(Throughput::Elements(M));
    g.bench_function("engine, 2 threads", |b| {
        b.iter(|| black_box(engine.run(&sim, &key, M, &Progress::hidden())))
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = tables, duels, skirmishes
}
criterion_main!(benches);
