//! The duel scenario file as written (`system = "trinites"`, `kind = "duel"`): serde
//! shapes that refuse unknown keys; `model.rs` validates them into a `Duel`.

use serde::Deserialize;

crate::scenario::raw_scenario! {
    #[derive(Debug, Deserialize)]
    pub struct RawDuel {
        #[serde(default)]
        pub combat: RawCombat,
        pub weapons: Vec<RawWeapon>,
        pub adam: RawAdam,
        pub humans: RawHumans,
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCombat {
    pub max_rounds: Option<i64>,
    pub strike_unconscious: Option<bool>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWeapon {
    pub name: String,
    pub damage: i64,
    #[serde(default)]
    pub sword: bool,
}

crate::scenario::raw_restated! {
    /// A side's profile, the keys `[adam]` and `[humans]` share.
    #[derive(Debug, Deserialize)]
    pub struct RawSide {
        pub rapidite: i64,
        pub attack: i64,
        pub reaction: i64,
        #[serde(default)]
        pub initiative_difficulty: i64,
        pub weapon: String,
        #[serde(default)]
        pub protection: i64,
        pub attacks_per_turn: Option<i64>,
    }
    #[derive(Debug, Deserialize)]
    pub struct RawAdam {
        ..,
        pub deva_karma: i64,
        pub archonte_karma: i64,
        pub regenerate_at: Option<String>,
        pub pairs: Option<toml::Value>,
    }
    #[derive(Debug, Deserialize)]
    pub struct RawHumans {
        pub count: i64,
        ..,
        pub prime: Option<String>,
        pub penalty: Option<String>,
    }
}
