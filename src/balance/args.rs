//! Command-line arguments of `expect` and `compare` (declared here so the command
//! enum only registers them).

use crate::lang::Lang;
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
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Worker threads (0 = all cores, at most 1024). Never changes the results.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// A rule variant, as key=value (repeatable), under every expectation (an
    /// expectation's own `options` win).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Caps the trials of every Monte Carlo run (a quick CI smoke run); an expectation
    /// without its own `trials` then starts at a quarter of it.
    #[arg(long, allow_hyphen_values = true, value_parser = parse_trials, value_name = "N")]
    pub max_trials: Option<u64>,
}

/// `cosmosim variants FILE`.
#[derive(Debug, Args, Clone)]
pub struct VariantsArgs {
    /// A variants file (TOML), e.g. variants/cosmos-postures.toml.
    pub file: PathBuf,
    /// Output folder (default: reports/variants/<file name>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Seed of every run, the same for the book and each variant (default: the file's
    /// `seed`, else 1).
    #[arg(long, allow_hyphen_values = true)]
    pub seed: Option<u64>,
    /// Trials of every Monte Carlo run (default: the file's `trials`, else each table's or
    /// scenario's own).
    #[arg(long, allow_hyphen_values = true, value_parser = parse_trials, value_name = "N")]
    pub trials: Option<u64>,
    /// Worker threads (0 = all cores, at most 1024). Never changes the results.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
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
    #[arg(long, allow_hyphen_values = true, default_value_t = 0.05, value_parser = parse_alpha)]
    pub alpha: f64,
    /// Exit with code 1 when anything moved.
    #[arg(long)]
    pub fail_on_change: bool,
}

fn parse_alpha(s: &str) -> Result<f64, crate::lang::Words> {
    parse_real_in(s, 0.0001, 0.5)
}

/// A real number in `lo..=hi` for a flag; the messages give the range as `lo..hi`.
fn parse_real_in(s: &str, lo: f64, hi: f64) -> Result<f64, crate::lang::Words> {
    let allowed = format!("{lo}..{hi}");
    let v: f64 = s.parse().map_err(|_| {
        words!(
            "cli.not_number",
            value = crate::lang::Clip(s),
            allowed = &allowed
        )
    })?;
    if !(lo..=hi).contains(&v) {
        return Err(words!("cli.out_of_range", value = v, allowed = &allowed));
    }
    Ok(v)
}

/// `cosmosim tune table NAME | FILE --vary KEY=LO..HI --figure F --target X`.
#[derive(Debug, Args, Clone)]
pub struct TuneArgs {
    /// A scenario file, or `table <name>`.
    #[arg(required = true, num_args = 1..=2, value_name = "FILE | table NAME")]
    pub source: Vec<String>,
    /// The key to tune and its range: a scenario key (`drake.hp=50..400`; a combatant's
    /// name stands for combatants.<name>) or a table flag (`thresholds=20..85`). Whole
    /// numbers at both ends make a whole-number key.
    #[arg(long, value_name = "KEY=LO..HI")]
    pub vary: String,
    /// The figure, as `<output>.<column>` (or the column alone for a one-output table);
    /// `cosmosim figures` lists them.
    #[arg(long)]
    pub figure: String,
    /// Selects the figure's row by key columns (repeatable): --where outcome=heroes.
    #[arg(long = "where", value_name = "COLUMN=VALUE")]
    pub where_: Vec<String>,
    /// The value the figure must reach.
    #[arg(long, allow_hyphen_values = true, value_parser = crate::limits::parse_finite)]
    pub target: f64,
    /// A table flag kept fixed (repeatable): --param karma=0 passes --karma 0.
    #[arg(long = "param", value_name = "FLAG=VALUE")]
    pub params: Vec<String>,
    /// Real keys: stop when the answer is known to within this width (default: a
    /// thousandth of the range).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::limits::parse_finite_non_negative)]
    pub tolerance: Option<f64>,
    /// Close enough: a point whose figure is known to lie within target ± this is the
    /// answer (e.g. 0.01 for "a 50% win rate, ±1 point"); 0 = bracket the target.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = crate::limits::parse_finite_non_negative)]
    pub within: f64,
    /// Confidence of the whole answer (Monte Carlo figures).
    #[arg(long, allow_hyphen_values = true, default_value_t = 0.95, value_parser = parse_confidence)]
    pub confidence: f64,
    /// Trials of a point's first look (Monte Carlo); looks double from there.
    #[arg(long, allow_hyphen_values = true, default_value_t = 65_536, value_parser = parse_trials)]
    pub first_trials: u64,
    /// Most trials spent on one point.
    #[arg(long, allow_hyphen_values = true, default_value_t = 1 << 22, value_parser = parse_trials)]
    pub max_trials: u64,
    // --seed, --threads, --option.
    #[command(flatten)]
    pub runs: PointRuns,
    /// Folder for tune.md, tune.csv and tune.png (default: beside the scenario's own
    /// outputs, one folder per tuned key: reports/<scenario>/tune-<key>/, or
    /// reports/<table>/tune-<key>/), so the next tune of another key overwrites nothing.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Write the scenario with the tuned value set to this file (it may be the scenario
    /// itself): every comment and the order stay, a first comment line says what was
    /// tuned, to what target, and when. The file passes `check` before it is written.
    #[arg(long, value_name = "FILE")]
    pub write: Option<PathBuf>,
}

impl TuneArgs {
    /// Where the outputs go: `--out`, or `reports/<source>/tune-<key>/`.
    pub fn out_dir(&self) -> PathBuf {
        self.out
            .clone()
            .unwrap_or_else(|| default_out(&self.source, "tune", &[self.vary.as_str()]))
    }
}

/// `reports/<scenario path below scenarios/, or table name>/<command>-<keys>/` (issue 27:
/// one folder per question, never one shared folder the next command overwrites).
pub(crate) fn default_out(source: &[String], command: &str, vary: &[&str]) -> PathBuf {
    let base = match source {
        [t, name] if t == "table" => PathBuf::from(name),
        [file, ..] => crate::scenario::path::below_scenarios(std::path::Path::new(file)),
        [] => PathBuf::from(command),
    };
    let keys: Vec<String> = vary
        .iter()
        .map(|v| {
            v.split('=')
                .next()
                .unwrap_or("")
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || "._-".contains(c) {
                        c
                    } else {
                        '_'
                    }
                })
                .collect()
        })
        .collect();
    PathBuf::from("reports")
        .join(base)
        .join(format!("{command}-{}", keys.join("+")))
}

fn parse_confidence(s: &str) -> Result<f64, crate::lang::Words> {
    parse_real_in(s, 0.5, 0.9999)
}

/// What every point of a `tune` or `optimise` runs with.
#[derive(Debug, Args, Clone)]
pub struct PointRuns {
    /// Seed of every run.
    #[arg(long, allow_hyphen_values = true, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = all cores, at most 1024). Never changes the results.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// A rule variant, as key=value (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl PointRuns {
    /// Refuses a thread count past the limit or a malformed rule option before any run.
    pub fn check(&self, lang: Lang) -> anyhow::Result<()> {
        crate::limits::check_threads(self.threads)?;
        crate::rules::RuleOptions::from_pairs(&self.options, lang)?;
        Ok(())
    }
}

/// `cosmosim optimise table NAME | FILE --vary KEY=a,b,c ... --maximise|--minimise F`.
#[derive(Debug, Args, Clone)]
pub struct OptimiseArgs {
    /// A scenario file, or `table <name>`.
    #[arg(required = true, num_args = 1..=2, value_name = "FILE | table NAME")]
    pub source: Vec<String>,
    /// Values to choose among, as key=a,b,c or key=lo..hi:step (repeatable: every
    /// combination is a candidate), e.g. hero.policy.dark_below_hp=0.2..0.8:0.1.
    #[arg(long, required = true, value_name = "KEY=VALUES")]
    pub vary: Vec<String>,
    /// The figure to make as large as possible (`<output>.<column>`).
    #[arg(
        long,
        conflicts_with = "minimise",
        required_unless_present = "minimise"
    )]
    pub maximise: Option<String>,
    /// The figure to make as small as possible.
    #[arg(long)]
    pub minimise: Option<String>,
    /// Selects the figure's row by key columns (repeatable).
    #[arg(long = "where", value_name = "COLUMN=VALUE")]
    pub where_: Vec<String>,
    /// A table flag kept fixed (repeatable): --param karma=0.
    #[arg(long = "param", value_name = "FLAG=VALUE")]
    pub params: Vec<String>,
    /// Confidence that the best point is among the contenders reported.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0.95, value_parser = parse_confidence)]
    pub confidence: f64,
    /// Trials of every point in the first round; rounds double it.
    #[arg(long, allow_hyphen_values = true, default_value_t = 16_384, value_parser = parse_trials)]
    pub first_trials: u64,
    /// Most trials of one point.
    #[arg(long, allow_hyphen_values = true, default_value_t = 1 << 20, value_parser = parse_trials)]
    pub max_trials: u64,
    // --seed, --threads, --option.
    #[command(flatten)]
    pub runs: PointRuns,
    /// Folder for optimise.md, optimise.csv and optimise.png (default:
    /// reports/<scenario or table>/optimise-<keys>/).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl OptimiseArgs {
    /// Where the outputs go: `--out`, or `reports/<source>/optimise-<keys>/`.
    pub fn out_dir(&self) -> PathBuf {
        self.out.clone().unwrap_or_else(|| {
            let keys: Vec<&str> = self.vary.iter().map(String::as_str).collect();
            default_out(&self.source, "optimise", &keys)
        })
    }
}
