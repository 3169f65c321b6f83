use crate::rules::{Allowed, OptionSpec, RuleOptions};

/// Rule options of Trinités, for readings the rulebook leaves open.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "trinites_dual_keep",
        decision: "T-DUAL",
        default: "highest",
        allowed: Allowed::OneOf(&["highest", "deva_if_success"]),
        help: "which of the Trinité's two d12 is kept: highest = the higher natural (ties: the Deva); deva_if_success = the Deva whenever it succeeds, else the higher",
    },
    OptionSpec {
        key: "trinites_regen_action",
        decision: "T-COMBAT",
        default: "libre",
        allowed: Allowed::OneOf(&["libre", "gratuite"]),
        help: "what a regeneration costs on the Adam's turn: libre = a free action (each beyond the first gives -3 to the turn's tests, VIE ET MORT), gratuite = no cost (LE KARMA)",
    },
    OptionSpec {
        key: "trinites_unconscious_regen",
        decision: "T-LIFE",
        default: "next_round",
        allowed: Allowed::OneOf(&["next_round", "same_round"]),
        help: "when the Archonte regenerates an unconscious Adam': at the end of the round after the one he fell in (next_round) or at the end of the round he fell in (same_round)",
    },
    OptionSpec {
        key: "trinites_risque_incident",
        decision: "T-COMBAT",
        default: "lose_turn",
        allowed: Allowed::OneOf(&["lose_turn", "none"]),
        help: "the incident of the Risque pénalité when the action fails: lose_turn = the rest of the turn's attacks are lost (weapon stuck, fall...), none = no effect",
    },
];

/// How the Trinité picks its natural result (T-DUAL).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DualKeep {
    Highest,
    DevaIfSuccess,
}

/// What a regeneration costs on the Adam's own turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegenAction {
    Libre,
    Gratuite,
}

/// When the Archonte regenerates an unconscious Adam'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RegenTiming {
    NextRound,
    SameRound,
}

/// What the Risque pénalité does when the action fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RisqueIncident {
    LoseTurn,
    None,
}

/// The Trinités options in force, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrinitesRules {
    pub dual_keep: DualKeep,
    pub regen_action: RegenAction,
    pub unconscious_regen: RegenTiming,
    pub risque: RisqueIncident,
}

impl Default for TrinitesRules {
    fn default() -> Self {
        TrinitesRules::from_options(&RuleOptions::default())
    }
}

impl TrinitesRules {
    pub fn from_options(o: &RuleOptions) -> TrinitesRules {
        TrinitesRules {
            dual_keep: match o.get("trinites_dual_keep") {
                "deva_if_success" => DualKeep::DevaIfSuccess,
                _ => DualKeep::Highest,
            },
            regen_action: match o.get("trinites_regen_action") {
                "gratuite" => RegenAction::Gratuite,
                _ => RegenAction::Libre,
            },
            unconscious_regen: match o.get("trinites_unconscious_regen") {
                "same_round" => RegenTiming::SameRound,
                _ => RegenTiming::NextRound,
            },
            risque: match o.get("trinites_risque_incident") {
                "none" => RisqueIncident::None,
                _ => RisqueIncident::LoseTurn,
            },
        }
    }
}
