//! A multi-day expedition (C-FAT-1..4): each day's march, encounters, meals, pauses,
//! potions and rest, applied to the FP/FM tracks.

use crate::engine::Rng64;
use crate::systems::cosmos::growth::genetics::DiceExpr;
use crate::systems::trace::{Quiet, Watch};

pub use super::trek_rules::TrekRules;
pub use super::trek_step::{ExtrasRoll, FightRoll, TrekStep, Who};
use super::{Fatigue, Potion};

mod fight;

/// The fights of one encounter, as dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Encounter {
    pub rounds: DiceExpr,
    pub hp_lost: DiceExpr,
    pub pm_spent: DiceExpr,
    pub psychic_attacks: DiceExpr,
}

/// The other C-FAT-2 events of a fight, per traveller, as dice (issue 10 item 10).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FightExtras {
    /// Extra non-natural physical actions (+1 FP each).
    pub extra_physical: DiceExpr,
    /// Extra non-natural magical actions (+1 FM each).
    pub extra_magical: DiceExpr,
    /// Knocked out (0 or 1; +3 FM).
    pub knockout: DiceExpr,
    /// Light and Dark points used (-6/-6 each, none at FP or FM 10).
    pub light_points: DiceExpr,
    pub dark_points: DiceExpr,
    /// Posture backlashes, at most one per point of that kind used: Illumination
    /// +10/+10, Sépulcrale +8 FP.
    pub light_backlashes: DiceExpr,
    pub dark_backlashes: DiceExpr,
}

/// One day's plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DayPlan {
    /// Extra FP/FM the game master gives for the day's march or work (C-FAT-2 "selon la
    /// volonté du MJ"); negative for a day of rest (-20..20).
    pub march_fp: i32,
    pub march_fm: i32,
    /// Meals eaten (0..3, each -1/-1; 0 = a day without food).
    pub meals: u32,
    /// 15-minute pauses (0..3, each -1/-1, not below 3).
    pub pauses: u32,
    /// Hours of rest at night (0 = a night without sleep).
    pub sleep_hours: u32,
    /// Extra recovery of a full rest in optimal conditions (0..3).
    pub rest_quality: i32,
    /// How many encounters the day brings.
    pub encounters: DiceExpr,
}

/// The day of a file that sets none of its keys: three meals, eight hours of sleep,
/// nothing else.
impl Default for DayPlan {
    fn default() -> DayPlan {
        DayPlan {
            march_fp: 0,
            march_fm: 0,
            meals: 3,
            pauses: 0,
            sleep_hours: 8,
            rest_quality: 0,
            encounters: DiceExpr::constant(0),
        }
    }
}

/// A potion stock and when to drink one (at most one of each stock per day).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PotionUse {
    pub potion: Potion,
    pub count: u32,
    /// Drink when FP (or FM) is at least this in the evening.
    pub when_fp: Option<i32>,
    pub when_fm: Option<i32>,
}

/// Who travels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Traveller {
    pub force: i32,
    pub esprit: i32,
    pub mental_health: Option<i32>,
}

/// Running state over the expedition.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Trek {
    pub f: Fatigue,
    start: Fatigue,
    days_without_food: i32,
    days_without_sleep: i32,
    /// HP lost and PM spent over the expedition, modulo `fatigue_per_points`: what counts
    /// towards the next +1 step (the running totals of C-FAT-2 without a division per
    /// fight).
    hp_lost: i64,
    pm_spent: i64,
    /// Potions left, by stock index.
    pub left: [u32; 8],
    /// Either track reached 10 during the day.
    pub exhausted_today: bool,
    /// The day's worst point: the highest FP and the highest FM reached from the morning
    /// to the evening (before the night). Gains only come before the evening's recovery
    /// (and from fasting after it), so this is where the day's tests suffer most.
    pub peak: Fatigue,
    /// The rule's numbers in force.
    pub rules: TrekRules,
}

impl Trek {
    pub fn new(t: &Traveller, potions: &[PotionUse], rules: TrekRules) -> Trek {
        let start = Fatigue::start(t.force, t.esprit, t.mental_health);
        Trek::starting_at(start, potions, rules)
    }

    /// From a given start (the C-FAT-1 modifiers, already summed and clamped); the night's
    /// full rest applies them again (C-FAT-3). A start above exhaustion (a lowered
    /// `fatigue_exhausted_at`) reads as exhaustion.
    pub fn starting_at(f: Fatigue, potions: &[PotionUse], rules: TrekRules) -> Trek {
        let mut left = [0; 8];
        for (l, p) in left.iter_mut().zip(potions) {
            *l = p.count;
        }
        let f = Fatigue {
            fp: f.fp.min(rules.max),
            fm: f.fm.min(rules.max),
        };
        Trek {
            f,
            start: f,
            left,
            rules,
            ..Default::default()
        }
    }

    /// Whether either track is at exhaustion now (C-FAT-4).
    #[inline(always)]
    pub fn exhausted(&self) -> bool {
        self.f.fp >= self.rules.max || self.f.fm >= self.rules.max
    }

    /// Gains (never blocked).
    fn gain(&mut self, fp: i32, fm: i32) {
        self.f.add(fp.max(0), fm.max(0), self.rules.max);
        self.note();
    }

    /// Losses; a track at exhaustion only recovers through a rest of 12 h or more
    /// (C-FAT-3). "seul un repos total de 12h minimum permet de récupérer de l'état
    /// d'épuisement. Toute autre tentative ne réduira plus les points de FP et/ou FM"
    /// (cosmos-current l. 447): which points "FP et/ou FM" are is read per track by default
    /// (the exhausted track holds, the other recovers); `exhaustion_blocks = both` reads it
    /// as the character's state, so either track at exhaustion holds both.
    fn recover(&mut self, fp: i32, fm: i32, long_rest: bool) {
        let max = self.rules.max;
        let held = |own: bool| !long_rest && (own || (self.rules.blocks_both && self.exhausted()));
        let dfp = if held(self.f.fp >= max) { 0 } else { fp };
        let dfm = if held(self.f.fm >= max) { 0 } else { fm };
        self.f.add(dfp.min(0), dfm.min(0), max);
        // A potion such as the energising one also adds on the other track.
        self.f.add(fp.max(0), fm.max(0), max);
        self.note();
    }

    fn note(&mut self) {
        if self.exhausted() {
            self.exhausted_today = true;
        }
        self.peak.fp = self.peak.fp.max(self.f.fp);
        self.peak.fm = self.peak.fm.max(self.f.fm);
    }

    /// The day's activity up to the evening (before meals and the night's rest): the daily
    /// +1/+1, the march, then the day's encounters (C-FAT-2).
    pub fn day(&mut self, plan: &DayPlan, encounter: &Encounter, rng: &mut Rng64) {
        self.morning(plan, &mut Quiet);
        let n = plan.encounters.roll(rng).max(0);
        for _ in 0..n {
            self.fight(encounter, rng);
        }
    }

    /// The start of the day and its march, before any encounter (C-FAT-2).
    pub fn morning<W: Watch<TrekStep>>(&mut self, plan: &DayPlan, w: &mut W) {
        self.exhausted_today = self.exhausted();
        self.peak = self.f;
        let before = self.f;
        // The daily +1/+1 (`fatigue_daily_gain`) and the game master's change of the day
        // (C-FAT-2); a negative change is a day of rest that lowers fatigue (issue 10 item
        // 10), as a recovery: an exhausted track does not move (C-FAT-3).
        let d = self.rules.daily;
        let (dfp, dfm) = (d + plan.march_fp, d + plan.march_fm);
        self.gain(dfp.max(0), dfm.max(0));
        if dfp < 0 || dfm < 0 {
            self.recover(dfp.min(0), dfm.min(0), false);
        }
        w.see(|| TrekStep::Morning {
            daily: d,
            march_fp: plan.march_fp,
            march_fm: plan.march_fm,
            before,
            after: self.f,
        });
    }

    /// Meals, pauses, fasting and potions of the evening (C-FAT-2, C-FAT-3).
    pub fn evening<W: Watch<TrekStep>>(
        &mut self,
        plan: &DayPlan,
        potions: &[PotionUse],
        w: &mut W,
    ) {
        self.supper(plan, w);
        for (i, p) in potions.iter().enumerate().take(8) {
            if self.wants(p) && self.left[i] > 0 {
                self.left[i] -= 1;
                self.drink(p.potion, self.left[i], w);
            }
        }
    }

    /// Whether the policy of `p` says to drink now (C-FAT-3 potions, issue 10 item 10).
    pub fn wants(&self, p: &PotionUse) -> bool {
        p.when_fp.is_some_and(|t| self.f.fp >= t) || p.when_fm.is_some_and(|t| self.f.fm >= t)
    }

    /// Drinks one potion (C-FAT-3; the table in force, `potion_effects`); `left` of its
    /// stock remain (for `w`).
    pub fn drink<W: Watch<TrekStep>>(&mut self, potion: Potion, left: u32, w: &mut W) {
        let before = self.f;
        let (a, b) = self.rules.potions.effect(potion);
        self.recover(a, b, false);
        w.see(|| TrekStep::Potion {
            potion,
            left,
            before,
            after: self.f,
        });
    }

    /// Meals, pauses and fasting of the evening (C-FAT-2, C-FAT-3), before potions.
    pub fn supper<W: Watch<TrekStep>>(&mut self, plan: &DayPlan, w: &mut W) {
        self.supper_of(plan, plan.meals, w);
    }

    /// [`Self::supper`] with `meals` eaten in place of the plan's (a party's shared
    /// bags serve each traveller their own count; the plan itself is not copied).
    pub fn supper_of<W: Watch<TrekStep>>(&mut self, plan: &DayPlan, meals: u32, w: &mut W) {
        // `pause_order`: the pauses' floor of 3 makes the order count (C-FAT-3).
        if self.rules.pauses_first {
            self.pauses(plan, w);
            self.meals(meals, w);
        } else {
            self.meals(meals, w);
            self.pauses(plan, w);
        }
        self.fasting(meals, w);
    }

    fn meals<W: Watch<TrekStep>>(&mut self, meals: u32, w: &mut W) {
        let r = self.rules;
        // "Manger un repas ... il perd 1 FP et 1 FM" (`fatigue_meal_relief`), 3 a day
        // (`fatigue_meals_per_day`).
        let before = self.f;
        let eaten = meals.min(3).min(r.meals_per_day);
        let relief = eaten as i32 * r.meal_relief;
        self.recover(-relief, -relief, false);
        if W::ON && meals > 0 {
            w.note(TrekStep::Meals {
                meals: eaten,
                before,
                after: self.f,
            });
        }
    }

    fn pauses<W: Watch<TrekStep>>(&mut self, plan: &DayPlan, w: &mut W) {
        let r = self.rules;
        let before = self.f;
        let pauses = plan.pauses.min(3).min(r.pauses_per_day);
        for _ in 0..pauses {
            // A pause (`fatigue_pause_relief`) never takes a track below 3
            // (`fatigue_pause_floor`); a track already at or under it stays.
            let dfp = -(self.f.fp - r.pause_floor).clamp(0, r.pause_relief);
            let dfm = -(self.f.fm - r.pause_floor).clamp(0, r.pause_relief);
            self.recover(dfp, dfm, false);
        }
        if W::ON && pauses > 0 {
            w.note(TrekStep::Pauses {
                pauses,
                before,
                after: self.f,
            });
        }
    }

    fn fasting<W: Watch<TrekStep>>(&mut self, meals: u32, w: &mut W) {
        let r = self.rules;
        if meals == 0 {
            // "+2X FP et +2X FM" (`fatigue_fasting_gain`, C-FAT-2).
            let before = self.f;
            self.days_without_food += 1;
            let x = self.days_without_food;
            self.gain(r.fasting_gain * x, r.fasting_gain * x);
            w.see(|| TrekStep::Fasting {
                days: x,
                before,
                after: self.f,
            });
        } else {
            self.days_without_food = 0;
        }
    }

    /// The night (C-FAT-3): a full rest of 8 h or more recovers 7/7 (`fatigue_full_rest`;
    /// halved, floor, without food that day), plus the rest quality, then the starting
    /// modifiers apply again; 12 h or more (`fatigue_exhaustion_rest_hours`) also clears
    /// exhaustion; a short rest recovers 1/1 per full 2 h; no sleep at all counts as a day
    /// without sleep.
    pub fn night<W: Watch<TrekStep>>(&mut self, plan: &DayPlan, w: &mut W) {
        self.night_of(plan, plan.meals, w);
    }

    /// [`Self::night`] after a day of `meals` meals in place of the plan's.
    pub fn night_of<W: Watch<TrekStep>>(&mut self, plan: &DayPlan, meals: u32, w: &mut W) {
        let h = plan.sleep_hours;
        let before = self.f;
        if h == 0 {
            self.days_without_sleep += 1;
            let x = self.days_without_sleep;
            // "+(2X+1) FP et +(2X+1) FM" (`fatigue_sleepless_gain`,
            // `fatigue_sleepless_extra`; C-FAT-2).
            let g = self.rules.sleepless_gain * x + self.rules.sleepless_extra;
            self.gain(g, g);
            w.see(|| TrekStep::Sleepless {
                nights: x,
                before,
                after: self.f,
            });
            return;
        }
        self.days_without_sleep = 0;
        // "Se reposer complètement (≥ 8h)" (`fatigue_full_rest_hours`).
        if h >= self.rules.full_rest_hours {
            let full = self.rules.full_rest;
            let base = if meals == 0 { full / 2 } else { full };
            // "perd en plus jusqu'à 3 FP et FM" (`fatigue_rest_quality_max`).
            let r = base + plan.rest_quality.clamp(0, self.rules.rest_quality_max);
            // "seul un repos total de 12h minimum permet de récupérer de l'état
            // d'épuisement" (`fatigue_exhaustion_rest_hours`).
            let long = h >= self.rules.exhaustion_rest_hours;
            self.recover(-r, -r, long);
            let (mfp, mfm) = (self.start.fp.min(0), self.start.fm.min(0));
            let (mfp_up, mfm_up) = (self.start.fp.max(0), self.start.fm.max(0));
            self.recover(mfp, mfm, long);
            self.gain(mfp_up, mfm_up);
            w.see(|| TrekStep::FullRest {
                hours: h,
                recovered: r,
                halved: meals == 0,
                quality: plan.rest_quality.clamp(0, self.rules.rest_quality_max),
                long,
                modifiers: self.start,
                before,
                after: self.f,
            });
        } else {
            // "1 FP et 1 FM toutes les 2h de repos complétées" (`fatigue_short_rest_hours`).
            let r = (h / self.rules.short_rest_hours) as i32;
            self.recover(-r, -r, false);
            w.see(|| TrekStep::ShortRest {
                hours: h,
                recovered: r,
                before,
                after: self.f,
            });
        }
    }
}

#[cfg(test)]
mod tests;
