//! The six main stats of a character (C-CREATE-2 order) and their bounds.

/// The six stats, in the rulebook's order (C-CREATE-2; also the tie order of C-LEVEL-1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Stat {
    Force = 0,
    Esprit = 1,
    Charisme = 2,
    Agilite = 3,
    Precision = 4,
    Chance = 5,
}

impl Stat {
    pub const ALL: [Stat; 6] = [
        Stat::Force,
        Stat::Esprit,
        Stat::Charisme,
        Stat::Agilite,
        Stat::Precision,
        Stat::Chance,
    ];

    /// The snake_case name used in scenario files and CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Stat::Force => "force",
            Stat::Esprit => "esprit",
            Stat::Charisme => "charisme",
            Stat::Agilite => "agilite",
            Stat::Precision => "precision",
            Stat::Chance => "chance",
        }
    }

    /// The stat in text: the file name in English (as the pages always wrote it), the
    /// rulebook's name in French.
    pub fn label(self) -> &'static str {
        match self {
            Stat::Force => crate::tr!("growth.stat.force"),
            Stat::Esprit => crate::tr!("growth.stat.esprit"),
            Stat::Charisme => crate::tr!("growth.stat.charisme"),
            Stat::Agilite => crate::tr!("growth.stat.agilite"),
            Stat::Precision => crate::tr!("growth.stat.precision"),
            Stat::Chance => crate::tr!("growth.stat.chance"),
        }
    }

    /// The stat after "test": `agilite` in English ("agilite test"), `d'Agilité` in
    /// French ("test d'Agilité": the elision depends on the stat).
    pub fn test_label(self) -> &'static str {
        match self {
            Stat::Force => crate::tr!("growth.stat_test.force"),
            Stat::Esprit => crate::tr!("growth.stat_test.esprit"),
            Stat::Charisme => crate::tr!("growth.stat_test.charisme"),
            Stat::Agilite => crate::tr!("growth.stat_test.agilite"),
            Stat::Precision => crate::tr!("growth.stat_test.precision"),
            Stat::Chance => crate::tr!("growth.stat_test.chance"),
        }
    }

    pub fn parse(s: &str) -> Option<Stat> {
        Stat::ALL.into_iter().find(|x| x.name() == s)
    }

    /// Every name, for error messages.
    pub fn names() -> String {
        Stat::ALL.map(|s| s.name()).join(", ")
    }
}

/// Lowest value of a stat at creation (C-CREATE-2).
pub const STAT_MIN: i32 = 20;
/// Creation and levels 1-2 cap (C-CREATE-2, C-LEVEL-1).
pub const STAT_CAP_LOW: i32 = 80;
/// Cap from level 3 (C-LEVEL-1).
pub const STAT_CAP_HIGH: i32 = 85;

/// The stat cap in force at `level` (C-LEVEL-1).
pub fn cap_at(level: u32) -> i32 {
    if level >= 3 {
        STAT_CAP_HIGH
    } else {
        STAT_CAP_LOW
    }
}
