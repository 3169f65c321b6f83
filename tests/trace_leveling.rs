//! Issue 27 item 1: `cosmosim trace` on Great Cosmos leveling: replays tally to the run's
//! Chance bonuses, `--find` reads how a character ended, and the account tells each
//! level-up's rolls and choices (C-LEVEL-1..4) in English and French.

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

#[test]
fn replayed_characters_tally_to_the_runs_chance_bonuses() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "leveling.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
    let trials = json_trials(&o);
    assert_eq!(trials.len(), 300);
    for (i, t) in trials.iter().enumerate() {
        assert_eq!(t["trial"], i as u64);
        let steps = t["steps"].as_array().unwrap();
        assert_eq!(steps[0]["step"], "created");
        assert_eq!(steps.last().unwrap()["outcome"], t["outcome"]);
        assert_eq!(steps.iter().filter(|s| s["step"] == "level").count(), 9);
        // A stat never passes the cap in force, and gains never lower it.
        let mut cap = 80;
        for s in steps {
            if s["step"] == "level" {
                cap = s["cap"].as_i64().unwrap();
            }
            if s["step"] == "stat" {
                let (b, a) = (s["before"].as_i64().unwrap(), s["after"].as_i64().unwrap());
                assert!(a >= b && a <= cap.max(b), "{s}");
                assert!(a - b <= s["roll"].as_i64().unwrap(), "{s}");
            }
        }
    }
    // leveling-chance.csv: P(Chance bonus) per level, from each level's Chance test told.
    let p = column(&d.join("r/leveling-chance.csv"), "p_chance_bonus");
    let levels = column(&d.join("r/leveling-chance.csv"), "level");
    for (l, p) in levels.iter().zip(&p) {
        let n = trials
            .iter()
            .filter(|t| {
                let steps = t["steps"].as_array().unwrap();
                let at = steps
                    .iter()
                    .position(|s| s["step"] == "level" && s["level"] == *l as u64)
                    .unwrap();
                steps[at..].iter().find(|s| s["step"] == "chance").unwrap()["bonus"] == true
            })
            .count();
        assert_eq!(n, (p * 300.0).round() as usize, "level {l}");
    }
    let bonus = trials.iter().filter(|t| t["outcome"] == "bonus").count();
    assert_eq!(bonus, (p.last().unwrap() * 300.0).round() as usize);
    assert!(bonus > 0 && bonus < 300);
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("## See a trial"), "{s}");
    assert!(
        s.contains("`cosmosim trace leveling.toml --find outcome=no_bonus --seed 1`"),
        "{s}"
    );
}

#[test]
fn find_reads_the_last_level_and_policies_and_refuses_bad_conditions() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "leveling.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "agilite_at_least=85,bonuses_at_least=5",
            "--format",
            "json",
        ],
    );
    let t = &json_trials(&o)[0];
    let steps = t["steps"].as_array().unwrap();
    let chances = steps
        .iter()
        .filter(|s| s["step"] == "chance" && s["bonus"] == true)
        .count();
    assert!(chances >= 5, "{t}");
    // Agilité as created, then each gain and the level-5 moves.
    let mut agilite = 0;
    for s in steps {
        match s["step"].as_str().unwrap() {
            "created" => agilite = s["stats"]["agilite"].as_i64().unwrap(),
            "moves" => agilite = s["after"]["agilite"].as_i64().unwrap(),
            "stat" if s["stat"] == "agilite" => agilite = s["after"].as_i64().unwrap(),
            _ => {}
        }
    }
    assert!(agilite >= 85, "{t}");
    let o = cosmosim(d, &["trace", &f, "--find", "outcome=bonus"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Level 10 (stat cap 85"), "{text}");
    assert!(text.contains("Chance test at"), "{text}");
    assert!(text.contains("End at level 10: bonus"), "{text}");
    for (args, says) in [
        (vec!["trace", &f, "--find", "lucky"], "bonuses_at_least"),
        (
            vec!["trace", &f, "--find", "outcome=win"],
            "bonus, no_bonus",
        ),
        (vec!["trace", &f, "--find", "bonus_at=11"], "2..10"),
        (
            vec!["trace", &f, "--find", "wishes_met=fighter"],
            "<quantity>_at_least",
        ),
    ] {
        let o = cosmosim(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{args:?}: {e}");
    }
    // Builds and DNA policies: each level tells each policy, the builds their last stats.
    let b = shipped(d, "build-paths.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &b,
            "--find",
            "wishes_met=fighter",
            "--format",
            "json",
        ],
    );
    let t = &json_trials(&o)[0];
    let steps = t["steps"].as_array().unwrap();
    let last = steps
        .iter()
        .rfind(|s| s["step"] == "dna_policy" && s["policy"] == "fighter")
        .unwrap();
    assert_eq!(last["wishes_met"], last["wishes"], "{last}");
    assert!(steps.iter().any(|s| s["step"] == "build"));
    let o = cosmosim(d, &["trace", &b, "--find", "wishes_met=rogue"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("fighter, seer"));
}

#[test]
fn the_account_reads_in_french() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "leveling.toml");
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("Niveau 2 (plafond des statistiques 80"),
        "{text}"
    );
    assert!(text.contains("Test de Chance à"), "{text}");
    assert!(text.contains("Points de compétence"), "{text}");
    assert!(text.contains("Déplacements du niveau 5"), "{text}");
    assert!(!text.contains("Level 2"), "{text}");
}
