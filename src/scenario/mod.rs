//! Scenario files: TOML read into a raw serde model, then validated into a system's model.
//! Every error names the file, line, column, key path and what is allowed.

pub mod edit;
mod file;
mod hints;
mod locate;
mod message;

pub use message::serde_message;
pub mod path;
mod raw;
mod starters;
mod text;
mod texts;

pub use file::{int_at, int_in, MissingAllowed, RunSection, ScenarioFile, ScenarioHeader};
pub use locate::locate;
pub(crate) use raw::{raw_restated, raw_scenario};
pub use starters::STARTERS;
pub use text::{ByLang, Text};
pub use texts::shown_key;
