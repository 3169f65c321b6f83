use crate::rules::RuleOptions;
use crate::systems::cosmos::growth::fatigue::FatigueLevels;

pub use crate::rules::cosmos::OPTIONS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PercentMode {
    Points,
    Relative,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SuperCritRoll {
    Natural,
    Score,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KarmaOverflow {
    Clamp,
    Cancel,
}

/// Where a test's crit-failure band starts: the rules' band (C-TEST-2), the band widened
/// by extreme fatigue (C-FAT-4), or a value given by the user (`--crit-fail-from`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CritBand {
    Book,
    Fatigued,
    From(u8),
}

/// The test and karma options in force, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestRules {
    pub percent_mode: PercentMode,
    pub super_crit_roll: SuperCritRoll,
    pub karma_overflow: KarmaOverflow,
    /// Parameters (C-TEST-2, C-TEST-3): the book's numbers unless a variant changes them.
    pub crit_success_to: u8,
    pub super_success_roll: u8,
    pub super_failure_roll: u8,
    pub karma_die_from: i8,
    pub karma_die_sides: u8,
    /// C-TEST-2 / C-FAT-4: the crit-failure band (91) and how much extreme fatigue widens it (5).
    pub crit_failure_from: u8,
    pub fatigue_crit_failure_extra: u8,
    /// C-KARMA-1: karma stays within -bound..bound (10).
    pub karma_bound: i8,
    /// C-FAT-4: the fatigue states' thresholds and test maluses.
    pub fatigue: FatigueLevels,
}

impl Default for TestRules {
    fn default() -> Self {
        TestRules::from_options(&RuleOptions::default())
    }
}

impl TestRules {
    /// Where the crit-failure band starts for a test with this band (C-TEST-2, C-FAT-4).
    #[inline(always)]
    pub fn crit_fail_from(&self, band: CritBand) -> u8 {
        match band {
            CritBand::Book => self.crit_failure_from,
            // Floor 11: the band never swallows the crit-success scores' neighbours
            // below the validated parameter ranges (31 - 20).
            CritBand::Fatigued => self
                .crit_failure_from
                .saturating_sub(self.fatigue_crit_failure_extra)
                .max(11),
            CritBand::From(from) => from,
        }
    }

    pub fn from_options(o: &RuleOptions) -> TestRules {
        TestRules {
            percent_mode: match o.get("percent_mode") {
                "relative" => PercentMode::Relative,
                _ => PercentMode::Points,
            },
            super_crit_roll: match o.get("super_crit_roll") {
                "score" => SuperCritRoll::Score,
                _ => SuperCritRoll::Natural,
            },
            karma_overflow: match o.get("karma_overflow") {
                "cancel" => KarmaOverflow::Cancel,
                _ => KarmaOverflow::Clamp,
            },
            crit_success_to: o.integer("crit_success_to") as u8,
            super_success_roll: o.integer("super_success_roll") as u8,
            super_failure_roll: o.integer("super_failure_roll") as u8,
            karma_die_from: o.integer("karma_die_from") as i8,
            karma_die_sides: o.integer("karma_die_sides") as u8,
            crit_failure_from: o.integer("crit_failure_from") as u8,
            fatigue_crit_failure_extra: o.integer("fatigue_crit_failure_extra") as u8,
            karma_bound: o.integer("karma_bound") as i8,
            fatigue: FatigueLevels {
                from: [
                    o.integer("fatigue_light_from") as i32,
                    o.integer("fatigue_moderate_from") as i32,
                    o.integer("fatigue_extreme_from") as i32,
                ],
                malus: [
                    o.integer("fatigue_light_malus") as i32,
                    o.integer("fatigue_moderate_malus") as i32,
                    o.integer("fatigue_extreme_malus") as i32,
                ],
                exhausted: o.integer("fatigue_exhausted_at") as i32,
            },
        }
    }
}
