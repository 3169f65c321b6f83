//! Wound and fatigue counters (N-HEALTH). Source: nephilim-v3.fr.txt, "La santé" (l. 74-88):
//! 10 boxes, levels 0 (unharmed), 1-2, 3-4, 5-6, 7-8 (malus +1..+4; at 7-8 incapacity or
//! exhaustion, a check each round) and 9-10 (dead / fainted).

use crate::error::UserError;
use crate::lang::Lang;

/// Most boxes of a counter under any parameter value (4 boxes per state, 5 states).
pub const TOP_MAX: u8 = 20;

/// The counters in force: `boxes_per_state` (parameter `nephilim_health_boxes_per_state`,
/// book 2) boxes in each of the five states after 0, the four malus states carrying
/// `malus_step` (parameter `nephilim_health_malus_step`, book 1) per state. With b boxes
/// per state: levels 1..b state 1, ..., 3b+1..4b state 4 (the round checks), 4b+1..5b out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counters {
    pub boxes_per_state: u8,
    pub malus_step: i64,
}

impl Default for Counters {
    /// The book's counters: 2 boxes per state, malus 1 per state.
    fn default() -> Self {
        Counters {
            boxes_per_state: 2,
            malus_step: 1,
        }
    }
}

impl Counters {
    /// Highest box of each counter (book 10).
    pub fn top(&self) -> u8 {
        5 * self.boxes_per_state
    }

    /// The level from which a character is out: dead / fainted (book 9).
    pub fn out_level(&self) -> u8 {
        4 * self.boxes_per_state + 1
    }

    /// The state of a level: 0 unharmed, 1..4 the malus states, 5 out.
    pub fn state(&self, level: u8) -> u8 {
        level.div_ceil(self.boxes_per_state).min(5)
    }

    /// The malus of a counter level: 0 at 0, one step per state up to state 4 (book 1 at
    /// 1-2, 2 at 3-4, 3 at 5-6, 4 at 7-8), and `None` out (book 9-10: no more actions).
    pub fn malus(&self, lang: Lang, level: u8) -> Result<Option<i64>, UserError> {
        if level > self.top() {
            return Err(UserError::new(tr!(
                lang,
                "nephilim.model.counter_range",
                level,
                top = self.top()
            )));
        }
        Ok(match self.state(level) {
            5 => None,
            s => Some(self.malus_step * i64::from(s)),
        })
    }

    /// In the fourth state (book 7-8) a wounded character is incapacitated (Constitution +
    /// Constitution test at difficulty 0 each round or coma), a tired one exhausted (Ka
    /// test at difficulty 0 each round or unconscious).
    pub fn needs_round_check(&self, level: u8) -> bool {
        self.state(level) == 4
    }

    /// The malus of every level 0..=TOP_MAX, for hot loops; from the out level on, the
    /// fourth state's (an out fighter does not act; the duel read `min(8)` before).
    pub fn malus_table(&self) -> [i64; TOP_MAX as usize + 1] {
        std::array::from_fn(|l| {
            self.malus(Lang::En, l as u8) // the error is dropped
                .ok()
                .flatten()
                .unwrap_or(4 * self.malus_step)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malus_levels() {
        let book = Counters::default();
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
            assert_eq!(book.malus(Lang::En, lvl as u8).unwrap(), *m, "level {lvl}");
        }
        assert_eq!((book.top(), book.out_level()), (10, 9));
        assert!(book.malus(Lang::En, 11).is_err());
        assert!(
            book.needs_round_check(7)
                && book.needs_round_check(8)
                && !book.needs_round_check(6)
                && !book.needs_round_check(9)
        );
    }

    #[test]
    fn boxes_per_state_off_the_book() {
        // One box per state: level = state, out at 5, 5 boxes, the check at 4 only.
        let one = Counters {
            boxes_per_state: 1,
            malus_step: 1,
        };
        let got: Vec<_> = (0..=5).map(|l| one.malus(Lang::En, l).unwrap()).collect();
        assert_eq!(got, [Some(0), Some(1), Some(2), Some(3), Some(4), None]);
        assert_eq!((one.top(), one.out_level()), (5, 5));
        assert!(one.needs_round_check(4) && !one.needs_round_check(3));
        assert!(one.malus(Lang::En, 6).is_err());
        // Three boxes, step 2: 1-3 -> 2, 4-6 -> 4, 7-9 -> 6, 10-12 -> 8 (checks), 13-15 out.
        let three = Counters {
            boxes_per_state: 3,
            malus_step: 2,
        };
        assert_eq!(three.malus(Lang::En, 3).unwrap(), Some(2));
        assert_eq!(three.malus(Lang::En, 4).unwrap(), Some(4));
        assert_eq!(three.malus(Lang::En, 12).unwrap(), Some(8));
        assert_eq!(three.malus(Lang::En, 13).unwrap(), None);
        assert!(three.needs_round_check(10) && three.needs_round_check(12));
        assert!(!three.needs_round_check(9) && !three.needs_round_check(13));
        assert_eq!((three.top(), three.out_level()), (15, 13));
        // The hot loop's table agrees below the out level and keeps state 4's beyond.
        let t = three.malus_table();
        assert_eq!(&t[..13], &[0, 2, 2, 2, 4, 4, 4, 6, 6, 6, 8, 8, 8]);
        assert!(t[13..].iter().all(|&m| m == 8));
        // The largest counters stay within TOP_MAX.
        let four = Counters {
            boxes_per_state: 4,
            malus_step: 4,
        };
        assert_eq!(four.top(), TOP_MAX);
        assert_eq!(four.malus(Lang::En, 16).unwrap(), Some(16));
    }
}
