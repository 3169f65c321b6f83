//! Whole combats per second for the shipped duel, apocalypse, aura-duel, wounded-ambush and
//! boss-fight scenarios, on 1 and 2 threads (targets on 2 cores: at least 1 million duels
//! per second; at least 100 000 boss fights per second, with rules, heals and buffs).

use std::path::Path;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use cosmosim::context::Context;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{load, simulate};

const COMBATS: u64 = 1 << 20;
/// Long multi-combatant fights take 2^17 per sample so a sample stays near a second or
/// two: two batches of `BATCH_SIZE` (2^16), so the 2-thread figure runs on two threads
/// (one batch is one thread's work).
const LONG_COMBATS: u64 = 2 * cosmosim::engine::BATCH_SIZE;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("cosmos_combat");
    g.sample_size(10);
    for name in [
        "duel",
        "apocalypse",
        "aura-duel",
        "wounded-ambush",
        "boss-fight",
    ] {
        let path =
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenarios/cosmos/{name}.toml"));
        let file = ScenarioFile::read(&path, cosmosim::lang::Lang::En).expect("shipped scenario");
        let (raw, model) = load(&file).expect("valid scenario");
        let combats = if name == "boss-fight" {
            LONG_COMBATS
        } else {
            COMBATS
        };
        g.throughput(Throughput::Elements(combats));
        for threads in [1, 2] {
            let ctx = Context::new(
                1,
                threads,
                file.rule_options(&raw.rules).unwrap(),
                true,
                cosmosim::lang::Lang::En,
            )
            .unwrap();
            g.bench_function(format!("{name}/{threads}_threads"), |b| {
                b.iter(|| simulate(model.clone(), &ctx, combats).1.combats)
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
