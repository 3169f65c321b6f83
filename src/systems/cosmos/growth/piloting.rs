//! Piloting (C-PILOT). Source: cosmos-current.fr.txt, "Règle de pilotage".

use crate::lang::Lang;

/// The die ladder stress climbs (C-PILOT).
pub const LADDER: [u32; 6] = [4, 6, 8, 10, 12, 20];

/// World-ships and mobile star bases: a d100, stress does not apply (C-PILOT).
pub const WORLD_SHIP_DIE: u32 = 100;

/// Vehicle classes by die (the garbled table read as in C-PILOT): (die, planetary,
/// astral), in the language in force.
pub fn vehicles(lang: Lang) -> [(u32, &'static str, &'static str); 7] {
    [
        (
            4,
            tr!(lang, "growth.piloting.planetary_d4"),
            tr!(lang, "growth.piloting.astral_d4"),
        ),
        (
            6,
            tr!(lang, "growth.piloting.planetary_d6"),
            tr!(lang, "growth.piloting.astral_d6"),
        ),
        (8, "-", tr!(lang, "growth.piloting.astral_d8")),
        (
            10,
            tr!(lang, "growth.piloting.planetary_d10"),
            tr!(lang, "growth.piloting.astral_d10"),
        ),
        (
            12,
            tr!(lang, "growth.piloting.planetary_d12"),
            tr!(lang, "growth.piloting.astral_d12"),
        ),
        (20, "-", tr!(lang, "growth.piloting.astral_d20")),
        (100, "-", tr!(lang, "growth.piloting.astral_d100")),
    ]
}

/// The die rolled after `stress` steps up the ladder; `None` past the d20 (the test fails
/// outright). The d100 of world-ships ignores stress.
pub fn effective_die(base: u32, stress: u32) -> Option<u32> {
    if base == WORLD_SHIP_DIE {
        return Some(WORLD_SHIP_DIE);
    }
    let i = LADDER.iter().position(|&d| d == base)?;
    LADDER.get(i + stress as usize).copied()
}

/// P(success): roll <= score on the effective die; a score at or above the faces succeeds
/// without a roll; past the d20 the test fails. Several pilots add their scores (C-PILOT).
pub fn p_success(score: i64, base: u32, stress: u32) -> f64 {
    match effective_die(base, stress) {
        None => 0.0,
        Some(faces) => score.clamp(0, faces as i64) as f64 / faces as f64,
    }
}

/// Whether the pilot succeeds without rolling.
pub fn automatic(score: i64, base: u32, stress: u32) -> bool {
    effective_die(base, stress).is_some_and(|f| score >= f as i64)
}

/// The combined score of a crew (C-PILOT: several pilots sum their scores).
pub fn crew_score(scores: &[i64]) -> i64 {
    scores.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladder_and_stress() {
        assert_eq!(effective_die(4, 2), Some(8));
        assert_eq!(effective_die(12, 1), Some(20));
        assert_eq!(effective_die(12, 2), None);
        assert_eq!(effective_die(100, 2), Some(100));
        assert_eq!(effective_die(7, 0), None);
    }

    #[test]
    fn success_by_hand() {
        assert_eq!(p_success(3, 4, 0), 0.75);
        assert_eq!(p_success(3, 4, 1), 0.5);
        assert_eq!(p_success(9, 8, 0), 1.0);
        assert!(automatic(9, 8, 0) && !automatic(7, 8, 0));
        assert_eq!(p_success(20, 20, 1), 0.0);
        assert_eq!(p_success(crew_score(&[3, 4]), 10, 0), 0.7);
    }
}
