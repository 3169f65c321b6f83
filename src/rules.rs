//! Named rule options: every reading of a rule that reasonable designers could dispute
//! (the `[option]` marks of the rules decisions) has a key, a default and a set of allowed
//! values. Options are set with `--option key=value` or in a scenario file, validated
//! against this registry, and printed with their value in force in every output.

use std::collections::BTreeMap;

use crate::error::UserError;
use crate::systems;

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum Allowed {
    /// Exactly one of these words.
    OneOf(&'static [&'static str]),
    /// A comma-separated subset of these words (`none` for the empty set).
    SetOf(&'static [&'static str]),
    /// A number in `min..=max`.
    Number { min: f64, max: f64 },
}

impl Allowed {
    pub fn describe(&self) -> String {
        match self {
            Allowed::OneOf(v) => v.join(" | "),
            Allowed::SetOf(v) => format!("comma-separated subset of {} (or none)", v.join(", ")),
            Allowed::Number { min, max } => format!("a number from {min} to {max}"),
        }
    }

    fn check(&self, value: &str) -> bool {
        match self {
            Allowed::OneOf(v) => v.contains(&value),
            Allowed::SetOf(v) => {
                value == "none" || value.split(',').all(|w| v.contains(&w.trim()))
            }
            Allowed::Number { min, max } => value
                .parse::<f64>()
                .map(|x| x.is_finite() && x >= *min && x <= *max)
                .unwrap_or(false),
        }
    }
}

/// One rule option of the registry.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub key: &'static str,
    /// The rules-decisions ID the option belongs to.
    pub decision: &'static str,
    pub default: &'static str,
    pub allowed: Allowed,
    pub help: &'static str,
}

/// Every option the tool knows, all systems together.
pub fn registry() -> impl Iterator<Item = &'static OptionSpec> {
    systems::option_specs().iter().flat_map(|s| s.iter())
}

pub fn spec(key: &str) -> Option<&'static OptionSpec> {
    registry().find(|s| s.key == key)
}

/// Rule options set by the user; anything not set reads as its default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleOptions {
    set: BTreeMap<&'static str, String>,
}

impl RuleOptions {
    /// Parses `key=value` pairs as given to `--option`.
    pub fn from_pairs<S: AsRef<str>>(pairs: &[S]) -> Result<RuleOptions, UserError> {
        let mut o = RuleOptions::default();
        for p in pairs {
            let p = p.as_ref();
            let (k, v) = p.split_once('=').ok_or_else(|| {
                UserError::new(format!(
                    "--option `{p}`: expected key=value, e.g. --option super_crit_roll=score"
                ))
            })?;
            o.set(k.trim(), v.trim())?;
        }
        Ok(o)
    }

    /// Sets one option after checking its key and value.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), UserError> {
        let spec = spec(key).ok_or_else(|| {
            let known: Vec<&str> = registry().map(|s| s.key).collect();
            UserError::new(format!(
                "unknown rule option `{key}`; known options: {}",
                known.join(", ")
            ))
        })?;
        if !spec.allowed.check(value) {
            return Err(UserError::new(format!(
                "rule option `{key}` = `{value}` is not allowed; allowed: {} (decision {})",
                spec.allowed.describe(),
                spec.decision
            )));
        }
        self.set.insert(spec.key, value.to_string());
        Ok(())
    }

    /// The value in force (set or default). Keys are program constants.
    pub fn get(&self, key: &str) -> &str {
        match self.set.get(key) {
            Some(v) => v,
            None => spec(key)
                .unwrap_or_else(|| panic!("rule option `{key}` is missing from the registry"))
                .default,
        }
    }

    /// A numeric option (validated on set; defaults are numbers by construction).
    pub fn number(&self, key: &str) -> f64 {
        self.get(key).parse().unwrap_or(f64::NAN)
    }

    /// A set option as its members.
    pub fn members(&self, key: &str) -> Vec<String> {
        match self.get(key) {
            "none" | "" => Vec::new(),
            v => v.split(',').map(|w| w.trim().to_string()).collect(),
        }
    }

    /// The options of the given specs with their values in force, for provenance.
    pub fn in_force(&self, specs: &[OptionSpec]) -> BTreeMap<String, String> {
        specs
            .iter()
            .map(|s| (s.key.to_string(), self.get(s.key).to_string()))
            .collect()
    }

    /// Options explicitly set, for provenance of mixed outputs.
    pub fn explicitly_set(&self) -> BTreeMap<String, String> {
        self.set.iter().map(|(k, v)| (k.to_string(), v.clone())).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_and_overrides() {
        let o = RuleOptions::from_pairs(&["super_crit_roll=score"]).unwrap();
        assert_eq!(o.get("super_crit_roll"), "score");
        assert_eq!(o.get("percent_mode"), "points");
    }

    #[test]
    fn unknown_key_lists_known_options() {
        let e = RuleOptions::from_pairs(&["super_crit=score"]).unwrap_err();
        assert!(e.0.contains("unknown rule option `super_crit`"), "{e}");
        assert!(e.0.contains("super_crit_roll"), "{e}");
    }

    #[test]
    fn bad_value_lists_allowed_values() {
        let e = RuleOptions::from_pairs(&["karma_overflow=wrap"]).unwrap_err();
        assert!(e.0.contains("clamp | cancel"), "{e}");
        assert!(e.0.contains("C-KARMA-1"), "{e}");
        assert!(RuleOptions::from_pairs(&["karma_overflow"]).is_err());
    }

    #[test]
    fn every_registered_default_is_allowed_and_keys_unique() {
        let mut keys = std::collections::BTreeSet::new();
        for s in registry() {
            assert!(s.allowed.check(s.default), "{} default {}", s.key, s.default);
            assert!(keys.insert(s.key), "duplicate option {}", s.key);
        }
    }
}
