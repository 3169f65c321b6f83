//! An expedition's recovery numbers as parameters (issue 16, C-FAT-2, C-FAT-3): the short
//! rest's 1 per 2 h (`fatigue_short_rest_hours`), the 8 h of a full rest
//! (`fatigue_full_rest_hours`), the pause's -1 and its floor of 3 (`fatigue_pause_relief`,
//! `fatigue_pause_floor`), three meals and three pauses a day (`fatigue_meals_per_day`,
//! `fatigue_pauses_per_day`), the fasting +2X and sleepless +(2X+1)
//! (`fatigue_fasting_gain`, `fatigue_sleepless_gain`), the rest quality up to 3
//! (`fatigue_rest_quality_max`). Book values give today's bytes;
//! changed values move a day's figure by a hand-computed amount; out of range exits 2.

mod common;

use std::path::Path;

use common::params::{cosmosim, csvs};

fn scenario(name: &str) -> String {
    format!("{}/scenarios/cosmos/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// `run file --trials n --seed 1` with `options` into `out`; asserts success.
fn run(dir: &Path, file: &str, out: &str, trials: &str, options: &[&str]) {
    let mut args = vec![
        "run", file, "--trials", trials, "--seed", "1", "--out", out, "--quiet",
    ];
    for o in options {
        args.extend(["--option", o]);
    }
    let o = cosmosim(dir, &args);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// The figure `column` on day `d` of `expedition-days.csv` in run `out`.
fn day(dir: &Path, out: &str, d: i64, column: &str) -> f64 {
    let csv = std::fs::read_to_string(dir.join(out).join("expedition-days.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        if c[at("day")] == d.to_string() {
            return c[at(column)].parse().unwrap();
        }
    }
    panic!("no day {d}");
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
