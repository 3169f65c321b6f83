//! Command-line arguments of `expect` and `compare` (declared here so the command
//! enum only registers them).

use std::path::PathBuf;

use clap::Args;

use crate::args::{parse_threads, parse_trials};

/// `cosmosim expect FILE...`.
#[derive(Debug, Args, Clone)]
pub struct ExpectArgs {
    /// Expectations files (TOML), e.g. balance/cosmos.toml or balance/*.toml.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Folder for expect.md, expect.csv and junit.xml.
    #[arg(long, default_value = "reports/balance")]
    pub out: PathBuf,
    /// Seed of every run (default: the file's `seed`, else each table's or scenario's own).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (0 = all cores, at most 1024). Never changes the results.
    #[arg(long, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// A rule variant, as key=value (repeatable), under every expectation (an
    /// expectation's own `options` win).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Caps the trials of every Monte Carlo run (a quick CI smoke run); an expectation
    /// without its own `trials` then starts at a quarter of it.
    #[arg(long, value_parser = parse_trials, value_name = "N")]
    pub max_trials: Option<u64>,
}

/// `cosmosim compare BASE NEW`.
#[derive(Debug, Args, Clone)]
pub struct CompareArgs {
    /// The reference output folder (e.g. the committed reports/).
    pub base: PathBuf,
    /// The new output folder (e.g. a fresh `report --out new/`).
    pub new: PathBuf,
    /// Folder for compare.md, compare.csv and compare.png.
    #[arg(long, default_value = "compare")]
    pub out: PathBuf,
    /// False-discovery rate of the Monte Carlo moves (Benjamini-Hochberg over every
    /// Monte Carlo figure compared).
    #[arg(long, default_value_t = 0.05, value_parser = parse_alpha)]
    pub alpha: f64,
    /// Exit with code 1 when anything moved.
    #[arg(long)]
    pub fail_on_change: bool,
}

fn parse_alpha(s: &str) -> Result<f64, String> {
    let a: f64 = s.parse().map_err(|_| {
        format!(
            "`{}` is not a number; allowed: 0.0001..0.5",
            crate::limits::clip(s)
        )
    })?;
    if !(0.0001..=0.5).contains(&a) {
        return Err(format!("{a} is out of range; allowed: 0.0001..0.5"));
    }
    Ok(a)
}
