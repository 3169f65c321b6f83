//! Rule options of the Nephilim v3 rules: every reading the rulebook leaves open.

use crate::rules::RuleOptions;

use super::health::Counters;
use super::ka::MetaBands;
use super::DieKind;

pub use crate::rules::nephilim::{BAND_PARAMETERS, DUEL_READINGS, OPTIONS};

/// The options recorded in a Nephilim provenance: every reading and parameter of
/// `OPTIONS`, and the `BAND_PARAMETERS` (meta bands, counter boxes) only when one is off
/// the book, so runs at the book's values keep their bytes.
pub fn in_force(o: &RuleOptions) -> std::collections::BTreeMap<String, String> {
    let mut m = o.in_force(OPTIONS);
    if !BAND_PARAMETERS.iter().all(|s| o.get(s.key) == s.default) {
        m.extend(o.in_force(BAND_PARAMETERS));
    }
    if !DUEL_READINGS.iter().all(|s| o.get(s.key) == s.default) {
        m.extend(o.in_force(DUEL_READINGS));
    }
    m
}

/// The options recorded in a Nephilim duel's provenance: those of `in_force`, and every
/// duel reading always, defaults included. Each of them can move a duel (wounds pile up
/// in the shipped one, so even `nephilim_wounds_on_initiative` at `no` is a choice the
/// numbers rest on); tables never read them, so theirs stay as `in_force` gives.
pub fn in_force_duel(o: &RuleOptions) -> std::collections::BTreeMap<String, String> {
    let mut m = in_force(o);
    m.extend(o.in_force(DUEL_READINGS));
    m
}

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
    /// Initiative step between declared actions (parameter `nephilim_extra_action_step`,
    /// N-INIT; book 6).
    pub action_step: i64,
    /// Malus per extra action declared, on every action of the round (parameter
    /// `nephilim_extra_action_malus`, N-INIT; book 4).
    pub action_malus: i64,
    /// How many raw results at each end of +1D-1D are critical (parameter
    /// `nephilim_crit_band`, N-CRIT; book 1: only the extreme, +-4 with the nephilim die).
    pub crit_band: i64,
    /// Absolute Ka points per normalised point (parameter `nephilim_ka_band`, N-KA; book 5).
    pub ka_band: i64,
    /// Malus per state of the wound and fatigue counters (parameter
    /// `nephilim_health_malus_step`, N-HEALTH; book 1: 1/2/3/4 at levels 1-2/3-4/5-6/7-8).
    pub health_malus_step: i64,
    /// Boxes per state of the wound and fatigue counters (parameter
    /// `nephilim_health_boxes_per_state`, N-HEALTH; book 2: 10 boxes, out at 9).
    pub health_boxes: u8,
    /// The meta-characteristic bonus bands (parameters `nephilim_meta_first_band` and
    /// `nephilim_meta_band_growth`, N-KA; book 5 and 5).
    pub meta_bands: MetaBands,
    /// Duel readings (issue 25; `DUEL_READINGS`): the damage margin over the higher of
    /// the difficulty and the defence (`nephilim_damage_margin = higher`), the -4 per extra
    /// action on parries and dodges too, the fatigue malus on initiative and on the
    /// incapacity / exhaustion checks, fatigue boxes per extra action when the file is
    /// silent, the end-of-round checks of a survivor whose opponent went out that round.
    pub margin_over_higher: bool,
    pub extra_malus_on_defence: bool,
    pub fatigue_on_initiative: bool,
    /// The wound malus lowers the initiative test too (`nephilim_wounds_on_initiative`,
    /// N-HEALTH; default no).
    pub wounds_on_initiative: bool,
    pub fatigue_on_checks: bool,
    pub extra_action_fatigue: u8,
    pub survivor_check: bool,
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
            action_step: o.integer("nephilim_extra_action_step"),
            action_malus: o.integer("nephilim_extra_action_malus"),
            crit_band: o.integer("nephilim_crit_band"),
            ka_band: o.integer("nephilim_ka_band"),
            health_malus_step: o.integer("nephilim_health_malus_step"),
            // The registry's range 1..4 keeps it a small positive u8.
            health_boxes: o.integer("nephilim_health_boxes_per_state").clamp(1, 4) as u8,
            meta_bands: MetaBands {
                first: o.integer("nephilim_meta_first_band"),
                growth: o.integer("nephilim_meta_band_growth"),
            },
            margin_over_higher: o.get("nephilim_damage_margin") != "defence",
            extra_malus_on_defence: o.get("nephilim_extra_action_malus_on") != "attacks",
            fatigue_on_initiative: o.get("nephilim_fatigue_on_initiative") != "no",
            wounds_on_initiative: o.get("nephilim_wounds_on_initiative") == "yes",
            fatigue_on_checks: o.get("nephilim_check_malus") == "fatigue",
            extra_action_fatigue: u8::from(
                o.get("nephilim_extra_action_cost") == "malus_and_fatigue",
            ),
            survivor_check: o.get("nephilim_survivor_check") != "no",
        }
    }

    /// The lowest critical raw result in force (N-CRIT): the die's extreme minus the band
    /// beyond the first (book: +4 with the nephilim die, +5 with d6, +3 with d4).
    #[inline]
    pub fn crit_from(&self) -> i64 {
        self.die.crit() - (self.crit_band - 1)
    }

    /// The wound and fatigue counters in force (N-HEALTH).
    pub fn counters(&self) -> Counters {
        Counters {
            boxes_per_state: self.health_boxes,
            malus_step: self.health_malus_step,
        }
    }
}
