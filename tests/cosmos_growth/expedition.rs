//! Expeditions and campaigns: fatigue over days (C-FAT), campaign karma, movement options
//! and golden errors.

use super::*;

#[test]
fn expedition_tracks_stay_in_range_and_reference_matches_exact() {
    use cosmosim::systems::cosmos::growth::scenarios::expedition::{
        model, ExpeditionSim, ReferenceTable, ReferenceTest,
    };
    use cosmosim::systems::cosmos::growth::PassiveTest;
    let f = ScenarioFile::read(
        std::path::Path::new("scenarios/cosmos/expedition.toml"),
        cosmosim::lang::Lang::En,
    )
    .unwrap();
    let (m, ..) = model(&f).unwrap();
    let rules = TestRules::default();
    let sim = ExpeditionSim::new(m, &rules).unwrap();
    let n = 20_000u64;
    let acc = Engine::new(3, 2).unwrap().run(
        &sim,
        &cosmosim::engine::StreamKey::new("test").int("task", 5),
        n,
        &Progress::hidden(),
    );
    for d in 0..acc.end.fp.len() {
        for mo in [&acc.worst, &acc.end] {
            // C-FAT-1: both tracks in -3..10 at both moments of the day.
            for t in [&mo.fp[d], &mo.fm[d]] {
                assert_eq!((t.below, t.above), (0, 0));
                assert_eq!(t.total(), n);
            }
        }
        // C-FAT-4: the worst point is never below the end of the day on average, and an
        // end-of-day exhaustion is also a worst-point one.
        let mean = |t: &cosmosim::engine::Tally| {
            t.iter().map(|(v, c)| v as f64 * c as f64).sum::<f64>() / n as f64
        };
        assert!(mean(&acc.worst.fp[d]) >= mean(&acc.end.fp[d]));
        assert!(acc.worst.exhausted[d].counts[1] >= acc.end.exhausted[d].counts[1]);
    }
    // The reference rate is the exact (FP, FM) table averaged over the simulated days.
    let table = |stat, concentrate| {
        ReferenceTable::new(
            &ReferenceTest {
                stat,
                threshold: 55.0,
                karma: 0,
                concentrate,
            },
            &rules,
            PassiveTest::Karma,
        )
        .unwrap()
    };
    let t = table(Stat::Agilite, None);
    assert_eq!(&sim.table, &t);
    // C-FAT-4 by hand: FP 8 (extreme) -> Agilité 55 - 30 = 25, crit band from 86:
    // scores 1..25 plus the natural 42.
    assert!((t.at(8, 0) - 0.26).abs() < 1e-12);
    // "FP = 10 : devient incapable de bouger, agir" (cosmos-current l. 438): any test.
    assert_eq!(t.at(10, 0), 0.0);
    // An Agilité test is not blocked by FM 10 alone (l. 441 blocks thought and speech).
    assert!((t.at(0, 10) - 0.55).abs() < 1e-12);
    // Esprit: FP 10 blocks it too (the old table read the FM track only), and FM 10.
    let e = table(Stat::Esprit, None);
    assert_eq!(e.at(10, 0), 0.0);
    assert_eq!(e.at(0, 10), 0.0);
    assert!((e.at(0, 6) - 0.45).abs() < 1e-12);
    // Charisme and Chance ignore the maluses but not exhaustion (C-FAT-4).
    for s in [Stat::Charisme, Stat::Chance] {
        let c = table(s, None);
        assert!((c.at(9, 9) - 0.55).abs() < 1e-12);
        assert_eq!(c.at(10, 3), 0.0);
    }
    assert_eq!(table(Stat::Charisme, None).at(3, 10), 0.0);
    // C-FAT-5 by hand, after a concentrate action (Esprit 60), FM fresh:
    // light (FP 4) ignored -> 55: 0.01 + 0.10 + 0.44 = 0.55;
    // moderate (FP 6) halved to -5 -> 50: 0.50;
    // extreme (FP 8) halved to -15 -> 40 (0.41) if the passive Esprit 60 test passes (0.60),
    // else -30 -> 25 (0.26): 0.6 * 0.41 + 0.4 * 0.26 = 0.35.
    let c = table(Stat::Agilite, Some(60.0));
    assert!((c.at(4, 0) - 0.55).abs() < 1e-12);
    assert!((c.at(6, 0) - 0.50).abs() < 1e-12);
    assert!((c.at(8, 0) - 0.35).abs() < 1e-12);
    // The passive test takes the FM malus: FM 8 (extreme, -30, crit band from 86) -> 30:
    // scores 1..30 and the natural 42 pass (0.31): 0.31 * 0.41 + 0.69 * 0.26 (a passive
    // crit failure moves karma to +1, below the die's 5).
    assert!((c.at(8, 8) - (0.31 * 0.41 + 0.69 * 0.26)).abs() < 1e-12);
    // "ne pas être en état d'épuisement mental" (l. 449): FM 10, no halving.
    assert!((c.at(8, 10) - 0.26).abs() < 1e-12);
    assert_eq!(c.at(10, 0), 0.0);
}

#[test]
fn shipped_expedition_with_an_esprit_test_reads_about_0_40_on_days_5_and_6() {
    // Issue 10 item 1 (C-FAT-4): the audit's reading of expedition.toml with the reference
    // test on the traveller's Esprit 55. The old one-track table gave 0.51 / 0.49 on days
    // 5-6 (at the end of the day); blocking the test at FP 10 gives about 0.40.
    use cosmosim::systems::cosmos::growth::scenarios::expedition::{model, ExpeditionSim};
    let text = std::fs::read_to_string("scenarios/cosmos/expedition.toml")
        .unwrap()
        .replace("stat = \"agilite\"", "stat = \"esprit\"");
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "esprit.toml", &text);
    let f = ScenarioFile::read(&path, cosmosim::lang::Lang::En).unwrap();
    let (m, ..) = model(&f).unwrap();
    let sim = ExpeditionSim::new(m, &TestRules::default()).unwrap();
    let acc = Engine::new(1, 2).unwrap().run(
        &sim,
        &cosmosim::engine::StreamKey::new("test").int("task", 1),
        50_000,
        &Progress::hidden(),
    );
    for d in [4, 5] {
        let p = acc.end.reference[d].mean;
        assert!((p - 0.40).abs() < 0.02, "day {}: {p}", d + 1);
    }
}

// ---------- campaign karma ----------

#[test]
fn campaign_shares_match_the_exact_chain() {
    // C-KARMA-3 on a mix: simulated long-run shares within 5 standard errors of exact.
    let f = ScenarioFile::read(
        std::path::Path::new("scenarios/cosmos/campaign.toml"),
        cosmosim::lang::Lang::En,
    )
    .unwrap();
    let o = cosmosim::systems::RunOverrides {
        trials: Some(20_000),
        quiet: true,
        ..Default::default()
    };
    let r = cosmosim::systems::cosmos::growth::scenarios::campaign::run(&f, &o).unwrap();
    let s = r
        .outputs
        .iter()
        .find(|o| o.name == "campaign-stationary")
        .unwrap();
    let col = |n: &str| -> Vec<f64> {
        s.frame
            .column(n)
            .unwrap()
            .f64()
            .unwrap()
            .into_no_null_iter()
            .collect()
    };
    let (e, lo, hi) = (
        col("share_exact_no_postures"),
        col("share_mc_none_lo"),
        col("share_mc_none_hi"),
    );
    for i in 0..21 {
        // The 95% half-width is ~2 standard errors; allow 2.5 half-widths (= 5 se).
        let half = (hi[i] - lo[i]) / 2.0;
        let mid = (hi[i] + lo[i]) / 2.0;
        assert!(
            (mid - e[i]).abs() <= 2.5 * half + 1e-4,
            "karma {}: {mid} vs {}",
            i as i64 - 10,
            e[i]
        );
    }
}

#[test]
fn options_change_the_movement_table() {
    // C-MOVE option sprint_fatigue_order: after the multiplier, an extreme FP sprinter
    // (Agilité 55, -2 units) covers 4 instead of 2 on a plain success.
    let dir = tempfile::tempdir().unwrap();
    let row = |opt: &str| -> String {
        let out = dir.path().join(opt);
        bin()
            .args([
                "-q",
                "table",
                "cosmos-movement",
                "--agility",
                "55",
                "--loads",
                "20",
                "--fp",
                "8",
                "--option",
                opt,
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        let csv = std::fs::read_to_string(out.join("cosmos-movement.csv")).unwrap();
        csv.lines().nth(1).unwrap().to_string()
    };
    assert!(row("sprint_fatigue_order=before").starts_with("55,50,20,20,0,8,extreme,1,1,2,2,3,"));
    assert!(row("sprint_fatigue_order=after").starts_with("55,50,20,20,0,8,extreme,1,1,4,5,7,"));
    bin()
        .args([
            "table",
            "cosmos-movement",
            "--option",
            "sprint_fatigue_order=never",
        ])
        .assert()
        .code(2);
}

#[test]
fn golden_expedition_and_campaign_errors() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "ex.toml",
        "system = \"cosmos\"\nkind = \"expedition\"\n[expedition]\ndays = 3\n[expedition.traveller]\nforce = 50\nesprit = 50\n[expedition.day]\nmeals = 4\n[expedition.reference_test]\nstat = \"agilite\"\nthreshold = 55\n",
    );
    bin()
        .arg("check")
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "ex.toml:9:9: key `expedition.day.meals`: 4 is out of range; allowed: 0..3",
        ));
    let p = write(
        dir.path(),
        "ex2.toml",
        "system = \"cosmos\"\nkind = \"expedition\"\n[expedition]\ndays = 3\n[expedition.traveller]\nforce = 50\nesprit = 50\n[expedition.day]\n[[expedition.changes]]\ndays = [5]\n[expedition.reference_test]\nstat = \"agilite\"\nthreshold = 55\n",
    );
    bin().arg("check").arg(&p).assert().code(2).stderr(predicates::str::contains(
        "ex2.toml:10:9: key `expedition.changes[0].days[0]`: day 5 is outside the expedition; allowed: 1..3",
    ));
    // A day in two change blocks is refused at its second mention (audit of 2026-12-07,
    // night: the later block won silently).
    let p = write(
        dir.path(),
        "ex3.toml",
        "system = \"cosmos\"\nkind = \"expedition\"\n[expedition]\ndays = 3\n[expedition.traveller]\nforce = 50\nesprit = 50\n[expedition.day]\n[[expedition.changes]]\ndays = [1, 2]\nmeals = 1\n[[expedition.changes]]\ndays = [3, 2]\nmeals = 0\n[expedition.reference_test]\nstat = \"agilite\"\nthreshold = 55\n",
    );
    for args in [vec!["check"], vec!["run", "--out", "o"]] {
        bin().current_dir(dir.path()).args(&args[..1]).arg(&p).args(&args[1..]).assert().code(2).stderr(predicates::str::contains(
            "ex3.toml:13:12: key `expedition.changes[1].days[1]`: day 2 is already changed by `expedition.changes[0]`; `expedition.changes[1]` changes it again, and a day is changed once; allowed: each day in one block only",
        ));
    }
    let p = write(
        dir.path(),
        "ca.toml",
        "system = \"cosmos\"\nkind = \"campaign\"\n[campaign]\ntests = 100\n[[campaign.thresholds]]\nthreshold = 50\n[campaign.postures]\nevery_tests = 10\nlength_tests = 10\nkind = \"alternate\"\n",
    );
    bin()
        .arg("check")
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "ca.toml:9:16: key `campaign.postures.length_tests`: 10 is out of range; allowed: 1..9",
        ));
}
