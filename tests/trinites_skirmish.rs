//! Trinités skirmishes (T-TEST, T-DUAL, T-CONF, T-LIFE, T-COMBAT): the exact one-attack
//! exchange by hand and against the sampler, a first round against the exact exchange,
//! range and cover, determinism across threads, golden CSVs and located errors.

mod common;

use std::path::Path;

use assert_cmd::Command;
use cosmosim::commands::run_scenario;
use cosmosim::engine::{stream, Engine, Progress};
use cosmosim::report::Chart;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::trinites::skirmish::{exchange, load, roll_hit, simulation, StrikeMods};
use cosmosim::systems::trinites::{side_dist, DualKeep, TrinitesRules, EXPLODE_DEPTH, TARGET};
use cosmosim::systems::RunOverrides;

use common::cli::check_and_run_error;

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

/// A shooter (side a) against a swordsman (side b) who must cross `gap` metres to reach
/// him; one round, in which B, surprised (T-COMBAT: his die starts en retrait), has no
/// turn.
fn shootout(shooter: &str, target: &str, gap: i64) -> String {
    format!(
        "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
         [[weapons]]\nname = \"fusil\"\ndamage = 9\nrange = 20\n\
         [[weapons]]\nname = \"epee\"\ndamage = 4\nsword = true\n\
         [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 3\nattack = 5\nreaction = 2\nweapon = \"fusil\"\ndistance = {gap}\n{shooter}\n\
         [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 3\nattack = 5\nreaction = 4\ndodge = 3\nathletics = -12\nweapon = \"epee\"\nsurprised = true\n{target}\n"
    )
}

// ------------------------------------------------------------- one exchange (exact)

#[test]
fn exchange_by_hand() {
    // T-COMBAT Tirer: 30 m with range 20 is between the range and its double: difficulty
    // 0; kneeling -1; so +10. T-TEST: at +10 one d12 fails only on a natural 1: 1/12.
    let text = shootout("", "cover = \"kneeling\"", 30)
        .replace("attack = 5\nreaction = 2", "attack = 11\nreaction = 2");
    let m = load(&ScenarioFile::from_text(
        "s.toml",
        &text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    let e = exchange(&m, 0, 1, &TrinitesRules::default()).unwrap();
    assert_eq!((e.distance, e.attack_modifier), (30, 10));
    assert_eq!(e.reaction_modifier, 3); // Esquive against a shot, no engaged malus
    let p_fail_10 = side_dist(false, 10, DualKeep::Highest, TARGET, EXPLODE_DEPTH).p_fail;
    assert!((p_fail_10 - 1.0 / 12.0).abs() < 1e-12);
    assert!((e.p_attack_fails - p_fail_10).abs() < 1e-12);
    assert!((e.p_attack_fails + e.p_stopped + e.p_hit - 1.0).abs() < 1e-12);
    // 9 damage, no protection: a human's 9th box is the first of the third line.
    assert_eq!((e.damage_per_hit, e.hits_to_knock_out), (9, Some(1)));
    // Beyond three times the range the shot is impossible (Tirer).
    let far = shootout("", "", 61);
    let m = load(&ScenarioFile::from_text(
        "s.toml",
        &far,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    assert!(exchange(&m, 0, 1, &TrinitesRules::default()).is_none());
}

#[test]
fn sampled_strikes_agree_with_exact() {
    // T-CONF through the sampler the skirmish uses: |freq - p| within 5 standard errors at
    // a fixed seed, single and dual dice, with and without the reaction succeeding often.
    let n = 300_000u64;
    for (k, (a, r, ad, rd)) in [
        (5, 4, false, false),
        (3, 6, true, false),
        (8, 2, false, true),
        (0, 0, true, true),
    ]
    .into_iter()
    .enumerate()
    {
        let keep = DualKeep::Highest;
        let sa = side_dist(ad, a, keep, TARGET, EXPLODE_DEPTH);
        let sr = side_dist(rd, r, keep, TARGET, EXPLODE_DEPTH);
        let p = cosmosim::systems::trinites::confront(&sa, &sr).a_wins;
        let mut rng = stream(11, k as u64, 0);
        let mods = StrikeMods {
            attack: a,
            reaction: Some(r),
        };
        let hits = (0..n)
            .filter(|_| roll_hit(&mut rng, mods, ad, rd, keep, TARGET))
            .count() as f64;
        let f = hits / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((f - p).abs() <= 5.0 * se, "case {k}: {f} vs exact {p}");
    }
}

// ------------------------------------------------------------- whole fights

/// P(side a wins in round 1) over `n` fights at `seed`.
fn first_round_win(text: &str, seed: u64, n: u64) -> f64 {
    let m = load(&ScenarioFile::from_text(
        "s.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    let sim = simulation(&m, TrinitesRules::default());
    let acc = Engine::new(seed, 2).unwrap().run(
        &sim,
        &cosmosim::engine::StreamKey::new("test").int("task", 0),
        n,
        &Progress::hidden(),
    );
    acc.outcomes[0] as f64 / n as f64
}

#[test]
fn first_round_matches_the_exact_exchange() {
    // B, surprised, has no turn in round 1, so only A's shot can end the fight, and a hit
    // (9 boxes) knocks a human out (T-LIFE): P(a wins in round 1) = the exchange's exact
    // P(hit).
    let n = 200_000u64;
    for (k, (shooter, target, gap)) in [
        ("", "", 50),                     // 2×range < 50 <= 3×range: -6
        ("", "cover = \"lamppost\"", 30), // 0, lamppost -3
        ("attacks_per_turn = 2", "", 15), // +3, two free actions -3
        (
            "prime = \"efficacite\"\npenalty = \"facilite\"",
            "trinite = true",
            25,
        ),
    ]
    .into_iter()
    .enumerate()
    {
        let text = shootout(shooter, target, gap);
        let m = load(&ScenarioFile::from_text(
            "s.toml",
            &text,
            cosmosim::lang::Lang::En,
        ))
        .unwrap();
        let e = exchange(&m, 0, 1, &TrinitesRules::default()).unwrap();
        // A Trinité (24 boxes) is not knocked out by one 9-box hit: then P = 0.
        let p = if m.groups[1].profile.trinite {
            0.0
        } else if shooter.contains("attacks_per_turn = 2") {
            // Two shots: the second only if the first missed, same exact P(hit) each.
            1.0 - (1.0 - e.p_hit) * (1.0 - e.p_hit)
        } else {
            e.p_hit
        };
        let f = first_round_win(&text, 3, n);
        let se = (p * (1.0 - p) / n as f64).sqrt().max(1e-9);
        assert!((f - p).abs() <= 5.0 * se, "case {k}: {f} vs exact {p}");
    }
}

#[test]
fn surprised_fighters_lose_the_first_round() {
    // T-COMBAT: a surprised fighter's die starts en retrait, so he has no turn in round 1;
    // B (surprised, in reach) cannot strike back, and A, in the same spot, always acts.
    let text = "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
        [[weapons]]\nname = \"hache\"\ndamage = 20\n\
        [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 0\nattack = 24\nreaction = 0\nweapon = \"hache\"\n\
        [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 12\nattack = 24\nreaction = -12\nweapon = \"hache\"\nsurprised = true\n";
    let n = 20_000u64;
    let f = first_round_win(text, 5, n);
    // A's strike at +24 against B's reaction at -12 - 1 (one engaged foe), both one d12
    // (T-CONF); 20 damage kills a human.
    let keep = DualKeep::Highest;
    let p = cosmosim::systems::trinites::confront(
        &side_dist(false, 24, keep, TARGET, EXPLODE_DEPTH),
        &side_dist(false, -13, keep, TARGET, EXPLODE_DEPTH),
    )
    .a_wins;
    let se = (p * (1.0 - p) / n as f64).sqrt();
    assert!((f - p).abs() <= 5.0 * se, "{f} vs exact {p}");
}

// ------------------------------------------------------------- CLI

fn run_csvs(threads: &str, dir: &Path) {
    cosmosim()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "scenarios/trinites/skirmish.toml",
            "--trials",
            "20000",
        ])
        .args(["--seed", "1", "--threads", threads, "-q", "--out"])
        .arg(dir)
        .assert()
        .success();
}

#[test]
fn shipped_skirmish_matches_golden_csvs_for_any_threads() {
    // Golden files written by this version at --trials 20000 --seed 1 (any --threads).
    let a = tempfile::tempdir().unwrap();
    let b = tempfile::tempdir().unwrap();
    run_csvs("1", a.path());
    run_csvs("2", b.path());
    for (name, golden) in [
        (
            "trinites-skirmish-sides.csv",
            include_str!("golden/trinites-skirmish-sides.csv"),
        ),
        (
            "trinites-skirmish-combatants.csv",
            include_str!("golden/trinites-skirmish-combatants.csv"),
        ),
        (
            "trinites-skirmish-exchanges.csv",
            include_str!("golden/trinites-skirmish-exchanges.csv"),
        ),
    ] {
        let got = std::fs::read_to_string(a.path().join(name)).unwrap();
        let got2 = std::fs::read_to_string(b.path().join(name)).unwrap();
        assert_eq!(got, got2, "{name}: --threads changed the result");
        assert_eq!(got, golden, "{name}");
    }
    let summary = std::fs::read_to_string(a.path().join("summary.md")).unwrap();
    // The question is answered at the top.
    assert!(summary.contains("## Answers\n\n- Outcome over 20000 skirmishes: adam wins"));
    for png in [
        "trinites-skirmish-sides.png",
        "trinites-skirmish-combatants.png",
        "trinites-skirmish-rounds.png",
        "trinites-skirmish-exchanges.png",
    ] {
        assert!(a.path().join(png).exists(), "{png}");
    }
}

#[test]
fn located_errors() {
    let good = shootout("", "", 30);
    let e = check_and_run_error(&good.replace("weapon = \"epee\"\n", "weapon = \"hache\"\n"));
    assert!(
        e.contains("bad.toml:") && e.contains("group[1].weapon") && e.contains("\"fusil\""),
        "{e}"
    );
    let e = check_and_run_error(&good.replace("side = \"b\"", "side = \"a\""));
    assert!(e.contains("at least two sides"), "{e}");
    let e = check_and_run_error(&(good.clone() + "cover = \"bunker\"\n"));
    assert!(
        e.contains("group[1].cover") && e.contains("\"head_only\""),
        "{e}"
    );
    // PRIMES & PÉNALITÉS: abandon_position needs an advantageous position.
    let e = check_and_run_error(
        &(good.clone() + "prime = \"efficacite\"\npenalty = \"abandon_position\"\n"),
    );
    assert!(
        e.contains("group[1].penalty") && e.contains("advantageous position"),
        "{e}"
    );
    let e = check_and_run_error(&(good.clone() + "prime = \"efficacite\"\n"));
    assert!(e.contains("a prime needs a pénalité"), "{e}");
    // T-LIFE: only an Adam' has Karma.
    let e = check_and_run_error(&(good.clone() + "deva_karma = 3\n"));
    assert!(
        e.contains("group[1].deva_karma") && e.contains("trinite = true"),
        "{e}"
    );
    // Group names are unique; the refusal names the ones in use (audit of 2026-12-08,
    // the same as a Nephilim duel's fighters and a firefight's combatants).
    let e = check_and_run_error(&good.replace("name = \"B\"", "name = \"A\""));
    assert!(
        e.contains("bad.toml:") && e.contains("group[1].name") && e.contains("in use: \"A\""),
        "{e}"
    );
    let e = check_and_run_error(&(good.clone() + "count = 9\n"));
    assert!(e.contains("group[1].count") && e.contains("1..8"), "{e}");
    let e = check_and_run_error(&good.replace("max_rounds = 1", "max_rounds = 101"));
    assert!(
        e.contains("combat.max_rounds") && e.contains("1..100"),
        "{e}"
    );
    let e = check_and_run_error(&good.replace("range = 20", "range = 0"));
    assert!(
        e.contains("weapons[0].range") && e.contains("1..500"),
        "{e}"
    );
    let e =
        check_and_run_error(&good.replace("attack = 5\nreaction = 4", "attack = 25\nreaction = 4"));
    assert!(
        e.contains("group[1].attack") && e.contains("-12..24"),
        "{e}"
    );
    let e = check_and_run_error(&(good.clone() + "parry = 3\n"));
    assert!(e.contains("parry"), "{e}");
    // Too many combatants over every group.
    let many = good.replace("[[group]]\nname = \"B\"", "count = 8\n[[group]]\nname = \"B\"")
        + "count = 8\n[[group]]\nname = \"C\"\nside = \"c\"\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"epee\"\n";
    let e = check_and_run_error(&many);
    assert!(
        e.contains("17 combatants") && e.contains("at most 16"),
        "{e}"
    );
}

// ------------------------------------------------------------- [pairs]

#[test]
fn pairs_heatmap_is_labelled_with_the_names() {
    // PRIMES & PÉNALITÉS: every pair of the shooter in cover (abandon_position included),
    // few skirmishes each; the heatmap's axes carry names, never indices.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/trinites/skirmish.toml");
    let o = RunOverrides {
        trials: Some(200),
        threads: 2,
        quiet: true,
        ..Default::default()
    };
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("trials = 5000", "trials = 50");
    let dir = tempfile::tempdir().unwrap();
    let small = dir.path().join("skirmish.toml");
    std::fs::write(&small, text).unwrap();
    let r = run_scenario(&small, &o, cosmosim::lang::Lang::En).unwrap();
    let pairs = r
        .outputs
        .iter()
        .find(|o| o.name == "trinites-skirmish-pairs")
        .expect("a pairs output");
    // 8 primes × 6 pénalités, none/none, and 8 primes with abandon_position.
    assert_eq!(pairs.frame.height(), 8 * 6 + 1 + 8);
    let heat = pairs.figures[0]
        .panels
        .iter()
        .find_map(|c| match c {
            Chart::Heatmap(h) => Some(h),
            _ => None,
        })
        .expect("a heatmap with list = \"all\"");
    assert_eq!(heat.columns[0], "none");
    assert!(heat.columns.contains(&"blessure_grave".to_string()));
    assert_eq!(heat.rows.last().unwrap(), "abandon_position");
    assert!(heat.rows.contains(&"ralentissement".to_string()));
    assert!(
        heat.values[0][1].is_nan(),
        "prime without pénalité is impossible: grey"
    );
    assert!(
        r.summary.contains("Best prime/pénalité pair for tireuse"),
        "{}",
        r.summary
    );
}

#[test]
fn pairs_errors_are_located() {
    let good = shootout("", "", 30) + "[pairs]\ngroup = \"A\"\n";
    let e = check_and_run_error(&good.replace("group = \"A\"", "group = \"Z\""));
    assert!(
        e.contains("pairs.group") && e.contains("\"A\", \"B\""),
        "{e}"
    );
    // A has no cover: abandon_position is no pair for it.
    let e =
        check_and_run_error(&(good.clone() + "list = [[\"efficacite\", \"abandon_position\"]]\n"));
    assert!(e.contains("pairs.list[0]") && e.contains("no cover"), "{e}");
    let e = check_and_run_error(
        &(good.clone() + "list = [[\"none\", \"none\"], [\"none\", \"none\"]]\n"),
    );
    assert!(e.contains("pairs.list[1]") && e.contains("twice"), "{e}");
    let e = check_and_run_error(&(good.clone() + "list = [[\"efficacite\", \"none\"]]\n"));
    assert!(
        e.contains("pairs.list[0]") && e.contains("a prime needs a pénalité"),
        "{e}"
    );
    let e = check_and_run_error(&(good.clone() + "trials = 0\n"));
    assert!(
        e.contains("pairs.trials") && e.contains("1..1000000"),
        "{e}"
    );
}
