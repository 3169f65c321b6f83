//! Time of each Nephilim table at its default grid (exact) and of the Monte Carlo
//! cross-checks per million trials.

use cosmosim::context::{Context, Method};
use cosmosim::rules::RuleOptions;
use cosmosim::systems::nephilim::tables::{
    dice_output, initiative_output, magic_output, test_output, MagicGrid,
};
use criterion::{criterion_group, criterion_main, Criterion};

fn ctx() -> Context {
    Context::new(1, 0, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap()
}

fn tables(c: &mut Criterion) {
    let ctx = ctx();
    let margins: Vec<i64> = (-8..=8).collect();
    let diffs: Vec<i64> = (-3..=14).collect();
    c.bench_function("nephilim-dice exact", |b| {
        b.iter(|| dice_output(&ctx).unwrap())
    });
    c.bench_function("nephilim-test exact (-8..8)", |b| {
        b.iter(|| test_output(&margins, &ctx, Method::Exact, 0).unwrap())
    });
    c.bench_function("nephilim-initiative exact (-3..14)", |b| {
        b.iter(|| initiative_output(&diffs, &ctx, Method::Exact, 0).unwrap())
    });
    c.bench_function("nephilim-magic exact (3240 cells)", |b| {
        b.iter(|| magic_output(&MagicGrid::default(), &ctx).unwrap())
    });
    let plexus = MagicGrid {
        plexus: Some(cosmosim::systems::nephilim::Plexus::parse("1d8-1d4").unwrap()),
        stase: 5,
        ..MagicGrid::default()
    };
    c.bench_function("nephilim-magic exact, plexus 1d8-1d4 + stase 5", |b| {
        b.iter(|| magic_output(&plexus, &ctx).unwrap())
    });
    let mut g = c.benchmark_group("monte carlo");
    g.sample_size(10);
    g.bench_function("nephilim-test mc, 1e6 trials per margin, 17 margins", |b| {
        b.iter(|| test_output(&margins, &ctx, Method::Mc, 1_000_000).unwrap())
    });
    g.bench_function(
        "nephilim-initiative mc, 1e6 trials per difference, 18 differences",
        |b| b.iter(|| initiative_output(&diffs, &ctx, Method::Mc, 1_000_000).unwrap()),
    );
    g.finish();
}

/// The shipped duel (one action each), duels per second on all cores.
fn duel(c: &mut Criterion) {
    use cosmosim::engine::{Engine, Progress};
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::nephilim::duel::{load, DuelSim};
    use cosmosim::systems::nephilim::NephilimRules;
    let text = include_str!("../scenarios/nephilim/duel.toml");
    let (_, model) = load(&ScenarioFile::from_text(
        "duel.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    let actions = [model.fighters[0].actions, model.fighters[1].actions];
    let sim = DuelSim::new(model, &NephilimRules::default(), actions);
    let engine = Engine::new(1, 0).unwrap();
    let key = cosmosim::engine::StreamKey::new("bench");
    let n = 1u64 << 20;
    let mut g = c.benchmark_group("nephilim_duel");
    g.sample_size(10);
    g.throughput(criterion::Throughput::Elements(n));
    g.bench_function("shipped_duel", |b| {
        b.iter(|| engine.run(&sim, &key, n, &Progress::hidden()))
    });
    g.finish();
}

criterion_group!(benches, tables, duel);
criterion_main!(benches);
