//! `cosmosim trace` on Great Cosmos creation files (issue 27): replayed characters tally to
//! the run's CSVs (values, rolls, race/class sheets), `--find` picks characters by what
//! happened, the account is in French too, and the run's summary says how to see one.

use std::collections::HashMap;
use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials, shipped};

/// A CSV's rows keyed by their first column, each a map column -> value.
fn csv(path: &Path) -> HashMap<String, HashMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            let row = head
                .iter()
                .zip(&f)
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect();
            (f[0].to_string(), row)
        })
        .collect()
}

fn times(v: &str, n: f64) -> i64 {
    (v.parse::<f64>().unwrap() * n).round() as i64
}

fn steps(t: &serde_json::Value) -> &Vec<serde_json::Value> {
    t["steps"].as_array().unwrap()
}

fn end(t: &serde_json::Value) -> &serde_json::Value {
    steps(t).last().unwrap()
}

#[test]
fn replayed_characters_tally_to_the_run() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "creation.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trials = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trials", "0..299", "--format", "json"],
    ));
    assert_eq!(trials.len(), 300);
    let dist = csv(&d.join("r/creation-distributions.csv"));
    let rej = csv(&d.join("r/creation-rejection.csv"));
    let mut sums: HashMap<&str, i64> = HashMap::new();
    let (mut hp_rolls, mut stat_rolls, mut d100, mut first) = (0i64, 0i64, 0i64, 0);
    for (i, t) in trials.iter().enumerate() {
        assert_eq!(t["trial"], i as u64);
        let e = end(t);
        assert_eq!(e["step"], "end");
        *sums.entry("hp").or_default() += e["hp"].as_i64().unwrap();
        *sums.entry("pm").or_default() += e["pm"].as_i64().unwrap();
        *sums.entry("skill_points").or_default() += e["skill_points"].as_i64().unwrap();
        *sums.entry("dna_points").or_default() += e["dna_points"].as_i64().unwrap();
        for s in [
            "force",
            "esprit",
            "charisme",
            "agilite",
            "precision",
            "chance",
        ] {
            let v = e["stats"][s].as_i64().unwrap();
            assert!((20..=80).contains(&v), "{s} {v}");
            *sums.entry(s).or_default() += v;
        }
        let (mut h, mut st) = (0, 0);
        for s in steps(t) {
            match s["step"].as_str().unwrap() {
                "hp_pm_roll" => h += 1,
                "stat_roll" => {
                    st += 1;
                    for die in s["dice"].as_array().unwrap() {
                        d100 += 1 + die["rerolled"].as_array().unwrap().len() as i64;
                    }
                }
                "split" => {
                    // C-CREATE-1: five dice to HP, five to PM.
                    let hp: i64 = s["hp_dice"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|x| x.as_i64().unwrap())
                        .sum();
                    assert_eq!(hp, s["hp"].as_i64().unwrap());
                }
                _ => {}
            }
        }
        hp_rolls += h;
        stat_rolls += st;
        let want = if h == 1 && st == 1 {
            first += 1;
            "accepted_first"
        } else {
            "rerolled"
        };
        assert_eq!(t["outcome"], want);
    }
    for (q, sum) in &sums {
        assert_eq!(*sum, times(&dist[*q]["mean"], 300.0), "{q}");
    }
    assert_eq!(sums.len(), 10);
    assert_eq!(
        hp_rolls,
        times(&rej["hp_pm_10d100"]["mean_rolls_mc"], 300.0)
    );
    assert_eq!(
        stat_rolls,
        times(&rej["stats_6d100"]["mean_rolls_mc"], 300.0)
    );
    assert_eq!(
        d100,
        times(
            &rej["stat_die_in_20_80"]["mean_rolls_mc"],
            6.0 * stat_rolls as f64
        )
    );
    assert!(first > 0 && first < 300, "{first}");
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("## See a trial"), "{s}");
    assert!(
        s.contains("`cosmosim trace creation.toml --find outcome=accepted_first --seed 1`"),
        "{s}"
    );
    assert!(s.contains("--find outcome=rerolled --seed 1`"), "{s}");
}

#[test]
fn race_sheets_are_the_outcomes_and_find_reads_them() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "creation-races.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trials = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trials", "0..299", "--format", "json"],
    ));
    let races = csv(&d.join("r/creation-races.csv"));
    let mut seen = 0;
    for (race, row) in &races {
        let n = trials
            .iter()
            .filter(|t| t["outcome"] == race.as_str())
            .count() as i64;
        assert_eq!(n, times(&row["p_final"], 300.0), "{race}");
        seen += n;
    }
    assert_eq!(seen, 300);
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(
        s.contains("--find outcome=humain_guerrier --seed 1`"),
        "{s}"
    );

    // A fallback sheet: the account says which, and the character meets its limit.
    let found = json_trials(&cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "outcome=humain_guerrier,force_at_least=60",
            "--count",
            "2",
            "--format",
            "json",
        ],
    ));
    assert_eq!(found.len(), 2);
    for t in &found {
        assert_eq!(t["outcome"], "humain_guerrier");
        assert!(end(t)["stats"]["force"].as_i64().unwrap() >= 60);
        assert!(steps(t)
            .iter()
            .any(|s| s["step"] == "race" && s["sheet"] == "humain_guerrier"));
        let n = t["trial"].as_u64().unwrap().to_string();
        let again = json_trials(&cosmosim(
            d,
            &["trace", &f, "--trial", &n, "--format", "json"],
        ));
        assert_eq!(again[0], *t);
    }
    for (cond, says) in [
        ("bogus", "hp_pm_rerolled"),
        (
            "outcome=elfe",
            "nain_guerrier, humain_guerrier, humain_eclaireur, none",
        ),
        ("force_at_least=lots", "0, 1, 2"),
        ("stats_rerolled=1", "without a value"),
    ] {
        let o = cosmosim(d, &["trace", &f, "--find", cond]);
        assert_eq!(o.status.code(), Some(2), "{cond}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{cond}: {e}");
    }
}

#[test]
fn the_account_tells_each_roll_in_english_and_french() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "creation.toml");
    let o = cosmosim(d, &["trace", &f, "--find", "stats_rerolled"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("HP and PM, roll 1: 10d100 = "), "{text}");
    assert!(text.contains("all rolled again"), "{text}");
    assert!(text.contains("Skill points: first d6 = "), "{text}");
    assert!(text.contains("DNA points: 5 + d20 ("), "{text}");
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("PV et PM, lancé 1 : 10d100 = ") && text.contains("Points ADN : 5 + d20"),
        "{text}"
    );
    assert!(text.contains("Personnage : PV "), "{text}");
}
