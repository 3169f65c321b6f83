//! The Nephilim tables' command-line arguments.

use clap::{Args, Subcommand};

use crate::args::{parse_int_list, IntList, MethodArgs, RunArgs};
use crate::context::{Context, Method};
use crate::report::Output;

use super::tables::{
    dice_output, initiative_output, magic_mc_output, magic_output, meta_output, test_output,
    MagicGrid,
};
use super::{Circle, Duration, Plexus};

#[derive(Debug, Subcommand, Clone)]
pub enum NephilimTable {
    /// The +1D-1D modifier law of each die option (N-DIE): nephilim (0,1,2,2,3,4), d6, d4,
    /// all three in one file. Writes nephilim-dice.csv: die,modifier,probability,cumulative
    /// (cumulative = P(result <= modifier)).
    NephilimDice(DiceArgs),
    /// P(critical success / success / failure / critical failure) of a test by score minus
    /// difficulty (N-TEST, N-CRIT), for the die in force (--option die=d6). Writes
    /// nephilim-test.csv: margin,p_crit_success,p_success,p_failure,p_crit_failure.
    NephilimTest(TestArgs),
    /// P(a character acts in an earlier segment than its single opponent) by the difference
    /// of Rapidité + Réaction (N-INIT). Writes nephilim-initiative.csv:
    /// difference,p_earlier_segment.
    NephilimInitiative(InitiativeArgs),
    /// P(a spell works): concentration test then control test (N-MAGIC, N-KA), by circle,
    /// casting skill, Ka-element and concentration time. Writes nephilim-magic.csv.
    NephilimMagic(MagicArgs),
    /// The meta-characteristic bonus of a Ka-element score (N-KA): 0-5 +0, 6-15 +1,
    /// 16-30 +2, ... in the book (parameters nephilim_meta_first_band,
    /// nephilim_meta_band_growth); two Ka-elements read the row of their mean rounded up.
    /// Writes nephilim-meta.csv: ka,meta_bonus,band_from,band_to.
    NephilimMeta(MetaArgs),
}

#[derive(Debug, Args, Clone)]
pub struct DiceArgs {
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct TestArgs {
    /// Score minus difficulty before the dice: a range -8..8, a stepped range -8..8:2 or a
    /// list -2,0,3. Allowed: -20..20.
    #[arg(long, default_value = "-8..8", value_parser = parse_margins, allow_hyphen_values = true)]
    pub margins: IntList,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct InitiativeArgs {
    /// Own Rapidité + Réaction minus the opponent's, same syntax. Allowed: -30..30.
    #[arg(long, default_value = "-3..14", value_parser = parse_differences, allow_hyphen_values = true)]
    pub differences: IntList,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct MagicArgs {
    /// Circles, comma-separated: basse_magie, haute_magie, grand_secret.
    #[arg(long, default_value = "basse_magie,haute_magie,grand_secret", value_parser = parse_circles)]
    pub circles: CircleList,
    /// Casting skill of the circle (range, stepped range or list). Allowed: -4..10.
    #[arg(long, default_value = "-3..6", value_parser = parse_skills, allow_hyphen_values = true)]
    pub skills: IntList,
    /// Raw Ka-element scores (normalised per N-KA: 16-20 -> 0, 21-25 -> +1...). Allowed: 0..200.
    #[arg(long, allow_hyphen_values = true, default_value = "5..60:5", value_parser = parse_ka)]
    pub ka: IntList,
    /// Concentration times, comma-separated (x = spell level + 4): free_action, action,
    /// x_rounds, x_turns, x_minutes, x_ten_minutes, x_hours, x_six_hours, x_days.
    #[arg(long, default_value = "free_action,action,x_rounds,x_turns,x_minutes,x_ten_minutes,x_hours,x_six_hours,x_days", value_parser = parse_durations)]
    pub durations: DurationList,
    /// Spell level (-3..6): a casting skill below it cannot cast (P = 0).
    #[arg(long, default_value_t = -3, allow_hyphen_values = true, value_parser = clap::value_parser!(i64).range(-3..=6))]
    pub spell_level: i64,
    /// Effect increments (extra targets, range steps...): +1 control difficulty each. 0..20.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = clap::value_parser!(i64).range(0..=20))]
    pub increments: i64,
    /// Plexus modifier on the control test, e.g. 1d6-1d4, 1d8-1d4, 1d8-1d8, or none.
    #[arg(long, default_value = "none", value_parser = parse_plexus)]
    pub plexus: PlexusArg,
    /// Stase points the Nephilim tries to draw before the control test (the amount drawn is
    /// this + 1D-1D, never below 0). 0 = no stase ritual. 0..50.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = clap::value_parser!(i64).range(0..=50))]
    pub stase: i64,
    #[command(flatten)]
    pub method: MethodArgs,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct MetaArgs {
    /// Raw Ka-element scores (range, stepped range or list). Allowed: 0..200.
    #[arg(long, allow_hyphen_values = true, default_value = "0..200", value_parser = parse_ka)]
    pub ka: IntList,
    #[command(flatten)]
    pub run: RunArgs,
}

/// Circles chosen on the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct CircleList(pub Vec<Circle>);

/// Concentration times chosen on the command line.
#[derive(Debug, Clone, PartialEq)]
pub struct DurationList(pub Vec<Duration>);

/// `--plexus`: none or a dice modifier.
#[derive(Debug, Clone, PartialEq)]
pub struct PlexusArg(pub Option<Plexus>);

fn parse_margins(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -20, 20)
}

fn parse_differences(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -30, 30)
}

fn parse_skills(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -4, 10)
}

fn parse_ka(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, 0, 200)
}

/// Parses a comma list of names into sorted, distinct values.
fn parse_names<T: Copy + Ord>(
    s: &str,
    all: &[T],
    name: fn(T) -> &'static str,
) -> Result<Vec<T>, crate::lang::Words> {
    let mut v = Vec::new();
    for w in s.split(',').map(str::trim) {
        let x = all.iter().copied().find(|x| name(*x) == w).ok_or_else(|| {
            format!(
                "unknown value `{w}`; allowed: {}",
                all.iter().map(|x| name(*x)).collect::<Vec<_>>().join(", ")
            )
        })?;
        if v.contains(&x) {
            return Err(format!("`{w}` is listed twice").into());
        }
        v.push(x);
    }
    v.sort_unstable();
    Ok(v)
}

fn parse_circles(s: &str) -> Result<CircleList, crate::lang::Words> {
    parse_names(s, &Circle::ALL, Circle::name).map(CircleList)
}

fn parse_durations(s: &str) -> Result<DurationList, crate::lang::Words> {
    parse_names(s, &Duration::ALL, Duration::name).map(DurationList)
}

fn parse_plexus(s: &str) -> Result<PlexusArg, crate::lang::Words> {
    if s.trim() == "none" {
        return Ok(PlexusArg(None));
    }
    Plexus::parse(s)
        .map(|p| PlexusArg(Some(p)))
        .map_err(Into::into)
}

impl NephilimTable {
    /// Seed, threads, output folder and options of the command.
    pub fn run_args(&self) -> &RunArgs {
        match self {
            NephilimTable::NephilimDice(a) => &a.run,
            NephilimTable::NephilimTest(a) => &a.run,
            NephilimTable::NephilimInitiative(a) => &a.run,
            NephilimTable::NephilimMagic(a) => &a.run,
            NephilimTable::NephilimMeta(a) => &a.run,
        }
    }

    /// The same table with `trials` Monte Carlo trials per cell (a no-op for exact-only
    /// tables): `--precision` re-runs a table with growing trial counts.
    pub fn with_trials(&self, trials: u64) -> NephilimTable {
        let mut t = self.clone();
        match &mut t {
            NephilimTable::NephilimTest(a) => a.method.trials = trials,
            NephilimTable::NephilimInitiative(a) => a.method.trials = trials,
            NephilimTable::NephilimMagic(a) => a.method.trials = trials,
            NephilimTable::NephilimDice(_) | NephilimTable::NephilimMeta(_) => {}
        }
        t
    }

    /// Computes the table (the command layer writes it).
    pub fn compute(&self, ctx: &Context) -> anyhow::Result<Vec<Output>> {
        let out = match self {
            NephilimTable::NephilimDice(_) => dice_output(ctx)?,
            NephilimTable::NephilimMeta(a) => meta_output(&a.ka.0, ctx)?,
            NephilimTable::NephilimTest(a) => {
                test_output(&a.margins.0, ctx, a.method.method, a.method.trials)?
            }
            NephilimTable::NephilimInitiative(a) => {
                initiative_output(&a.differences.0, ctx, a.method.method, a.method.trials)?
            }
            NephilimTable::NephilimMagic(a) => {
                let grid = MagicGrid {
                    circles: a.circles.0.clone(),
                    skills: a.skills.0.clone(),
                    ka: a.ka.0.clone(),
                    durations: a.durations.0.clone(),
                    spell_level: a.spell_level,
                    increments: a.increments,
                    plexus: a.plexus.0,
                    stase: a.stase,
                };
                match a.method.method {
                    Method::Exact => magic_output(&grid, ctx)?,
                    Method::Mc => magic_mc_output(&grid, ctx, a.method.trials)?,
                }
            }
        };
        Ok(vec![out])
    }
}

/// Every Nephilim table with default settings, plus Monte Carlo cross-checks, for
/// `cosmosim report` (`trials` per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    super::tables::report_outputs(ctx, trials)
}
