//! What a traveller's FP/FM went through, event by event (issue 27, `cosmosim trace`): the
//! steps [`super::expedition::Trek`] notes when it is watched. The batch run watches with
//! `Quiet`, whose notes compile away; a trace keeps them. Each step carries the tracks
//! before and after it, so the account shows every move of a gauge.

use super::{Fatigue, Potion};

/// The dice of one abstract fight, as rolled, and the C-FAT-2 gains they gave.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FightRoll {
    pub rounds: i32,
    pub hp_lost: i64,
    pub pm_spent: i64,
    pub psychic: i32,
    /// +1/+1 steps of the HP lost and +1 FM steps of the PM spent (running totals, per
    /// `fatigue_per_points`).
    pub hp_steps: i32,
    pub pm_steps: i32,
    /// With the other C-FAT-2 events of a fight (`FightExtras`): extra physical and
    /// magical actions, a knock-out, Light and Dark points used (of those rolled) and the
    /// posture backlashes that followed.
    pub extras: Option<ExtrasRoll>,
}

/// The other C-FAT-2 events of one fight, as rolled.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ExtrasRoll {
    pub physical: i32,
    pub magical: i32,
    pub knockout: bool,
    /// Points rolled, and used (none once a track is at exhaustion, C-FAT-4).
    pub points_rolled: i32,
    pub light_used: i32,
    pub dark_used: i32,
    pub light_backlashes: i32,
    pub dark_backlashes: i32,
}

/// One event that moved (or could have moved) a traveller's tracks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TrekStep {
    /// The day's start: the daily gain (`fatigue_daily_gain`) and the game master's change
    /// for the march (C-FAT-2; negative: a day of rest, a recovery).
    Morning {
        daily: i32,
        march_fp: i32,
        march_fm: i32,
        before: Fatigue,
        after: Fatigue,
    },
    /// An abstract fight (C-FAT-2); `mid` after its gains but the end-of-combat +1 FP,
    /// before any Light/Dark point.
    Fight {
        roll: FightRoll,
        before: Fatigue,
        mid: Fatigue,
        after: Fatigue,
    },
    /// What a played combat left this traveller with, applied as C-FAT-2 counts; `mid`
    /// after the Light/Dark points' relief, before the combat's gains; `stood` the +1 FP
    /// of the 5-round marks and of the end the traveller stood for.
    Fought {
        rounds: i32,
        stood: i32,
        hp_lost: i64,
        pm_spent: i64,
        hp_steps: i32,
        pm_steps: i32,
        points: i32,
        knockout: bool,
        before: Fatigue,
        mid: Fatigue,
        after: Fatigue,
    },
    /// A played combat that ran its own fatigue (`[combat] fatigue = true`): its change.
    FoughtDelta {
        dfp: i32,
        dfm: i32,
        before: Fatigue,
        after: Fatigue,
    },
    /// Meals eaten (C-FAT-3, each -`fatigue_meal_relief`).
    Meals {
        meals: u32,
        before: Fatigue,
        after: Fatigue,
    },
    /// 15-minute pauses (C-FAT-3, not below `fatigue_pause_floor`).
    Pauses {
        pauses: u32,
        before: Fatigue,
        after: Fatigue,
    },
    /// The X-th day in a row without food: +2X/+2X (C-FAT-2).
    Fasting {
        days: i32,
        before: Fatigue,
        after: Fatigue,
    },
    /// A potion drunk (C-FAT-3), and how many of its stock are left.
    Potion {
        potion: Potion,
        left: u32,
        before: Fatigue,
        after: Fatigue,
    },
    /// The X-th night in a row without sleep: +(2X+1)/+(2X+1) (C-FAT-2).
    Sleepless {
        nights: i32,
        before: Fatigue,
        after: Fatigue,
    },
    /// A full rest (C-FAT-3): `recovered` (halved without food, plus the rest quality),
    /// then the starting modifiers again; `long` (12 h or more) also clears exhaustion.
    FullRest {
        hours: u32,
        recovered: i32,
        halved: bool,
        quality: i32,
        long: bool,
        modifiers: Fatigue,
        before: Fatigue,
        after: Fatigue,
    },
    /// A short rest: -1/-1 per full 2 h (C-FAT-3).
    ShortRest {
        hours: u32,
        recovered: i32,
        before: Fatigue,
        after: Fatigue,
    },
}

/// A watcher of a traveller's steps that passes them on to a scenario's watcher as
/// traveller `.0`'s; the scenario implements `Watch<TrekStep>` for it, with `ON` its own
/// watcher's (`Quiet` still compiles away).
pub struct Who<'a, W>(pub u8, pub &'a mut W);
