//! Command-line interface: what a designer types. Every flag's help says what it changes
//! in game terms.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::context::Method;

#[derive(Debug, Parser)]
#[command(
    name = "cosmosim",
    version,
    about = "Balance tabletop RPG rules: exact and seeded Monte Carlo tables for The Tale of Great Cosmos (and other rulebooks)",
    long_about = "cosmosim answers questions such as \"what is the chance of a critical success at Agilité 55 with karma +6?\" \
exactly where the maths allows and by seeded Monte Carlo elsewhere, and writes CSV tables, PNG charts and provenance files.\n\n\
Same seed and same inputs give byte-identical outputs, whatever --threads."
)]
pub struct Cli {
    /// Print nothing but errors: no progress bars, no list of written files.
    #[arg(long, short, global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Compute every table with default settings and write them, with an index.md that
    /// explains each one, to reports/ (or --out).
    Report(ReportArgs),
    /// Compute one table (CSV + PNG chart + provenance .meta.json).
    Table {
        #[command(subcommand)]
        table: TableCommand,
    },
    /// Run a scenario file (combat, campaign, expedition, dice economy...) and write
    /// summary.md, CSVs and charts to reports/<file name>/ (or --out).
    Run(ScenarioArgs),
    /// Run a scenario file over a grid of values (--vary hero.level=3,5 --vary
    /// hero.policy.dark_below_hp=0.2..0.8:0.1) and write one CSV row per grid point with
    /// 95% intervals, and a chart per varied value, to reports/<file name>-sweep/ (or --out).
    Sweep(SweepArgs),
    /// Check a scenario file without running it: every problem is reported with file,
    /// line, column, key and what is allowed.
    Check {
        /// The scenario file (TOML).
        file: PathBuf,
    },
    /// List every rule option: key, default, allowed values and the rule decision it reads.
    Options,
}

/// Seed, threads and output folder, shared by every command that writes.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// Seed of the random streams. Same seed + same inputs = same numbers.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = all cores). Never changes the results, only the speed.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Folder the outputs are written to (created if missing).
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// A rule variant, as key=value (repeatable). `cosmosim options` lists them all.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl RunArgs {
    /// The context these flags ask for: seed, threads, rule options.
    pub fn context(&self, quiet: bool) -> anyhow::Result<crate::context::Context> {
        crate::context::Context::new(
            self.seed,
            self.threads,
            crate::rules::RuleOptions::from_pairs(&self.options)?,
            quiet,
        )
    }
}

#[derive(Debug, Args, Clone)]
pub struct ReportArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Monte Carlo trials per cell for the cross-checks the report runs.
    #[arg(long, default_value_t = 1_000_000, value_parser = parse_trials)]
    pub trials: u64,
}

/// How a table is computed.
#[derive(Debug, Args, Clone)]
pub struct MethodArgs {
    /// exact = probabilities from the dice distributions; mc = seeded Monte Carlo with 95%
    /// intervals.
    #[arg(long, value_enum, default_value = "exact")]
    pub method: Method,
    /// Monte Carlo trials per cell (with --method mc).
    #[arg(long, default_value_t = 1_000_000, value_parser = parse_trials)]
    pub trials: u64,
}

/// Every table, grouped by game system (each system declares its own).
#[derive(Debug, Subcommand, Clone)]
pub enum TableCommand {
    #[command(flatten)]
    Cosmos(crate::systems::cosmos::cli::CosmosTable),
    #[command(flatten)]
    CosmosGrowth(crate::systems::cosmos::growth::cli::GrowthTable),
    #[command(flatten)]
    Nephilim(crate::systems::nephilim::cli::NephilimTable),
    #[command(flatten)]
    Fallout(crate::systems::fallout::cli::FalloutTable),
    #[command(flatten)]
    Trinites(crate::systems::trinites::cli::TrinitesTable),
}

#[derive(Debug, Args, Clone)]
pub struct ScenarioArgs {
    /// The scenario file (TOML), e.g. scenarios/cosmos/duel.toml.
    pub file: PathBuf,
    /// Trials (simulated combats, campaigns...); overrides the file's [run] trials.
    #[arg(long, value_parser = parse_trials)]
    pub trials: Option<u64>,
    /// Seed; overrides the file's [run] seed.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Worker threads (0 = all cores). Never changes the results.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Output folder (default: reports/<file name without .toml>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A rule variant, as key=value (repeatable); wins over the file's [rules].
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// `cosmosim sweep`: a scenario file and the values to vary.
#[derive(Debug, Args, Clone)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// A value to vary, as key.path=a,b,c or key.path=lo..hi:step (repeatable; the grid is
    /// every combination). The path is the key in the file; a combatant's name may stand
    /// for combatants.<name> (hero.level = combatants.hero.level).
    #[arg(long, required = true, value_name = "KEY=VALUES", value_parser = crate::systems::cosmos::combat::sweep::parse_vary)]
    pub vary: Vec<crate::systems::cosmos::combat::sweep::Vary>,
}

impl ScenarioArgs {
    pub fn overrides(&self, quiet: bool) -> crate::systems::RunOverrides {
        crate::systems::RunOverrides {
            trials: self.trials,
            seed: self.seed,
            threads: self.threads,
            options: self.options.clone(),
            quiet,
            out: self.out.clone(),
        }
    }
}

/// A list of integers given as a range, stepped range or comma list.
#[derive(Debug, Clone, PartialEq)]
pub struct IntList(pub Vec<i64>);

/// Parses comma-separated parts, each `a..b`, `a..b:step` or `a`, each value within `lo..=hi`.
pub fn parse_int_list(s: &str, lo: i64, hi: i64) -> Result<IntList, String> {
    let num = |x: &str| -> Result<i64, String> {
        x.trim()
            .parse::<i64>()
            .map_err(|_| format!("`{x}` is not a whole number (expected e.g. 20..85, 20..85:5, 30,55,70 or 8..11,50)"))
    };
    let mut values: Vec<i64> = Vec::new();
    for part in s.split(',') {
        if let Some((a, rest)) = part.split_once("..") {
            let (b, step) = match rest.split_once(':') {
                Some((b, st)) => (num(b)?, num(st)?),
                None => (num(rest)?, 1),
            };
            let a = num(a)?;
            if step <= 0 {
                return Err(format!("step must be positive, got {step}"));
            }
            if b < a {
                return Err(format!(
                    "range {a}..{b} is empty: the start must not exceed the end"
                ));
            }
            values.extend((a..=b).step_by(step as usize));
        } else {
            values.push(num(part)?);
        }
    }
    if let Some(bad) = values.iter().find(|v| **v < lo || **v > hi) {
        return Err(format!("{bad} is out of range; allowed values: {lo}..{hi}"));
    }
    let mut sorted = values.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != values.len() {
        return Err("values must not repeat".to_string());
    }
    Ok(IntList(sorted))
}

pub fn parse_thresholds(s: &str) -> Result<IntList, String> {
    parse_int_list(s, -100, 200)
}

pub fn parse_karma(s: &str) -> Result<IntList, String> {
    parse_int_list(s, -10, 10)
}

pub fn parse_trials(s: &str) -> Result<u64, String> {
    let t: u64 = s
        .replace('_', "")
        .parse()
        .map_err(|_| format!("`{s}` is not a whole number of trials"))?;
    if t == 0 || t > 1_000_000_000_000 {
        return Err(format!(
            "{t} trials is out of range; allowed: 1..1000000000000"
        ));
    }
    Ok(t)
}

pub fn parse_modifier(s: &str) -> Result<f64, String> {
    let m: f64 = s
        .trim_start_matches('+')
        .parse()
        .map_err(|_| format!("`{s}` is not a number (expected e.g. +10 or -5)"))?;
    if !(-100.0..=100.0).contains(&m) {
        return Err(format!("{m} is out of range; allowed: -100..100 (percent)"));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_lists() {
        assert_eq!(
            parse_int_list("20..23", 0, 100).unwrap().0,
            vec![20, 21, 22, 23]
        );
        assert_eq!(
            parse_int_list("20..30:5", 0, 100).unwrap().0,
            vec![20, 25, 30]
        );
        assert_eq!(
            parse_int_list("-10..-8", -10, 10).unwrap().0,
            vec![-10, -9, -8]
        );
        assert_eq!(parse_int_list("55,30", 0, 100).unwrap().0, vec![30, 55]);
        assert!(parse_int_list("20..10", 0, 100).is_err());
        assert!(parse_int_list("0..300", 0, 100)
            .unwrap_err()
            .contains("allowed values: 0..100"));
        assert!(parse_int_list("a", 0, 100).is_err());
        assert!(parse_int_list("1,1", 0, 100).is_err());
        assert_eq!(parse_int_list("8..9,50", 0, 100).unwrap().0, vec![8, 9, 50]);
    }
}
