//! Great Cosmos combat, rules added for issue 9: in-combat fatigue (C-FAT-2, C-FAT-4),
//! scripted reinforcements and departures, element overrides and two-element combatants
//! (C-ELEM), and the readings 10b-10e (docs/rules.md). Exact values where a small case
//! has one; Monte Carlo within 5 sigma of the exact value otherwise.

mod common;

use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{load, FighterAcc};
use cosmosim::systems::cosmos::{Outcome, TestRules, TestSpec};

use common::combat::{agrees, run_opts, run_text};

const N: u64 = 20_000;

/// A hero (agilite 60, acts first, never defends) against `foe` (agilite 40). `attacks`
/// defines extra attacks; `hero` and `foe` are extra TOML lines (`hero` may end with
/// `@policy` and policy keys).
fn scenario(attacks: &str, hero: &str, foe: &str, extra: &str) -> String {
    let (hero_keys, hero_policy) = hero.split_once("@policy").unwrap_or((hero, ""));
    let level = if hero_keys.contains("level =") {
        ""
    } else {
        "level = 3"
    };
    format!(
        r#"system = "cosmos"
kind = "combat"
{extra}

[attacks.tickle]
stat = "force"
damage = "0"

{attacks}

[combatants.hero]
side = "heroes"
{level}
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
pm = 100
{hero_keys}

[combatants.hero.policy]
defence = "none"
{hero_policy}

[combatants.foe]
side = "foes"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }}
{foe}
"#
    )
}

fn load_err(text: &str) -> String {
    load(&ScenarioFile::from_text(
        "t.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .err()
    .unwrap_or_else(|| panic!("accepted:\n{text}"))
    .to_string()
}

/// P(success or better) of a test at threshold `t`, karma 0 (C-TEST-2).
fn p_hit(t: f64) -> f64 {
    let d = TestSpec::new(t, 0).unwrap().exact(&TestRules::default());
    d.prob_where(|o| o.is_success())
}

// Fighters are in name order: foe (0), hero (1).
const FOE: usize = 0;
const HERO: usize = 1;

/// Combats in which `a` ended with FP `fp` (track -3..10).
fn fp_end(a: &FighterAcc, fp: i32) -> u64 {
    a.fp_end[(fp + 3) as usize]
}

fn fm_end(a: &FighterAcc, fm: i32) -> u64 {
    a.fm_end[(fm + 3) as usize]
}

const HARMLESS: &str = "hp = 1000\nattacks = [\"tickle\"]";

// ---- Fatigue in combat (C-FAT-2, C-FAT-4) -------------------------------------------

#[test]
fn fatigue_gains_one_fp_every_five_rounds_and_one_at_the_end() {
    // Nobody can hurt anybody: every combat reaches the round cap. 12 rounds: +1 FP at
    // the end of rounds 5 and 10, +1 at the end = 3 FP for both, no FM. 4 rounds: 1 FP.
    // Off (the default): the tracks stay at their start.
    for (rounds, switch, fp) in [
        (12, "true", 3),
        (10, "true", 3),
        (4, "true", 1),
        (12, "false", 0),
    ] {
        let text = scenario(
            "",
            "attacks = [\"tickle\"]",
            HARMLESS,
            &format!("[combat]\nmax_rounds = {rounds}\nfatigue = {switch}"),
        );
        let (_, acc) = run_text(&text, 2000);
        for f in [FOE, HERO] {
            assert_eq!(
                fp_end(&acc.fighters[f], fp),
                2000,
                "{rounds} rounds, {switch}"
            );
            assert_eq!(fm_end(&acc.fighters[f], 0), 2000);
        }
    }
}

#[test]
fn fatigue_counts_pm_spent_and_hp_lost_per_hundred() {
    // `zap` costs 50 PM and 50 HP and is listed first (equal expected damage: the first
    // wins), so the hero uses it in each of 4 rounds: 200 PM spent (+2 FM) and 200 HP lost
    // (+2 FP +2 FM, C-FAT-2), +1 FP at the end: FP 3, FM 4. The foe only gets the end +1.
    let text = scenario(
        "[attacks.zap]\nstat = \"force\"\ndamage = \"0\"\npm_cost = 50\nhp_cost = 50\n",
        "attacks = [\"zap\", \"tickle\"]",
        HARMLESS,
        "[combat]\nmax_rounds = 4\nfatigue = true",
    )
    .replace("hp = 100\npm = 100", "hp = 1000\npm = 200");
    let (_, acc) = run_text(&text, 2000);
    assert_eq!(fp_end(&acc.fighters[HERO], 3), 2000);
    assert_eq!(fm_end(&acc.fighters[HERO], 4), 2000);
    assert_eq!(fp_end(&acc.fighters[FOE], 1), 2000);
}

#[test]
fn fatigue_from_extra_actions_beyond_the_natural_ones() {
    // Two actions a round, one natural: the second tires (+1 FP a round, a physical
    // attack). 3 rounds: 3 + 1 at the end = 4. All natural (the default): 1. A magical
    // (Esprit) extra action: +1 FM instead.
    for (natural, attack, fp, fm) in [
        ("natural_actions = 1", "tickle", 4, 0),
        ("", "tickle", 1, 0),
        ("natural_actions = 1", "spell", 1, 3),
    ] {
        let text = scenario(
            "[attacks.spell]\nstat = \"esprit\"\ndamage = \"0\"\n",
            &format!("actions = 2\n{natural}\nattacks = [\"{attack}\"]"),
            HARMLESS,
            "[combat]\nmax_rounds = 3\nfatigue = true",
        );
        let (_, acc) = run_text(&text, 2000);
        assert_eq!(fp_end(&acc.fighters[HERO], fp), 2000, "{natural} {attack}");
        assert_eq!(fm_end(&acc.fighters[HERO], fm), 2000, "{natural} {attack}");
    }
}

#[test]
fn fatigue_from_points_and_backlashes() {
    // A point used: -6/-6 (clamped at -3); its posture runs rounds 1-3 and ends with a
    // backlash: Illumination +10/+10 -> 7/7; Sépulcrale +8 FP -> 5/-3. 4 rounds: +1 FP
    // at the end. Illumination: FP 8, FM 7; Sépulcrale: FP 6, FM -3.
    for (policy, fp, fm) in [
        ("light_at_start = true", 8, 7),
        ("dark_at_start = true", 6, -3),
    ] {
        let text = scenario(
            "",
            &format!("attacks = [\"tickle\"]\n@policy\n{policy}"),
            HARMLESS,
            "[combat]\nmax_rounds = 4\nfatigue = true",
        );
        let (_, acc) = run_text(&text, 2000);
        let h = &acc.fighters[HERO];
        assert_eq!(h.posture.iter().map(|p| p.backlash).sum::<u64>(), 2000);
        assert_eq!(fp_end(h, fp), 2000, "{policy}");
        assert_eq!(fm_end(h, fm), 2000, "{policy}");
    }
}

#[test]
fn fatigue_from_a_knock_out() {
    // The foe's hit (threshold 200, the hero never defends) takes the hero's 100 HP (a
    // crit deals 150, a super 200, but HP lost is at most the HP it had): +1/+1 per 100
    // HP lost and +3 FM when knocked out, so a downed hero ends with FP 1,
    // FM 4 (no end gain: it is down); a standing one with FP 1 (the end), FM 0.
    let text = scenario(
        "[attacks.hundred]\nstat = \"force\"\ndamage = \"100\"\nthreshold = 200\n",
        "attacks = [\"tickle\"]",
        "hp = 1000\nattacks = [\"hundred\"]",
        "[combat]\nmax_rounds = 1\nfatigue = true",
    );
    // A crit or super success deals 150 or 200, but the hero only had 100 HP to lose.
    let (_, acc) = run_text(&text, N);
    let h = &acc.fighters[HERO];
    assert!(h.down > 0 && h.down < N);
    assert_eq!(fm_end(h, 4), h.down);
    assert_eq!(fm_end(h, 0), N - h.down);
    assert_eq!(fp_end(h, 1), N);
    agrees(h.down, N, p_hit(200.0));
}

#[test]
fn fatigue_exhausted_on_both_tracks_is_unconscious() {
    // The foe starts at FP 10, FM 9: it cannot act or defend (C-FAT-4). A psychic attack
    // that lands (+2 FM) takes FM to 10 (the extra point spills onto FP): both tracks at
    // 10, unconscious at once, so the heroes win iff the hero's attack test succeeds
    // (one round). Off, or not psychic, the attack does nothing and nobody wins. A foe
    // left standing takes the end-of-combat +1 FP, which spills onto FM (FP is at 10):
    // it ends unconscious too, after the outcome.
    let text = scenario(
        "[attacks.mind]\nstat = \"esprit\"\ndamage = \"0\"\npsychic = true\n",
        "attacks = [\"mind\"]",
        "hp = 1000\nfp_start = 10\nfm_start = 9\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 1\nfatigue = true",
    );
    let (sim, acc) = run_text(&text, N);
    let heroes = sim.model.sides.iter().position(|s| s == "heroes").unwrap();
    agrees(acc.outcome[heroes], N, p_hit(50.0));
    assert_eq!(acc.fighters[FOE].down, N);
    assert_eq!(fm_end(&acc.fighters[FOE], 10), N);
    assert_eq!(
        acc.outcome[heroes] + acc.outcome[sim.model.sides.len() + 1],
        N
    );
    for other in [
        text.replace("fatigue = true", "fatigue = false"),
        text.replace("psychic = true", "psychic = false"),
    ] {
        let (_, acc) = run_text(&other, 2000);
        assert_eq!(acc.outcome[heroes], 0);
    }
}

#[test]
fn fatigue_maluses_follow_the_tracks_during_the_combat() {
    // The hero starts at FP 3 (fresh) and hits for 10 (Force 60, the foe never defends)
    // in each of 8 rounds. With fatigue on, the end of round 5 brings FP 4 (light, -5,
    // C-FAT-4): rounds 6-8 are tested at 55. Off: all 8 at 60. Mean damage 10 x (hits);
    // karma drift is left out of the exact value (crits are rare enough over 8 tests).
    let text = scenario(
        "[attacks.ten]\nstat = \"force\"\ndamage = \"10\"\n",
        "fp_start = 3\nattacks = [\"ten\"]",
        "hp = 100000\nattacks = [\"tickle\"]\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 8\nfatigue = true",
    );
    // From FP 7 (moderate, -10): FP 8 after round 5 is extreme: -30 and the crit-failure
    // band from 86 (C-FAT-4; at threshold 30 the band changes the kind of failure only).
    let extreme = TestSpec::new(30.0, 0)
        .unwrap()
        .with_crit_fail_from(86)
        .unwrap()
        .exact(&TestRules::default())
        .prob_where(|o| o.is_success());
    let n = 40_000;
    for (text, hits) in [
        (text.clone(), 5.0 * p_hit(60.0) + 3.0 * p_hit(55.0)),
        (
            text.replace("fp_start = 3", "fp_start = 7"),
            5.0 * p_hit(50.0) + 3.0 * extreme,
        ),
        (
            text.replace("fatigue = true", "fatigue = false"),
            8.0 * p_hit(60.0),
        ),
    ] {
        // Every hit deals exactly 10 (crit and super multipliers set to 1).
        let (_, acc) = run_opts(&text, n, &["crit_damage_mult=1", "super_damage_mult=1"]);
        let mean = acc.fighters[HERO].dealt.sum as f64 / n as f64;
        // Per combat: a sum of 8 Bernoulli(<= 0.6) x 10: variance <= 8 x 25 = 200.
        let bound = 5.0 * (200.0 / n as f64).sqrt();
        assert!(
            (mean - 10.0 * hits).abs() <= bound,
            "mean {mean}, exact {}",
            10.0 * hits
        );
    }
}

#[test]
fn fatigue_keys_are_validated() {
    let base = scenario(
        "",
        "attacks = [\"tickle\"]",
        HARMLESS,
        "[combat]\nfatigue = true",
    );
    let e = load_err(&base.replace(
        "attacks = [\"tickle\"]\n\n[combatants.hero.policy]",
        "actions = 2\nnatural_actions = 3\nattacks = [\"tickle\"]\n\n[combatants.hero.policy]",
    ));
    assert!(
        e.contains("key `combatants.hero.natural_actions`: 3 is out of range; allowed: 1..2"),
        "{e}"
    );
    assert!(e.starts_with("t.toml:"), "{e}");
    let e = load_err(&base.replace("fatigue = true", "fatigue = \"yes\""));
    assert!(e.contains("combat.fatigue"), "{e}");
    let e = load_err(&base.replace("damage = \"0\"", "damage = \"0\"\npsychic = 2"));
    assert!(e.contains("attacks.tickle.psychic"), "{e}");
}

// ---- Scripted events: reinforcements and departures ---------------------------------

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

// ---- Element affinity: two elements, coefficient overrides (C-ELEM) -----------------

#[test]
fn two_element_combatants_and_coefficient_overrides_scale_the_damage() {
    // A 10-damage Eau attack that lands unless it critically fails (threshold 200; the
    // foe never defends; crit and super multipliers 1), one round. On a foe of elements
    // Feu and Terre (Eau on Feu 2, on Terre 0.75): 15 per hit with `dual_element =
    // product`, 20 with `max`; an override `eau = 0.5` gives 5 whatever the elements;
    // `eau = 0` nothing.
    let base = scenario(
        "[attacks.wave]\nstat = \"force\"\ndamage = \"10\"\nelement = \"eau\"\nthreshold = 200\n",
        "attacks = [\"wave\"]",
        "hp = 100000\nelements = [\"feu\", \"terre\"]\nattacks = [\"tickle\"]\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    );
    let over = base.replace(
        "attacks = [\"tickle\"]\n[combatants.foe.policy]",
        "element_coefficients = { eau = 0.5, feu = 3 }\nattacks = [\"tickle\"]\n[combatants.foe.policy]",
    );
    let zero = over.replace("eau = 0.5", "eau = 0");
    for (text, dual, per_hit) in [
        (&base, "product", 15),
        (&base, "max", 20),
        (&base, "mean", 13),
        (&over, "product", 5),
        (&zero, "max", 0),
    ] {
        let opt = format!("dual_element={dual}");
        let (_, acc) = run_opts(
            text,
            N,
            &[&opt, "crit_damage_mult=1", "super_damage_mult=1"],
        );
        let dealt = acc.fighters[HERO].dealt.sum;
        if per_hit == 0 {
            assert_eq!(dealt, 0);
            continue;
        }
        assert_eq!(dealt % per_hit, 0, "{dual} {per_hit}: {dealt}");
        agrees(dealt / per_hit, N, p_hit(200.0));
    }
}

#[test]
fn element_affinity_keys_are_validated() {
    let base = scenario("", "attacks = [\"tickle\"]", HARMLESS, "");
    let with = |keys: &str| {
        base.replace(
            "hp = 1000\nattacks = [\"tickle\"]",
            &format!("hp = 1000\n{keys}\nattacks = [\"tickle\"]"),
        )
    };
    for (keys, want) in [
        (
            "element = \"feu\"\nelements = [\"eau\"]",
            "key `combatants.foe.elements`: both `element` and `elements` are given",
        ),
        (
            "elements = [\"feu\", \"eau\", \"air\"]",
            "key `combatants.foe.elements`: 3 elements; allowed: one or two different elements (C-ELEM)",
        ),
        (
            "elements = [\"feu\", \"fire\"]",
            "key `combatants.foe.elements[1]`: \"fire\" is listed twice; allowed: two different elements",
        ),
        (
            "elements = [\"feu\", \"wood\"]",
            "key `combatants.foe.elements[1]`: unknown element \"wood\"; allowed: feu, air,",
        ),
        (
            "element_coefficients = { wood = 1 }",
            "key `combatants.foe.element_coefficients.wood`: unknown element \"wood\"",
        ),
        (
            "element_coefficients = { feu = 11 }",
            "key `combatants.foe.element_coefficients.feu`: 11 is out of range; allowed: -10..10",
        ),
    ] {
        let e = load_err(&with(keys));
        assert!(e.contains(want), "{e}\nwant: {want}");
        assert!(e.starts_with("t.toml:"), "{e}");
    }
}

// ---- Readings 10b, 10c, 10e (docs/rules.md) -----------------------------------------

/// The exact outcome distribution of a test at threshold `t`, karma `k` (C-TEST-2..4).
fn dist(t: f64, k: i8) -> cosmosim::dice::Dist<Outcome> {
    TestSpec::new(t, k).unwrap().exact(&TestRules::default())
}

#[test]
fn reading_10b_a_riposte_s_damage_triggers_the_sepulchral_counter() {
    // The hero holds Sépulcrale from the start (karma locked at -10, C-KARMA-2) and pokes
    // the foe (0 damage, so no provocation; 100 PM a use). The foe parries (Force 60); a
    // crit parry that stops the poke ripostes at its source with a 5-damage jab (C-CMB-3).
    // The foe's own action goes to `bait`, so only a riposte can hurt the hero. With
    // `any_damage` (default) the jab's damage triggers the hero's counter (C-LD-6), which
    // pays 100 PM more. Fatigue counts it: the point takes FM to -3, each 100 PM +1 FM, so
    // FM -1 at the end iff a counter came. P = sum over attack tiers a >= 1 of
    // P(A = a) P(parry tier >= max(a, 2)) P(jab hits).
    let text = scenario(
        "[attacks.poke]\nstat = \"force\"\ndamage = \"0\"\npm_cost = 100\n\n[attacks.jab]\nstat = \"force\"\ndamage = \"5\"\n",
        "attacks = [\"poke\"]\n@policy\ndark_at_start = true",
        "hp = 100000\nattacks = [\"jab\"]\n[combatants.foe.policy]\ndefence = \"parry\"\ntarget = \"named\"\ntarget_name = \"bait\"",
        "[combat]\nmax_rounds = 1\nfatigue = true\n\n[combatants.bait]\nside = \"heroes\"\nlevel = 3\nstats = { force = 60, esprit = 40, charisme = 40, agilite = 30, precision = 50, chance = 50 }\nhp = 100000\nattacks = [\"tickle\"]\n",
    )
    .replace("hp = 100\npm = 100", "hp = 100\npm = 200");
    // Name order: bait (0), foe (1), hero (2).
    let (a, d) = (dist(60.0, -10), dist(60.0, 0));
    let jab = d.prob_where(|o| o.is_success());
    let mut p = 0.0;
    for oa in Outcome::ALL {
        if oa.tier() >= 1 {
            let need = oa.tier().max(2);
            p += a.prob(&oa) * d.prob_where(|o| o.tier() >= need) * jab;
        }
    }
    let n = 200_000;
    let (_, acc) = run_opts(&text, n, &[]);
    let h = &acc.fighters[2];
    assert_eq!(fm_end(h, -1) + fm_end(h, -2), n);
    agrees(fm_end(h, -1), n, p);
    let (_, acc) = run_opts(&text, 2000, &["sepulchral_counter_on=actions_only"]);
    assert_eq!(fm_end(&acc.fighters[2], -2), 2000);
}

#[test]
fn reading_10c_no_point_between_the_halves_of_a_simultaneous_exchange() {
    // Equal Agilité (50): d20s decide (hero first 0.475, foe first 0.475, equal 0.05:
    // simultaneous, C-TURN-1). Both Offensive, attacks at threshold 200, tier multipliers
    // 1. The foe's hit (60 x 1.5) takes the hero below half HP, which spends its Dark
    // point (C-LD-2). Foe first: the hero then acts in Sépulcrale (karma -10, x2: 20 a
    // hit); hero first, or simultaneous (10c: the point waits for the end of the
    // exchange): 15 a hit at karma 0. Spending it between the halves would give the
    // simultaneous case the foe-first value: 0.05 x p x (20 p' - 15 p) more, ~10 sigma.
    let text = scenario(
        "[attacks.ten]\nstat = \"force\"\ndamage = \"10\"\nthreshold = 200\n\n[attacks.big]\nstat = \"force\"\ndamage = \"60\"\nthreshold = 200\n",
        "mode = \"offensive\"\nattacks = [\"ten\"]\n@policy\ndark_below_hp = 0.5",
        "hp = 100000\nmode = \"offensive\"\nattacks = [\"big\"]",
        "[combat]\nmax_rounds = 1",
    )
    .replace("agilite = 60", "agilite = 50")
    .replace("agilite = 40", "agilite = 50");
    let p = dist(200.0, 0).prob_where(|o| o.is_success());
    let p_sep = dist(200.0, -10).prob_where(|o| o.is_success());
    let foe_first = p * 20.0 * p_sep + (1.0 - p) * 15.0 * p;
    let exact = (0.475 + 0.05) * 15.0 * p + 0.475 * foe_first;
    let n = 400_000;
    let (_, acc) = run_opts(&text, n, &["crit_damage_mult=1", "super_damage_mult=1"]);
    let mean = acc.fighters[HERO].dealt.sum as f64 / n as f64;
    // Per combat the hero deals at most 20: variance <= 100.
    let bound = 5.0 * (100.0 / n as f64).sqrt();
    assert!(
        (mean - exact).abs() <= bound,
        "mean {mean}, exact {exact}, bound {bound}"
    );
    let between = exact + 0.05 * (foe_first - 15.0 * p);
    assert!((mean - between).abs() > bound, "{mean} {between}");
}

#[test]
fn reading_10e_an_illumination_begun_mid_round_keeps_its_slot_or_acts_next() {
    // `fast` (Agilité 80) nicks the hero (Agilité 40) for 1, which spends its Light point
    // (`light_below_hp = 1`): Illumination mid-round. `mid` (Agilité 60) then swings a
    // 1000-damage blow; the hero never defends but Illumination evades a hit that is not
    // a super success on d10 <= 7 (C-LD-5). keep_slot (default): the hero acts after mid,
    // if it survives; next: right after fast. No nick (a failed test): no posture, the
    // hero acts iff mid misses. One round; actions counted.
    let text = r#"system = "cosmos"
kind = "combat"

[combat]
max_rounds = 1

[attacks.tickle]
stat = "force"
damage = "0"

[attacks.nick]
stat = "force"
damage = "1"
threshold = 200

[attacks.blow]
stat = "force"
damage = "1000"
threshold = 200

[combatants.hero]
side = "heroes"
level = 3
stats = { force = 60, esprit = 50, charisme = 40, agilite = 40, precision = 50, chance = 50 }
hp = 100
attacks = ["tickle"]

[combatants.hero.policy]
defence = "none"
light_below_hp = 1.0

[combatants.fast]
side = "foes"
level = 3
stats = { force = 60, esprit = 40, charisme = 40, agilite = 80, precision = 50, chance = 50 }
hp = 1000
attacks = ["nick"]

[combatants.mid]
side = "foes"
level = 3
stats = { force = 60, esprit = 40, charisme = 40, agilite = 60, precision = 50, chance = 50 }
hp = 1000
attacks = ["blow"]
"#;
    // Name order: fast (0), hero (1), mid (2).
    let d = dist(200.0, 0);
    let hit = d.prob_where(|o| o.is_success());
    let miss = 1.0 - hit;
    let survive = miss + 0.7 * (hit - d.prob(&Outcome::SuperSuccess));
    let n = 100_000;
    for (option, p) in [
        ("keep_slot", hit * survive + miss * miss),
        ("next", hit + miss * miss),
    ] {
        let (_, acc) = run_opts(text, n, &[&format!("illumination_mid_round={option}")]);
        let h = &acc.fighters[1];
        // The nick comes first (C-TURN-1), so the hero never acts first.
        assert_eq!(h.first_actor, 0);
        agrees(h.posture[0].entered, n, hit);
        agrees(h.actions, n, p);
    }
}

#[test]
fn reading_10d_disadvantage_3_takes_20_off_the_next_attack_of_the_backlash() {
    // The hero holds Sépulcrale from the start (rounds 1-3, karma -10) and strikes for
    // 100 (x2 in posture, x0.5 in its backlash; tier multipliers 1) with a 2-round
    // cooldown: it acts in rounds 1 and 4 only; round 4 is its first backlash turn
    // (karma back to 0). Disadvantage faces (C-LD-6), one each: 3 -20 on that action's
    // attack test (10d), 4 -10 and 5 -20 on every test, others nothing on the test. Mean
    // damage = 200 P(hit | 60, k -10) + 50 (3 p60 + p40 + p50 + p40) / 6; without the
    // face-3 malus it would be 50 (p60 - p40) / 6 higher (~10 sigma).
    let text = scenario(
        "[attacks.strike]\nstat = \"force\"\ndamage = \"100\"\ncooldown = 2\n",
        "attacks = [\"strike\"]\n@policy\ndark_at_start = true",
        "hp = 100000\nattacks = [\"tickle\"]\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 4",
    );
    let p = |t: f64, k: i8| dist(t, k).prob_where(|o| o.is_success());
    let round4 = (3.0 * p(60.0, 0) + p(40.0, 0) + p(50.0, 0) + p(40.0, 0)) / 6.0;
    let exact = 200.0 * p(60.0, -10) + 50.0 * round4;
    let n = 400_000;
    let (_, acc) = run_opts(&text, n, &["crit_damage_mult=1", "super_damage_mult=1"]);
    let h = &acc.fighters[HERO];
    assert_eq!(h.actions, 2 * n);
    assert_eq!(h.posture[1].backlash, n);
    let mean = h.dealt.sum as f64 / n as f64;
    // Per combat at most 250: variance <= 250^2 / 4.
    let bound = 5.0 * (250.0 * 250.0 / 4.0 / n as f64).sqrt();
    assert!(
        (mean - exact).abs() <= bound,
        "mean {mean}, exact {exact}, bound {bound}"
    );
    let no_malus = exact + 50.0 * (p(60.0, 0) - p(40.0, 0)) / 6.0;
    assert!((mean - no_malus).abs() > bound, "{mean} {no_malus}");
}

#[test]
fn fatigue_on_writes_its_table_and_check_lists_the_switch() {
    use assert_cmd::Command;
    let dir = tempfile::tempdir().unwrap();
    let off = scenario(
        "",
        "actions = 2\nattacks = [\"tickle\"]",
        HARMLESS,
        "[combat]\nmax_rounds = 6",
    );
    let path = dir.path().join("s.toml");
    std::fs::write(&path, &off).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("combat.fatigue = false (default)"),
        "{stdout}"
    );
    let on = off.replace("max_rounds = 6", "max_rounds = 6\nfatigue = true");
    std::fs::write(&path, &on).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("combatants.hero.natural_actions = 2 (default)"),
        "{stdout}"
    );
    Command::cargo_bin("cosmosim")
        .unwrap()
        .args(["run", "--trials", "500", "-q", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .assert()
        .success();
    let csv = std::fs::read_to_string(dir.path().join("out/combat-fatigue.csv")).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next().unwrap(),
        "combatant,side,track,combats,end_mean,p_fresh,p_light,p_moderate,p_extreme,p_exhausted,p_exhausted_lo,p_exhausted_hi"
    );
    // 6 rounds, nobody hurt: +1 FP after round 5 and +1 at the end: FP 2 for both.
    let row: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(&row[..4], &["foe", "foes", "fp", "500"], "{csv}");
    let num = |i: usize| row[i].parse::<f64>().unwrap();
    assert_eq!((num(4), num(5), num(9)), (2.0, 1.0, 0.0), "{csv}");
    assert_eq!(csv.lines().count(), 5, "{csv}");
    let summary = std::fs::read_to_string(dir.path().join("out/summary.md")).unwrap();
    assert!(summary.contains("## Fatigue at combat end"), "{summary}");
    assert!(
        summary.contains("| combat.fatigue | true | file |"),
        "{summary}"
    );
}
