//! `expect.meta.json`: what an `expect` run's verdicts rest on (audit of 2026-12-07: the
//! folder recorded no tool version, seed or options, where every other output has its
//! sidecar `.meta.json`). `"command": "expect"` marks it as a command's record, not an
//! output's provenance, so `compare` leaves `expect.csv` out.

use std::collections::BTreeMap;

use serde::Serialize;

use super::model::{Check, ExpectFile};
use super::report::FileOutcomes;
use super::source::Source;
use crate::report::file_sha256;

/// The command line's settings in force over every file.
pub struct RunSettings<'a> {
    /// `--seed` (each file's `seed` else the source's own when absent).
    pub seed: Option<u64>,
    /// `--option key=value`, under every expectation.
    pub options: &'a [String],
    /// `--max-trials`, the cap of every Monte Carlo run.
    pub max_trials: Option<u64>,
}

#[derive(Serialize)]
struct Meta<'a> {
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    stream_version: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    max_trials: Option<u64>,
    rule_options: BTreeMap<&'a str, &'a str>,
    files: Vec<FileMeta<'a>>,
}

#[derive(Serialize)]
struct FileMeta<'a> {
    path: String,
    sha256: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    seed: Option<u64>,
    expectations: Vec<ExpectationMeta<'a>>,
}

#[derive(Serialize)]
struct ExpectationMeta<'a> {
    name: &'a str,
    source: String,
    /// The scenario file's (or published table file's) SHA-256, read now.
    #[serde(skip_serializing_if = "Option::is_none")]
    source_sha256: Option<String>,
    rule_options: BTreeMap<&'a str, &'a str>,
    confidence: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    trials: Option<u64>,
    /// The trials of the last look in force (the file's `max_trials`, else four times
    /// the first look, under `--max-trials`); the file's own value for an exact check.
    #[serde(skip_serializing_if = "Option::is_none")]
    max_trials: Option<u64>,
    /// The trials of each look the schedule allowed (their count sets each look's
    /// confidence): audit of 2026-12-07, evening, where only a `max_trials` the file set
    /// was recorded.
    #[serde(skip_serializing_if = "<[u64]>::is_empty")]
    looks: &'a [u64],
    /// The trials of the run the verdict was taken on.
    #[serde(skip_serializing_if = "Option::is_none")]
    trials_run: Option<u64>,
    verdict: &'static str,
}

fn pairs(options: &[String]) -> BTreeMap<&str, &str> {
    options
        .iter()
        .filter_map(|o| o.split_once('='))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect()
}

fn sha_of(path: &std::path::Path) -> Option<String> {
    std::fs::read(path).ok().map(|b| file_sha256(&b))
}

/// The JSON of `expect.meta.json` for `files` judged as `results`.
pub fn meta_json(files: &[ExpectFile], results: &[FileOutcomes], run: &RunSettings) -> String {
    let meta = Meta {
        tool: env!("CARGO_PKG_NAME"),
        version: env!("CARGO_PKG_VERSION"),
        command: "expect",
        stream_version: crate::engine::STREAM_VERSION,
        seed: run.seed,
        max_trials: run.max_trials,
        rule_options: pairs(run.options),
        files: files
            .iter()
            .zip(results)
            .map(|(f, r)| FileMeta {
                path: f.path.display().to_string(),
                sha256: &f.file.sha256,
                seed: f.seed,
                expectations: f
                    .expectations
                    .iter()
                    .zip(&r.outcomes)
                    .map(|(e, o)| ExpectationMeta {
                        name: &e.name,
                        source: e.source.describe(),
                        source_sha256: match (&e.check, &e.source) {
                            (Check::TableFile { path, .. }, _) => sha_of(path),
                            (_, Source::Scenario(p)) => sha_of(p),
                            _ => None,
                        },
                        rule_options: pairs(&e.options),
                        confidence: e.confidence,
                        trials: e.trials,
                        max_trials: o.looks.last().copied().or(e.max_trials),
                        looks: &o.looks,
                        trials_run: o.trials,
                        verdict: o.verdict.as_str(),
                    })
                    .collect(),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&meta).unwrap_or_default() + "\n"
}
