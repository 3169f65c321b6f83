//! The Trinités tables' command-line arguments.

use clap::{Args, Subcommand};

use crate::args::{parse_int_list, IntList, MethodArgs, RunArgs};
use crate::context::Context;
use crate::report::Output;

use super::tables::{conf_output, test_output, ConfGrid, TestGrid};

#[derive(Debug, Subcommand, Clone)]
pub enum TrinitesTable {
    /// P(success) of a Trinités test (exploding d12, natural 1 fails, final >= 12) by
    /// modifier, for a single d12 and for the Trinité's Deva + Archonte dice, and how often
    /// the Deva die is kept (T-TEST, T-DUAL), and P(success) allowing one retry at -3
    /// (T-RETRY). Writes trinites-test.csv: modifier,dual,p_success,p_deva_kept (empty for
    /// the single d12),p_success_retry.
    TrinitesTest(TrinitesTestArgs),
    /// Who wins a confrontation by both sides' modifiers and dice: A acts, B opposes and
    /// wins ties (T-CONF). Writes trinites-confrontation.csv:
    /// modifier_a,modifier_b,dual_a,dual_b,p_a_wins,p_b_wins,p_nobody.
    TrinitesConfrontation(TrinitesConfArgs),
}

/// Modifiers (skill + difficulty) as a range `-12..12`, stepped range or list; -30..30.
pub fn parse_modifiers(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -30, 30)
}

#[derive(Debug, Args, Clone)]
pub struct TrinitesTestArgs {
    /// Modifiers (skill + difficulty): a range -12..12, a stepped range -12..12:3 or a list
    /// 0,3,6. Allowed: -30..30.
    #[arg(long, default_value = "-12..12", value_parser = parse_modifiers, allow_hyphen_values = true)]
    pub modifiers: IntList,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct TrinitesConfArgs {
    /// Modifiers of side A (the one acting), same syntax. Allowed: -30..30.
    #[arg(long, default_value = "-12..12", value_parser = parse_modifiers, allow_hyphen_values = true)]
    pub modifiers_a: IntList,
    /// Modifiers of side B (the one opposing, who wins ties). Allowed: -30..30.
    #[arg(long, default_value = "-12..12", value_parser = parse_modifiers, allow_hyphen_values = true)]
    pub modifiers_b: IntList,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

impl TrinitesTable {
    /// Seed, threads, output folder and options of the command.
    pub fn run_args(&self) -> &RunArgs {
        match self {
            TrinitesTable::TrinitesTest(a) => &a.run,
            TrinitesTable::TrinitesConfrontation(a) => &a.run,
        }
    }

    /// The same table with `trials` Monte Carlo trials per cell (a no-op for exact-only
    /// tables): `--precision` re-runs a table with growing trial counts.
    pub fn with_trials(&self, trials: u64) -> TrinitesTable {
        let mut t = self.clone();
        match &mut t {
            TrinitesTable::TrinitesTest(a) => a.method.trials = trials,
            TrinitesTable::TrinitesConfrontation(a) => a.method.trials = trials,
        }
        t
    }

    /// Computes the table (the command layer writes it).
    pub fn compute(&self, ctx: &Context) -> anyhow::Result<Vec<Output>> {
        Ok(match self {
            TrinitesTable::TrinitesTest(a) => {
                let grid = TestGrid {
                    modifiers: a.modifiers.0.clone(),
                };
                vec![test_output(&grid, ctx, a.method.method, a.method.trials)?]
            }
            TrinitesTable::TrinitesConfrontation(a) => {
                let grid = ConfGrid {
                    modifiers_a: a.modifiers_a.0.clone(),
                    modifiers_b: a.modifiers_b.0.clone(),
                };
                vec![conf_output(&grid, ctx, a.method.method, a.method.trials)?]
            }
        })
    }
}

/// Every Trinités table with default settings, for `cosmosim report`.
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    super::tables::report_outputs(ctx, trials)
}
