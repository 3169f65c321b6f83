//! Tests of character creation.

use super::*;
use crate::engine::stream;

#[test]
fn accept_probabilities_are_sane() {
    let p = exact::p_hp_pm_accept();
    assert!(p > 0.99 && p < 1.0, "{p}");
    let q = exact::p_stats_accept();
    // The mean of six stat dice is 300, right in the middle of 200..400.
    assert!(q > 0.95 && q < 1.0, "{q}");
    // Conversion: sums 40..59 and 141..160 rejected: 2 * sum_{k=1}^{20} k / 61^2.
    let c = 1.0 - 2.0 * 210.0 / 3721.0;
    assert!((exact::p_conversion_accept() - c).abs() < 1e-12);
    let hp = exact::hp_random_split();
    // By symmetry HP carries half of the accepted total on average.
    let total = Dist::die(100)
        .sum_of(10)
        .given(|s| (250..=750).contains(s))
        .unwrap();
    assert!(
        (hp.mean() - total.mean() / 2.0).abs() < 1e-9,
        "{}",
        hp.mean()
    );
    assert!((hp.mass() - 1.0).abs() < 1e-12);
}

#[test]
fn created_characters_respect_bounds() {
    let mut rng = stream(3, 0, 0);
    let p = CreationPolicy {
        move_policy: MovePolicy::ToFirst,
        move_points: 10,
        ..Default::default()
    };
    for _ in 0..2000 {
        let c = create(&mut rng, &p).character;
        assert!(c.stats.iter().all(|s| (20..=80).contains(s)), "{c:?}");
        let sum: i32 = c.stats.iter().sum();
        assert!((200..=400).contains(&sum));
        assert!((250..=750).contains(&(c.hp + c.pm)));
        assert!((5..=500).contains(&c.hp));
        assert!(c.skill_points >= 1 && (6..=25).contains(&c.dna));
        // Priority: force is the first stat and the highest.
        assert_eq!(c.stats[0], *c.stats.iter().max().unwrap());
    }
}

#[test]
fn moves_respect_bounds() {
    let mut s = [78, 21, 50, 50, 50, 50];
    move_points(&mut s, &Stat::ALL, MovePolicy::ToFirst, 10, 20, 80);
    assert_eq!(s, [80, 21, 50, 50, 50, 48]);
    let mut s = [78, 21, 50, 50, 50, 50];
    move_points(&mut s, &Stat::ALL, MovePolicy::EvenOut, 10, 20, 80);
    assert_eq!(s.iter().sum::<i32>(), 299);
    assert_eq!(s, [68, 31, 50, 50, 50, 50]);
    let mut s = [50; 6];
    move_points(&mut s, &Stat::ALL, MovePolicy::EvenOut, 10, 20, 80);
    assert_eq!(s, [50; 6]);
}

/// C-EDITION: the previous book has no skill points nor DNA points, so its characters
/// roll none: the same dice make the same HP, PM and stats, then the current edition
/// alone goes on to its skill-point and DNA dice; a level-up rolls none either.
#[test]
fn the_previous_edition_rolls_no_points() {
    use crate::systems::cosmos::growth::aura::Edition;
    use crate::systems::cosmos::growth::leveling::{level_up, Hero, LevelPolicy};
    use crate::systems::cosmos::TestRules;
    let prev = CreationPolicy {
        edition: Edition::Previous,
        ..Default::default()
    };
    let levels = LevelPolicy {
        edition: Edition::Previous,
        ..Default::default()
    };
    for seed in 0..200 {
        let (mut a, mut b) = (stream(5, seed, 0), stream(5, seed, 0));
        let cur = create(&mut a, &CreationPolicy::default()).character;
        let old = create(&mut b, &prev).character;
        assert_eq!((old.stats, old.hp, old.pm), (cur.stats, cur.hp, cur.pm));
        assert_eq!((old.skill_points, old.dna), (0, 0));
        assert!(cur.skill_points >= 1 && cur.dna >= 6);
        let mut h = Hero::new(old, 0);
        for _ in 2..=10 {
            level_up(
                &mut h,
                &mut b,
                &levels,
                &Stat::ALL,
                &TestRules::default(),
                &[],
            );
        }
        assert_eq!((h.c.skill_points, h.skill_gained, h.c.dna), (0, 0, 0));
    }
}
