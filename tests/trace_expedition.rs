//! Issue 27 item 1: `cosmosim trace` on Great Cosmos expeditions (a traveller alone and a
//! party, abstract fights and played combats): replays tally to the run's counts, `--find`
//! reads how an expedition ended, and the account tells each day's FP/FM moves
//! (C-FAT-1..4) in English and French.

use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials, shipped};

/// Column `col` of a CSV, as numbers.
fn column(path: &Path, col: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = head.iter().position(|h| *h == col).unwrap();
    lines
        .map(|l| l.split(',').nth(c).unwrap().parse().unwrap())
        .collect()
}

fn fails_naming(dir: &Path, args: &[&str], says: &str) {
    let o = cosmosim(dir, args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains(says), "{args:?}: {e}");
}

#[test]
fn a_travellers_replays_tally_to_the_runs_exhaustion_count() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "expedition.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
    let trials = json_trials(&o);
    assert_eq!(trials.len(), 300);
    for (i, t) in trials.iter().enumerate() {
        assert_eq!(t["trial"], i as u64);
        let steps = t["steps"].as_array().unwrap();
        assert_eq!(steps.last().unwrap()["step"], "end");
        assert_eq!(steps.last().unwrap()["outcome"], t["outcome"]);
        // Ten days, each told.
        assert_eq!(steps.iter().filter(|s| s["step"] == "day").count(), 10);
        // Every step that moves a track says from what to what, and the next one starts
        // where it ended.
        let mut at: Option<serde_json::Value> = None;
        for s in steps.iter().filter(|s| s.get("after").is_some()) {
            if let (Some(a), Some(b)) = (&at, s.get("before")) {
                assert_eq!(a, b, "trial {i}: {s}");
            }
            at = Some(s["after"].clone());
        }
    }
    // expedition-exhaustion.csv: p_by_end, the share exhausted on some day.
    let p = column(&d.join("r/expedition-exhaustion.csv"), "p_by_end")[0];
    let exhausted = trials
        .iter()
        .filter(|t| t["outcome"] == "exhausted")
        .count();
    let rest = trials
        .iter()
        .filter(|t| t["outcome"] == "not_exhausted")
        .count();
    assert_eq!(exhausted, (p * 300.0).round() as usize, "p_by_end {p}");
    assert_eq!(exhausted + rest, 300);
    assert!(exhausted > 0 && rest > 0, "{exhausted} of 300");
    // The days' P(exhausted) at the worst point, day by day, from the evenings told.
    let per_day = column(&d.join("r/expedition-days.csv"), "p_exhausted_worst");
    for (day, p) in per_day.iter().enumerate() {
        let n = trials
            .iter()
            .filter(|t| {
                t["steps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|s| s["step"] == "evening")
                    .nth(day)
                    .unwrap()["exhausted"]
                    == true
            })
            .count();
        assert_eq!(n, (p * 300.0).round() as usize, "day {}", day + 1);
    }
    // The summary says how to see each outcome that happened.
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("## See a trial"), "{s}");
    assert!(
        s.contains("`cosmosim trace expedition.toml --find outcome=exhausted --seed 1`"),
        "{s}"
    );
    assert!(s.contains("--find outcome=not_exhausted --seed 1`"), "{s}");
}

#[test]
fn find_shows_an_exhausted_traveller_and_bad_conditions_name_the_allowed_ones() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "expedition.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "exhausted",
            "--count",
            "2",
            "--format",
            "json",
        ],
    );
    let found = json_trials(&o);
    assert_eq!(found.len(), 2);
    for t in &found {
        assert_eq!(t["outcome"], "exhausted");
        let steps = t["steps"].as_array().unwrap();
        assert!(
            steps
                .iter()
                .any(|s| s["step"] == "evening" && s["exhausted"] == true),
            "{t}"
        );
        // A track at 10 somewhere.
        assert!(
            steps
                .iter()
                .any(|s| s["after"]["fp"] == 10 || s["after"]["fm"] == 10),
            "{t}"
        );
    }
    // Replayed by number, the found trial tells the same story.
    let n = found[0]["trial"].as_u64().unwrap().to_string();
    let o = cosmosim(d, &["trace", &f, "--trial", &n, "--format", "json"]);
    assert_eq!(json_trials(&o)[0]["steps"], found[0]["steps"]);
    // Exhausted by day 5 (the forced march of days 4 and 5), with a potion drunk.
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "exhausted_by=5,potions_at_least=1",
            "--format",
            "json",
        ],
    );
    let t = &json_trials(&o)[0];
    let end = t["steps"].as_array().unwrap().last().unwrap().clone();
    assert!(end["first_exhaustion"].as_i64().unwrap() <= 5, "{end}");
    assert!(t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["step"] == "potion"));
    let o = cosmosim(d, &["trace", &f, "--find", "outcome=not_exhausted"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Day 10"), "{text}");
    assert!(
        text.contains("End: not_exhausted (first exhaustion: never)"),
        "{text}"
    );
    for (args, says) in [
        (vec!["trace", &f, "--find", "fire"], "exhausted_by=<day>"),
        (
            vec!["trace", &f, "--find", "outcome=dead"],
            "exhausted, not_exhausted",
        ),
        (vec!["trace", &f, "--find", "exhausted_by=11"], "1..10"),
        (
            vec!["trace", &f, "--find", "stopped_by=3"],
            "potions_at_least",
        ),
    ] {
        fails_naming(d, &args, says);
    }
}

#[test]
fn a_partys_replays_tally_to_the_runs_stops_and_find_reads_a_traveller() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "party-expedition-quick.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
    let trials = json_trials(&o);
    let p = *column(&d.join("r/party-days.csv"), "p_party_stopped_by_day")
        .last()
        .unwrap();
    let stopped = trials.iter().filter(|t| t["outcome"] == "stopped").count();
    let went_on = trials.iter().filter(|t| t["outcome"] == "went_on").count();
    assert_eq!(stopped, (p * 300.0).round() as usize, "{p}");
    assert_eq!(stopped + went_on, 300);
    assert!(stopped > 0 && went_on > 0, "{stopped} of 300");
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("--find outcome=stopped --seed"), "{s}");
    // Each traveller by name; the shared rations run down.
    let steps = trials[0]["steps"].as_array().unwrap();
    for name in ["Warrior", "Mage", "Scout", "Healer"] {
        assert!(
            steps
                .iter()
                .any(|s| s["step"] == "morning" && s["who"] == name),
            "{name}"
        );
    }
    assert!(steps.iter().any(|s| s["step"] == "rations"));
    let o = cosmosim(
        d,
        &["trace", &f, "--find", "exhausted=Mage", "--format", "json"],
    );
    let t = &json_trials(&o)[0];
    assert!(
        t["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["step"] == "evening" && s["who"] == "Mage" && s["exhausted"] == true),
        "{t}"
    );
    fails_naming(
        d,
        &["trace", &f, "--find", "exhausted=Ogre"],
        "Warrior, Mage, Scout, Healer",
    );
    fails_naming(
        d,
        &["trace", &f, "--find", "outcome=exhausted"],
        "stopped, went_on",
    );
}

#[test]
fn a_played_combat_is_one_step_with_its_result() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    shipped(d, "party-vs-boss.toml");
    let f = shipped(d, "party-expedition.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "200", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..199", "--format", "json"]);
    let trials = json_trials(&o);
    let p = *column(&d.join("r/party-days.csv"), "p_party_stopped_by_day")
        .last()
        .unwrap();
    let stopped = trials.iter().filter(|t| t["outcome"] == "stopped").count();
    assert_eq!(stopped, (p * 200.0).round() as usize, "{p}");
    let combat = trials
        .iter()
        .flat_map(|t| t["steps"].as_array().unwrap())
        .find(|s| s["step"] == "combat")
        .expect("a played combat");
    assert_eq!(combat["file"], "party-vs-boss.toml");
    assert!(combat["rounds"].as_u64().unwrap() >= 1);
    let o = cosmosim(
        d,
        &["trace", &f, "--find", "knocked_out", "--format", "json"],
    );
    if o.status.success() {
        let t = &json_trials(&o)[0];
        assert!(t["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["step"] == "fought" && s["knockout"] == true));
    }
}

#[test]
fn the_account_reads_in_french() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "expedition.toml");
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Jour 1"), "{text}");
    assert!(text.contains("Le voyageur commence à FP -1"), "{text}");
    assert!(text.contains("court repos de 6 h"), "{text}");
    assert!(text.contains("jour 1 d'affilée sans manger"), "{text}");
    assert!(!text.contains("Day 1"), "{text}");
    let o = cosmosim(
        d,
        &[
            "--lang", "fr", "-q", "run", &f, "--trials", "200", "--out", "r",
        ],
    );
    assert!(o.status.success());
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("--find outcome=exhausted --seed 1`"), "{s}");
}
