use crate::rules::RuleOptions;

pub use crate::rules::trinites::OPTIONS;

/// The options a duel's or a skirmish's provenance lists: every one of `OPTIONS`, default
/// included, so the provenance says which reading of each the run used (audit of
/// 2026-12-07, evening: `trinites_risque_failure` was listed only off its default).
pub fn listed(o: &RuleOptions) -> std::collections::BTreeMap<String, String> {
    o.in_force(OPTIONS)
}

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

impl RegenTiming {
    /// Whether the Archonte's regeneration is due in `round` for an Adam' who fell in
    /// `fell_round` (T-LIFE): one rule for the duel and the skirmish.
    #[inline]
    pub fn due(self, round: u32, fell_round: u32) -> bool {
        match self {
            RegenTiming::NextRound => round > fell_round,
            RegenTiming::SameRound => round >= fell_round,
        }
    }
}

/// What the Risque pénalité does when the action fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RisqueIncident {
    LoseTurn,
    None,
}

/// What counts as the failed action of a Risque pénalité (option
/// `trinites_risque_failure`; Risque, l. 762 "Si l'action échoue").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RisqueFailure {
    /// The action hit nobody: a test that succeeds but loses the confrontation counts.
    NoHit,
    /// The action's test itself failed.
    TestFailed,
}

impl RisqueFailure {
    /// Whether an action whose test succeeded (`test_ok`, against at least one target)
    /// and which hit (`hit`, at least one target) failed, for Risque.
    #[inline(always)]
    pub fn failed(self, test_ok: bool, hit: bool) -> bool {
        match self {
            RisqueFailure::NoHit => !hit,
            RisqueFailure::TestFailed => !test_ok,
        }
    }
}

/// What a successful feint denies its target a reaction to (option
/// `trinites_feint_scope`; Feinter, l. 557).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeintScope {
    NextAction,
    Turn,
}

/// Where a disarmed fighter's weapon goes (option `trinites_disarm_weapon`; Désarmer,
/// l. 512).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisarmWeapon {
    Ground,
    Lost,
}

/// How an ally's parry meets a strike on its ward (option `trinites_parry_for`; l. 428,
/// 472).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParryFor {
    Both,
    Instead,
}

/// The Trinités options in force, typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrinitesRules {
    pub dual_keep: DualKeep,
    pub regen_action: RegenAction,
    pub unconscious_regen: RegenTiming,
    pub risque: RisqueIncident,
    /// What a failed Risque action is: option `trinites_risque_failure`.
    pub risque_failure: RisqueFailure,
    /// Malus of the retry of a failed test (parameter `trinites_retry_malus`, T-RETRY).
    pub retry_malus: i64,
    /// Malus per free action after the first, cumulative (parameter
    /// `trinites_free_action_malus`, T-COMBAT).
    pub free_action_malus: i64,
    /// Final result a test must reach (parameter `trinites_target`, T-TEST; book 12).
    pub target: i64,
    /// Initiative lost when a wound ticks boxes of the blessé line (parameter
    /// `trinites_pain_initiative`, T-COMBAT; book 3).
    pub pain_initiative: i64,
    /// Boxes per life line of a human and of an Adam' (parameters
    /// `trinites_life_line_human` / `_adam`, T-LIFE; book 4 and 8).
    pub human_line: i64,
    pub adam_line: i64,
    /// Life boxes recovered per Karma point spent on a regeneration (parameter
    /// `trinites_regen_boxes`, T-COMBAT; book 4).
    pub regen_boxes: i64,
    /// Divisor of the final Rapidité test giving the initiative score (parameter
    /// `trinites_initiative_divisor`, T-COMBAT; book 2, rounded up).
    pub initiative_divisor: i64,
    /// The Blessure grave / Attaques multiples prime applies before a sword's x2 against a
    /// Trinité (option `trinites_sword_order = prime_first`; default after).
    pub prime_before_sword: bool,
    /// Feinter (l. 557): option `trinites_feint_scope`.
    pub feint_scope: FeintScope,
    /// Désarmer (l. 512): option `trinites_disarm_weapon`.
    pub disarm_weapon: DisarmWeapon,
    /// Parrying for an ally (l. 428, 472): option `trinites_parry_for`.
    pub parry_for: ParryFor,
}

impl Default for TrinitesRules {
    fn default() -> Self {
        TrinitesRules::from_options(&RuleOptions::default())
    }
}

impl TrinitesRules {
    /// The turn's malus for `free` declared free actions: `free_action_malus` per action
    /// beyond the first, cumulative (T-COMBAT; book 3: 2 actions -3, 3 actions -6).
    #[inline(always)]
    pub fn free_malus(&self, free: i64) -> i64 {
        -self.free_action_malus * (free - 1).max(0)
    }

    /// Boxes per life line of a fighter (T-LIFE): an Adam' or a human.
    #[inline(always)]
    pub fn line(&self, trinite: bool) -> i64 {
        if trinite {
            self.adam_line
        } else {
            self.human_line
        }
    }

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
            risque_failure: match o.get("trinites_risque_failure") {
                "test_failed" => RisqueFailure::TestFailed,
                _ => RisqueFailure::NoHit,
            },
            retry_malus: o.integer("trinites_retry_malus"),
            free_action_malus: o.integer("trinites_free_action_malus"),
            target: o.integer("trinites_target"),
            pain_initiative: o.integer("trinites_pain_initiative"),
            human_line: o.integer("trinites_life_line_human"),
            adam_line: o.integer("trinites_life_line_adam"),
            regen_boxes: o.integer("trinites_regen_boxes"),
            initiative_divisor: o.integer("trinites_initiative_divisor"),
            prime_before_sword: o.get("trinites_sword_order") == "prime_first",
            feint_scope: match o.get("trinites_feint_scope") {
                "turn" => FeintScope::Turn,
                _ => FeintScope::NextAction,
            },
            disarm_weapon: match o.get("trinites_disarm_weapon") {
                "lost" => DisarmWeapon::Lost,
                _ => DisarmWeapon::Ground,
            },
            parry_for: match o.get("trinites_parry_for") {
                "instead" => ParryFor::Instead,
                _ => ParryFor::Both,
            },
        }
    }
}
