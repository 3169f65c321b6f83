//! Interval estimates for Monte Carlo results (95% unless stated).

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

/// Two-sided confidence level of every interval the tool reports.
pub const CONFIDENCE: f64 = 0.95;

/// The standard normal quantile for [`CONFIDENCE`] (1.95996...).
pub fn z95() -> f64 {
    Normal::standard().inverse_cdf(0.5 + CONFIDENCE / 2.0)
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
pub fn t_interval(mean: f64, std_error: f64, n: u64) -> (f64, f64) {
    if n < 2 {
        return (f64::NEG_INFINITY, f64::INFINITY);
    }
    let t = StudentsT::new(0.0, 1.0, (n - 1) as f64)
        .map(|d| d.inverse_cdf(0.5 + CONFIDENCE / 2.0))
        .unwrap_or(1.96);
    (mean - t * std_error, mean + t * std_error)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn z_is_the_usual_one() {
        assert!((z95() - 1.959963984540054).abs() < 1e-9);
    }

    #[test]
    fn wilson_by_hand() {
        // 50 of 100: centre 0.5, half-width z*sqrt(0.25/100 + z^2/40000)/(1+z^2/100)
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
        let (lo, hi) = wilson(0, 1000);
        assert_eq!(lo, 0.0);
        assert!(hi > 0.003 && hi < 0.004);
    }

    #[test]
    fn t_interval_by_hand() {
        // t(0.975, 9) = 2.262157
        let (lo, hi) = t_interval(1.0, 0.1, 10);
        assert!((hi - 1.2262157).abs() < 1e-6 && (lo - 0.7737843).abs() < 1e-6);
    }
}
