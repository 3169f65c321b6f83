//! Trinités (trinites.fr.txt): exploding d12 tests, the Trinité's two dice, confrontations
//! the duel of an Adam' against humans and skirmishes of groups (T-TEST, T-DUAL, T-CONF, T-RETRY, T-LIFE,
//! T-COMBAT).

pub mod cli;
mod confrontation;
pub mod duel;
mod missing;
mod options;
#[cfg(test)]
mod risque_tests;
pub mod skirmish;
pub mod tables;
mod test;
pub mod track;
mod words;
mod wound;

pub use confrontation::{confront, side_dist, ConfOutcome, SideDist};
pub use options::{
    listed, DisarmWeapon, DualKeep, FeintScope, ParryFor, RegenAction, RegenTiming, RisqueFailure,
    RisqueIncident, TrinitesRules, OPTIONS,
};
pub use test::{
    kept_dist, natural_dist, roll_natural, roll_test, succeeds, KeptDist, TestRoll, EXPLODE_DEPTH,
    TARGET, TARGET_MAX, TARGET_MIN,
};

/// `x` in scientific notation with two decimals (`1.23e-9`), with the decimal comma in
/// French text.
pub(crate) fn sci(lang: crate::lang::Lang, x: f64) -> String {
    let s = format!("{x:.2e}");
    match lang {
        crate::lang::Lang::Fr => s.replace('.', ","),
        _ => s,
    }
}
