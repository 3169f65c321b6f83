//! 2d20 speed: the full exact `fallout-test` table, the Monte Carlo cell rate, and
//! AP-economy scenario trials per second.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use cosmosim::context::{Context, Method};
use cosmosim::engine::{Engine, Progress};
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::fallout::scenario::{ApEconomy, ApSim};
use cosmosim::systems::fallout::tables::{test_grid_mc, test_output, TestCell, TestGrid};
use cosmosim::systems::fallout::{combat, Shortfall};

fn full_table(c: &mut Criterion) {
    let ctx = Context::new(1, 0, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap();
    let grid = TestGrid::full(1);
    let mut g = c.benchmark_group("fallout_test_table");
    g.sample_size(10);
    g.bench_function("exact_full_grid", |b| {
        b.iter(|| test_output(&grid, &ctx, Method::Exact, 0).unwrap())
    });
    g.finish();
}

fn mc_cell(c: &mut Criterion) {
    let ctx = Context::new(1, 0, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap();
    let cells = [TestCell {
        tn: 10,
        difficulty: 2,
        dice: 3,
        tag_rank: 0,
        complication: 1,
        crit_face: 1,
        complication_from: 20,
    }];
    let n = 1u64 << 20;
    let mut g = c.benchmark_group("fallout_test_mc");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n));
    g.bench_function("3d20_cell", |b| {
        b.iter(|| test_grid_mc(&cells, &ctx, n).unwrap())
    });
    g.finish();
}

fn scenario(c: &mut Criterion) {
    let text = include_str!("../scenarios/fallout/ap-economy.toml");
    let file = ScenarioFile::from_text("ap-economy.toml", text, cosmosim::lang::Lang::En);
    let (model, _) = ApEconomy::from_file(&file).unwrap();
    let sim = ApSim::new(&model, Shortfall::Split);
    let engine = Engine::new(1, 0).unwrap();
    let key = cosmosim::engine::StreamKey::new("bench");
    let n = 1u64 << 18;
    let mut g = c.benchmark_group("fallout_ap_economy");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n));
    g.bench_function("shipped_scenario_trials", |b| {
        b.iter(|| engine.run(&sim, &key, n, &Progress::hidden()))
    });
    g.finish();
}

/// A 1-against-1 fight to the finish (the brief's duels/s figure) and the shipped
/// firefight (4 against 6), fights per second on all cores.
fn combat(c: &mut Criterion) {
    let duel = "system = \"fallout\"\nkind = \"combat\"\n[combat]\nmax_rounds = 30\n\
        [policy.players]\nbuy = \"below\"\nbelow = 0.6\ndamage_ap = 2\n[policy.mj]\nbuy = \"below\"\nbelow = 0.6\n\
        [weapons.pistol]\ndamage = 4\ntype = \"ranged\"\n[weapons.machete]\ndamage = 3\ntype = \"melee\"\nqualities = { vicious = true }\n\
        [[combatant]]\nname = \"A\"\nside = \"players\"\ntn = 11\nhp = 12\ndr = 1\ninitiative = 10\nweapon = \"pistol\"\n\
        [[combatant]]\nname = \"B\"\nside = \"mj\"\ntn = 10\nhp = 12\ndr = 1\ninitiative = 9\nweapon = \"machete\"\n";
    let firefight = include_str!("../scenarios/fallout/firefight.toml");
    let engine = Engine::new(1, 0).unwrap();
    let key = cosmosim::engine::StreamKey::new("bench");
    let n = 1u64 << 19;
    let mut g = c.benchmark_group("fallout_combat");
    g.sample_size(10);
    g.throughput(Throughput::Elements(n));
    for (name, text) in [("duel_1v1", duel), ("firefight_4v6", firefight)] {
        let (_, model) = combat::load(&ScenarioFile::from_text(
            "f.toml",
            text,
            cosmosim::lang::Lang::En,
        ))
        .unwrap();
        let sim = combat::simulation(model, &RuleOptions::default());
        g.bench_function(name, |b| {
            b.iter(|| engine.run(&sim, &key, n, &Progress::hidden()))
        });
    }
    g.finish();
}

criterion_group!(benches, full_table, mc_cell, scenario, combat);
criterion_main!(benches);
