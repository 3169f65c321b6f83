//! Great Cosmos test speed: single-threaded tests per second, the exact 66 x 21 table, and
//! the Monte Carlo table on all cores.

use std::hint::black_box;

use cosmosim::context::Context;
use cosmosim::engine::stream;
use cosmosim::rules::RuleOptions;
use cosmosim::systems::cosmos::tables::{test_grid_exact, test_grid_mc, TestGrid};
use cosmosim::systems::cosmos::{TestRules, TestSampler, TestSpec};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn full_grid() -> TestGrid {
    TestGrid {
        thresholds: (20..=85).collect(),
        karma: (-10..=10).collect(),
        modifier: 0.0,
        crit_fail_from: 91,
    }
}

fn single_thread(c: &mut Criterion) {
    let rules = TestRules::default();
    let spec = TestSpec::new(55.0, 6).unwrap();
    let sampler = TestSampler::new(&spec, &rules);
    const N: u64 = 1_000_000;
    let mut g = c.benchmark_group("tgc_single_thread");
    g.throughput(Throughput::Elements(N));
    g.bench_function("lookup_sampler", |b| {
        let mut rng = stream(1, 0, 0);
        b.iter(|| {
            let mut counts = [0u64; 8];
            for _ in 0..N {
                counts[sampler.sample_index(&mut rng) as usize] += 1;
            }
            black_box(counts)
        })
    });
    g.bench_function("generic_roll", |b| {
        let mut rng = stream(1, 0, 0);
        b.iter(|| {
            let mut counts = [0u64; 8];
            for _ in 0..N {
                counts[spec.roll(&mut rng, &rules) as usize] += 1;
            }
            black_box(counts)
        })
    });
    g.finish();
}

fn exact_table(c: &mut Criterion) {
    let rules = TestRules::default();
    let grid = full_grid();
    c.bench_function("exact_table_66x21", |b| {
        b.iter(|| black_box(test_grid_exact(&grid, &rules, cosmosim::lang::Lang::En).unwrap()))
    });
}

fn mc_table(c: &mut Criterion) {
    let rules = TestRules::default();
    let grid = full_grid();
    let ctx = Context::new(1, 0, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap();
    const PER_CELL: u64 = 200_000;
    let mut g = c.benchmark_group("mc_table_all_cores");
    g.sample_size(10);
    g.throughput(Throughput::Elements(PER_CELL * 66 * 21));
    g.bench_function("66x21_cells_200k_each", |b| {
        b.iter(|| black_box(test_grid_mc(&grid, &rules, &ctx, PER_CELL).unwrap()))
    });
    g.finish();
}

criterion_group!(benches, single_thread, exact_table, mc_table);
criterion_main!(benches);
