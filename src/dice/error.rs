use thiserror::Error;

/// Why a die or distribution could not be built.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum DiceError {
    #[error("a die needs at least 1 face (got {0})")]
    NoFaces(u64),
    #[error("a distribution needs at least one outcome with positive weight")]
    Empty,
    #[error("weights must be finite and non-negative (got {0})")]
    BadWeight(f64),
    #[error("keep {keep} of {dice} dice: keep must be between 1 and the number of dice")]
    BadKeep { keep: usize, dice: usize },
}
