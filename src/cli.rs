//! Command-line interface: what a designer types. Every flag's help says what it changes
//! in game terms.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

pub use crate::args::*;

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

    /// Run only shard I of N (counted from 1) of run, sweep, table or report: --out gets a
    /// partial folder (accumulators and a manifest), and `cosmosim merge` puts the N
    /// parts together, byte-identical to the unsharded run. auto/N reads I from
    /// COSMOSIM_SHARD_INDEX (1-based), SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX
    /// (Kubernetes, 0-based) or CI_NODE_INDEX (GitLab, 1-based). See docs/scale-out.md.
    #[arg(long, allow_hyphen_values = true, global = true, value_name = "I/N", value_parser = crate::args::shard::parse_shard)]
    pub shard: Option<crate::args::shard::ShardArg>,

    /// Language of every page, chart and message: en (default) or fr (the rulebooks'
    /// terms, 0,5 decimals). A file's `lang = "fr"` sets it too; this flag wins. CSV
    /// columns and file names are the same in every language. `report --lang fr` writes
    /// to reports/fr/ unless --out says otherwise.
    #[arg(long, global = true, value_enum)]
    pub lang: Option<crate::lang::Lang>,

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
        #[command(flatten)]
        precision: PrecisionArgs,
    },
    /// Run a scenario file (combat, campaign, expedition, dice economy...) and write
    /// summary.md, CSVs and charts to reports/<file name>/ (or --out).
    Run(ScenarioArgs),
    /// Run a scenario file over a grid of values (--vary hero.level=3,5 --vary
    /// hero.policy.dark_below_hp=0.2..0.8:0.1) and write one CSV row per grid point with
    /// 95% intervals, and a chart per varied value, to reports/<path below
    /// scenarios/>/sweep-<varied keys>/ (e.g. reports/cosmos/duel/sweep-aldric.hp/ for
    /// scenarios/cosmos/duel.toml --vary aldric.hp=...; or --out).
    Sweep(SweepArgs),
    /// Check a scenario file without running it: every problem is reported with file,
    /// line, column, key and what is allowed.
    Check {
        /// The scenario file (TOML).
        file: PathBuf,
    },
    /// List every rule option: key, default, allowed values and the rule decision it reads.
    Options,
    /// List the figures of a table or scenario file: outputs, columns, key columns and
    /// what each column means, as `expect` files name them (`<output>.<column>`).
    Figures {
        /// A table name (e.g. cosmos-test) or a scenario file (.toml).
        target: String,
        /// The table's own flags (e.g. --thresholds 50 --method mc), or --option KEY=VALUE.
        #[arg(
            trailing_var_arg = true,
            allow_hyphen_values = true,
            value_name = "FLAGS"
        )]
        args: Vec<String>,
    },
    /// Check a designer's expectations (balance/*.toml) against computed figures: exit 0
    /// when all hold, 1 when any fails or is undecided, 2 for a bad file. Writes
    /// expect.md, expect.csv and junit.xml to reports/balance/ (or --out).
    Expect(crate::balance::args::ExpectArgs),
    /// What moved between two output folders (report, run, table or sweep): rows joined
    /// on their key columns, exact moves > 1e-9, Monte Carlo moves by a two-sample test
    /// with a false-discovery-rate correction. Writes compare.md, compare.csv and
    /// compare.png to compare/ (or --out).
    Compare(crate::balance::args::CompareArgs),
    /// Answer backwards: find the value of a key (a scenario key such as drake.hp, or a
    /// table flag) where a figure reaches a target, e.g. "what HP gives the party a 60%
    /// win rate?". Writes tune.md (the answer first), tune.csv and tune.png.
    Tune(crate::balance::args::TuneArgs),
    /// Pick the best of a grid of choices (policies, modes, thresholds...) for a figure,
    /// racing them so clearly worse points stop early; reports the best, the points it
    /// cannot be told from, and the trials saved against a plain sweep.
    Optimise(crate::balance::args::OptimiseArgs),
    /// Try rule changes without code: run the book rules and each variant named in a
    /// variants file (variants/*.toml) on the same seed, and say what moved against the
    /// book. Writes variants.md/.html (the answer first), variants.csv, headlines.csv,
    /// a chart per headline figure and each variant's outputs to
    /// reports/variants/<file>/ (or --out).
    Variants(crate::balance::args::VariantsArgs),
    /// Replay single trials of a scenario run, step by step, bit-identical to the batch
    /// run with the same seed: who acts and why, each test against its threshold with
    /// karma, defences, damage before and after armour and elements, postures and how they
    /// end. `--trial 17`, `--trials 0..9`, or `--find outcome=round_cap` (also
    /// `apocalypse`, `down=<combatant>`, `exhausted`...) for the first matching trials.
    Trace(TraceArgs),
    /// Print a commented starter file that passes `check`: `init scenario` (--system
    /// cosmos --kind combat by default; every kind has one), `init expect` (or `init expect
    /// --from reports/<scenario>/` to propose expectations around a run's figures) or
    /// `init variants`. --out FILE writes it instead.
    Init(InitArgs),
    /// Merge the partial folders of a sharded run (`--shard I/N`) into the outputs the
    /// unsharded command writes, byte for byte. A missing, duplicate, foreign, corrupt or
    /// truncated part is refused (exit 2) and named.
    Merge(MergeArgs),
}

#[derive(Debug, Args, Clone)]
pub struct ReportArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Monte Carlo trials per cell for the cross-checks the report runs.
    #[arg(long, allow_hyphen_values = true, default_value_t = 1_000_000, value_parser = parse_trials)]
    pub trials: u64,
    /// A first look in seconds: 20,000 trials per cross-check cell, 2,000 per scenario,
    /// expectations capped at 20,000; every page and .meta.json says `quick`. Written to
    /// reports/quick/ (reports/quick/fr/ in French) unless --out says otherwise.
    #[arg(long)]
    pub quick: bool,
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

impl TableCommand {
    /// Seed, threads, output folder and options of the table command.
    pub fn run_args(&self) -> &RunArgs {
        match self {
            TableCommand::Cosmos(t) => t.run_args(),
            TableCommand::CosmosGrowth(t) => t.run_args(),
            TableCommand::Nephilim(t) => t.run_args(),
            TableCommand::Fallout(t) => t.run_args(),
            TableCommand::Trinites(t) => t.run_args(),
        }
    }

    /// The game system the table belongs to (for rule-option warnings).
    pub fn system(&self) -> &'static str {
        match self {
            TableCommand::Cosmos(_) | TableCommand::CosmosGrowth(_) => "cosmos",
            TableCommand::Nephilim(_) => "nephilim",
            TableCommand::Fallout(_) => "fallout",
            TableCommand::Trinites(_) => "trinites",
        }
    }

    /// The same table with another Monte Carlo trial count (for `--precision`).
    pub fn with_trials(&self, trials: u64) -> TableCommand {
        match self {
            TableCommand::Cosmos(t) => TableCommand::Cosmos(t.with_trials(trials)),
            TableCommand::CosmosGrowth(t) => TableCommand::CosmosGrowth(t.with_trials(trials)),
            TableCommand::Nephilim(t) => TableCommand::Nephilim(t.with_trials(trials)),
            TableCommand::Fallout(t) => TableCommand::Fallout(t.with_trials(trials)),
            TableCommand::Trinites(t) => TableCommand::Trinites(t.with_trials(trials)),
        }
    }

    /// Computes the table's outputs.
    pub fn compute(
        &self,
        ctx: &crate::context::Context,
    ) -> anyhow::Result<Vec<crate::report::Output>> {
        match self {
            TableCommand::Cosmos(t) => t.compute(ctx),
            TableCommand::CosmosGrowth(t) => t.compute(ctx),
            TableCommand::Nephilim(t) => t.compute(ctx),
            TableCommand::Fallout(t) => t.compute(ctx),
            TableCommand::Trinites(t) => t.compute(ctx),
        }
    }
}

#[derive(Debug, Args, Clone)]
pub struct TraceArgs {
    /// The scenario file (TOML), e.g. scenarios/cosmos/duel.toml.
    pub file: PathBuf,
    /// The trial to replay (counted from 0, as in the run).
    #[arg(long, conflicts_with_all = ["trials", "find"])]
    pub trial: Option<u64>,
    /// A range of trials to replay, first..last (inclusive), at most 1000.
    #[arg(long, conflicts_with = "find")]
    pub trials: Option<String>,
    /// Find the first trials of the run that end this way and replay them: conditions
    /// joined by commas, e.g. outcome=round_cap, apocalypse, down=mage,
    /// standing=troll, exhausted, rounds_at_least=10. Scans the run's trials in order.
    #[arg(long)]
    pub find: Option<String>,
    /// How many matching trials --find replays.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub count: u64,
    /// Seed; overrides the file's [run] seed (the run's seed gives the run's trials).
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// A rule variant, as key=value (repeatable); wins over the file's [rules].
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// text (an account to read), json (one object per trial on a line: trial, outcome,
    /// steps).
    #[arg(long, value_enum, default_value_t = TraceFormat::Text)]
    pub format: TraceFormat,
    /// Also write trace.md and trace.html into this folder.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args, Clone)]
pub struct InitArgs {
    /// What to start: scenario, expect or variants.
    #[arg(value_enum)]
    pub what: InitWhat,
    /// The game system of a scenario: cosmos, fallout, nephilim, trinites.
    #[arg(long)]
    pub system: Option<String>,
    /// The kind of scenario (cosmos: combat, creation, leveling, mutation, expedition,
    /// campaign; fallout: combat, economy; nephilim: duel; trinites: duel, skirmish).
    #[arg(long)]
    pub kind: Option<String>,
    /// `init expect` only: a run's output folder (reports/<scenario>/) whose figures the
    /// proposed expectations surround.
    #[arg(long, value_name = "DIR")]
    pub from: Option<PathBuf>,
    /// Write the file here instead of printing it.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}

/// What `init` starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum InitWhat {
    Scenario,
    Expect,
    Variants,
}

/// How `trace` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum TraceFormat {
    Text,
    Json,
}

#[derive(Debug, Args, Clone)]
pub struct ScenarioArgs {
    /// The scenario file (TOML), e.g. scenarios/cosmos/duel.toml.
    pub file: PathBuf,
    /// Trials (simulated combats, campaigns...); overrides the file's [run] trials.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_trials)]
    pub trials: Option<u64>,
    /// Seed; overrides the file's [run] seed.
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Worker threads (0 = all cores, at most 1024). Never changes the results.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Output folder (default: reports/<file name without .toml>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// A rule variant, as key=value (repeatable); wins over the file's [rules].
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    #[command(flatten)]
    pub precision: PrecisionArgs,
}

/// `--precision`: trials chosen by the tool until every interval is narrow enough.
#[derive(Debug, Args, Clone, Default)]
pub struct PrecisionArgs {
    /// Replaces --trials: run until every 95% interval of the outputs is at most ±P wide
    /// (e.g. 0.005 for ±0.5 points). Trials start at 65,536 and double; the summary says
    /// how many it took. Same answer for any --threads.
    #[arg(long, allow_hyphen_values = true, value_name = "P", global = true)]
    pub precision: Option<f64>,
    /// With --precision: stop there even if the precision is not reached (default
    /// 67,108,864).
    #[arg(long, allow_hyphen_values = true, value_name = "N", global = true, requires = "precision", value_parser = parse_trials)]
    pub max_trials: Option<u64>,
}

/// `cosmosim sweep`: a scenario file and the values to vary.
#[derive(Debug, Args, Clone)]
pub struct SweepArgs {
    #[command(flatten)]
    pub scenario: ScenarioArgs,
    /// A value to vary, as key.path=a,b,c or key.path=lo..hi:step (repeatable; the grid is
    /// every combination). The path is the key in the file; a combatant's name may stand
    /// for combatants.<name> (hero.level = combatants.hero.level).
    #[arg(long, required = true, value_name = "KEY=VALUES", value_parser = crate::balance::sweep::parse_vary)]
    pub vary: Vec<crate::balance::sweep::Vary>,
    /// The figure the sweep is about, as `<output>.<column>` (`cosmosim figures` lists
    /// them; p_<side> works too): it leads the summary and gets the charts. Default: the
    /// first figure of the first output (a combat's side shares).
    #[arg(long)]
    pub figure: Option<String>,
    /// With --figure, one row of it by key columns (repeatable): --where outcome=party.
    #[arg(long = "where", value_name = "COLUMN=VALUE", requires = "figure")]
    pub where_: Vec<String>,
    // The help is written from the caps themselves (audit of 2026-12-07 afternoon: it
    // said 1000000 when the cap was 100000).
    #[arg(long, allow_hyphen_values = true, value_name = "N", value_parser = parse_max_points,
          help = max_points_help())]
    pub max_points: Option<u64>,
}

/// `sweep --max-points`'s help, from [`crate::limits::DEFAULT_MAX_GRID_POINTS`] and
/// [`crate::limits::MAX_GRID_POINTS`].
pub fn max_points_help() -> String {
    format!(
        "The most grid points the sweep may have (default {}, at most {}): a guard against a \
         typo that would run for days",
        crate::limits::DEFAULT_MAX_GRID_POINTS,
        crate::limits::MAX_GRID_POINTS
    )
}

fn parse_max_points(s: &str) -> Result<u64, crate::lang::Words> {
    crate::limits::parse_bounded(s, 1, crate::limits::MAX_GRID_POINTS)
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
            ..Default::default()
        }
    }
}

/// `cosmosim merge PART... --out DIR`.
#[derive(Debug, Args, Clone)]
pub struct MergeArgs {
    /// The partial folders written by `--shard I/N` (any order; each shard exactly once).
    #[arg(required = true, value_name = "PART")]
    pub parts: Vec<PathBuf>,
    /// Output folder of the merged outputs (what the unsharded command's --out would be).
    #[arg(long)]
    pub out: PathBuf,
    /// Worker threads (0 = all cores) for what the merge computes itself (exact tables).
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = crate::args::parse_threads)]
    pub threads: usize,
}
