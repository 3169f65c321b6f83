//! A validated variants file. Every mistake is reported with file:line:col, the key path
//! (`variants.short_postures.posture_turns`) and what is allowed, before anything runs.

use crate::lang::Lang;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::balance::expect::{option_pair, source, Source};
use crate::balance::figures::Cell;
use crate::error::UserError;
use crate::limits::{check_file_trials, MAX_HEADLINES, MAX_STUDY, MAX_TRIALS, MAX_VARIANTS};
use crate::rules::RuleOptions;
use crate::scenario::ScenarioFile;

use super::raw::{RawFile, RawHeadline};

/// The name of the unchanged rules every variant is compared with.
pub const BOOK: &str = "book";

pub struct VariantsFile {
    pub path: PathBuf,
    pub title: String,
    pub question: String,
    pub seed: u64,
    pub trials: Option<u64>,
    pub alpha: f64,
    pub study: Vec<Source>,
    pub headlines: Vec<Headline>,
    /// In alphabetical order of their names, after the book (which is not listed).
    pub variants: Vec<Variant>,
    /// The text, to locate errors found while computing.
    pub file: ScenarioFile,
}

pub struct Variant {
    pub name: String,
    pub description: String,
    /// `key=value` rule options and parameters.
    pub options: Vec<String>,
}

pub struct Headline {
    pub name: String,
    pub source: Source,
    pub figure: String,
    pub wanted: Vec<(String, Cell)>,
}

impl VariantsFile {
    pub fn read(path: &Path, lang: Lang) -> Result<VariantsFile, UserError> {
        VariantsFile::parse(ScenarioFile::read(path, lang)?)
    }

    pub fn parse(file: ScenarioFile) -> Result<VariantsFile, UserError> {
        let raw: RawFile = file.parse_raw()?;
        let alpha = raw.alpha.unwrap_or(0.05);
        if !(0.0001..=0.5).contains(&alpha) {
            return Err(file.error_at(
                &["alpha"],
                "alpha",
                &tr!(file.lang, "fr_errors.variants.alpha_range", alpha),
                "0.0001..0.5",
            ));
        }
        if let Some(t) = raw.trials {
            check_file_trials(t, MAX_TRIALS, file.lang)
                .map_err(|(msg, allowed)| file.error_at(&["trials"], "trials", &msg, &allowed))?;
        }
        if raw.study.is_empty() || raw.study.len() > MAX_STUDY {
            return Err(file.error_at(
                &["study"],
                "study",
                &tr!(
                    file.lang,
                    "fr_errors.variants.too_many_study",
                    count = raw.study.len()
                ),
                &tr!(
                    file.lang,
                    "fr_errors.variants.too_many_study_allowed",
                    max = MAX_STUDY
                ),
            ));
        }
        let mut study = Vec::new();
        for (i, s) in raw.study.iter().enumerate() {
            let src = source(&file, "study", i, &s.table, &s.scenario, &s.params)?;
            if study.contains(&src) {
                let idx = i.to_string();
                return Err(file.error_at(
                    &["study", &idx],
                    &format!("study[{i}]"),
                    &tr!(
                        file.lang,
                        "fr_errors.variants.studied_twice",
                        source = src.describe()
                    ),
                    tr!(file.lang, "fr_errors.variants.studied_twice_allowed"),
                ));
            }
            study.push(src);
        }
        if raw.headline.len() > MAX_HEADLINES {
            return Err(file.error_at(
                &["headline"],
                "headline",
                &tr!(
                    file.lang,
                    "fr_errors.variants.too_many_headlines",
                    count = raw.headline.len()
                ),
                &format!("0..{MAX_HEADLINES}"),
            ));
        }
        let mut headlines = Vec::new();
        for (i, h) in raw.headline.iter().enumerate() {
            headlines.push(headline(&file, i, h, &study)?);
        }
        if raw.variants.is_empty() || raw.variants.len() > MAX_VARIANTS {
            return Err(file.error_at(
                &["variants"],
                "variants",
                &tr!(
                    file.lang,
                    "fr_errors.variants.too_many_variants",
                    count = raw.variants.len()
                ),
                &tr!(
                    file.lang,
                    "fr_errors.variants.too_many_variants_allowed",
                    max = MAX_VARIANTS
                ),
            ));
        }
        let mut variants = Vec::new();
        for (name, keys) in &raw.variants {
            variants.push(variant(&file, name, keys)?);
        }
        Ok(VariantsFile {
            path: file.path.clone(),
            title: crate::scenario::Text::pick(raw.title, file.lang).unwrap_or_else(|| {
                tr!(
                    file.lang,
                    "fr_errors.variants.default_title",
                    file = file.path.display()
                )
            }),
            question: crate::scenario::Text::pick(raw.question, file.lang).unwrap_or_else(|| {
                tr!(file.lang, "fr_errors.variants.default_question").to_string()
            }),
            seed: raw.seed.unwrap_or(1),
            trials: raw.trials,
            alpha,
            study,
            headlines,
            variants,
            file,
        })
    }

    /// An error about `[[study]]` entry `i`, found while computing it.
    pub fn study_error(&self, i: usize, message: &str, lang: Lang) -> UserError {
        let idx = i.to_string();
        self.file.error_at(
            &["study", &idx],
            &format!("study[{i}]"),
            message,
            tr!(lang, "fr_errors.variants.study_allowed"),
        )
    }

    /// An error about `[[headline]]` entry `i`'s figure, found once the outputs exist.
    pub fn headline_error(&self, i: usize, message: &str, lang: Lang) -> UserError {
        let idx = i.to_string();
        self.file.error_at(
            &["headline", &idx, "figure"],
            &format!("headline[{i}].figure"),
            message,
            tr!(lang, "fr_errors.variants.headline_allowed"),
        )
    }
}

fn headline(
    file: &ScenarioFile,
    i: usize,
    h: &RawHeadline,
    study: &[Source],
) -> Result<Headline, UserError> {
    let idx = i.to_string();
    if h.name.trim().is_empty() {
        return Err(file.error_at(
            &["headline", &idx, "name"],
            &format!("headline[{i}].name"),
            tr!(file.lang, "fr_errors.common.empty_name"),
            tr!(file.lang, "fr_errors.variants.empty_name_allowed"),
        ));
    }
    let src = source(file, "headline", i, &h.table, &h.scenario, &h.params)?;
    if !study.contains(&src) {
        return Err(file.error_at(
            &["headline", &idx],
            &format!("headline[{i}]"),
            &tr!(
                file.lang,
                "fr_errors.variants.not_studied",
                source = src.describe()
            ),
            tr!(file.lang, "fr_errors.variants.not_studied_allowed"),
        ));
    }
    let mut wanted = Vec::new();
    for (k, v) in &h.where_ {
        let c = Cell::from_toml(v).ok_or_else(|| {
            file.error_at(
                &["headline", &idx, "where", k],
                &format!("headline[{i}].where.{k}"),
                tr!(file.lang, "fr_errors.variants.not_cell"),
                tr!(file.lang, "fr_errors.variants.not_cell_allowed"),
            )
        })?;
        wanted.push((k.clone(), c));
    }
    Ok(Headline {
        name: h.name.clone(),
        source: src,
        figure: h.figure.clone(),
        wanted,
    })
}

fn variant(
    file: &ScenarioFile,
    name: &str,
    keys: &BTreeMap<String, toml::Value>,
) -> Result<Variant, UserError> {
    let valid_name = !name.is_empty()
        && name.len() <= 40
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if !valid_name || name == BOOK {
        return Err(file.error_at(
            &["variants", name],
            &format!("variants.{name}"),
            tr!(file.lang, "fr_errors.variants.bad_name"),
            tr!(file.lang, "fr_errors.variants.bad_name_allowed"),
        ));
    }
    let mut description = String::new();
    let mut options = Vec::new();
    for (k, v) in keys {
        if k == "description" {
            description = v.as_str().map(str::to_string).ok_or_else(|| {
                file.error_at(
                    &["variants", name, k],
                    &format!("variants.{name}.description"),
                    tr!(file.lang, "fr_errors.variants.description_not_string"),
                    tr!(file.lang, "fr_errors.variants.description_allowed"),
                )
            })?;
            continue;
        }
        options.push(option_pair(
            file,
            &["variants", name, k],
            &format!("variants.{name}.{k}"),
            (k, v),
        )?);
    }
    // Constraints between the variant's parameters (C-FAT-4), before anything runs.
    if let Some((key, message, allowed)) = RuleOptions::from_pairs(&options, file.lang)
        .ok()
        .and_then(|o| o.conflict(file.lang))
    {
        let key = [key, "fatigue_exhausted_at"]
            .into_iter()
            .find(|k| options.iter().any(|p| p.starts_with(&format!("{k}="))))
            .unwrap_or(key);
        return Err(file.error_at(
            &["variants", name, key],
            &format!("variants.{name}.{key}"),
            &message,
            allowed,
        ));
    }
    if options.is_empty() {
        return Err(file.error_at(
            &["variants", name],
            &format!("variants.{name}"),
            tr!(file.lang, "fr_errors.variants.changes_nothing"),
            tr!(file.lang, "fr_errors.variants.changes_nothing_allowed"),
        ));
    }
    Ok(Variant {
        name: name.to_string(),
        description,
        options,
    })
}

impl VariantsFile {
    /// Refuses a file whose runs ask for more than [`crate::limits::MAX_EXPECT_TRIALS`]
    /// trials in all (the book and every variant, on every studied table or scenario, at
    /// its `trials` or the source's own count), located at the study that passes the cap,
    /// before anything runs. `flag` is true when the count came from `--trials`.
    pub fn check_work(&self, flag: bool, lang: Lang) -> Result<u64, UserError> {
        let max = crate::limits::MAX_EXPECT_TRIALS;
        let runs = self.variants.len() as u64 + 1;
        let mut total: u64 = 0;
        for (i, s) in self.study.iter().enumerate() {
            let per = self
                .trials
                .unwrap_or_else(|| crate::balance::expect::default_trials(s));
            // Each rule set runs in full, then again in paired blocks of as many trials.
            let blocks = super::paired::block_trials(per).saturating_mul(super::paired::BLOCKS);
            total = total.saturating_add(per.saturating_add(blocks).saturating_mul(runs));
            if total > max {
                let message = tr!(lang, "safety.work.variants_work", runs, total, max);
                let allowed = tr!(lang, "safety.work.variants_work_allowed");
                if flag {
                    return Err(UserError::new(format!("--trials: {message}; {allowed}")));
                }
                let idx = i.to_string();
                let (path, shown): (Vec<&str>, String) = if self.trials.is_some() {
                    (vec!["trials"], "trials".to_string())
                } else {
                    (vec!["study", &idx], format!("study[{i}]"))
                };
                return Err(self.file.error_at(&path, &shown, &message, allowed));
            }
        }
        Ok(total)
    }
}
