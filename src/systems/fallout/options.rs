use crate::rules::{Allowed, OptionSpec, RuleOptions};

/// Rule options of the 2d20 system.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "fallout_ap_shortfall",
        decision: "F-AP",
        default: "split",
        allowed: Allowed::OneOf(&["split", "whole_die"]),
        help: "a bonus d20 the group pool can only partly pay for: split takes what the pool has and gives the MJ the rest; whole_die pays a die entirely from the pool or, if the pool cannot cover it, entirely as MJ AP (pool untouched)",
    },
    OptionSpec {
        key: "fallout_extra_damage",
        decision: "F-CD",
        default: "melee_thrown",
        allowed: Allowed::OneOf(&["melee_thrown", "any"]),
        help: "which weapons may buy extra combat dice with AP (1 AP each, at most 3): melee_thrown follows the book (\"une arme de corps à corps ou de lancer\"); any lets ranged weapons buy them too, as F-CD reads without the restriction",
    },
];

/// How a bonus die is paid when the group pool is short (F-AP).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortfall {
    /// The pool pays what it has; each missing AP goes to the MJ.
    Split,
    /// A die is paid wholly from the pool, or wholly as MJ AP.
    WholeDie,
}

impl Shortfall {
    /// The reading in force.
    pub fn from_options(o: &RuleOptions) -> Shortfall {
        match o.get("fallout_ap_shortfall") {
            "whole_die" => Shortfall::WholeDie,
            _ => Shortfall::Split,
        }
    }
}
