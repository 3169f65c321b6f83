//! An expectations file as written (serde); `model.rs` validates it.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    #[serde(default)]
    pub title: Option<crate::scenario::Text>,
    /// Language of `expect.md` and messages (`"en"`, `"fr"`): read by the command first.
    #[allow(dead_code)]
    pub lang: Option<String>,
    /// Default confidence of every expectation (0.95).
    pub confidence: Option<f64>,
    /// Seed of every run (default: each table's or scenario's own).
    pub seed: Option<u64>,
    #[serde(default)]
    pub expect: Vec<RawExpect>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExpect {
    pub name: String,
    pub table: Option<String>,
    pub scenario: Option<String>,
    /// The table's flags, without dashes: `{ thresholds = "50", method = "mc" }`.
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    /// Rule options for this expectation.
    #[serde(default)]
    pub options: BTreeMap<String, toml::Value>,
    pub figure: Option<String>,
    #[serde(default, rename = "where")]
    pub where_: BTreeMap<String, toml::Value>,
    pub between: Option<Vec<f64>>,
    pub at_least: Option<f64>,
    pub at_most: Option<f64>,
    pub equals: Option<f64>,
    pub tolerance: Option<f64>,
    pub confidence: Option<f64>,
    pub trials: Option<u64>,
    pub max_trials: Option<u64>,
    pub table_file: Option<String>,
    pub precision: Option<f64>,
    pub output: Option<String>,
}
