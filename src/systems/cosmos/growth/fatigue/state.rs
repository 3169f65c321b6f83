//! Fatigue states and their maluses (C-FAT-4) and the starting modifiers (C-FAT-1).
//! Source: cosmos-current.fr.txt, "Règle de l'endurance".

use crate::systems::cosmos::CritBand;

/// Lowest value of a track (C-FAT-1).
pub const FATIGUE_MIN: i32 = -3;
/// Exhaustion in the book (C-FAT-4), and the largest value of the parameter
/// `fatigue_exhausted_at` (exact tables and histograms are sized for -3..10).
pub const FATIGUE_MAX: i32 = 10;

/// The state one track puts a character in (C-FAT-4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FatigueState {
    /// Below 4: no effect.
    Fresh,
    /// 4-5: -5 on the track's tests.
    Light,
    /// 6-7: -10; FP: -1 move.
    Moderate,
    /// 8-9: -30, crit-failure band from 86; FP: -2 move; FM: no channelled spells.
    Extreme,
    /// 10: FP cannot act; FM no magic; no Light/Dark points.
    Exhausted,
}

/// The fatigue states' thresholds and test maluses in force (C-FAT-4 parameters
/// `fatigue_*_from`, `fatigue_*_malus`, `fatigue_exhausted_at`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FatigueLevels {
    /// Light, moderate and extreme from these values (book: 4, 6, 8).
    pub from: [i32; 3],
    /// Their test maluses in percentage points (book: 5, 10, 30).
    pub malus: [i32; 3],
    /// Exhaustion, also the tracks' ceiling where gains spill over (book: 10, at most
    /// [`FATIGUE_MAX`]).
    pub exhausted: i32,
}

impl Default for FatigueLevels {
    fn default() -> Self {
        FatigueLevels {
            from: [4, 6, 8],
            malus: [5, 10, 30],
            exhausted: FATIGUE_MAX,
        }
    }
}

impl FatigueLevels {
    /// The state a track value puts a character in. Thresholds given out of order read
    /// as their running maximum, so the states stay in order.
    #[inline(always)]
    pub fn state(&self, value: i32) -> FatigueState {
        let [l, m, e] = self.from;
        let (m, e) = (m.max(l), e.max(l).max(m));
        match value {
            v if v >= self.exhausted => FatigueState::Exhausted,
            v if v >= e => FatigueState::Extreme,
            v if v >= m => FatigueState::Moderate,
            v if v >= l => FatigueState::Light,
            _ => FatigueState::Fresh,
        }
    }

    /// Whether a track value is exhaustion (C-FAT-4: FP 10 no action, FM 10 no magic and
    /// no concentration, either one no Light/Dark point).
    #[inline(always)]
    pub fn exhausted(&self, value: i32) -> bool {
        value >= self.exhausted
    }

    /// The malus on the turn after a concentrate action (C-FAT-5), as
    /// [`FatigueState::concentrated_malus`] under these maluses.
    pub fn concentrated_malus(&self, s: FatigueState) -> f64 {
        match s {
            FatigueState::Fresh | FatigueState::Light => 0.0,
            other => self.test_malus(other) / 2.0,
        }
    }

    /// Percentage malus on the track's tests in state `s` (C-FAT-4).
    #[inline(always)]
    pub fn test_malus(&self, s: FatigueState) -> f64 {
        match s {
            FatigueState::Fresh => 0.0,
            FatigueState::Light => -self.malus[0] as f64,
            FatigueState::Moderate => -self.malus[1] as f64,
            FatigueState::Extreme | FatigueState::Exhausted => -self.malus[2] as f64,
        }
    }
}

impl FatigueState {
    /// The state under the book's thresholds.
    pub fn of(value: i32) -> FatigueState {
        match value {
            v if v >= 10 => FatigueState::Exhausted,
            8..=9 => FatigueState::Extreme,
            6..=7 => FatigueState::Moderate,
            4..=5 => FatigueState::Light,
            _ => FatigueState::Fresh,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FatigueState::Fresh => "fresh",
            FatigueState::Light => "light",
            FatigueState::Moderate => "moderate",
            FatigueState::Extreme => "extreme",
            FatigueState::Exhausted => "exhausted",
        }
    }

    /// Percentage malus on the track's tests (C-FAT-4); exhaustion forbids the test, so
    /// callers treat it apart.
    pub fn test_malus(self) -> f64 {
        match self {
            FatigueState::Fresh => 0.0,
            FatigueState::Light => -5.0,
            FatigueState::Moderate => -10.0,
            FatigueState::Extreme | FatigueState::Exhausted => -30.0,
        }
    }

    /// The malus on the turn after a concentrate action (C-FAT-5): light fatigue is
    /// ignored, moderate and extreme maluses are halved. For the extreme state the halving
    /// needs a passive Esprit test, which the caller rolls or weighs.
    pub fn concentrated_malus(self) -> f64 {
        match self {
            FatigueState::Fresh | FatigueState::Light => 0.0,
            other => other.test_malus() / 2.0,
        }
    }

    /// The crit-failure band (C-FAT-4: "+5% d'échecs critiques" -> 86 in the book; the
    /// rules' `crit_failure_from` and `fatigue_crit_failure_extra` place it).
    pub fn crit_band(self) -> CritBand {
        match self {
            FatigueState::Extreme | FatigueState::Exhausted => CritBand::Fatigued,
            _ => CritBand::Book,
        }
    }

    /// Move units lost to FP fatigue (C-FAT-4, C-MOVE).
    pub fn move_malus(self) -> i32 {
        match self {
            FatigueState::Moderate => 1,
            FatigueState::Extreme => 2,
            _ => 0,
        }
    }
}

/// FP (Force) or FM (Esprit) starting modifier (C-FAT-1 table: >= 60 and < 75: -1;
/// 75..=80: -2; > 80: -3).
pub fn stat_modifier(stat: i32) -> i32 {
    match stat {
        s if s > 80 => -3,
        s if s >= 75 => -2,
        s if s >= 60 => -1,
        _ => 0,
    }
}

/// FM modifier from mental health (C-FAT-1 table: > 75: -2; 26..=50: +2; 11..=25: +3;
/// <= 10: +4).
pub fn mental_health_modifier(mh: i32) -> i32 {
    match mh {
        m if m > 75 => -2,
        m if m > 50 => 0,
        m if m > 25 => 2,
        m if m > 10 => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_bounds() {
        assert_eq!(FatigueState::of(3), FatigueState::Fresh);
        assert_eq!(FatigueState::of(4), FatigueState::Light);
        assert_eq!(FatigueState::of(7), FatigueState::Moderate);
        assert_eq!(FatigueState::of(8), FatigueState::Extreme);
        assert_eq!(FatigueState::of(10), FatigueState::Exhausted);
        assert_eq!(FatigueState::of(-3), FatigueState::Fresh);
        let r = crate::systems::cosmos::TestRules::default();
        assert_eq!(r.crit_fail_from(FatigueState::Extreme.crit_band()), 86);
        assert_eq!(r.crit_fail_from(FatigueState::Moderate.crit_band()), 91);
        // C-FAT-5: light ignored, moderate and extreme halved.
        assert_eq!(FatigueState::Light.concentrated_malus(), 0.0);
        assert_eq!(FatigueState::Moderate.concentrated_malus(), -5.0);
        assert_eq!(FatigueState::Extreme.concentrated_malus(), -15.0);
    }
}
