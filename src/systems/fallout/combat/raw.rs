//! The 2d20 combat scenario file as written (serde, `deny_unknown_fields`, so unknown keys
//! and wrong types come back located). Validated in `model.rs`.

use std::collections::BTreeMap;

use serde::Deserialize;

crate::scenario::raw_scenario! {
    /// The whole file as written.
    #[derive(Clone, Debug, Deserialize)]
    pub struct RawCombat {
        #[serde(default)]
        pub combat: RawSettings,
        #[serde(default)]
        pub pools: RawPools,
        #[serde(default)]
        pub policy: RawPolicies,
        pub weapons: BTreeMap<String, RawWeapon>,
        pub combatant: Vec<RawCombatant>,
    }
}

/// `[combat]`: round cap and the injury reading.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSettings {
    pub max_rounds: Option<i64>,
    /// Damage in one hit (after damage resistance) that inflicts an injury; 0 = none.
    pub injury_at: Option<i64>,
    /// Difficulty added to the tests of a combatant per injury.
    pub injury_difficulty: Option<i64>,
    /// Injuries that take a combatant out of the fight; 0 = only hit points count.
    pub injuries_down: Option<i64>,
}

/// `[pools]`: AP at the start of the fight.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPools {
    pub group_ap: Option<i64>,
    pub mj_ap: Option<i64>,
}

/// `[policy.players]` and `[policy.mj]`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPolicies {
    #[serde(default)]
    pub players: RawPolicy,
    #[serde(default)]
    pub mj: RawPolicy,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPolicy {
    /// never | always | below
    pub buy: Option<String>,
    pub below: Option<f64>,
    pub max_bonus: Option<i64>,
    /// Players only: buy dice the pool cannot pay for, giving the MJ the AP (F-AP).
    pub give_mj_ap: Option<bool>,
    /// Extra combat dice bought with AP on each hit (0..3, F-CD).
    pub damage_ap: Option<i64>,
    /// AP the side keeps in its pool (not spent on extra damage).
    pub keep: Option<i64>,
    /// first | weakest
    pub target: Option<String>,
    /// Take a second major action (attack) for 2 AP at +1 difficulty when the pool has
    /// them above `keep` (F-AP "action capitale supplémentaire"; default false).
    pub second_major: Option<bool>,
    /// A second minor action (another aim) for 1 AP, at most 2 minor actions a round
    /// (F-AP "action mineure supplémentaire"; issue 25).
    pub extra_minor: Option<bool>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawWeapon {
    /// Combat dice of the weapon.
    pub damage: i64,
    /// melee | thrown | ranged
    #[serde(rename = "type")]
    pub kind: String,
    /// Attack difficulty (default 2).
    pub difficulty: Option<i64>,
    #[serde(default)]
    pub qualities: RawQualities,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawQualities {
    /// +1 damage per Effect.
    pub vicious: Option<bool>,
    /// Ignore this many points of damage resistance per Effect.
    pub piercing: Option<i64>,
    /// The target loses its next turn if the hit shows an Effect.
    pub stun: Option<bool>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawCombatant {
    pub name: String,
    /// players | mj
    pub side: String,
    /// Attribute + skill of the attack.
    pub tn: i64,
    pub tag_rank: Option<i64>,
    pub complication: Option<i64>,
    pub hp: i64,
    pub dr: Option<i64>,
    pub initiative: Option<i64>,
    pub weapon: String,
    /// Luck points for the fight (Miss Fortune rerolls, F-LUCK), 0..20 (default 0).
    pub luck: Option<i64>,
    /// The name of an ally this combatant helps instead of attacking (F-HELP, "AIDE ET
    /// TESTS EN GROUPE"): its 1d20 joins the ally's attack.
    pub help: Option<String>,
    /// The minor action taken each turn: "none" (default) or "aim" (reroll one no-success
    /// d20 of the turn's first attack when it misses; scenario data, issue 25).
    pub minor: Option<String>,
    /// Miss Fortune also rerolls up to 3 blank combat dice of a hit (F-LUCK; issue 25).
    pub luck_cd: Option<bool>,
    /// Identical copies ("Raider 1", "Raider 2", ...).
    pub count: Option<i64>,
}
