use crate::rules::RuleOptions;

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
}

impl Default for TestRules {
    fn default() -> Self {
        TestRules::from_options(&RuleOptions::default())
    }
}

impl TestRules {
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
        }
    }
}
