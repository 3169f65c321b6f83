//! Issue 23: provenance never carries Rust `Debug` text (not stable across compiler
//! versions, and not a designer's words): models are recorded as canonical JSON
//! (`report::param_text`). Every growth scenario whose provenance names a policy, a
//! schedule, events, levels, builds or a pace is run here and its `.meta.json` read.

use std::path::Path;
use std::process::Command;

/// `Some(`, `None`, a struct's `Name { field: ` or a tuple struct's `DiceExpr(`.
fn debug_text(s: &str) -> Option<String> {
    if s.contains("Some(") || s.contains("DiceExpr(") {
        return Some(s.to_string());
    }
    for (i, _) in s.match_indices(" { ") {
        let before = &s[..i];
        let name = before
            .rsplit(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        let after = &s[i + 3..];
        let field = after.split(':').next().unwrap_or("");
        if name.starts_with(|c: char| c.is_ascii_uppercase())
            && !field.is_empty()
            && field
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return Some(s.to_string());
        }
    }
    s.split(|c: char| !c.is_alphanumeric())
        .any(|w| w == "None")
        .then(|| s.to_string())
}

#[test]
fn growth_provenance_is_json_never_debug_text() {
    assert!(debug_text("LevelPolicy { level2: TwoD10 }").is_some());
    assert!(debug_text("conversion=None").is_some());
    assert!(debug_text(r#"{"days":null,"dice":"1d6"}"#).is_none());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let d = tempfile::tempdir().unwrap();
    for name in [
        "build-paths",
        "conversion",
        "creation-races",
        "mutation-events",
        "expedition-legs",
    ] {
        let out = d.path().join(name);
        let o = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
            .current_dir(root)
            .args(["-q", "run", &format!("scenarios/cosmos/{name}.toml")])
            .args(["--trials", "500", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let mut metas = 0;
        for e in std::fs::read_dir(&out).unwrap() {
            let p = e.unwrap().path();
            if !p.to_string_lossy().ends_with(".meta.json") {
                continue;
            }
            metas += 1;
            let meta: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            for (k, v) in meta["parameters"].as_object().unwrap() {
                let v = v.as_str().unwrap_or_default();
                assert!(
                    debug_text(v).is_none(),
                    "{}: parameter {k} is Debug text: {v}",
                    p.display()
                );
            }
        }
        assert!(metas > 0, "{name}");
    }
}
