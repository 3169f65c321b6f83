//! A variants file as written (serde); `model.rs` validates it.

use std::collections::BTreeMap;

use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFile {
    #[serde(default)]
    pub title: Option<crate::scenario::Text>,
    /// The designer's question, in their words (opens variants.md).
    #[serde(default)]
    pub question: Option<crate::scenario::Text>,
    /// Language of the pages written (`"en"`, `"fr"`): read by the command before
    /// validation (`crate::lang`), accepted here so the file stays one shape.
    #[allow(dead_code)]
    pub lang: Option<String>,
    /// Seed of every run (default 1): the book and every variant share it.
    pub seed: Option<u64>,
    /// Trials of every Monte Carlo run (default: each table's or scenario's own).
    pub trials: Option<u64>,
    /// False-discovery rate of the Monte Carlo moves (default 0.05).
    pub alpha: Option<f64>,
    #[serde(default)]
    pub study: Vec<RawSource>,
    #[serde(default)]
    pub headline: Vec<RawHeadline>,
    /// `[variants.<name>]`: `description` plus option/parameter values.
    #[serde(default)]
    pub variants: BTreeMap<String, BTreeMap<String, toml::Value>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSource {
    pub table: Option<String>,
    pub scenario: Option<String>,
    /// The table's flags, without dashes: `{ thresholds = "50" }`.
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawHeadline {
    pub name: String,
    pub table: Option<String>,
    pub scenario: Option<String>,
    #[serde(default)]
    pub params: BTreeMap<String, toml::Value>,
    /// `<output>.<column>`, or the column alone for a one-output table.
    pub figure: String,
    #[serde(default, rename = "where")]
    pub where_: BTreeMap<String, toml::Value>,
}
