//! Exact chance that a race/class sheet is met after the point moves (C-CREATE-2),
//! without and with conversion: the check of `races.rs` by enumeration.

use super::creation::{StatAssign, STAT_DICE};
use super::races::moves_needed;
use super::stats::Stat;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::cosmos::growth::creation::STAT_SUM;
    use crate::systems::cosmos::growth::races::tests::sheet;

    #[test]
    fn priority_matches_an_enumeration_of_sorted_dice() {
        // Force (highest die) at least 70 and chance (lowest) at most 40, 3 moves.
        let (lo, hi) = sheet([70, 0, 0, 0, 0, 0], [100, 100, 100, 100, 100, 40]).bounds((20, 80));
        let p = p_met_creation(
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

    #[test]
    fn exact_takes_the_die_window() {
        let die = (45, 55);
        let sum = (280, 320);
        // Force at least 53, chance at most 47, 2 moves, bounds 20..80.
        let (lo, hi) = sheet([53, 0, 0, 0, 0, 0], [100, 100, 100, 100, 100, 47]).bounds((20, 80));
        let p = p_met_creation(StatAssign::InOrder, &Stat::ALL, &lo, &hi, 2, sum, die);
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
        let pr = p_met_creation(StatAssign::Priority, &Stat::ALL, &lo, &hi, 2, sum, die);
        let want_sorted = met_sorted as f64 / acc as f64;
        assert!((pr - want_sorted).abs() < 1e-12, "{pr} {want_sorted}");
        assert!(want_sorted > want);
        // A conversion in order, no moves, Précision at least 53: 3 faces of 11 for the
        // first die, every pair accepted (sums 90..110 within 60..140).
        let (lo, hi) = sheet([0, 0, 0, 0, 53, 0], [100; 6]).bounds((20, 80));
        let c = p_met_conversion(&[50; 4], None, &lo, &hi, 0, (60, 140), die);
        assert!((c - 3.0 / 11.0).abs() < 1e-12, "{c}");
    }

    #[test]
    fn exact_without_limits_is_one_and_in_order_matches_hand() {
        let (lo, hi) = sheet([0; 6], [100; 6]).bounds((20, 80));
        for a in [StatAssign::InOrder, StatAssign::Priority] {
            let p = p_met_creation(a, &Stat::ALL, &lo, &hi, 0, STAT_SUM, (20, 80));
            assert!((p - 1.0).abs() < 1e-12, "{a:?} {p}");
        }
        // In order, no moves, esprit at most 20: one face of the 61, given the sum.
        let (lo, hi) = sheet([0; 6], [100, 20, 100, 100, 100, 100]).bounds((20, 80));
        let p = p_met_creation(
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
