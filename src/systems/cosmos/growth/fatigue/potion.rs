//! Potions and their fatigue effects (C-FAT-3; the garbled rulebook table read as the
//! decision says). Source: cosmos-current.fr.txt, "Règle de l'endurance".

use serde::Deserialize;

/// A potion with a fixed effect on FP/FM. Revigoration and alcohol/drugs suspend effects
/// for minutes or hours and are not modelled at the scale of days.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Potion {
    Healing,
    HealingPlus,
    HealingMax,
    HealingConcentrated,
    HealingConcentratedPlus,
    HealingConcentratedMax,
    Mana,
    ManaPlus,
    ManaMax,
    ManaConcentrated,
    ManaConcentratedPlus,
    ManaConcentratedMax,
    Phoenix,
    Energising,
}

impl Potion {
    /// (FP change, FM change) (C-FAT-3).
    pub fn effect(self) -> (i32, i32) {
        match self {
            Potion::Healing => (-1, 0),
            Potion::HealingPlus => (-2, 0),
            Potion::HealingMax => (-3, 0),
            Potion::HealingConcentrated => (-2, 0),
            Potion::HealingConcentratedPlus => (-3, 0),
            Potion::HealingConcentratedMax => (-4, 0),
            Potion::Mana => (0, 0),
            Potion::ManaPlus => (0, -1),
            Potion::ManaMax => (0, -2),
            Potion::ManaConcentrated => (0, -2),
            Potion::ManaConcentratedPlus => (0, -3),
            Potion::ManaConcentratedMax => (0, -4),
            Potion::Phoenix => (-5, -3),
            // As written: the energising potion adds 3 FM.
            Potion::Energising => (-5, 3),
        }
    }
}
