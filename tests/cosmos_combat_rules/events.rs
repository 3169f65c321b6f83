//! Scripted events: reinforcements and departures.

use super::*;

/// An ally of the hero (agilite 50) that joins at round `join`, and events.
fn with_ally(extra: &str) -> String {
    scenario(
        "",
        "attacks = [\"tickle\"]",
        HARMLESS,
        &format!(
            r#"{extra}

[combatants.ally]
side = "heroes"
level = 3
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 50, precision = 50, chance = 50 }}
hp = 80
hp_start = 60
attacks = ["tickle"]

[combatants.ally.policy]
light_at_start = true
"#
        ),
    )
}

// With the ally: ally (0), foe (1), hero (2).
const A_ALLY: usize = 0;
const A_FOE: usize = 1;
const A_HERO: usize = 2;

#[test]
fn reinforcements_join_at_their_round_and_keep_their_side_in_the_fight() {
    // The hero leaves at round 2 and the ally joins at round 3; nobody can hurt anybody.
    // The heroes' side is not beaten in round 2 (its reinforcement is on its way), so
    // every combat reaches the 4-round cap. The hero acts once (round 1), the ally twice
    // (rounds 3, 4) and spends its Light point as it joins (`light_at_start`). Neither is
    // down; HP at end is the HP each left with or arrived with.
    let text = with_ally(
        "[combat]\nmax_rounds = 4\n\n[[events]]\nround = 2\ncombatant = \"hero\"\nleave = true\n\n[[events]]\nround = 3\ncombatant = \"ally\"\njoin = true",
    );
    let (sim, acc) = run_text(&text, 2000);
    assert_eq!(acc.outcome[sim.model.sides.len() + 1], 2000);
    assert_eq!(acc.fighters[A_HERO].actions, 2000);
    // Illumination advantage 6 (C-LD-5) adds an action in each of its 2 rounds.
    let a = &acc.fighters[A_ALLY];
    assert_eq!(a.actions, 2 * 2000 + 2 * a.adv_faces[5]);
    assert_eq!(a.posture[0].entered, 2000);
    // Round 2: no hero in the fight, so the foe has no target and no action.
    assert_eq!(acc.fighters[A_FOE].actions, 3 * 2000);
    for f in [A_ALLY, A_HERO] {
        assert_eq!(acc.fighters[f].down, 0);
    }
    assert_eq!(acc.fighters[A_ALLY].hp_end.sum, 60 * 2000);
    assert_eq!(acc.fighters[A_HERO].hp_end.sum, 100 * 2000);
}

#[test]
fn a_side_whose_last_combatant_leaves_loses_at_that_round() {
    // The foe leaves at round 3: the heroes win in round 3 of every combat; the ally, who
    // would join at round 4, never arrives (not down, HP as it would arrive).
    let text = with_ally(
        "[combat]\nmax_rounds = 10\n\n[[events]]\nround = 3\ncombatant = \"foe\"\nleave = true\n\n[[events]]\nround = 4\ncombatant = \"ally\"\njoin = true",
    );
    let (sim, acc) = run_text(&text, 2000);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    assert_eq!(acc.outcome[heroes], 2000);
    assert_eq!(acc.rounds[3], 2000);
    assert_eq!(acc.fighters[A_FOE].down, 0);
    assert_eq!(acc.fighters[A_FOE].actions, 2 * 2000);
    assert_eq!(acc.fighters[A_ALLY].actions, 0);
    assert_eq!(acc.fighters[A_ALLY].posture[0].entered, 0);
}

#[test]
fn join_and_leave_events_are_validated() {
    let ev = |body: &str| with_ally(&format!("[combat]\nmax_rounds = 6\n\n{body}"));
    for (body, want) in [
        (
            "[[events]]\nround = 1\ncombatant = \"ally\"\njoin = true",
            "key `events[0].round`: a combatant joining at round 1 is there from the start; allowed: 2..6",
        ),
        (
            "[[events]]\nround = 2\ncombatant = \"ally\"\njoin = true\nkarma = 1",
            "key `events[0].join`: more than one of karma, join, leave; allowed: exactly one of",
        ),
        (
            "[[events]]\nround = 2\ncombatant = \"ally\"",
            "key `events[0].round`: the event does nothing; allowed: exactly one of karma = -20..20, join = true, leave = true",
        ),
        (
            "[[events]]\nround = 4\ncombatant = \"ally\"\njoin = true\n\n[[events]]\nround = 3\ncombatant = \"ally\"\nleave = true",
            "key `events[1].round`: \"ally\" leaves at round 3 but joins at round 4; allowed: 5..6",
        ),
        (
            "[[events]]\nround = 2\ncombatant = \"hero\"\nleave = true\n\n[[events]]\nround = 3\ncombatant = \"hero\"\nleave = true",
            "key `events[1].leave`: \"hero\" already leaves; allowed: one leave per combatant",
        ),
        (
            "[[events]]\nround = 2\ncombatant = \"hero\"\nleave = \"yes\"",
            "events",
        ),
    ] {
        let e = load_err(&ev(body));
        assert!(e.contains(want), "{e}\nwant: {want}");
        assert!(e.starts_with("t.toml:"), "{e}");
    }
}
