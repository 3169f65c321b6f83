use thiserror::Error;

/// Bad input from the person running the tool: a flag, a scenario file, a stat out of
/// range. Reported as one clear message with exit code 2, never as a panic.
#[derive(Debug, Error, Clone, PartialEq)]
#[error("{0}")]
pub struct UserError(pub String);

impl UserError {
    pub fn new(msg: impl Into<String>) -> UserError {
        UserError(msg.into())
    }
}

/// Shorthand for returning a [`UserError`] inside an `anyhow::Result`.
pub fn user<T>(msg: impl Into<String>) -> anyhow::Result<T> {
    Err(UserError::new(msg).into())
}
