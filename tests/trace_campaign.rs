//! Issue 27 item 1 for `kind = "campaign"`: `cosmosim trace` replays campaigns of a run
//! (each test that moved karma, postures, grants, the first +10 or -10), bit-identical to
//! the batch run, and finds them by how karma went.

use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials, shipped};

/// `p_by_end` of `campaign-extremes.csv` for a variant and event.
fn p_by_end(path: &Path, variant: &str, event: &str) -> f64 {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |n: &str| head.iter().position(|h| *h == n).unwrap();
    let (v, e, p) = (col("postures"), col("event"), col("p_by_end"));
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .find(|f| f[v] == variant && f[e] == event)
        .map(|f| f[p].parse().unwrap())
        .unwrap()
}

#[test]
fn replayed_campaigns_reach_the_extremes_as_the_run_counted_them() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    const N: usize = 300;
    for name in ["campaign.toml", "campaign-gm.toml"] {
        let f = shipped(d, name);
        let out = format!("r-{name}");
        let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", &out]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
        let trials = json_trials(&o);
        assert_eq!(trials.len(), N);
        let mut reached = [0usize; 2];
        for (i, t) in trials.iter().enumerate() {
            assert_eq!(t["trial"], i as u64);
            let steps = t["steps"].as_array().unwrap();
            assert_eq!(steps.last().unwrap()["outcome"], t["outcome"]);
            // The outcome is the first extreme step; each test step moves karma by the
            // drift of its outcome (C-KARMA-1).
            let first = steps.iter().find(|s| s["step"] == "extreme");
            let want = first.map_or("none".to_string(), |s| {
                format!("first_{}", s["reached"].as_str().unwrap())
            });
            assert_eq!(t["outcome"], want.as_str(), "{t}");
            for (k, r) in ["plus_10", "minus_10"].iter().enumerate() {
                reached[k] += steps
                    .iter()
                    .any(|s| s["step"] == "extreme" && s["reached"] == *r)
                    as usize;
            }
            for s in steps.iter().filter(|s| s["step"] == "test") {
                let delta = match s["outcome"].as_str().unwrap() {
                    "super_success" => -2,
                    "crit_success" => -1,
                    "crit_failure" => 1,
                    "super_failure" => 2,
                    o => panic!("{o} moved karma: {s}"),
                };
                let (from, to) = (s["from"].as_i64().unwrap(), s["to"].as_i64().unwrap());
                assert_eq!((from + delta).clamp(-10, 10), to, "{s}");
            }
        }
        let csv = d.join(&out).join("campaign-extremes.csv");
        for (k, e) in ["first_plus_10", "first_minus_10"].iter().enumerate() {
            let p = p_by_end(&csv, "postures", e);
            assert_eq!((p * N as f64).round() as usize, reached[k], "{name} {e}");
        }
        assert!(reached[0] > 0 && reached[1] > 0, "{name}");
        // The summary names exactly the outcomes the replays ended with.
        let summary = std::fs::read_to_string(d.join(&out).join("summary.md")).unwrap();
        assert!(summary.contains("## See a trial"), "{summary}");
        for o in ["first_plus_10", "first_minus_10", "none"] {
            let n = trials.iter().filter(|t| t["outcome"] == o).count();
            let cmd = format!("`cosmosim trace {f} --find outcome={o} --seed 1`");
            assert_eq!(summary.contains(&cmd), n > 0, "{o}: {summary}");
        }
    }
}

#[test]
fn find_shows_a_refused_posture_and_the_grants_and_refuses_bad_conditions() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "campaign-gm.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "refused,outcome=first_minus_10",
            "--format",
            "json",
        ],
    );
    let found = json_trials(&o);
    assert_eq!(found.len(), 1);
    let t0 = &found[0];
    assert_eq!(t0["outcome"], "first_minus_10");
    let steps = t0["steps"].as_array().unwrap();
    assert!(steps.iter().any(|s| s["step"] == "refused"));
    // Session 3's grant comes before test 81: karma -3 within the bound.
    let g = steps
        .iter()
        .find(|s| s["step"] == "grant" && s["karma"] == -3)
        .unwrap();
    assert_eq!(g["test"], 81);
    assert_eq!(
        g["to"].as_i64().unwrap(),
        (g["from"].as_i64().unwrap() - 3).max(-10)
    );
    // A paid posture shows the points left; a locked test never moves karma.
    assert!(steps
        .iter()
        .any(|s| s["step"] == "posture" && s["points_left"].is_array()));
    let n = t0["trial"].as_u64().unwrap().to_string();
    let again = json_trials(&cosmosim(
        d,
        &["trace", &f, "--trial", &n, "--format", "json"],
    ));
    assert_eq!(&again[0], t0);
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "reached=plus_10,final_karma_at_most=-3",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("karma reaches +10 for the first time"),
        "{text}"
    );
    assert!(
        text.contains("(session 1)") && text.contains("threshold"),
        "{text}"
    );
    for (cond, says) in [
        ("outcome=ten", "first_plus_10, first_minus_10, none"),
        ("reached=11", "plus_10, minus_10"),
        ("final_karma_at_least=12", "-10..10"),
        ("luck", "postures_at_least"),
    ] {
        let o = cosmosim(d, &["trace", &f, "--find", cond]);
        assert_eq!(o.status.code(), Some(2), "{cond}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(says), "{cond}: {e}");
    }
}

#[test]
fn a_campaign_is_told_in_french() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "campaign-gm.toml");
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("(séance 3), avant le test : un don, karma -3"),
        "{text}"
    );
    assert!(text.contains("seuil") && text.contains("posture"), "{text}");
    assert!(!text.contains("threshold"), "{text}");
}
