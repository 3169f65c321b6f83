//! The Tale of Great Cosmos over time: small rules as tables (aura, piloting, movement,
//! inventory), character creation and level-ups, fatigue states.

pub mod aura;
pub mod campaign;
pub mod cli;
pub mod creation;
pub mod fatigue;
pub mod genetics;
pub mod inventory;
pub mod level_rules;
pub mod leveling;
pub mod movement;
pub mod moves;
mod options;
mod parameters;
pub mod piloting;
mod quantiles;
pub mod race_odds;
pub mod races;
pub mod scenarios;
pub mod skill_sheet;
pub mod skills;
pub mod stats;
pub mod tables;

pub use options::{
    AntiAuraGain, GrowthRules, OverloadAgility, PassiveTest, SprintFatigueOrder, OPTIONS,
};
pub use parameters::{level_dice_into, level_parameters};
pub use quantiles::{band_row, censored_quantile, push_distribution, quantile_interval, QUANTILES};

/// `x` as Rust's `{}` writes it (`10`, `2.5`), with a comma in French text: for values
/// the designer gave, whose decimals the English text never fixed.
pub(crate) fn dec(lang: crate::lang::Lang, x: f64) -> String {
    let s = format!("{x}");
    match lang {
        crate::lang::Lang::En => s,
        crate::lang::Lang::Fr => s.replace('.', ","),
    }
}
