//! How a figure is judged against its band.
//!
//! Exact figures: holds when the value is inside the band to 1e-9, else fails.
//!
//! Monte Carlo figures, sequentially: run at `n0` trials, then `2·n0`, `4·n0`... up to
//! `max_trials` (K looks in all). At each look the figure's interval is taken at
//! confidence `1 - α_look` with `α_look = (1 - confidence) / (m · c · K)` (m = expectations
//! in the file, c = cells checked by the expectation, 1 for a figure): **holds** when the
//! interval lies inside the band, **fails** when it lies wholly outside, else the next
//! look; after the last, **undecided**. A wrong verdict needs some interval, at some look,
//! to miss the true value, so by the union bound (Bonferroni over expectations, cells and
//! looks) the chance that *any* verdict of the file is wrong is at most `1 - confidence`
//! (5% by default), whatever the dependence between looks (they share their first
//! batches). The interval at another confidence is the file's 95% interval widened on each
//! side by `z(1 - α/2) / z(0.975)` (a normal approximation of the interval's shape).

use crate::lang::Lang;
use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use crate::stats::z95;

/// Slack of exact comparisons.
pub const EXACT_TOLERANCE: f64 = 1e-9;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Holds,
    Fails,
    Undecided,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Fails => "fails",
            Verdict::Undecided => "undecided",
        }
    }

    /// The verdict in the page's language (`as_str` stays in CSV and JUnit files).
    pub fn shown(self, lang: Lang) -> &'static str {
        match self {
            Verdict::Holds => tr!(lang, "expect.holds"),
            Verdict::Fails => tr!(lang, "expect.fails"),
            Verdict::Undecided => tr!(lang, "expect.undecided"),
        }
    }
}

/// The band a figure must stay in (infinite ends for `at_least` / `at_most`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Band {
    pub lo: f64,
    pub hi: f64,
    kind: BandKind,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum BandKind {
    Between,
    AtLeast,
    AtMost,
    Equals(f64, f64),
}

impl Band {
    pub fn between(lo: f64, hi: f64) -> Band {
        Band {
            lo,
            hi,
            kind: BandKind::Between,
        }
    }
    pub fn at_least(x: f64) -> Band {
        Band {
            lo: x,
            hi: f64::INFINITY,
            kind: BandKind::AtLeast,
        }
    }
    pub fn at_most(x: f64) -> Band {
        Band {
            lo: f64::NEG_INFINITY,
            hi: x,
            kind: BandKind::AtMost,
        }
    }
    pub fn equals(x: f64, tol: f64) -> Band {
        Band {
            lo: x - tol,
            hi: x + tol,
            kind: BandKind::Equals(x, tol),
        }
    }

    pub fn text(&self) -> String {
        match self.kind {
            BandKind::Between => format!("between {} and {}", num(self.lo), num(self.hi)),
            BandKind::AtLeast => format!("at least {}", num(self.lo)),
            BandKind::AtMost => format!("at most {}", num(self.hi)),
            BandKind::Equals(x, 0.0) => format!("equals {}", num(x)),
            BandKind::Equals(x, t) => format!("equals {} ± {}", num(x), num(t)),
        }
    }

    /// [`Band::text`] in the page's language, numbers with its decimal mark.
    pub fn shown(&self, lang: Lang) -> String {
        let d = |x: f64| crate::balance::dec(&num(x), lang);
        match self.kind {
            BandKind::Between => {
                tr!(
                    lang,
                    "expect.band_between",
                    lo = d(self.lo),
                    hi = d(self.hi)
                )
            }
            BandKind::AtLeast => tr!(lang, "expect.band_at_least", lo = d(self.lo)),
            BandKind::AtMost => tr!(lang, "expect.band_at_most", hi = d(self.hi)),
            BandKind::Equals(x, 0.0) => tr!(lang, "expect.band_equals", value = d(x)),
            BandKind::Equals(x, t) => {
                tr!(
                    lang,
                    "expect.band_equals_within",
                    value = d(x),
                    tolerance = d(t)
                )
            }
        }
    }

    /// The expectation's key that sets this band (`between`, `at_least`, `at_most`,
    /// `equals`): where a message about the band points.
    pub fn key(&self) -> &'static str {
        match self.kind {
            BandKind::Between => "between",
            BandKind::AtLeast => "at_least",
            BandKind::AtMost => "at_most",
            BandKind::Equals(..) => "equals",
        }
    }

    /// The numbers the file wrote for this band (not the infinite end of `at_least` or
    /// `at_most`, not `equals`' tolerance, which has its own key).
    pub fn written(&self) -> Vec<f64> {
        match self.kind {
            BandKind::Between => vec![self.lo, self.hi],
            BandKind::AtLeast => vec![self.lo],
            BandKind::AtMost => vec![self.hi],
            BandKind::Equals(x, _) => vec![x],
        }
    }

    /// How far `v` is outside the band (0 inside), signed: negative below, positive above.
    pub fn miss(&self, v: f64) -> f64 {
        if v < self.lo {
            v - self.lo
        } else if v > self.hi {
            v - self.hi
        } else {
            0.0
        }
    }
}

/// A number for a message: up to 6 significant decimals, no trailing zeros.
pub fn num(x: f64) -> String {
    if x.is_nan() {
        return "—".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "∞".into() } else { "-∞".into() };
    }
    let s = format!("{x:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.to_string()
    }
}

/// Exact value against the band.
pub fn exact(v: f64, band: &Band) -> Verdict {
    if v >= band.lo - EXACT_TOLERANCE && v <= band.hi + EXACT_TOLERANCE {
        Verdict::Holds
    } else {
        Verdict::Fails
    }
}

/// Interval against the band: holds inside, fails wholly outside, else undecided.
pub fn interval(lo: f64, hi: f64, band: &Band) -> Verdict {
    if lo >= band.lo && hi <= band.hi {
        Verdict::Holds
    } else if hi < band.lo || lo > band.hi {
        Verdict::Fails
    } else {
        Verdict::Undecided
    }
}

/// Trials of each look: `first`, doubled each time, the last one exactly `max`.
pub fn looks(first: u64, max: u64) -> Vec<u64> {
    let mut v = vec![first.min(max)];
    while let Some(&last) = v.last() {
        if last >= max {
            break;
        }
        v.push(last.saturating_mul(2).min(max));
    }
    v
}

/// α of one look (see the module comment).
pub fn look_alpha(confidence: f64, expectations: usize, cells: usize, looks: usize) -> f64 {
    (1.0 - confidence) / (expectations.max(1) * cells.max(1) * looks.max(1)) as f64
}

/// The 95% interval `(lo, hi)` around `value` rescaled to a two-sided level `1 - alpha`.
///
/// A Student-t interval over few chains (`df` degrees of freedom, issue 26 item 2) is
/// widened with t quantiles of the same degrees of freedom: normal ones understate its
/// tails (2 chains: a wrong verdict in 15% of files instead of at most 5%).
///
/// A quantile of whole days or tests has whole-number ends, and an end often sits on the
/// estimate itself (many trials on that very day): scaling its distance then moves
/// nothing, while the wider order statistic would reach the next day. Such an interval,
/// when widened, is taken one more unit on each side (as `compare` counts it one unit
/// wider). Without it, a file of 9 true quantile expectations at their bound got a wrong
/// verdict on 9 of 100 seeds (tests/expect_calibration.rs).
pub fn widen(value: f64, (lo, hi): (f64, f64), alpha: f64, df: Option<f64>) -> (f64, f64) {
    let k = match df {
        Some(df) if df < T_UNTIL => match StudentsT::new(0.0, 1.0, df.max(1.0)) {
            Ok(t) => t.inverse_cdf(1.0 - alpha / 2.0) / t.inverse_cdf(0.975),
            Err(_) => f64::INFINITY,
        },
        _ => Normal::standard().inverse_cdf(1.0 - alpha / 2.0) / z95(),
    };
    let whole = |x: f64| x.fract() == 0.0;
    let unit = if k > 1.0 && whole(value) && whole(lo) && whole(hi) {
        1.0
    } else {
        0.0
    };
    (
        value - (value - lo) * k - unit,
        value + (hi - value) * k + unit,
    )
}

/// From this many degrees of freedom the normal quantiles stand for the t ones (their
/// ratio differs by less than 0.1%).
const T_UNTIL: f64 = 1000.0;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bands_and_exact_verdicts() {
        let b = Band::between(0.38, 0.40);
        assert_eq!(exact(0.39, &b), Verdict::Holds);
        assert_eq!(exact(0.40 + 5e-10, &b), Verdict::Holds);
        assert_eq!(exact(0.401, &b), Verdict::Fails);
        assert!((b.miss(0.41) - 0.01).abs() < 1e-12);
        assert!((b.miss(0.37) + 0.01).abs() < 1e-12);
        assert_eq!(Band::at_most(0.5).text(), "at most 0.5");
        assert_eq!(Band::equals(0.1, 0.01).text(), "equals 0.1 ± 0.01");
        assert_eq!(exact(7.0, &Band::at_least(7.0)), Verdict::Holds);
    }

    #[test]
    fn a_band_names_its_key_and_the_numbers_written() {
        assert_eq!(Band::between(0.1, 0.2).key(), "between");
        assert_eq!(Band::between(0.1, 0.2).written(), vec![0.1, 0.2]);
        assert_eq!(Band::at_least(0.3).key(), "at_least");
        assert_eq!(Band::at_least(0.3).written(), vec![0.3]);
        assert_eq!(Band::at_most(0.4).written(), vec![0.4]);
        assert_eq!(Band::equals(0.5, 0.1).key(), "equals");
        assert_eq!(Band::equals(0.5, 0.1).written(), vec![0.5]);
    }

    #[test]
    fn intervals_decide_only_when_clear() {
        let b = Band::at_most(0.5);
        assert_eq!(interval(0.40, 0.45, &b), Verdict::Holds);
        assert_eq!(interval(0.51, 0.55, &b), Verdict::Fails);
        assert_eq!(interval(0.48, 0.52, &b), Verdict::Undecided);
    }

    #[test]
    fn looks_double_up_to_the_cap() {
        assert_eq!(looks(1000, 4000), [1000, 2000, 4000]);
        assert_eq!(looks(1000, 5000), [1000, 2000, 4000, 5000]);
        assert_eq!(looks(1000, 1000), [1000]);
        assert_eq!(looks(9000, 1000), [1000]);
    }

    #[test]
    fn widening_matches_the_normal_quantiles() {
        // At alpha 0.05 nothing changes; at 0.05/14/3 the half-width grows by z/1.96.
        let (lo, hi) = widen(0.5, (0.4, 0.6), 0.05, None);
        assert!((lo - 0.4).abs() < 1e-9 && (hi - 0.6).abs() < 1e-9);
        let a = look_alpha(0.95, 14, 1, 3);
        assert!((a - 0.05 / 42.0).abs() < 1e-15);
        let (lo, _) = widen(0.5, (0.4, 0.6), a, None);
        // z(1 - 0.000595) = 3.2389
        assert!((0.5 - lo - 0.1 * 3.2389 / 1.96).abs() < 1e-3, "{lo}");
        // A one-sided Wilson interval at 0 keeps its zero end.
        assert_eq!(widen(0.0, (0.0, 0.001), 0.001, None).0, 0.0);
    }

    #[test]
    fn a_whole_number_interval_widens_one_more_unit_each_side() {
        // Day 26 with its 95% interval [26, 27]: at 95% it stays; widened, the end on the
        // estimate reaches past day 25.
        assert_eq!(widen(26.0, (26.0, 27.0), 0.05, None), (26.0, 27.0));
        let (lo, hi) = widen(26.0, (26.0, 27.0), 0.05 / 27.0, None);
        assert_eq!(lo, 25.0);
        assert!(hi > 28.0 && hi < 29.0, "{hi}");
        // Not whole: no unit.
        let (lo, _) = widen(26.5, (26.0, 27.0), 0.05 / 27.0, None);
        assert!(lo > 25.5, "{lo}");
    }
}
