//! Trinités speed: exact table times and duels per second.

use std::hint::black_box;

use cosmosim::context::{Context, Method};
use cosmosim::engine::stream;
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::trinites::duel::{fight, validate, Penalty, Prime, RawDuel};
use cosmosim::systems::trinites::tables::{conf_output, test_output, ConfGrid, TestGrid};
use cosmosim::systems::trinites::TrinitesRules;
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn tables(c: &mut Criterion) {
    let ctx = Context::new(1, 1, RuleOptions::default(), true).unwrap();
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
    let file = ScenarioFile::read(std::path::Path::new("scenarios/trinites/duel.toml")).unwrap();
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
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20);
    targets = tables, duels
}
criterion_main!(benches);
