//! Tests of `sim.rs`'s turn: the Risque incident (option `trinites_risque_failure`) and
//! the trace of a held parry spent on a strike already stopped.

use super::*;
use crate::systems::trace::Steps;
use crate::systems::trinites::risque_tests::{incidents_agree, no_hit};
use crate::systems::trinites::skirmish::model::load_text;
use crate::systems::trinites::RisqueFailure;
use rand::SeedableRng;

/// A fight of `text`'s combatants, all conscious in the mêlée, told to `w`.
fn fight<'a>(
    s: &'a Setup,
    rules: &'a TrinitesRules,
    w: &'a mut Steps<Step>,
) -> Fight<'a, Steps<Step>> {
    let all = (1u32 << s.n) - 1;
    let mut at_spot = [0; SPOTS];
    at_spot[0] = all;
    let mut f = Fight {
        s,
        rules,
        st: [State::EMPTY; COMBATANTS_MAX],
        round: 1,
        w,
        ko_set: 0,
        out_set: 0,
        all,
        at_spot,
    };
    for j in 0..s.n {
        f.st[j].line = rules.line(s.prof[j].trinite);
        f.sync(j);
    }
    f
}

/// Risque (trinites.fr.txt l. 760-762: "Si l'action échoue, un incident survient"),
/// option `trinites_risque_failure` (audit of 2026-12-07, afternoon), in a skirmish: "a"
/// (Mêlée 3, Efficacité +3: modifier 6, one d12) strikes "b" (Mêlée 1, -1 engaged: 0).
/// `test_failed`: the incident comes when the attack test fails, a natural of 5 or less:
/// 5/12. `no_hit` (default): also when b's reaction wins (an exploded die, 12 + the next
/// roll at least the attack's final): 1 - P(hit) = 0.4537684538 (exact enumeration of the
/// exploding d12, and `confront`). 200 000 turns at a fixed seed, within 4 standard errors.
#[test]
fn the_risque_incident_follows_what_a_failed_action_is() {
    const FILE: &str = "system = \"trinites\"\nkind = \"skirmish\"\n\
        [[weapons]]\nname = \"w\"\ndamage = 3\n\
        [[group]]\nname = \"a\"\nside = \"x\"\nrapidite = 0\nattack = 3\nreaction = 0\nweapon = \"w\"\nprime = \"efficacite\"\npenalty = \"risque\"\n\
        [[group]]\nname = \"b\"\nside = \"y\"\nrapidite = 0\nattack = 0\nreaction = 1\nweapon = \"w\"\n";
    let m = load_text("t.toml", FILE);
    let s = Setup::new(&m);
    let no_hit = no_hit(false);
    assert!((no_hit - 0.4537684538).abs() < 1e-9, "{no_hit}");
    let mut steps = Steps(Vec::new());
    let cases = [
        (RisqueFailure::NoHit, no_hit),
        (RisqueFailure::TestFailed, 5.0 / 12.0),
    ];
    incidents_agree(cases, 11, 200_000, |rules, rng| {
        fight(&s, rules, &mut steps).take_turn(rng, 0);
        let told = steps
            .0
            .iter()
            .filter(|s| matches!(s, Step::Life(LifeStep::Risque { who: 0 })))
            .count() as u32;
        steps.0.clear();
        told
    });
}

/// Anticiper un évènement (l. 469-474; docs/rules.md "parrying for an ally": the first
/// strike on the ward spends the held parry, even one already stopped). C holds a parry
/// for B; A strikes B: when the attack test fails or B's own reaction wins, the trace says
/// the parry is spent (it said nothing: audit of 2026-12-07, afternoon), and C holds no
/// parry afterwards; when the strike gets through B, C's parry is rolled instead.
#[test]
fn a_held_parry_spent_on_a_stopped_strike_is_told() {
    const FILE: &str = "system = \"trinites\"\nkind = \"skirmish\"\n\
        [[weapons]]\nname = \"w\"\ndamage = 3\n\
        [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 0\nattack = 3\nreaction = 0\nweapon = \"w\"\n\
        [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 0\nattack = 0\nreaction = 5\nweapon = \"w\"\n\
        [[group]]\nname = \"C\"\nside = \"b\"\nrapidite = 0\nattack = 0\nreaction = 6\nweapon = \"w\"\nparries_for = \"B\"\n";
    let m = load_text("t.toml", FILE);
    let s = Setup::new(&m);
    let rules = TrinitesRules::default();
    let mut rng = Rng64::seed_from_u64(3);
    let (mut spent, mut rolled) = (0, 0);
    for _ in 0..2000 {
        let mut steps = Steps(Vec::new());
        let mut f = fight(&s, &rules, &mut steps);
        f.st[2].guard = true;
        f.take_turn(&mut rng, 0);
        assert!(!f.st[2].guard);
        let told = |p: &dyn Fn(&Step) -> bool| steps.0.iter().filter(|s| p(s)).count();
        let attack_ok = steps.0.iter().any(|s| match s {
            Step::Attack { roll, .. } => roll.success(),
            _ => false,
        });
        let ward_won = told(&|s| {
            matches!(
                s,
                Step::Reaction {
                    who: 1,
                    parries_for: None,
                    hit: false,
                    ..
                }
            )
        }) == 1;
        let parry = told(&|s| {
            matches!(
                s,
                Step::Reaction {
                    who: 2,
                    parries_for: Some(1),
                    ..
                }
            )
        });
        let note = told(&|s| matches!(s, Step::ParrySpent { who: 2, ward: 1 }));
        if !attack_ok || ward_won {
            assert_eq!((parry, note), (0, 1), "{:?}", steps.0);
            spent += 1;
        } else {
            assert_eq!((parry, note), (1, 0), "{:?}", steps.0);
            rolled += 1;
        }
    }
    assert!(spent > 100 && rolled > 100, "{spent} {rolled}");
}
