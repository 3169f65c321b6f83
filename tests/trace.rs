//! Issue 27 item 1: `cosmosim trace` replays single trials of a run, bit-identical to the
//! batch run (every trial draws from its own stream), and finds trials by how they ended.

use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials, shipped};

/// The `count` column of `combat-sides.csv`, by outcome.
fn sides(dir: &Path) -> Vec<(String, u64)> {
    let text = std::fs::read_to_string(dir.join("combat-sides.csv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = head.iter().position(|h| *h == "count").unwrap();
    lines
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[0].to_string(), f[c].parse().unwrap())
        })
        .collect()
}

#[test]
fn replayed_outcomes_tally_to_the_batch_counts() {
    // The boss fight: several sides, round caps, postures. Trials 0..299 replayed one by
    // one end as a 300-trial run counted them.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "boss-fight.toml");
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
    }
    let counted = sides(&d.join("r"));
    assert!(counted.iter().filter(|(_, c)| *c > 0).count() >= 2);
    for (outcome, count) in counted {
        let replayed = trials
            .iter()
            .filter(|t| t["outcome"] == outcome.as_str())
            .count();
        assert_eq!(replayed as u64, count, "{outcome}");
    }
}

#[test]
fn find_shows_an_apocalypse_and_a_round_cap_step_by_step() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "apocalypse.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "apocalypse",
            "--count",
            "2",
            "--format",
            "json",
        ],
    );
    let trials = json_trials(&o);
    assert_eq!(trials.len(), 2);
    for t in &trials {
        let steps = t["steps"].as_array().unwrap();
        assert!(steps
            .iter()
            .any(|s| s["step"] == "posture" && s["posture"] == "sépulcrale"));
        assert!(steps
            .iter()
            .any(|s| s["step"] == "posture_end" && s["apocalypse"] == true));
        // Every attack test shows its threshold and karma.
        let test = steps.iter().find(|s| s["step"] == "test").unwrap();
        assert!(test["threshold"].as_f64().unwrap() > 0.0 && test["karma"].is_i64());
    }
    // The same trial replayed alone gives the same account.
    let n = trials[0]["trial"].as_u64().unwrap().to_string();
    let again = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trial", &n, "--format", "json"],
    ));
    assert_eq!(again[0], trials[0]);

    let f = shipped(d, "boss-fight.toml");
    let o = cosmosim(d, &["trace", &f, "--find", "outcome=round_cap"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains(": round_cap") && text.contains("Round 40:"),
        "{text}"
    );
    assert!(text.contains("threshold") && text.contains("HP"), "{text}");
}

#[test]
fn trace_writes_pages_in_french_and_refuses_what_it_cannot_do() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "duel.toml");
    let o = cosmosim(
        d,
        &["--lang", "fr", "trace", &f, "--trial", "3", "--out", "t"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.starts_with("Essai 3 de duel.toml (graine 1)"),
        "{text}"
    );
    assert!(
        text.contains("Tour 1 :") && text.contains("seuil"),
        "{text}"
    );
    let md = std::fs::read_to_string(d.join("t/trace.md")).unwrap();
    assert!(
        md.contains("cosmosim trace duel.toml --trial 3 --seed 1"),
        "{md}"
    );
    assert!(md.contains("version des flux 2"), "{md}");
    assert!(d.join("t/trace.html").exists());

    for (args, says) in [
        (vec!["trace", &f], "--trial N"),
        (vec!["trace", &f, "--trials", "5-9"], "A..B"),
        (vec!["trace", &f, "--find", "fire"], "apocalypse"),
        (vec!["trace", &f, "--find", "down=ogre"], "aldric, brune"),
        (vec!["trace", &f, "--find", "outcome=draw"], "round_cap"),
    ] {
        let o = cosmosim(d, &args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{args:?}: {e}");
    }
}

#[test]
fn a_combat_summary_says_how_to_see_a_fight() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "apocalypse.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "2000", "--out", "r"]);
    assert!(o.status.success());
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("## See a fight"), "{s}");
    assert!(s.contains("`cosmosim trace apocalypse.toml --find apocalypse --seed 1`"));
    assert!(s.contains("--find outcome=party --seed 1`"), "{s}");
}

/// Nephilim duels trace too (issue 27: every kind): replays tally to the run's shares,
/// `--find` reads how a fighter went out, and the account is in the book's terms.
#[test]
fn nephilim_duels_replay_as_the_run_counted_them_and_find_comas() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/nephilim/duel.toml"),
        d.join("duel.toml"),
    )
    .unwrap();
    let o = cosmosim(
        d,
        &["-q", "run", "duel.toml", "--trials", "1000", "--out", "r"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(
        d,
        &[
            "trace",
            "duel.toml",
            "--trials",
            "0..999",
            "--format",
            "json",
        ],
    );
    let trials = json_trials(&o);
    assert_eq!(trials.len(), 1000);
    let csv = std::fs::read_to_string(d.join("r/duel-outcome.csv")).unwrap();
    let mut seen = 0;
    for l in csv.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let p: f64 = f[2].parse().unwrap();
        let replayed = trials.iter().filter(|t| t["outcome"] == f[0]).count();
        assert_eq!(replayed, (p * 1000.0).round() as usize, "{}: {csv}", f[0]);
        seen += (replayed > 0) as usize;
    }
    assert!(seen >= 2, "{csv}");
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(
        summary.contains("`cosmosim trace duel.toml --find outcome=a_wins --seed 1`"),
        "{summary}"
    );
    // Each blow's boxes are weapon + margin - protection; wounds only grow.
    for t in &trials {
        for s in t["steps"].as_array().unwrap() {
            if s["step"] == "wounds" {
                assert!(s["after"].as_u64() > s["before"].as_u64(), "{s}");
            }
        }
    }
    let o = cosmosim(
        d,
        &[
            "trace",
            "duel.toml",
            "--find",
            "coma",
            "--count",
            "2",
            "--format",
            "json",
        ],
    );
    let found = json_trials(&o);
    assert_eq!(found.len(), 2);
    for t in &found {
        let steps = t["steps"].as_array().unwrap();
        assert!(
            steps
                .iter()
                .any(|s| s["step"] == "out" && s["why"] == "coma"),
            "{t}"
        );
        let check = steps
            .iter()
            .find(|s| s["step"] == "check" && s["check"] == "incapacity" && s["passed"] == false)
            .expect("the failed incapacity check");
        assert!(check["score"].as_i64().unwrap() < 0);
    }
    // Replayed by number, the found trial tells the same story.
    let n = found[0]["trial"].as_u64().unwrap().to_string();
    let o = cosmosim(
        d,
        &["trace", "duel.toml", "--trial", &n, "--format", "json"],
    );
    assert_eq!(json_trials(&o)[0]["steps"], found[0]["steps"]);
    let o = cosmosim(d, &["trace", "duel.toml", "--find", "outcome=draw"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("a_wins, b_wins, both_out, undecided"));
    let o = cosmosim(d, &["--lang", "fr", "trace", "duel.toml", "--trial", "0"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("initiative Fencer"), "{text}");
    assert!(text.contains("attaque au segment 1"), "{text}");
}

/// 2d20 firefights trace too: replays tally to the run's shares, `--find` reads who went
/// down, damage adds up.
#[test]
fn fallout_firefights_replay_as_the_run_counted_them() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    for f in ["firefight.toml", "ap-economy.toml"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenarios/fallout")
                .join(f),
            d.join(f),
        )
        .unwrap();
    }
    let o = cosmosim(
        d,
        &[
            "-q",
            "run",
            "firefight.toml",
            "--trials",
            "1000",
            "--out",
            "r",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(
        d,
        &[
            "trace",
            "firefight.toml",
            "--trials",
            "0..999",
            "--format",
            "json",
        ],
    );
    let trials = json_trials(&o);
    assert_eq!(trials.len(), 1000);
    let csv = std::fs::read_to_string(d.join("r/combat-sides.csv")).unwrap();
    let mut seen = 0;
    for l in csv.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let p: f64 = f[1].parse().unwrap();
        let replayed = trials.iter().filter(|t| t["outcome"] == f[0]).count();
        assert_eq!(replayed, (p * 1000.0).round() as usize, "{}: {csv}", f[0]);
        seen += (replayed > 0) as usize;
    }
    assert!(seen >= 2, "{csv}");
    // Each hit's HP lost: damage less resistance, at most the HP the target had.
    for t in &trials {
        for s in t["steps"].as_array().unwrap() {
            if s["step"] == "damage" {
                let (dmg, dr, dealt, hp) = (
                    s["damage"].as_u64().unwrap(),
                    s["dr"].as_u64().unwrap(),
                    s["dealt"].as_u64().unwrap(),
                    s["hp"].as_u64().unwrap(),
                );
                assert_eq!(dealt, dmg.saturating_sub(dr).min(dealt + hp), "{s}");
            }
        }
    }
    let o = cosmosim(
        d,
        &[
            "trace",
            "firefight.toml",
            "--find",
            "down=Dweller",
            "--format",
            "json",
        ],
    );
    let found = json_trials(&o);
    assert_eq!(found.len(), 1);
    assert!(found[0]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["step"] == "down" && s["who"] == "Dweller"));
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(
        summary.contains("--find outcome=players_win --seed 1`"),
        "{summary}"
    );
    let o = cosmosim(
        d,
        &["--lang", "fr", "trace", "firefight.toml", "--trial", "0"],
    );
    assert!(String::from_utf8_lossy(&o.stdout).contains("réussites contre une difficulté"));
}

/// `--find` that no trial of the run meets: said on stderr, exit 1 (as grep), never 2.
#[test]
fn find_without_a_match_exits_1() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "duel.toml");
    let text = std::fs::read_to_string(d.join(&f))
        .unwrap()
        .replace("trials = 1000000", "trials = 5");
    std::fs::write(d.join(&f), text).unwrap();
    let o = cosmosim(d, &["trace", &f, "--find", "rounds_at_least=40"]);
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no trial among the 5 trials"), "{err}");
}

/// Audit of 2026-12-06, what a trace shows (no figure moved):
/// - C-LD-4: a Final Skill test that rolls a crit or super failure is followed by a
///   `crit_ignored` step (it counts as a plain failure), and no other test is;
/// - C-AURA face 6: the passive Esprit test's karma drift is shown, so every test reads
///   the karma the trace last showed for its fighter, and a failed test is followed by an
///   `aura_lost` step (the action or defence is lost); a passed one is not.
#[test]
fn a_trace_shows_the_final_skill_s_ignored_crits_and_aura_face_six() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "apocalypse.toml");
    let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
    let mut ignored = 0;
    for tr in json_trials(&o) {
        let steps = tr["steps"].as_array().unwrap();
        let mut final_skill = false;
        for (i, s) in steps.iter().enumerate() {
            if s["step"] == "attack" {
                final_skill = s["final_skill"] == true;
            }
            let next = steps.get(i + 1).map(|n| &n["step"]);
            if s["step"] == "test" {
                let crit = s["outcome"] == "crit_failure" || s["outcome"] == "super_failure";
                let shown = next == Some(&"crit_ignored".into());
                assert_eq!(
                    shown,
                    final_skill && crit,
                    "{s} then {:?}",
                    steps.get(i + 1)
                );
                if shown {
                    assert_eq!(steps[i + 1]["rolled"], s["outcome"]);
                    assert_eq!(steps[i + 1]["counts_as"], "failure");
                    ignored += 1;
                }
                final_skill = false;
            }
        }
    }
    assert!(ignored > 20, "{ignored}");
    let f = shipped(d, "aura-duel.toml");
    let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
    let (mut lost, mut kept) = (0, 0);
    for tr in json_trials(&o) {
        let steps = tr["steps"].as_array().unwrap();
        let mut known = std::collections::HashMap::new();
        for (i, s) in steps.iter().enumerate() {
            let who = s["who"].as_str().unwrap_or_default().to_string();
            if s["step"] == "test" {
                if let Some(k) = known.get(&who) {
                    assert_eq!(&s["karma"], k, "trial {}: {s}", tr["trial"]);
                }
                known.insert(who.clone(), s["karma"].clone());
            }
            if s["step"] == "karma" {
                assert_eq!(Some(&s["from"]), known.get(&who), "{s}");
                known.insert(who.clone(), s["to"].clone());
            }
            if s["step"] == "aura" && s["face"] == 6 {
                let test = &steps[i + 1];
                assert_eq!(
                    (&test["step"], &test["stat"]),
                    (&"test".into(), &"esprit".into())
                );
                let passed = ["success", "crit_success", "super_success"]
                    .contains(&test["outcome"].as_str().unwrap());
                let after: Vec<_> = steps[i + 2..].iter().take(2).map(|n| &n["step"]).collect();
                let shown = after.contains(&&"aura_lost".into());
                assert_eq!(shown, !passed, "{test} then {after:?}");
                if shown {
                    lost += 1;
                } else {
                    kept += 1;
                }
            }
        }
    }
    assert!(lost > 10 && kept > 10, "{lost} {kept}");
}

/// Two harmless combatants (0 damage, no defence): the hero (Agilité 60, FP 3) and the
/// foe (Agilité 57); fatigue on, so the end of round 5 brings the hero to FP 4 (light,
/// -5 on Agilité tests, C-FAT-4) and the foe to FP 1 (fresh). `extra` adds hero keys.
fn tired_order_file(extra: &str) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"
[combat]
max_rounds = 7
fatigue = true
[attacks.tickle]
stat = "force"
damage = "0"
[support.focus]
kind = "concentrate"
[combatants.hero]
side = "heroes"
level = 3
stats = {{ force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }}
hp = 100
fp_start = 3
attacks = ["tickle"]
[combatants.hero.policy]
defence = "none"
{extra}
[combatants.foe]
side = "foes"
level = 3
stats = {{ force = 60, esprit = 40, charisme = 40, agilite = 57, precision = 50, chance = 50 }}
hp = 100
attacks = ["tickle"]
[combatants.foe.policy]
defence = "none"
"#
    )
}

#[test]
fn the_fp_malus_moves_the_turn_order_only_under_fatigue_turn_order_yes() {
    // Book l. 479 "Les bonus et malus s'appliquant à l'agilité ... sont également pris en
    // compte dans la répartition du tour"; C-FAT-4 puts the FP maluses on Agilité *tests*
    // and C-TURN-1 orders by effective Agilité (audit of 2026-12-07). Default `no`: the
    // hero (60) acts first every round. `yes`: from round 6 its FP 4 takes 5 off (55 <
    // 57), so the foe acts first; a concentration in round 6 nullifies light fatigue for
    // round 7 (C-FAT-5), where the hero is first again.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let plain = tired_order_file("");
    let focus =
        tired_order_file("[[combatants.hero.policy.rules]]\nwhen = { round = 6 }\nuse = \"focus\"");
    std::fs::write(d.join("plain.toml"), plain).unwrap();
    std::fs::write(d.join("focus.toml"), focus).unwrap();
    let firsts = |file: &str, options: &[&str]| -> String {
        let mut args = vec!["trace", file, "--trial", "0", "--format", "json"];
        for o in options {
            args.extend(["--option", o]);
        }
        let trials = json_trials(&cosmosim(d, &args));
        let steps = trials[0]["steps"].as_array().unwrap().clone();
        steps
            .iter()
            .filter(|s| s["step"] == "round")
            .map(|s| match s["order"][0]["who"].as_str().unwrap() {
                "hero" => 'H',
                _ => 'F',
            })
            .collect()
    };
    let yes = ["fatigue_turn_order=yes"];
    assert_eq!(firsts("plain.toml", &[]), "HHHHHHH");
    assert_eq!(firsts("plain.toml", &["fatigue_turn_order=no"]), "HHHHHHH");
    assert_eq!(firsts("plain.toml", &yes), "HHHHHFF");
    assert_eq!(firsts("focus.toml", &[]), "HHHHHHH");
    assert_eq!(firsts("focus.toml", &yes), "HHHHHFH");
    // The FP the hero starts a combat with counts from round 1: FP 6 (moderate, -10).
    let start = std::fs::read_to_string(d.join("plain.toml"))
        .unwrap()
        .replace("fp_start = 3", "fp_start = 6");
    std::fs::write(d.join("start.toml"), start).unwrap();
    assert_eq!(firsts("start.toml", &[]), "HHHHHHH");
    assert_eq!(firsts("start.toml", &yes), "FFFFFFF");
    // The provenance lists the option always, its default too (audit of 2026-12-07,
    // evening: listed only off its default, a run did not say which reading it used).
    for (out, options, listed) in [("r0", &[][..], Some("no")), ("r1", &yes[..], Some("yes"))] {
        let mut args = vec!["-q", "run", "plain.toml", "--trials", "20", "--out", out];
        for o in options {
            args.extend(["--option", o]);
        }
        let o = cosmosim(d, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let meta: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(d.join(out).join("combat-sides.meta.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(
            meta["rule_options"]["fatigue_turn_order"].as_str(),
            listed,
            "{options:?}"
        );
        assert_eq!(meta["rule_options"]["riposte_on"], "stopped");
    }
}
