//! Small rules and character growth: aura (C-AURA), piloting, movement and inventory
//! (C-PILOT, C-MOVE, C-INV), fatigue tracks (C-FAT-1, C-FAT-2), creation (C-CREATE) and
//! levels (C-LEVEL).

use super::*;

#[test]
fn aura_face_5_matches_a_simulated_reroll() {
    // C-AURA current edition: a plain success is rolled again without the bonus.
    let (t, g) = rules();
    let target = AuraTarget {
        threshold: 45.0,
        karma: 6,
        bonus: 10.0,
        esprit: 50.0,
    };
    let exact = aura_effect(Lang::En, Edition::Current, 5, &target, &t, &g)
        .unwrap()
        .p_success;
    let with = TestSpec::new(55.0, 6).unwrap();
    let without = TestSpec::new(45.0, 6).unwrap();
    let mut rng = stream(11, 0, 0);
    let n = 400_000u64;
    let mut hits = 0u64;
    for _ in 0..n {
        let o = with.roll(&mut rng, &t);
        let ok = match o {
            Outcome::Success => without.roll(&mut rng, &t).is_success(),
            o => o.is_success(),
        };
        hits += ok as u64;
    }
    assert!(
        close(hits as f64 / n as f64, exact, n),
        "{} vs {exact}",
        hits as f64 / n as f64
    );
}

#[test]
fn aura_editions_differ_only_where_the_rulebooks_do() {
    // C-AURA / C-EDITION: face 1 and 2 are the same in both editions; 3 and 4 keep the
    // bonus in the previous edition, so they hurt less there.
    let (t, g) = rules();
    let target = AuraTarget {
        threshold: 55.0,
        karma: 0,
        bonus: 10.0,
        esprit: 50.0,
    };
    let e = |ed, f| {
        aura_effect(Lang::En, ed, f, &target, &t, &g)
            .unwrap()
            .p_success
    };
    for f in [1, 2] {
        assert_eq!(e(Edition::Current, f), e(Edition::Previous, f));
    }
    for f in [3, 4, 5, 6] {
        assert!(e(Edition::Current, f) < e(Edition::Previous, f), "face {f}");
    }
    // Hand value, current face 4: T = 55 - 20 = 35; scores 1..35 plus the natural 42.
    assert!((e(Edition::Current, 4) - 0.36).abs() < 1e-12);
}

// ---------- C-PILOT, C-MOVE, C-INV ----------

#[test]
fn piloting_by_hand() {
    // C-PILOT: score 5 on a d8 is 5/8; stress +1 is a d10; stress +2 on a d12 fails.
    assert_eq!(p_success(5, 8, 0), 5.0 / 8.0);
    assert_eq!(p_success(5, 8, 1), 0.5);
    assert_eq!(p_success(30, 12, 2), 0.0);
    assert_eq!(p_success(30, 100, 2), 0.3);
}

#[test]
fn movement_and_inventory_by_hand() {
    // C-INV: Force 52 -> 20 slots; 23 carried -> 3 over, -15 Agilité, move halved.
    assert_eq!(inventory::capacity(52), 20);
    let (t, g) = rules();
    let m = |agility, load, fp| {
        movement(
            &Mover {
                agility,
                force: 52,
                load,
                fp,
                karma: 0,
            },
            &t,
            &g,
        )
        .unwrap()
    };
    // C-MOVE: Agilité 61 -> ceil(61/20) = 4; sprint 8 / 10 / 12.
    assert_eq!(m(61, 0, 0).sprint, [4, 8, 10, 12]);
    // Overloaded (C-INV default, cosmos-current l. 500: the -5 per slot lowers Agilité
    // wherever it is used): the move uses Agilité 61 - 15 = 46 -> 3, halved -> 1; sprints
    // 3 / 6 / 7 / 9 halved -> 1 / 3 / 3 / 4.
    let r = m(61, 23, 0);
    assert_eq!((r.walk, r.sprint), (1, [1, 3, 3, 4]));
    // The sprint test at 61 - 15 = 46: plain success 11..46 but 42 = 35 scores, crit 10,
    // super 1 (the natural 42).
    assert!(
        (r.p[1] - 0.35).abs() < 1e-12
            && (r.p[2] - 0.10).abs() < 1e-12
            && (r.p[3] - 0.01).abs() < 1e-12
    );
    // Option overload_agility = tests: the move keeps Agilité 61 -> 4, halved -> 2;
    // sprints 4 / 8 / 10 / 12 halved -> 2 / 4 / 5 / 6.
    let stat = GrowthRules {
        overload_agility: cosmosim::systems::cosmos::growth::OverloadAgility::Tests,
        ..g
    };
    let r = movement(
        &Mover {
            agility: 61,
            force: 52,
            load: 23,
            fp: 0,
            karma: 0,
        },
        &t,
        &stat,
    )
    .unwrap();
    assert_eq!((r.walk, r.sprint), (2, [2, 4, 5, 6]));
}

// ---------- C-FAT-1, C-FAT-2 ----------

#[test]
fn fatigue_tracks_stay_in_range_with_overflow() {
    // C-FAT-1/2: every sum of gains and losses leaves both tracks in -3..10, and a gain
    // past 10 on one track appears on the other.
    let mut rng = stream(5, 0, 0);
    let d = Die::new(31).unwrap();
    for _ in 0..20_000 {
        let mut f = Fatigue {
            fp: d.roll(&mut rng) as i32 % 14 - 3,
            fm: d.roll(&mut rng) as i32 % 14 - 3,
        };
        let (a, b) = (d.roll(&mut rng) as i32 - 16, d.roll(&mut rng) as i32 - 16);
        let before = f;
        f.add(a, b, FATIGUE_MAX);
        assert!(
            (FATIGUE_MIN..=FATIGUE_MAX).contains(&f.fp)
                && (FATIGUE_MIN..=FATIGUE_MAX).contains(&f.fm)
        );
        if a >= 0 && b == 0 && before.fp + a > FATIGUE_MAX {
            let spill = before.fp + a - FATIGUE_MAX;
            assert_eq!(f.fm, (before.fm + spill).min(FATIGUE_MAX));
        }
    }
}

// ---------- C-CREATE ----------

#[test]
fn creation_rejections_exact_vs_simulated() {
    // C-CREATE-1/2: P(accept) of the 10d100 and 6d100 sums, from sums of d100
    // distributions, against 300 000 simulated characters.
    let engine = Engine::new(7, 2).unwrap();
    let n = 300_000;
    let acc = engine.run(
        &CreationSim(CreationPolicy::default(), Default::default()),
        &cosmosim::engine::StreamKey::new("test").int("task", 1),
        n,
        &Progress::hidden(),
    );
    for (i, p) in [
        creation::exact::p_hp_pm_accept(),
        creation::exact::p_stats_accept(),
    ]
    .into_iter()
    .enumerate()
    {
        // Attempts are Bernoulli trials: n accepted out of acc.attempts[i].
        let p_hat = n as f64 / acc.attempts[i] as f64;
        assert!(close(p_hat, p, acc.attempts[i]), "step {i}: {p_hat} vs {p}");
    }
    // Single stat dice: 61 of 100 faces are kept.
    let kept = acc.attempts[1] * 6;
    assert!(close(
        kept as f64 / acc.stat_d100_rolls as f64,
        0.61,
        acc.stat_d100_rolls
    ));
    // HP under the random split: exact mean within 5 standard errors.
    let hp = creation::exact::hp_random_split();
    let m = &acc.moments[0];
    assert!(
        (m.mean - hp.mean()).abs() <= 5.0 * m.std_error(),
        "{} vs {}",
        m.mean,
        hp.mean()
    );
}

#[test]
fn conversion_keeps_four_stats() {
    // C-CREATE-3: only Précision and Chance are rolled; their sum is in 60..140; "le reste
    // des informations valides le demeure" (cosmos-current l. 203): HP, PM, skill and DNA
    // points stay; points move within 20..85 from level 3 (l. 205).
    use cosmosim::systems::cosmos::growth::creation::{Conversion, MovePolicy};
    let conv = Conversion {
        stats: [61, 42, 33, 84],
        hp: 321,
        pm: 123,
        skill_points: 9,
        dna: 17,
        level: 4,
    };
    let p = CreationPolicy {
        conversion: Some(conv),
        ..Default::default()
    };
    let mut rng = stream(2, 0, 0);
    for _ in 0..5_000 {
        let c = create(&mut rng, &p).character;
        assert_eq!(&c.stats[..4], &[61, 42, 33, 84]);
        assert!((60..=140).contains(&(c.stats[4] + c.stats[5])));
        assert_eq!((c.hp, c.pm, c.skill_points, c.dna), (321, 123, 9, 17));
    }
    // Level 4: moving 20 points to Agilité stops at 85; at level 2 it would stop at 80.
    let moved = |level| {
        let p = CreationPolicy {
            conversion: Some(Conversion { level, ..conv }),
            priority: [
                Stat::Agilite,
                Stat::Force,
                Stat::Esprit,
                Stat::Charisme,
                Stat::Precision,
                Stat::Chance,
            ],
            move_policy: MovePolicy::ToFirst,
            move_points: 20,
            ..Default::default()
        };
        create(&mut stream(2, 0, 0), &p).character.stats[Stat::Agilite as usize]
    };
    assert_eq!(moved(4), 85);
    assert_eq!(moved(2), 84);
}

// ---------- C-LEVEL ----------

#[test]
fn levels_respect_caps_and_dna_matches_exact() {
    // C-LEVEL-1 caps (80 to level 2, 85 from 3) and C-LEVEL-4 DNA vs its exact mean.
    let (t, _) = rules();
    let p = LevelPolicy::default();
    let mut rng = stream(4, 0, 0);
    let n = 40_000u64;
    let mut dna = 0.0;
    for _ in 0..n {
        let mut h = Hero::new(create(&mut rng, &CreationPolicy::default()).character, 0);
        for _ in 2..=9 {
            level_up(&mut h, &mut rng, &p, &Stat::ALL, &t, &[]);
            assert!(h.c.stats.iter().all(|s| *s <= cap_at(h.level)));
            assert!((-10..=10).contains(&h.karma));
        }
        dna += h.c.dna as f64;
    }
    let d = level_exact::dna_at(9);
    let se = (d.variance() / n as f64).sqrt();
    assert!((dna / n as f64 - d.mean()).abs() <= 5.0 * se);
}

/// Audit of 2026-12-08: a converted character keeps its own DNA points ("le reste des
/// informations valides le demeure", l. 203, C-CREATE-3) and gains 1d4, 1d6, 1d8 at
/// levels 3, 6, 9 (l. 290, C-LEVEL-4). The summary's exact DNA means were a new
/// character's (5 + 1d20: 15.5 at level 1, 26 at 10) and said "outside the interval".
/// By hand: 0 points give 0, 2.5, 6, 10.5 at levels 1, 3, 6, 9 and 10; 9 points give 9
/// more. Skill points gained do not depend on the creation: 3.5 at level 3 (C-LEVEL-3).
#[test]
fn leveling_a_conversion_checks_its_own_dna_points() {
    let d = tempfile::tempdir().unwrap();
    for (dna, skill, want) in [
        (0, 0, [0.0, 2.5, 6.0, 10.5, 10.5]),
        (9, 14, [9.0, 11.5, 15.0, 19.5, 19.5]),
    ] {
        let text = format!(
            "system = \"cosmos\"\nkind = \"leveling\"\n[run]\ntrials = 4000\nseed = 7\n\
             [rules]\ncreate_die_min = 50\ncreate_die_max = 50\n\
             [creation.conversion]\nforce = 78\nesprit = 60\ncharisme = 60\nagilite = 60\n\
             hp = 100\npm = 100\nskill_points = {skill}\ndna_points = {dna}\nlevel = 1\n\
             [leveling]\nmax_level = 10\nlevel2 = \"one_d20\"\n"
        );
        let p = write(d.path(), &format!("lev{dna}.toml"), &text);
        let out = d.path().join(format!("out{dna}"));
        bin()
            .args(["-q", "run"])
            .arg(&p)
            .arg("--out")
            .arg(&out)
            .assert()
            .success();
        let md = std::fs::read_to_string(out.join("summary.md")).unwrap();
        for (level, mean) in [1, 3, 6, 9, 10].into_iter().zip(want) {
            let head = format!("- level {level}, DNA points: exact mean {mean:.4}, simulated ");
            let line = md.lines().find(|l| l.starts_with(&head)).expect(&head);
            let (sim, rest) = line[head.len()..].split_once(" (95% ").unwrap();
            let sim: f64 = sim.parse().unwrap();
            if level == 1 {
                // Certain: the points written in the file, no spread.
                assert_eq!(sim, mean, "{line}");
                continue;
            }
            // Monte Carlo within 5 sigma of the hand value (the 95% half-width is 1.96
            // sigma); at this seed the summary finds each one inside its interval too.
            let (lo, hi) = rest.split_once(')').unwrap().0.split_once("..").unwrap();
            let (lo, hi): (f64, f64) = (lo.parse().unwrap(), hi.parse().unwrap());
            assert!((sim - mean).abs() <= 5.0 * (hi - lo) / 3.92, "{line}");
            assert!(!line.contains("outside"), "{line}");
        }
        assert!(
            md.contains("level 3, skill points gained: exact mean 3.5000"),
            "{md}"
        );
    }
}

#[test]
fn skill_points_by_level_10_follow_the_received_zero_rule() {
    // C-LEVEL-3, cosmos-current.fr.txt l. 551: "le PJ y obtient 1d4-1 PC. Cependant, si
    // un PJ reçoit 0 PC à un certain niveau, il obtiendra 2 PC supplémentaires au niveau
    // suivant." Derived here without the code's own functions, two ways.
    //
    // 1. By hand: let p_n = P(level n received 0). A level receives 0 only if no carry
    //    came in and its d4 shows 1: p_n = (1 - p_{n-1}) / 4, p_1 = 0. Level n gains
    //    1.5 + 2 p_{n-1} on average. In 1/4^k units the p_n are 1/4, 3/16, 13/64, ...
    let mut p_prev = 0.0f64;
    let mut by_hand = 0.0;
    for _level in 2..=10 {
        by_hand += 1.5 + 2.0 * p_prev;
        p_prev = (1.0 - p_prev) / 4.0;
    }
    // 2. By brute force: every one of the 4^9 d4 sequences of levels 2..10, in integers.
    let mut total: u64 = 0;
    for code in 0u32..4u32.pow(9) {
        let (mut c, mut carry, mut pts) = (code, false, 0u64);
        for _ in 2..=10 {
            let r = (c % 4) as u64; // d4 - 1
            c /= 4;
            let gain = r + if carry { 2 } else { 0 };
            carry = gain == 0;
            pts += gain;
        }
        total += pts;
    }
    let brute = total as f64 / 4f64.powi(9);
    assert!((brute - by_hand).abs() < 1e-12, "{brute} vs {by_hand}");
    // The audit: about 16.8 (the misreading "a d4 of 1 carries" gave 17.5).
    assert!((brute - 16.78).abs() < 0.01, "{brute}");
    // The code's exact distribution agrees to the last digit...
    let code = level_exact::skill_gained_at(10).mean();
    assert!((code - brute).abs() < 1e-9, "{code} vs {brute}");
    // ...and the simulated level-ups agree within 5 standard errors.
    let (t, _) = rules();
    let mut rng = stream(21, 0, 0);
    let n = 100_000u64;
    let mut sum = 0.0;
    let mut sq = 0.0;
    for _ in 0..n {
        let mut h = Hero::new(create(&mut rng, &CreationPolicy::default()).character, 0);
        for _ in 2..=10 {
            level_up(
                &mut h,
                &mut rng,
                &LevelPolicy::default(),
                &Stat::ALL,
                &t,
                &[],
            );
        }
        sum += h.skill_gained as f64;
        sq += (h.skill_gained as f64).powi(2);
    }
    let mean = sum / n as f64;
    let se = ((sq / n as f64 - mean * mean) / n as f64).sqrt();
    assert!((mean - brute).abs() <= 5.0 * se, "{mean} vs {brute}");
}

#[test]
fn passive_test_option_reads_aura_face_6_one_way_or_the_other() {
    // C-AURA face 6 ("jet d'esprit passif sans bonus ni renforcement", cosmos-current
    // l. 264) with option passive_test: `karma` (default) rolls the Esprit test with the
    // karma die, `plain` at karma 0. Victim: Esprit 50, action threshold 40, karma -6.
    use cosmosim::systems::cosmos::growth::PassiveTest;
    let (t, g) = rules();
    let target = AuraTarget {
        threshold: 40.0,
        karma: -6,
        bonus: 0.0,
        esprit: 50.0,
    };
    let with = aura_effect(Lang::En, Edition::Current, 6, &target, &t, &g)
        .unwrap()
        .p_success;
    let plain_rules = GrowthRules {
        passive_test: PassiveTest::Plain,
        ..g
    };
    let plain = aura_effect(Lang::En, Edition::Current, 6, &target, &t, &plain_rules)
        .unwrap()
        .p_success;
    // Plain: P(Esprit 50 at karma 0 passes) = 0.50, then the action at karma -6 (the
    // passive test moves nothing): 0.50 * P(action).
    let action = TestSpec::new(40.0, -6)
        .unwrap()
        .exact(&t)
        .prob_where(|o| o.is_success());
    assert!((plain - 0.5 * action).abs() < 1e-12, "{plain}");
    // With karma the -6 adds a d10 to the passive roll: fewer passes.
    assert!(with < plain, "{with} vs {plain}");
}
