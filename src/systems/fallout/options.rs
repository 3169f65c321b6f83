use crate::rules::RuleOptions;

pub use crate::rules::fallout::OPTIONS;

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
