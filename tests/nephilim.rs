//! Nephilim v3 tables: hand-computed values, exact vs Monte Carlo, determinism, CLI.

mod common;

use std::fs;

use common::nephilim::{agrees, cell, close, cosmosim, rules, table};
use cosmosim::context::Context;
use cosmosim::rules::RuleOptions;
use cosmosim::systems::nephilim::tables::{initiative_mc, test_mc};
use cosmosim::systems::nephilim::{p_earlier_segment, test_probs, DieKind, NephilimRules, Outcome};

// ---- N-DIE: hand-computed +1D-1D values ----

#[test]
fn nephilim_die_zero_is_8_in_36() {
    let r = DieKind::Nephilim.roll_dist();
    // N-DIE: pairs (0,0),(1,1),(2,2)x4,(3,3),(4,4) = 8 of 36.
    assert!(close(r.prob(&0), 8.0 / 36.0));
    assert!(close(r.prob(&-4), 1.0 / 36.0));
    assert!(close(r.prob(&-2), 5.0 / 36.0));
}

#[test]
fn d6_and_d4_by_hand() {
    let d6 = DieKind::D6.roll_dist();
    assert!(close(d6.prob(&0), 6.0 / 36.0));
    assert!(close(d6.prob(&5), 1.0 / 36.0));
    let d4 = DieKind::D4.roll_dist();
    assert!(close(d4.prob(&0), 4.0 / 16.0));
    assert!(close(d4.prob(&-3), 1.0 / 16.0));
}

#[test]
fn dice_table_cli_values_and_columns() {
    let dir = tempfile::tempdir().unwrap();
    let csv = table(dir.path(), "nephilim-dice", &[]);
    assert!(csv.starts_with("die,modifier,probability,cumulative\n"));
    // Full ranges: 9 + 11 + 7 rows.
    assert_eq!(csv.lines().count(), 1 + 9 + 11 + 7);
    assert!((cell(&csv, "nephilim,0", "probability") - 8.0 / 36.0).abs() < 1e-9);
    // cumulative = P(result <= modifier): 1 + 2 + 5 + 6 + 8 = 22 of 36 at 0.
    assert!((cell(&csv, "nephilim,0", "cumulative") - 22.0 / 36.0).abs() < 1e-9);
    assert!((cell(&csv, "d6,-5", "cumulative") - 1.0 / 36.0).abs() < 1e-9);
    assert!((cell(&csv, "d4,3", "cumulative") - 1.0).abs() < 1e-9);
}

// ---- N-TEST / N-CRIT ----

#[test]
fn test_outcomes_by_hand() {
    // Margin 0, nephilim die: raw +4 (1/36) is a crit (a +3 would also succeed); other
    // raw >= 0: 21/36; raw -4 is a crit failure (a -3 would also fail): 1/36; 13/36 left.
    let p = test_probs(0, DieKind::Nephilim);
    let want = [1.0, 21.0, 13.0, 1.0].map(|x| x / 36.0);
    for o in Outcome::ALL {
        assert!(close(p[o as usize], want[o as usize]), "{o:?}");
    }
    // Margin -4: only raw +4 succeeds and the success needed it -> simple success (N-CRIT).
    let p = test_probs(-4, DieKind::Nephilim);
    assert!(close(p[0], 0.0) && close(p[1], 1.0 / 36.0) && close(p[3], 1.0 / 36.0));
    // Margin +3: raw -4 fails but was needed to fail -> simple failure.
    let p = test_probs(3, DieKind::Nephilim);
    assert!(close(p[2], 1.0 / 36.0) && close(p[3], 0.0));
    // d6 at margin 0: crits at +-5 (N-DIE): 1/36 each; P(raw >= 0) = 21/36.
    let p = test_probs(0, DieKind::D6);
    assert!(close(p[0], 1.0 / 36.0) && close(p[1], 20.0 / 36.0) && close(p[3], 1.0 / 36.0));
    // d4 at margin 1: raw >= -1 succeeds: 13/16; raw +3 crit 1/16; raw -3 crit failure 1/16.
    let p = test_probs(1, DieKind::D4);
    assert!(close(p[0] + p[1], 13.0 / 16.0) && close(p[0], 1.0 / 16.0) && close(p[3], 1.0 / 16.0));
}

#[test]
fn test_table_cli_follows_die_option() {
    let dir = tempfile::tempdir().unwrap();
    let csv = table(
        dir.path(),
        "nephilim-test",
        &["--margins", "-2..2", "--option", "die=d6"],
    );
    assert!(csv.starts_with("margin,p_crit_success,p_success,p_failure,p_crit_failure\n"));
    assert!((cell(&csv, "0", "p_success") - 20.0 / 36.0).abs() < 1e-9);
    let meta = fs::read_to_string(dir.path().join("nephilim-test.meta.json")).unwrap();
    assert!(meta.contains("\"die\": \"d6\""), "{meta}");
}

// ---- N-INIT ----

#[test]
fn initiative_by_hand() {
    // N-INIT (nephilim-v3.fr.txt l. 482, "en lui retranchant 5"; extra actions at init - 6,
    // - 12, l. 494): by default the first segment runs from H down to H - 5 inclusive, so
    // the lower character acts later iff the gap reaches 6.
    let r = NephilimRules::default();
    // 1D-1D counts of 36 for -4..4: 1,2,5,6,8,6,5,2,1. The gap noise W = Z_A - Z_B.
    // Difference -3 needs W >= 9: impossible. Difference -2: W = 8 only (1 x 1 of 1296).
    // Difference -1: W >= 7: 1 + 2*1 + 1*2 = 5.
    assert_eq!(p_earlier_segment(-3, &r), 0.0);
    assert!(close(p_earlier_segment(-2, &r), 1.0 / 1296.0));
    assert!(close(p_earlier_segment(-1, &r), 5.0 / 1296.0));
    // Rulebook example, difference +5: W >= 1. P(W = 0) = sum of squares = 196 / 1296, so
    // P(W >= 1) = (1296 - 196) / 2 / 1296 = 550 / 1296.
    assert!(close(p_earlier_segment(5, &r), 550.0 / 1296.0));
    assert!(close(p_earlier_segment(14, &r), 1.0));
    assert!(p_earlier_segment(13, &r) < 1.0);
    // The other reading (option init_segment = five, H..H-4) needs W >= 0: 746 / 1296.
    let five = rules(&["init_segment=five"]);
    assert!(close(p_earlier_segment(5, &five), 746.0 / 1296.0));
    assert!(close(p_earlier_segment(-3, &five), 1.0 / 1296.0));
    assert!(close(p_earlier_segment(13, &five), 1.0));
}

#[test]
fn initiative_table_cli() {
    let dir = tempfile::tempdir().unwrap();
    let csv = table(dir.path(), "nephilim-initiative", &[]);
    assert!(csv.starts_with("difference,p_earlier_segment\n"));
    assert_eq!(csv.lines().count(), 1 + 18);
    // N-INIT default (H..H-5): see initiative_by_hand.
    assert!((cell(&csv, "5", "p_earlier_segment") - 550.0 / 1296.0).abs() < 1e-9);
    assert!((cell(&csv, "-3", "p_earlier_segment")).abs() < 1e-12);
    assert!((cell(&csv, "-2", "p_earlier_segment") - 1.0 / 1296.0).abs() < 1e-9);
    let five = table(
        dir.path(),
        "nephilim-initiative",
        &["--option", "init_segment=five"],
    );
    assert!((cell(&five, "5", "p_earlier_segment") - 746.0 / 1296.0).abs() < 1e-9);
}

// ---- exact vs Monte Carlo ----

#[test]
fn test_table_exact_vs_monte_carlo() {
    let n = 200_000;
    for die in ["nephilim", "d6", "d4"] {
        let opts =
            RuleOptions::from_pairs(&[format!("die={die}")], cosmosim::lang::Lang::En).unwrap();
        let r = NephilimRules::from_options(&opts);
        let ctx = Context::new(7, 2, opts, true, cosmosim::lang::Lang::En).unwrap();
        let margins: Vec<i64> = (-7..=7).collect();
        for (m, c) in margins.iter().zip(test_mc(&margins, &r, &ctx, n)) {
            let p = test_probs(*m, r.die);
            for o in Outcome::ALL {
                assert!(
                    agrees(c.counts[o as usize], n, p[o as usize]),
                    "{die} margin {m} {o:?}"
                );
            }
        }
    }
}

#[test]
fn initiative_exact_vs_monte_carlo() {
    let n = 200_000;
    for seg in ["five", "six"] {
        let opts =
            RuleOptions::from_pairs(&[format!("init_segment={seg}")], cosmosim::lang::Lang::En)
                .unwrap();
        let r = NephilimRules::from_options(&opts);
        let ctx = Context::new(11, 2, opts, true, cosmosim::lang::Lang::En).unwrap();
        let diffs: Vec<i64> = (-3..=14).collect();
        for (d, c) in diffs.iter().zip(initiative_mc(&diffs, &r, &ctx, n)) {
            assert!(
                agrees(c.counts[0], n, p_earlier_segment(*d, &r)),
                "{seg} difference {d}"
            );
        }
    }
}

#[test]
fn monte_carlo_csv_is_identical_across_threads() {
    for (name, extra) in [
        ("nephilim-test", "--margins=-3..3"),
        ("nephilim-initiative", "--differences=0..6"),
    ] {
        let run = |threads: &str| {
            let dir = tempfile::tempdir().unwrap();
            table(
                dir.path(),
                name,
                &[
                    extra,
                    "--method",
                    "mc",
                    "--trials",
                    "150000",
                    "--seed",
                    "5",
                    "--threads",
                    threads,
                ],
            )
        };
        let one = run("1");
        assert!(one.lines().next().unwrap().contains("_lo"));
        assert_eq!(one, run("2"), "{name}");
    }
}

// ---- bad input ----

#[test]
fn bad_flags_exit_2_with_clear_messages() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 6] = [
        (
            &["nephilim-test", "--margins", "0..99"],
            "99 is out of range; allowed values: -20..20",
        ),
        (
            &["nephilim-test", "--option", "die=d8"],
            "allowed: nephilim | d6 | d4 (decision N-DIE)",
        ),
        (
            &["nephilim-initiative", "--option", "init_segment=4"],
            "allowed: six | five",
        ),
        (
            &["nephilim-magic", "--circles", "kabbale"],
            "unknown value `kabbale`; allowed: basse_magie, haute_magie, grand_secret",
        ),
        (
            &["nephilim-magic", "--plexus", "1d6"],
            "not a plexus modifier",
        ),
        (
            &["nephilim-magic", "--spell-level", "7"],
            "7 is out of range; allowed: -3..6",
        ),
    ];
    for (args, msg) in cases {
        cosmosim()
            .args(["-q", "table"])
            .args(args)
            .arg("--out")
            .arg(dir.path())
            .assert()
            .code(2)
            .stderr(predicates::str::contains(msg));
    }
}

/// An empty float sum is -0.0, which the CSVs printed "-0.0000000000" (audit of
/// 2026-12-06: the initiative table at difference -3, the spell table where the
/// concentration test cannot succeed). No field of an exact Nephilim table, under each
/// die, reads as a negative zero.
#[test]
fn no_probability_prints_as_negative_zero() {
    let dir = tempfile::tempdir().unwrap();
    for name in [
        "nephilim-dice",
        "nephilim-test",
        "nephilim-initiative",
        "nephilim-magic",
        "nephilim-meta",
    ] {
        for die in ["nephilim", "d6", "d4"] {
            let opt = format!("die={die}");
            let csv = table(dir.path(), name, &["--option", &opt]);
            for line in csv.lines().skip(1) {
                let negative_zero = line
                    .split(',')
                    .any(|v| v.starts_with('-') && v.parse::<f64>().is_ok_and(|x| x == 0.0));
                assert!(!negative_zero, "{name} {opt}: {line}");
            }
        }
    }
}
