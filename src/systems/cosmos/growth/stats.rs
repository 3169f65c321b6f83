//! The six main stats of a character (C-CREATE-2 order) and their bounds.

use crate::lang::Lang;

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
    pub fn label(self, lang: Lang) -> &'static str {
        match self {
            Stat::Force => tr!(lang, "growth.stat.force"),
            Stat::Esprit => tr!(lang, "growth.stat.esprit"),
            Stat::Charisme => tr!(lang, "growth.stat.charisme"),
            Stat::Agilite => tr!(lang, "growth.stat.agilite"),
            Stat::Precision => tr!(lang, "growth.stat.precision"),
            Stat::Chance => tr!(lang, "growth.stat.chance"),
        }
    }

    /// The stat after "test": `agilite` in English ("agilite test"), `d'Agilité` in
    /// French ("test d'Agilité": the elision depends on the stat).
    pub fn test_label(self, lang: Lang) -> &'static str {
        match self {
            Stat::Force => tr!(lang, "growth.stat_test.force"),
            Stat::Esprit => tr!(lang, "growth.stat_test.esprit"),
            Stat::Charisme => tr!(lang, "growth.stat_test.charisme"),
            Stat::Agilite => tr!(lang, "growth.stat_test.agilite"),
            Stat::Precision => tr!(lang, "growth.stat_test.precision"),
            Stat::Chance => tr!(lang, "growth.stat_test.chance"),
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

/// The stat numbers of creation in force (issue 16), read once per run: each creation
/// die's window (C-CREATE-2/3, `create_die_min`..`create_die_max`, book 20..80) and the
/// C-LEVEL-1 caps (`stat_cap_low`/`stat_cap_high`, book 80/85). The book ties the die
/// window to the stat range ("comprises entre 20 minimum et 80 maximum", l. 33; moves
/// "sans dépasser la valeur minimale de 20 et maximale de 80", l. 195; a conversion's
/// "limites de 20 et de 80 (ou 85 en fonction de son niveau)", l. 205): the die window is
/// its own parameter, the floor of moved points stays the book's 20 and the ceiling the
/// level's cap, each widened to the die window when it goes further, so a die as rolled
/// is never out of bounds. At the book's values: 20..80 (85 for a conversion from
/// level 3), as before.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StatBounds {
    /// A stat die below `die_min` or above `die_max` is rerolled alone.
    pub die_min: i32,
    pub die_max: i32,
    /// The C-LEVEL-1 cap at levels 1-2 and from level 3.
    pub cap_low: i32,
    pub cap_high: i32,
}

impl Default for StatBounds {
    fn default() -> Self {
        StatBounds {
            die_min: STAT_MIN,
            die_max: STAT_CAP_LOW,
            cap_low: STAT_CAP_LOW,
            cap_high: STAT_CAP_HIGH,
        }
    }
}

impl StatBounds {
    pub fn from_options(o: &crate::rules::RuleOptions) -> Self {
        let i = |k: &str| o.integer(k) as i32;
        StatBounds {
            die_min: i("create_die_min"),
            die_max: i("create_die_max"),
            cap_low: i("stat_cap_low"),
            cap_high: i("stat_cap_high"),
        }
    }

    /// Whether a d100 result is kept (C-CREATE-2: "entre 20 et 80"). One unsigned
    /// comparison, as the constant range compiled to (the hot loop of creation).
    #[inline]
    pub fn keeps(&self, r: i32) -> bool {
        (r.wrapping_sub(self.die_min) as u32) <= (self.die_max - self.die_min) as u32
    }

    /// Faces a kept stat die can show (book 61).
    pub fn faces(&self) -> i32 {
        self.die_max - self.die_min + 1
    }

    /// P(one d100 is kept) (book 61/100).
    pub fn p_keep(&self) -> f64 {
        self.faces() as f64 / 100.0
    }

    /// The C-LEVEL-1 cap at `level`.
    pub fn cap(&self, level: u32) -> i32 {
        if level >= 3 {
            self.cap_high
        } else {
            self.cap_low
        }
    }

    /// The lowest a stat may be at creation or conversion: 20, or the die minimum below it.
    pub fn floor(&self) -> i32 {
        STAT_MIN.min(self.die_min)
    }

    /// The highest a stat may be at creation (level 1) or at a conversion's `level`: the
    /// level's cap, or the die maximum above it.
    pub fn ceiling(&self, level: u32) -> i32 {
        self.cap(level).max(self.die_max)
    }

    /// Whether the bounds of `level` are the book's (20..80, 85 from level 3).
    pub fn book_at(&self, level: u32) -> bool {
        self.floor() == STAT_MIN && self.ceiling(level) == cap_at(level)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cosmos::growth::creation::{create, exact, CreationPolicy, MovePolicy};

    fn window(die_min: i32, die_max: i32) -> StatBounds {
        StatBounds {
            die_min,
            die_max,
            ..StatBounds::default()
        }
    }

    #[test]
    fn book_values_match_the_registry_defaults() {
        let b = StatBounds::from_options(&crate::rules::RuleOptions::default());
        assert_eq!(b, StatBounds::default());
        assert_eq!(
            (b.faces(), b.floor(), b.ceiling(1), b.ceiling(3)),
            (61, 20, 80, 85)
        );
        assert!(b.book_at(1) && b.book_at(3));
        // A narrower window keeps the book's bounds; a wider one widens them.
        let narrow = window(30, 70);
        assert_eq!((narrow.floor(), narrow.ceiling(1)), (20, 80));
        assert!(narrow.book_at(2));
        let wide = window(10, 90);
        assert_eq!(
            (wide.floor(), wide.ceiling(1), wide.ceiling(3)),
            (10, 90, 90)
        );
        assert!(!wide.book_at(1));
        let caps = StatBounds {
            cap_low: 75,
            cap_high: 90,
            ..StatBounds::default()
        };
        // C-LEVEL-1 caps in force: level 1 keeps the die's 80, level 3 takes 90.
        assert_eq!((caps.ceiling(1), caps.ceiling(3)), (80, 90));
    }

    /// C-CREATE-2/3 exact layer under a window of 30..70 (41 faces), by hand.
    #[test]
    fn exact_creation_takes_the_die_window() {
        let b = window(30, 70);
        assert!((exact::d100_rolls_per_stat_die_in(&b) - 100.0 / 41.0).abs() < 1e-12);
        assert!((exact::stat_die_in(&b).mean() - 50.0).abs() < 1e-12);
        // Two dice, sum at most 100: for a = 30..70, b in 30..100-a, 71 - a values:
        // sum_{k=1}^{41} k = 861 pairs of 41^2.
        let p = exact::p_conversion_accept_in((60, 100), &b);
        assert!((p - 861.0 / 1681.0).abs() < 1e-12, "{p}");
        // The six stat dice sum 180..420: the book's 200..400 rejects both tails alike;
        // at least 180 accepts everything below 400 (one tail).
        let both = exact::p_stats_accept_in((200, 400), &b);
        let upper = exact::p_stats_accept_in((180, 400), &b);
        assert!((1.0 - both - 2.0 * (1.0 - upper)).abs() < 1e-12);
        // The full d100 window is the plain d100: its law checked against Dist::die.
        let all = window(1, 100);
        let d100 = crate::dice::Dist::die(100)
            .sum_of(6)
            .prob_where(|s| (200..=400).contains(s));
        assert!((exact::p_stats_accept_in((200, 400), &all) - d100).abs() < 1e-12);
        // The book's values through the window-taking functions.
        let book = StatBounds::default();
        assert_eq!(
            exact::p_stats_accept_in((200, 400), &book),
            exact::p_stats_accept()
        );
        assert_eq!(exact::d100_rolls_per_stat_die(), 100.0 / 61.0);
    }

    /// Characters created under a wide window stay within its bounds and reach below 20
    /// and above 80 (the bounds widen with the dice); a narrow one never leaves it.
    #[test]
    fn created_stats_follow_the_window() {
        let mut rng = crate::engine::stream(5, 0, 0);
        for (b, lo, hi) in [(window(10, 90), 10, 90), (window(40, 60), 40, 60)] {
            let p = CreationPolicy {
                move_policy: MovePolicy::EvenOut,
                move_points: 10,
                bounds: b,
                ..Default::default()
            };
            let (mut min, mut max, mut rolls, mut kept) = (100, 0, 0u64, 0u64);
            for _ in 0..4000 {
                let c = create(&mut rng, &p);
                min = min.min(*c.character.stats.iter().min().unwrap());
                max = max.max(*c.character.stats.iter().max().unwrap());
                rolls += c.stat_d100_rolls as u64;
                kept += 6 * c.stat_attempts as u64;
            }
            assert!(lo <= min && max <= hi, "{b:?}: {min}..{max}");
            if lo < 20 {
                assert!(min < 20 && max > 80, "{min}..{max}");
            }
            // Rolls per kept die: 100 / faces, within 5 standard errors (geometric).
            let q = b.p_keep();
            let se = ((1.0 - q) / (q * q) / kept as f64).sqrt();
            let mean = rolls as f64 / kept as f64;
            assert!((mean - 1.0 / q).abs() < 5.0 * se, "{mean} vs {}", 1.0 / q);
        }
    }
}
