//! The travellers of a party expedition, validated (issue 10 item 8): shared by the
//! model, its linked combats and the party simulation.

use crate::systems::cosmos::growth::fatigue::expedition::Traveller;
use crate::systems::cosmos::growth::fatigue::Fatigue;

/// One member of a party.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    pub name: String,
    pub traveller: Traveller,
    /// FP/FM at the start: the Force/Esprit/mental-health modifiers plus the member's own,
    /// clamped at -3 (C-FAT-1); the night's full rest applies them again (C-FAT-3).
    pub start: Fatigue,
}

/// Several travellers sharing the fights, the food and the potions (issue 10 item 8).
#[derive(Clone, Debug, PartialEq)]
pub struct Party {
    pub members: Vec<Member>,
    /// Shared meals in the bags (None: as many as the days plan).
    pub rations: Option<u32>,
}
