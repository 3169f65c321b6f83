//! Race/class stat limits at creation (issue 10 item 11; C-CREATE-2, C-CREATE-3).
//! Source: cosmos-current.fr.txt, "Création de personnage":
//! - l. 191: "il pourra ou devra afin de respecter certaines contraintes de races/classes
//!   changer ceux-ci";
//! - l. 195: "Il veillera également à respecter les contraintes imposées par sa race et sa
//!   classe, sans quoi il sera forcé de changer de race/classe";
//! - l. 205 (conversion): the 20-point margin is used "en priorité pour réajuster les
//!   statistiques en fonction des contraintes imposées par sa race/classe".
//!
//! The book has no race list: race/class sheets (a minimum and/or maximum per stat) are
//! scenario data, the first one the character's intended race/class, the others the
//! fallback list in order. After the dice are assigned, the point moves (up to 10, or 20
//! in a conversion) go first to meeting the sheet; the moves left follow the player's
//! move policy within the sheet's bounds. A sheet the moves cannot meet is handled by the
//! option `race_class_conflict`: `change` (the book: the first sheet of the list the stats
//! can meet, or none) or `reroll` (the stat dice are rolled again until the intended sheet
//! is met).

use super::moves::{move_points_within, MovePolicy};
use super::stats::Stat;

/// At most this many race/class sheets in a file.
pub const MAX_SHEETS: usize = 16;
/// A character whose stats miss the intended sheet after this many rerolls keeps no sheet
/// (counted as "none met"); the cap keeps an unreachable sheet from looping forever.
pub const MAX_REROLLS: u32 = 1000;

/// What happens when the point moves cannot meet the intended sheet (option
/// `race_class_conflict`, C-CREATE-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Conflict {
    /// The book (l. 195): change to the first sheet of the list the stats can meet.
    #[default]
    Change,
    /// Roll the stat dice again (a common table reading).
    Reroll,
}

/// One race/class sheet: per-stat limits in rulebook order (`min` 0 = none, `max` 100 =
/// none; the creation bounds, book 20..80, apply anyway).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sheet {
    pub name: String,
    pub min: [i32; 6],
    pub max: [i32; 6],
}

impl Sheet {
    /// The bounds a stat must end within: the sheet's limits inside `floor..=cap` (the
    /// creation bounds in force, `stats::StatBounds`; book 20..80).
    pub fn bounds(&self, (floor, cap): (i32, i32)) -> ([i32; 6], [i32; 6]) {
        let mut lo = [floor; 6];
        let mut hi = [cap; 6];
        for i in 0..6 {
            lo[i] = self.min[i].max(floor);
            hi[i] = self.max[i].min(cap);
        }
        (lo, hi)
    }

    /// Whether `stats` meet the sheet as they are.
    pub fn met_by(&self, stats: &[i32; 6]) -> bool {
        (0..6).all(|i| self.min[i] <= stats[i] && stats[i] <= self.max[i])
    }
}

/// The `race_class_conflict` option in force.
pub fn race_conflict(o: &crate::rules::RuleOptions) -> Conflict {
    match o.get("race_class_conflict") {
        "reroll" => Conflict::Reroll,
        _ => Conflict::Change,
    }
}

/// Whether a sheet binds level-ups (`race_limits_levelling = always`, C-LEVEL-1).
pub fn limits_level_ups(o: &crate::rules::RuleOptions) -> bool {
    o.get("race_limits_levelling") == "always"
}

/// The sheets of a file and the conflict reading in force.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Races {
    pub sheets: Vec<Sheet>,
    pub conflict: Conflict,
}

/// Moves needed to bring `stats` within `lo..=hi` (per stat), or `None` when no number
/// of moves can (the bounds cannot hold the stats' sum). A move takes one point from a
/// stat and gives it to another, so the least is max(points missing, points in excess).
pub fn moves_needed(stats: &[i32; 6], lo: &[i32; 6], hi: &[i32; 6]) -> Option<i32> {
    let (mut d, mut e, mut s, mut sl, mut sh) = (0, 0, 0, 0, 0);
    for i in 0..6 {
        if lo[i] > hi[i] {
            return None;
        }
        d += (lo[i] - stats[i]).max(0);
        e += (stats[i] - hi[i]).max(0);
        s += stats[i];
        sl += lo[i];
        sh += hi[i];
    }
    (sl <= s && s <= sh).then_some(d.max(e))
}

/// Uses up to `points` moves to bring `stats` within `lo..=hi` (C-CREATE-2/3: the moves
/// go first to the sheet's limits); returns the moves used, or `None` (stats unchanged)
/// when `points` are not enough. A missing point is taken first from a stat above its
/// maximum, else from the least wanted stat with points to spare (end of `priority`); a
/// point in excess goes to a stat below its minimum, else to the most wanted stat with
/// room (start of `priority`).
pub fn fit(
    stats: &mut [i32; 6],
    priority: &[Stat; 6],
    points: i32,
    lo: &[i32; 6],
    hi: &[i32; 6],
) -> Option<i32> {
    let need = moves_needed(stats, lo, hi)?;
    if need > points {
        return None;
    }
    for _ in 0..need {
        let to = (0..6).find(|&i| stats[i] < lo[i]).or_else(|| {
            priority
                .iter()
                .map(|s| *s as usize)
                .find(|&i| stats[i] < hi[i])
        });
        let from = (0..6).find(|&i| stats[i] > hi[i]).or_else(|| {
            priority
                .iter()
                .rev()
                .map(|s| *s as usize)
                .find(|&i| stats[i] > lo[i] && Some(i) != to)
        });
        if let (Some(t), Some(f)) = (to, from) {
            stats[t] += 1;
            stats[f] -= 1;
        }
    }
    Some(need)
}

/// The sheet the assigned `stats` end on (`None`: none met), with the point moves spent:
/// first on the sheet's limits, the rest by `policy` within its bounds. Under
/// [`Conflict::Reroll`] only the intended sheet (the first) is tried. `bounds`: the stat
/// floor and ceiling in force (book 20..80).
#[allow(clippy::too_many_arguments)]
pub fn settle(
    races: &Races,
    stats: &mut [i32; 6],
    priority: &[Stat; 6],
    policy: MovePolicy,
    points: i32,
    bounds: (i32, i32),
) -> Option<usize> {
    let tried = match races.conflict {
        Conflict::Change => races.sheets.len(),
        Conflict::Reroll => 1,
    };
    for (k, sheet) in races.sheets.iter().take(tried).enumerate() {
        let (lo, hi) = sheet.bounds(bounds);
        let mut s = *stats;
        if let Some(used) = fit(&mut s, priority, points, &lo, &hi) {
            move_points_within(&mut s, priority, policy, points - used, &lo, &hi);
            *stats = s;
            return Some(k);
        }
    }
    None
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A sheet of these bounds, shared with the exact odds' tests (`race_odds.rs`).
    pub(crate) fn sheet(min: [i32; 6], max: [i32; 6]) -> Sheet {
        Sheet {
            name: "x".into(),
            min,
            max,
        }
    }

    #[test]
    fn fit_uses_the_fewest_moves() {
        // Force 3 short of 45, charisme 2 over 60: three moves (max(3, 2)).
        let (lo, hi) = sheet([45, 0, 0, 0, 0, 0], [100, 100, 60, 100, 100, 100]).bounds((20, 80));
        let mut s = [42, 50, 62, 50, 50, 46];
        assert_eq!(moves_needed(&s, &lo, &hi), Some(3));
        assert_eq!(fit(&mut s, &Stat::ALL, 10, &lo, &hi), Some(3));
        // Two from charisme, the third from chance (the least wanted with points to spare).
        assert_eq!(s, [45, 50, 60, 50, 50, 45]);
        let mut s = [42, 50, 62, 50, 50, 46];
        assert_eq!(fit(&mut s, &Stat::ALL, 2, &lo, &hi), None);
        assert_eq!(s, [42, 50, 62, 50, 50, 46]);
        // A sum the bounds cannot hold: no number of moves helps.
        let (lo, hi) = sheet([70; 6], [100; 6]).bounds((20, 80));
        assert_eq!(moves_needed(&[50; 6], &lo, &hi), None);
    }

    /// C-CREATE-2/3 under a die window of 45..55 (11 faces), by brute force: every
    /// ordered six-tuple for `in_order`, every ordered pair for a conversion.

    #[test]
    fn change_takes_the_first_sheet_met() {
        let races = Races {
            sheets: vec![
                sheet([70, 0, 0, 0, 0, 0], [100; 6]),
                sheet([0; 6], [100, 40, 100, 100, 100, 100]),
                sheet([0; 6], [100; 6]),
            ],
            conflict: Conflict::Change,
        };
        let mut s = [55, 45, 50, 50, 50, 50];
        let k = settle(&races, &mut s, &Stat::ALL, MovePolicy::None, 10, (20, 80));
        // Force is 15 short: sheet 0 missed; esprit 5 over 40: sheet 1 with 5 moves.
        assert_eq!(k, Some(1));
        assert_eq!(s[1], 40);
        assert_eq!(s.iter().sum::<i32>(), 300);
        let reroll = Races {
            conflict: Conflict::Reroll,
            ..races
        };
        let mut s = [55, 45, 50, 50, 50, 50];
        assert_eq!(
            settle(&reroll, &mut s, &Stat::ALL, MovePolicy::None, 10, (20, 80)),
            None
        );
    }
}
