//! Interval estimates for Monte Carlo results (95% unless stated).

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Two-sided confidence level of every interval the tool reports.
pub const CONFIDENCE: f64 = 0.95;

/// The standard normal quantile for [`CONFIDENCE`] (1.95996...).
pub fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.5 + CONFIDENCE / 2.0)
}

/// A proportion, `hits` of `n`, with its 95% Wilson interval: the one way every output
/// states a share. 0 of 0 is undefined: `p`, `lo` and `hi` are NaN, written as empty CSV
/// cells, never 0 (an event that could not happen did not happen 0% of the time).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proportion {
    pub hits: u64,
    pub n: u64,
    pub p: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Proportion {
    pub fn new(hits: u64, n: u64) -> Proportion {
        if n == 0 {
            return Proportion {
                hits,
                n,
                p: f64::NAN,
                lo: f64::NAN,
                hi: f64::NAN,
            };
        }
        let (lo, hi) = wilson(hits, n);
        Proportion {
            hits,
            n,
            p: hits as f64 / n as f64,
            lo,
            hi,
        }
    }

    /// `self - reference`, the difference of two shares, with its normal-approximation
    /// (Wald) 95% interval: how a pairs table compares each pair to the reference.
    pub fn minus(&self, reference: &Proportion) -> Estimate {
        let (p, q) = (self.p, reference.p);
        let se = (p * (1.0 - p) / self.n as f64 + q * (1.0 - q) / reference.n as f64).sqrt();
        let d = p - q;
        Estimate {
            value: d,
            lo: d - z95() * se,
            hi: d + z95() * se,
        }
    }

    /// The share with its interval, as an output writes it.
    pub fn estimate(&self) -> Estimate {
        Estimate {
            value: self.p,
            lo: self.lo,
            hi: self.hi,
        }
    }
}

/// A figure with its 95% interval: the one shape behind every `x`, `x_lo`, `x_hi` column
/// triple (`report::interval_columns`). A share comes from [`Proportion`] (0 of 0 is
/// undefined: NaN, an empty cell); a mean over trials from [`Estimate::mean`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub value: f64,
    pub lo: f64,
    pub hi: f64,
}

impl Estimate {
    pub fn new(value: f64, lo: f64, hi: f64) -> Estimate {
        Estimate { value, lo, hi }
    }

    /// No figure: NaN value and bounds, written as empty cells.
    pub fn undefined() -> Estimate {
        Estimate::new(f64::NAN, f64::NAN, f64::NAN)
    }

    /// The mean of independent values with its Student-t interval ([`t_interval`]): fewer
    /// than two values, or values that all agree, give an unbounded interval (-inf, +inf),
    /// and no value a mean of 0 (the accumulator's), so a script reads "not measured" from
    /// the interval. Equal values leave the accumulator's sum of squares exactly 0.
    pub fn mean(m: &crate::engine::Moments) -> Estimate {
        let (lo, hi) = t_interval(m.mean, m.std_error(), m.n);
        Estimate {
            value: m.mean,
            lo,
            hi,
        }
    }

    /// The interval kept inside what the figure can take (`min..max`: 0..1 for a share
    /// averaged over trials, 0..inf for a count). Only a bounded interval is clipped: an
    /// unbounded one (trials with no spread, [`t_interval`]) stays unbounded on both sides,
    /// since clipping it would turn "no bound" into the bounds of the figure's range, which
    /// `expect` then reads as a real interval (audit of 2026-12-07, afternoon: a share at
    /// 0.55 in every trial wrote `[0, 1]`).
    pub fn clipped(self, min: f64, max: f64) -> Estimate {
        if self.lo == f64::NEG_INFINITY && self.hi == f64::INFINITY {
            return self;
        }
        Estimate {
            lo: self.lo.max(min),
            hi: self.hi.min(max),
            ..self
        }
    }
}

impl Estimate {
    /// The ratio of totals Σy / Σx with its 95% interval by the delta method (Cochran,
    /// *Sampling Techniques*, 6.3): se = sqrt(Σ(y - R x)² / (n - 1)) / (sqrt(n) x̄), with
    /// the trials as the units, so trials with many events weigh by how many they have.
    /// Undefined when no trial has an event; unbounded (as [`t_interval`]) when every
    /// trial has the same ratio, told exactly from the whole-number sums: the residuals
    /// in floating point can leave a rounding crumb that would pass for a real spread.
    pub fn ratio(r: &crate::engine::RatioSums) -> Estimate {
        if r.x == 0 {
            return Estimate::undefined();
        }
        let (n, x, y) = (r.n as f64, r.x as f64, r.y as f64);
        let ratio = y / x;
        if ratio_has_no_spread(r) {
            return Estimate::new(ratio, f64::NEG_INFINITY, f64::INFINITY);
        }
        let resid =
            (r.yy as f64 - 2.0 * ratio * r.xy as f64 + ratio * ratio * r.xx as f64).max(0.0);
        let se = if r.n > 1 {
            (resid / (n - 1.0)).sqrt() / (n.sqrt() * (x / n))
        } else {
            0.0
        };
        let (lo, hi) = t_interval(ratio, se, r.n);
        Estimate::new(ratio, lo, hi)
    }
}

/// Whether Σ(y - R x)² is 0, i.e. X² Σy² - 2XY Σxy + Y² Σx² = 0 with X = Σx, Y = Σy, in
/// whole numbers (a floating-point check when the products leave 128 bits).
fn ratio_has_no_spread(r: &crate::engine::RatioSums) -> bool {
    let (x, y) = (r.x as i128, r.y as i128);
    let exact = (|| {
        let a = x.checked_mul(x)?.checked_mul(r.yy as i128)?;
        let b = y.checked_mul(y)?.checked_mul(r.xx as i128)?;
        let c = x
            .checked_mul(y)?
            .checked_mul(r.xy as i128)?
            .checked_mul(2)?;
        a.checked_add(b)?.checked_sub(c)
    })();
    match exact {
        Some(d) => d == 0,
        None => {
            let ratio = r.y as f64 / r.x as f64;
            r.yy as f64 - 2.0 * ratio * r.xy as f64 + ratio * ratio * r.xx as f64 <= 0.0
        }
    }
}

impl From<Proportion> for Estimate {
    fn from(p: Proportion) -> Estimate {
        p.estimate()
    }
}

/// Wilson score interval for `hits` successes out of `n` trials. Unlike the normal
/// approximation it stays inside 0..1 and behaves at p near 0 or 1 (the 42 and 66 cells).
pub fn wilson(hits: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = z95();
    let n_f = n as f64;
    let p = hits as f64 / n_f;
    let z2 = z * z;
    let denom = 1.0 + z2 / n_f;
    let centre = (p + z2 / (2.0 * n_f)) / denom;
    let half = z * ((p * (1.0 - p) + z2 / (4.0 * n_f)) / n_f).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Student-t interval for a mean from `n` independent replicate values.
///
/// Unbounded on both sides (-inf, +inf; empty `_lo`/`_hi` CSV cells) when fewer than two
/// values or a standard error of 0: values that all agree show no spread, and a t
/// interval `mean ± t·0` would bound nothing. The true mean can then be anything the
/// values could take (a 0.088 mean read as `0 [0, 0]` on 9 of 60 seeds at 30 trials,
/// audit of 2026-12-07). A quantile's interval of order statistics may have zero width
/// and a Wilson interval never has; neither comes here.
pub fn t_interval(mean: f64, std_error: f64, n: u64) -> (f64, f64) {
    if n < 2 || std_error.is_nan() || std_error <= 0.0 {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let t = t_quantile95((n - 1) as f64);
    (mean - t * std_error, mean + t * std_error)
}

/// Degrees of freedom from which [`t_quantile95`] uses the Cornish-Fisher expansion.
const CORNISH_FISHER_FROM: f64 = 1000.0;

/// The Student t quantile for [`CONFIDENCE`] with `df` degrees of freedom. statrs inverts
/// the CDF by a search that loses accuracy as `df` grows (1.95493 instead of 1.95996 at
/// 4 M, 1.8953 at 8 M) and does not end in practice from about 16 M: from 1000 degrees of
/// freedom the Cornish-Fisher expansion (Abramowitz & Stegun 26.7.5, four terms) is used,
/// exact to double precision there (the next term is below 1e-15).
pub fn t_quantile95(df: f64) -> f64 {
    if df < CORNISH_FISHER_FROM {
        return StudentsT::new(0.0, 1.0, df)
            .map(|d| d.inverse_cdf(0.5 + CONFIDENCE / 2.0))
            .unwrap_or(1.96);
    }
    let z = z95();
    let (z2, v) = (z * z, df);
    let g1 = (z2 + 1.0) * z / 4.0;
    let g2 = ((5.0 * z2 + 16.0) * z2 + 3.0) * z / 96.0;
    let g3 = (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) * z / 384.0;
    let g4 = ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) * z / 92160.0;
    z + g1 / v + g2 / (v * v) + g3 / (v * v * v) + g4 / (v * v * v * v)
}

/// Mean and 95% interval (Student t) of `n` whole values from their sum and sum of squares.
/// Values that all agree (n·Σx² = (Σx)², told in whole numbers) leave it unbounded, as
/// [`t_interval`].
pub fn mean_ci(sum: u64, sq: u64, n: u64) -> Estimate {
    let nf = n as f64;
    let m = sum as f64 / nf;
    let no_spread = (n as u128)
        .checked_mul(sq as u128)
        .is_some_and(|a| Some(a) == (sum as u128).checked_mul(sum as u128));
    let var = if no_spread {
        0.0
    } else if n > 1 {
        ((sq as f64 - nf * m * m) / (nf - 1.0)).max(0.0)
    } else {
        0.0
    };
    let (lo, hi) = t_interval(m, (var / nf).sqrt(), n);
    Estimate { value: m, lo, hi }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 50 of 100 against 40 of 100: d = 0.1, se = sqrt(0.25/100 + 0.24/100) = 0.07, so
    /// 0.1 -/+ 1.959964 x 0.07 (hand values).
    #[test]
    fn a_difference_of_shares_has_its_wald_interval() {
        let d = Proportion::new(50, 100).minus(&Proportion::new(40, 100));
        assert!((d.value - 0.1).abs() < 1e-12);
        assert!(
            (d.lo - (0.1 - 1.959_963_985 * 0.07)).abs() < 1e-9,
            "{}",
            d.lo
        );
        assert!(
            (d.hi - (0.1 + 1.959_963_985 * 0.07)).abs() < 1e-9,
            "{}",
            d.hi
        );
        assert!(Proportion::new(0, 0)
            .minus(&Proportion::new(1, 2))
            .value
            .is_nan());
    }

    #[test]
    fn a_proportion_is_hits_over_n_with_wilson_and_zero_of_zero_is_undefined() {
        let p = Proportion::new(3, 10);
        assert_eq!(p.p, 0.3);
        assert_eq!((p.lo, p.hi), wilson(3, 10));
        assert!(p.lo < 0.3 && 0.3 < p.hi);
        let none = Proportion::new(0, 0);
        assert!(none.p.is_nan() && none.lo.is_nan() && none.hi.is_nan());
        assert_eq!(Proportion::new(0, 5).p, 0.0);
        assert_eq!(Estimate::from(p), Estimate::new(p.p, p.lo, p.hi));
        let u = Estimate::undefined();
        assert!(u.value.is_nan() && u.lo.is_nan() && u.hi.is_nan());
    }

    #[test]
    fn a_mean_carries_its_t_interval_and_few_values_leave_it_open() {
        let mut m = crate::engine::Moments::default();
        for x in [1.0, 2.0, 3.0, 4.0] {
            m.push(x);
        }
        let e = Estimate::mean(&m);
        // mean 2.5, s = sqrt(5/3), se = s/2, t(3) = 3.182446...
        let half = 3.182446305284263 * (5.0f64 / 3.0).sqrt() / 2.0;
        assert_eq!(e.value, 2.5);
        assert!((e.hi - 2.5 - half).abs() < 1e-9 && (2.5 - e.lo - half).abs() < 1e-9);
        let mut one = crate::engine::Moments::default();
        one.push(7.0);
        let e = Estimate::mean(&one);
        assert_eq!(e, Estimate::new(7.0, f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn z_is_the_usual_one() {
        assert!((z95() - 1.959963984540054).abs() < 1e-9);
    }

    #[test]
    fn wilson_by_hand() {
        // 50 of 100: centre 0.5, half-width z*sqrt(0.25/100 + z^2/40000)/(1+z^2/100)
        let (lo, hi) = wilson(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4,
            "{lo} {hi}"
        );
        let (lo, hi) = wilson(0, 1000);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.003 && hi < 0.004);
    }

    #[test]
    fn t_quantile_is_right_for_any_sample_size() {
        // qt(0.975, df) to 20 digits (mpmath: the regularised incomplete beta, inverted).
        let want = [
            (999.0, 1.962_341_461_133_45),
            (99_999.0, 1.959_987_707_771_84),
            (999_999.0, 1.959_966_356_816_48),
            (15_999_999.0, 1.959_964_132_807_03),
        ];
        for (df, q) in want {
            assert!(
                (t_quantile95(df) - q).abs() < 1e-12,
                "{df}: {}",
                t_quantile95(df)
            );
        }
        // Both methods meet at the switch.
        let below = StudentsT::new(0.0, 1.0, CORNISH_FISHER_FROM)
            .unwrap()
            .inverse_cdf(0.975);
        assert!((below - t_quantile95(CORNISH_FISHER_FROM)).abs() < 1e-9);
        // Huge counts end at once and tend to z.
        assert!((t_quantile95(1e15) - z95()).abs() < 1e-12);
    }

    #[test]
    fn a_ratio_of_totals_has_its_delta_method_interval() {
        // Trials (y, x): (1, 2), (0, 1), (2, 2), (0, 0): R = 3/5; residuals y - R x are
        // -0.2, -0.6, 0.8, 0 (squares sum to 1.04); se = sqrt(1.04 / 3) / (2 x 1.25)
        // = 0.2355136; t(0.975, 3) = 3.182446 (hand values).
        let mut r = crate::engine::RatioSums::default();
        for (y, x) in [(1, 2), (0, 1), (2, 2), (0, 0)] {
            r.push(y, x);
        }
        let e = Estimate::ratio(&r);
        assert!((e.value - 0.6).abs() < 1e-12);
        assert!((e.hi - (0.6 + 3.182446 * 0.2355136)).abs() < 1e-6, "{e:?}");
        assert!((e.lo - (0.6 - 3.182446 * 0.2355136)).abs() < 1e-6, "{e:?}");
        assert!(Estimate::ratio(&crate::engine::RatioSums::default())
            .value
            .is_nan());
    }

    /// Audit of 2026-12-07: 30 trials that all end with an empty pool (true mean 0.088,
    /// scenarios/fallout/ap-economy.toml test 7) read `0 [0, 0]`, and `expect ... at_most
    /// 0.05` said "holds". Values that all agree give no bound, whichever way the mean is
    /// summed; any spread at all gives a finite interval again.
    #[test]
    fn a_mean_whose_trials_all_agree_is_unbounded() {
        let open = (f64::NEG_INFINITY, f64::INFINITY);
        let e = mean_ci(0, 0, 30);
        assert_eq!((e.value, e.lo, e.hi), (0.0, open.0, open.1));
        let e = mean_ci(3 * 30, 9 * 30, 30);
        assert_eq!((e.value, e.lo, e.hi), (3.0, open.0, open.1));
        let e = mean_ci(1, 1, 30);
        assert!(e.lo.is_finite() && e.hi.is_finite() && e.lo < e.value && e.value < e.hi);
        let mut m = crate::engine::Moments::default();
        for _ in 0..30 {
            m.push(0.1);
        }
        assert_eq!((Estimate::mean(&m).lo, Estimate::mean(&m).hi), open);
        m.push(0.2);
        assert!(Estimate::mean(&m).hi.is_finite());
        assert_eq!(t_interval(2.0, 0.0, 30), open);
        // Every trial 1 of 3 (a third: 1/3 in floating point leaves a residual crumb).
        let mut r = crate::engine::RatioSums::default();
        for (y, x) in [(1, 3), (2, 6), (0, 0), (3, 9)] {
            r.push(y, x);
        }
        let e = Estimate::ratio(&r);
        assert!((e.value - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!((e.lo, e.hi), open);
        r.push(1, 2);
        assert!(Estimate::ratio(&r).hi.is_finite());
    }

    #[test]
    fn t_interval_by_hand() {
        // t(0.975, 9) = 2.262157
        let (lo, hi) = t_interval(1.0, 0.1, 10);
        assert!((hi - 1.2262157).abs() < 1e-6 && (lo - 0.7737843).abs() < 1e-6);
    }
}
