//! Potions and their fatigue effects (C-FAT-3; the garbled rulebook table read as the
//! decision says). Source: cosmos-current.fr.txt, "Règle de l'endurance", l. 410-426.
//! The table is the parameter set `potion_effects` (issue 16): [`PotionTable`] holds the
//! effects in force, resolved once per run.

use serde::Deserialize;

use crate::rules::{parse_pairs, Allowed};

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

/// How many potions there are (the table's rows).
pub const POTIONS: usize = 14;

impl Potion {
    /// Every potion, in the order of the registry's `POTION_NAMES`.
    pub const ALL: [Potion; POTIONS] = [
        Potion::Healing,
        Potion::HealingPlus,
        Potion::HealingMax,
        Potion::HealingConcentrated,
        Potion::HealingConcentratedPlus,
        Potion::HealingConcentratedMax,
        Potion::Mana,
        Potion::ManaPlus,
        Potion::ManaMax,
        Potion::ManaConcentrated,
        Potion::ManaConcentratedPlus,
        Potion::ManaConcentratedMax,
        Potion::Phoenix,
        Potion::Energising,
    ];
}

/// The potion table in force: (FP change, FM change) by potion, the book's with the
/// entries of `potion_effects` in place. Small (28 bytes) and `Copy`, so it rides in
/// `TrekRules` and a drink is one indexed load.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PotionTable([[i8; 2]; POTIONS]);

impl PotionTable {
    /// The book's table (C-FAT-3).
    pub const BOOK: PotionTable = PotionTable(BOOK_ROWS);

    /// The table under `value`, a `potion_effects` value (validated on input, so a bad
    /// value cannot reach here and reads as the book's table).
    pub fn from_value(value: &str) -> PotionTable {
        let mut t = PotionTable::BOOK;
        if let Some(Allowed::Pairs { names, min, max }) =
            crate::rules::spec("potion_effects").map(|s| s.allowed)
        {
            for (i, fp, fm) in parse_pairs(value, names, min, max).unwrap_or_default() {
                // The range (-13..13) fits an i8.
                t.0[i] = [fp as i8, fm as i8];
            }
        }
        t
    }

    /// (FP change, FM change) of `p`.
    #[inline(always)]
    pub fn effect(&self, p: Potion) -> (i32, i32) {
        let [fp, fm] = self.0[p as usize];
        (fp as i32, fm as i32)
    }
}

/// The book's (FP change, FM change) in `Potion::ALL` order, as C-FAT-3 reads the garbled
/// table (l. 412-426).
const BOOK_ROWS: [[i8; 2]; POTIONS] = [
    // Potion de soin Standard / + / Max: -1 / -2 / -3 FP.
    [-1, 0],
    [-2, 0],
    [-3, 0],
    // Potion de soin concentrée: -2 / -3 / -4 FP.
    [-2, 0],
    [-3, 0],
    [-4, 0],
    // Potion de mana: the Standard row is lost in the table, C-FAT-3 reads it as no
    // effect; + / Max -1 / -2 FM.
    [0, 0],
    [0, -1],
    [0, -2],
    // Potion de mana concentrée: -2 / -3 / -4 FM.
    [0, -2],
    [0, -3],
    [0, -4],
    // Elixir de phoenix: -5 FP et -3 FM.
    [-5, -3],
    // Potion énergisante: -5 FP et +3 FM, as written.
    [-5, 3],
];

impl Default for PotionTable {
    fn default() -> Self {
        PotionTable::BOOK
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::growth::POTION_NAMES;

    #[test]
    fn names_rows_and_variants_agree() {
        // The registry's names are the scenario's names, in the enum's order.
        for (i, p) in Potion::ALL.iter().enumerate() {
            assert_eq!(*p as usize, i);
            let named: Potion = serde_json::from_str(&format!("\"{}\"", POTION_NAMES[i])).unwrap();
            assert_eq!(named, *p, "{}", POTION_NAMES[i]);
        }
        assert_eq!(POTION_NAMES.len(), POTIONS);
        // C-FAT-3's reading, a few rows by hand.
        let b = PotionTable::BOOK;
        assert_eq!(b.effect(Potion::Healing), (-1, 0));
        assert_eq!(b.effect(Potion::HealingConcentratedMax), (-4, 0));
        assert_eq!(b.effect(Potion::Mana), (0, 0));
        assert_eq!(b.effect(Potion::ManaConcentrated), (0, -2));
        assert_eq!(b.effect(Potion::Phoenix), (-5, -3));
        assert_eq!(b.effect(Potion::Energising), (-5, 3));
    }

    #[test]
    fn entries_replace_the_book_rows_they_name() {
        // C-FAT-3: phoenix -5/-3 -> -6/-3, healing_plus -2/0 -> -3/1; the rest stays.
        let t = PotionTable::from_value("healing_plus=-3/1, phoenix=-6/-3");
        assert_eq!(t.effect(Potion::HealingPlus), (-3, 1));
        assert_eq!(t.effect(Potion::Phoenix), (-6, -3));
        assert_eq!(t.effect(Potion::Energising), (-5, 3));
        assert_eq!(PotionTable::from_value("none"), PotionTable::BOOK);
        // The book's values written out are the book's table.
        assert_eq!(PotionTable::from_value("phoenix=-5/-3"), PotionTable::BOOK);
    }

    #[test]
    fn bad_entries_are_refused_with_names_and_range() {
        use crate::rules::RuleOptions;
        for bad in [
            "potion_effects=phoenix=-14/0",
            "potion_effects=phoenix=0/14",
            "potion_effects=elixir=-1/0",
            "potion_effects=phoenix=-1",
            "potion_effects=phoenix=-1.5/0",
            "potion_effects=phoenix>mana=1",
        ] {
            let e = RuleOptions::from_pairs(&[bad], crate::lang::Lang::En).unwrap_err();
            assert!(e.0.contains("potion_effects"), "{e}");
            assert!(e.0.contains("healing_concentrated_plus"), "{e}");
            assert!(e.0.contains("-13 to 13"), "{e}");
            assert!(e.0.contains("C-FAT-3"), "{e}");
        }
        assert!(RuleOptions::from_pairs(
            &["potion_effects=mana=13/-13, energising=0/0"],
            crate::lang::Lang::En
        )
        .is_ok());
    }
}
