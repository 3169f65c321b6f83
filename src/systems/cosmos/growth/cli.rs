//! Command-line arguments of the growth tables (`cosmos-aura`, `cosmos-piloting`,
//! `cosmos-movement`).

use clap::{Args, Subcommand, ValueEnum};

use crate::args::{parse_int_list, parse_modifier, IntList, RunArgs};
use crate::context::Context;
use crate::error::UserError;
use crate::report::Output;

use super::aura::Edition;
use super::tables::{
    aura_output, movement_output, piloting_output, AuraGrid, MovementGrid, PilotingGrid,
};

#[derive(Debug, Subcommand, Clone)]
pub enum GrowthTable {
    /// How each face of the aura d6 moves the victim's test, in both editions (C-AURA,
    /// C-EDITION). Writes cosmos-aura.csv: edition,face,threshold,karma,bonus,
    /// p_success_or_better,p_crit_or_better,p_no_aura,delta_success.
    CosmosAura(AuraArgs),
    /// P(success) of a piloting roll by pilot score, vehicle die and stress (C-PILOT).
    /// Writes cosmos-piloting.csv: vehicle_die,stress,effective_die,score,p_success,
    /// automatic.
    CosmosPiloting(PilotingArgs),
    /// Walk and sprint distances by Agilité, load (inventory slots) and physical fatigue
    /// (C-MOVE, C-INV, C-FAT-4). Writes cosmos-movement.csv.
    CosmosMovement(MovementArgs),
}

/// Which edition's aura table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum EditionChoice {
    Both,
    Current,
    Previous,
}

#[derive(Debug, Args, Clone)]
pub struct AuraArgs {
    /// The victim's thresholds (a range 20..85, a stepped range 20..85:5 or a list).
    /// Allowed: -100..200.
    #[arg(long, allow_hyphen_values = true, default_value = "20..85:5", value_parser = parse_thresholds)]
    pub thresholds: IntList,
    /// The victim's karma (-10..10).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(i8).range(-10..=10))]
    pub karma: i8,
    /// The victim's percentage modifier on its action test: above 0 a bonus the aura may
    /// strip (e.g. +10), below 0 a malus every face keeps (not on face 6's Esprit test).
    #[arg(long, default_value_t = 10.0, allow_hyphen_values = true, value_parser = parse_modifier)]
    pub bonus: f64,
    /// The victim's Esprit, tested passively on face 6. Allowed: 1..100.
    #[arg(long, allow_hyphen_values = true, default_value_t = 50, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub esprit: u8,
    /// Which edition's aura table: both, current or previous.
    #[arg(long, value_enum, default_value = "both")]
    pub edition: EditionChoice,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct PilotingArgs {
    /// Pilot scores (a crew adds its scores): range or list, allowed 0..200.
    #[arg(long, allow_hyphen_values = true, default_value = "0..20", value_parser = parse_scores)]
    pub scores: IntList,
    /// Vehicle dice: any of 4,6,8,10,12,20 and 100 (world-ships).
    #[arg(long, allow_hyphen_values = true, default_value = "4,6,8,10,12,20,100", value_parser = parse_dice)]
    pub dice: IntList,
    /// Stress steps up the die ladder: any of 0,1,2.
    #[arg(long, allow_hyphen_values = true, default_value = "0,1,2", value_parser = parse_stress)]
    pub stress: IntList,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args, Clone)]
pub struct MovementArgs {
    /// Agilité values: range or list, allowed 1..100.
    #[arg(long, allow_hyphen_values = true, default_value = "20..85:5", value_parser = parse_agility)]
    pub agility: IntList,
    /// Force, which sets the inventory capacity 4 x floor(Force/10). Allowed: 1..100.
    #[arg(long, allow_hyphen_values = true, default_value_t = 50, value_parser = clap::value_parser!(u8).range(1..=100))]
    pub force: u8,
    /// Slots carried: range or list, allowed 0..200.
    #[arg(long, allow_hyphen_values = true, default_value = "20,21,22,24", value_parser = parse_loads)]
    pub loads: IntList,
    /// Physical fatigue FP values: range or list, allowed -3..10 (default 0,4,6,8; 0 alone under edition=previous, which has no endurance rule).
    #[arg(long, value_parser = parse_fp, allow_hyphen_values = true)]
    pub fp: Option<IntList>,
    /// Karma of the sprinter (-10..10).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true, value_parser = clap::value_parser!(i8).range(-10..=10))]
    pub karma: i8,
    #[command(flatten)]
    pub run: RunArgs,
}

fn parse_thresholds(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -100, 200)
}

fn parse_scores(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, 0, 200)
}

fn parse_dice(s: &str) -> Result<IntList, crate::lang::Words> {
    let l = parse_int_list(s, 4, 100)?;
    match l
        .0
        .iter()
        .find(|d| ![4, 6, 8, 10, 12, 20, 100].contains(*d))
    {
        Some(d) => Err(words!("growth.cli.bad_vehicle_die", die = d)),
        None => Ok(l),
    }
}

fn parse_stress(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, 0, 2)
}

fn parse_agility(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, 1, 100)
}

fn parse_loads(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, 0, 200)
}

fn parse_fp(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -3, 10)
}

impl GrowthTable {
    /// Seed, threads, output folder and options of the command.
    pub fn run_args(&self) -> &RunArgs {
        match self {
            GrowthTable::CosmosAura(a) => &a.run,
            GrowthTable::CosmosPiloting(a) => &a.run,
            GrowthTable::CosmosMovement(a) => &a.run,
        }
    }

    /// The same table with `trials` Monte Carlo trials per cell (a no-op for exact-only
    /// tables): `--precision` re-runs a table with growing trial counts.
    pub fn with_trials(&self, trials: u64) -> GrowthTable {
        let mut t = self.clone();
        match &mut t {
            GrowthTable::CosmosAura(_)
            | GrowthTable::CosmosPiloting(_)
            | GrowthTable::CosmosMovement(_) => {
                let _ = trials;
            }
        }
        t
    }

    /// Computes the table (the command layer writes it).
    pub fn compute(&self, ctx: &Context) -> anyhow::Result<Vec<Output>> {
        let output = match self {
            GrowthTable::CosmosAura(a) => {
                let editions = match a.edition {
                    EditionChoice::Both => vec![Edition::Current, Edition::Previous],
                    EditionChoice::Current => vec![Edition::Current],
                    EditionChoice::Previous => vec![Edition::Previous],
                };
                let grid = AuraGrid {
                    editions,
                    thresholds: a.thresholds.0.clone(),
                    karma: a.karma,
                    bonus: a.bonus,
                    esprit: a.esprit as f64,
                };
                aura_output(&grid, ctx)?
            }
            GrowthTable::CosmosPiloting(a) => {
                let grid = PilotingGrid {
                    scores: a.scores.0.clone(),
                    dice: a.dice.0.iter().map(|&d| d as u32).collect(),
                    stress: a.stress.0.iter().map(|&d| d as u32).collect(),
                };
                piloting_output(&grid, ctx)?
            }
            GrowthTable::CosmosMovement(a) => {
                let grid = MovementGrid {
                    agility: a.agility.0.clone(),
                    force: a.force as i32,
                    loads: a.loads.0.clone(),
                    fp: movement_fp(a.fp.as_ref(), ctx)?,
                    karma: a.karma,
                };
                movement_output(&grid, ctx)?
            }
        };
        Ok(vec![output])
    }
}

/// The FP rows of the movement table. C-EDITION: the previous edition has no endurance
/// rule (no "Règle de l'endurance" in its table of contents), so FP means nothing there:
/// its table reads FP 0 alone and refuses other values, as an expedition under it is
/// refused (audit of 2026-12-07, night: FP 6 kept the -1 move while the test malus went).
fn movement_fp(asked: Option<&IntList>, ctx: &Context) -> anyhow::Result<Vec<i64>> {
    let previous = ctx.options.get("edition") == "previous";
    match asked {
        None if previous => Ok(vec![0]),
        None => Ok(vec![0, 4, 6, 8]),
        Some(l) => match l.0.iter().find(|&&fp| previous && fp != 0) {
            Some(&fp) => {
                Err(UserError::new(tr!(ctx.lang, "growth.movement.no_fp_in_previous", fp)).into())
            }
            None => Ok(l.0.clone()),
        },
    }
}

/// Every growth table with default settings, for `cosmosim report`.
pub fn report_outputs(ctx: &Context, _trials: u64) -> anyhow::Result<Vec<Output>> {
    super::tables::report_outputs(ctx)
}
