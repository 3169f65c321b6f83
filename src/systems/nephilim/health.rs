//! Wound and fatigue counters (N-HEALTH). Source: nephilim-v3.fr.txt, "La santé".

use crate::error::UserError;

/// Highest box of each counter.
pub const COUNTER_MAX: u8 = 10;

/// The malus of a counter level: 0 at 0, 1 at 1-2, 2 at 3-4, 3 at 5-6, 4 at 7-8, and
/// `None` at 9-10 (dead / fainted: no more actions).
pub fn malus(level: u8) -> Result<Option<i64>, UserError> {
    match level {
        0..=8 => Ok(Some((i64::from(level) + 1) / 2)),
        9..=COUNTER_MAX => Ok(None),
        _ => Err(UserError::new(crate::tr!(
            "nephilim.model.counter_range",
            level = level
        ))),
    }
}

/// At 7-8 a wounded character is incapacitated (Constitution + Constitution test at
/// difficulty 0 each round or coma), a tired one exhausted (Ka test at difficulty 0 each
/// round or unconscious).
pub fn needs_round_check(level: u8) -> bool {
    (7..=8).contains(&level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malus_levels() {
        let expect = [
            Some(0),
            Some(1),
            Some(1),
            Some(2),
            Some(2),
            Some(3),
            Some(3),
            Some(4),
            Some(4),
            None,
            None,
        ];
        for (lvl, m) in expect.iter().enumerate() {
            assert_eq!(malus(lvl as u8).unwrap(), *m, "level {lvl}");
        }
        assert!(malus(11).is_err());
        assert!(
            needs_round_check(7)
                && needs_round_check(8)
                && !needs_round_check(6)
                && !needs_round_check(9)
        );
    }
}
