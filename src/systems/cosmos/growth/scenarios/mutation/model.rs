//! The mutation file: raw keys and their validation into a [`MutationModel`].

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::error::UserError;
use crate::scenario::{RunSection, ScenarioFile};
use crate::systems::cosmos::growth::genetics::{
    sample_tree, DiceExpr, GeneTree, Phase, RawGene, Schedule,
};
use crate::systems::cosmos::growth::scenarios::Parsed;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Raw {
    system: String,
    kind: String,
    title: Option<String>,
    question: Option<String>,
    /// Language of the pages written (`"en"`, `"fr"`): read by the command before
    /// validation (`crate::lang`), accepted here so the file stays one shape.
    #[allow(dead_code)]
    lang: Option<String>,
    #[serde(default)]
    run: RunSection,
    #[serde(default)]
    rules: BTreeMap<String, toml::Value>,
    mutation: RawMutation,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMutation {
    chance: i64,
    #[serde(default)]
    karma: i64,
    max_days: i64,
    #[serde(default)]
    therapy_every_days: i64,
    /// "sample" for the shipped illustrative tree; otherwise `genes` is required.
    tree: Option<String>,
    #[serde(default)]
    genes: Vec<RawGene>,
    schedule: Vec<RawPhase>,
    sweep: Option<RawSweep>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPhase {
    days: Option<i64>,
    pmu: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSweep {
    chance: Vec<i64>,
    karma: Vec<i64>,
}

/// The validated model.
#[derive(Clone, Debug)]
pub struct MutationModel {
    pub tree: GeneTree,
    pub sample: bool,
    pub schedule: Schedule,
    pub chance: i64,
    pub karma: i8,
    pub max_days: u32,
    pub therapy_every: u32,
    pub sweep: Option<(Vec<i64>, Vec<i64>)>,
}

fn err(file: &ScenarioFile, path: &[&str], msg: String, allowed: &str) -> UserError {
    file.error_at(
        path,
        &crate::systems::cosmos::growth::scenarios::shown_key(path),
        &msg,
        allowed,
    )
}

/// Validates a mutation file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<MutationModel>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let m = &raw.mutation;
    if !(1..=100).contains(&m.chance) {
        return Err(err(
            file,
            &["mutation", "chance"],
            format!("{} is out of range", m.chance),
            "1..100 (the Chance stat)",
        ));
    }
    if !(-10..=10).contains(&m.karma) {
        return Err(err(
            file,
            &["mutation", "karma"],
            format!("{} is out of range", m.karma),
            "-10..10 (C-TEST-3)",
        ));
    }
    if !(1..=3650).contains(&m.max_days) {
        return Err(err(
            file,
            &["mutation", "max_days"],
            format!("{} is out of range", m.max_days),
            "1..3650 days",
        ));
    }
    if !(0..=3650).contains(&m.therapy_every_days) {
        return Err(err(
            file,
            &["mutation", "therapy_every_days"],
            format!("{} is out of range", m.therapy_every_days),
            "0 (never) ..3650",
        ));
    }
    let (tree, sample) = match (m.tree.as_deref(), m.genes.is_empty()) {
        (Some("sample"), true) => (sample_tree(), true),
        (Some("sample"), false) => {
            return Err(err(
                file,
                &["mutation", "tree"],
                "tree = \"sample\" and [[mutation.genes]] both given".into(),
                "one of them",
            ))
        }
        (Some(other), _) => {
            return Err(err(
                file,
                &["mutation", "tree"],
                format!("unknown tree \"{other}\""),
                "\"sample\" (or leave out `tree` and list [[mutation.genes]])",
            ))
        }
        (None, _) => (
            GeneTree::build(file, &["mutation", "genes"], &m.genes)?,
            false,
        ),
    };
    if m.schedule.is_empty() {
        return Err(err(
            file,
            &["mutation", "schedule"],
            "no exposure phase".into(),
            "at least one [[mutation.schedule]] with pmu = \"2d10\" (dice per day)",
        ));
    }
    let mut phases = Vec::new();
    for (i, p) in m.schedule.iter().enumerate() {
        let is = i.to_string();
        let dice = DiceExpr::parse(&p.pmu).map_err(|_| {
            err(
                file,
                &["mutation", "schedule", &is, "pmu"],
                format!("\"{}\" is not a dice expression", p.pmu),
                "NdF, NdF+K or K, e.g. \"2d10\", \"1d6+3\", \"15\"",
            )
        })?;
        let days = match p.days {
            Some(d) if (1..=3650).contains(&d) => Some(d as u32),
            Some(d) => {
                return Err(err(
                    file,
                    &["mutation", "schedule", &is, "days"],
                    format!("{d} is out of range"),
                    "1..3650 (leave out on the last phase to last to the end)",
                ))
            }
            None => None,
        };
        phases.push(Phase { days, dice });
    }
    let sweep = match &m.sweep {
        None => None,
        Some(s) => {
            if s.chance.is_empty() || s.chance.iter().any(|c| !(1..=100).contains(c)) {
                return Err(err(
                    file,
                    &["mutation", "sweep", "chance"],
                    format!("{:?} is not a list of Chance values", s.chance),
                    "1..100, at least one",
                ));
            }
            if s.karma.is_empty() || s.karma.iter().any(|k| !(-10..=10).contains(k)) {
                return Err(err(
                    file,
                    &["mutation", "sweep", "karma"],
                    format!("{:?} is not a list of karma values", s.karma),
                    "-10..10, at least one",
                ));
            }
            Some((s.chance.clone(), s.karma.clone()))
        }
    };
    let model = MutationModel {
        tree,
        sample,
        schedule: Schedule { phases },
        chance: m.chance,
        karma: m.karma as i8,
        max_days: m.max_days as u32,
        therapy_every: m.therapy_every_days as u32,
        sweep,
    };
    Ok((model, raw.rules, raw.run, raw.title, raw.question))
}

/// Validates the file.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (_, rules, ..) = model(file)?;
    file.rule_options(&rules)?;
    Ok(())
}
