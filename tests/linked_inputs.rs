//! A file a scenario links (a party expedition's `[expedition.encounter] combat`) is an
//! input like the scenario itself (audit of 2026-12-07 afternoon, commands item 1): its
//! SHA-256 is in every `.meta.json` and in the shard manifest's `inputs`, so two runs
//! against two versions of it differ in provenance and `merge` refuses parts that mix them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cosmosim(args: &[&str], cwd: &Path) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cosmosim"));
    for v in [
        "COSMOSIM_SHARD_INDEX",
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_COUNT",
        "JOB_COMPLETION_INDEX",
        "CI_NODE_INDEX",
        "CI_NODE_TOTAL",
    ] {
        c.env_remove(v);
    }
    c.args(args).current_dir(cwd).output().unwrap()
}

fn ok(args: &[&str], cwd: &Path) {
    let o = cosmosim(args, cwd);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// The expedition and its combat file copied into a fresh folder.
fn copied() -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    for f in ["party-expedition.toml", "party-vs-boss.toml"] {
        std::fs::copy(project().join("scenarios/cosmos").join(f), t.path().join(f)).unwrap();
    }
    t
}

/// The boss's first `hp = 280` made 5.
fn weaken_boss(dir: &Path) {
    let p = dir.join("party-vs-boss.toml");
    let text = std::fs::read_to_string(&p).unwrap();
    assert!(text.contains("hp = 280"));
    std::fs::write(&p, text.replacen("hp = 280", "hp = 5", 1)).unwrap();
}

fn metas(dir: &Path) -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".meta.json"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read_to_string(e.path()).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

#[test]
fn the_linked_combat_file_is_in_provenance() {
    let t = copied();
    let d = t.path();
    let run = ["run", "party-expedition.toml", "--trials", "40", "--quiet"];
    ok(&[&run[..], &["--out", "r1"]].concat(), d);
    weaken_boss(d);
    ok(&[&run[..], &["--out", "r2"]].concat(), d);
    let (m1, m2) = (metas(&d.join("r1")), metas(&d.join("r2")));
    assert!(!m1.is_empty());
    for ((name, a), (_, b)) in m1.iter().zip(&m2) {
        assert_ne!(
            a, b,
            "{name}: the boss file changed, its provenance did not"
        );
        let json: serde_json::Value = serde_json::from_str(b).unwrap();
        let linked = &json["linked"][0];
        assert_eq!(linked["path"], "party-vs-boss.toml", "{name}: {b}");
        let bytes = std::fs::read(d.join("party-vs-boss.toml")).unwrap();
        let sha: String = sha2_hex(&bytes);
        assert_eq!(linked["sha256"], sha.as_str(), "{name}");
    }
}

fn sha2_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn shards_run_against_two_combat_files_do_not_merge() {
    let t = copied();
    let d = t.path();
    let run = ["run", "party-expedition.toml", "--trials", "40", "--quiet"];
    ok(&[&run[..], &["--shard", "1/2", "--out", "p1"]].concat(), d);
    let manifest = std::fs::read_to_string(d.join("p1/manifest.json")).unwrap();
    assert!(manifest.contains("party-vs-boss.toml"), "{manifest}");
    weaken_boss(d);
    ok(&[&run[..], &["--shard", "2/2", "--out", "p2"]].concat(), d);
    let o = cosmosim(&["merge", "p1", "p2", "--out", "m"], d);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("differ"), "{err}");
    assert!(!d.join("m").exists());
    // Both parts against the edited file merge; editing it again after is refused.
    ok(&[&run[..], &["--shard", "1/2", "--out", "p1b"]].concat(), d);
    ok(&["merge", "p1b", "p2", "--out", "m"], d);
    let text = std::fs::read_to_string(d.join("party-vs-boss.toml")).unwrap();
    std::fs::write(d.join("party-vs-boss.toml"), text + "\n# edited\n").unwrap();
    let o = cosmosim(&["merge", "p1b", "p2", "--out", "m2"], d);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("party-vs-boss.toml"), "{err}");
}
