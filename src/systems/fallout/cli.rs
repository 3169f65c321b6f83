//! The 2d20 tables' command-line arguments.

use clap::{Args, Subcommand};

use crate::args::{parse_int_list, MethodArgs, RunArgs};
use crate::context::Context;
use crate::report::Output;

use super::tables::{
    damage_output, help_output, luck_output, test_output, DamageGrid, HelpGrid, LuckGrid, TestGrid,
};

#[derive(Debug, Subcommand, Clone)]
pub enum FalloutTable {
    /// P(pass), expected action points and P(complication) of a 2d20 skill test (F-TEST).
    /// Writes fallout-test.csv: tn,difficulty,dice,tag_rank,p_pass,mean_ap,p_complication.
    FalloutTest(FalloutTestArgs),
    /// Value of one helper (F-HELP) in P(pass). Writes fallout-help.csv:
    /// tn,helper_tn,difficulty,dice,p_pass_alone,p_pass_helped,gain,mean_ap_alone,mean_ap_helped,p_complication_alone,p_complication_helped
    FalloutHelp(FalloutHelpArgs),
    /// Value of one Miss Fortune reroll (F-LUCK) in P(pass): the Luck point is spent only
    /// on a failed test, rerolling a die that gave no success. Writes fallout-luck.csv:
    /// tn,difficulty,dice,tag_rank,p_pass,p_pass_luck,gain,mean_ap,mean_ap_luck,p_spent,p_saved_if_spent
    FalloutLuck(FalloutLuckArgs),
    /// Exact damage and Effects of combat dice (F-CD) by weapon dice and AP spent on extra
    /// dice (1 AP each, at most 3). Writes fallout-damage.csv:
    /// cd,ap,dice,value,p_damage,p_damage_at_least,p_effects,p_damage_vicious,mean_damage,mean_effects
    FalloutDamage(FalloutDamageArgs),
}

/// A list of small whole numbers (TN, difficulty, dice, ranks) from the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct Values(pub Vec<u8>);

fn parse_tn(s: &str) -> Result<Values, crate::lang::Words> {
    list(s, 2, 20)
}
fn parse_difficulty(s: &str) -> Result<Values, crate::lang::Words> {
    list(s, 0, 5)
}
fn parse_dice(s: &str) -> Result<Values, crate::lang::Words> {
    list(s, 2, 5)
}
fn parse_tag(s: &str) -> Result<Values, crate::lang::Words> {
    list(s, 0, 6)
}
fn list(s: &str, lo: i64, hi: i64) -> Result<Values, crate::lang::Words> {
    Ok(Values(
        parse_int_list(s, lo, hi)?
            .0
            .into_iter()
            .map(|v| v as u8)
            .collect(),
    ))
}

/// Grid flags shared by the 2d20 tables.
#[derive(Debug, Args, Clone)]
pub struct PoolArgs {
    /// Target numbers (attribute + skill): a range 2..20, a stepped range 2..20:2 or a list
    /// 8,10,12. Allowed: 2..20.
    #[arg(long, allow_hyphen_values = true, default_value = "2..20", value_parser = parse_tn)]
    pub tn: Values,
    /// Difficulties (successes needed), same syntax. Allowed: 0..5.
    #[arg(long, allow_hyphen_values = true, default_value = "0..5", value_parser = parse_difficulty)]
    pub difficulty: Values,
    /// Pool sizes: 2d20 plus 0..3 bought dice. Allowed: 2..5.
    #[arg(long, allow_hyphen_values = true, default_value = "2..5", value_parser = parse_dice)]
    pub dice: Values,
}

/// The complication range flag (1 = complication on 20 ... 5 = on 16-20).
#[derive(Debug, Args, Clone)]
pub struct ComplicationArg {
    /// Complication range: 1 = complication on a 20 (normal), 2 = 19-20 (risky), ...
    /// 5 = 16-20 (perilous). Allowed: 1..5.
    #[arg(long, allow_hyphen_values = true, default_value_t = 1, value_parser = clap::value_parser!(u8).range(1..=5))]
    pub complication: u8,
}

#[derive(Debug, Args, Clone)]
pub struct FalloutTestArgs {
    #[command(flatten)]
    pub pool: PoolArgs,
    /// Tag skill ranks: a die <= the rank is 2 successes; 0 = not a tag skill. Ranks above
    /// the TN are skipped. Allowed: 0..6.
    #[arg(long, allow_hyphen_values = true, default_value = "0..6", value_parser = parse_tag)]
    pub tag_rank: Values,
    #[command(flatten)]
    pub complication: ComplicationArg,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct FalloutHelpArgs {
    #[command(flatten)]
    pub pool: PoolArgs,
    /// Helper target numbers (the helper's own attribute + skill), same syntax as --tn.
    #[arg(long, allow_hyphen_values = true, default_value = "2..20", value_parser = parse_tn)]
    pub helper_tn: Values,
    #[command(flatten)]
    pub complication: ComplicationArg,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct FalloutLuckArgs {
    #[command(flatten)]
    pub pool: PoolArgs,
    /// Tag skill ranks, as for fallout-test. Allowed: 0..6.
    #[arg(long, allow_hyphen_values = true, default_value = "0..6", value_parser = parse_tag)]
    pub tag_rank: Values,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct FalloutDamageArgs {
    /// Weapon combat dice: a range 1..8, a list 2,4,6. Allowed: 1..17.
    #[arg(long, allow_hyphen_values = true, default_value = "1..8", value_parser = parse_cd)]
    pub cd: Values,
    /// AP spent on extra combat dice (1 AP each, F-CD). Allowed: 0..3.
    #[arg(long, allow_hyphen_values = true, default_value = "0..3", value_parser = parse_ap)]
    pub ap: Values,
    #[command(flatten)]
    pub run: RunArgs,
}

fn parse_cd(s: &str) -> Result<Values, crate::lang::Words> {
    list(s, 1, 17)
}
fn parse_ap(s: &str) -> Result<Values, crate::lang::Words> {
    list(s, 0, 3)
}

impl FalloutTable {
    /// Seed, threads, output folder and options of the command.
    pub fn run_args(&self) -> &RunArgs {
        match self {
            FalloutTable::FalloutTest(a) => &a.run,
            FalloutTable::FalloutHelp(a) => &a.run,
            FalloutTable::FalloutLuck(a) => &a.run,
            FalloutTable::FalloutDamage(a) => &a.run,
        }
    }

    /// The same table with `trials` Monte Carlo trials per cell (a no-op for exact-only
    /// tables): `--precision` re-runs a table with growing trial counts.
    pub fn with_trials(&self, trials: u64) -> FalloutTable {
        let mut t = self.clone();
        match &mut t {
            FalloutTable::FalloutTest(a) => a.method.trials = trials,
            FalloutTable::FalloutHelp(_)
            | FalloutTable::FalloutLuck(_)
            | FalloutTable::FalloutDamage(_) => {}
        }
        t
    }

    /// Computes the table (the command layer writes it).
    pub fn compute(&self, ctx: &Context) -> anyhow::Result<Vec<Output>> {
        let out = match self {
            FalloutTable::FalloutTest(a) => {
                let grid = TestGrid {
                    tns: a.pool.tn.0.clone(),
                    difficulties: a.pool.difficulty.0.clone(),
                    dice: a.pool.dice.0.clone(),
                    tag_ranks: a.tag_rank.0.clone(),
                    complication: a.complication.complication,
                };

                test_output(&grid, ctx, a.method.method, a.method.trials)?
            }
            FalloutTable::FalloutHelp(a) => {
                let grid = HelpGrid {
                    tns: a.pool.tn.0.clone(),
                    helper_tns: a.helper_tn.0.clone(),
                    difficulties: a.pool.difficulty.0.clone(),
                    dice: a.pool.dice.0.clone(),
                    complication: a.complication.complication,
                };

                help_output(&grid, ctx)?
            }
            FalloutTable::FalloutLuck(a) => {
                let grid = LuckGrid {
                    tns: a.pool.tn.0.clone(),
                    difficulties: a.pool.difficulty.0.clone(),
                    dice: a.pool.dice.0.clone(),
                    tag_ranks: a.tag_rank.0.clone(),
                };
                luck_output(&grid, ctx)?
            }
            FalloutTable::FalloutDamage(a) => {
                let grid = DamageGrid {
                    cd: a.cd.0.clone(),
                    ap: a.ap.0.clone(),
                };
                damage_output(&grid, ctx)?
            }
        };
        Ok(vec![out])
    }
}

/// Every 2d20 table with default settings, plus the Monte Carlo cross-check, for
/// `cosmosim report` (`trials` per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    super::tables::report_outputs(ctx, trials)
}
