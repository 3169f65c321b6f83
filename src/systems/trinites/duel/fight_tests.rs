//! Tests of `fight.rs`: the wrap-around, the life states, the unconscious set and the
//! Adam's reaction malus.

use super::*;
use crate::engine::Rng64;
use crate::systems::trace::Steps;
use rand::SeedableRng;

#[test]
fn wrap_around_rules() {
    let mut s = State::EMPTY;
    (s.init, s.zone) = (2, Zone::Garde);
    s.shift_init(-3);
    assert_eq!((s.init, s.zone), (11, Zone::Retrait));
    s.shift_init(-20);
    assert_eq!((s.init, s.zone), (1, Zone::Retrait));
    (s.init, s.zone) = (11, Zone::Garde);
    s.shift_init(3);
    assert_eq!((s.init, s.zone), (2, Zone::Feu));
    s.shift_init(30);
    assert_eq!((s.init, s.zone), (12, Zone::Feu));
}

/// A plain human of the unit tests.
fn human() -> Fighter {
    Fighter {
        rapidite: 3,
        attack: 5,
        reaction: 4,
        initiative_difficulty: 0,
        damage: 4,
        sword: true,
        protection: 1,
        attacks_per_turn: 1,
        prime: Prime::None,
        penalty: Penalty::None,
    }
}

/// A duel of `adam` against `count` humans `humans`, without Light, Dark or
/// regeneration, unconscious humans not struck.
fn combat(adam: Fighter, humans: Fighter, count: usize) -> Combat {
    Combat {
        adam,
        humans,
        count,
        light: 0,
        dark: 0,
        regenerate_at: RegenAt::Never,
        max_rounds: 30,
        strike_unconscious: false,
    }
}

/// A fight of `c` at its first round, nothing spent or fallen, the states `st` and the
/// humans `humans` (bits 1..n) standing, told to `w`.
fn fight<'a, W>(
    c: &'a Combat,
    adam: Fighter,
    rules: &'a TrinitesRules,
    st: [State; MAX_HUMANS + 1],
    w: &'a mut W,
    humans: u32,
) -> Fight<'a, W> {
    Fight {
        c,
        adam,
        rules,
        st,
        light: 0,
        dark: 0,
        light_used: false,
        dark_used: false,
        spent: 0,
        fell: false,
        round: 1,
        w,
        ko_set: 0,
        humans,
    }
}

/// The unconscious set follows every wound and heal as `State::ko` reads it, and the
/// humans' mask is bits 1..n.
#[test]
fn ko_set_follows_the_states() {
    let h = human();
    let c = Combat {
        adam: h,
        humans: h,
        count: 3,
        light: 8,
        dark: 4,
        regenerate_at: RegenAt::Blesse,
        max_rounds: 30,
        strike_unconscious: true,
    };
    let rules = TrinitesRules::default();
    let mut st = [State::EMPTY; MAX_HUMANS + 1];
    st[0].line = rules.line(true);
    let mut quiet = Quiet;
    let mut f = fight(&c, h, &rules, st, &mut quiet, 0b1110);
    let mut x = 99u64;
    for step in 0..2000 {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = (x >> 33) as usize % 4;
        let amount = (x >> 40) as i64 % 9 - 1;
        if (x >> 50).is_multiple_of(3) {
            f.heal(j, amount.max(0));
        } else {
            f.wound(j, amount, (x >> 55) & 1 == 1);
        }
        for k in 0..4 {
            assert_eq!(f.ko_set & (1 << k) != 0, f.st[k].ko(), "step {step}, {k}");
        }
        let standing = (1..4).filter(|&k| !f.st[k].ko()).count() as i64;
        for striker in 1..4 {
            let ko = i64::from(f.st[striker].ko());
            assert_eq!(f.engaged_with_adam(striker), standing + ko, "step {step}");
        }
    }
}

#[test]
fn life_states() {
    let mut s = State::EMPTY;
    s.line = 8;
    s.ticked = 16;
    assert!(!s.ko());
    s.ticked = 17;
    assert!(s.ko() && !s.dead());
    s.ticked = 25;
    assert!(s.dead());
}

/// Frapper (trinites.fr.txt l. 560 "Condition(s): Engagé", l. 563 "il subit un malus de 1 à
/// son test de réaction par adversaire avec qui il est engagé, y compris le premier";
/// T-COMBAT): human 1, knocked out by a groupmate of his tied initiative, still strikes
/// (reading 5) and is engaged while he does, so the Adam' reacts at -1 per engaged human,
/// him included: -1 alone (it was -0), -2 beside a conscious human 2, and human 3, also
/// knocked out but not striking, does not count (audit of 2026-12-06).
#[test]
fn a_knocked_out_striker_still_engages_the_adam() {
    let h = human();
    let adam = Fighter { reaction: 6, ..h };
    let rules = TrinitesRules::default();
    for (count, standing, want) in [(1, 0b0, 6 - 1), (3, 0b100, 6 - 2)] {
        let c = combat(adam, h, count);
        let mut st = [State::EMPTY; MAX_HUMANS + 1];
        st[0].line = rules.line(true);
        let mut steps = Steps(Vec::new());
        let humans = ((1u32 << (count + 1)) - 1) & !1;
        let mut f = fight(&c, adam, &rules, st, &mut steps, humans);
        // Every human but those of `standing` knocked out by the Adam' earlier in the group.
        for j in 1..=count {
            if standing & (1 << j) == 0 {
                f.wound(j, 3 * HUMAN_LINE, false);
                assert!(f.st[j].ko() && !f.st[j].dead());
            }
        }
        f.take_turn(&mut Rng64::seed_from_u64(5), 1);
        let reactions: Vec<_> = steps
            .0
            .iter()
            .filter_map(|s| match s {
                Step::Reaction { who: 0, roll, .. } => Some(roll.modifier),
                _ => None,
            })
            .collect();
        assert_eq!(reactions, [want], "{count} humans");
    }
}

/// Risque (trinites.fr.txt l. 760-762: "Le personnage prend un risque. Si l'action
/// échoue, un incident survient"), option `trinites_risque_failure` (audit of 2026-12-07,
/// afternoon). The Adam' (Mêlée 3, Efficacité +3: modifier 6, the Deva's and Archonte's
/// d12, keep the higher) strikes one human (reaction 1, -1 engaged: 0).
/// `test_failed`: the incident comes only when the attack test fails, both dice at 5 or
/// less: (5/12)² = 25/144. `no_hit` (default): also when the test succeeds and the human's
/// reaction wins, which at 0 needs an exploded die (12 + the next roll at least the
/// attack's final): 1 - P(hit) = 0.2222994480 (exact enumeration of the exploding dice,
/// and `confront`). 400 000 turns at a fixed seed, within 4 standard errors.
#[test]
fn the_risque_incident_follows_what_a_failed_action_is() {
    use crate::systems::trinites::risque_tests::{incidents_agree, no_hit};
    use crate::systems::trinites::RisqueFailure;
    let h = Fighter {
        reaction: 1,
        ..human()
    };
    let adam = Fighter {
        attack: 3,
        prime: Prime::Efficacite,
        penalty: Penalty::Risque,
        ..h
    };
    let c = combat(adam, h, 1);
    let no_hit = no_hit(true);
    assert!((no_hit - 0.2222994480).abs() < 1e-9, "{no_hit}");
    let mut steps = Steps(Vec::new());
    let cases = [
        (RisqueFailure::NoHit, no_hit),
        (RisqueFailure::TestFailed, 25.0 / 144.0),
    ];
    incidents_agree(cases, 7, 400_000, |rules, rng| {
        let mut st = [State::EMPTY; MAX_HUMANS + 1];
        st[0].line = rules.line(true);
        st[1].line = rules.line(false);
        fight(&c, adam, rules, st, &mut steps, 0b10).take_turn(rng, 0);
        let told = steps
            .0
            .iter()
            .filter(|s| matches!(s, Step::Life(LifeStep::Risque { who: 0 })))
            .count() as u32;
        steps.0.clear();
        told
    });
}
