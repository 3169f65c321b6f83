//! The Nephilim duel file as written (serde, `deny_unknown_fields`). Validated in
//! `model.rs`.

use serde::Deserialize;

crate::scenario::raw_scenario! {
    #[derive(Clone, Debug, Deserialize)]
    pub struct RawDuel {
        #[serde(default)]
        pub duel: RawSettings,
        pub fighter: Vec<RawFighter>,
    }
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
