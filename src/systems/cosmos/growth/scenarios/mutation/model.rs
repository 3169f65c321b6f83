//! The mutation file: raw keys and their validation into a [`MutationModel`].

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::genetics::{sample_tree, DiceExpr, GeneTree, Phase, Schedule};
use crate::systems::cosmos::growth::scenarios::Parsed;

use super::super::common::{bad, in_range, thresholds, within};
use super::raw::{Raw, RawCampaign, RawEvent, RawLevels};

/// Caps (checked before any work; documented in docs/systems/cosmos-growth.md).
pub const MAX_EVENTS: usize = 32;
pub const MAX_EVENT_MUTATIONS: i64 = 10;
pub const MAX_CAMPAIGN_TESTS_PER_DAY: i64 = 100;
pub const MAX_CAMPAIGN_THRESHOLDS: usize = 16;

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
    /// `[[mutation.events]]`, in file order.
    pub events: Vec<Event>,
    /// `[mutation.levels]`: the Chance at each level from the start level.
    pub levels: Option<Levels>,
    /// `[mutation.campaign]`: tests per day at a threshold mix, moving karma.
    pub campaign: Option<(u32, Vec<(f64, u32)>)>,
}

/// When an event happens.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum When {
    /// On these days (sorted, distinct).
    Days(Vec<u32>),
    /// Each day with this probability.
    Daily(f64),
}

/// A bite, a dose: Pµ, Chance-test mutations and majors at once (the book's zombie bite:
/// "déclenche également une mutation majeure immédiate [...] en plus de lui octroyer
/// plusieurs Pμ supplémentaires").
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Event {
    pub name: String,
    pub when: When,
    pub pmu: Option<DiceExpr>,
    /// Mutations rolled at once on the Chance table (C-GENE-3).
    pub mutations: u32,
    /// A negative major at once (C-GENE-5 counts it).
    pub major: bool,
}

impl Event {
    /// Whether the event falls on `day` (draws a number only for a daily chance).
    #[inline]
    pub fn happens(&self, day: u32, rng: &mut crate::engine::Rng64) -> bool {
        use rand::Rng;
        match &self.when {
            When::Days(d) => d.binary_search(&day).is_ok(),
            // 53 random bits against p: exact to 2^-53.
            When::Daily(p) => ((rng.next_u64() >> 11) as f64) * (1.0 / (1u64 << 53) as f64) < *p,
        }
    }
}

/// Levels gained during the exposure and the Chance at each.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Levels {
    pub start: u32,
    pub days_per_level: u32,
    /// Chance at level `start + i`; the last value holds after the list.
    pub chance: Vec<i64>,
    /// Whether `chance` came from `chance_per_level` (then a swept Chance shifts it).
    pub per_level: Option<i64>,
}

impl Levels {
    /// Index into `chance` on `day` (1-based): a level every `days_per_level` days, up
    /// to level 10.
    #[inline]
    pub fn index(&self, day: u32) -> usize {
        let gained = (day - 1) / self.days_per_level;
        (gained.min(10 - self.start) as usize).min(self.chance.len() - 1)
    }

    /// The Chance list when the base Chance is `base` (a sweep cell).
    pub fn chances(&self, base: i64) -> Vec<i64> {
        match self.per_level {
            Some(step) => (0..=(10 - self.start) as i64)
                .map(|i| (base + i * step).clamp(1, 100))
                .collect(),
            None => self.chance.clone(),
        }
    }
}

/// Pµ dice (`example`: the dice the allowed values show first).
fn pmu(file: &ScenarioFile, path: &[&str], s: &str, example: &str) -> Result<DiceExpr, UserError> {
    // A cap (`1d5000`: faces 1..1000) says which; the rest is not dice at all.
    DiceExpr::parse(s).map_err(|e| {
        let allowed = tr!(file.lang, "growth.mutation.dice_allowed", example);
        bad(
            file,
            path,
            match e.key() {
                "syntax.not_dice" => {
                    tr!(file.lang, "growth.mutation.not_dice", value = s)
                }
                _ => e.text(file.lang),
            },
            &allowed,
        )
    })
}

/// Validates a mutation file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<MutationModel>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let m = &raw.mutation;
    let lang = file.lang;
    let at = |k: &'static str| ["mutation", k];
    within(
        file,
        &at("chance"),
        m.chance,
        1..=100,
        tr!(lang, "growth.mutation.chance_allowed"),
    )?;
    in_range(file, &at("karma"), m.karma, -10, 10, " (C-TEST-3)")?;
    let days = tr!(lang, "growth.mutation.days_allowed");
    within(file, &at("max_days"), m.max_days, 1..=3650, days)?;
    let therapy = tr!(lang, "growth.mutation.therapy_allowed");
    within(
        file,
        &at("therapy_every_days"),
        m.therapy_every_days,
        0..=3650,
        therapy,
    )?;
    let (tree, sample) = match (m.tree.as_deref(), m.genes.is_empty()) {
        (Some("sample"), true) => (sample_tree(), true),
        (Some("sample"), false) => {
            return Err(bad(
                file,
                &["mutation", "tree"],
                tr!(file.lang, "growth.mutation.tree_both"),
                tr!(file.lang, "growth.mutation.one_of_them"),
            ))
        }
        (Some(other), _) => {
            return Err(bad(
                file,
                &["mutation", "tree"],
                tr!(file.lang, "growth.mutation.unknown_tree", tree = other),
                tr!(file.lang, "growth.mutation.tree_allowed"),
            ))
        }
        (None, _) => (
            GeneTree::build(file, &["mutation", "genes"], &m.genes)?,
            false,
        ),
    };
    if m.schedule.is_empty() && m.events.is_empty() {
        return Err(bad(
            file,
            &["mutation", "schedule"],
            tr!(file.lang, "growth.mutation.no_exposure"),
            tr!(file.lang, "growth.mutation.no_exposure_allowed"),
        ));
    }
    let mut phases = Vec::new();
    for (i, p) in m.schedule.iter().enumerate() {
        let is = i.to_string();
        let dice = pmu(
            file,
            &["mutation", "schedule", &is, "pmu"],
            &p.pmu,
            "\"2d10\"",
        )?;
        let allowed = tr!(file.lang, "growth.mutation.phase_days_allowed");
        let days = p
            .days
            .map(|d| {
                within(
                    file,
                    &["mutation", "schedule", &is, "days"],
                    d,
                    1..=3650,
                    allowed,
                )
            })
            .transpose()?
            .map(|d| d as u32);
        phases.push(Phase { days, dice });
    }
    let sweep = match &m.sweep {
        None => None,
        Some(s) => {
            // Capped before anything runs, `check` as `run` (audit of 2026-12-07
            // afternoon): 5000 x 5000 values were 25 million cells of `trials` each.
            use crate::limits::{
                MAX_MUTATION_SWEEP_CELLS, MAX_MUTATION_SWEEP_CHANCES, MAX_MUTATION_SWEEP_KARMAS,
            };
            for (key, count, max) in [
                ("chance", s.chance.len(), MAX_MUTATION_SWEEP_CHANCES),
                ("karma", s.karma.len(), MAX_MUTATION_SWEEP_KARMAS),
            ] {
                if count > max {
                    return Err(bad(
                        file,
                        &["mutation", "sweep", key],
                        tr!(file.lang, "growth.mutation.sweep_list_too_long", count),
                        &tr!(file.lang, "growth.mutation.sweep_list_allowed", max),
                    ));
                }
            }
            let cells = s.chance.len() * s.karma.len();
            if cells > MAX_MUTATION_SWEEP_CELLS {
                return Err(bad(
                    file,
                    &["mutation", "sweep"],
                    tr!(file.lang, "growth.mutation.sweep_too_many_cells", cells),
                    &tr!(
                        file.lang,
                        "growth.mutation.sweep_cells_allowed",
                        max = MAX_MUTATION_SWEEP_CELLS
                    ),
                ));
            }
            if s.chance.is_empty() || s.chance.iter().any(|c| !(1..=100).contains(c)) {
                return Err(bad(
                    file,
                    &["mutation", "sweep", "chance"],
                    tr!(
                        file.lang,
                        "growth.mutation.not_chances",
                        value = format!("{:?}", s.chance)
                    ),
                    tr!(file.lang, "growth.mutation.chances_allowed"),
                ));
            }
            if s.karma.is_empty() || s.karma.iter().any(|k| !(-10..=10).contains(k)) {
                return Err(bad(
                    file,
                    &["mutation", "sweep", "karma"],
                    tr!(
                        file.lang,
                        "growth.mutation.not_karmas",
                        value = format!("{:?}", s.karma)
                    ),
                    tr!(file.lang, "growth.mutation.karmas_allowed"),
                ));
            }
            Some((s.chance.clone(), s.karma.clone()))
        }
    };
    let events = events(file, &m.events)?;
    let levels = match &m.levels {
        None => None,
        Some(l) => Some(levels(file, l, m.chance)?),
    };
    if let (Some(l), Some(_)) = (&levels, &sweep) {
        if l.per_level.is_none() {
            return Err(bad(
                file,
                &at("chance"),
                tr!(file.lang, "growth.mutation.list_and_sweep"),
                tr!(file.lang, "growth.mutation.list_and_sweep_allowed"),
            ));
        }
    }
    let campaign = match &m.campaign {
        None => None,
        Some(c) => Some(campaign(file, c)?),
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
        events,
        levels,
        campaign,
    };
    Ok((
        model,
        raw.rules,
        raw.run,
        crate::scenario::Text::pick(raw.title, file.lang),
        crate::scenario::Text::pick(raw.question, file.lang),
    ))
}

/// Validates the file.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (_, rules, ..) = model(file)?;
    file.rule_options(&rules)?;
    Ok(())
}

fn events(file: &ScenarioFile, raw: &[RawEvent]) -> Result<Vec<Event>, UserError> {
    if raw.len() > MAX_EVENTS {
        return Err(bad(
            file,
            &["mutation", "events"],
            tr!(file.lang, "growth.mutation.n_events", n = raw.len()),
            &tr!(file.lang, "growth.mutation.at_most", n = MAX_EVENTS),
        ));
    }
    let mut out = Vec::new();
    for (i, e) in raw.iter().enumerate() {
        let is = i.to_string();
        let at = |k: &'static str| ["mutation", "events", is.as_str(), k];
        let when = match (e.days.is_empty(), e.daily_chance) {
            (false, None) => {
                if let Some(d) = e.days.iter().find(|d| !(1..=3650).contains(*d)) {
                    return Err(bad(
                        file,
                        &at("days"),
                        tr!(file.lang, "growth.mutation.day_out", day = d),
                        tr!(file.lang, "growth.mutation.event_days_allowed"),
                    ));
                }
                let mut d: Vec<u32> = e.days.iter().map(|&d| d as u32).collect();
                d.sort_unstable();
                d.dedup();
                When::Days(d)
            }
            (true, Some(p)) if p.is_finite() && (0.0..=1.0).contains(&p) => When::Daily(p),
            (true, Some(p)) => {
                return Err(bad(
                    file,
                    &at("daily_chance"),
                    tr!(file.lang, "growth.mutation.not_probability", value = p),
                    "0..1",
                ))
            }
            _ => {
                return Err(bad(
                    file,
                    &at("days"),
                    tr!(file.lang, "growth.mutation.event_when", name = e.name),
                    tr!(file.lang, "growth.mutation.event_when_allowed"),
                ))
            }
        };
        let pmu = match &e.pmu {
            None => None,
            Some(p) => Some(pmu(file, &at("pmu"), p, "\"3d10\"")?),
        };
        in_range(
            file,
            &at("mutations"),
            e.mutations,
            0,
            MAX_EVENT_MUTATIONS,
            "",
        )?;
        if pmu.is_none() && e.mutations == 0 && !e.major {
            return Err(bad(
                file,
                &at("name"),
                tr!(file.lang, "growth.mutation.event_nothing", name = e.name),
                tr!(file.lang, "growth.mutation.event_nothing_allowed"),
            ));
        }
        out.push(Event {
            name: e.name.clone(),
            when,
            pmu,
            mutations: e.mutations as u32,
            major: e.major,
        });
    }
    Ok(out)
}

fn levels(file: &ScenarioFile, l: &RawLevels, chance: i64) -> Result<Levels, UserError> {
    let at = |k: &'static str| ["mutation", "levels", k];
    let start = tr!(file.lang, "growth.mutation.start_allowed");
    within(file, &at("start"), l.start, 1..=10, start)?;
    in_range(file, &at("days_per_level"), l.days_per_level, 1, 3650, "")?;
    let span = (10 - l.start) as usize + 1;
    let (list, per_level) = match (&l.chance, l.chance_per_level) {
        (Some(c), None) => {
            if c.is_empty() || c.len() > span || c.iter().any(|x| !(1..=100).contains(x)) {
                return Err(bad(
                    file,
                    &at("chance"),
                    tr!(
                        file.lang,
                        "growth.mutation.not_level_chances",
                        value = format!("{c:?}")
                    ),
                    &tr!(
                        file.lang,
                        "growth.mutation.level_chances_allowed",
                        span,
                        start = l.start
                    ),
                ));
            }
            if c[0] != chance {
                return Err(bad(
                    file,
                    &at("chance"),
                    tr!(
                        file.lang,
                        "growth.mutation.list_start",
                        first = c[0],
                        chance
                    ),
                    tr!(file.lang, "growth.mutation.list_start_allowed"),
                ));
            }
            (c.clone(), None)
        }
        (None, Some(s)) => (
            vec![],
            Some(in_range(file, &at("chance_per_level"), s, 0, 20, "")?),
        ),
        _ => {
            return Err(bad(
                file,
                &at("days_per_level"),
                tr!(file.lang, "growth.mutation.levels_one"),
                tr!(file.lang, "growth.mutation.levels_one_allowed"),
            ))
        }
    };
    let mut out = Levels {
        start: l.start as u32,
        days_per_level: l.days_per_level as u32,
        chance: list,
        per_level,
    };
    if per_level.is_some() {
        out.chance = out.chances(chance);
    }
    Ok(out)
}

fn campaign(file: &ScenarioFile, c: &RawCampaign) -> Result<(u32, Vec<(f64, u32)>), UserError> {
    let tests_per_day = in_range(
        file,
        &["mutation", "campaign", "tests_per_day"],
        c.tests_per_day,
        0,
        MAX_CAMPAIGN_TESTS_PER_DAY,
        "",
    )?;
    if c.thresholds.is_empty() || c.thresholds.len() > MAX_CAMPAIGN_THRESHOLDS {
        return Err(bad(
            file,
            &["mutation", "campaign", "thresholds"],
            tr!(
                file.lang,
                "growth.mutation.n_thresholds",
                n = c.thresholds.len()
            ),
            &tr!(
                file.lang,
                "growth.mutation.thresholds_allowed",
                max = MAX_CAMPAIGN_THRESHOLDS
            ),
        ));
    }
    let out = thresholds(file, &["mutation", "campaign", "thresholds"], &c.thresholds)?;
    Ok((tests_per_day as u32, out))
}
