//! Audit of 2026-12-07 (D4): docs/reference.md ("Reproducibility") says every output has
//! a sidecar `.meta.json`, but `expect` (expect.md, expect.csv, junit.xml) recorded no tool
//! version, seed or options, and `compare` no version. `expect.meta.json` and
//! `compare.meta.json` now say what the verdicts and moves rest on, and are written with
//! the rest of the set (one staging folder, one swap).

mod common;
use common::files::{json, sha256};
use common::runs::{cosmosim, TWO_CHECKS as EXPECT};

#[test]
fn expect_records_its_version_file_seed_options_and_trials() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("e.toml"), EXPECT).unwrap();
    let run = |out: &str, extra: &[&str]| {
        let mut args = vec!["-q", "expect", "e.toml", "--out", out];
        args.extend(extra);
        let o = cosmosim(d, &args);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        json(&d.join(out).join("expect.meta.json"))
    };
    let m = run("a", &["--seed", "9", "--option", "crit_damage_mult=3"]);
    assert_eq!(m["version"], env!("CARGO_PKG_VERSION"), "{m}");
    assert_eq!(m["command"], "expect");
    assert_eq!(m["seed"], 9);
    assert_eq!(m["rule_options"]["crit_damage_mult"], "3", "{m}");
    let f = &m["files"][0];
    assert_eq!(f["path"], "e.toml");
    assert_eq!(f["sha256"], sha256(EXPECT.as_bytes()).as_str());
    assert_eq!(f["seed"], 4);
    let mc = &f["expectations"][1];
    assert_eq!(mc["confidence"], 0.9, "{mc}");
    assert_eq!(mc["trials"], 2000);
    assert_eq!(mc["trials_run"], 2000);
    assert_eq!(mc["verdict"], "holds");
    assert_eq!(f["expectations"][0]["confidence"], 0.95);
    // The same files written as one set: the sidecar sits beside expect.csv.
    assert!(d.join("a/expect.csv").is_file() && d.join("a/junit.xml").is_file());
    // Without --seed or --option, nothing claims them.
    let plain = run("b", &[]);
    assert!(plain.get("seed").is_none(), "{plain}");
    assert_eq!(plain["rule_options"], serde_json::json!({}));
}

#[test]
fn compare_records_its_version_folders_and_test() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    for (out, seed) in [("s1", "1"), ("s2", "2")] {
        let o = cosmosim(
            d,
            &[
                "-q",
                "table",
                "cosmos-test",
                "--method",
                "mc",
                "--thresholds",
                "50",
                "--karma",
                "0",
                "--trials",
                "2000",
                "--seed",
                seed,
                "--out",
                out,
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    // An expect report inside a folder is no output to compare.
    std::fs::write(d.join("e.toml"), EXPECT).unwrap();
    assert!(
        cosmosim(d, &["-q", "expect", "e.toml", "--out", "s1/balance"])
            .status
            .success()
    );
    let o = cosmosim(
        d,
        &["-q", "compare", "s1", "s2", "--alpha", "0.1", "--out", "c"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let m = json(&d.join("c/compare.meta.json"));
    assert_eq!(m["version"], env!("CARGO_PKG_VERSION"), "{m}");
    assert_eq!(m["command"], "compare");
    assert_eq!(
        (&m["base"]["path"], &m["new"]["path"]),
        (&"s1".into(), &"s2".into())
    );
    assert_eq!(m["base"]["outputs"], 1, "{m}");
    assert_eq!(m["base"]["seeds"], serde_json::json!([1]));
    assert_eq!(m["new"]["seeds"], serde_json::json!([2]));
    assert_eq!(m["test"]["alpha"], 0.1);
    let (b, n) = (
        &m["base"]["provenance_sha256"],
        &m["new"]["provenance_sha256"],
    );
    assert!(b.as_str().is_some_and(|s| s.len() == 64) && b != n, "{m}");
    let csv = std::fs::read_to_string(d.join("c/compare.csv")).unwrap();
    assert!(!csv.contains("balance/expect"), "{csv}");
    // A comparison folder inside a compared one is no output either: the same two
    // folders keep the same identities.
    for out in ["s2/c", "c2"] {
        let o = cosmosim(
            d,
            &["-q", "compare", "s1", "s2", "--alpha", "0.1", "--out", out],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let again = json(&d.join(out).join("compare.meta.json"));
        assert_eq!(again["base"], m["base"]);
        assert_eq!(again["new"]["provenance_sha256"], *n);
    }
}
