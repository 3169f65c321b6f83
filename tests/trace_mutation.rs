//! Issue 27 item 1 for `kind = "mutation"`: `cosmosim trace` replays characters of a run
//! (the gauge, each mutation's Chance test, minors, majors, ultimates), bit-identical to
//! the batch run, and finds them by how their mutations ended.

use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials, shipped};

/// Column `col` of a CSV's rows whose first field is `key`.
fn csv_value(path: &Path, key: &str, col: &str) -> f64 {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = head.iter().position(|h| *h == col).unwrap();
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f[0] == key)
        .map(|f| f[c].parse().unwrap())
        .unwrap_or_else(|| panic!("{key} in {}", path.display()))
}

#[test]
fn replayed_characters_end_as_the_run_counted_them() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    const N: usize = 400;
    // The plain day loop and the one with events, levels, campaign tests and therapy.
    for name in ["mutation.toml", "mutation-events.toml"] {
        let f = shipped(d, name);
        let out = format!("r-{name}");
        let o = cosmosim(d, &["-q", "run", &f, "--trials", "400", "--out", &out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = cosmosim(d, &["trace", &f, "--trials", "0..399", "--format", "json"]);
        let trials = json_trials(&o);
        assert_eq!(trials.len(), N);
        for (i, t) in trials.iter().enumerate() {
            assert_eq!(t["trial"], i as u64);
            let steps = t["steps"].as_array().unwrap();
            let end = steps.last().unwrap();
            assert_eq!(
                (&end["step"], &end["outcome"]),
                (&"end".into(), &t["outcome"])
            );
            // The first ultimate step names the outcome; no ultimate, `none`.
            let first = steps.iter().find(|s| s["step"] == "ultimate");
            assert_eq!(
                first.map_or("none", |s| s["ultimate"].as_str().unwrap()),
                t["outcome"].as_str().unwrap(),
                "{t}"
            );
            for s in steps {
                if s["step"] == "exposure" {
                    let (a, b, p) = (&s["gauge_from"], &s["gauge_to"], &s["pmu"]);
                    assert_eq!(
                        a.as_i64().unwrap() + p.as_i64().unwrap(),
                        b.as_i64().unwrap()
                    );
                }
            }
        }
        let r = d.join(&out);
        let none = trials.iter().filter(|t| t["outcome"] == "none").count();
        let with = (N - none) as f64;
        let p = csv_value(&r.join("mutation-times.csv"), "ultimate", "p_by_end");
        assert_eq!((p * N as f64).round() as usize, N - none, "{name}");
        let mut seen = 0;
        for u in ["abomination", "fatal", "zombie", "half_hp"] {
            let replayed = trials.iter().filter(|t| t["outcome"] == u).count();
            let share = csv_value(&r.join("mutation-ultimates.csv"), u, "share_first");
            assert_eq!((share * with).round() as usize, replayed, "{name} {u}");
            seen += (replayed > 0) as usize;
        }
        assert!(seen >= 3 && none > 0, "{name}");
        let summary = std::fs::read_to_string(r.join("summary.md")).unwrap();
        assert!(summary.contains("## See a trial"), "{summary}");
        assert!(
            summary.contains(&format!(
                "`cosmosim trace {f} --find outcome=none --seed 1`"
            )),
            "{summary}"
        );
        assert!(summary.contains(&format!("`cosmosim trace {f} --trial 0 --seed 1`")));
    }
}

#[test]
fn find_shows_a_zombie_and_an_event_and_refuses_bad_conditions() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "mutation-events.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "outcome=zombie,event=zombie bite",
            "--count",
            "2",
            "--format",
            "json",
        ],
    );
    let found = json_trials(&o);
    assert_eq!(found.len(), 2);
    for t in &found {
        assert_eq!(t["outcome"], "zombie");
        let steps = t["steps"].as_array().unwrap();
        assert!(steps
            .iter()
            .any(|s| s["step"] == "event" && s["event"] == "zombie bite"));
        // The bite's major (C-GENE-5 counts it) and three majors before the ultimate.
        assert!(steps
            .iter()
            .any(|s| s["step"] == "major" && s["cause"] == "event"));
        let at = steps.iter().position(|s| s["step"] == "ultimate").unwrap();
        assert_eq!(steps[at - 1]["majors"], 3, "{t}");
        // Every mutation's Chance test shows its Chance, karma and outcome.
        let roll = steps.iter().find(|s| s["step"] == "roll").unwrap();
        assert!(roll["chance"].as_i64().unwrap() >= 45 && roll["karma"].is_i64());
    }
    // The same trial replayed alone tells the same story.
    let n = found[1]["trial"].as_u64().unwrap().to_string();
    let again = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trial", &n, "--format", "json"],
    ));
    assert_eq!(again[0], found[1]);
    let o = cosmosim(d, &["trace", &f, "--find", "chain,ultimate_by=90"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("three consecutive genes"), "{text}");
    for (cond, says) in [
        (
            "outcome=werewolf",
            "abomination, fatal, zombie, half_hp, none",
        ),
        ("final=half_hp", "abomination, fatal, zombie, none"),
        ("event=flood", "zombie bite, mutagen dose"),
        ("colour", "positive_major"),
        ("ultimate_by=soon", "1, 2, 3"),
    ] {
        let o = cosmosim(d, &["trace", &f, "--find", cond]);
        assert_eq!(o.status.code(), Some(2), "{cond}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{cond}: {e}");
    }
}

#[test]
fn a_character_is_told_in_french() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "mutation-events.toml");
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Jour 1 : niveau 3, Chance 45"), "{text}");
    assert!(
        text.contains("jet de chance pour une mutation du gène"),
        "{text}"
    );
    assert!(text.contains("jauge"), "{text}");
    assert!(!text.contains("Day "), "{text}");
}

/// The summary's share of positive majors is the share of all majors the replayed
/// characters had, pooled (audit of 2026-12-06: it was the mean of each character's own
/// share, 0.3697 here instead of 360 / 994 = 0.3622).
#[test]
fn the_positive_major_share_is_pooled_over_the_characters() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "mutation.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "400", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..399", "--format", "json"]);
    let (mut positive, mut majors, mut own_shares) = (0usize, 0usize, vec![]);
    for t in json_trials(&o) {
        let steps = t["steps"].as_array().unwrap();
        let m: Vec<_> = steps.iter().filter(|s| s["step"] == "major").collect();
        let p = m.iter().filter(|s| s["positive"] == true).count();
        if !m.is_empty() {
            own_shares.push(p as f64 / m.len() as f64);
        }
        positive += p;
        majors += m.len();
    }
    let pooled = positive as f64 / majors as f64;
    let mean = own_shares.iter().sum::<f64>() / own_shares.len() as f64;
    assert!(
        (pooled - mean).abs() > 1e-3,
        "the two readings must differ here"
    );
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    let line = summary
        .lines()
        .find(|l| l.contains("major mutations that are positive"))
        .expect("the positive share line");
    let shown: f64 = line
        .split("): ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (shown - pooled).abs() < 5e-5,
        "{line} against {positive}/{majors}"
    );
}
