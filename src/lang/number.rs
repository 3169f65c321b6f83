//! Numbers in text follow the language: `0.5` in English, `0,5` in French, and a
//! no-break space before `%` in French. CSV files never use these (they keep the dot).

use super::Lang;

impl Lang {
    fn localise(self, s: String) -> String {
        match self {
            Lang::En => s,
            Lang::Fr => s.replace('.', ","),
        }
    }

    /// An unbounded side of an interval reads `∞` / `-∞`, never Rust's `inf`.
    pub fn num(self, x: f64, decimals: usize) -> String {
        if x.is_infinite() {
            return if x > 0.0 { "∞" } else { "-∞" }.into();
        }
        self.localise(format!("{x:.decimals$}"))
    }

    /// What a summary line adds after a mean whose interval `lo..hi` is unbounded (its
    /// trials show no spread, [`crate::stats::t_interval`]): why there is no bound.
    /// Empty for a bounded interval.
    pub fn no_spread(self, lo: f64, hi: f64) -> &'static str {
        if lo.is_infinite() || hi.is_infinite() {
            crate::tr!(self, "page.no_spread")
        } else {
            ""
        }
    }

    pub fn signed(self, x: f64, decimals: usize) -> String {
        self.localise(format!("{x:+.decimals$}"))
    }

    pub fn pct(self, fraction: f64, decimals: usize) -> String {
        let v = self.num(fraction * 100.0, decimals);
        match self {
            Lang::En => format!("{v}%"),
            Lang::Fr => format!("{v}\u{a0}%"),
        }
    }

    pub fn interval(self, lo: f64, hi: f64, decimals: usize) -> String {
        let (lo, hi) = (self.num(lo, decimals), self.num(hi, decimals));
        match self {
            Lang::En => format!("[{lo}, {hi}]"),
            Lang::Fr => format!("[{lo}\u{a0};\u{a0}{hi}]"),
        }
    }

    pub fn pct_interval(self, lo: f64, hi: f64, decimals: usize) -> String {
        format!(
            "[{}–{}]",
            self.num(lo * 100.0, decimals),
            self.num(hi * 100.0, decimals)
        )
    }
}

/// A whole number (no thousands separators in either language: each would read the
/// other's as a decimal mark).
pub fn int(n: impl std::fmt::Display) -> String {
    n.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_follow_the_language() {
        let (en, fr) = (Lang::En, Lang::Fr);
        assert_eq!(en.num(0.5, 1), "0.5");
        assert_eq!(en.pct(0.552, 1), "55.2%");
        assert_eq!(en.interval(0.51, 0.53, 2), "[0.51, 0.53]");
        assert_eq!(en.signed(0.5, 2), "+0.50");
        assert_eq!(en.pct_interval(0.549, 0.555, 1), "[54.9–55.5]");
        assert_eq!(fr.num(0.5, 1), "0,5");
        assert_eq!(fr.pct(0.552, 1), "55,2\u{a0}%");
        assert_eq!(fr.interval(0.51, 0.53, 2), "[0,51\u{a0};\u{a0}0,53]");
        assert_eq!(fr.pct_interval(0.549, 0.555, 1), "[54,9–55,5]");
        assert_eq!(fr.signed(-1.26, 1), "-1,3");
        assert_eq!(int(1000), "1000");
        assert_eq!(en.num(f64::INFINITY, 2), "∞");
        assert_eq!(fr.num(f64::NEG_INFINITY, 2), "-∞");
        assert_eq!(en.no_spread(0.1, 0.2), "");
        assert!(fr.no_spread(0.0, f64::INFINITY).contains("dispersion"));
        assert!(en.no_spread(f64::NEG_INFINITY, 1.0).contains("no spread"));
    }
}
