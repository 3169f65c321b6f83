//! What judging an expectation needs and gives: the command layer's [`Compute`], the
//! run's [`Settings`], and the [`Outcome`] of one expectation.

use std::rc::Rc;

use crate::report::Output;

use super::decide::Verdict;
use super::model::Expectation;
use super::source::Source;

/// Computes a source's outputs at a trial count (None = the source's own), with rule
/// options `key=value`. The command layer implements it (tables via their clap flags,
/// scenarios in-process) and may cache results.
pub trait Compute {
    fn outputs(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
    ) -> anyhow::Result<Rc<Vec<Output>>>;

    /// The same at each of `seeds` instead of the run's seed (the paired blocks of
    /// `variants`), in the order of `seeds`.
    fn outputs_at_seeds(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
        seeds: &[u64],
    ) -> anyhow::Result<Vec<Rc<Vec<Output>>>>;

    /// Refuses what `outputs` would refuse about the source itself (a table flag, a
    /// scenario file `check` refuses), with the same message, without computing anything.
    fn validate(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
    ) -> anyhow::Result<()>;

    /// The source's outputs from a short run (a few hundred trials where the source takes
    /// a trial count, else as `trials` asks), nothing cached, written or warned: their
    /// names and key rows, to refuse a misspelt figure before anything long runs.
    fn probe(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
    ) -> anyhow::Result<Vec<Output>>;
}

/// Run-wide settings from the command line.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Caps every Monte Carlo run.
    pub max_trials: Option<u64>,
}

impl Settings {
    /// The trials of each look at `e`, once the first run told the source's default: up to
    /// the expectation's `max_trials` (else four times the first), under `--max-trials`.
    pub(super) fn schedule(&self, e: &Expectation, first: u64) -> Vec<u64> {
        let max = e.max_trials.unwrap_or(first.saturating_mul(4));
        super::decide::looks(first, self.max_trials.map_or(max, |cap| max.min(cap)))
    }
}

/// The verdict on one expectation and what backs it.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub name: String,
    pub source: String,
    /// `figure where k = v`, or `table_file path`.
    pub what: String,
    pub method: &'static str,
    pub value: Option<f64>,
    /// The interval the verdict was taken on, and its confidence.
    pub interval: Option<(f64, f64)>,
    pub confidence: Option<f64>,
    /// The band in English words, for expect.csv.
    pub band: String,
    /// The band in the page's language, for expect.md.
    pub band_shown: String,
    pub verdict: Verdict,
    pub trials: Option<u64>,
    /// The trials of each look the schedule allowed (Monte Carlo; empty when exact): the
    /// last is the expectation's `max_trials` in force, recorded in expect.meta.json.
    pub looks: Vec<u64>,
    /// Signed distance outside the band (failures and undecided).
    pub miss: Option<f64>,
    /// In English, for expect.csv and junit.xml (scripts and CI logs read them).
    pub message: String,
    /// The message in the page's language, for expect.md and the terminal.
    pub message_shown: String,
}
