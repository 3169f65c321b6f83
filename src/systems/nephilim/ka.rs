//! Ka normalisation and meta-characteristic bonus (N-KA).
//! Source: nephilim-v3.fr.txt, "Le Ka" and "Les méta-caractéristiques".

use crate::error::UserError;
use crate::lang::Lang;

/// The normalised Ka of a raw (absolute) Ka score with `band` absolute points per
/// normalised point (parameter `nephilim_ka_band`, N-KA; book 5, "Cinq points « absolus »
/// vaudront un point"): 0 -> -4, 1..band -> -3, then +1 per further band (book: 6..10 ->
/// -2, 16..20 -> 0, 41..45 -> +5, ...).
pub fn normalise(lang: Lang, raw: i64, band: i64) -> Result<i64, UserError> {
    if raw < 0 {
        return Err(UserError::new(tr!(
            lang,
            "nephilim.model.ka_negative",
            ka = raw
        )));
    }
    Ok(if raw == 0 { -4 } else { -3 + (raw - 1) / band })
}

/// The meta-characteristic bonus bands (N-KA, l. 63-69: 00-05 +0, 06-15 +1, 16-30 +2,
/// 31-50 +3, 51-75 +4, 76-105 +5, ...). Read from Ka 1 (0 is the absence of Ka, l. 32, and
/// joins the first band) the bands are 5, 10, 15, 20, 25, 30 wide: bonus k covers
/// `first + k x growth` scores (parameters `nephilim_meta_first_band` and
/// `nephilim_meta_band_growth`, book 5 and 5; the book's top of band k is 5(k+1)(k+2)/2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MetaBands {
    /// Ka 1..first give +0.
    pub first: i64,
    /// Each band this much wider than the one before.
    pub growth: i64,
}

impl Default for MetaBands {
    /// The book's bands.
    fn default() -> Self {
        MetaBands {
            first: 5,
            growth: 5,
        }
    }
}

impl MetaBands {
    /// The Ka scores (first, last) of the band giving `bonus` (0 -> (0, first)).
    pub fn band(&self, bonus: i64) -> (i64, i64) {
        let (mut from, mut top) = (0, self.first);
        for k in 1..=bonus {
            from = top + 1;
            top += self.first + k * self.growth;
        }
        (from, top)
    }

    /// The meta-characteristic bonus of one Ka-element's score (book: 0-5 +0, 6-15 +1,
    /// 16-30 +2, 31-50 +3, 51-75 +4, 76-105 +5, each band 5 wider than the last).
    pub fn bonus(&self, lang: Lang, ka: i64) -> Result<i64, UserError> {
        if ka < 0 {
            return Err(UserError::new(tr!(lang, "nephilim.model.ka_negative", ka)));
        }
        // At most `ka` bands (each is at least 1 wide): no run-away loop.
        let (mut bonus, mut top) = (0i64, self.first);
        while ka > top {
            bonus += 1;
            top += self.first + bonus * self.growth;
        }
        Ok(bonus)
    }

    /// The meta bonus of a characteristic tied to two Ka-elements (Rapidité: Feu and
    /// Air...): that of their mean, rounded up ("arrondis au supérieur", l. 62).
    pub fn pair(&self, lang: Lang, ka_a: i64, ka_b: i64) -> Result<i64, UserError> {
        if ka_a < 0 || ka_b < 0 {
            return Err(UserError::new(tr!(
                lang,
                "nephilim.model.ka_pair_negative",
                a = ka_a,
                b = ka_b
            )));
        }
        self.bonus(lang, (ka_a + ka_b + 1) / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalisation_table() {
        // The rulebook's table: 00 -4; 01-05 -3; 06-10 -2; 11-15 -1; 16-20 0; ...; 41-45 +5.
        let rows = [
            (0, -4),
            (1, -3),
            (5, -3),
            (6, -2),
            (10, -2),
            (11, -1),
            (15, -1),
            (16, 0),
            (20, 0),
            (21, 1),
            (36, 4),
            (45, 5),
            (46, 6),
        ];
        for (raw, n) in rows {
            assert_eq!(normalise(Lang::En, raw, 5).unwrap(), n, "Ka {raw}");
        }
        assert!(normalise(Lang::En, -1, 5)
            .unwrap_err()
            .0
            .contains("allowed: 0 or more"));
        // A band of 10: 1..10 -> -3, 11..20 -> -2; 0 stays -4 (no Ka).
        for (raw, n) in [(0, -4), (10, -3), (11, -2), (20, -2), (21, -1)] {
            assert_eq!(normalise(Lang::En, raw, 10).unwrap(), n, "Ka {raw} band 10");
        }
    }

    #[test]
    fn meta_bonus_bands() {
        let rows = [
            (0, 0),
            (5, 0),
            (6, 1),
            (15, 1),
            (16, 2),
            (30, 2),
            (31, 3),
            (50, 3),
            (51, 4),
            (75, 4),
            (76, 5),
            (105, 5),
            (106, 6),
            (140, 6),
            (141, 7),
        ];
        let book = MetaBands::default();
        for (ka, b) in rows {
            assert_eq!(book.bonus(Lang::En, ka).unwrap(), b, "Ka {ka}");
        }
        // The book's bands, and its top of band k, 5(k+1)(k+2)/2.
        let bands = [(0, 5), (6, 15), (16, 30), (31, 50), (51, 75), (76, 105)];
        for (k, band) in bands.iter().enumerate() {
            assert_eq!(book.band(k as i64), *band, "band {k}");
            let k = k as i64;
            assert_eq!(book.band(k).1, 5 * (k + 1) * (k + 2) / 2);
        }
        // Mean 15.5 rounds up to 16 -> +2.
        assert_eq!(book.pair(Lang::En, 15, 16).unwrap(), 2);
        assert_eq!(book.pair(Lang::En, 15, 15).unwrap(), 1);
        assert!(book.pair(Lang::En, -1, 3).is_err());
        assert!(book.bonus(Lang::En, -1).is_err());
    }

    #[test]
    fn meta_bands_off_the_book() {
        // Growth 0: every band as wide as the first, 1..10 +0, 11..20 +1, ... (+k from 10k+1).
        let flat = MetaBands {
            first: 10,
            growth: 0,
        };
        for (ka, b) in [(0, 0), (10, 0), (11, 1), (20, 1), (21, 2), (200, 19)] {
            assert_eq!(flat.bonus(Lang::En, ka).unwrap(), b, "Ka {ka}");
        }
        assert_eq!(flat.band(3), (31, 40));
        // First band 1, growth 1: tops 1, 3, 6, 10 (triangular numbers).
        let tri = MetaBands {
            first: 1,
            growth: 1,
        };
        assert_eq!(
            (0..=11)
                .map(|ka| tri.bonus(Lang::En, ka).unwrap())
                .collect::<Vec<_>>(),
            [0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4]
        );
        // Every score falls in the band of its bonus.
        for ka in 0..=200 {
            let b = tri.bonus(Lang::En, ka).unwrap();
            let (from, to) = tri.band(b);
            assert!(from <= ka && ka <= to, "Ka {ka}");
        }
    }
}
