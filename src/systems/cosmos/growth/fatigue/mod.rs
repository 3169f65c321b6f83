//! Fatigue tracks FP and FM (C-FAT-1, C-FAT-2 overflow) and the states they put a
//! character in (C-FAT-4).

pub mod expedition;
mod potion;
pub mod reference;
mod state;
mod trek_rules;
pub mod trek_step;

pub use potion::{Potion, PotionTable, POTIONS};
pub use state::{FatigueLevels, FatigueState, FATIGUE_MAX, FATIGUE_MIN};

/// The two fatigue tracks, each in -3..10 (the ceiling is exhaustion, parameter
/// `fatigue_exhausted_at`); a gain past the ceiling spills onto the other track (C-FAT-2
/// last line; cosmos-current "Épuisement physique/mental").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fatigue {
    pub fp: i32,
    pub fm: i32,
}

impl Fatigue {
    /// Starting fatigue from the Force/Esprit (and mental-health) modifiers, clamped at -3
    /// (C-FAT-1).
    pub fn start(force: i32, esprit: i32, mental_health: Option<i32>) -> Fatigue {
        let fm_mh = mental_health.map_or(0, state::mental_health_modifier);
        Fatigue {
            fp: state::stat_modifier(force).max(FATIGUE_MIN),
            fm: (state::stat_modifier(esprit) + fm_mh).clamp(FATIGUE_MIN, FATIGUE_MAX),
        }
    }

    /// Adds `dfp`/`dfm` (either may be negative). Gains past `max` (exhaustion, the book's
    /// 10) move to the other track; both tracks then stay within -3..max (C-FAT-1,
    /// C-FAT-2: "Tout gain de FP au-delà de ce maximum sont transformés en gain de FM").
    #[inline(always)]
    pub fn add(&mut self, dfp: i32, dfm: i32, max: i32) {
        // The book's ceiling as a constant on the common path: the tracks' arithmetic is
        // the whole of an expedition's inner loop, and a known 10 folds into it.
        if max == FATIGUE_MAX {
            self.add_to(dfp, dfm, FATIGUE_MAX)
        } else {
            self.add_to(dfp, dfm, max)
        }
    }

    #[inline(always)]
    fn add_to(&mut self, dfp: i32, dfm: i32, max: i32) {
        let fp = self.fp + dfp;
        let fm = self.fm + dfm;
        let spill_fp = (fp - max).max(0);
        let spill_fm = (fm - max).max(0);
        // max/min rather than clamp: no bounds assertion on the hot path (max >= 2).
        self.fp = (fp.min(max) + spill_fm).max(FATIGUE_MIN).min(max);
        self.fm = (fm.min(max) + spill_fp).max(FATIGUE_MIN).min(max);
    }

    pub fn fp_state(&self) -> FatigueState {
        FatigueState::of(self.fp)
    }

    pub fn fm_state(&self) -> FatigueState {
        FatigueState::of(self.fm)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overflow_moves_to_the_other_track() {
        let mut f = Fatigue { fp: 9, fm: 2 };
        f.add(3, 0, 10);
        assert_eq!(f, Fatigue { fp: 10, fm: 4 });
        f.add(0, 9, 10);
        // fm 13 -> 10, 3 spill onto FP which is already at 10.
        assert_eq!(f, Fatigue { fp: 10, fm: 10 });
        f.add(-20, -1, 10);
        assert_eq!(f, Fatigue { fp: -3, fm: 9 });
    }

    #[test]
    fn the_ceiling_is_the_exhaustion_parameter() {
        // fatigue_exhausted_at = 8: FP 7 + 3 -> 8 and 2 spill onto FM (C-FAT-2).
        let mut f = Fatigue { fp: 7, fm: 0 };
        f.add(3, 0, 8);
        assert_eq!(f, Fatigue { fp: 8, fm: 2 });
        f.add(0, 9, 8);
        assert_eq!(f, Fatigue { fp: 8, fm: 8 });
    }

    #[test]
    fn start_modifiers() {
        // C-FAT-1: Force 75 -> -2 FP; Esprit 81 -> -3 FM, mental health 5 -> +4 FM.
        assert_eq!(Fatigue::start(75, 81, Some(5)), Fatigue { fp: -2, fm: 1 });
        assert_eq!(Fatigue::start(59, 60, None), Fatigue { fp: 0, fm: -1 });
        assert_eq!(Fatigue::start(85, 85, Some(90)), Fatigue { fp: -3, fm: -3 });
    }
}
