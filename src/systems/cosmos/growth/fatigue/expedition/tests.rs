//! Unit tests of a multi-day expedition (C-FAT-1..4), by hand from the book's numbers.

use super::*;
use crate::engine::stream;

fn calm() -> Encounter {
    let z = DiceExpr::constant(0);
    Encounter {
        rounds: z,
        hp_lost: z,
        pm_spent: z,
        psychic_attacks: z,
    }
}

fn walker() -> Traveller {
    Traveller {
        force: 50,
        esprit: 50,
        mental_health: None,
    }
}

#[test]
fn a_quiet_day_and_night() {
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    let mut rng = stream(1, 0, 0);
    t.day(&DayPlan::default(), &calm(), &mut rng);
    assert_eq!(t.f, Fatigue { fp: 1, fm: 1 });
    t.evening(&DayPlan::default(), &[], &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: -2, fm: -2 });
    t.night(&DayPlan::default(), &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: -3, fm: -3 });
}

#[test]
fn a_rest_day_lowers_fatigue_but_not_exhaustion() {
    // march_fp = -4: +1 daily, -4 -> net -3 FP, as a recovery (C-FAT-2, C-FAT-3).
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    t.f = Fatigue { fp: 6, fm: 10 };
    let p = DayPlan {
        march_fp: -4,
        march_fm: -4,
        ..DayPlan::default()
    };
    t.day(&p, &calm(), &mut stream(1, 0, 0));
    // FM at 10 only clears with a rest of 12 h or more.
    assert_eq!(t.f, Fatigue { fp: 3, fm: 10 });
}

#[test]
fn exhaustion_blocks_both_holds_the_other_track_too() {
    // Book l. 447 "Toute autre tentative ne réduira plus les points de FP et/ou FM": with
    // `exhaustion_blocks = both` FM at 10 also holds FP. The rest day of
    // `a_rest_day_lowers_fatigue_but_not_exhaustion`: +1 daily, -4 held -> FP stays 6
    // (per track: 3). A meal is held the same way; a 12 h night clears both: 6 - 7 -> -1,
    // 10 - 7 -> 3.
    let rules = TrekRules {
        blocks_both: true,
        ..TrekRules::BOOK
    };
    let mut t = Trek::new(&walker(), &[], rules);
    t.f = Fatigue { fp: 6, fm: 10 };
    let p = DayPlan {
        march_fp: -4,
        march_fm: -4,
        ..DayPlan::default()
    };
    t.day(&p, &calm(), &mut stream(1, 0, 0));
    assert_eq!(t.f, Fatigue { fp: 6, fm: 10 });
    t.recover(-1, -1, false);
    assert_eq!(t.f, Fatigue { fp: 6, fm: 10 });
    let night = DayPlan {
        sleep_hours: 12,
        ..DayPlan::default()
    };
    t.night(&night, &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: -1, fm: 3 });
    // Below exhaustion both tracks recover as before.
    t.recover(-1, -1, false);
    assert_eq!(t.f, Fatigue { fp: -2, fm: 2 });
}

#[test]
fn fasting_and_sleepless_days_escalate() {
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    let p = DayPlan {
        meals: 0,
        sleep_hours: 0,
        ..DayPlan::default()
    };
    let mut rng = stream(1, 0, 0);
    // Day 1: +1, no food +2, no sleep +3 -> 6. Day 2: +1, +4, +5 -> 16: 10 and 6 spill.
    for _ in 0..2 {
        t.day(&p, &calm(), &mut rng);
        t.evening(&p, &[], &mut Quiet);
        t.night(&p, &mut Quiet);
    }
    assert_eq!(t.f, Fatigue { fp: 10, fm: 10 });
    // Exhausted: a normal 8 h rest does nothing, 12 h recovers as a full rest
    // (halved: no food that day).
    t.night(
        &DayPlan {
            sleep_hours: 8,
            meals: 0,
            ..DayPlan::default()
        },
        &mut Quiet,
    );
    assert_eq!(t.f, Fatigue { fp: 10, fm: 10 });
    t.night(
        &DayPlan {
            sleep_hours: 12,
            meals: 0,
            ..DayPlan::default()
        },
        &mut Quiet,
    );
    assert_eq!(t.f, Fatigue { fp: 7, fm: 7 });
}

#[test]
fn fights_count_running_totals() {
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    let mut rng = stream(1, 0, 0);
    let e = Encounter {
        rounds: DiceExpr::parse("7").unwrap(),
        hp_lost: DiceExpr::parse("60").unwrap(),
        pm_spent: DiceExpr::parse("120").unwrap(),
        psychic_attacks: DiceExpr::parse("1").unwrap(),
    };
    t.fight(&e, &mut rng);
    // FP: 7 rounds -> 1, end +1 = 2; FM: psychic 2 + 100 PM 1 = 3.
    assert_eq!(t.f, Fatigue { fp: 2, fm: 3 });
    t.fight(&e, &mut rng);
    // HP total 120 crosses 100: +1/+1; PM total 240 crosses 200: +1.
    assert_eq!(
        t.f,
        Fatigue {
            fp: 5,
            fm: 3 + 2 + 1 + 1
        }
    );
}

#[test]
fn pause_order_moves_the_pauses_before_the_meals() {
    // C-FAT-3: three meals -1/-1 each, three pauses -1/-1 each never below 3. From
    // 6/4: meals first -> 3/1, then the pauses do nothing (at or under 3); pauses
    // first (`pause_order = before_meals`) -> 3/3, then the meals -> 0/0.
    let p = DayPlan {
        pauses: 3,
        ..DayPlan::default()
    };
    for (first, end) in [(false, (3, 1)), (true, (0, 0))] {
        let rules = TrekRules {
            pauses_first: first,
            ..TrekRules::BOOK
        };
        let mut t = Trek::new(&walker(), &[], rules);
        t.f = Fatigue { fp: 6, fm: 4 };
        t.supper(&p, &mut Quiet);
        assert_eq!((t.f.fp, t.f.fm), end, "pauses first: {first}");
    }
}

#[test]
fn potions_follow_the_policy() {
    let pots = [PotionUse {
        potion: Potion::HealingMax,
        count: 1,
        when_fp: Some(2),
        when_fm: None,
    }];
    let mut t = Trek::new(&walker(), &pots, TrekRules::BOOK);
    t.f = Fatigue { fp: 5, fm: 0 };
    let p = DayPlan {
        meals: 1,
        ..DayPlan::default()
    };
    t.evening(&p, &pots, &mut Quiet);
    assert_eq!((t.f.fp, t.left[0]), (1, 0));
    t.f.fp = 5;
    t.evening(&p, &pots, &mut Quiet);
    assert_eq!(t.f.fp, 4);
}

#[test]
fn fight_extras_by_hand() {
    // C-FAT-2: 5 rounds +1 FP, end +1 FP, 2 extra physical actions +2 FP, 1 extra
    // magical action +1 FM, knocked out +3 FM -> 4/4; a Light point -6/-6 -> -2/-2, a
    // Dark point -> -3/-3 (floor); Illumination backlash +10/+10 -> 7/7; Sépulcrale
    // backlash +8 FP -> 15: 10, 5 spill onto FM -> 10 (overflow).
    let c = |v: i32| DiceExpr::constant(v);
    let x = FightExtras {
        extra_physical: c(2),
        extra_magical: c(1),
        knockout: c(1),
        light_points: c(1),
        dark_points: c(1),
        light_backlashes: c(1),
        dark_backlashes: c(1),
    };
    let mut rng = stream(1, 0, 0);
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    t.fight_of(5, &calm(), Some(&x), &mut rng, &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: 10, fm: 10 });
    // "Ne peut plus utiliser de Light ou Dark Points" at FP 10 (C-FAT-4): no point, so
    // no backlash either; the 2 FP of the fight spill onto FM.
    let y = FightExtras {
        extra_physical: c(0),
        extra_magical: c(0),
        knockout: c(0),
        dark_points: c(0),
        dark_backlashes: c(0),
        ..x
    };
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    t.f = Fatigue { fp: 10, fm: 0 };
    t.fight_of(5, &calm(), Some(&y), &mut rng, &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: 10, fm: 2 });
    // A Light point in a fresh state recovers (floor -3), the end of the fight adds
    // +1 FP after it, and its backlash follows: -3/-3, -2/-3, 8/7.
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    t.fight_of(1, &calm(), Some(&y), &mut rng, &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: 8, fm: 7 });
}

#[test]
fn a_point_comes_before_the_end_of_combat_gain() {
    // Audit of 2026-12-07, D1 (/tmp/audit/expeditions/sc/lp.toml): FP 7, 10 rounds,
    // one Light point. The rounds give +2 (FP 9): the point is usable (C-FAT-4 only
    // forbids it at 10), -6/-6 -> 3/0, then the end of the fight +1 -> 4. Before the
    // fix the end's +1 came first: FP 10, the point refused.
    let c = |v: i32| DiceExpr::constant(v);
    let x = FightExtras {
        extra_physical: c(0),
        extra_magical: c(0),
        knockout: c(0),
        light_points: c(1),
        dark_points: c(0),
        light_backlashes: c(0),
        dark_backlashes: c(0),
    };
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    t.f = Fatigue { fp: 7, fm: 3 };
    t.fight_of(10, &calm(), Some(&x), &mut stream(1, 0, 0), &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: 4, fm: -3 });
}

#[test]
fn a_played_combat_points_relief_comes_before_its_gains() {
    // D1, played (sc/linked2.toml): FP 4 / FM 1, the combat spent one Light point;
    // 10 rounds standing (+3 FP), 600 HP lost (+6/+6). The relief first: -2/-3 (floor),
    // then +9/+6 -> 7/3. Before the fix the gains came first (10 and the FP overflow
    // on FM) and the point was dropped at exhaustion.
    let mut t = Trek::new(&walker(), &[], TrekRules::BOOK);
    t.f = Fatigue { fp: 4, fm: 1 };
    t.fight_counts(10, 3, 600, 0, 1, false, &mut Quiet);
    assert_eq!(t.f, Fatigue { fp: 7, fm: 3 });
}
