//! The Great Cosmos tables' command-line arguments.

use clap::{Args, Subcommand};

use crate::args::{
    parse_burn_in, parse_karma, parse_modifier, parse_thresholds, parse_trials, IntList,
    MethodArgs, RunArgs,
};
use crate::context::{Context, Method};
use crate::error::UserError;
use crate::report::Output;

use super::tables::{karma_drift_output, test_output, KarmaDriftParams, TestGrid};

#[derive(Debug, Subcommand, Clone)]
pub enum CosmosTable {
    /// P(each outcome class) of a Great Cosmos d100 test, by threshold and karma
    /// (C-TEST-1..4). Writes cosmos-test.csv: threshold,karma,p_super_success,
    /// p_crit_success,p_success,p_failure,p_crit_failure,p_super_failure.
    CosmosTest(CosmosTestArgs),
    /// Where karma settles over long play: the stationary share of each karma value when a
    /// character tests again and again at one threshold (C-KARMA-1, C-KARMA-3). Writes
    /// cosmos-karma-drift.csv: threshold,karma,p_stationary.
    CosmosKarmaDrift(KarmaDriftArgs),
}

#[derive(Debug, Args, Clone)]
pub struct CosmosTestArgs {
    /// Thresholds (stat value or mean of stats): a range 20..85, a stepped range 20..85:5
    /// or a list 30,55,70. Allowed values: -100..200 (thresholds are not clamped).
    #[arg(long, allow_hyphen_values = true, default_value = "20..85", value_parser = parse_thresholds)]
    pub thresholds: IntList,
    /// Karma values, same syntax. Allowed: -10..10 (default -10..10; -N..N under karma_bound=N).
    #[arg(long, value_parser = parse_karma, allow_hyphen_values = true)]
    pub karma: Option<IntList>,
    /// Percentage bonus (+10) or malus (-5) on the test, applied per the percent_mode
    /// option.
    #[arg(long, default_value_t = 0.0, allow_hyphen_values = true, value_parser = parse_modifier)]
    pub modifier: f64,
    /// Lowest score of the crit-failure band: 91 normally, 86 under extreme fatigue
    /// (C-FAT-4). Allowed: 11..100. Default: the rule parameter crit_failure_from (91).
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(u8).range(11..=100))]
    pub crit_fail_from: Option<u8>,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct KarmaDriftArgs {
    /// Thresholds, as for cosmos-test.
    #[arg(long, allow_hyphen_values = true, default_value = "20..85", value_parser = parse_thresholds)]
    pub thresholds: IntList,
    /// Tests discarded at the start of each simulated trajectory (with --method mc).
    /// Allowed: 0..10000000.
    #[arg(long, allow_hyphen_values = true, default_value_t = 1_000, value_parser = parse_burn_in)]
    pub burn_in: u64,
    /// Lowest score of the crit-failure band: 91 normally, 86 under extreme fatigue
    /// (C-FAT-4). Allowed: 11..100. Default: the rule parameter crit_failure_from (91).
    #[arg(long, allow_hyphen_values = true, value_parser = clap::value_parser!(u8).range(11..=100))]
    pub crit_fail_from: Option<u8>,
    /// exact = stationary distribution of the 21-state chain; mc = long simulated
    /// trajectories (--trials tests per threshold) with 95% intervals.
    #[arg(long, value_enum, default_value = "exact")]
    pub method: Method,
    /// Monte Carlo tests per threshold (with --method mc).
    #[arg(long, allow_hyphen_values = true, default_value_t = 2_000_000, value_parser = parse_trials)]
    pub trials: u64,
    #[command(flatten)]
    pub run: RunArgs,
}

impl CosmosTable {
    /// Seed, threads, output folder and options of the command.
    pub fn run_args(&self) -> &RunArgs {
        match self {
            CosmosTable::CosmosTest(a) => &a.run,
            CosmosTable::CosmosKarmaDrift(a) => &a.run,
        }
    }

    /// The same table with `trials` Monte Carlo trials per cell (a no-op for exact-only
    /// tables): `--precision` re-runs a table with growing trial counts.
    pub fn with_trials(&self, trials: u64) -> CosmosTable {
        let mut t = self.clone();
        match &mut t {
            CosmosTable::CosmosTest(a) => a.method.trials = trials,
            CosmosTable::CosmosKarmaDrift(a) => a.trials = trials,
        }
        t
    }

    /// Computes the table (the command layer writes it).
    pub fn compute(&self, ctx: &Context) -> anyhow::Result<Vec<Output>> {
        Ok(match self {
            CosmosTable::CosmosTest(a) => {
                let grid = TestGrid {
                    thresholds: a.thresholds.0.clone(),
                    karma: test_karma(a.karma.as_ref(), ctx)?,
                    modifier: a.modifier,
                    crit_fail_from: band(a.crit_fail_from, ctx),
                };
                vec![test_output(&grid, ctx, a.method.method, a.method.trials)?]
            }
            CosmosTable::CosmosKarmaDrift(a) => {
                let params = KarmaDriftParams {
                    thresholds: a.thresholds.0.clone(),
                    burn_in: a.burn_in,
                    crit_fail_from: band(a.crit_fail_from, ctx),
                };
                vec![karma_drift_output(&params, ctx, a.method, a.trials)?]
            }
        })
    }
}

/// The karma rows of `cosmos-test`: karma never leaves -N..N under `karma_bound = N`
/// (C-KARMA-1), and C-TEST-4's extremes are read at ±N, so a row beyond it would show a
/// test no character can take (audit of 2026-12-07, night: -10 under a bound of 5 read
/// as a plain -10 with a super success).
fn test_karma(asked: Option<&IntList>, ctx: &Context) -> anyhow::Result<Vec<i64>> {
    let bound = i64::from(super::TestRules::from_options(&ctx.options).karma_bound);
    match asked {
        None => Ok((-bound..=bound).collect()),
        Some(l) => match l.0.iter().find(|k| k.abs() > bound) {
            Some(&karma) => {
                Err(
                    UserError::new(tr!(ctx.lang, "cosmos.table.karma_past_bound", karma, bound))
                        .into(),
                )
            }
            None => Ok(l.0.clone()),
        },
    }
}

/// The crit-failure band of a table: the flag, else the rule parameter (C-TEST-2).
fn band(flag: Option<u8>, ctx: &Context) -> u8 {
    flag.unwrap_or_else(|| super::TestRules::from_options(&ctx.options).crit_failure_from)
}

/// Every Great Cosmos table with default settings, plus Monte Carlo cross-checks, for
/// `cosmosim report` (`trials` per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    super::tables::report_outputs(ctx, trials)
}
