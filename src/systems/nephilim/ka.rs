//! Ka normalisation and meta-characteristic bonus (N-KA).
//! Source: nephilim-v3.fr.txt, "Le Ka" and "Les méta-caractéristiques".

use crate::error::UserError;

/// The normalised Ka of a raw (absolute) Ka score with `band` absolute points per
/// normalised point (parameter `nephilim_ka_band`, N-KA; book 5, "Cinq points « absolus »
/// vaudront un point"): 0 -> -4, 1..band -> -3, then +1 per further band (book: 6..10 ->
/// -2, 16..20 -> 0, 41..45 -> +5, ...).
pub fn normalise(raw: i64, band: i64) -> Result<i64, UserError> {
    if raw < 0 {
        return Err(UserError::new(crate::tr!(
            "nephilim.model.ka_negative",
            ka = raw
        )));
    }
    Ok(if raw == 0 { -4 } else { -3 + (raw - 1) / band })
}

/// The meta-characteristic bonus for a Ka score: bands 0-5 +0, 6-15 +1, 16-30 +2, 31-50 +3,
/// 51-75 +4, 76-105 +5, each band 5 wider than the last.
pub fn meta_bonus(ka: i64) -> Result<i64, UserError> {
    if ka < 0 {
        return Err(UserError::new(crate::tr!(
            "nephilim.model.ka_negative",
            ka = ka
        )));
    }
    let (mut bonus, mut top, mut width) = (0i64, 5i64, 6i64);
    while ka > top {
        bonus += 1;
        width += if bonus == 1 { 4 } else { 5 };
        top += width;
    }
    Ok(bonus)
}

/// The meta bonus of a characteristic tied to two Ka-elements (Rapidité: Feu and Air...):
/// the mean of the two, rounded up ("arrondis au supérieur").
pub fn meta_bonus_pair(ka_a: i64, ka_b: i64) -> Result<i64, UserError> {
    if ka_a < 0 || ka_b < 0 {
        return Err(UserError::new(crate::tr!(
            "nephilim.model.ka_pair_negative",
            a = ka_a,
            b = ka_b
        )));
    }
    meta_bonus((ka_a + ka_b + 1) / 2)
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
            assert_eq!(normalise(raw, 5).unwrap(), n, "Ka {raw}");
        }
        assert!(normalise(-1, 5)
            .unwrap_err()
            .0
            .contains("allowed: 0 or more"));
        // A band of 10: 1..10 -> -3, 11..20 -> -2; 0 stays -4 (no Ka).
        for (raw, n) in [(0, -4), (10, -3), (11, -2), (20, -2), (21, -1)] {
            assert_eq!(normalise(raw, 10).unwrap(), n, "Ka {raw} band 10");
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
        for (ka, b) in rows {
            assert_eq!(meta_bonus(ka).unwrap(), b, "Ka {ka}");
        }
        // Mean 15.5 rounds up to 16 -> +2.
        assert_eq!(meta_bonus_pair(15, 16).unwrap(), 2);
        assert_eq!(meta_bonus_pair(15, 15).unwrap(), 1);
        assert!(meta_bonus_pair(-1, 3).is_err());
    }
}
