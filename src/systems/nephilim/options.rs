//! Rule options of the Nephilim v3 rules: every reading the rulebook leaves open.

use crate::error::UserError;
use crate::rules::{Allowed, OptionSpec, RuleOptions};

use super::DieKind;

/// Rule options of the Nephilim v3 rules.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "die",
        decision: "N-DIE",
        default: "nephilim",
        allowed: Allowed::OneOf(&["nephilim", "d6", "d4"]),
        help: "the die D of +1D-1D: nephilim = faces 0,1,2,2,3,4 (crits at +-4), d6 = plain d6 (more heroic, crits at +-5), d4 = plain d4 (less heroic, crits at +-3)",
    },
    OptionSpec {
        key: "init_segment",
        decision: "N-INIT",
        default: "six",
        allowed: Allowed::OneOf(&["six", "five"]),
        help: "which initiatives share the first segment: six = highest down to highest-5 inclusive, \"en lui retranchant 5\" (an opponent 6 or more below acts later, the step of 6 of extra actions; N-INIT default), five = highest down to highest-4 (5 or more below acts later)",
    },
    OptionSpec {
        key: "concentration_score",
        decision: "N-MAGIC",
        default: "skill",
        allowed: Allowed::OneOf(&["skill", "double_skill"]),
        help: "score of the concentration test: skill = the spell-casting skill once (as written), double_skill = counted twice like a lone characteristic",
    },
    OptionSpec {
        key: "concentration_carry",
        decision: "N-MAGIC",
        default: "none",
        allowed: Allowed::OneOf(&["none", "margin"]),
        help: "what a good concentration test gives the control test: none, or margin = its margin of success added to the control score",
    },
    OptionSpec {
        key: "stase_bonus",
        decision: "N-MAGIC",
        default: "raw",
        allowed: Allowed::OneOf(&["raw", "normalised"]),
        help: "stase points drawn add to the raw Ka-element score before normalisation (raw), or straight to the normalised score (normalised)",
    },
];

/// Which initiatives share the first segment (N-INIT: the decision reads "en lui
/// retranchant 5" as H down to H - 5 inclusive, the same step of 6 as the extra actions at
/// init - 6, - 12; `Six` is the default, `Five` the other reading).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitSegment {
    /// Highest down to highest - 4: a gap of 5 or more puts the lower in a later segment.
    Five,
    /// Highest down to highest - 5: a gap of 6 or more is needed.
    Six,
}

impl InitSegment {
    /// The smallest initiative gap that puts the lower character in a later segment.
    pub fn gap(self) -> i64 {
        match self {
            InitSegment::Five => 5,
            InitSegment::Six => 6,
        }
    }
}

/// The Nephilim options in force, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NephilimRules {
    pub die: DieKind,
    pub init_segment: InitSegment,
    /// Concentration test counts the skill twice.
    pub double_skill: bool,
    /// Concentration margin carries to the control test.
    pub carry_margin: bool,
    /// Stase points add to the normalised Ka-element instead of the raw score.
    pub stase_normalised: bool,
}

impl Default for NephilimRules {
    fn default() -> Self {
        NephilimRules::from_options(&RuleOptions::default())
    }
}

impl NephilimRules {
    /// Reads the options in force.
    pub fn from_options(o: &RuleOptions) -> NephilimRules {
        NephilimRules {
            die: DieKind::parse(o.get("die")).unwrap_or(DieKind::Nephilim),
            init_segment: match o.get("init_segment") {
                "five" => InitSegment::Five,
                _ => InitSegment::Six,
            },
            double_skill: o.get("concentration_score") == "double_skill",
            carry_margin: o.get("concentration_carry") == "margin",
            stase_normalised: o.get("stase_bonus") == "normalised",
        }
    }

    /// The same rules with another die.
    pub fn with_die(self, die: DieKind) -> NephilimRules {
        NephilimRules { die, ..self }
    }
}

/// Validates a die name for flags and scenario keys.
pub fn parse_die(s: &str) -> Result<DieKind, UserError> {
    DieKind::parse(s)
        .ok_or_else(|| UserError::new(format!("unknown die `{s}`; allowed: nephilim | d6 | d4")))
}
