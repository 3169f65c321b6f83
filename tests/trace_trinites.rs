//! Issue 27 item 1: `cosmosim trace` replays Trinités duels and skirmishes, bit-identical to
//! the batch run (every trial its own stream), told in the book's terms.

use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials};

fn shipped(dir: &Path, name: &str) -> String {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenarios/trinites/{name}"));
    std::fs::copy(from, dir.join(name)).unwrap();
    name.to_string()
}

/// The rows of a CSV as maps from column to field.
fn csv_rows(path: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    lines
        .map(|l| {
            head.iter()
                .cloned()
                .zip(l.split(',').map(String::from))
                .collect()
        })
        .collect()
}

fn tally(trials: &[serde_json::Value], outcome: &str) -> u64 {
    trials.iter().filter(|t| t["outcome"] == outcome).count() as u64
}

/// Duels: trials 0..299 replayed one by one end as a 300-duel run counted them, for the
/// reference pair and for another pair picked with `--find pair=`.
#[test]
fn duels_replay_as_the_run_counted_them() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "duel.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = csv_rows(&d.join("r/trinites-duel-pairs.csv"));
    for (args, prime, penalty) in [
        (vec!["--trials", "0..299"], "none", "none"),
        (
            vec![
                "--find",
                "pair=blessure_grave/ralentissement",
                "--count",
                "300",
            ],
            "blessure_grave",
            "ralentissement",
        ),
    ] {
        let mut a = vec!["trace", f.as_str()];
        a.extend(args.iter().copied());
        a.extend(["--format", "json"]);
        let trials = json_trials(&cosmosim(d, &a));
        assert_eq!(trials.len(), 300);
        let row = rows
            .iter()
            .find(|r| r["prime"] == prime && r["penalty"] == penalty)
            .unwrap();
        let mut seen = 0;
        for (outcome, column) in [
            ("adam_wins", "p_adam_wins"),
            ("humans_win", "p_humans_win"),
            ("draw", "p_draw"),
        ] {
            let p: f64 = row[column].parse().unwrap();
            let n = tally(&trials, outcome);
            assert_eq!(n, (p * 300.0).round() as u64, "{prime}/{penalty} {outcome}");
            seen += (n > 0) as usize;
        }
        assert!(seen >= 2, "{row:?}");
        for (i, t) in trials.iter().enumerate() {
            assert_eq!(t["trial"], i as u64);
            let steps = t["steps"].as_array().unwrap();
            assert_eq!(steps[0]["prime"], prime);
            assert_eq!(steps.last().unwrap()["step"], "end");
            assert_eq!(steps.last().unwrap()["outcome"], t["outcome"]);
            // Life boxes never go down but by a regeneration.
            for s in steps.iter().filter(|s| s["step"] == "ticks") {
                assert!(s["after"].as_i64() >= s["before"].as_i64(), "{s}");
            }
        }
    }
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(summary.contains("## See a fight"), "{summary}");
    assert!(
        summary.contains("`cosmosim trace duel.toml --find outcome=adam_wins --seed 1`"),
        "{summary}"
    );
    assert!(
        summary.contains("`cosmosim trace duel.toml --trial 0 --seed 1`"),
        "{summary}"
    );
}

#[test]
fn duel_find_reads_how_it_ended_and_refuses_bad_conditions() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "duel.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "outcome=humans_win,adam_fell",
            "--count",
            "2",
            "--format",
            "json",
        ],
    );
    let found = json_trials(&o);
    assert_eq!(found.len(), 2);
    for t in &found {
        assert_eq!(t["outcome"], "humans_win");
        let steps = t["steps"].as_array().unwrap();
        assert!(
            steps
                .iter()
                .any(|s| s["step"] == "falls" && s["who"] == "adam"),
            "{t}"
        );
        // Every strike is an attack test against the target in force, then a reaction
        // or an inert target.
        let a = steps.iter().find(|s| s["step"] == "attack").unwrap();
        assert_eq!(a["target"].as_i64(), Some(12));
        assert_eq!(
            a["final"].as_i64().unwrap(),
            a["natural"].as_i64().unwrap() + a["modifier"].as_i64().unwrap()
        );
    }
    // Replayed by number, the found duel tells the same story.
    let n = found[1]["trial"].as_u64().unwrap().to_string();
    let again = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trial", &n, "--format", "json"],
    ));
    assert_eq!(again[0], found[1]);
    let o = cosmosim(d, &["trace", &f, "--find", "karma_at_least=2"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("regenerates: 1 Light Karma point"));
    for (args, says) in [
        (
            vec!["--find", "outcome=party"],
            "adam_wins, humans_win, draw",
        ),
        (vec!["--find", "apocalypse"], "adam_fell"),
        (
            vec!["--find", "pair=none/risque"],
            "none/none, acceleration/",
        ),
        (vec!["--find", "rounds_at_least=x"], "0, 1, 2"),
    ] {
        let mut a = vec!["trace", f.as_str()];
        a.extend(args.iter().copied());
        let o = cosmosim(d, &a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{args:?}: {e}");
    }
}

#[test]
fn duels_are_told_in_french() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "duel.toml");
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("Essai 0 de duel.toml (graine 1)"),
        "{text}"
    );
    for says in [
        "Initiative de l'Adam' : test de Rapidité d12",
        "Round 1\n",
        "Tour de jeu de",
        "frappe l'humain",
        "contre 12 : ",
        "cases de vie cochées",
    ] {
        assert!(text.contains(says), "{says}: {text}");
    }
}

/// Audit of 2026-12-06: Frapper (trinites.fr.txt l. 560 "Condition(s): Engagé", l. 563
/// "il subit un malus de 1 à son test de réaction par adversaire avec qui il est engagé, y
/// compris le premier"; T-COMBAT). In a one-on-one duel (the auditor's file) the Adam'
/// (Corps à corps 6) reacts to every strike at 6 - 1, also when the human, knocked out
/// earlier in their tied initiative group, still strikes (reading 5): he was not counted
/// and the Adam' reacted at +6. Trials 0..299 hold such strikes.
#[test]
fn a_knocked_out_human_striking_in_his_group_still_costs_the_adam_one() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(
        d.join("duel1.toml"),
        "system = \"trinites\"\n[run]\ntrials = 300\nseed = 11\n\
         [combat]\nmax_rounds = 30\nstrike_unconscious = false\n\
         [[weapons]]\nname = \"epee\"\ndamage = 4\nsword = true\n\
         [adam]\nrapidite = 5\nattack = 6\nreaction = 6\nweapon = \"epee\"\nprotection = 1\n\
         attacks_per_turn = 1\ndeva_karma = 0\narchonte_karma = 0\nregenerate_at = \"never\"\n\
         [humans]\ncount = 1\nrapidite = 3\nattack = 5\nreaction = 4\nweapon = \"epee\"\n\
         protection = 1\nattacks_per_turn = 1\n",
    )
    .unwrap();
    let trials = json_trials(&cosmosim(
        d,
        &[
            "trace",
            "duel1.toml",
            "--trials",
            "0..299",
            "--format",
            "json",
        ],
    ));
    assert_eq!(trials.len(), 300);
    let mut after_fall = 0;
    for t in &trials {
        let mut fallen = false;
        for s in t["steps"].as_array().unwrap() {
            if s["step"] == "falls" && s["who"] == "human_1" {
                fallen = true;
            }
            if s["step"] == "reaction" && s["who"] == "adam" {
                assert_eq!(s["modifier"], 6 - 1, "trial {}: {s}", t["trial"]);
                after_fall += fallen as u32;
            }
        }
    }
    assert!(after_fall > 0);
}

/// The shipped skirmish without its `[pairs]` runs (the trace replays the file's own
/// fights; the test stays quick).
fn skirmish(dir: &Path) -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/trinites/skirmish.toml"),
    )
    .unwrap();
    let cut = text.find("[pairs]").unwrap();
    std::fs::write(dir.join("skirmish.toml"), &text[..cut]).unwrap();
    "skirmish.toml".into()
}

/// Skirmishes: trials 0..299 replayed one by one end as a 300-fight run counted them;
/// `--find` reads who went down; the summary lists the commands; French.
#[test]
fn skirmishes_replay_as_the_run_counted_them() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = skirmish(d);
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let trials = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trials", "0..299", "--format", "json"],
    ));
    assert_eq!(trials.len(), 300);
    let mut seen = 0;
    for row in csv_rows(&d.join("r/trinites-skirmish-sides.csv")) {
        let n = tally(&trials, &row["outcome"]);
        assert_eq!(n.to_string(), row["fights"], "{row:?}");
        seen += (n > 0) as usize;
    }
    assert!(seen >= 2);
    let combatants = csv_rows(&d.join("r/trinites-skirmish-combatants.csv"));
    for (i, t) in trials.iter().enumerate() {
        assert_eq!(t["trial"], i as u64);
        let steps = t["steps"].as_array().unwrap();
        assert_eq!(steps.last().unwrap()["outcome"], t["outcome"]);
        for s in steps.iter().filter(|s| s["step"] == "reaction") {
            // A reaction is rolled only against a successful attack (T-CONF).
            assert!(s["final"].is_i64() && s["hit"].is_boolean(), "{s}");
        }
    }
    // Every shot or strike names an attacker and a roll against the target in force.
    let shots = trials
        .iter()
        .flat_map(|t| t["steps"].as_array().unwrap())
        .filter(|s| s["step"] == "attack" && s["ranged"] == true)
        .count();
    assert!(shots > 0);
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(
        summary.contains("`cosmosim trace skirmish.toml --find outcome=adam --seed 1`"),
        "{summary}"
    );
    // --find down=<combatant>: the state at the end, as the combatants' CSV counts it.
    let name = combatants
        .iter()
        .find(|r| r["combatant"] == "tireuse")
        .map(|r| r["combatant"].clone())
        .unwrap();
    let found = json_trials(&cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            &format!("down={name}"),
            "--format",
            "json",
        ],
    ));
    let steps = found[0]["steps"].as_array().unwrap();
    assert!(
        steps
            .iter()
            .any(|s| s["step"] == "falls" && s["who"] == name.as_str()),
        "{}",
        found[0]
    );
    let n = found[0]["trial"].as_u64().unwrap().to_string();
    let again = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trial", &n, "--format", "json"],
    ));
    assert_eq!(again[0], found[0]);
    for (args, says) in [
        (
            vec!["--find", "outcome=gang_wins"],
            "adam, gang, draw, undecided",
        ),
        (vec!["--find", "down=ogre"], "bretteur, tireuse, brute_1"),
        (vec!["--find", "fled"], "rounds_at_least"),
    ] {
        let mut a = vec!["trace", f.as_str()];
        a.extend(args.iter().copied());
        let o = cosmosim(d, &a);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{args:?}: {e}");
    }
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    let text = String::from_utf8_lossy(&o.stdout);
    for says in [
        "Round 1\n",
        "test de Rapidité",
        "tire sur",
        "Tour de jeu de bretteur",
    ] {
        assert!(text.contains(says), "{says}: {text}");
    }
}

/// Audit of 2026-12-07, afternoon: "the reaction wins the confrontation (a tie goes to the
/// reaction)" was told on every reaction win, even 16 against 24. T-CONF's tie rule is
/// told only when the reaction's final equals the attack's (duel and skirmish, the
/// target's reaction and an ally's parry alike), in English and French; the JSON says
/// `tie`.
#[test]
fn the_tie_rule_is_told_only_on_a_tie() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let duel = shipped(d, "duel.toml");
    let skirmish = skirmish(d);
    for (lang, note) in [
        ("en", "a tie goes to the reaction"),
        ("fr", "à égalité, celui qui empêche l'action gagne"),
    ] {
        let (mut ties, mut wins) = (0, 0);
        for f in [&duel, &skirmish] {
            let trials = json_trials(&cosmosim(
                d,
                &[
                    "--lang", lang, "trace", f, "--trials", "0..199", "--format", "json",
                ],
            ));
            for t in &trials {
                let mut attack = None;
                for s in t["steps"].as_array().unwrap() {
                    match s["step"].as_str().unwrap() {
                        "attack" | "versus" => {
                            attack = s["final"].as_i64().filter(|_| s["success"] == true)
                        }
                        "reaction" if s["hit"] == false && s["success"] == true => {
                            // Against a failed attack the strike fails, whatever the finals.
                            let tie = attack.is_some() && s["final"].as_i64() == attack;
                            let text = s["text"].as_str().unwrap();
                            assert_eq!(text.contains(note), tie, "{text}");
                            assert_eq!(s["tie"], tie, "{s}");
                            ties += tie as u32;
                            wins += !tie as u32;
                        }
                        _ => {}
                    }
                }
            }
        }
        assert!(ties > 0 && wins > 0, "{ties} {wins}");
    }
}
