//! Postures, Apocalypse, backlash, defence tiers, the karma lock and turn order on small
//! scenarios (C-LD, C-CMB-2, C-KARMA-2, C-TURN).

use super::*;

#[test]
fn sepulcrale_below_level_5_against_harmless_enemies_fires_apocalypse_once_per_dark_point() {
    // C-LD-6 + C-LD-3: the posture expires after 3 turns without Revive.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 10",
    );
    let (_, acc) = run_text(&t, N, &[]);
    let sep = hero(&acc).posture[1];
    assert_eq!(sep.entered, N);
    assert_eq!(sep.apocalypse, N);
    assert_eq!(sep.revive, 0);
    assert_eq!(sep.ends, [N, 0, 0, 0]);
    assert_eq!(acc.apocalypse_combats, N);
    // Level 5, 1 Light + 4 Dark points, spent at each turn start once allowed: each fires.
    let t = duel(
        "level = 5\nlevel5_dark = 3\nattacks = [\"blade\"]",
        "dark_on_turn_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 40",
    );
    let (_, acc) = run_text(&t, N, &[]);
    let sep = hero(&acc).posture[1];
    assert_eq!(sep.entered, 4 * N);
    assert_eq!(sep.apocalypse, 4 * N);
}

#[test]
fn a_posture_in_which_revive_fired_never_fires_apocalypse() {
    // Strong enemy: Revive fires in many postures; Apocalypse exactly in the others.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        "level = 3\nhp = 500\nmode = \"offensive\"\nattacks = [\"blade\"]",
        "[combat]\nmax_rounds = 10",
    )
    .replace("hp = 100\npm = 100", "hp = 60\npm = 100");
    let (_, acc) = run_text(&t, N, &[]);
    let sep = hero(&acc).posture[1];
    assert!(sep.revive > N / 50 && sep.apocalypse > N / 50, "{sep:?}");
    assert_eq!(sep.revive_and_apocalypse, 0);
    // Every posture ends one way; all but holder_down fire unless Revive fired, and a
    // Sépulcrale holder can only go down after its Revive.
    assert_eq!(sep.apocalypse, sep.entered - sep.revive);
}

#[test]
fn backlash_iff_a_third_posture_turn_began() {
    // C-LD-3. Expiry at the end of turn 3: backlash every time.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 3",
    );
    let sep = hero(&run_text(&t, N, &[]).1).posture[1];
    assert_eq!((sep.backlash, sep.ends[0]), (N, N));
    // Combat ends after 2 posture turns: no backlash.
    let t = duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_at_start = true",
        HARMLESS,
        "[combat]\nmax_rounds = 2",
    );
    let sep = hero(&run_text(&t, N, &[]).1).posture[1];
    assert_eq!((sep.backlash, sep.ends[2]), (0, N));
    // Final Skill on posture turn 2: no backlash; on turn 3: backlash.
    for (turn, backlash) in [("second_turn", 0), ("third_turn", N)] {
        let t = duel(
            "level = 5\ndark_points = 1\nlight_points = 1\nattacks = [\"blade\"]\nfinal_skill = \"blade\"",
            &format!("dark_at_start = true\nfinal_skill = \"{turn}\""),
            HARMLESS,
            "[combat]\nmax_rounds = 3",
        );
        let sep = hero(&run_text(&t, N, &[]).1).posture[1];
        assert_eq!((sep.backlash, sep.ends[1]), (backlash, N), "{turn}");
    }
}

#[test]
fn apocalypse_on_without_final_skill_never_fires_on_a_final_skill_exit() {
    let t = duel(
        "level = 5\ndark_points = 1\nlight_points = 1\nattacks = [\"blade\"]\nfinal_skill = \"blade\"",
        "dark_at_start = true\nfinal_skill = \"first_turn\"",
        HARMLESS,
        "[combat]\nmax_rounds = 5",
    );
    let sep = hero(&run_text(&t, N, &["apocalypse_on=expiry,combat_end"]).1).posture[1];
    assert_eq!((sep.ends[1], sep.apocalypse), (N, 0));
    let sep = hero(&run_text(&t, N, &[]).1).posture[1];
    assert_eq!((sep.ends[1], sep.apocalypse), (N, N));
}

#[test]
fn crit_attack_is_stopped_only_by_crit_or_better_defence() {
    // C-CMB-2: stops iff defence tier >= attack tier (tiers 1/2/3).
    use Outcome::*;
    let hits = [Success, CritSuccess, SuperSuccess];
    let expected = [
        // defence: Super, Crit, Success, Failure, CritFail, SuperFail
        [true, true, true, false, false, false], // Success attack
        [true, true, false, false, false, false], // Crit attack
        [true, false, false, false, false, false], // Super attack
    ];
    for (a, row) in hits.iter().zip(expected) {
        for (d, want) in Outcome::ALL.iter().zip(row) {
            assert_eq!(defence_stops(*a, *d), want, "{a:?} vs {d:?}");
        }
    }
}

#[test]
fn karma_is_locked_in_posture_and_restored_after() {
    // C-KARMA-2: two rounds, all inside the posture: no drift; restore gives the start
    // value back, keep leaves the locked value.
    let body = |policy: &str| {
        duel(
            "level = 3\nkarma = 3\nattacks = [\"blade\"]",
            policy,
            "level = 3\nhp = 1000000\nattacks = [\"blade\"]",
            "[combat]\nmax_rounds = 2",
        )
    };
    let acc = run_text(&body("dark_at_start = true"), N, &[]).1;
    assert_eq!(hero(&acc).karma_end[13], N);
    let acc = run_text(
        &body("dark_at_start = true"),
        N,
        &["posture_karma_exit=keep"],
    )
    .1;
    assert_eq!(hero(&acc).karma_end[0], N);
    let acc = run_text(
        &body("light_at_start = true"),
        N,
        &["posture_karma_exit=keep"],
    )
    .1;
    assert_eq!(hero(&acc).karma_end[20], N);
    // Control: without a posture, karma drifts in some combats (C-KARMA-1).
    let acc = run_text(&body(""), N, &[]).1;
    assert!(hero(&acc).karma_end[13] < N * 95 / 100);
}

#[test]
fn illumination_acts_first() {
    // C-TURN-3: Agilité 20 in Illumination goes before Agilité 80.
    let t = |policy: &str| {
        duel(
            "level = 3\nattacks = [\"blade\"]\nstats = { force = 60, esprit = 50, charisme = 40, agilite = 20, precision = 50, chance = 50 }",
            policy,
            "level = 3\nhp = 1000\nattacks = [\"blade\"]",
            "",
        )
        .replace("stats = { force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }\n", "")
        .replace("agilite = 40", "agilite = 80")
    };
    let acc = run_text(&t("light_at_start = true"), N, &[]).1;
    assert_eq!(hero(&acc).first_actor, N);
    let acc = run_text(&t(""), N, &[]).1;
    assert_eq!(acc.fighters[0].first_actor, N);
}
