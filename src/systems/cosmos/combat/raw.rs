//! The combat scenario file as written: the raw serde model (`deny_unknown_fields`, so
//! unknown keys and wrong types come back located). Validated in `scenario.rs`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::scenario::RunSection;

/// The whole file as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawScenario {
    pub system: String,
    pub kind: Option<String>,
    /// A string, or `{ en = "...", fr = "..." }` (crate::scenario::Text).
    pub title: Option<crate::scenario::Text>,
    pub question: Option<crate::scenario::Text>,
    /// Language of the pages written (`"en"`, `"fr"`): read by the command before
    /// validation (`crate::lang`), accepted here so the file stays one shape.
    #[allow(dead_code)]
    pub lang: Option<String>,
    /// Aura table edition (C-EDITION): current (default) or previous.
    pub edition: Option<RawEdition>,
    #[serde(default)]
    pub run: RunSection,
    #[serde(default)]
    pub rules: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub combat: RawCombat,
    #[serde(default)]
    pub outputs: RawOutputs,
    pub attacks: BTreeMap<String, RawAttack>,
    pub combatants: BTreeMap<String, RawFighter>,
    /// Scripted events (`[[events]]`).
    #[serde(default)]
    pub events: Vec<RawEvent>,
    /// Support actions (`[support.<name>]`: heal, buff, concentrate), see support_keys.rs.
    #[serde(default)]
    pub support: BTreeMap<String, super::support_keys::RawSupport>,
    /// Periodic effects (`[periodic.<name>]`: regeneration, damage, aura), periodic_keys.rs.
    #[serde(default)]
    pub periodic: BTreeMap<String, super::periodic_keys::RawPeriodic>,
}

/// `[[events]] round = 3, combatant = "boss"` and one of `karma = -2` (the GM moves the
/// combatant's karma), `join = true` (reinforcements), `leave = true` (`events.rs`).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEvent {
    pub round: i64,
    pub combatant: String,
    pub karma: Option<i64>,
    pub join: Option<bool>,
    pub leave: Option<bool>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCombat {
    /// Rounds after which a combat stops undecided (reported as `round_cap`).
    pub max_rounds: Option<u32>,
    /// FP/FM move during the combat (C-FAT-2, C-FAT-4; `fatigue.rs`). Default false.
    pub fatigue: Option<bool>,
}

/// Which tables to write (default: all).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawOutputs {
    pub tables: Option<Vec<OutputTable>>,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawEdition {
    Current,
    Previous,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawAuraUse {
    EnemyAttacks,
    EnemyDefences,
    EnemyTests,
    Never,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawAntiAuraUse {
    Always,
    Never,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum OutputTable {
    Sides,
    Postures,
    Rounds,
    Karma,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RawStat {
    Force,
    Esprit,
    Charisme,
    #[serde(alias = "agilité")]
    Agilite,
    #[serde(alias = "précision")]
    Precision,
    Chance,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawAttack {
    /// The stat tested (required unless `stats` is given).
    pub stat: Option<RawStat>,
    /// A test on the mean of several stats (C-TEST-1), instead of `stat`.
    pub stats: Option<Vec<RawStat>>,
    pub damage: String,
    pub element: Option<String>,
    pub elements: Option<Vec<String>>,
    #[serde(default)]
    pub pm_cost: u32,
    /// HP paid per use (C-LD-5 advantage 2 / C-LD-6 disadvantage 2 speak of "coût PV/PM").
    #[serde(default)]
    pub hp_cost: u32,
    /// Percentage points on the attack test (C-TEST-1).
    pub modifier: Option<i64>,
    /// A fixed test threshold instead of the stat's value.
    pub threshold: Option<i64>,
    /// Enemies hit by one use: a number or "all".
    pub targets: Option<RawTargets>,
    /// Uses per combat.
    pub uses: Option<i64>,
    /// Rounds after a use during which the attack cannot be used again.
    pub cooldown: Option<i64>,
    #[serde(default)]
    pub undodgeable: bool,
    #[serde(default)]
    pub unparryable: bool,
    /// A psychic attack: +2 FM to each target it lands on (C-FAT-2, with `combat.fatigue`).
    pub psychic: Option<bool>,
    /// A `[periodic.*]` effect of kind `damage` placed on whom it wounds (bleeding, poison).
    pub on_hit: Option<String>,
}

/// `targets = 3` or `targets = "all"`. The `expecting` literal is worded for the
/// designer by `scenario::message` (not "untagged enum RawTargets").
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(untagged, expecting = "a whole number or \"all\"")]
pub enum RawTargets {
    Count(i64),
    Word(String),
}

/// `hp_start = 60` (absolute) or `hp_start = 0.4` (a fraction of max). The `expecting`
/// literal is worded for the designer by `scenario::message`.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq)]
#[serde(
    untagged,
    expecting = "a whole number of points, or a fraction of the maximum from 0 to 1"
)]
pub enum RawAmount {
    Absolute(i64),
    Fraction(f64),
}

/// Damage reduction (a house rule: the rulebook has no armour numbers).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawArmour {
    /// Points taken off each hit, after the percentage.
    pub flat: Option<i64>,
    /// Percent taken off each hit, after every multiplier.
    pub percent: Option<f64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawStats {
    pub force: i64,
    pub esprit: i64,
    pub charisme: i64,
    #[serde(alias = "agilité")]
    pub agilite: i64,
    #[serde(alias = "précision")]
    pub precision: i64,
    pub chance: i64,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawMode {
    Offensive,
    #[default]
    Defensive,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFighter {
    pub side: String,
    pub level: u32,
    /// Identical copies (named `<name>_1`, `<name>_2`...).
    pub count: Option<u32>,
    pub stats: RawStats,
    pub hp: i64,
    #[serde(default)]
    pub pm: i64,
    /// HP and PM at combat start (default: max).
    pub hp_start: Option<RawAmount>,
    pub pm_start: Option<RawAmount>,
    /// Fatigue at combat start (C-FAT-1, -3..10; default 0).
    pub fp_start: Option<i64>,
    pub fm_start: Option<i64>,
    /// Light and Dark points already spent before this combat.
    pub light_spent: Option<u8>,
    pub dark_spent: Option<u8>,
    pub armour: Option<RawArmour>,
    pub mode: Option<RawMode>,
    pub element: Option<String>,
    /// Two elements instead of `element` (C-ELEM reading, `affinity.rs`).
    pub elements: Option<Vec<String>>,
    /// Coefficient of an attacking element on this combatant, replacing the table's.
    pub element_coefficients: Option<BTreeMap<String, f64>>,
    pub attacks: Vec<String>,
    pub final_skill: Option<String>,
    pub light_points: Option<u8>,
    pub dark_points: Option<u8>,
    /// How many of the 3 points granted at level 5 are Dark (the rest Light), C-LD-1.
    pub level5_dark: Option<u8>,
    pub actions: Option<u8>,
    pub karma: Option<i64>,
    /// Aura points at combat start, 0..4 (C-AURA).
    pub aura_points: Option<i64>,
    /// Anti-aura points at combat start (C-AURA).
    pub anti_aura: Option<i64>,
    /// Inventory slots used (C-INV).
    pub inventory_slots_used: Option<i64>,
    /// How many of its `actions` are natural; the others tire (C-FAT-2, `fatigue.rs`).
    pub natural_actions: Option<i64>,
    /// `[periodic.*]` effects held from the start (regeneration, aura...).
    pub periodic: Option<Vec<String>>,
    #[serde(default)]
    pub policy: RawPolicy,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawPrefer {
    #[default]
    Dark,
    Light,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawFinalSkill {
    #[default]
    FirstTurn,
    SecondTurn,
    ThirdTurn,
    Never,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawDefence {
    #[default]
    Best,
    Dodge,
    Parry,
    None,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawTarget {
    #[default]
    LowestHp,
    HighestHp,
    First,
    Random,
    BestElement,
    Named,
}

#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, Default)]
#[serde(rename_all = "snake_case")]
pub enum RawAttackChoice {
    #[default]
    Best,
    First,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPolicy {
    #[serde(default)]
    pub dark_at_start: bool,
    #[serde(default)]
    pub dark_on_turn_start: bool,
    pub dark_below_hp: Option<f64>,
    #[serde(default)]
    pub dark_when_ally_down: bool,
    #[serde(default)]
    pub light_at_start: bool,
    #[serde(default)]
    pub light_on_turn_start: bool,
    pub light_below_hp: Option<f64>,
    #[serde(default)]
    pub light_when_ally_down: bool,
    pub prefer: Option<RawPrefer>,
    pub final_skill: Option<RawFinalSkill>,
    pub defence: Option<RawDefence>,
    pub target: Option<RawTarget>,
    pub target_name: Option<String>,
    pub attack: Option<RawAttackChoice>,
    pub offensive_below_hp: Option<f64>,
    pub defensive_below_hp: Option<f64>,
    /// Which enemy tests the aura falls on (C-AURA).
    pub aura_use_on: Option<RawAuraUse>,
    /// Only on enemy tests whose threshold is at least this.
    pub aura_min_threshold: Option<i64>,
    /// Only on this enemy (a combatant name).
    pub aura_target: Option<String>,
    /// Whether anti-aura points cancel aura uses.
    pub anti_aura_use: Option<RawAntiAuraUse>,
    /// Ordered rules, first match wins (trigger.rs).
    #[serde(default)]
    pub rules: Vec<super::trigger_keys::RawRule>,
}

/// What a key written with the wrong type (or missing) allows, for the keys serde reads as
/// free text and validation checks against a list (`ScenarioFile::parse_raw_hinted`;
/// audit of 2026-12-07, evening: `element = 1` said "expected a string" and no element).
/// `table` is the key's table path (`attacks.sword`), `field` the key.
pub fn allowed(table: &str, field: &str, lang: crate::lang::Lang) -> Option<String> {
    let top = table.split('.').next().unwrap_or("");
    match (top, field) {
        (_, "element" | "elements") => Some(super::element::allowed_elements(lang)),
        ("attacks", "damage") => Some(tr!(lang, "combat.check.dice_allowed").to_string()),
        ("combatants", "side") => Some(tr!(lang, "combat.check.two_sides_allowed").to_string()),
        ("", "attacks") => Some(tr!(lang, "combat.check.no_attack_allowed").to_string()),
        _ => None,
    }
}
