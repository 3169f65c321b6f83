//! The Nephilim duel file as written (serde, `deny_unknown_fields`). Validated in
//! `model.rs`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::scenario::RunSection;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawDuel {
    pub system: String,
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "crate::scenario::in_current_lang")]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "crate::scenario::in_current_lang")]
    pub question: Option<String>,
    /// Language of the pages written (`"en"`, `"fr"`): read by the command before
    /// validation (`crate::lang`), accepted here so the file stays one shape.
    #[allow(dead_code)]
    pub lang: Option<String>,
    #[serde(default)]
    pub run: RunSection,
    #[serde(default)]
    pub rules: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub duel: RawSettings,
    pub fighter: Vec<RawFighter>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    pub max_rounds: Option<i64>,
    /// Difficulty of an attack test (default 0).
    pub attack_difficulty: Option<i64>,
    /// Whether the margin of the attack adds to the weapon's damage (default true).
    pub margin_damage: Option<bool>,
    /// Fatigue boxes per extra action, at the end of the round (default 1).
    pub fatigue_per_extra_action: Option<i64>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawFighter {
    pub name: String,
    /// Rapidité + Réaction (the initiative score before the dice).
    pub initiative: i64,
    /// Attack test score (N-TEST: characteristic + skill, e.g. Agilité + Combat armé).
    pub attack: i64,
    /// Parry or dodge test score.
    pub defence: i64,
    /// parry | dodge | none
    pub defence_kind: Option<String>,
    /// Weapon damage in wound boxes.
    pub weapon: i64,
    pub protection: Option<i64>,
    pub constitution: i64,
    /// Normalised Ka (N-KA) for the exhaustion check.
    pub ka: i64,
    /// Actions declared each round (1..3), at init, init-6, init-12 (N-INIT).
    pub actions: Option<i64>,
    /// Extra actions a spell or device grants each round (0..2): no malus of their own but
    /// subject to the declared ones' (N-INIT, nephilim-v3 l. 496).
    pub magic_actions: Option<i64>,
    /// never | to_meet: delay the first action to the opponent's segment.
    pub delay: Option<String>,
    pub wounds: Option<i64>,
    pub fatigue: Option<i64>,
}
