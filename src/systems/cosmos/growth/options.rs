//! Rule options of the growth rules: readings the rulebook leaves open.

use crate::rules::RuleOptions;

use super::fatigue::expedition::TrekRules;

pub use crate::rules::growth::OPTIONS;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprintFatigueOrder {
    Before,
    After,
}

/// How a passive test is rolled (C-AURA face 6, C-FAT-5 concentrate): option
/// `passive_test`, one reading used everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PassiveTest {
    /// The karma die applies and the test moves karma; bonuses are dropped.
    Karma,
    /// Karma read as 0 (no karma die) and left unmoved; bonuses are dropped.
    Plain,
}

impl PassiveTest {
    /// The karma a passive test is rolled at, for a character at `karma`.
    pub fn karma(self, karma: i8) -> i8 {
        match self {
            PassiveTest::Karma => karma,
            PassiveTest::Plain => 0,
        }
    }

    /// Whether the passive test's outcome moves karma (C-KARMA-1).
    pub fn moves_karma(self) -> bool {
        self == PassiveTest::Karma
    }
}

/// Who gains an anti-aura point when an aura use on it is rolled (C-AURA): option
/// `anti_aura_gain`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AntiAuraGain {
    /// Only a combatant whose race has no aura (book l. 264, the default).
    WithoutAura,
    /// Every victim, aura holders included (the tool's reading before the audit of
    /// 2026-12-08).
    EveryVictim,
}

impl AntiAuraGain {
    /// Whether a victim gains the point; `has_aura`: its race has the aura.
    pub fn gains(self, has_aura: bool) -> bool {
        match self {
            AntiAuraGain::WithoutAura => !has_aura,
            AntiAuraGain::EveryVictim => true,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OverloadAgility {
    Tests,
    Stat,
}

/// The growth options in force, typed.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GrowthRules {
    pub sprint_fatigue_order: SprintFatigueOrder,
    pub overload_agility: OverloadAgility,
    pub previous_aura_esprit_bonus: bool,
    pub passive_test: PassiveTest,
    pub anti_aura_gain: AntiAuraGain,
    /// The endurance numbers of an expedition (C-FAT-2, C-FAT-3, C-FAT-4 parameters).
    pub trek: TrekRules,
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
            // C-INV: "-5% d'agilité pour chaque point au-dessus de la limite" lowers
            // Agilité wherever it is used, movement included, unless the option says
            // `tests` (cosmos-current.fr.txt l. 500).
            overload_agility: match o.get("overload_agility") {
                "tests" => OverloadAgility::Tests,
                _ => OverloadAgility::Stat,
            },
            previous_aura_esprit_bonus: o.get("previous_aura_esprit_bonus") != "drop",
            passive_test: match o.get("passive_test") {
                "plain" => PassiveTest::Plain,
                _ => PassiveTest::Karma,
            },
            // "les races ne disposant pas de l'aura peuvent engranger des points
            // d'anti-aura. Ils obtiennent un point d'anti-aura chaque fois qu'ils sont
            // victimes de l'aura" (cosmos-current l. 264, cosmos-previous l. 307); C-AURA's
            // "Each aura use gives the victim 1 anti-aura point" is silent on holders.
            anti_aura_gain: match o.get("anti_aura_gain") {
                "every_victim" => AntiAuraGain::EveryVictim,
                _ => AntiAuraGain::WithoutAura,
            },
            trek: TrekRules::from_options(o),
        }
    }
}
