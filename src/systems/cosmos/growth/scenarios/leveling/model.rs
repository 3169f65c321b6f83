//! The leveling file validated into a [`LevelingModel`] (raw keys in `raw.rs`).

use super::super::common::{bad, threshold, unique_name};
use super::super::creation::{policy as creation_policy, sheets};
use super::raw::*;
use super::skills_model::{skill_plan, SkillPlan};
use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::creation::{CreationPolicy, MovePolicy};
use crate::systems::cosmos::growth::genetics::{DnaPolicy, GeneTree, Wish};
use crate::systems::cosmos::growth::leveling::{Campaign, LaterLevels, LevelPolicy, StatTarget};
use crate::systems::cosmos::growth::races::Races;
use crate::systems::cosmos::growth::scenarios::Parsed;
use crate::systems::cosmos::growth::stats::Stat;

/// The validated model.
#[derive(Clone, Debug, PartialEq)]
pub struct LevelingModel {
    pub creation: CreationPolicy,
    pub levels: LevelPolicy,
    pub max_level: u32,
    /// DNA spending on a gene tree, when `[leveling.dna]` is given.
    pub dna: Option<DnaPlan>,
    /// Stat builds (`[[leveling.builds]]`): `levels` with every stat gain aimed by weights.
    pub builds: Vec<(String, LevelPolicy)>,
    /// Race/class sheets of `[[creation.races]]` (the conflict reading is set from the
    /// options when the file runs).
    pub races: Races,
    /// `race_limits_levelling = always`: the final sheet binds level-ups too.
    pub limit_levels: bool,
    /// Skill points spent on a tree, when `[leveling.skills]` is given.
    pub skills: Option<SkillPlan>,
    /// `[leveling] level5_move_points` as written (checked against the parameter
    /// `level5_move_max` in force by [`level5_within`]).
    pub level5_given: Option<i64>,
}

/// The largest `level5_move_max` (its registry range): the file's own bound.
const LEVEL5_MOVE_LIMIT: i64 = 100;

/// At most this many stat builds.
pub const MAX_BUILDS: usize = 4;

/// At most this many DNA policies, wishes per policy and genes.
pub const MAX_DNA_POLICIES: usize = 4;
pub const MAX_WISHES: usize = 32;
pub const MAX_GENES: usize = 64;

/// A gene tree and the DNA policies compared on it (issue 10 item 11).
#[derive(Clone, Debug, PartialEq)]
pub struct DnaPlan {
    pub tree: GeneTree,
    pub policies: Vec<(String, DnaPolicy)>,
}

fn dna_plan(file: &ScenarioFile, d: &RawDna) -> Result<DnaPlan, UserError> {
    if d.genes.is_empty() || d.genes.len() > MAX_GENES {
        return Err(bad(
            file,
            &["leveling", "dna", "genes"],
            tr!(file.lang, "growth.lvalid.genes", count = d.genes.len()),
            &tr!(file.lang, "growth.lvalid.genes_allowed", max = MAX_GENES),
        ));
    }
    let tree = GeneTree::build(file, &["leveling", "dna", "genes"], &d.genes)?;
    if d.policies.is_empty() || d.policies.len() > MAX_DNA_POLICIES {
        return Err(bad(
            file,
            &["leveling", "dna", "policies"],
            tr!(
                file.lang,
                "growth.lvalid.policies",
                count = d.policies.len()
            ),
            &tr!(
                file.lang,
                "growth.lvalid.policies_allowed",
                max = MAX_DNA_POLICIES
            ),
        ));
    }
    let names: Vec<&str> = tree.genes.iter().map(|g| g.name.as_str()).collect();
    let mut policies: Vec<(String, DnaPolicy)> = Vec::new();
    for (i, p) in d.policies.iter().enumerate() {
        let is = i.to_string();
        let at = ["leveling", "dna", "policies", is.as_str()];
        let name = unique_name(file, &[&at[..], &["name"]].concat(), &p.name, |x| {
            policies.iter().any(|(n, _)| n == x)
        })?;
        if p.wishes.is_empty() || p.wishes.len() > MAX_WISHES {
            return Err(bad(
                file,
                &[&at[..], &["wishes"]].concat(),
                tr!(file.lang, "growth.lvalid.wishes", count = p.wishes.len()),
                &tr!(file.lang, "growth.lvalid.wishes_allowed", max = MAX_WISHES),
            ));
        }
        let mut wishes = Vec::new();
        for (j, w) in p.wishes.iter().enumerate() {
            let js = j.to_string();
            let (g, n) = match w.split_once(':') {
                Some((g, n)) => (g.trim(), n.trim().parse::<u32>().ok()),
                None => (w.trim(), Some(u32::MAX)),
            };
            let gene = names.iter().position(|x| *x == g);
            let (Some(gene), Some(n)) = (gene, n) else {
                return Err(bad(
                    file,
                    &[&at[..], &["wishes", js.as_str()]].concat(),
                    tr!(file.lang, "growth.lvalid.not_gene", wish = w),
                    &tr!(
                        file.lang,
                        "growth.lvalid.not_gene_allowed",
                        names = names.join(", ")
                    ),
                ));
            };
            let max = tree.genes[gene].max;
            if n == 0 {
                return Err(bad(
                    file,
                    &[&at[..], &["wishes", js.as_str()]].concat(),
                    tr!(file.lang, "growth.lvalid.no_allele", wish = w),
                    &tr!(file.lang, "growth.lvalid.no_allele_allowed", max, gene = g),
                ));
            }
            wishes.push(Wish {
                gene,
                alleles: n.min(max),
            });
        }
        policies.push((name, DnaPolicy { wishes }));
    }
    Ok(DnaPlan { tree, policies })
}

/// Highest level simulated.
pub const MAX_LEVEL: i64 = 30;
/// Highest build weight.
pub const MAX_WEIGHT: i64 = 1000;

/// `[leveling.later]` or one `[[leveling.schedule]]` entry, under `at`.
fn later(file: &ScenarioFile, at: &[&str], r: &RawLater) -> Result<LaterLevels, UserError> {
    let k = |key: &'static str| [at, &[key]].concat();
    Ok(LaterLevels {
        stat_die: die(file, &k("stat_die"), r.stat_die)?,
        stat_count: ranged(
            file,
            &k("stat_count"),
            r.stat_count,
            1,
            0,
            6,
            tr!(file.lang, "growth.lvalid.why_stat_count"),
        )? as usize,
        stat_target: r.stat_target.unwrap_or_default(),
        hp_die: die(file, &k("hp_die"), r.hp_die)?,
        pm_die: die(file, &k("pm_die"), r.pm_die)?,
    })
}

/// `stat_weights = { force = 3, ... }`: known stats, 0..MAX_WEIGHT, one at least > 0.
fn weights(
    file: &ScenarioFile,
    base: &[&str],
    w: &std::collections::BTreeMap<String, i64>,
) -> Result<[u32; 6], UserError> {
    let mut out = [0u32; 6];
    for (name, v) in w {
        let at = [base, &[name.as_str()]].concat();
        let Some(s) = Stat::parse(name) else {
            return Err(bad(
                file,
                &at,
                tr!(file.lang, "growth.lvalid.not_stat", name),
                &Stat::names(),
            ));
        };
        out[s as usize] = ranged(
            file,
            &at,
            Some(*v),
            0,
            0,
            MAX_WEIGHT,
            tr!(file.lang, "growth.lvalid.why_weight"),
        )? as u32;
    }
    if out.iter().all(|x| *x == 0) {
        return Err(bad(
            file,
            base,
            tr!(file.lang, "growth.lvalid.all_zero"),
            &tr!(
                file.lang,
                "growth.lvalid.all_zero_allowed",
                max = MAX_WEIGHT
            ),
        ));
    }
    Ok(out)
}

const DICE: [i64; 8] = [0, 4, 6, 8, 10, 12, 20, 100];

fn ranged(
    file: &ScenarioFile,
    path: &[&str],
    v: Option<i64>,
    default: i64,
    lo: i64,
    hi: i64,
    why: &str,
) -> Result<i64, UserError> {
    let why = format!(" ({why})");
    super::super::common::in_range(file, path, v.unwrap_or(default), lo, hi, &why)
}

fn die(file: &ScenarioFile, path: &[&str], v: Option<i64>) -> Result<u32, UserError> {
    let v = v.unwrap_or(0);
    if !DICE.contains(&v) {
        return Err(bad(
            file,
            path,
            tr!(file.lang, "growth.lvalid.not_die", die = v),
            tr!(file.lang, "growth.lvalid.not_die_allowed"),
        ));
    }
    Ok(v as u32)
}

/// Validates a leveling file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<LevelingModel>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let creation = creation_policy(file, &raw.creation)?;
    let races = Races {
        sheets: sheets(file, &raw.creation)?,
        ..Default::default()
    };
    if let Some(c) = creation.conversion.filter(|c| c.level != 1) {
        // Levels are tallied from 1: a converted character of a higher level has no
        // level-1..L history to show (C-CREATE-3 keeps its level).
        return Err(bad(
            file,
            &["creation", "conversion", "level"],
            tr!(file.lang, "growth.lvalid.conversion_level", level = c.level),
            tr!(file.lang, "growth.lvalid.conversion_level_allowed"),
        ));
    }
    let l = &raw.leveling;
    let mut p = LevelPolicy::default();
    let max_level = ranged(
        file,
        &["leveling", "max_level"],
        l.max_level,
        10,
        1,
        MAX_LEVEL,
        tr!(file.lang, "growth.lvalid.why_levels"),
    )? as u32;
    p.start_karma = ranged(
        file,
        &["leveling", "start_karma"],
        l.start_karma,
        0,
        -10,
        10,
        "C-TEST-3",
    )? as i8;
    p.level2 = l.level2.unwrap_or(p.level2);
    p.level2_target = l.level2_target.unwrap_or(p.level2_target);
    p.level4 = l.level4.unwrap_or(p.level4);
    p.chance_bonus = l.chance_bonus.unwrap_or(p.chance_bonus);
    p.level5_moves = l.level5_move_policy.unwrap_or(p.level5_moves);
    // Checked here against the file's bound, against the parameter in force by
    // `level5_within` (the book's 10 by default, C-LEVEL-1).
    let default_points = if p.level5_moves == MovePolicy::None {
        0
    } else {
        10
    };
    p.level5_points = ranged(
        file,
        &["leveling", "level5_move_points"],
        l.level5_move_points,
        default_points,
        0,
        LEVEL5_MOVE_LIMIT,
        tr!(file.lang, "growth.lvalid.why_level5"),
    )? as i32;
    if let Some(v) = &l.light_dark_at_5 {
        let &[a, b] = v.as_slice() else {
            let value = format!(
                "[{}]",
                v.iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            return Err(bad(
                file,
                &["leveling", "light_dark_at_5"],
                tr!(file.lang, "growth.lvalid.light_dark_len", value),
                tr!(file.lang, "growth.lvalid.light_dark_allowed"),
            ));
        };
        if a < 0 || b < 0 || a + b != 3 {
            return Err(bad(
                file,
                &["leveling", "light_dark_at_5"],
                tr!(file.lang, "growth.lvalid.light_dark", a, b),
                tr!(file.lang, "growth.lvalid.light_dark_allowed"),
            ));
        }
        p.light_dark_at_5 = (a as u32, b as u32);
    }
    if let Some(r) = &l.later {
        p.later = later(file, &["leveling", "later"], r)?;
    }
    if let Some(entries) = &l.schedule {
        for (i, e) in entries.iter().enumerate() {
            let is = i.to_string();
            let at = ["leveling", "schedule", is.as_str()];
            let lv = ranged(
                file,
                &[&at[..], &["level"]].concat(),
                Some(e.level),
                6,
                6,
                MAX_LEVEL,
                tr!(file.lang, "growth.lvalid.why_schedule"),
            )? as u32;
            if p.schedule.iter().any(|(x, _)| *x == lv) {
                return Err(bad(
                    file,
                    &[&at[..], &["level"]].concat(),
                    tr!(file.lang, "growth.lvalid.scheduled_twice", level = lv),
                    tr!(file.lang, "growth.lvalid.scheduled_twice_allowed"),
                ));
            }
            let g = later(file, &at, &e.keys())?;
            p.schedule.push((lv, g));
        }
        p.schedule.sort_by_key(|(l, _)| *l);
    }
    let uses_weights = p.level2_target == StatTarget::Weights
        || p.later.stat_target == StatTarget::Weights
        || p.schedule
            .iter()
            .any(|(_, g)| g.stat_target == StatTarget::Weights);
    match &l.stat_weights {
        Some(w) => p.weights = weights(file, &["leveling", "stat_weights"], w)?,
        None if uses_weights => {
            return Err(file.error_at(
                &["leveling"],
                "leveling.stat_weights",
                tr!(file.lang, "growth.lvalid.no_weights"),
                &tr!(
                    file.lang,
                    "growth.lvalid.no_weights_allowed",
                    names = Stat::names()
                ),
            ))
        }
        None => {}
    }
    if let Some(c) = &l.campaign {
        let t = ranged(
            file,
            &["leveling", "campaign", "tests_per_level"],
            Some(c.tests_per_level),
            0,
            0,
            10_000,
            tr!(file.lang, "growth.lvalid.why_tests"),
        )?;
        p.campaign = Campaign {
            tests_per_level: t as u32,
            threshold: threshold(
                file,
                &["leveling", "campaign", "threshold"],
                c.threshold,
                " (C-TEST-1)",
            )?,
        };
    }
    let mut builds: Vec<(String, LevelPolicy)> = Vec::new();
    let raw_builds = l.builds.as_deref().unwrap_or(&[]);
    if raw_builds.len() > MAX_BUILDS {
        return Err(bad(
            file,
            &["leveling", "builds"],
            tr!(file.lang, "growth.lvalid.builds", count = raw_builds.len()),
            &tr!(file.lang, "growth.lvalid.builds_allowed", max = MAX_BUILDS),
        ));
    }
    for (i, b) in raw_builds.iter().enumerate() {
        let is = i.to_string();
        let at = ["leveling", "builds", is.as_str()];
        let name = unique_name(file, &[&at[..], &["name"]].concat(), &b.name, |x| {
            builds.iter().any(|(n, _)| n == x)
        })?;
        let mut bp = p.clone();
        bp.weights = weights(
            file,
            &[&at[..], &["stat_weights"]].concat(),
            &b.stat_weights,
        )?;
        // Every aimable gain follows the weights (level 3 stays the lowest stat, C-LEVEL-1).
        bp.level2_target = StatTarget::Weights;
        bp.later.stat_target = StatTarget::Weights;
        for (_, g) in bp.schedule.iter_mut() {
            g.stat_target = StatTarget::Weights;
        }
        builds.push((name, bp));
    }
    let dna = match &l.dna {
        Some(d) => Some(dna_plan(file, d)?),
        None => None,
    };
    let skills = match &l.skills {
        Some(r) => Some(skill_plan(file, r)?),
        None => None,
    };
    Ok((
        LevelingModel {
            creation,
            levels: p,
            max_level,
            dna,
            builds,
            races,
            limit_levels: false,
            skills,
            level5_given: l.level5_move_points,
        },
        raw.rules,
        raw.run,
        crate::scenario::Text::pick(raw.title, file.lang),
        crate::scenario::Text::pick(raw.question, file.lang),
    ))
}

/// C-LEVEL-1 "déplacer jusqu'à 10 points": the level-5 move points of every policy under
/// the parameter `level5_move_max` in force (`options`: the file's `[rules]` and
/// `--option`, as `check` and `run` resolve them): a value written above it is refused,
/// an unwritten one with a move policy is the maximum.
pub fn level5_within(
    file: &ScenarioFile,
    m: &mut LevelingModel,
    options: &crate::rules::RuleOptions,
) -> Result<(), UserError> {
    let max = options.integer("level5_move_max");
    let why = if max == 10 {
        tr!(file.lang, "growth.lvalid.why_level5").to_string()
    } else {
        "level5_move_max".to_string()
    };
    let points = ranged(
        file,
        &["leveling", "level5_move_points"],
        m.level5_given,
        max,
        0,
        max,
        &why,
    )? as i32;
    for p in std::iter::once(&mut m.levels).chain(m.builds.iter_mut().map(|(_, b)| b)) {
        p.level5_points = if m.level5_given.is_none() && p.level5_moves == MovePolicy::None {
            0
        } else {
            points
        };
    }
    Ok(())
}
