//! Audit of 2026-12-07 (D3): `tune.meta.json` and `optimise.meta.json` recorded only the
//! confidence, figure, source, target and vary. Two tunes of different questions (`--where
//! outcome=offensive --within 0.01` against `--where outcome=defensive`) wrote the same
//! parameters, and `rule_options` was `{}` under `--option posture_turns=2`. Every flag
//! that changes the answer is now recorded, with the options in force and the scenario's
//! sha256, as `run` and `sweep` record them.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;
use sha2::{Digest, Sha256};

const DUEL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");

/// The `.meta.json` of `name` in `dir` after running `args` (few trials: only the
/// provenance is read).
fn meta(dir: &Path, out: &str, name: &str, args: &[&str]) -> Value {
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(dir)
        .args(args)
        .args(["--quiet", "--out", out])
        .assert()
        .success();
    let text = std::fs::read_to_string(dir.join(out).join(format!("{name}.meta.json"))).unwrap();
    serde_json::from_str(&text).unwrap()
}

fn tune(dir: &Path, out: &str, changed: &[&str]) -> Value {
    let mut args = vec![
        "tune",
        DUEL,
        "--vary",
        "aldric.hp=50..400",
        "--figure",
        "combat-sides.share",
        "--target",
        "0.5",
        "--seed",
        "3",
    ];
    // The base run's flags, each replaced when `changed` names it.
    let base = [
        ("--where", "outcome=offensive"),
        ("--within", "0.01"),
        ("--tolerance", "1"),
        ("--first-trials", "256"),
        ("--max-trials", "512"),
        ("--option", "posture_turns=2"),
    ];
    for (flag, value) in base {
        args.push(flag);
        match changed.iter().position(|c| *c == flag) {
            Some(i) => args.push(changed[i + 1]),
            None => args.push(value),
        }
    }
    meta(dir, out, "tune", &args)
}

#[test]
fn a_tune_records_every_flag_that_changes_its_answer() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let base = tune(d, "base", &[]);
    assert_eq!(base["rule_options"]["posture_turns"], "2", "{base}");
    let sha: String = Sha256::digest(std::fs::read(DUEL).unwrap())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert_eq!(base["scenario"]["sha256"], sha.as_str(), "{base}");
    let p = &base["parameters"];
    assert_eq!(p["where"], "outcome=offensive", "{p}");
    assert_eq!(p["within"], "0.01", "{p}");
    assert_eq!(p["tolerance"], "1", "{p}");
    assert_eq!(p["first_trials"], "256", "{p}");
    assert_eq!(p["max_trials"], "512", "{p}");
    for (i, changed) in [
        ["--where", "outcome=defensive"],
        ["--within", "0.02"],
        ["--tolerance", "2"],
        ["--first-trials", "128"],
        ["--max-trials", "1024"],
        ["--option", "posture_turns=3"],
    ]
    .iter()
    .enumerate()
    {
        let other = tune(d, &format!("t{i}"), changed);
        let differs = other["parameters"] != base["parameters"]
            || other["rule_options"] != base["rule_options"];
        assert!(
            differs,
            "{changed:?} left the provenance as it was: {other}"
        );
    }
    // A table's fixed flags (`--param`) too.
    let table = |out: &str, karma: &str| {
        meta(
            d,
            out,
            "tune",
            &[
                "tune",
                "table",
                "cosmos-test",
                "--vary",
                "thresholds=20..85",
                "--figure",
                "p_success",
                "--target",
                "0.305",
                "--param",
                karma,
            ],
        )
    };
    let (k0, k5) = (table("k0", "karma=0"), table("k5", "karma=5"));
    assert_eq!(k0["parameters"]["param"], "karma=0", "{k0}");
    assert_ne!(k0["parameters"], k5["parameters"]);
}

#[test]
fn an_optimise_records_its_goal_where_and_options() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let run = |out: &str, goal: &str, outcome: &str, option: &str| {
        meta(
            d,
            out,
            "optimise",
            &[
                "optimise",
                DUEL,
                "--vary",
                "aldric.hp=100,200",
                goal,
                "combat-sides.share",
                "--where",
                outcome,
                "--first-trials",
                "256",
                "--max-trials",
                "512",
                "--option",
                option,
            ],
        )
    };
    let base = run("o", "--maximise", "outcome=offensive", "posture_turns=2");
    assert_eq!(base["rule_options"]["posture_turns"], "2", "{base}");
    assert_eq!(base["parameters"]["goal"], "maximise", "{base}");
    assert_eq!(base["parameters"]["where"], "outcome=offensive", "{base}");
    assert_eq!(base["parameters"]["first_trials"], "256", "{base}");
    assert_eq!(base["parameters"]["max_trials"], "512", "{base}");
    assert!(base["scenario"]["sha256"]
        .as_str()
        .is_some_and(|s| s.len() == 64));
    let min = run("m", "--minimise", "outcome=offensive", "posture_turns=2");
    assert_eq!(min["parameters"]["goal"], "minimise");
    let def = run("w", "--maximise", "outcome=defensive", "posture_turns=2");
    assert_ne!(def["parameters"], base["parameters"]);
    let opt = run("p", "--maximise", "outcome=offensive", "posture_turns=3");
    assert_eq!(opt["rule_options"]["posture_turns"], "3");
}
