//! An expedition's recovery numbers as parameters (issue 16, C-FAT-2, C-FAT-3): the short
//! rest's 1 per 2 h (`fatigue_short_rest_hours`), the 8 h of a full rest
//! (`fatigue_full_rest_hours`), the pause's -1 and its floor of 3 (`fatigue_pause_relief`,
//! `fatigue_pause_floor`), three meals and three pauses a day (`fatigue_meals_per_day`,
//! `fatigue_pauses_per_day`), the fasting +2X and sleepless +(2X+1)
//! (`fatigue_fasting_gain`, `fatigue_sleepless_gain`), the rest quality up to 3
//! (`fatigue_rest_quality_max`). Book values give today's bytes;
//! changed values move a day's figure by a hand-computed amount; out of range exits 2.

mod common;

use common::params::{cosmosim, csvs, day, run, write};

fn scenario(name: &str) -> String {
    format!("{}/scenarios/cosmos/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Two days of a traveller with no starting modifier (Force and Esprit 50), no encounter,
/// the given march, meals, pauses and hours of sleep, every day alike.
fn trek(march_fp: i32, meals: u32, pauses: u32, sleep: u32) -> String {
    format!(
        r#"system = "cosmos"
kind = "expedition"

[expedition]
days = 2

[expedition.traveller]
force = 50
esprit = 50

[expedition.day]
march_fp = {march_fp}
march_fm = 0
meals = {meals}
pauses = {pauses}
sleep_hours = {sleep}
rest_quality = 0
encounters = "0"

[expedition.encounter]
rounds = "1"
hp_lost = "0"
pm_spent = "0"
psychic_attacks = "0"

[expedition.reference_test]
stat = "agilite"
threshold = 55
karma = 0
"#
    )
}

const BOOK: [&str; 9] = [
    "fatigue_rest_quality_max=3",
    "fatigue_short_rest_hours=2",
    "fatigue_full_rest_hours=8",
    "fatigue_pause_relief=1",
    "fatigue_pause_floor=3",
    "fatigue_meals_per_day=3",
    "fatigue_pauses_per_day=3",
    "fatigue_fasting_gain=2",
    "fatigue_sleepless_gain=2",
];

#[test]
fn recovery_parameters_at_their_book_values_give_todays_bytes() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let files = [
        "expedition.toml",
        "expedition-legs.toml",
        "party-expedition-quick.toml",
    ];
    for (i, f) in files.iter().enumerate() {
        let f = scenario(f);
        run(t, &f, &format!("b{i}"), "2000", &[]);
        run(t, &f, &format!("p{i}"), "2000", &BOOK);
        assert_eq!(
            csvs(&t.join(format!("p{i}"))),
            csvs(&t.join(format!("b{i}"))),
            "{f}"
        );
    }
}

/// C-FAT-3 by hand. March +6, three meals, 6 h of sleep: day 1 goes to FP 7, the meals
/// to 4; the book's short rest recovers 6/2 = 3, so day 2 peaks at 1 + 1 + 6 = 8.
#[test]
fn short_and_full_rest_hours_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "six.toml", &trek(6, 3, 0, 6));
    let peak2 = |out: &str, opts: &[&str]| {
        run(t, &f, out, "50", opts);
        day(t, out, 2, "fp_worst_mean")
    };
    assert_eq!(peak2("book", &[]), 8.0);
    // 1 per 3 h: 6 h recover 2, day 2 peaks at 2 + 7 = 9; 1 per hour: 6, so -2 + 7 = 5.
    assert_eq!(peak2("s3", &["fatigue_short_rest_hours=3"]), 9.0);
    assert_eq!(peak2("s1", &["fatigue_short_rest_hours=1"]), 5.0);
    // A full rest from 6 h: -7 from 4 is -3 (the floor), day 2 peaks at -3 + 7 = 4.
    assert_eq!(peak2("f6", &["fatigue_full_rest_hours=6"]), 4.0);
    // A full rest from 10 h makes the book's 8 h night a short rest of 8/2 = 4: march +6,
    // 8 h nights: day 1 ends at 4, the night leaves 0, day 2 peaks at 7 (book: -3 + 7 = 4).
    let g = write(t, "eight.toml", &trek(6, 3, 0, 8));
    run(t, &g, "g_book", "50", &[]);
    run(t, &g, "g_f10", "50", &["fatigue_full_rest_hours=10"]);
    assert_eq!(day(t, "g_book", 2, "fp_worst_mean"), 4.0);
    assert_eq!(day(t, "g_f10", 2, "fp_worst_mean"), 7.0);
}

/// C-FAT-3 by hand: march +8, three meals and one pause. Day 1 reaches FP 9, the meals
/// take it to 6, the book's pause to 5 (above the floor of 3); FM 1 -> -2 stays (a pause
/// never lowers a track at or under the floor).
#[test]
fn pauses_and_meals_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "pause.toml", &trek(8, 3, 1, 8));
    let end1 = |out: &str, opts: &[&str]| {
        run(t, &f, out, "50", opts);
        day(t, out, 1, "fp_end_mean")
    };
    assert_eq!(end1("book", &[]), 5.0);
    assert_eq!(day(t, "book", 1, "fm_end_mean"), -2.0);
    // A pause of -2: 6 -> 4; a floor of 6: the pause does nothing; a floor of 5.5 cannot
    // be, a floor of 5 with -2: 6 -> 5 (not below the floor).
    assert_eq!(end1("r2", &["fatigue_pause_relief=2"]), 4.0);
    assert_eq!(end1("fl6", &["fatigue_pause_floor=6"]), 6.0);
    assert_eq!(
        end1(
            "r2fl5",
            &["fatigue_pause_relief=2", "fatigue_pause_floor=5"]
        ),
        5.0
    );
    // No pause counts: 6; one meal counts: 9 - 1 = 8, the pause 7; FM 1 - 1 = 0.
    assert_eq!(end1("p0", &["fatigue_pauses_per_day=0"]), 6.0);
    assert_eq!(end1("m1", &["fatigue_meals_per_day=1"]), 7.0);
    assert_eq!(day(t, "m1", 1, "fm_end_mean"), 0.0);
    // No meal counts: 9 - 1 (the pause) = 8, and the meals eaten still keep off fasting
    // (FM stays at 1).
    assert_eq!(end1("m0", &["fatigue_meals_per_day=0"]), 8.0);
    assert_eq!(day(t, "m0", 1, "fm_end_mean"), 1.0);
}

/// C-FAT-2 by hand. No food, 8 h nights: day 1 +1, fasting X = 1 +2: ends at 3; the night
/// recovers 7/2 = 3: 0; day 2 +1, fasting X = 2 +4: ends at 5.
/// No sleep, three meals: day 1 +1, meals -3: -2; the night X = 1 +3: 1; day 2 peaks at 2.
#[test]
fn fasting_and_sleepless_gains_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "fast.toml", &trek(0, 0, 0, 8));
    let ends = |out: &str, opts: &[&str]| {
        run(t, &f, out, "50", opts);
        (day(t, out, 1, "fp_end_mean"), day(t, out, 2, "fm_end_mean"))
    };
    assert_eq!(ends("book", &[]), (3.0, 5.0));
    // +3X: 4; -3: 1; 2 + 6 = 8. +0: 1; -3: -2; -1.
    assert_eq!(ends("g3", &["fatigue_fasting_gain=3"]), (4.0, 8.0));
    assert_eq!(ends("g0", &["fatigue_fasting_gain=0"]), (1.0, -1.0));
    let g = write(t, "awake.toml", &trek(0, 3, 0, 0));
    let peak2 = |out: &str, opts: &[&str]| {
        run(t, &g, out, "50", opts);
        day(t, out, 2, "fp_worst_mean")
    };
    assert_eq!(peak2("w_book", &[]), 2.0);
    // +(4X+1): -2 + 5 = 3, day 2 peaks at 4; +(0X+1): -1, day 2 peaks at 0.
    assert_eq!(peak2("w4", &["fatigue_sleepless_gain=4"]), 4.0);
    assert_eq!(peak2("w0", &["fatigue_sleepless_gain=0"]), 0.0);
}

#[test]
fn recovery_parameters_out_of_range_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = scenario("expedition.toml");
    for bad in [
        "fatigue_short_rest_hours=0",
        "fatigue_short_rest_hours=25",
        "fatigue_full_rest_hours=0",
        "fatigue_full_rest_hours=25",
        "fatigue_pause_relief=-1",
        "fatigue_pause_relief=14",
        "fatigue_pause_floor=-4",
        "fatigue_pause_floor=11",
        "fatigue_meals_per_day=4",
        "fatigue_pauses_per_day=-1",
        "fatigue_pauses_per_day=4",
        "fatigue_fasting_gain=11",
        "fatigue_sleepless_gain=-1",
        "fatigue_rest_quality_max=4",
    ] {
        let o = cosmosim(
            t,
            &[
                "run", &f, "--trials", "10", "--out", "x", "--quiet", "--option", bad,
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let e = String::from_utf8_lossy(&o.stderr);
        let key = bad.split('=').next().unwrap();
        assert!(e.contains(key), "{bad}: {e}");
    }
}

/// C-FAT-3 by hand: march +8, three meals, 8 h nights in optimal conditions
/// (`rest_quality = 3`). Day 1 reaches FP 9, the meals 6; the book's night recovers
/// 7 + 3 = 10, down to the floor of -3, so day 2 peaks at -3 + 9 = 6. Counting the quality
/// up to 1: 6 - 8 = -2, day 2 peaks at 7; up to 0: -1, 8.
#[test]
fn rest_quality_cap_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let text = trek(8, 3, 0, 8).replace("rest_quality = 0", "rest_quality = 3");
    let f = write(t, "comfy.toml", &text);
    let peak2 = |out: &str, opts: &[&str]| {
        run(t, &f, out, "50", opts);
        day(t, out, 2, "fp_worst_mean")
    };
    assert_eq!(peak2("book", &[]), 6.0);
    assert_eq!(peak2("q1", &["fatigue_rest_quality_max=1"]), 7.0);
    assert_eq!(peak2("q0", &["fatigue_rest_quality_max=0"]), 8.0);
}

// ---- The potion table (`potion_effects`, C-FAT-3) and the +1 of a sleepless night
// (`fatigue_sleepless_extra`, C-FAT-2). ----

/// Every potion at the book's reading of C-FAT-3, written out.
const BOOK_POTIONS: &str = "potion_effects=healing=-1/0,healing_plus=-2/0,healing_max=-3/0,\
healing_concentrated=-2/0,healing_concentrated_plus=-3/0,healing_concentrated_max=-4/0,\
mana=0/0,mana_plus=0/-1,mana_max=0/-2,mana_concentrated=0/-2,mana_concentrated_plus=0/-3,\
mana_concentrated_max=0/-4,phoenix=-5/-3,energising=-5/3";

#[test]
fn potion_table_and_sleepless_extra_at_their_book_values_give_todays_bytes() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    for (i, f) in ["expedition.toml", "party-expedition-quick.toml"]
        .iter()
        .enumerate()
    {
        let f = scenario(f);
        run(t, &f, &format!("b{i}"), "2000", &[]);
        run(
            t,
            &f,
            &format!("p{i}"),
            "2000",
            &[BOOK_POTIONS, "fatigue_sleepless_extra=1"],
        );
        assert_eq!(
            csvs(&t.join(format!("p{i}"))),
            csvs(&t.join(format!("b{i}"))),
            "{f}"
        );
        // Provenance lists the new parameters only when set off the default.
        let meta = std::fs::read_to_string(t.join(format!("b{i}/expedition-days.meta.json")))
            .or_else(|_| std::fs::read_to_string(t.join(format!("b{i}/party-days.meta.json"))))
            .unwrap();
        assert!(!meta.contains("potion_effects"), "{meta}");
        assert!(!meta.contains("fatigue_sleepless_extra"), "{meta}");
    }
}

/// A potion the scenario does not drink moves nothing: expedition.toml drinks healing_plus
/// and mana_plus only, so a changed mana_max leaves every CSV as it was, while a changed
/// healing_plus moves the FP figures (and is listed in provenance).
#[test]
fn only_the_potions_drunk_move_the_figures() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = scenario("expedition.toml");
    run(t, &f, "book", "3000", &[]);
    run(t, &f, "mm", "3000", &["potion_effects=mana_max=-9/-9"]);
    assert_eq!(csvs(&t.join("mm")), csvs(&t.join("book")));
    run(t, &f, "hp", "3000", &["potion_effects=healing_plus=-6/0"]);
    assert_ne!(csvs(&t.join("hp")), csvs(&t.join("book")));
    // Day 1 cannot reach the potion's FP 6 (start -1 for Force 62, +1 daily, +1 march,
    // at most one fight of 2d4 rounds: +2), so day 1 is the book's; later days only lower.
    assert_eq!(
        day(t, "hp", 1, "fp_end_mean"),
        day(t, "book", 1, "fp_end_mean")
    );
    let mut later_lower = false;
    for dd in 2..=10 {
        let (a, b) = (
            day(t, "hp", dd, "fp_end_mean"),
            day(t, "book", dd, "fp_end_mean"),
        );
        assert!(a <= b + 1e-12, "day {dd}: {a} > {b}");
        later_lower |= a < b - 0.01;
    }
    assert!(later_lower);
    let meta = std::fs::read_to_string(t.join("hp/expedition-days.meta.json")).unwrap();
    assert!(
        meta.contains("\"potion_effects\": \"healing_plus=-6/0\""),
        "{meta}"
    );
    assert!(
        meta.contains("\"fatigue_sleepless_extra\": \"1\""),
        "{meta}"
    );
}

/// C-FAT-3 by hand: march +6, three meals, one healing_plus for FP 1 or more. Day 1 goes
/// to FP 7 / FM 1, the meals to 4 / -2, the book's potion (-2 FP) to 2 / -2.
#[test]
fn a_changed_potion_moves_the_evening_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let text = trek(6, 3, 0, 8).replace(
        "[expedition.reference_test]",
        "[[expedition.potions]]\npotion = \"healing_plus\"\ncount = 1\nwhen_fp = 1\n\n\
[expedition.reference_test]",
    );
    let f = write(t, "potion.toml", &text);
    let end1 = |out: &str, opts: &[&str]| {
        run(t, &f, out, "50", opts);
        (day(t, out, 1, "fp_end_mean"), day(t, out, 1, "fm_end_mean"))
    };
    assert_eq!(end1("book", &[]), (2.0, -2.0));
    // -4/-1: FP 4 - 4 = 0, FM -2 - 1 = -3 (the floor).
    assert_eq!(
        end1("m4", &["potion_effects=healing_plus=-4/-1"]),
        (0.0, -3.0)
    );
    // -2/+3 (adding, like the energising potion's FM): FM -2 + 3 = 1.
    assert_eq!(
        end1("p3", &["potion_effects=healing_plus=-2/3"]),
        (2.0, 1.0)
    );
    // 0/0: the potion is drunk for nothing.
    assert_eq!(end1("z", &["potion_effects=healing_plus=0/0"]), (4.0, -2.0));
    // Another potion's entry leaves healing_plus at the book's -2.
    assert_eq!(end1("ph", &["potion_effects=phoenix=-13/-13"]), (2.0, -2.0));
}

/// C-FAT-2 by hand: no sleep, three meals. Day 1 +1, meals -3: -2; the first night
/// without sleep adds 2·1 + extra; day 2 peaks at that + 1.
#[test]
fn sleepless_extra_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "awake.toml", &trek(0, 3, 0, 0));
    let peak2 = |out: &str, opts: &[&str]| {
        run(t, &f, out, "50", opts);
        day(t, out, 2, "fp_worst_mean")
    };
    // Book +(2X+1): -2 + 3 = 1, peak 2; extra 0: -2 + 2 = 0, peak 1; extra 4: 4, peak 5.
    assert_eq!(peak2("book", &[]), 2.0);
    assert_eq!(peak2("e0", &["fatigue_sleepless_extra=0"]), 1.0);
    assert_eq!(peak2("e4", &["fatigue_sleepless_extra=4"]), 5.0);
    // Both at 0: a sleepless night adds nothing, day 2 peaks at -2 + 1 = -1.
    assert_eq!(
        peak2(
            "e0g0",
            &["fatigue_sleepless_extra=0", "fatigue_sleepless_gain=0"]
        ),
        -1.0
    );
    // The second night (X = 2) adds 2·2 + extra: book day 2 ends at 2 - 3 = -1, the
    // night +5 -> 4; extra 0: 1 - 3 = -2, +4 -> 2. Read on day 3's peak (+1).
    let g = write(
        t,
        "awake3.toml",
        &trek(0, 3, 0, 0).replace("days = 2", "days = 3"),
    );
    let peak3 = |out: &str, opts: &[&str]| {
        run(t, &g, out, "50", opts);
        day(t, out, 3, "fp_worst_mean")
    };
    assert_eq!(peak3("t_book", &[]), 5.0);
    assert_eq!(peak3("t_e0", &["fatigue_sleepless_extra=0"]), 3.0);
}

#[test]
fn potion_table_and_sleepless_extra_out_of_range_exit_2() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = scenario("expedition.toml");
    for (bad, range) in [
        ("fatigue_sleepless_extra=-1", "from 0 to 10"),
        ("fatigue_sleepless_extra=11", "from 0 to 10"),
        ("potion_effects=phoenix=-14/0", "from -13 to 13"),
        ("potion_effects=phoenix=0/14", "from -13 to 13"),
        ("potion_effects=elixir=-1/0", "healing_concentrated_plus"),
        ("potion_effects=phoenix=-1", "name=number/number"),
        ("potion_effects=phoenix=-1.5/0", "whole numbers"),
    ] {
        let o = cosmosim(
            t,
            &[
                "run", &f, "--trials", "10", "--out", "x", "--quiet", "--option", bad,
            ],
        );
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let e = String::from_utf8_lossy(&o.stderr);
        let key = bad.split('=').next().unwrap();
        assert!(e.contains(key) && e.contains(range), "{bad}: {e}");
    }
    // In French: the same range, the French frame (allowed values, whole numbers).
    let o = cosmosim(
        t,
        &[
            "--lang",
            "fr",
            "run",
            &f,
            "--trials",
            "10",
            "--out",
            "x",
            "--quiet",
            "--option",
            "potion_effects=phoenix=-14/0",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("valeurs admises") && e.contains("nombres entiers de -13 à 13"),
        "{e}"
    );
    // In a file's [rules], with its line.
    let text = trek(0, 3, 0, 8).replace(
        "[expedition]",
        "[rules]\npotion_effects = \"phoenix=-20/0\"\n\n[expedition]",
    );
    let g = write(t, "bad.toml", &text);
    let o = cosmosim(t, &["check", &g]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("bad.toml:5:") && e.contains("potion_effects") && e.contains("-13 to 13"),
        "{e}"
    );
}

/// A party's shared rations serve only as many rounds as meals count that day
/// (`fatigue_meals_per_day`, C-FAT-3). Two travellers (start 0/0), 4 rations, 3 meals
/// planned, one meal counting: day 1 serves one round (4 -> 2), day 2 one more (-> 0);
/// nobody fasts. Day 1: +1, the meal -1: 0; the night -7: -3. Day 2: +1, -1: -3.
/// (Serving 3 rounds would empty the bags on day 1, and both would fast on day 2: +1,
/// fasting +2: 0.)
#[test]
fn party_rations_serve_only_the_meals_that_count() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(
        t,
        "bags.toml",
        r#"system = "cosmos"
kind = "expedition"

[expedition]
days = 2

[[expedition.travellers]]
name = "a"
force = 50
esprit = 50

[[expedition.travellers]]
name = "b"
force = 50
esprit = 50

[expedition.party]
rations = 4

[expedition.day]
meals = 3
sleep_hours = 8

[expedition.reference_test]
stat = "agilite"
threshold = 55
"#,
    );
    run(t, &f, "one", "50", &["fatigue_meals_per_day=1"]);
    let party = |d: i64, c: &str| {
        let csv = std::fs::read_to_string(t.join("one/party-days.csv")).unwrap();
        row(&csv, &[("day", &d.to_string())], c)
    };
    assert_eq!(party(1, "rations_left_mean"), 2.0);
    assert_eq!(party(2, "rations_left_mean"), 0.0);
    let member = |who: &str, d: i64, c: &str| {
        let csv = std::fs::read_to_string(t.join("one/party-travellers.csv")).unwrap();
        row(&csv, &[("traveller", who), ("day", &d.to_string())], c)
    };
    for who in ["a", "b"] {
        assert_eq!(member(who, 1, "fp_end_mean"), 0.0, "{who}");
        assert_eq!(member(who, 2, "fp_end_mean"), -3.0, "{who}");
    }
    // No meal counting: one round is still served, so nobody fasts (C-FAT-2): day 1 +1:
    // 1, the night -7: -3; day 2: -2.
    run(t, &f, "none", "50", &["fatigue_meals_per_day=0"]);
    let csv = std::fs::read_to_string(t.join("none/party-days.csv")).unwrap();
    assert_eq!(row(&csv, &[("day", "1")], "rations_left_mean"), 2.0);
    let csv = std::fs::read_to_string(t.join("none/party-travellers.csv")).unwrap();
    assert_eq!(
        row(&csv, &[("traveller", "a"), ("day", "2")], "fp_end_mean"),
        -2.0
    );
    // The book's three meals: day 1 serves 2 rounds (4 -> 0; a third finds the bags
    // empty), day 2 nobody eats.
    run(t, &f, "book", "50", &[]);
    let csv = std::fs::read_to_string(t.join("book/party-days.csv")).unwrap();
    assert_eq!(row(&csv, &[("day", "1")], "rations_left_mean"), 0.0);
}

/// The figure `column` in the row of `csv` whose key columns hold the given values.
fn row(csv: &str, keys: &[(&str, &str)], column: &str) -> f64 {
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        if keys.iter().all(|(k, v)| c[at(k)] == *v) {
            return c[at(column)].parse().unwrap();
        }
    }
    panic!("no row {keys:?}");
}
