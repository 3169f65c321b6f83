//! Rule parameters of the 2d20, Nephilim and Trinités systems (issue 16): each default
//! gives today's bytes (a run with the option at its book value against a run without it,
//! same seed), and a changed value moves the figure it should — hand-computed where the
//! arithmetic is short, exact against Monte Carlo under the new value otherwise.

mod common;

use common::others::{column, defaults_are_todays_bytes, ok, table};
use common::params::{cosmosim, csvs};

const FIREFIGHT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/fallout/firefight.toml"
);
const AP_ECONOMY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/fallout/ap-economy.toml"
);

// ---------------------------------------------------------------- 2d20 (F-TEST)

const FALLOUT_TEST: &[&str] = &[
    "table",
    "fallout-test",
    "--tn",
    "2..12",
    "--difficulty",
    "0..3",
    "--dice",
    "2..3",
];

#[test]
fn fallout_crit_face_default_gives_todays_bytes() {
    defaults_are_todays_bytes(
        &[
            FALLOUT_TEST,
            &[
                "table",
                "fallout-test",
                "--tn",
                "4..8",
                "--method",
                "mc",
                "--trials",
                "2000",
            ],
            &["table", "fallout-help", "--tn", "6..9", "--helper-tn", "8"],
            &["table", "fallout-luck", "--tn", "6..9"],
            &["run", FIREFIGHT, "--trials", "5000"],
            &["run", AP_ECONOMY, "--trials", "5000"],
        ],
        &["fallout_crit_face=1"],
    );
}

/// F-TEST, `fallout_crit_face` = 3 at TN 10, 2d20, difficulty 1: a die gives 2 successes
/// on 1-3 (3/20), 1 on 4-10 (7/20), so E[S] = 2 x 13/20 = 1.3 against the book's 1.1;
/// P(pass) = 1 - (10/20)^2 = 0.75 either way (a crit changes counts, not passes), and
/// E[AP] = E[S] - P(S >= 1) = 0.55 against 0.35.
#[test]
fn fallout_crit_face_moves_expected_ap_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let args = &[
        "table",
        "fallout-test",
        "--tn",
        "10",
        "--difficulty",
        "1",
        "--dice",
        "2",
        "--tag-rank",
        "0",
    ];
    ok(t, args, "book", &[]);
    ok(t, args, "three", &["fallout_crit_face=3"]);
    let f = |out: &str, c: &str| column(&t.join(out).join("fallout-test.csv"), c)[0];
    assert!((f("book", "mean_ap") - 0.35).abs() < 1e-9);
    assert!((f("three", "mean_ap") - 0.55).abs() < 1e-9);
    assert!((f("three", "p_pass") - 0.75).abs() < 1e-9);
    assert_eq!(f("three", "p_complication"), f("book", "p_complication"));
}

/// The exact table under `fallout_crit_face` = 4 against its Monte Carlo: every cell's
/// exact P(pass) and E[AP] within twice the 95% half-width of the estimate (about 4
/// standard errors: a miss is a bug, not chance, across these 44 cells).
#[test]
fn fallout_crit_face_exact_matches_monte_carlo_off_book() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let grid = [
        "table",
        "fallout-test",
        "--tn",
        "3..13",
        "--difficulty",
        "0..3",
        "--dice",
        "3",
        "--tag-rank",
        "0",
    ];
    ok(t, &grid, "exact", &["fallout_crit_face=4"]);
    let mut mc = grid.to_vec();
    mc.extend(["--method", "mc", "--trials", "40000"]);
    ok(t, &mc, "mc", &["fallout_crit_face=4"]);
    ok(t, &grid, "book", &[]);
    let e = |c: &str| column(&t.join("exact").join("fallout-test.csv"), c);
    let m = |c: &str| column(&t.join("mc").join("fallout-test-mc.csv"), c);
    for fig in ["p_pass", "mean_ap"] {
        let (ex, est, lo, hi) = (
            e(fig),
            m(fig),
            m(&format!("{fig}_lo")),
            m(&format!("{fig}_hi")),
        );
        for i in 0..ex.len() {
            let half = (hi[i] - lo[i]) / 2.0;
            assert!(
                (ex[i] - est[i]).abs() <= 2.0 * half + 1e-12,
                "{fig} row {i}: exact {} mc {} [{}, {}]",
                ex[i],
                est[i],
                lo[i],
                hi[i]
            );
        }
    }
    // More crits, more AP wherever a pass is possible; never fewer.
    let book = column(&t.join("book").join("fallout-test.csv"), "mean_ap");
    let wide = e("mean_ap");
    assert!(book.iter().zip(&wide).all(|(b, w)| w >= b));
    assert!(book.iter().zip(&wide).any(|(b, w)| *w > b + 0.1));
}

/// F-TEST off-book in a scenario: ap-economy.toml's first test (TN 11, difficulty 1,
/// 2d20, no bonus die bought) earns E[AP] = E[S] - P(S >= 1): book 1.2 - 0.7975 = 0.4025,
/// crit face 3: 1.4 - 0.7975 = 0.6025, so the pool after it grows by 0.2 AP on average.
#[test]
fn fallout_crit_face_reaches_scenarios() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let args = &["run", AP_ECONOMY, "--trials", "40000"];
    ok(t, args, "book", &[]);
    ok(t, args, "three", &["fallout_crit_face=3"]);
    let f = |out: &str, c: &str| column(&t.join(out).join("ap-flow.csv"), c)[0];
    let gain = f("three", "mean_pool_after") - f("book", "mean_pool_after");
    assert!((gain - 0.2).abs() < 0.03, "{gain}");
    // The exact P(pass) without bought dice is unchanged at difficulty 1.
    assert_eq!(f("three", "p_pass_no_buy"), f("book", "p_pass_no_buy"));
    // Firefights: the option reaches the combat model (its exact P(hit) column moves).
    ok(t, &["run", FIREFIGHT, "--trials", "2000"], "fb", &[]);
    ok(
        t,
        &["run", FIREFIGHT, "--trials", "2000"],
        "f6",
        &["fallout_crit_face=6"],
    );
    assert_ne!(csvs(&t.join("fb")), csvs(&t.join("f6")));
}

#[test]
fn fallout_crit_face_out_of_range_exits_2_with_the_range() {
    let d = tempfile::tempdir().unwrap();
    for v in ["0", "7"] {
        let opt = format!("fallout_crit_face={v}");
        let o = cosmosim(
            d.path(),
            &["table", "fallout-test", "--out", "x", "--option", &opt],
        );
        assert_eq!(o.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&o.stderr).contains("from 1 to 6"));
    }
}

// ---------------------------------------------------------------- Trinités (T-RETRY, T-COMBAT)

const TRINITES_DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/trinites/duel.toml");
const TRINITES_SKIRMISH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/trinites/skirmish.toml"
);

#[test]
fn trinites_maluses_default_give_todays_bytes() {
    defaults_are_todays_bytes(
        &[
            &["table", "trinites-test"],
            &[
                "table",
                "trinites-test",
                "--method",
                "mc",
                "--trials",
                "2000",
            ],
            &["run", TRINITES_DUEL, "--trials", "3000"],
            &["run", TRINITES_SKIRMISH, "--trials", "3000"],
        ],
        &["trinites_retry_malus=3", "trinites_free_action_malus=3"],
    );
}

/// T-RETRY by hand, one d12 at +5: the first try succeeds on 7..12 (1/2; a 12 explodes
/// and still succeeds). The retry at +5 - malus: book 3 -> +2, naturals 10..12, 1/4, so
/// 1/2 + 1/2 x 1/4 = 0.625; malus 0 -> 1/2 + 1/4 = 0.75; malus 6 -> -1 needs 13+, only an
/// exploded 12, 1/12, so 1/2 + 1/24.
#[test]
fn trinites_retry_malus_moves_the_retry_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let retry = |out: &str, opts: &[&str]| {
        ok(t, &["table", "trinites-test"], out, opts);
        let path = t.join(out).join("trinites-test.csv");
        let (head, rows) = table(&path);
        let at = |c: &str| head.iter().position(|h| h == c).unwrap();
        let row = rows
            .iter()
            .find(|r| r[at("modifier")] == "5" && r[at("dual")] == "false")
            .unwrap();
        let f = |c: &str| row[at(c)].parse::<f64>().unwrap();
        (f("p_success"), f("p_success_retry"))
    };
    let (p, book) = retry("book", &[]);
    assert!(
        (p - 0.5).abs() < 1e-12 && (book - 0.625).abs() < 1e-12,
        "{book}"
    );
    let (p0, free) = retry("free", &["trinites_retry_malus=0"]);
    assert_eq!(p0, p);
    assert!((free - 0.75).abs() < 1e-9, "{free}");
    let (_, hard) = retry("hard", &["trinites_retry_malus=6"]);
    assert!((hard - (0.5 + 0.5 / 12.0)).abs() < 1e-9, "{hard}");
}

/// T-COMBAT off-book, exact against Monte Carlo: a shooter declaring two shots takes
/// -`trinites_free_action_malus` on both. The skirmish's exact exchange under malus 6 has
/// its attack modifier 6 below the malus-0 one (the book's 3 in the middle), and the
/// first-round win rate of the Monte Carlo fight (the surprised target has no turn, a hit
/// knocks it out) matches 1 - (1 - P(hit))^2 within 5 standard errors.
#[test]
fn trinites_free_action_malus_exact_matches_monte_carlo_off_book() {
    use cosmosim::engine::{Engine, Progress};
    use cosmosim::rules::RuleOptions;
    use cosmosim::scenario::ScenarioFile;
    use cosmosim::systems::trinites::skirmish::{exchange, load, simulation};
    use cosmosim::systems::trinites::TrinitesRules;

    let text = "system = \"trinites\"\nkind = \"skirmish\"\n[combat]\nmax_rounds = 1\n\
         [[weapons]]\nname = \"fusil\"\ndamage = 9\nrange = 20\n\
         [[weapons]]\nname = \"epee\"\ndamage = 4\nsword = true\n\
         [[group]]\nname = \"A\"\nside = \"a\"\nrapidite = 3\nattack = 8\nreaction = 2\nweapon = \"fusil\"\ndistance = 15\nattacks_per_turn = 2\n\
         [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 3\nattack = 5\nreaction = 4\ndodge = 3\nathletics = -12\nweapon = \"epee\"\nsurprised = true\n";
    let m = load(&ScenarioFile::from_text(
        "s.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    let rules = |v: &str| {
        TrinitesRules::from_options(
            &RuleOptions::from_pairs(
                &[format!("trinites_free_action_malus={v}")],
                cosmosim::lang::Lang::En,
            )
            .unwrap(),
        )
    };
    let (r0, r3, r6) = (rules("0"), rules("3"), rules("6"));
    assert_eq!(r3, TrinitesRules::default());
    let e = |r: &TrinitesRules| exchange(&m, 0, 1, r).unwrap();
    assert_eq!(e(&r0).attack_modifier - e(&r3).attack_modifier, 3);
    assert_eq!(e(&r0).attack_modifier - e(&r6).attack_modifier, 6);
    assert!(e(&r6).p_hit < e(&r3).p_hit && e(&r3).p_hit < e(&r0).p_hit);
    let n = 200_000u64;
    for r in [r0, r6] {
        let p_hit = e(&r).p_hit;
        let p = 1.0 - (1.0 - p_hit) * (1.0 - p_hit);
        let sim = simulation(&m, r);
        let acc = Engine::new(5, 2).unwrap().run(
            &sim,
            &cosmosim::engine::StreamKey::new("test").int("task", 0),
            n,
            &Progress::hidden(),
        );
        let f = acc.outcomes[0] as f64 / n as f64;
        let se = (p * (1.0 - p) / n as f64).sqrt();
        assert!((f - p).abs() <= 5.0 * se, "{f} vs exact {p}");
    }
}

#[test]
fn trinites_maluses_out_of_range_exit_2_with_the_range() {
    let d = tempfile::tempdir().unwrap();
    for opt in ["trinites_retry_malus=13", "trinites_free_action_malus=-1"] {
        let o = cosmosim(
            d.path(),
            &["table", "trinites-test", "--out", "x", "--option", opt],
        );
        assert_eq!(o.status.code(), Some(2), "{opt}");
        assert!(
            String::from_utf8_lossy(&o.stderr).contains("from 0 to 12"),
            "{opt}"
        );
    }
}

// ---------------------------------------------------------------- Nephilim (N-INIT)

const NEPHILIM_DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/nephilim/duel.toml");

#[test]
fn nephilim_action_parameters_default_give_todays_bytes() {
    defaults_are_todays_bytes(
        &[
            &["run", NEPHILIM_DUEL, "--trials", "3000"],
            &[
                "table",
                "nephilim-magic",
                "--method",
                "mc",
                "--trials",
                "500",
            ],
            &["table", "nephilim-initiative"],
        ],
        &[
            "nephilim_extra_action_step=6",
            "nephilim_extra_action_malus=4",
        ],
    );
}

/// N-INIT: the malus of extra actions lands on every attack and parry of the fighter. The
/// fencer declaring 2 actions with attack and parry 3 under the book's 4 rolls exactly
/// what it rolls with attack and parry -1 under malus 0: same streams, same finals, so
/// the outcome and round CSVs are byte-identical. Under malus 0 with its own scores the
/// fencer wins more than under the book.
#[test]
fn nephilim_extra_action_malus_is_a_score_shift() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    // One stream name for both files: the same draws whatever the scores say.
    let text = std::fs::read_to_string(NEPHILIM_DUEL).unwrap().replacen(
        "[run]\n",
        "[run]\nstream = \"shift\"\n",
        1,
    );
    let two = text.replacen("actions = 1", "actions = 2", 1);
    assert_ne!(two, text);
    let shifted =
        two.replacen("attack = 3 ", "attack = -1 ", 1)
            .replacen("defence = 3 ", "defence = -1 ", 1);
    assert_ne!(shifted, two);
    std::fs::write(t.join("two.toml"), &two).unwrap();
    std::fs::write(t.join("shifted.toml"), &shifted).unwrap();
    let args = |f: &'static str| ["run", f, "--trials", "20000"];
    ok(t, &args("two.toml"), "book", &[]);
    ok(
        t,
        &args("shifted.toml"),
        "shift",
        &["nephilim_extra_action_malus=0"],
    );
    ok(
        t,
        &args("two.toml"),
        "free",
        &["nephilim_extra_action_malus=0"],
    );
    for f in ["duel-outcome.csv", "duel-rounds.csv"] {
        assert_eq!(
            std::fs::read_to_string(t.join("book").join(f)).unwrap(),
            std::fs::read_to_string(t.join("shift").join(f)).unwrap(),
            "{f}"
        );
    }
    // The summary says the malus in force.
    let summary = |out: &str| std::fs::read_to_string(t.join(out).join("summary.md")).unwrap();
    assert!(
        summary("book").contains("(-4 per extra action"),
        "{}",
        summary("book")
    );
    assert!(
        summary("free").contains("(-0 per extra action"),
        "{}",
        summary("free")
    );
    let wins = |out: &str| column(&t.join(out).join("duel-outcome.csv"), "p")[0];
    assert!(
        wins("free") > wins("book") + 0.05,
        "{} {}",
        wins("free"),
        wins("book")
    );
}

/// N-INIT: the step between a fighter's actions. With a step of 1 the fencer's second
/// action (initiative 4 + 1D - 1D - 1) shares the first segment with its first whenever
/// the gap rule allows, a step of 12 sends it two segments down: the outcome moves, and
/// the book's 6 is neither.
#[test]
fn nephilim_extra_action_step_moves_the_duel() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let text =
        std::fs::read_to_string(NEPHILIM_DUEL)
            .unwrap()
            .replacen("actions = 1", "actions = 2", 1);
    std::fs::write(t.join("two.toml"), &text).unwrap();
    let args = ["run", "two.toml", "--trials", "20000"];
    ok(t, &args, "book", &[]);
    ok(t, &args, "one", &["nephilim_extra_action_step=1"]);
    ok(t, &args, "twelve", &["nephilim_extra_action_step=12"]);
    let o = |out: &str| std::fs::read_to_string(t.join(out).join("duel-outcome.csv")).unwrap();
    assert_ne!(o("one"), o("book"));
    assert_ne!(o("twelve"), o("book"));
    for opt in [
        "nephilim_extra_action_step=0",
        "nephilim_extra_action_malus=9",
    ] {
        let out = cosmosim(t, &["run", "two.toml", "--out", "x", "--option", opt]);
        assert_eq!(out.status.code(), Some(2), "{opt}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("from 1 to 12") || err.contains("from 0 to 8"),
            "{err}"
        );
    }
}
