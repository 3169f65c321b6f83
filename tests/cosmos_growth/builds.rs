//! DNA spent on the gene tree and stat builds (issue 10 item 11; C-GENE-1, C-LEVEL-1,
//! C-LEVEL-4).

use super::*;

#[test]
fn dna_policies_meet_their_wishes_as_the_exact_dna_sums_say() {
    use cosmosim::systems::cosmos::growth::scenarios::leveling::{model, LevelingSim};
    // In build-paths.toml every wish can be reached in list order (parents first, no
    // exclusive partner wished, the innate cortex affordable at creation: 5 + 1d20 >= 6),
    // so "every wish met at level L" is exactly "DNA points by level L >= the build's
    // cost" (one point per allele, innate X-X for one, C-GENE-1): fighter 1 (densite_osseuse
    // X-O -> X-X) + 2 + 4 + 8 + 2 + 2 = 19; seer 1 + 2 + 2 + 8 + 2 + 2 + 2 + 2 = 21.
    // The DNA sum is exact (C-LEVEL-4: 5 + 1d20, +1d4, +1d6, +1d8 at levels 3, 6, 9).
    let f = ScenarioFile::read(
        std::path::Path::new("scenarios/cosmos/build-paths.toml"),
        cosmosim::lang::Lang::En,
    )
    .unwrap();
    let (m, ..) = model(&f).unwrap();
    let d = m.dna.clone().unwrap();
    let costs: Vec<i64> = d
        .policies
        .iter()
        .map(|(_, p)| {
            p.wishes
                .iter()
                .map(|w| {
                    let g = &d.tree.genes[w.gene];
                    let need = w.alleles.saturating_sub(g.active) as i64;
                    if g.kind == cosmosim::systems::cosmos::growth::genetics::GeneKind::Innate {
                        need.min(1)
                    } else {
                        need
                    }
                })
                .sum()
        })
        .collect();
    assert_eq!(costs, vec![19, 21]);
    let sim = LevelingSim::new(m, TestRules::default());
    let n = 20_000u64;
    let acc = Engine::new(4, 2).unwrap().run(
        &sim,
        &cosmosim::engine::StreamKey::new("test").int("task", 9),
        n,
        &Progress::hidden(),
    );
    let mut informative = 0;
    for (k, cost) in costs.iter().enumerate() {
        for level in 1..=10u32 {
            let exact = level_exact::dna_at(level).prob_where(|x| *x >= *cost);
            let c = &acc.dna[k].all[level as usize - 1];
            let got = c.counts[1] as f64 / n as f64;
            assert!(
                close(got, exact, n),
                "policy {k} level {level}: {got} vs {exact}"
            );
            if (0.05..0.95).contains(&exact) {
                informative += 1;
            }
        }
    }
    assert!(informative >= 6);
}

#[test]
fn golden_build_paths() {
    golden_run(
        "scenarios/cosmos/build-paths.toml",
        "3000",
        &[
            ("leveling-genes.csv", "cosmos-build-paths-genes.csv"),
            ("leveling-builds.csv", "cosmos-build-paths-builds.csv"),
        ],
    );
}

#[test]
fn golden_dna_policy_errors() {
    let dir = tempfile::tempdir().unwrap();
    let head = "system = \"cosmos\"\nkind = \"leveling\"\n[[leveling.dna.genes]]\nname = \"a\"\n[[leveling.dna.genes]]\nname = \"b\"\nparent = \"a\"\n";
    let cases = [
        (
            format!("{head}[[leveling.dna.policies]]\nname = \"x\"\nwishes = [\"a\", \"zz\"]\n"),
            "d0.toml:10:16: key `leveling.dna.policies[0].wishes[1]`: \"zz\" is not a gene of the tree with an allele count; allowed: \"gene\" or \"gene:N\" (N >= 1) with gene one of a, b",
        ),
        (
            format!("{head}[[leveling.dna.policies]]\nname = \"x\"\nwishes = [\"a:0\"]\n"),
            "key `leveling.dna.policies[0].wishes[0]`: \"a:0\" asks for no allele; allowed: 1..2 alleles for a",
        ),
        (
            format!("{head}[[leveling.dna.policies]]\nname = \"x\"\nwishes = []\n"),
            "key `leveling.dna.policies[0].wishes`: 0 wishes; allowed: 1..32 wishes",
        ),
        (
            format!("{head}[[leveling.dna.policies]]\nname = \"x\"\nwishes = [\"a\"]\n[[leveling.dna.policies]]\nname = \"x\"\nwishes = [\"b\"]\n"),
            "key `leveling.dna.policies[1].name`: \"x\" is empty, too long or repeated",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("d{i}.toml"), text);
        for cmd in ["check", "run"] {
            let mut c = bin();
            c.arg(cmd).arg(&p);
            if cmd == "run" {
                c.arg("--out").arg(dir.path().join("out"));
            }
            c.assert().code(2).stderr(predicates::str::contains(*want));
        }
    }
}

// ---------- Stat builds: weights and per-level schedules (issue 10 item 11; C-LEVEL-1) ----------

#[test]
fn one_weight_builds_exactly_as_the_priority_list() {
    use cosmosim::systems::cosmos::growth::leveling::{LaterLevels, StatTarget};
    // C-LEVEL-1 levels 2 and 6+: a weights build with one non-zero weight (agilite) orders
    // agilite first and the rest by rulebook order, i.e. the priority list
    // [agilite, force, esprit, charisme, precision, chance]; same streams, same heroes.
    let t = TestRules::default();
    let prio = [
        Stat::Agilite,
        Stat::Force,
        Stat::Esprit,
        Stat::Charisme,
        Stat::Precision,
        Stat::Chance,
    ];
    let later = |target| LaterLevels {
        stat_die: 20,
        stat_count: 2,
        stat_target: target,
        hp_die: 10,
        pm_die: 0,
    };
    let by_list = LevelPolicy {
        level2_target: StatTarget::Priority,
        later: later(StatTarget::Priority),
        ..Default::default()
    };
    let by_weights = LevelPolicy {
        level2_target: StatTarget::Weights,
        later: later(StatTarget::Weights),
        weights: [0, 0, 0, 7, 0, 0],
        ..Default::default()
    };
    let policy = CreationPolicy::default();
    let mut differs_from_lowest = false;
    for trial in 0..300 {
        let c = create(&mut stream(5, 1, trial), &policy).character;
        let (mut a, mut b) = (Hero::new(c, 0), Hero::new(c, 0));
        let (mut ra, mut rb) = (stream(5, 2, trial), stream(5, 2, trial));
        for _ in 2..=12 {
            level_up(&mut a, &mut ra, &by_list, &prio, &t, &[]);
            level_up(&mut b, &mut rb, &by_weights, &prio, &t, &[]);
            assert_eq!(a, b);
        }
        differs_from_lowest |= a.c.stats[Stat::Agilite as usize] == cap_at(12);
    }
    assert!(
        differs_from_lowest,
        "the builds never reached the agilite cap"
    );
}

#[test]
fn a_scheduled_level_gives_its_own_die() {
    use cosmosim::systems::cosmos::growth::leveling::{LaterLevels, Pool};
    // Levels 6+ give nothing except level 8: +d4 PM. With the Chance bonus to HP
    // (C-LEVEL-2), PM(8) - PM(7) is exactly a d4: 1..4 with probability 1/4 each.
    let t = TestRules::default();
    let p = LevelPolicy {
        chance_bonus: Pool::Hp,
        level4: Pool::Hp,
        schedule: vec![(
            8,
            LaterLevels {
                pm_die: 4,
                ..Default::default()
            },
        )],
        ..Default::default()
    };
    let n = 40_000u64;
    let mut counts = [0u64; 5];
    let mut rng = stream(8, 1, 0);
    let policy = CreationPolicy::default();
    for _ in 0..n {
        let mut h = Hero::new(create(&mut rng, &policy).character, 0);
        for _ in 2..=9 {
            let before = h.c.pm;
            level_up(&mut h, &mut rng, &p, &Stat::ALL, &t, &[]);
            let gain = h.c.pm - before;
            match h.level {
                8 => counts[gain as usize] += 1,
                // No PM die elsewhere (`later` gives nothing), bonuses go to HP.
                _ => assert_eq!(gain, 0, "level {}", h.level),
            }
        }
    }
    assert_eq!(counts[0], 0);
    for c in &counts[1..] {
        assert!(close(*c as f64 / n as f64, 0.25, n), "{counts:?}");
    }
}

#[test]
fn golden_build_policy_errors() {
    let dir = tempfile::tempdir().unwrap();
    let head = "system = \"cosmos\"\nkind = \"leveling\"\n[leveling]\n";
    let cases = [
        (
            format!("{head}level2_target = \"weights\"\n"),
            "key `leveling.stat_weights`: a stat target is \"weights\" but no weights are given; allowed: stat_weights = { stat = weight, ... } with stats among force, esprit, charisme, agilite, precision, chance",
        ),
        (
            format!("{head}level2_target = \"weights\"\nstat_weights = {{ forse = 2 }}\n"),
            "b1.toml:5:26: key `leveling.stat_weights.forse`: \"forse\" is not a stat; allowed: force, esprit, charisme, agilite, precision, chance",
        ),
        (
            format!("{head}stat_weights = {{ force = 0 }}\n"),
            "key `leveling.stat_weights`: every weight is 0; allowed: at least one weight in 1..1000",
        ),
        (
            format!("{head}[[leveling.schedule]]\nlevel = 5\n"),
            "key `leveling.schedule[0].level`: 5 is out of range; allowed: 6..30 (a level from 6",
        ),
        (
            format!("{head}[[leveling.schedule]]\nlevel = 7\n[[leveling.schedule]]\nlevel = 7\n"),
            "key `leveling.schedule[1].level`: level 7 is scheduled twice; allowed: each level at most once",
        ),
        (
            format!("{head}[[leveling.schedule]]\nlevel = 7\nstat_die = 7\n"),
            "key `leveling.schedule[0].stat_die`: d7 is not a die",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("b{i}.toml"), text);
        for cmd in ["check", "run"] {
            let mut c = bin();
            c.arg(cmd).arg(&p);
            if cmd == "run" {
                c.arg("--out").arg(dir.path().join("out"));
            }
            c.assert().code(2).stderr(predicates::str::contains(*want));
        }
    }
}

#[test]
fn a_one_weight_build_matches_the_main_priority_run() {
    use cosmosim::systems::cosmos::growth::scenarios::leveling::{model, LevelingSim};
    // The builds level copies of the main dice stream; with level-2 and level-6+ gains
    // aimed by the priority list [agilite, force, esprit, charisme, precision, chance] and a
    // build weighting agilite alone, both aim alike (ties in rulebook order), so the build's
    // per-level stat means equal the main run's exactly (C-LEVEL-1).
    let dir = tempfile::tempdir().unwrap();
    let text = "system = \"cosmos\"\nkind = \"leveling\"\n[creation]\nstat_assign = \"priority\"\npriority = [\"agilite\", \"force\", \"esprit\", \"charisme\", \"precision\", \"chance\"]\n[leveling]\nmax_level = 12\nlevel2_target = \"priority\"\n[leveling.later]\nstat_die = 20\nstat_count = 2\nstat_target = \"priority\"\n[[leveling.schedule]]\nlevel = 9\nstat_die = 100\nstat_count = 1\nstat_target = \"priority\"\n[[leveling.builds]]\nname = \"agile\"\nstat_weights = { agilite = 1 }\n[[leveling.builds]]\nname = \"clever\"\nstat_weights = { esprit = 1 }\n";
    let p = write(dir.path(), "one.toml", text);
    let (m, ..) = model(&ScenarioFile::read(&p, cosmosim::lang::Lang::En).unwrap()).unwrap();
    let acc = Engine::new(4, 2).unwrap().run(
        &LevelingSim::new(m, TestRules::default()),
        &cosmosim::engine::StreamKey::new("test").int("task", 3),
        3000,
        &Progress::hidden(),
    );
    let nq = 12;
    let mut esprit_differs = false;
    for l in 0..12 {
        for k in 0..6 {
            assert_eq!(
                acc.builds[0][l * 6 + k].mean,
                acc.moments[l * nq + k].mean,
                "level {} stat {k}",
                l + 1
            );
        }
        esprit_differs |= acc.builds[1][l * 6 + 1].mean > acc.moments[l * nq + 1].mean + 5.0;
    }
    assert!(esprit_differs, "an esprit build must raise esprit");
}
