//! Rule options of the growth rules: readings the rulebook leaves open.

use crate::rules::RuleOptions;

pub use crate::rules::growth::OPTIONS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprintFatigueOrder {
    Before,
    After,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverloadAgility {
    Tests,
    Stat,
}

/// The growth options in force, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GrowthRules {
    pub sprint_fatigue_order: SprintFatigueOrder,
    pub overload_agility: OverloadAgility,
    pub previous_aura_esprit_bonus: bool,
}

impl Default for GrowthRules {
    fn default() -> Self {
        GrowthRules::from_options(&RuleOptions::default())
    }
}

impl GrowthRules {
    pub fn from_options(o: &RuleOptions) -> GrowthRules {
        GrowthRules {
            sprint_fatigue_order: match o.get("sprint_fatigue_order") {
                "after" => SprintFatigueOrder::After,
                _ => SprintFatigueOrder::Before,
            },
            overload_agility: match o.get("overload_agility") {
                "stat" => OverloadAgility::Stat,
                _ => OverloadAgility::Tests,
            },
            previous_aura_esprit_bonus: o.get("previous_aura_esprit_bonus") != "drop",
        }
    }
}
