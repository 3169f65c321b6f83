//! One module folder per game system, all sharing the engine, the dice and the report.

pub mod cosmos;

use crate::rules::OptionSpec;

/// The rule options of every system, for the registry.
pub fn option_specs() -> &'static [&'static [OptionSpec]] {
    &[cosmos::OPTIONS]
}
