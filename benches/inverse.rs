//! Inverse questions on the shipped duel (issue 12): how long `tune` takes to find the
//! Aldric HP that gives the Offensive side a 50% win rate to ±0.01, and `optimise` to
//! pick the best of 20 HP values. Each run prints the trials it spent against a plain
//! sweep at the same resolution (tune: 351 HP values at the ~9,604 trials a ±0.01
//! interval needs at 50%; optimise: every point at the final count).

use criterion::{criterion_group, criterion_main, Criterion};

use clap::Parser;
use cosmosim::cli::{Cli, Command};

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");

fn parse(args: &[&str]) -> Command {
    Cli::try_parse_from(std::iter::once("cosmosim").chain(args.iter().copied()))
        .expect("valid arguments")
        .command
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t");
    let out = out.to_str().unwrap();
    let mut g = c.benchmark_group("inverse");
    g.sample_size(10);
    let tune = parse(&[
        "tune",
        DUEL,
        "--vary",
        "aldric.hp=50..400",
        "--figure",
        "combat-sides.share",
        "--where",
        "outcome=offensive",
        "--target",
        "0.5",
        "--within",
        "0.01",
        "--first-trials",
        "8192",
        "--threads",
        "2",
        "--out",
        out,
    ]);
    let Command::Tune(t) = tune else {
        unreachable!()
    };
    g.bench_function("tune_duel_hp_to_0.5_within_0.01", |b| {
        b.iter(|| cosmosim::commands::tune_cmd(&t, true, cosmosim::lang::Lang::En).unwrap())
    });
    let md = std::fs::read_to_string(dir.path().join("t/tune.md")).unwrap();
    if let Some(l) = md.lines().find(|l| l.contains("trials in all")) {
        eprintln!(
            "tune: {} (a sweep of 351 HP values at ±0.01: 3,371,004 trials)",
            l.split('.').next().unwrap_or(l)
        );
    }
    let opt = parse(&[
        "optimise",
        DUEL,
        "--vary",
        "aldric.hp=148..186:2",
        "--maximise",
        "combat-sides.share",
        "--where",
        "outcome=offensive",
        "--first-trials",
        "4096",
        "--max-trials",
        "262144",
        "--threads",
        "2",
        "--out",
        out,
    ]);
    let Command::Optimise(o) = opt else {
        unreachable!()
    };
    g.bench_function("optimise_20_hp_values", |b| {
        b.iter(|| cosmosim::commands::optimise(&o, true, cosmosim::lang::Lang::En).unwrap())
    });
    let md = std::fs::read_to_string(dir.path().join("t/optimise.md")).unwrap();
    if let Some(l) = md.lines().find(|l| l.contains("trials spent")) {
        eprintln!("optimise: {l}");
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
