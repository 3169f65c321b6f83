//! The skirmish scenario file as written (`system = "trinites"`, `kind = "skirmish"`):
//! serde with `deny_unknown_fields`, so unknown keys and wrong types come back located.
//! Validated in `model.rs`.

use serde::Deserialize;

crate::scenario::raw_scenario! {
    /// The whole file as written.
    #[derive(Clone, Debug, Deserialize)]
    pub struct RawSkirmish {
        #[serde(default)]
        pub combat: RawSettings,
        pub weapons: Vec<RawWeapon>,
        pub group: Vec<RawGroup>,
        pub pairs: Option<RawPairs>,
    }
}

/// `[pairs]`: every (prime, pénalité) pair of one group, compared by its side's win rate.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPairs {
    /// The group whose pair varies.
    pub group: String,
    /// "all", or a list of [prime, pénalité] pairs (the first is the reference).
    pub list: Option<toml::Value>,
    /// Skirmishes per pair.
    pub trials: Option<i64>,
}

/// `[combat]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    pub max_rounds: Option<i64>,
    /// Strike an unconscious foe who may still come back (an Adam' with Darkness left)
    /// when no conscious foe is in reach.
    pub strike_unconscious: Option<bool>,
}

/// `[[weapons]]`.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWeapon {
    pub name: String,
    pub damage: i64,
    /// Range in metres: a ranged weapon (Tirer); absent: a melee weapon (Frapper).
    pub range: Option<i64>,
    /// A sword (or sabre, rapière...): double standard damage against a Trinité.
    #[serde(default)]
    pub sword: bool,
    /// A zone weapon (Tirer: a missed shot still costs its target half the damage).
    #[serde(default)]
    pub zone: bool,
}

/// `[[group]]`: `count` identical combatants.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawGroup {
    pub name: String,
    pub side: String,
    pub count: Option<i64>,
    /// An Adam' (8-box lines, two d12, Karma regeneration) rather than a human.
    #[serde(default)]
    pub trinite: bool,
    pub rapidite: i64,
    pub initiative_difficulty: Option<i64>,
    /// Surprised by the start of the fight: the initiative die starts en retrait.
    pub surprised: Option<bool>,
    /// Mêlée (melee weapon) or Tir (ranged weapon).
    pub attack: i64,
    /// Mêlée / Corps à corps when reacting to a strike.
    pub reaction: i64,
    /// Esquive: the reaction to shots, and to strikes when higher than `reaction`.
    pub dodge: Option<i64>,
    /// Athlétisme, for moves longer than 10 m.
    pub athletics: Option<i64>,
    pub weapon: String,
    pub protection: Option<i64>,
    pub attacks_per_turn: Option<i64>,
    pub prime: Option<String>,
    pub penalty: Option<String>,
    /// Metres from the mêlée (0: in it).
    pub distance: Option<i64>,
    /// none | kneeling | prone | lamppost | human_shield | head_only
    pub cover: Option<String>,
    /// most_wounded | first
    pub target: Option<String>,
    pub deva_karma: Option<i64>,
    pub archonte_karma: Option<i64>,
    /// endolori | blesse | never
    pub regenerate_at: Option<String>,
    /// Circumstances of the group's attacks from the book's Frapper / Tirer tables
    /// (issue 25), e.g. ["darkness", "target_small"].
    pub circumstances: Option<Vec<String>>,
    /// none | feint | disarm: the free action declared before the attacks (issue 25).
    pub tactic: Option<String>,
    /// Subterfuge, the feint's skill.
    pub subterfuge: Option<i64>,
    /// Tactique, the reaction to a feint.
    pub tactics: Option<i64>,
    /// The pénalité of a disarm (an advanced action): difficulte (default), facilite,
    /// danger, ralentissement, risque, abandon_position (from cover).
    pub disarm_penalty: Option<String>,
    /// An ally group on the same side this one parries for (Anticiper un évènement).
    pub parries_for: Option<String>,
    /// Corps à corps: the skill of a strike with bare hands once disarmed (Frapper, l. 563).
    pub bare_hands: Option<i64>,
    /// The damage of that strike (the book's copy gives none: scenario data).
    pub bare_hands_damage: Option<i64>,
}
