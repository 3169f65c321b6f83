//! `tune`: the value of one key where a figure meets a target, by bisection.
//!
//! The figure is assumed monotone in the key on [LO, HI] (more HP, more wins); the two
//! ends are evaluated first. When both ends lie on the same side of the target, the
//! figure may still cross it inside the range (a policy threshold that is best in the
//! middle): points inside are tried in increasing order (every whole value of an exact
//! figure over a short range, else [`PROBES`] evenly spaced ones), and the first that
//! crosses brackets the bisection. Only when none does is the target reported as not
//! reached, at the points tried (audit of 2026-12-07: the two ends alone were reported as
//! the figure's maximum). Each bisection step needs only the *side* of the target the
//! midpoint is on:
//! - exact figures decide at once;
//! - Monte Carlo figures are run at growing trial counts (the `looks`: a first count, then
//!   doubling, up to `max_trials`) until the interval at the step's level excludes the
//!   target. Trials go where they matter: a midpoint far from the target is decided at the
//!   first look, one near it gets more. The level of each look is Bonferroni-corrected
//!   over every look of every step, so the whole answer holds at `confidence`. A step
//!   still undecided at `max_trials` goes by its point estimate and the answer says so.
//!
//! Integer keys stop when the two bracketing neighbours are found; real keys when the
//! bracket is narrower than the tolerance.
//!
//! The Bonferroni budget: each of the `max_steps` decisions of a plain bisection gets an
//! equal share. When the ends do not bracket the target, what the ends left is shared
//! equally by the probes and the bisection after them, so the answer still holds at
//! `confidence`; a run whose ends bracket the target decides exactly as before.

use super::expect::decide::{looks, widen};

/// One evaluation: the figure at a key value with `trials` trials.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub value: f64,
    pub figure: f64,
    /// 95% interval, `None` for an exact figure.
    pub interval95: Option<(f64, f64)>,
    /// Degrees of freedom of a Student-t interval over few chains (None: normal).
    pub df: Option<f64>,
    pub trials: Option<u64>,
    /// Whether the side of the target was decided at the step's level.
    pub decided: bool,
    /// Within `within` of the target at the step's level: an answer.
    pub on_target: bool,
}

#[cfg(test)]
impl Point {
    /// An exact point (no interval, no trials, off target) at `value` reading `figure`:
    /// the unit tests' fixture here and in `commands/tune.rs`, `commands/tune_page.rs`.
    pub(crate) fn exact(value: f64, figure: f64, decided: bool) -> Point {
        Point {
            value,
            figure,
            interval95: None,
            df: None,
            trials: None,
            decided,
            on_target: false,
        }
    }
}

/// What to find.
#[derive(Clone, Debug)]
pub struct Goal {
    pub lo: f64,
    pub hi: f64,
    pub integer: bool,
    pub target: f64,
    /// Real keys: stop when the bracket is at most this wide.
    pub tolerance: f64,
    /// A point whose interval (at the step's level) lies within target ± `within` is an
    /// answer: close enough for the designer (0 = only an exact hit).
    pub within: f64,
    pub confidence: f64,
    pub first_trials: u64,
    pub max_trials: u64,
}

/// The answer.
#[derive(Clone, Debug)]
pub enum Answer {
    /// The target lies between the figures at `below` and `above` (neighbours for integer
    /// keys; a bracket narrower than the tolerance for real ones), or is met exactly.
    Found {
        below: Point,
        above: Point,
        exact_hit: Option<Point>,
        all_decided: bool,
        /// Both ends were on one side of the target and points inside found a crossing:
        /// the figure is not monotone on the range, and this is the first crossing.
        probed: bool,
        /// The figure jumps over the target between `below` and `above`: bisection
        /// narrowed the bracket at least four times while the figure's change across it
        /// stayed above half of its change across the bracket bisection started from (a
        /// step; a figure that moves smoothly changes in proportion to the bracket). No
        /// value of the key then has the figure near the target.
        jump: bool,
    },
    /// The figure stays on one side of the target at every point tried (`tried`: the ends
    /// and the probes), `every_value` when that is each whole value of the range.
    NotReached {
        min: Point,
        max: Point,
        tried: usize,
        every_value: bool,
    },
}

/// Points tried inside the range when the ends do not bracket the target.
pub const PROBES: usize = 7;

/// An exact figure over a whole-number range of at most this many values is read at
/// every one of them when the ends do not bracket the target.
pub const EXACT_SCAN: f64 = 256.0;

/// Bisection steps the range needs at most (plus the two ends).
pub fn max_steps(g: &Goal) -> usize {
    let span = if g.integer {
        (g.hi - g.lo).max(1.0)
    } else {
        ((g.hi - g.lo) / g.tolerance.max(1e-12)).max(1.0)
    };
    span.log2().ceil() as usize + 2
}

/// Side of the target: -1 below, +1 above, 0 on it (exact only).
fn side(p: &Point, target: f64) -> i8 {
    // Exact figures meet the target to 1e-9, as `expect` compares them.
    if p.on_target || (p.interval95.is_none() && (p.figure - target).abs() <= 1e-9) {
        0
    } else if p.figure > target {
        1
    } else if p.figure < target {
        -1
    } else {
        0
    }
}

/// Bisects; `eval(value, trials)` computes the figure (`trials` is `None` for the
/// source's own count when the figure turns out exact).
pub fn tune(
    g: &Goal,
    mut eval: impl FnMut(f64, u64) -> anyhow::Result<Point>,
    mut seen: impl FnMut(&Point),
) -> anyhow::Result<Answer> {
    let schedule = looks(g.first_trials, g.max_trials);
    let steps = max_steps(g);
    let alpha = (1.0 - g.confidence) / (steps * schedule.len()) as f64;
    let mut decide = |v: f64, alpha: f64| -> anyhow::Result<Point> {
        let mut last = None;
        for &t in &schedule {
            let mut p = eval(v, t)?;
            match p.interval95 {
                None => {
                    p.decided = true;
                    seen(&p);
                    return Ok(p);
                }
                Some(iv) => {
                    let (lo, hi) = widen(p.figure, iv, alpha, p.df);
                    let close =
                        g.within > 0.0 && lo >= g.target - g.within && hi <= g.target + g.within;
                    if close {
                        // Close enough: counts as on the target.
                        p.decided = true;
                        p.on_target = true;
                        seen(&p);
                        return Ok(p);
                    }
                    p.decided = lo > g.target || hi < g.target;
                    if p.decided {
                        seen(&p);
                        return Ok(p);
                    }
                }
            }
            last = Some(p);
        }
        let p = last.ok_or_else(|| anyhow::anyhow!("no trial count to run"))?;
        seen(&p);
        Ok(p)
    };
    let snap = |x: f64| if g.integer { x.round() } else { x };
    let mut a = decide(snap(g.lo), alpha)?;
    let mut b = decide(snap(g.hi), alpha)?;
    let (sa, sb) = (side(&a, g.target), side(&b, g.target));
    if sa == 0 {
        return Ok(hit(a, false));
    }
    if sb == 0 {
        return Ok(hit(b, false));
    }
    let mut all_decided = a.decided && b.decided;
    let mut alpha = alpha;
    let probed = sa == sb;
    if probed {
        let exact = a.interval95.is_none() && b.interval95.is_none();
        let every_value = exact && g.integer && g.hi - g.lo <= EXACT_SCAN;
        let inside: Vec<f64> = if every_value {
            (snap(g.lo) as i64 + 1..snap(g.hi) as i64)
                .map(|v| v as f64)
                .collect()
        } else {
            let mut v: Vec<f64> = (1..=PROBES)
                .map(|k| snap(g.lo + (g.hi - g.lo) * k as f64 / (PROBES + 1) as f64))
                .filter(|&x| x != a.value && x != b.value)
                .collect();
            v.dedup();
            v
        };
        // What the ends left of the budget, shared by the probes and the steps after.
        let rest = (steps.saturating_sub(2)).max(1);
        alpha *= rest as f64 / (inside.len() + rest) as f64;
        let mut prev = a.clone();
        let mut tried = vec![a.clone(), b.clone()];
        let mut crossing = None;
        for &v in &inside {
            let m = decide(v, alpha)?;
            all_decided &= m.decided;
            match side(&m, g.target) {
                0 => return Ok(hit(m, true)),
                s if s != sa => {
                    crossing = Some(m);
                    break;
                }
                _ => {
                    tried.push(m.clone());
                    prev = m;
                }
            }
        }
        let Some(m) = crossing else {
            // The lowest key among equal figures, as a reader scans the range.
            tried.sort_by(|x, y| x.value.total_cmp(&y.value));
            let pick = |better: fn(f64, f64) -> bool| {
                tried
                    .iter()
                    .fold(None::<&Point>, |m, p| match m {
                        Some(m) if !better(p.figure, m.figure) => Some(m),
                        _ => Some(p),
                    })
                    .cloned()
            };
            let (min, max) = (pick(|x, m| x < m), pick(|x, m| x > m));
            return Ok(Answer::NotReached {
                min: min.unwrap_or_else(|| a.clone()),
                max: max.unwrap_or(b),
                tried: tried.len(),
                every_value,
            });
        };
        a = prev;
        b = m;
    }
    // The bracket bisection starts from, to tell a jump from a crossing at the end.
    let start = ((b.value - a.value).abs(), (b.figure - a.figure).abs());
    loop {
        let width = b.value - a.value;
        let done = if g.integer {
            width.abs() <= 1.0
        } else {
            width.abs() <= g.tolerance
        };
        if done {
            break;
        }
        let mid = snap((a.value + b.value) / 2.0);
        if mid == a.value || mid == b.value {
            break;
        }
        let m = decide(mid, alpha)?;
        all_decided &= m.decided;
        match side(&m, g.target) {
            0 => return Ok(hit(m, probed)),
            s if s == sa => a = m,
            _ => b = m,
        }
    }
    let (below, above) = if a.value <= b.value { (a, b) } else { (b, a) };
    let jump = is_jump(start, &below, &above);
    Ok(Answer::Found {
        below,
        above,
        exact_hit: None,
        all_decided,
        probed,
        jump,
    })
}

/// Whether the final bracket `below..above` holds a jump of the figure rather than a
/// crossing (audit of 2026-12-07, evening: a step function was said to "reach" the
/// target at the bracket's middle). `start` is the (width, figure change) of the bracket
/// bisection started from: a figure that moves smoothly changes across the final bracket
/// in proportion to its width (a quarter of the start's change or less after two halvings,
/// a sixty-fourth after six); a step keeps its whole change however narrow the bracket.
/// A bracket that bisection did not narrow four times says nothing either way.
fn is_jump((width0, change0): (f64, f64), below: &Point, above: &Point) -> bool {
    let width = (above.value - below.value).abs();
    let change = (above.figure - below.figure).abs();
    width * 4.0 <= width0 && change > change0 / 2.0
}

fn hit(p: Point, probed: bool) -> Answer {
    Answer::Found {
        below: p.clone(),
        above: p.clone(),
        exact_hit: Some(p),
        all_decided: true,
        probed,
        jump: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goal(lo: f64, hi: f64, integer: bool, target: f64) -> Goal {
        Goal {
            lo,
            hi,
            integer,
            target,
            tolerance: 0.01,
            within: 0.0,
            confidence: 0.95,
            first_trials: 1000,
            max_trials: 16000,
        }
    }

    fn exact(f: impl Fn(f64) -> f64) -> impl FnMut(f64, u64) -> anyhow::Result<Point> {
        move |v, _| Ok(Point::exact(v, f(v), false))
    }

    #[test]
    fn integer_keys_give_the_two_neighbours() {
        // P(success) at karma 0 below 42 is (t - 10)/100: 0.305 lies between 40 and 41.
        let a = tune(
            &goal(20.0, 85.0, true, 0.305),
            exact(|t| (t - 10.0) / 100.0),
            |_| {},
        )
        .unwrap();
        match a {
            Answer::Found { below, above, .. } => {
                assert_eq!((below.value, above.value), (40.0, 41.0));
            }
            other => panic!("{other:?}"),
        }
        let a = tune(
            &goal(20.0, 85.0, true, 0.30),
            exact(|t| (t - 10.0) / 100.0),
            |_| {},
        )
        .unwrap();
        assert!(matches!(a, Answer::Found { exact_hit: Some(ref p), .. } if p.value == 40.0));
    }

    #[test]
    fn decreasing_figures_and_real_keys() {
        let a = tune(&goal(0.0, 1.0, false, 0.25), exact(|x| 1.0 - x), |_| {}).unwrap();
        match a {
            Answer::Found { below, above, .. } => {
                assert!(below.value <= 0.75 && above.value >= 0.75);
                assert!(above.value - below.value <= 0.01);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_target_out_of_range_is_reported_with_the_range() {
        let a = tune(
            &goal(50.0, 400.0, true, 0.6),
            exact(|x| 0.57 - x / 10_000.0),
            |_| {},
        )
        .unwrap();
        match a {
            Answer::NotReached { max, .. } => {
                assert_eq!(max.value, 50.0);
                assert!((max.figure - 0.565).abs() < 1e-12);
            }
            other => panic!("{other:?}"),
        }
    }

    /// Audit of 2026-12-07: both ends below the target, the figure above it in the middle
    /// (a hump). The ends alone said "never reaches"; the points inside find the crossing.
    #[test]
    fn a_hump_inside_the_range_is_found_by_the_probes() {
        // Exact, whole values 30..80 (every value read): -0.2 at both ends, -0.19 at 35..45.
        let hump = |x: f64| {
            if (35.0..=45.0).contains(&x) {
                -0.19
            } else {
                -0.2
            }
        };
        let mut seen = vec![];
        let a = tune(&goal(30.0, 80.0, true, -0.192), exact(hump), |p| {
            seen.push(p.value)
        })
        .unwrap();
        match a {
            Answer::Found {
                below,
                above,
                probed,
                ..
            } => {
                assert!(probed);
                assert_eq!((below.value, above.value), (34.0, 35.0));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(seen, [30.0, 80.0, 31.0, 32.0, 33.0, 34.0, 35.0]);
        // A real key: seven points inside, the first crossing bisected to the tolerance.
        let peak = |x: f64| 0.99 - 0.5 * (x - 0.375).abs();
        let a = tune(&goal(0.2, 0.8, false, 0.975), exact(peak), |_| {}).unwrap();
        match a {
            Answer::Found {
                below,
                above,
                probed,
                ..
            } => {
                assert!(probed);
                assert!(
                    below.figure < 0.975 && above.figure > 0.975,
                    "{below:?} {above:?}"
                );
                assert!(above.value - below.value <= 0.01);
                // 0.99 - 0.5 (0.375 - x) = 0.975 at x = 0.345.
                assert!((below.value - 0.345).abs() < 0.01, "{below:?}");
            }
            other => panic!("{other:?}"),
        }
    }

    /// Audit of 2026-12-07, evening: a step function jumps over the target; the answer
    /// says so instead of "reaches at ≈ the bracket's middle". A smooth figure (the line,
    /// the probed peak) and a bracket bisection never narrowed are not jumps.
    #[test]
    fn a_step_over_the_target_is_a_jump_not_a_crossing() {
        let jump_of = |a: Answer| match a {
            Answer::Found {
                below, above, jump, ..
            } => (below.value, above.value, jump),
            other => panic!("{other:?}"),
        };
        // Real key: 0.2 below 0.337, 0.8 from it; target 0.5 is never taken.
        let step = |x: f64| if x < 0.337 { 0.2 } else { 0.8 };
        let (lo, hi, jump) =
            jump_of(tune(&goal(0.0, 1.0, false, 0.5), exact(step), |_| {}).unwrap());
        assert!(
            jump && lo < 0.337 && hi >= 0.337 && hi - lo <= 0.01,
            "{lo} {hi}"
        );
        // Whole values 0..100: 0.1 up to 41, 0.9 from 42.
        let step = |x: f64| if x < 42.0 { 0.1 } else { 0.9 };
        let a = tune(&goal(0.0, 100.0, true, 0.5), exact(step), |_| {}).unwrap();
        assert_eq!(jump_of(a), (41.0, 42.0, true));
        // Smooth: not a jump (the line crosses 0.305 between 40 and 41).
        let line = |t: f64| (t - 10.0) / 100.0;
        let a = tune(&goal(20.0, 85.0, true, 0.305), exact(line), |_| {}).unwrap();
        assert_eq!(jump_of(a), (40.0, 41.0, false));
        let a = tune(&goal(0.0, 1.0, false, 0.25), exact(|x| 1.0 - x), |_| {}).unwrap();
        assert!(!jump_of(a).2);
        // Neighbours from the start (1..2): nothing tells a jump from a slope.
        let a = tune(
            &goal(1.0, 2.0, true, 0.5),
            exact(|x| if x < 2.0 { 0.1 } else { 0.9 }),
            |_| {},
        )
        .unwrap();
        assert!(!jump_of(a).2);
    }

    /// Not reached anywhere: the answer says how many points were tried, and whether
    /// that was every whole value of the range.
    #[test]
    fn not_reached_says_what_was_tried() {
        let a = tune(&goal(1.0, 10.0, true, 0.9), exact(|x| x / 100.0), |_| {}).unwrap();
        match a {
            Answer::NotReached {
                min,
                max,
                tried,
                every_value,
            } => {
                assert_eq!((tried, every_value), (10, true));
                assert_eq!((min.value, max.value), (1.0, 10.0));
            }
            other => panic!("{other:?}"),
        }
        // Equal figures: the lowest key is named.
        let flat = |x: f64| if x >= 5.0 { 0.2 } else { 0.1 };
        match tune(&goal(1.0, 10.0, true, 0.9), exact(flat), |_| {}).unwrap() {
            Answer::NotReached { min, max, .. } => {
                assert_eq!((min.value, max.value), (1.0, 5.0));
            }
            other => panic!("{other:?}"),
        }
        let a = tune(
            &goal(0.0, 1000.0, true, 0.9),
            exact(|x| x / 10_000.0),
            |_| {},
        )
        .unwrap();
        match a {
            Answer::NotReached {
                tried, every_value, ..
            } => assert_eq!((tried, every_value), (2 + PROBES, false)),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn noisy_midpoints_get_more_trials_only_near_the_target() {
        // Half-width 1/sqrt(trials): a point 0.1 from the target is decided at the
        // first look, one 0.01 away needs more.
        let mut trials_at = Vec::new();
        let eval = |v: f64, t: u64| {
            let h = 1.0 / (t as f64).sqrt();
            Ok(Point {
                value: v,
                figure: v / 100.0,
                interval95: Some((v / 100.0 - h, v / 100.0 + h)),
                df: None,
                trials: Some(t),
                decided: false,
                on_target: false,
            })
        };
        let g = Goal {
            first_trials: 1000,
            max_trials: 1 << 20,
            ..goal(0.0, 100.0, true, 0.505)
        };
        let a = tune(&g, eval, |p| trials_at.push((p.value, p.trials.unwrap()))).unwrap();
        match a {
            Answer::Found { below, above, .. } => {
                assert_eq!((below.value, above.value), (50.0, 51.0));
            }
            other => panic!("{other:?}"),
        }
        let far = trials_at.iter().find(|(v, _)| *v == 0.0).unwrap().1;
        let near = trials_at.iter().find(|(v, _)| *v == 50.0).unwrap().1;
        assert_eq!(far, 1000);
        assert!(near > far * 16, "{near}");
        // Asked only for ±0.02, a point within it ends the search early.
        let g2 = Goal {
            within: 0.02,
            ..g.clone()
        };
        let mut n = 0;
        let a = tune(&g2, eval, |_| n += 1).unwrap();
        assert!(
            matches!(a, Answer::Found { exact_hit: Some(ref p), .. } if (p.figure - 0.505).abs() <= 0.02)
        );
        assert!(n < trials_at.len(), "{n} points");
    }
}
