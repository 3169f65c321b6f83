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

/// Exact chance that the intended sheet is met after the point moves (C-CREATE-2),
/// without and with conversion.
pub mod exact {
    use super::*;
    use crate::systems::cosmos::growth::creation::{StatAssign, STAT_DICE};

    /// Dense table over (sum, points missing, points in excess), the two counts saturated
    /// at `m + 1` (more than the moves: the sheet is missed either way).
    struct Grid {
        m: usize,
        p: Vec<f64>,
    }

    impl Grid {
        fn new(m: i32, sums: usize) -> Grid {
            let m = m as usize + 2;
            Grid {
                m,
                p: vec![0.0; sums * m * m],
            }
        }
        fn at(&self, s: usize, d: usize, e: usize) -> usize {
            (s * self.m + d) * self.m + e
        }
    }

    /// P(the six accepted, assigned stat dice can be brought within `lo..=hi` with
    /// `points` moves). Exact: a table over (sum, missing, excess) built die by die (in
    /// order) or value by value with multiplicities (priority: the sorted dice). Each die
    /// uniform on `die` (`create_die_min..=create_die_max`, book 20..80), the six in the
    /// sum window `sum`.
    #[allow(clippy::too_many_arguments)]
    pub fn p_met_creation(
        assign: StatAssign,
        priority: &[Stat; 6],
        lo: &[i32; 6],
        hi: &[i32; 6],
        points: i32,
        sum: (i64, i64),
        die: (i32, i32),
    ) -> f64 {
        if (0..6).any(|i| lo[i] > hi[i]) {
            return 0.0;
        }
        let (dmin, dmax) = die;
        let sums = (dmax.max(0) as usize) * STAT_DICE + 1;
        let sat = points as usize + 1;
        let add = |d: usize, e: usize, v: i32, i: usize| {
            (
                (d + (lo[i] - v).max(0) as usize).min(sat),
                (e + (v - hi[i]).max(0) as usize).min(sat),
            )
        };
        // The stat of each die: in order, or the k-th highest to priority[k].
        let slot: [usize; 6] = match assign {
            StatAssign::InOrder => [0, 1, 2, 3, 4, 5],
            StatAssign::Priority => priority.map(|s| s as usize),
        };
        let mut g = Grid::new(points, sums);
        let w = 1.0 / (dmax - dmin + 1) as f64;
        match assign {
            StatAssign::InOrder => {
                let i0 = g.at(0, 0, 0);
                g.p[i0] = 1.0;
                for &i in &slot {
                    let mut n = Grid::new(points, sums);
                    for s in 0..sums {
                        for d in 0..=sat {
                            for e in 0..=sat {
                                let p = g.p[g.at(s, d, e)];
                                if p == 0.0 {
                                    continue;
                                }
                                for v in dmin..=dmax {
                                    let (d2, e2) = add(d, e, v, i);
                                    let j = n.at(s + v as usize, d2, e2);
                                    n.p[j] += p * w;
                                }
                            }
                        }
                    }
                    g = n;
                }
            }
            StatAssign::Priority => {
                // Values from the highest down; k dice placed so far; weight w^m / m! per
                // value taken m times, times 6! at the end (ordered tuples).
                let mut layers: Vec<Grid> = (0..=6).map(|_| Grid::new(points, sums)).collect();
                let i0 = layers[0].at(0, 0, 0);
                layers[0].p[i0] = 1.0;
                for v in (dmin..=dmax).rev() {
                    for k in (0..6).rev() {
                        // Take m >= 1 copies of v at places k..k+m-1 (k descending, so a
                        // layer is read before this value writes into it).
                        for s in 0..sums {
                            for d in 0..=sat {
                                for e in 0..=sat {
                                    let p = layers[k].p[layers[k].at(s, d, e)];
                                    if p == 0.0 {
                                        continue;
                                    }
                                    let (mut dd, mut ee, mut q) = (d, e, p);
                                    for m in 1..=(6 - k) {
                                        let (d2, e2) = add(dd, ee, v, slot[k + m - 1]);
                                        dd = d2;
                                        ee = e2;
                                        q *= w / m as f64;
                                        let j = layers[k + m].at(s + (v as usize) * m, dd, ee);
                                        layers[k + m].p[j] += q;
                                    }
                                }
                            }
                        }
                    }
                }
                g = layers.pop().expect("seven layers");
                for p in g.p.iter_mut() {
                    *p *= 720.0;
                }
            }
        }
        let (sl, sh): (i32, i32) = (lo.iter().sum(), hi.iter().sum());
        let (mut acc, mut met) = (0.0, 0.0);
        // The table ends at six maximal dice (a sum window reaching past it is cut there).
        let top = (sum.1.max(0) as usize).min(sums - 1);
        for s in sum.0.max(0) as usize..=top {
            for d in 0..=sat {
                for e in 0..=sat {
                    let p = g.p[g.at(s, d, e)];
                    acc += p;
                    let si = s as i32;
                    if d.max(e) <= points as usize && sl <= si && si <= sh {
                        met += p;
                    }
                }
            }
        }
        met / acc
    }

    /// P(a conversion meets the sheet): the four kept stats and the two accepted dice
    /// (enumerated: 61 x 61 pairs at the book's window `die`, 20..80), assigned as
    /// `creation::convert` does.
    #[allow(clippy::too_many_arguments)]
    pub fn p_met_conversion(
        kept: &[i32; 4],
        prec_first: Option<bool>,
        lo: &[i32; 6],
        hi: &[i32; 6],
        points: i32,
        sum: (i64, i64),
        die: (i32, i32),
    ) -> f64 {
        let (mut acc, mut met) = (0.0, 0.0);
        for a in die.0..=die.1 {
            for b in die.0..=die.1 {
                if !(sum.0..=sum.1).contains(&((a + b) as i64)) {
                    continue;
                }
                let (x, y) = match prec_first {
                    None => (a, b),
                    Some(true) => (a.max(b), a.min(b)),
                    Some(false) => (a.min(b), a.max(b)),
                };
                let s = [kept[0], kept[1], kept[2], kept[3], x, y];
                acc += 1.0;
                if moves_needed(&s, lo, hi).is_some_and(|n| n <= points) {
                    met += 1.0;
                }
            }
        }
        met / acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cosmos::growth::creation::STAT_SUM;

    fn sheet(min: [i32; 6], max: [i32; 6]) -> Sheet {
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

    #[test]
    fn priority_matches_an_enumeration_of_sorted_dice() {
        use crate::systems::cosmos::growth::creation::StatAssign;
        // Force (highest die) at least 70 and chance (lowest) at most 40, 3 moves.
        let (lo, hi) = sheet([70, 0, 0, 0, 0, 0], [100, 100, 100, 100, 100, 40]).bounds((20, 80));
        let p = exact::p_met_creation(
            StatAssign::Priority,
            &Stat::ALL,
            &lo,
            &hi,
            3,
            STAT_SUM,
            (20, 80),
        );
        // Brute force over non-increasing 6-tuples with their multinomial counts.
        let (mut acc, mut met) = (0.0, 0.0);
        let fact = [1.0, 1.0, 2.0, 6.0, 24.0, 120.0, 720.0];
        let mut v = [80i32; 6];
        fn next(v: &mut [i32; 6]) -> bool {
            // Non-increasing tuples in 20..=80, last position fastest.
            for i in (0..6).rev() {
                if v[i] > 20 {
                    v[i] -= 1;
                    for j in i + 1..6 {
                        v[j] = v[i];
                    }
                    return true;
                }
            }
            false
        }
        loop {
            let s: i32 = v.iter().sum();
            if (200..=400).contains(&s) {
                let mut w = 720.0;
                let mut i = 0;
                while i < 6 {
                    let mut j = i;
                    while j < 6 && v[j] == v[i] {
                        j += 1;
                    }
                    w /= fact[j - i];
                    i = j;
                }
                acc += w;
                if moves_needed(&v, &lo, &hi).is_some_and(|n| n <= 3) {
                    met += w;
                }
            }
            if !next(&mut v) {
                break;
            }
        }
        assert!((p - met / acc).abs() < 1e-9, "{p} {}", met / acc);
    }

    /// C-CREATE-2/3 under a die window of 45..55 (11 faces), by brute force: every
    /// ordered six-tuple for `in_order`, every ordered pair for a conversion.
    #[test]
    fn exact_takes_the_die_window() {
        use crate::systems::cosmos::growth::creation::StatAssign;
        let die = (45, 55);
        let sum = (280, 320);
        // Force at least 53, chance at most 47, 2 moves, bounds 20..80.
        let (lo, hi) = sheet([53, 0, 0, 0, 0, 0], [100, 100, 100, 100, 100, 47]).bounds((20, 80));
        let p = exact::p_met_creation(StatAssign::InOrder, &Stat::ALL, &lo, &hi, 2, sum, die);
        let (mut acc, mut met, mut met_sorted) = (0u64, 0u64, 0u64);
        let mut v = [45i32; 6];
        'all: loop {
            let s: i32 = v.iter().sum();
            if (280..=320).contains(&s) {
                acc += 1;
                let fits = |x: &[i32; 6]| moves_needed(x, &lo, &hi).is_some_and(|n| n <= 2);
                met += fits(&v) as u64;
                // Priority (rulebook order): the highest die to force, and so on.
                let mut sorted = v;
                sorted.sort_unstable_by(|a, b| b.cmp(a));
                met_sorted += fits(&sorted) as u64;
            }
            for i in (0..6).rev() {
                if v[i] < 55 {
                    v[i] += 1;
                    continue 'all;
                }
                v[i] = 45;
            }
            break;
        }
        let want = met as f64 / acc as f64;
        assert!((p - want).abs() < 1e-12, "{p} {want}");
        let pr = exact::p_met_creation(StatAssign::Priority, &Stat::ALL, &lo, &hi, 2, sum, die);
        let want_sorted = met_sorted as f64 / acc as f64;
        assert!((pr - want_sorted).abs() < 1e-12, "{pr} {want_sorted}");
        assert!(want_sorted > want);
        // A conversion in order, no moves, Précision at least 53: 3 faces of 11 for the
        // first die, every pair accepted (sums 90..110 within 60..140).
        let (lo, hi) = sheet([0, 0, 0, 0, 53, 0], [100; 6]).bounds((20, 80));
        let c = exact::p_met_conversion(&[50; 4], None, &lo, &hi, 0, (60, 140), die);
        assert!((c - 3.0 / 11.0).abs() < 1e-12, "{c}");
    }

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

    #[test]
    fn exact_without_limits_is_one_and_in_order_matches_hand() {
        use crate::systems::cosmos::growth::creation::StatAssign;
        let (lo, hi) = sheet([0; 6], [100; 6]).bounds((20, 80));
        for a in [StatAssign::InOrder, StatAssign::Priority] {
            let p = exact::p_met_creation(a, &Stat::ALL, &lo, &hi, 0, STAT_SUM, (20, 80));
            assert!((p - 1.0).abs() < 1e-12, "{a:?} {p}");
        }
        // In order, no moves, esprit at most 20: one face of the 61, given the sum.
        let (lo, hi) = sheet([0; 6], [100, 20, 100, 100, 100, 100]).bounds((20, 80));
        let p = exact::p_met_creation(
            StatAssign::InOrder,
            &Stat::ALL,
            &lo,
            &hi,
            0,
            STAT_SUM,
            (20, 80),
        );
        // P(esprit = 20 | sum in 200..400) = P(sum of five in 180..380) / 61 / P(accept).
        let five = crate::systems::cosmos::growth::creation::exact::stat_die().sum_of(5);
        let six = crate::systems::cosmos::growth::creation::exact::p_stats_accept();
        let want = five.prob_where(|s| (180..=380).contains(s)) / 61.0 / six;
        assert!((p - want).abs() < 1e-12, "{p} {want}");
    }
}
