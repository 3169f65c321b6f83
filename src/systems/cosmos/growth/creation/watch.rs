//! What a watched creation shows (`cosmosim trace`, issue 27): each roll and choice that
//! builds the character, noted by [`super::create_watched`] (the batch's own code, with
//! `Quiet` in a run).

use super::Character;

/// Which skill-point die (C-LEVEL-3).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkillDie {
    /// The first die.
    First,
    /// One die per full 100 PM.
    PerPm,
    /// The bonus die, which replaces the lowest roll if higher.
    Bonus,
}

/// One step of a character's creation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// C-CREATE-1: the ten d100 of HP and PM, their sum, kept if in the window.
    HpPmRoll {
        attempt: u32,
        dice: [i32; 10],
        sum: i32,
        accepted: bool,
    },
    /// The ten accepted dice split by the policy: the first five to HP, the rest to PM.
    Split { dice: [i32; 10], hp: i32, pm: i32 },
    /// C-CREATE-3: a previous-edition character converted (its four stats, HP, PM, skill
    /// and DNA points stay).
    Conversion { level: u32 },
    /// One d100 for a stat die (C-CREATE-2/3): kept in the die window or rolled again.
    StatD100 { value: i32, kept: bool },
    /// The six stat dice (two in a conversion, `n`), their sum, kept if in the window.
    StatRoll {
        attempt: u32,
        n: u8,
        dice: [i32; 6],
        sum: i32,
        accepted: bool,
    },
    /// The stats once the dice are assigned (priority or in order).
    Assigned { stats: [i32; 6] },
    /// With race/class sheets: the sheet the stats end on after the point moves (`None`:
    /// none met), the stats before and after.
    Race {
        sheet: Option<usize>,
        before: [i32; 6],
        after: [i32; 6],
    },
    /// `race_class_conflict = reroll`: the intended sheet missed, the stat dice again
    /// (`n`-th reroll).
    RaceReroll { n: u32 },
    /// The player's own point moves (policy, up to `points`).
    Moves {
        points: i32,
        before: [i32; 6],
        after: [i32; 6],
    },
    /// A skill-point die (C-LEVEL-3): its size and roll.
    SkillDie {
        which: SkillDie,
        faces: u32,
        roll: i32,
    },
    /// The skill points (the bonus die replacing the lowest roll if higher).
    SkillPoints { points: i32 },
    /// C-LEVEL-4: DNA points, base + one die.
    Dna {
        base: i32,
        faces: u32,
        roll: i32,
        total: i32,
    },
    /// The finished character.
    End { character: Character },
}
