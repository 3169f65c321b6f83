//! The last 2d20, Trinités and Nephilim constants as rule parameters (issue 16): the
//! complication face and bonus dice (F-TEST, F-AP), the success target, pain and life
//! lines (T-TEST, T-COMBAT, T-LIFE) and the critical band (N-CRIT). Each book value gives
//! today's bytes; each changed value moves the figure it should by a hand-computed or
//! exact amount and leaves the others; exact against Monte Carlo under changed values.

mod common;

use common::others::{column, defaults_are_todays_bytes, ok, out_of_range, table, within_5_se};
use common::params::cosmosim;

const FIREFIGHT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/fallout/firefight.toml"
);
const AP_ECONOMY: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/fallout/ap-economy.toml"
);
const TRINITES_DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/trinites/duel.toml");
const TRINITES_SKIRMISH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/trinites/skirmish.toml"
);
const NEPHILIM_DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/nephilim/duel.toml");

// ---------------------------------------------------------------- 2d20 (F-TEST, F-AP)

#[test]
fn fallout_faces_and_bonus_defaults_give_todays_bytes() {
    defaults_are_todays_bytes(
        &[
            &[
                "table",
                "fallout-test",
                "--tn",
                "2..12",
                "--difficulty",
                "0..3",
                "--dice",
                "2..3",
                "--complication",
                "3",
            ],
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
            &["run", FIREFIGHT, "--trials", "3000"],
            &["run", AP_ECONOMY, "--trials", "3000"],
        ],
        &[
            "fallout_complication_from=20",
            "fallout_bonus_dice_max=3",
            "fallout_bonus_price_1=1",
            "fallout_bonus_price_2=2",
            "fallout_bonus_price_3=3",
        ],
    );
}

/// F-TEST, `fallout_complication_from` = 18 at TN 10, 2d20: a die is a complication on
/// 18-20 (3/20) at range 1, so P(complication) = 1 - (17/20)^2 = 0.2775 against the
/// book's 1 - (19/20)^2 = 0.0975; at range 2 (17-20) 1 - (16/20)^2 = 0.36 against
/// 1 - (18/20)^2 = 0.19. Successes do not move: P(pass) and E[AP] are the book's bytes.
#[test]
fn fallout_complication_from_moves_complications_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    for (range, book, moved) in [("1", 0.0975, 0.2775), ("2", 0.19, 0.36)] {
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
            "--complication",
            range,
        ];
        let (b, m) = (format!("book{range}"), format!("from18_{range}"));
        ok(t, args, &b, &[]);
        ok(t, args, &m, &["fallout_complication_from=18"]);
        let f = |out: &str, c: &str| column(&t.join(out).join("fallout-test.csv"), c)[0];
        assert!((f(&b, "p_complication") - book).abs() < 1e-12);
        assert!((f(&m, "p_complication") - moved).abs() < 1e-12);
        for c in ["p_pass", "mean_ap"] {
            assert_eq!(f(&m, c), f(&b, c), "{c}");
        }
    }
    // 21: a Normale test has no complication at all.
    let args = &["table", "fallout-test", "--tn", "10", "--difficulty", "1"];
    ok(t, args, "none", &["fallout_complication_from=21"]);
    let none = column(&t.join("none").join("fallout-test.csv"), "p_complication");
    assert!(none.iter().all(|p| *p == 0.0));
}

/// The exact table under `fallout_complication_from` = 16 (range 2: faces 15-20) against
/// its Monte Carlo, P(complication) and P(pass) cell by cell within 5 standard errors; the
/// help table's complications move too (a helper's die reads the same faces).
#[test]
fn fallout_complication_from_exact_matches_monte_carlo_off_book() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let grid = [
        "table",
        "fallout-test",
        "--tn",
        "5..11:3",
        "--difficulty",
        "1..2",
        "--dice",
        "2..4",
        "--tag-rank",
        "0",
        "--complication",
        "2",
    ];
    let opt = ["fallout_complication_from=16"];
    ok(t, &grid, "exact", &opt);
    let mut mc = grid.to_vec();
    mc.extend(["--method", "mc", "--trials", "40000"]);
    ok(t, &mc, "mc", &opt);
    let e = |c: &str| column(&t.join("exact").join("fallout-test.csv"), c);
    let m = |c: &str| column(&t.join("mc").join("fallout-test-mc.csv"), c);
    for c in ["p_complication", "p_pass"] {
        within_5_se(&e(c), &m(c), 40000.0, c);
    }
    // 2 dice, faces 15-20: 1 - (14/20)^2 = 0.51 on the first row.
    assert!((e("p_complication")[0] - 0.51).abs() < 1e-12);
    let help = ["table", "fallout-help", "--tn", "8", "--helper-tn", "8"];
    ok(t, &help, "hb", &[]);
    ok(t, &help, "hm", &opt);
    let h = |out: &str| {
        column(
            &t.join(out).join("fallout-help.csv"),
            "p_complication_helped",
        )
    };
    assert!(h("hm").iter().zip(h("hb")).all(|(m, b)| *m > b));
}

/// F-AP in the AP-economy scenario (same seed, so the same dice): with
/// `fallout_bonus_dice_max` = 0 no die is ever bought, the MJ never gets an AP, and P(pass)
/// is the exact 2d20 P(pass) of each test within 5 standard errors; with all prices 0 the
/// pool never pays, so on every row the group's pool is at least the book's (pathwise:
/// same purchases, same rolls, no cost) and the MJ's stays empty.
#[test]
fn fallout_bonus_dice_parameters_move_the_ap_economy() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let n = 20000.0;
    let args = &["run", AP_ECONOMY, "--trials", "20000"];
    ok(t, args, "book", &[]);
    ok(t, args, "none", &["fallout_bonus_dice_max=0"]);
    ok(
        t,
        args,
        "free",
        &[
            "fallout_bonus_price_1=0",
            "fallout_bonus_price_2=0",
            "fallout_bonus_price_3=0",
        ],
    );
    let f = |out: &str, c: &str| column(&t.join(out).join("ap-flow.csv"), c);
    assert!(f("book", "mean_bonus_dice").iter().any(|x| *x > 0.1));
    assert!(f("book", "mean_mj_pool_after").iter().any(|x| *x > 0.1));
    assert!(f("none", "mean_bonus_dice").iter().all(|x| *x == 0.0));
    assert!(f("none", "mean_mj_pool_after").iter().all(|x| *x == 0.0));
    within_5_se(
        &f("none", "p_pass_no_buy"),
        &f("none", "p_pass"),
        n,
        "p_pass",
    );
    assert_eq!(f("free", "mean_bonus_dice"), f("book", "mean_bonus_dice"));
    assert!(f("free", "mean_mj_pool_after").iter().all(|x| *x == 0.0));
    let (fp, bp) = (f("free", "mean_pool_after"), f("book", "mean_pool_after"));
    assert!(fp.iter().zip(&bp).all(|(a, b)| a >= b));
    assert!(fp.iter().zip(&bp).any(|(a, b)| *a > b + 0.1));
    // Firefights: no bonus die bought by anyone under a cap of 0.
    ok(
        t,
        &["run", FIREFIGHT, "--trials", "3000"],
        "fnone",
        &["fallout_bonus_dice_max=0"],
    );
    let (head, rows) = table(&t.join("fnone").join("combat-combatants.csv"));
    let at = head
        .iter()
        .position(|h| h == "bonus_d20_per_attack")
        .unwrap();
    assert!(rows.iter().all(|r| r[at].parse::<f64>().unwrap() == 0.0));
}

#[test]
fn fallout_new_parameters_out_of_range_exit_2_with_the_range() {
    let args = ["table", "fallout-test"];
    out_of_range(&args, "fallout_complication_from=10", "from 11 to 21");
    out_of_range(&args, "fallout_complication_from=22", "from 11 to 21");
    out_of_range(&args, "fallout_bonus_dice_max=4", "from 0 to 3");
    out_of_range(&args, "fallout_bonus_price_2=7", "from 0 to 6");
}

// ---------------------------------------------------------------- Trinités (T-TEST, T-LIFE)

#[test]
fn trinites_target_pain_and_lines_defaults_give_todays_bytes() {
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
            &[
                "table",
                "trinites-confrontation",
                "--modifiers-a",
                "-3..3",
                "--modifiers-b",
                "0..2",
            ],
            &["run", TRINITES_DUEL, "--trials", "3000"],
            &["run", TRINITES_SKIRMISH, "--trials", "3000"],
        ],
        &[
            "trinites_target=12",
            "trinites_pain_initiative=3",
            "trinites_life_line_human=4",
            "trinites_life_line_adam=8",
        ],
    );
}

/// T-TEST by hand at modifier 0: target 10 succeeds on a natural 10, 11 or any exploded
/// 12 (3/12 = 0.25, book 1/12); the Trinité keeps the higher die, 1 - (9/12)^2 = 0.4375;
/// the retry at -3 then needs 13 or more, an exploded 12 only, so 0.25 + 0.75/12 = 0.3125.
#[test]
fn trinites_target_moves_the_test_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    ok(
        t,
        &["table", "trinites-test"],
        "ten",
        &["trinites_target=10"],
    );
    let (head, rows) = table(&t.join("ten").join("trinites-test.csv"));
    let at = |c: &str| head.iter().position(|h| h == c).unwrap();
    let row = |dual: &str| {
        rows.iter()
            .find(|r| r[at("modifier")] == "0" && r[at("dual")] == dual)
            .unwrap()
    };
    let f = |dual: &str, c: &str| row(dual)[at(c)].parse::<f64>().unwrap();
    assert!((f("false", "p_success") - 0.25).abs() < 1e-12);
    assert!((f("true", "p_success") - 0.4375).abs() < 1e-12);
    assert!((f("false", "p_success_retry") - 0.3125).abs() < 1e-12);
}

/// T-TEST, T-CONF: a target T is a shift of every modifier by 12 - T (a natural 1 fails
/// either way, finals compare alike), so the exact tables under target 10 at modifiers
/// m are the book's tables at m + 2, probabilities byte for byte; the Monte Carlo under
/// target 10 matches its exact table within 5 standard errors.
#[test]
fn trinites_target_is_a_modifier_shift_and_exact_matches_monte_carlo() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let ten = ["trinites_target=10"];
    let conf = |a: &'static str, b: &'static str| {
        [
            "table",
            "trinites-confrontation",
            "--modifiers-a",
            a,
            "--modifiers-b",
            b,
        ]
    };
    ok(t, &conf("-4..4", "-2..2"), "c10", &ten);
    ok(t, &conf("-2..6", "0..4"), "cbook", &[]);
    ok(
        t,
        &["table", "trinites-test", "--modifiers", "-6..6"],
        "t10",
        &ten,
    );
    ok(
        t,
        &["table", "trinites-test", "--modifiers", "-4..8"],
        "tbook",
        &[],
    );
    let cols = |path: &std::path::Path, from: usize| {
        let (_, rows) = table(path);
        rows.into_iter()
            .map(|r| r[from..].to_vec())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        cols(&t.join("c10").join("trinites-confrontation.csv"), 2),
        cols(&t.join("cbook").join("trinites-confrontation.csv"), 2)
    );
    assert_eq!(
        cols(&t.join("t10").join("trinites-test.csv"), 1),
        cols(&t.join("tbook").join("trinites-test.csv"), 1)
    );
    let mut mc = conf("-4..4", "-2..2").to_vec();
    mc.extend(["--method", "mc", "--trials", "20000"]);
    ok(t, &mc, "cmc", &ten);
    for c in ["p_a_wins", "p_b_wins", "p_nobody"] {
        within_5_se(
            &column(&t.join("c10").join("trinites-confrontation.csv"), c),
            &column(&t.join("cmc").join("trinites-confrontation-mc.csv"), c),
            20000.0,
            c,
        );
    }
}

/// T-LIFE: the skirmish's exact exchanges knock a target out at 2 x line + 1 boxes. With
/// `trinites_life_line_human` = 6 the bretteur (sword 3 against a brute) needs
/// ceil(13 / 3) = 5 hits instead of ceil(9 / 3) = 3; only rows against a human move, and
/// only their hits_to_knock_out. Pain is not part of an exchange: it leaves the table
/// byte-identical but moves the fights.
#[test]
fn trinites_life_lines_and_pain_move_what_they_should() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let args = ["run", TRINITES_SKIRMISH, "--trials", "3000"];
    ok(t, &args, "book", &[]);
    ok(t, &args, "six", &["trinites_life_line_human=6"]);
    ok(t, &args, "nopain", &["trinites_pain_initiative=0"]);
    let ex = "trinites-skirmish-exchanges.csv";
    let (head, book) = table(&t.join("book").join(ex));
    let (_, six) = table(&t.join("six").join(ex));
    let at = |c: &str| head.iter().position(|h| h == c).unwrap();
    let hits = at("hits_to_knock_out");
    let humans = ["brute", "tireur"];
    let mut moved = 0;
    for (b, s) in book.iter().zip(&six) {
        for (i, (x, y)) in b.iter().zip(s).enumerate() {
            if i != hits {
                assert_eq!(x, y, "{}", head[i]);
            }
        }
        let dmg: i64 = b[at("damage_per_hit")].parse().unwrap();
        if humans.contains(&b[at("target")].as_str()) && dmg > 0 {
            let (hb, hs): (i64, i64) = (b[hits].parse().unwrap(), s[hits].parse().unwrap());
            assert_eq!((hb, hs), ((9 + dmg - 1) / dmg, (13 + dmg - 1) / dmg));
            moved += 1;
        } else {
            assert_eq!(b[hits], s[hits]);
        }
    }
    assert!(moved > 0);
    let bretteur = book
        .iter()
        .zip(&six)
        .find(|(b, _)| b[at("attacker")] == "bretteur" && b[at("target")] == "brute")
        .unwrap();
    assert_eq!(
        (bretteur.0[hits].as_str(), bretteur.1[hits].as_str()),
        ("3", "5")
    );
    // Longer human lines: the gang lasts longer, the Adam' side wins less often.
    let win = |out: &str| column(&t.join(out).join("trinites-skirmish-sides.csv"), "p")[0];
    assert!(win("six") < win("book"), "{} {}", win("six"), win("book"));
    // Pain: the exact exchanges do not read it; the fights do.
    assert_eq!(
        std::fs::read_to_string(t.join("nopain").join(ex)).unwrap(),
        std::fs::read_to_string(t.join("book").join(ex)).unwrap()
    );
    let rounds = "trinites-skirmish-rounds.csv";
    assert_ne!(
        std::fs::read_to_string(t.join("nopain").join(rounds)).unwrap(),
        std::fs::read_to_string(t.join("book").join(rounds)).unwrap()
    );
}

#[test]
fn trinites_new_parameters_out_of_range_exit_2_with_the_range() {
    let args = ["table", "trinites-test"];
    out_of_range(&args, "trinites_target=1", "from 2 to 24");
    out_of_range(&args, "trinites_target=25", "from 2 to 24");
    out_of_range(&args, "trinites_pain_initiative=13", "from 0 to 12");
    out_of_range(&args, "trinites_life_line_human=0", "from 1 to 24");
    out_of_range(&args, "trinites_life_line_adam=25", "from 1 to 24");
}

// ---------------------------------------------------------------- Nephilim (N-CRIT)

#[test]
fn nephilim_crit_band_default_gives_todays_bytes() {
    defaults_are_todays_bytes(
        &[
            &["table", "nephilim-test"],
            &[
                "table",
                "nephilim-test",
                "--method",
                "mc",
                "--trials",
                "3000",
            ],
            &["table", "nephilim-test", "--option", "die=d6"],
            &["run", NEPHILIM_DUEL, "--trials", "2000"],
        ],
        &["nephilim_crit_band=1"],
    );
}

/// N-CRIT, `nephilim_crit_band` = 2 at margin 0: +3 and +4 are critical. With the
/// nephilim die (0,1,2,2,3,4) P(raw >= 3) = (1 + 2)/36 (4-0; 3-0, 4-1), against the
/// book's 1/36, and the same for failures; with a d6, P(raw >= 4) = (2 + 1)/36. Success
/// or better does not move (22/36 with the nephilim die). Monte Carlo under the band
/// matches the exact table.
#[test]
fn nephilim_crit_band_moves_crits_by_hand_and_exact_matches_monte_carlo() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let two = ["nephilim_crit_band=2"];
    let args = ["table", "nephilim-test", "--margins", "-6..6"];
    ok(t, &args, "book", &[]);
    ok(t, &args, "two", &two);
    let mut d6 = args.to_vec();
    d6.extend(["--option", "die=d6"]);
    ok(t, &d6, "d6", &two);
    let csv = |out: &str| t.join(out).join("nephilim-test.csv");
    let at0 = |out: &str, c: &str| column(&csv(out), c)[6];
    assert!((at0("book", "p_crit_success") - 1.0 / 36.0).abs() < 1e-9);
    assert!((at0("two", "p_crit_success") - 3.0 / 36.0).abs() < 1e-9);
    assert!((at0("two", "p_crit_failure") - 3.0 / 36.0).abs() < 1e-9);
    assert!((at0("d6", "p_crit_success") - 3.0 / 36.0).abs() < 1e-9);
    let sob = |out: &str| {
        let (a, b) = (
            column(&csv(out), "p_crit_success"),
            column(&csv(out), "p_success"),
        );
        a.iter().zip(&b).map(|(x, y)| x + y).collect::<Vec<f64>>()
    };
    for (a, b) in sob("two").iter().zip(sob("book")) {
        assert!((a - b).abs() < 1e-9);
    }
    let mut mc = args.to_vec();
    mc.extend(["--method", "mc", "--trials", "40000"]);
    ok(t, &mc, "mc", &two);
    for c in ["p_crit_success", "p_success", "p_failure", "p_crit_failure"] {
        within_5_se(
            &column(&csv("two"), c),
            &column(&t.join("mc").join("nephilim-test-mc.csv"), c),
            40000.0,
            c,
        );
    }
}

#[test]
fn nephilim_crit_band_out_of_range_exits_2_with_the_range() {
    out_of_range(
        &["table", "nephilim-test"],
        "nephilim_crit_band=0",
        "from 1 to 3",
    );
    out_of_range(
        &["table", "nephilim-test"],
        "nephilim_crit_band=4",
        "from 1 to 3",
    );
}

/// French: `options --lang fr` gives each new parameter its French help in the books'
/// terms, and an out-of-range value is refused in French with its range (exit 2); the
/// CSVs of a run with the parameters set are the same bytes in both languages.
#[test]
fn new_parameters_read_in_french() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let o = cosmosim(t, &["options", "--lang", "fr"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "marge de complication Normale",
        "coût en PA du 1er d20 bonus",
        "un résultat naturel de 1 reste un échec",
        "la douleur",
        "cases par ligne de vie d'un Adam'",
        "résultats bruts de +1D-1D critiques",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
    let o = cosmosim(
        t,
        &[
            "table",
            "trinites-test",
            "--lang",
            "fr",
            "--out",
            "x",
            "--option",
            "trinites_target=30",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("un nombre entier de 2 à 24"), "{err}");
    let args = ["table", "nephilim-test", "--option", "nephilim_crit_band=2"];
    ok(t, &args, "en", &[]);
    let mut fr = args.to_vec();
    fr.extend(["--lang", "fr"]);
    ok(t, &fr, "fr", &[]);
    assert_eq!(
        common::params::csvs(&t.join("en")),
        common::params::csvs(&t.join("fr"))
    );
}
