//! Tests of level-ups.

use super::*;
use crate::engine::stream;

fn hero(stats: [i32; 6]) -> Hero {
    Hero::new(
        Character {
            stats,
            hp: 200,
            pm: 300,
            skill_points: 3,
            dna: 10,
        },
        0,
    )
}

#[test]
fn caps_and_gains() {
    let mut s = 78;
    raise(&mut s, 9, 80);
    assert_eq!(s, 80);
    raise(&mut s, 9, 85);
    assert_eq!(s, 85);
    let st = [50, 30, 30, 60, 70, 40];
    let o = targets(&st, &Stat::ALL, &[0; 6], StatTarget::Lowest);
    // Ties: esprit before charisme (rulebook order).
    assert_eq!(&o[..3], &[1, 2, 5]);
}

#[test]
fn weights_aim_at_shares() {
    // force 2 at 40 (2/40 = 0.05) before esprit 1 at 30 (0.033); at 70 (0.029) after.
    let w = [2, 1, 0, 0, 0, 0];
    let by_weights = |st: [i32; 6]| targets(&st, &Stat::ALL, &w, StatTarget::Weights);
    assert_eq!(by_weights([40, 30, 50, 50, 50, 50]), [0, 1, 2, 3, 4, 5]);
    assert_eq!(by_weights([70, 30, 50, 50, 50, 50]), [1, 0, 2, 3, 4, 5]);
    // Equal shares (2/60 = 1/30): rulebook order.
    let o = by_weights([60, 30, 50, 50, 50, 50]);
    assert_eq!(&o[..2], &[0, 1]);
    // One non-zero weight: the priority list [agilite, then rulebook order].
    let p = [
        Stat::Agilite,
        Stat::Force,
        Stat::Esprit,
        Stat::Charisme,
        Stat::Precision,
        Stat::Chance,
    ];
    let st = [33, 71, 20, 80, 45, 60];
    let a = targets(&st, &p, &[0, 0, 0, 5, 0, 0], StatTarget::Weights);
    assert_eq!(a, targets(&st, &p, &[0; 6], StatTarget::Priority));
}

#[test]
fn schedule_overrides_later() {
    let g = |d| LaterLevels {
        stat_die: d,
        stat_count: 1,
        ..Default::default()
    };
    let p = LevelPolicy {
        later: g(10),
        schedule: vec![(7, g(20)), (9, g(4))],
        ..Default::default()
    };
    assert_eq!(p.later_at(6).stat_die, 10);
    assert_eq!(p.later_at(7).stat_die, 20);
    assert_eq!(p.later_at(8).stat_die, 10);
    assert_eq!(p.later_at(9).stat_die, 4);
}

#[test]
fn ten_levels_keep_caps_and_grants() {
    let rules = TestRules::default();
    let p = LevelPolicy {
        later: LaterLevels {
            stat_die: 20,
            stat_count: 6,
            stat_target: StatTarget::Lowest,
            hp_die: 0,
            pm_die: 0,
        },
        ..Default::default()
    };
    let mut rng = stream(9, 1, 0);
    for _ in 0..500 {
        let mut h = hero([80, 79, 20, 20, 50, 50]);
        for _ in 2..=10 {
            let before = h.c;
            level_up(&mut h, &mut rng, &p, &Stat::ALL, &rules, &[]);
            let cap = super::super::stats::cap_at(h.level);
            assert!(
                h.c.stats.iter().all(|s| *s <= cap),
                "{:?} at {}",
                h.c.stats,
                h.level
            );
            assert!(h.c.stats.iter().zip(before.stats).all(|(a, b)| *a >= b));
            if h.level == 2 {
                assert!(h.c.stats.iter().all(|s| *s <= 80));
            }
        }
        assert_eq!((h.light, h.dark), (3, 2));
        assert!((13..=10 + 4 + 6 + 8).contains(&h.c.dna));
    }
}

#[test]
fn exact_points() {
    assert!((exact::dna_at(1).mean() - 15.5).abs() < 1e-12);
    assert!((exact::dna_at(9).mean() - (15.5 + 2.5 + 3.5 + 4.5)).abs() < 1e-12);
    // Level 2: d4-1 gives 0..3 equally.
    assert!((exact::skill_gained_at(2).mean() - 1.5).abs() < 1e-12);
    // Level 3: the carry adds 2 with probability 1/4.
    assert!((exact::skill_gained_at(3).mean() - 3.5).abs() < 1e-12);
    // Level 4 (C-LEVEL-3): level 3 carries only if it received 0, i.e. no carry came
    // in (3/4) and its d4 showed 1 (1/4): P = 3/16, so 1.5 * 3 + 2 * (1/4 + 3/16).
    assert!((exact::skill_gained_at(4).mean() - (4.5 + 2.0 * 7.0 / 16.0)).abs() < 1e-12);
}

/// Audit of 2026-12-08: a converted character keeps its own DNA points (l. 203,
/// C-CREATE-3) and gains only the level dice (l. 290, C-LEVEL-4). By hand: 0 points at
/// level 1 give 0, then 2.5 at level 3, 2.5 + 3.5 = 6 at 6 and 6 + 4.5 = 10.5 from 9;
/// 9 points give 9 more at every level. A new character's 5 + 1d20 (15.5) is not in it.
#[test]
fn a_conversion_keeps_its_own_dna_points() {
    use super::super::creation::Conversion;
    let conv = |dna, level| CreationPolicy {
        conversion: Some(Conversion {
            stats: [50; 4],
            hp: 100,
            pm: 100,
            skill_points: 0,
            dna,
            level,
        }),
        ..Default::default()
    };
    for (dna, by_level) in [
        (
            0,
            [
                (1, 0.0),
                (2, 0.0),
                (3, 2.5),
                (6, 6.0),
                (9, 10.5),
                (10, 10.5),
            ],
        ),
        (
            9,
            [
                (1, 9.0),
                (2, 9.0),
                (3, 11.5),
                (6, 15.0),
                (9, 19.5),
                (10, 19.5),
            ],
        ),
    ] {
        for (level, mean) in by_level {
            let d = exact::dna_for(&conv(dna, 1), level, DNA_LEVEL_DICE);
            assert!((d.mean() - mean).abs() < 1e-12, "{dna} at {level}");
        }
    }
    // Level 1 is certain: the points written in the file.
    assert_eq!(exact::dna_for(&conv(9, 1), 1, DNA_LEVEL_DICE).prob(&9), 1.0);
    // Converted at level 4, its level-3 die is already in its points: 9 + 3.5 at 6.
    let d = exact::dna_for(&conv(9, 4), 6, DNA_LEVEL_DICE);
    assert!((d.mean() - 12.5).abs() < 1e-12);
    // Without a conversion, the creation grant in force: 5 + 1d20, then the dice.
    let new = CreationPolicy::default();
    assert!((exact::dna_for(&new, 10, DNA_LEVEL_DICE).mean() - 26.0).abs() < 1e-12);
}
