use std::path::PathBuf;

use crate::context::Context;
use crate::error::UserError;
use crate::limits::{check_file_trials, check_trials, MAX_TRIALS};
use crate::report::Output;
use crate::rules::RuleOptions;
use crate::scenario::{RunSection, ScenarioFile};

/// Lists the defaults a valid file relies on (see [`ScenarioKind::defaults`]).
pub type Defaults = fn(&ScenarioFile) -> Result<Vec<String>, UserError>;

/// A kind of scenario file, picked by its `system` key.
///
/// There is one validation: `check` calls `run` with [`RunOverrides::check_only`] set, and
/// [`RunOverrides::resolve`] — the step every kind takes once its file is validated and
/// before any work — stops it there with [`CheckedOnly`]. So whatever `run` refuses,
/// `check` refuses too.
pub struct ScenarioKind {
    pub system: &'static str,
    /// The file's `kind` key when a system has several kinds of scenario (cosmos:
    /// `combat`, `creation`, ...); `None` when the system has one.
    pub kind: Option<&'static str>,
    /// The defaults a valid file relies on without writing them, one line each, from the
    /// same validation as `check` and `run`; `check` prints them (None: none listed).
    pub defaults: Option<Defaults>,
    /// Validates and runs the file.
    pub run: fn(&ScenarioFile, &RunOverrides) -> anyhow::Result<ScenarioResult>,
    /// Replays single trials of a run (`cosmosim trace`, issue 27), the same validation
    /// and settings as `run`: every kind has one.
    pub trace:
        fn(&ScenarioFile, &super::trace::TraceRequest) -> anyhow::Result<super::trace::TraceResult>,
}

/// A `check` run stopped after validation: not an error for the user.
#[derive(Debug, thiserror::Error)]
#[error("scenario checked (not run)")]
pub struct CheckedOnly;

/// What a scenario run produced: outputs (CSV/PNG/meta) and a `summary.md` that opens with
/// the answers.
pub struct ScenarioResult {
    /// Short title, e.g. "Apocalypse: how often does it fire?".
    pub title: String,
    /// The question the scenario answers (its file's `question` key).
    pub question: String,
    /// The headline answers, also at the top of `summary.md`.
    pub key_figures: Vec<String>,
    pub outputs: Vec<Output>,
    /// The whole `summary.md`.
    pub summary: String,
}

impl ScenarioResult {
    pub fn new(
        title: &str,
        question: &str,
        key_figures: Vec<String>,
        outputs: Vec<Output>,
        summary: String,
    ) -> Self {
        ScenarioResult {
            title: title.into(),
            question: question.into(),
            key_figures,
            outputs,
            summary,
        }
    }
}

/// A kind's trial count: its default and its cap. [`RunOverrides::resolve`] checks the
/// cap against `[run] trials` and `--trials` alike, so `check` refuses what `run` would.
#[derive(Clone, Copy, Debug)]
pub struct TrialLimits {
    pub default: u64,
    pub max: u64,
}

/// A default alone: the cap is the tool's ([`MAX_TRIALS`]).
impl From<u64> for TrialLimits {
    fn from(default: u64) -> TrialLimits {
        TrialLimits {
            default,
            max: MAX_TRIALS,
        }
    }
}

/// A rule family the previous edition lacks (C-EDITION: "The previous edition has no
/// genetics, affiliation or endurance rules"). A kind made of one refuses
/// `edition = previous` before any work, in `check` as in `run`: with the family's numbers
/// at 0 its figures would follow a rule of neither book (audit of 2026-12-06).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CurrentOnly {
    Genetics,
    Endurance,
    /// The progressive skill-sheet model (skill points spent on a tree, C-LEVEL-3): the
    /// previous book's "Fiche compétences" has one fixed model (audit of 2026-12-07).
    SkillPoints,
}

impl CurrentOnly {
    fn rule(self, lang: crate::lang::Lang) -> &'static str {
        match self {
            CurrentOnly::Genetics => tr!(lang, "run.edition_rule_genetics"),
            CurrentOnly::Endurance => tr!(lang, "run.edition_rule_endurance"),
            CurrentOnly::SkillPoints => tr!(lang, "run.edition_rule_skill_points"),
        }
    }
}

/// Settings from the command line; each `Some` wins over the scenario file's `[run]`.
#[derive(Clone, Debug, Default)]
pub struct RunOverrides {
    pub trials: Option<u64>,
    pub seed: Option<u64>,
    pub threads: usize,
    pub options: Vec<String>,
    pub quiet: bool,
    /// A shard or a merge (`engine::shard`): the engine of the run computes in it.
    pub mode: Option<&'static crate::engine::shard::Mode>,
    pub out: Option<PathBuf>,
    /// Stop at [`RunOverrides::resolve`]: validate everything, run nothing.
    pub check_only: bool,
    /// Grid points a sweep may have (default [`crate::limits::DEFAULT_MAX_GRID_POINTS`]).
    pub max_points: Option<u64>,
}

impl RunOverrides {
    /// The context and trial count of a run: command line over `[run]` over defaults;
    /// `[rules]` of the file, then `--option` flags on top.
    pub fn resolve(
        &self,
        file: &ScenarioFile,
        run: &RunSection,
        rules: &std::collections::BTreeMap<String, toml::Value>,
        limits: impl Into<TrialLimits>,
    ) -> anyhow::Result<(Context, u64)> {
        self.resolve_needing(file, run, rules, limits, None)
    }

    /// [`Self::resolve`] for a kind made of a rule family only the current edition has:
    /// `edition = previous` (from `[rules]` or `--option`) is refused, located at the
    /// file's key when it sets it.
    pub fn resolve_needing(
        &self,
        file: &ScenarioFile,
        run: &RunSection,
        rules: &std::collections::BTreeMap<String, toml::Value>,
        limits: impl Into<TrialLimits>,
        needs: Option<CurrentOnly>,
    ) -> anyhow::Result<(Context, u64)> {
        let limits = limits.into();
        let mut options: RuleOptions = file.rule_options(rules)?;
        for (k, v) in RuleOptions::from_pairs(&self.options, file.lang)?.explicitly_set() {
            options.set(&k, &v, file.lang)?;
        }
        // Constraints between parameters (C-FAT-4), pointed at the file's `[rules]` key
        // when the file sets one of the two; the same check for `check` and `run`.
        if let Some((key, message, allowed)) = options.conflict(file.lang) {
            let at = [key, "fatigue_exhausted_at"]
                .into_iter()
                .find(|k| rules.contains_key(*k));
            return Err(match at {
                Some(k) => file.error_at(&["rules", k], &format!("rules.{k}"), &message, allowed),
                None => options.check_together(file.lang).unwrap_err(),
            }
            .into());
        }
        if let Some(family) = needs.filter(|_| options.get("edition") == "previous") {
            let message = tr!(
                file.lang,
                "run.edition_lacks",
                rule = family.rule(file.lang)
            );
            return Err(if rules.contains_key("edition") {
                let allowed = tr!(file.lang, "run.edition_lacks_allowed");
                file.error_at(&["rules", "edition"], "rules.edition", &message, allowed)
            } else {
                UserError::new(tr!(file.lang, "run.edition_lacks_option", message))
            }
            .into());
        }
        let seed = self.seed.or(run.seed).unwrap_or(1);
        if let Some(w) = run.stalemate_warning {
            if !(0.0..=1.0).contains(&w) {
                return Err(file
                    .error_at(
                        &["run", "stalemate_warning"],
                        "run.stalemate_warning",
                        &tr!(file.lang, "run.stalemate_out_of_range", value = w),
                        "0.0..1.0, e.g. 0.05",
                    )
                    .into());
            }
        }
        let max = limits.max.min(MAX_TRIALS);
        if let Some(t) = run.trials {
            if let Err((msg, allowed)) = check_file_trials(t, max, file.lang) {
                return Err(file
                    .error_at(&["run", "trials"], "run.trials", &msg, &allowed)
                    .into());
            }
        }
        let trials = check_trials(
            "--trials",
            self.trials.or(run.trials).unwrap_or(limits.default),
            file.lang,
        )?;
        if trials > max {
            return Err(UserError::new(tr!(
                file.lang,
                "cli.trials_out_of_range",
                what = "--trials",
                trials,
                max
            ))
            .into());
        }
        let mut ctx = Context::new(seed, self.threads, options, self.quiet, file.lang)?;
        ctx.engine = ctx.engine.in_mode(self.mode);
        ctx.stream = file.stream_key();
        if self.check_only {
            return Err(CheckedOnly.into());
        }
        Ok((ctx, trials))
    }
}
