//! The expedition file as written: the raw serde model (`deny_unknown_fields`, so unknown
//! keys and wrong types come back located). Validated in `model.rs`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::systems::cosmos::growth::fatigue::Potion;

use super::legs::{RawMarch, RawPiloting};

crate::scenario::raw_scenario! {
    #[derive(Debug, Deserialize)]
    #[allow(dead_code)] // `system` and `kind` are read by the dispatcher.
    pub struct Raw {
        pub expedition: RawExpedition,
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawExpedition {
    pub days: i64,
    /// One traveller, or `travellers` (a party); exactly one of the two.
    pub traveller: Option<RawTraveller>,
    #[serde(default)]
    pub travellers: Vec<RawMember>,
    /// What the party shares besides the potions.
    pub party: Option<RawParty>,
    pub day: RawDay,
    #[serde(default)]
    pub changes: Vec<RawChange>,
    pub encounter: Option<RawEncounter>,
    #[serde(default)]
    pub potions: Vec<RawPotion>,
    pub reference_test: RawReference,
    pub piloting: Option<RawPiloting>,
    pub march: Option<RawMarch>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawTraveller {
    pub force: i64,
    pub esprit: i64,
    pub mental_health: Option<i64>,
}

crate::scenario::raw_restated! {
    #[derive(Debug, Default, Deserialize)]
    pub struct RawDay {
        pub march_fp: Option<i64>,
        pub march_fm: Option<i64>,
        pub meals: Option<i64>,
        pub pauses: Option<i64>,
        pub sleep_hours: Option<i64>,
        pub rest_quality: Option<i64>,
        pub encounters: Option<String>,
        pub piloting_stress: Option<i64>,
    }
    #[derive(Debug, Deserialize)]
    pub struct RawChange {
        pub days: Vec<i64>,
        ..
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawEncounter {
    /// A combat scenario file (`kind = "combat"`) played at each encounter instead of the
    /// abstract keys below (issue 10 item 9); relative to this file's folder.
    pub combat: Option<String>,
    /// Traveller name -> combatant name in the combat file (absent: the same names).
    pub party: Option<BTreeMap<String, String>>,
    // The abstract encounter (required without `combat`, refused with it).
    pub rounds: Option<String>,
    pub hp_lost: Option<String>,
    pub pm_spent: Option<String>,
    pub psychic_attacks: Option<String>,
    // The other C-FAT-2 events of a fight (issue 10 item 10), per traveller.
    pub extra_physical_actions: Option<String>,
    pub extra_magical_actions: Option<String>,
    pub knockout: Option<String>,
    pub light_points: Option<String>,
    pub dark_points: Option<String>,
    pub light_backlashes: Option<String>,
    pub dark_backlashes: Option<String>,
}

/// `[[expedition.travellers]]`: one member of a party.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawMember {
    pub name: String,
    pub force: i64,
    pub esprit: i64,
    pub mental_health: Option<i64>,
    /// Further starting modifiers (a race, a gene, an ailment), added to the Force/Esprit
    /// ones before the clamp at -3 (C-FAT-1).
    #[serde(default)]
    pub fp_modifier: i64,
    #[serde(default)]
    pub fm_modifier: i64,
}

/// `[expedition.party]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawParty {
    /// Shared food: meals in the bags at the start (absent = as many as the days plan).
    pub rations: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPotion {
    pub potion: Potion,
    pub count: i64,
    pub when_fp: Option<i64>,
    pub when_fm: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawReference {
    pub stat: String,
    pub threshold: f64,
    #[serde(default)]
    pub karma: i64,
    /// Taken on the turn after a concentrate action (C-FAT-5).
    #[serde(default)]
    pub concentrate: bool,
}
