//! Audit of 2026-12-07, evening ("Every output records its provenance"): the gaps closed.
//! Great Cosmos combat and Trinités readings listed at their defaults too, `trace --out`
//! writes a `trace.meta.json`, a `--find` that finds nothing says so plainly, and the
//! `expect`, `sweep` and `variants` records name every setting and input they rest on.

use std::path::{Path, PathBuf};

mod common;
use common::files::{json, sha256};
use common::runs::{cosmosim, TWO_CHECKS as EXPECT};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn ok(dir: &Path, args: &[&str]) {
    let o = cosmosim(dir, args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Copies shipped scenarios into `dir/scenarios/...` (same relative paths), the duel's
/// trials cut to `trials` so a `--find` scans little.
fn shipped(dir: &Path, names: &[&str]) {
    for n in names {
        let to = dir.join("scenarios").join(n);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join("scenarios").join(n), to).unwrap();
    }
}

fn metas(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".meta.json"))
        .collect();
    v.sort();
    v
}

/// Item 1: `fatigue_turn_order`, `extra_action_after_final_skill` (Great Cosmos combat,
/// linked combats of expeditions included) and `trinites_risque_failure` (duel and
/// skirmish) were listed only off their default; every output of those kinds now lists
/// them, at the defaults too, in .meta.json and in summary.md.
#[test]
fn combat_and_trinites_readings_are_listed_at_their_defaults() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let combat = &[
        ("fatigue_turn_order", "no"),
        ("extra_action_after_final_skill", "lost"),
    ][..];
    let trinites = &[("trinites_risque_failure", "no_hit")][..];
    shipped(
        d,
        &[
            "cosmos/duel.toml",
            "cosmos/party-expedition.toml",
            "cosmos/party-vs-boss.toml",
            "trinites/duel.toml",
            "trinites/skirmish.toml",
        ],
    );
    for (i, (file, keys)) in [
        ("cosmos/duel.toml", combat),
        ("cosmos/party-expedition.toml", combat),
        ("trinites/duel.toml", trinites),
        ("trinites/skirmish.toml", trinites),
    ]
    .into_iter()
    .enumerate()
    {
        let out = format!("o{i}");
        let path = format!("scenarios/{file}");
        ok(d, &["-q", "run", &path, "--trials", "20", "--out", &out]);
        let found = metas(&d.join(&out));
        assert!(!found.is_empty(), "{file}");
        for m in found {
            let meta = json(&m);
            for (k, v) in keys {
                assert_eq!(
                    meta["rule_options"][k].as_str(),
                    Some(*v),
                    "{file}: {}",
                    m.display()
                );
            }
        }
        let summary = std::fs::read_to_string(d.join(&out).join("summary.md")).unwrap();
        for (k, v) in keys {
            let item = format!("{}={v}", k.replace('_', "\\_"));
            assert!(
                summary.contains(&item) || summary.contains(&format!("{k}={v}")),
                "{file}: {item} not in\n{summary}"
            );
        }
    }
}

/// Item 2: `trace --out` wrote trace.md alone; trace.meta.json now records what `run`
/// records (scenario hash, seed, options in force, the run's trials, version), the
/// trials replayed and the command that replays them.
#[test]
fn trace_out_writes_a_meta_json_like_runs() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    shipped(d, &["cosmos/duel.toml"]);
    let f = "scenarios/cosmos/duel.toml";
    let opt = "fatigue_turn_order=yes";
    ok(
        d,
        &[
            "-q", "trace", f, "--trial", "3", "--seed", "5", "--option", opt, "--out", "t",
        ],
    );
    ok(
        d,
        &[
            "-q", "run", f, "--trials", "20", "--seed", "5", "--option", opt, "--out", "r",
        ],
    );
    let m = json(&d.join("t/trace.meta.json"));
    let run = json(&d.join("r/combat-sides.meta.json"));
    let bytes = std::fs::read(d.join(f)).unwrap();
    assert_eq!(m["scenario"]["sha256"], sha256(&bytes).as_str(), "{m}");
    assert_eq!(m["scenario"]["path"], f);
    assert_eq!(m["seed"], 5);
    assert_eq!(m["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(m["output"], "trace");
    assert_eq!(m["rule_options"], run["rule_options"], "{m}");
    assert_eq!(m["rule_options"]["fatigue_turn_order"], "yes");
    assert_eq!(m["stream_version"], run["stream_version"]);
    assert_eq!(m["parameters"]["trials_replayed"], "3");
    assert_eq!(
        m["parameters"]["command"],
        format!("cosmosim trace {f} --trial 3 --seed 5 --option {opt}").as_str()
    );
    // The run's own trial count (the file's), not the one trial replayed.
    let text = String::from_utf8(bytes).unwrap();
    let trials: u64 = text
        .lines()
        .find_map(|l| l.strip_prefix("trials = "))
        .and_then(|v| v.split_whitespace().next())
        .unwrap()
        .replace('_', "")
        .parse()
        .unwrap();
    assert_eq!(m["trials"], trials);
}

/// Item 3: a `--find` that finds nothing printed "... ends that way ()" in trace.md; it
/// now says plainly that no trial matched, and what was searched for (en and fr).
#[test]
fn a_find_that_finds_nothing_says_no_trial_matched() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    shipped(d, &["cosmos/duel.toml"]);
    let path = d.join("scenarios/cosmos/duel.toml");
    let text = std::fs::read_to_string(&path).unwrap();
    let small: String = text
        .lines()
        .map(|l| {
            if l.starts_with("trials") {
                "trials = 300".to_string()
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    std::fs::write(&path, small).unwrap();
    let f = "scenarios/cosmos/duel.toml";
    for (lang, words) in [
        ("en", "No trial matched: none of the 300 trials"),
        ("fr", "Aucun essai ne correspond : aucun des 300 essais"),
    ] {
        let out = format!("t-{lang}");
        let o = cosmosim(
            d,
            &[
                "-q",
                "--lang",
                lang,
                "trace",
                f,
                "--find",
                "rounds_at_least=500",
                "--out",
                &out,
            ],
        );
        assert_eq!(
            o.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let md = std::fs::read_to_string(d.join(&out).join("trace.md")).unwrap();
        assert!(!md.contains("()"), "{md}");
        assert!(md.contains(words), "{md}");
        assert!(md.contains("`rounds_at_least=500`"), "{md}");
        let m = json(&d.join(&out).join("trace.meta.json"));
        assert_eq!(m["parameters"]["find"], "rounds_at_least=500");
        assert_eq!(m["parameters"]["scanned"], "300");
        assert_eq!(m["parameters"]["trials_replayed"], "");
    }
}

/// Item 4: expect.meta.json recorded an expectation's `max_trials` only when the file set
/// it; the cap in force (four times the first look, under `--max-trials`) and every look's
/// trials are now recorded.
#[test]
fn expect_records_each_expectations_max_trials_and_looks() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("e.toml"), EXPECT).unwrap();
    for (out, extra, max) in [
        ("a", &[][..], 8000),
        ("b", &["--max-trials", "3000"][..], 3000),
    ] {
        let mut args = vec!["-q", "expect", "e.toml", "--out", out];
        args.extend(extra);
        ok(d, &args);
        let m = json(&d.join(out).join("expect.meta.json"));
        let mc = &m["files"][0]["expectations"][1];
        assert_eq!(mc["max_trials"], max, "{mc}");
        let looks: Vec<u64> = mc["looks"]
            .as_array()
            .unwrap_or_else(|| panic!("{mc}"))
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(looks.first(), Some(&2000), "{mc}");
        assert_eq!(looks.last(), Some(&max), "{mc}");
        let exact = &m["files"][0]["expectations"][0];
        assert!(exact.get("max_trials").is_none() && exact.get("looks").is_none());
    }
}

/// Item 5: sweep.meta.json lacked `--figure` and `--where`, which pick the charted rows
/// and the key figures.
#[test]
fn sweep_records_figure_and_where() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    shipped(d, &["cosmos/duel.toml"]);
    let base = [
        "-q",
        "sweep",
        "scenarios/cosmos/duel.toml",
        "--vary",
        "aldric.hp=100,150",
        "--trials",
        "200",
    ];
    let mut focused = base.to_vec();
    focused.extend([
        "--figure",
        "combat-sides.share",
        "--where",
        "outcome=offensive",
        "--out",
        "f",
    ]);
    ok(d, &focused);
    let m = json(&d.join("f/sweep.meta.json"));
    assert_eq!(m["parameters"]["figure"], "combat-sides.share", "{m}");
    let w = m["parameters"]["where"].as_str().unwrap_or_default();
    assert!(w.contains("outcome") && w.contains("offensive"), "{m}");
    let mut plain = base.to_vec();
    plain.extend(["--out", "p"]);
    ok(d, &plain);
    let m = json(&d.join("p/sweep.meta.json"));
    assert!(m["parameters"].get("figure").is_none(), "{m}");
    assert!(m["parameters"].get("where").is_none(), "{m}");
}

/// Item 6: variants.meta.json hashed the variants file alone; each studied scenario and
/// the files it links are now hashed too.
#[test]
fn variants_hash_every_input_file() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    shipped(
        d,
        &["cosmos/party-expedition.toml", "cosmos/party-vs-boss.toml"],
    );
    let file = r#"title = "linked"
question = "Does the turn order reading move the expedition?"
seed = 2
trials = 100

[[study]]
scenario = "scenarios/cosmos/party-expedition.toml"

[variants.tired_order]
fatigue_turn_order = "yes"
"#;
    std::fs::write(d.join("v.toml"), file).unwrap();
    ok(d, &["-q", "variants", "v.toml", "--out", "v"]);
    let m = json(&d.join("v/variants.meta.json"));
    assert_eq!(m["file_sha256"], sha256(file.as_bytes()).as_str());
    let inputs = m["inputs"].as_array().unwrap_or_else(|| panic!("{m}"));
    let sha_of = |p: &str| sha256(&std::fs::read(d.join(p)).unwrap());
    let want = ["party-expedition.toml", "party-vs-boss.toml"];
    assert_eq!(inputs.len(), want.len(), "{m}");
    for name in want {
        let i = inputs
            .iter()
            .find(|i| i["path"].as_str().unwrap_or_default().ends_with(name))
            .unwrap_or_else(|| panic!("{name} not in {m}"));
        assert_eq!(
            i["sha256"],
            sha_of(&format!("scenarios/cosmos/{name}")).as_str(),
            "{m}"
        );
    }
}
