//! The validated Nephilim duel: two fighters, their scores, actions and delay policy.
//! `check` and `run` share [`load`]; errors are located.

use crate::error::UserError;
use crate::scenario::{int_at, int_in, ScenarioFile};

use super::raw::RawDuel;
use crate::rules::RuleOptions;
use crate::systems::nephilim::NephilimRules;

/// Most rounds of a duel.
pub const ROUNDS_MAX: u32 = 100;
/// Most actions a fighter declares in a round.
pub const ACTIONS_MAX: u8 = 3;
/// Most magic-granted extra actions a fighter has in a round.
pub const MAGIC_ACTIONS_MAX: u8 = 2;
/// Most trials of a run.
pub const TRIALS_MAX: u64 = 50_000_000;
/// Range of test scores (characteristic + skill, -4..+4 each... up to twice +6).
pub const SCORE_RANGE: (i64, i64) = (-12, 12);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefenceKind {
    Parry,
    Dodge,
    None,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delay {
    Never,
    /// Delay to the opponent's first segment when it is later (N-INIT "retarder").
    ToMeet,
    /// Delay past the last segment into the next round, at +6 initiative (cumulative each
    /// round delayed), when its first action is in a later segment than the opponent's
    /// (nephilim-v3 l. 502; issue 25).
    NextRound,
}

/// Initiative bonus of a round's action delayed from the round before (nephilim-v3 l. 502
/// "il bénéficie d'un bonus de 6 à son initiative, ce bonus étant cumulatif chaque round").
pub const DELAY_ROUND_BONUS: i64 = 6;

#[derive(Clone, Debug, PartialEq)]
pub struct Fighter {
    pub name: String,
    pub initiative: i64,
    pub attack: i64,
    pub defence: i64,
    pub defence_kind: DefenceKind,
    pub weapon: i64,
    pub protection: i64,
    pub constitution: i64,
    pub ka: i64,
    pub actions: u8,
    /// Extra actions from magic or technology each round (nephilim-v3 l. 496): after the
    /// declared ones at init - 6k, no malus of their own, no fatigue.
    pub magic_actions: u8,
    pub delay: Delay,
    pub wounds: u8,
    pub fatigue: u8,
}

#[derive(Clone, Debug, PartialEq)]
pub struct DuelModel {
    pub title: String,
    pub question: String,
    pub max_rounds: u32,
    pub attack_difficulty: i64,
    pub margin_damage: bool,
    /// Fatigue boxes per extra action, when the file sets them (else the parameter
    /// `nephilim_extra_action_cost`, book 0).
    pub fatigue_per_extra_action: Option<u8>,
    pub fighters: [Fighter; 2],
}

/// Each fighter's starting wounds and fatigue, checked to lie below the out level of the
/// counters in force: 0..4b, the last level of the fourth state with `boxes` (parameter
/// `nephilim_health_boxes_per_state`, N-HEALTH) boxes per state (book 0..8), from
/// [`load_with`], which `check` and `run` share.
pub fn counters_within(
    file: &ScenarioFile,
    raw: &RawDuel,
    boxes: u8,
) -> Result<Vec<(u8, u8)>, UserError> {
    let last = 4 * i64::from(boxes);
    let mut out = Vec::new();
    for (i, f) in raw.fighter.iter().enumerate() {
        let idx = i.to_string();
        let level = |k: &'static str, v: Option<i64>| -> Result<u8, UserError> {
            let path = ["fighter", idx.as_str(), k];
            let shown = format!("fighter[{i}].{k}");
            Ok(int_in(file, &path, &shown, v.unwrap_or(0), 0, last)? as u8)
        };
        out.push((level("wounds", f.wounds)?, level("fatigue", f.fatigue)?));
    }
    Ok(out)
}

/// Reads and validates a duel file under its own `[rules]`.
pub fn load(file: &ScenarioFile) -> Result<(RawDuel, DuelModel), UserError> {
    load_with::<&str>(file, &[])
}

const DEFENCE_WORDS: &str = "\"parry\", \"dodge\", \"none\"";
const DELAY_WORDS: &str = "\"never\", \"to_meet\", \"next_round\"";

/// The words a fighter's word keys allow, for one written with another type
/// (`defence_kind = 5` named none; audit of 2026-12-07, night).
fn allowed(table: &str, field: &str, _lang: crate::lang::Lang) -> Option<String> {
    match (table, field) {
        ("fighter", "defence_kind") => Some(DEFENCE_WORDS.to_string()),
        ("fighter", "delay") => Some(DELAY_WORDS.to_string()),
        _ => None,
    }
}

/// Reads and validates a duel file, `options` (`--option` pairs) on top of its `[rules]`:
/// the starting counters depend on `nephilim_health_boxes_per_state`.
pub fn load_with<S: AsRef<str>>(
    file: &ScenarioFile,
    options: &[S],
) -> Result<(RawDuel, DuelModel), UserError> {
    let raw: RawDuel = file.parse_raw_hinted(&allowed)?;
    let d = &raw.duel;
    let max_rounds = int_at(
        file,
        &["duel", "max_rounds"],
        d.max_rounds.unwrap_or(20),
        1,
        ROUNDS_MAX as i64,
    )? as u32;
    let attack_difficulty = int_at(
        file,
        &["duel", "attack_difficulty"],
        d.attack_difficulty.unwrap_or(0),
        -10,
        10,
    )?;
    // Not in the book (its only cost of an extra action is the -4): given, it wins over
    // the option `nephilim_extra_action_cost` (book: none; issue 25).
    let fatigue_per_extra_action = match d.fatigue_per_extra_action {
        Some(x) => Some(int_at(file, &["duel", "fatigue_per_extra_action"], x, 0, 5)? as u8),
        None => None,
    };
    if raw.fighter.len() != 2 {
        return Err(file.error_at(
            &["fighter"],
            "fighter",
            &tr!(file.lang, "nephilim.model.fighters", n = raw.fighter.len()),
            tr!(file.lang, "nephilim.model.fighters_allowed"),
        ));
    }
    // Two fighters of one name make the trace and `duel-fighters.csv` ambiguous (audit of
    // 2026-12-08), as groups of a Trinités skirmish and combatants of a firefight would.
    if raw.fighter[1].name == raw.fighter[0].name {
        return Err(file.error_at(
            &["fighter", "1", "name"],
            "fighter[1].name",
            &tr!(
                file.lang,
                "nephilim.model.name_twice",
                name = raw.fighter[1].name
            ),
            &tr!(
                file.lang,
                "nephilim.model.name_twice_allowed",
                names = format!("\"{}\"", raw.fighter[0].name)
            ),
        ));
    }
    // Starting counters against the boxes per state in force (the file's `[rules]`, then
    // `options`); when those do not parse, the book's, and `resolve` reports the error.
    let boxes = file
        .rule_options(&raw.rules)
        .and_then(|mut o| {
            for (k, v) in RuleOptions::from_pairs(options, file.lang)?.explicitly_set() {
                o.set(&k, &v, file.lang)?;
            }
            Ok(NephilimRules::from_options(&o).health_boxes)
        })
        .unwrap_or(2);
    let starts = counters_within(file, &raw, boxes)?;
    let mut fighters = Vec::new();
    for (i, f) in raw.fighter.iter().enumerate() {
        let idx = i.to_string();
        let p = |k: &'static str| -> Vec<&str> { vec!["fighter", idx.as_str(), k] };
        let s = |k: &str| format!("fighter[{i}].{k}");
        let (lo, hi) = SCORE_RANGE;
        let int = |k: &'static str, v: i64, lo: i64, hi: i64| int_in(file, &p(k), &s(k), v, lo, hi);
        let defence_kind = match f.defence_kind.as_deref().unwrap_or("parry") {
            "parry" => DefenceKind::Parry,
            "dodge" => DefenceKind::Dodge,
            "none" => DefenceKind::None,
            other => {
                return Err(file.error_at(
                    &p("defence_kind"),
                    &s("defence_kind"),
                    &tr!(file.lang, "nephilim.model.unknown_defence", value = other),
                    DEFENCE_WORDS,
                ))
            }
        };
        let delay = match f.delay.as_deref().unwrap_or("never") {
            "never" => Delay::Never,
            "to_meet" => Delay::ToMeet,
            "next_round" => Delay::NextRound,
            other => {
                return Err(file.error_at(
                    &p("delay"),
                    &s("delay"),
                    &tr!(file.lang, "nephilim.model.unknown_delay", value = other),
                    DELAY_WORDS,
                ))
            }
        };
        fighters.push(Fighter {
            name: f.name.clone(),
            initiative: int("initiative", f.initiative, lo, hi)?,
            attack: int("attack", f.attack, lo, hi)?,
            defence: int("defence", f.defence, lo, hi)?,
            defence_kind,
            weapon: int("weapon", f.weapon, 0, 10)?,
            protection: int("protection", f.protection.unwrap_or(0), 0, 10)?,
            constitution: int("constitution", f.constitution, -4, 6)?,
            ka: int("ka", f.ka, -4, 20)?,
            actions: int("actions", f.actions.unwrap_or(1), 1, ACTIONS_MAX as i64)? as u8,
            magic_actions: int(
                "magic_actions",
                f.magic_actions.unwrap_or(0),
                0,
                MAGIC_ACTIONS_MAX as i64,
            )? as u8,
            delay,
            wounds: starts[i].0,
            fatigue: starts[i].1,
        });
    }
    let [a, b]: [Fighter; 2] = fighters.try_into().expect("two fighters checked above");
    let model = DuelModel {
        title: crate::scenario::Text::pick(raw.title.clone(), file.lang)
            .unwrap_or_else(|| tr!(file.lang, "nephilim.model.default_title").into()),
        question: crate::scenario::Text::pick(raw.question.clone(), file.lang)
            .unwrap_or_else(|| tr!(file.lang, "nephilim.model.default_question").into()),
        max_rounds,
        attack_difficulty,
        margin_damage: d.margin_damage.unwrap_or(true),
        fatigue_per_extra_action,
        fighters: [a, b],
    };
    Ok((raw, model))
}
