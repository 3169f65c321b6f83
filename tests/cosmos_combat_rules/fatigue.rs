//! Fatigue in combat (C-FAT-2, C-FAT-4).

use super::*;

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
