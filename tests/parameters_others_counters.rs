//! The Nephilim meta-characteristic bands (N-KA) and health counter boxes (N-HEALTH) as
//! rule parameters (issue 16): `nephilim_meta_first_band`, `nephilim_meta_band_growth`,
//! `nephilim_health_boxes_per_state`. Each book value gives today's bytes (CSVs and
//! provenance); each changed value moves the figure it should by a hand-computed amount
//! (the meta table's rows, a one-round duel) or in the right direction beyond Monte Carlo
//! noise (the shipped duel), and leaves the other outputs; out of range exits 2.

mod common;

use std::path::Path;

use common::others::{column, defaults_are_todays_bytes, ok, out_of_range, table};
use common::params::{cosmosim, csvs};

const NEPHILIM_DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/nephilim/duel.toml");
const BOOK: [&str; 3] = [
    "nephilim_meta_first_band=5",
    "nephilim_meta_band_growth=5",
    "nephilim_health_boxes_per_state=2",
];

#[test]
fn counter_and_meta_defaults_give_todays_bytes() {
    defaults_are_todays_bytes(
        &[
            &["table", "nephilim-meta"],
            &["table", "nephilim-magic", "--ka", "0..60:10"],
            &["run", NEPHILIM_DUEL, "--trials", "3000"],
        ],
        &BOOK,
    );
}

/// Provenance lists the three only off the book, so the shipped `.meta.json` and
/// `summary.md` keep their bytes; set off the book, all three are recorded.
#[test]
fn provenance_lists_them_only_off_the_book() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let args = ["run", NEPHILIM_DUEL, "--trials", "2000"];
    ok(t, &args, "book", &BOOK);
    ok(t, &args, "off", &["nephilim_health_boxes_per_state=3"]);
    let read = |out: &str, f: &str| std::fs::read_to_string(t.join(out).join(f)).unwrap();
    for key in ["boxes_per_state", "meta_first_band", "meta_band_growth"] {
        assert!(
            !read("book", "duel-outcome.meta.json").contains(key),
            "{key}"
        );
        assert!(!read("book", "summary.md").contains(key), "{key}");
        assert!(read("off", "duel-outcome.meta.json").contains(key), "{key}");
    }
    assert!(read("off", "duel-outcome.meta.json")
        .contains("\"nephilim_health_boxes_per_state\": \"3\""));
    ok(
        t,
        &["table", "nephilim-meta"],
        "meta",
        &["nephilim_meta_band_growth=0"],
    );
    assert!(
        read("meta", "nephilim-meta.meta.json").contains("\"nephilim_meta_band_growth\": \"0\"")
    );
}

/// N-KA, by hand. Growth 0: every band as wide as the first, 5: Ka 1..5 +0, 6..10 +1, ...,
/// so Ka k >= 1 gives (k - 1) / 5 (the normalised Ka + 3), Ka 200 +39. First band 10
/// (growth 5): bands 10, 15, 20, 25, 30, ... wide from Ka 1, tops 10, 25, 45, 70, 100, 135,
/// 175, 220. The duel and the magic table do not read the bands: same bytes.
#[test]
fn meta_bands_move_the_table_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let meta = ["table", "nephilim-meta"];
    ok(t, &meta, "flat", &["nephilim_meta_band_growth=0"]);
    let (_, rows) = table(&t.join("flat").join("nephilim-meta.csv"));
    assert_eq!(rows.len(), 201);
    for r in &rows {
        let ka: i64 = r[0].parse().unwrap();
        let want = if ka == 0 { 0 } else { (ka - 1) / 5 };
        let (from, to) = if want == 0 {
            (0, 5)
        } else {
            (5 * want + 1, 5 * want + 5)
        };
        assert_eq!(r[1..], [want, from, to].map(|x| x.to_string()), "Ka {ka}");
    }
    ok(t, &meta, "wide", &["nephilim_meta_first_band=10"]);
    let tops = [10, 25, 45, 70, 100, 135, 175, 220];
    let (_, rows) = table(&t.join("wide").join("nephilim-meta.csv"));
    for r in &rows {
        let ka: i64 = r[0].parse().unwrap();
        let want = tops.iter().position(|&top| ka <= top).unwrap();
        let from = if want == 0 { 0 } else { tops[want - 1] + 1 };
        assert_eq!(
            r[1..],
            [want as i64, from, tops[want]].map(|x| x.to_string()),
            "Ka {ka}"
        );
    }
    // The book's table moved: Ka 10 is +1 there, +0 here.
    ok(t, &meta, "book", &[]);
    let bonus = |out: &str| column(&t.join(out).join("nephilim-meta.csv"), "meta_bonus");
    assert_eq!((bonus("book")[10], bonus("wide")[10]), (1.0, 0.0));
    // Nothing else reads the bands.
    for args in [
        &["run", NEPHILIM_DUEL, "--trials", "2000"][..],
        &["table", "nephilim-magic", "--ka", "0..60:10"][..],
    ] {
        ok(t, args, "b", &[]);
        ok(
            t,
            args,
            "s",
            &["nephilim_meta_first_band=10", "nephilim_meta_band_growth=0"],
        );
        assert_eq!(csvs(&t.join("s")), csvs(&t.join("b")), "{args:?}");
        std::fs::remove_dir_all(t.join("b")).unwrap();
        std::fs::remove_dir_all(t.join("s")).unwrap();
    }
}

/// A one-round duel where any hit kills (weapon 10, no protection: 10 boxes or more, out
/// at 9 in the book and 5 with one box per state), both fighters starting at wound 2 and
/// fatigue 2, one action each, with their attack and defence given.
fn one_round_duel(attack: i64, defence: i64) -> String {
    let fighter = |name: &str, init: i64| {
        format!(
            "[[fighter]]\nname = \"{name}\"\ninitiative = {init}\nattack = {attack}\n\
             defence = {defence}\ndefence_kind = \"parry\"\nweapon = 10\nprotection = 0\n\
             constitution = 0\nka = 0\nactions = 1\ndelay = \"never\"\nwounds = 2\n\
             fatigue = 2\n\n"
        )
    };
    format!(
        "system = \"nephilim\"\nkind = \"duel\"\ntitle = \"one round\"\n\n[run]\nstream = \"one-round\"\n\
         trials = 20000\nseed = 3\n\n[duel]\nmax_rounds = 1\n\n{}{}",
        fighter("A", 2),
        fighter("B", 0)
    )
}

/// N-HEALTH, `nephilim_health_boxes_per_state` = 1: wound 2 and fatigue 2 are state 2
/// each (malus 2 + 2 instead of the book's 1 + 1), so attack and parry lose 2 more; any
/// hit still kills and no survivor reaches a check (state 4 is level 4 now, survivors stay
/// at 2). The duel is the book's duel with attack and defence 2 lower, draw for draw:
/// same outcomes and rounds, same fighter rates, and the dead end at 5 wounds (the
/// counter's top) instead of 10, so mean_wounds_end is 5 x p_dead lower.
#[test]
fn one_box_per_state_is_a_score_shift_and_a_smaller_counter() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    for (name, score) in [("base", 3), ("low", 1)] {
        std::fs::write(t.join(format!("{name}.toml")), one_round_duel(score, score)).unwrap();
    }
    let file = |n: &str| t.join(format!("{n}.toml")).to_string_lossy().into_owned();
    ok(
        t,
        &["run", &file("base")],
        "one",
        &["nephilim_health_boxes_per_state=1"],
    );
    ok(t, &["run", &file("low")], "low", &[]);
    ok(t, &["run", &file("base")], "book", &[]);
    let read = |out: &str, f: &str| std::fs::read_to_string(t.join(out).join(f)).unwrap();
    for f in ["duel-outcome.csv", "duel-rounds.csv"] {
        assert_eq!(read("one", f), read("low", f), "{f}");
    }
    let fighters = |out: &str| table(&t.join(out).join("duel-fighters.csv"));
    let ((head, one), (_, low)) = (fighters("one"), fighters("low"));
    let at = |c: &str| head.iter().position(|h| h == c).unwrap();
    for (a, b) in one.iter().zip(&low) {
        for (i, name) in head.iter().enumerate() {
            if name != "mean_wounds_end" {
                assert_eq!(a[i], b[i], "{name}");
            }
        }
        let num = |r: &Vec<String>, c: &str| r[at(c)].parse::<f64>().unwrap();
        let want = num(b, "mean_wounds_end") - 5.0 * num(b, "p_dead");
        assert!((num(a, "mean_wounds_end") - want).abs() < 1e-9, "{a:?}");
        assert!(num(b, "p_dead") > 0.1, "the duel kills: {b:?}");
    }
    // And it is not the book's duel.
    assert_ne!(
        read("one", "duel-outcome.csv"),
        read("book", "duel-outcome.csv")
    );
}

/// N-HEALTH on the shipped duel (seed 1, 20 000 duels): more boxes per state raise the
/// out level (5, 9, 13, 17), so duels last longer (about 1.6, 2.8, 4.1, 5.3 rounds) and
/// the Brawler's Constitution 2 holds through more incapacity checks: his wins rise (about
/// 0.36, 0.46, 0.53, 0.56). Each step is asserted beyond 5 combined standard errors
/// (0.025 for a probability near 0.5 at 20 000 duels; 0.1 round for the mean).
#[test]
fn boxes_per_state_lengthen_the_shipped_duel() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let mut wins = Vec::new();
    let mut rounds = Vec::new();
    for b in 1..=4 {
        let out = format!("b{b}");
        let opt = format!("nephilim_health_boxes_per_state={b}");
        ok(
            t,
            &["run", NEPHILIM_DUEL, "--trials", "20000"],
            &out,
            &[&opt],
        );
        let p = column(&t.join(&out).join("duel-outcome.csv"), "p");
        wins.push(p[1]);
        let r = t.join(&out).join("duel-rounds.csv");
        let mean: f64 = column(&r, "round")
            .iter()
            .zip(column(&r, "p_end"))
            .map(|(x, p)| x * p)
            .sum();
        rounds.push(mean);
    }
    for b in 0..3 {
        assert!(wins[b + 1] - wins[b] > 0.025, "{wins:?}");
        assert!(rounds[b + 1] - rounds[b] > 0.5, "{rounds:?}");
    }
}

/// Starting wounds and fatigue must lie below the out level in force: 0..4b (the book's
/// 0..8). One validation for `check` (the file's `[rules]`) and `run` (`--option` too).
#[test]
fn starting_counters_are_checked_against_the_boxes_in_force() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let text = std::fs::read_to_string(NEPHILIM_DUEL).unwrap().replacen(
        "delay = \"never\"",
        "delay = \"never\"\nwounds = 5",
        1,
    );
    let file = t.join("d.toml");
    std::fs::write(&file, &text).unwrap();
    let f = file.to_string_lossy().into_owned();
    let expect_2 = |args: &[&str], range: &str| {
        let o = cosmosim(t, args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("fighter[0].wounds") && err.contains(range),
            "{err}"
        );
    };
    // Book: 5 is fine; one box per state puts it past the incapacity (0..4).
    assert!(cosmosim(t, &["check", &f]).status.success());
    expect_2(
        &[
            "run",
            &f,
            "--out",
            "x",
            "--option",
            "nephilim_health_boxes_per_state=1",
        ],
        "0..4",
    );
    let ruled = format!("{text}\n[rules]\nnephilim_health_boxes_per_state = 1\n");
    let ruled_file = t.join("r.toml");
    std::fs::write(&ruled_file, ruled).unwrap();
    expect_2(&["check", &ruled_file.to_string_lossy()], "0..4");
    // Four boxes per state: up to 16.
    let big = text.replacen("wounds = 5", "wounds = 16", 1);
    std::fs::write(t.join("big.toml"), &big).unwrap();
    let big_path = t.join("big.toml").to_string_lossy().into_owned();
    expect_2(&["check", &big_path], "0..8");
    let o = cosmosim(
        t,
        &[
            "run",
            &big_path,
            "--trials",
            "500",
            "--out",
            "big",
            "--quiet",
            "--option",
            "nephilim_health_boxes_per_state=4",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(Path::new(&t.join("big").join("duel-outcome.csv")).is_file());
}

#[test]
fn counter_and_meta_parameters_out_of_range_exit_2_with_the_range() {
    for (opt, range) in [
        ("nephilim_meta_first_band=0", "from 1 to 20"),
        ("nephilim_meta_first_band=21", "from 1 to 20"),
        ("nephilim_meta_band_growth=-1", "from 0 to 20"),
        ("nephilim_meta_band_growth=21", "from 0 to 20"),
    ] {
        out_of_range(&["table", "nephilim-meta"], opt, range);
    }
    for opt in [
        "nephilim_health_boxes_per_state=0",
        "nephilim_health_boxes_per_state=5",
    ] {
        out_of_range(&["run", NEPHILIM_DUEL], opt, "from 1 to 4");
    }
}

/// French: `options --lang fr` gives them their French help in the book's terms.
#[test]
fn counter_and_meta_parameters_read_in_french() {
    let d = tempfile::tempdir().unwrap();
    let o = cosmosim(d.path(), &["options", "--lang", "fr"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "donnent le bonus de méta-caractéristique +0",
        "chaque tranche du bonus de méta-caractéristique",
        "cases par état des compteurs de blessure et de fatigue",
    ] {
        assert!(text.contains(needle), "{needle}");
    }
}
