//! The numbers of the endurance rule an expedition reads (C-FAT-2, C-FAT-3, C-FAT-4),
//! resolved once per run from the parameters in force.

use crate::rules::RuleOptions;

use super::potion::PotionTable;
use super::FATIGUE_MAX;

/// The numbers of the endurance rule an expedition uses (C-FAT-2, C-FAT-3, C-FAT-4),
/// resolved once per run from the parameters in force. The gains of a fight are the
/// combat parameters of the same rule (`fatigue_rounds_per_fp`, ...), so one value moves
/// played combats and an expedition's abstract encounters alike.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TrekRules {
    /// `fatigue_exhausted_at`: exhaustion and the tracks' ceiling (10).
    pub max: i32,
    /// `fatigue_daily_gain`: "+1 FP et +1 FM chaque jour naturellement".
    pub daily: i32,
    /// `fatigue_full_rest`: a rest of 8 h or more recovers this much FP and FM (7).
    pub full_rest: i32,
    /// `fatigue_exhaustion_rest_hours`: a rest this long also clears exhaustion (12).
    pub exhaustion_rest_hours: u32,
    /// `fatigue_meal_relief`: FP and FM each meal recovers (1).
    pub meal_relief: i32,
    /// `fatigue_short_rest_hours`: a short rest recovers 1/1 per this many full hours (2).
    pub short_rest_hours: u32,
    /// `fatigue_full_rest_hours`: a rest this long is a full rest (8).
    pub full_rest_hours: u32,
    /// `fatigue_pause_relief`: FP and FM each pause recovers (1).
    pub pause_relief: i32,
    /// `fatigue_pause_floor`: a pause never takes a track below this (3).
    pub pause_floor: i32,
    /// `fatigue_meals_per_day`, `fatigue_pauses_per_day`: how many recover (3, 3).
    pub meals_per_day: u32,
    pub pauses_per_day: u32,
    /// `fatigue_fasting_gain`: +this·X FP and FM on the X-th day without food (2).
    pub fasting_gain: i32,
    /// `fatigue_sleepless_gain`: +(this·X + 1) on the X-th night without sleep (2).
    pub sleepless_gain: i32,
    /// `fatigue_sleepless_extra`: the 1 of that +(2X+1) (1).
    pub sleepless_extra: i32,
    /// `potion_effects`: the potion table in force (C-FAT-3's reading of the book's).
    pub potions: PotionTable,
    /// `fatigue_rest_quality_max`: a full rest's extra recovery is capped here (3).
    pub rest_quality_max: i32,
    /// `fatigue_rounds_per_fp`: +1 FP per this many rounds of a fight, and at its end (5).
    pub rounds_per_fp: i32,
    /// `fatigue_combat_end_fp`: FP at the end of a fight (1).
    pub combat_end_fp: i32,
    /// `fatigue_per_points`: +1 FM per this many PM spent, +1/+1 per this many HP lost (100).
    pub per_points: i64,
    /// `fatigue_knockout_fm`: FM when knocked out (3).
    pub knockout_fm: i32,
    /// `fatigue_psychic_fm`: FM per psychic attack (2).
    pub psychic_fm: i32,
    /// `fatigue_point_relief`: FP and FM lost per Light or Dark point used (6).
    pub point_relief: i32,
    /// `fatigue_sepulchral_backlash_fp`: FP at a Sépulcrale backlash (8).
    pub sepulchral_fp: i32,
    /// `fatigue_illumination_backlash`: FP and FM at an Illumination backlash (10).
    pub illumination: i32,
    /// `pause_order = before_meals`: the day's pauses come before its meals (default
    /// `after_meals`).
    pub pauses_first: bool,
    /// `exhaustion_blocks = both`: a track at exhaustion holds the other track's recovery
    /// too (default `track`: only its own; C-FAT-3, cosmos-current l. 447).
    pub blocks_both: bool,
}

impl TrekRules {
    /// The book's numbers (the registry's defaults; a test checks they agree).
    pub const BOOK: TrekRules = TrekRules {
        max: FATIGUE_MAX,
        daily: 1,
        full_rest: 7,
        exhaustion_rest_hours: 12,
        meal_relief: 1,
        short_rest_hours: 2,
        full_rest_hours: 8,
        pause_relief: 1,
        pause_floor: 3,
        meals_per_day: 3,
        pauses_per_day: 3,
        fasting_gain: 2,
        sleepless_gain: 2,
        sleepless_extra: 1,
        potions: PotionTable::BOOK,
        rest_quality_max: 3,
        rounds_per_fp: 5,
        combat_end_fp: 1,
        per_points: 100,
        knockout_fm: 3,
        psychic_fm: 2,
        point_relief: 6,
        sepulchral_fp: 8,
        illumination: 10,
        pauses_first: false,
        blocks_both: false,
    };

    pub fn from_options(o: &RuleOptions) -> TrekRules {
        TrekRules {
            max: o.integer("fatigue_exhausted_at") as i32,
            daily: o.integer("fatigue_daily_gain") as i32,
            full_rest: o.integer("fatigue_full_rest") as i32,
            exhaustion_rest_hours: o.integer("fatigue_exhaustion_rest_hours") as u32,
            meal_relief: o.integer("fatigue_meal_relief") as i32,
            short_rest_hours: o.integer("fatigue_short_rest_hours") as u32,
            full_rest_hours: o.integer("fatigue_full_rest_hours") as u32,
            pause_relief: o.integer("fatigue_pause_relief") as i32,
            pause_floor: o.integer("fatigue_pause_floor") as i32,
            meals_per_day: o.integer("fatigue_meals_per_day") as u32,
            pauses_per_day: o.integer("fatigue_pauses_per_day") as u32,
            fasting_gain: o.integer("fatigue_fasting_gain") as i32,
            sleepless_gain: o.integer("fatigue_sleepless_gain") as i32,
            sleepless_extra: o.integer("fatigue_sleepless_extra") as i32,
            potions: PotionTable::from_value(o.get("potion_effects")),
            rest_quality_max: o.integer("fatigue_rest_quality_max") as i32,
            rounds_per_fp: o.integer("fatigue_rounds_per_fp") as i32,
            combat_end_fp: o.integer("fatigue_combat_end_fp") as i32,
            per_points: o.integer("fatigue_per_points"),
            knockout_fm: o.integer("fatigue_knockout_fm") as i32,
            psychic_fm: o.integer("fatigue_psychic_fm") as i32,
            point_relief: o.integer("fatigue_point_relief") as i32,
            sepulchral_fp: o.integer("fatigue_sepulchral_backlash_fp") as i32,
            illumination: o.integer("fatigue_illumination_backlash") as i32,
            pauses_first: o.get("pause_order") == "before_meals",
            blocks_both: o.get("exhaustion_blocks") == "both",
        }
    }
}

impl TrekRules {
    /// The endurance parameters made parameters last (`ENDURANCE_PARAMETERS`) and the
    /// expedition options (`EXPEDITION_OPTIONS`) for an expedition's provenance: each list
    /// only when one of it is off the book, so shipped reports keep their bytes.
    pub fn listed(o: &RuleOptions) -> std::collections::BTreeMap<String, String> {
        use crate::rules::growth::{ENDURANCE_PARAMETERS, EXPEDITION_OPTIONS};
        let mut out = std::collections::BTreeMap::new();
        for specs in [ENDURANCE_PARAMETERS, EXPEDITION_OPTIONS] {
            if specs.iter().any(|s| o.get(s.key) != s.default) {
                out.extend(o.in_force(specs));
            }
        }
        out
    }
}

impl Default for TrekRules {
    fn default() -> Self {
        TrekRules::BOOK
    }
}
