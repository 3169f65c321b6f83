//! Issue 24 item 7 and issue 23 item 5: a shard part is data from elsewhere. Each edit
//! below keeps the accumulators' size and SHA-256 in step with the manifest, so only the
//! structural checks can catch it: a declared 2^62-byte string (an error, never an
//! abort), trailing bytes, a shard count of 0, an index past the count, a path as the
//! accumulators file, a command `--shard` never runs, and a part of another build (named
//! with both identities).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use cosmosim::commands::shard::{sha256_hex, BUILD_ID};

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cosmosim(args: &[&str], cwd: &Path) -> (Option<i32>, String) {
    let out = assert_cmd::Command::from_std({
        let mut c = Command::cargo_bin("cosmosim").unwrap();
        for v in [
            "COSMOSIM_SHARD_INDEX",
            "SLURM_ARRAY_TASK_ID",
            "JOB_COMPLETION_INDEX",
            "CI_NODE_INDEX",
        ] {
            c.env_remove(v);
        }
        c
    })
    .args(args)
    .current_dir(cwd)
    .timeout(Duration::from_secs(60))
    .output()
    .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// Two parts of a cheap Monte Carlo table, in `t/p1` and `t/p2`.
fn parts(t: &Path) -> Vec<PathBuf> {
    (1..=2)
        .map(|i| {
            let out = t.join(format!("p{i}"));
            let (code, err) = cosmosim(
                &[
                    "table",
                    "cosmos-test",
                    "--method",
                    "mc",
                    "--trials",
                    "100000",
                    "--thresholds",
                    "50",
                    "--shard",
                    &format!("{i}/2"),
                    "--out",
                    out.to_str().unwrap(),
                ],
                &project(),
            );
            assert_eq!(code, Some(0), "{err}");
            out
        })
        .collect()
}

fn manifest(p: &Path) -> serde_json::Value {
    serde_json::from_str(&fs::read_to_string(p.join("manifest.json")).unwrap()).unwrap()
}

fn set_manifest(p: &Path, m: &serde_json::Value) {
    fs::write(
        p.join("manifest.json"),
        serde_json::to_string_pretty(m).unwrap(),
    )
    .unwrap();
}

/// Replaces the accumulators of part `p` and brings the manifest's size and SHA-256 in
/// step, as a careful forger would.
fn forge_accumulators(p: &Path, bytes: &[u8]) {
    fs::write(p.join("accumulators.bin"), bytes).unwrap();
    let mut m = manifest(p);
    m["accumulators"]["bytes"] = bytes.len().into();
    m["accumulators"]["sha256"] = sha256_hex(bytes).into();
    set_manifest(p, &m);
}

fn merge_refused(parts: &[PathBuf], t: &Path, needles: &[&str]) -> String {
    let mut args: Vec<&str> = vec!["merge"];
    args.extend(parts.iter().map(|p| p.to_str().unwrap()));
    let out = t.join("merged");
    args.extend(["--out", out.to_str().unwrap()]);
    let (code, err) = cosmosim(&args, &project());
    assert_eq!(code, Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "`{n}` not in {err}");
    }
    assert!(!out.exists());
    err
}

#[test]
fn forged_parts_are_refused_by_structure_not_only_by_checksum() {
    let t = tempfile::tempdir().unwrap();
    let ps = parts(t.path());
    let p2 = ps[1].to_str().unwrap().to_string();
    let good_acc = fs::read(ps[1].join("accumulators.bin")).unwrap();
    let good_manifest = manifest(&ps[1]);

    // One call whose simulation name declares 2^62 bytes (bincode varint 253: u64 follows).
    let mut huge = vec![1u8, 253];
    huge.extend((1u64 << 62).to_le_bytes());
    huge.extend([0u8; 16]);
    forge_accumulators(&ps[1], &huge);
    merge_refused(&ps, t.path(), &[&p2, "cannot be decoded"]);

    // The real accumulators with one trailing byte.
    let mut longer = good_acc.clone();
    longer.push(0);
    forge_accumulators(&ps[1], &longer);
    merge_refused(&ps, t.path(), &[&p2, "cannot be decoded"]);

    // Fewer calls than the manifest announces.
    set_manifest(&ps[1], &good_manifest);
    fs::write(ps[1].join("accumulators.bin"), &good_acc).unwrap();
    let mut m = good_manifest.clone();
    m["accumulators"]["calls"] = (m["accumulators"]["calls"].as_u64().unwrap() + 1).into();
    set_manifest(&ps[1], &m);
    merge_refused(&ps, t.path(), &[&p2, "cannot be decoded"]);

    // Shard counts and indices.
    for (index, count, needle) in [
        (1, 0, "shard 1/0"),
        (0, 2, "shard 0/2"),
        (3, 2, "shard 3/2"),
    ] {
        let mut m = good_manifest.clone();
        m["shard"]["index"] = index.into();
        m["shard"]["count"] = count.into();
        set_manifest(&ps[1], &m);
        merge_refused(&ps, t.path(), &[&p2, "is invalid", needle, "1..100000"]);
    }

    // The accumulators file as a path out of the part.
    let mut m = good_manifest.clone();
    m["accumulators"]["file"] = "../../etc/passwd".into();
    set_manifest(&ps[1], &m);
    merge_refused(&ps, t.path(), &[&p2, "is invalid", "accumulators.bin"]);

    // The repaired part merges.
    set_manifest(&ps[1], &good_manifest);
    let (code, err) = cosmosim(
        &[
            "merge",
            ps[0].to_str().unwrap(),
            &p2,
            "--out",
            t.path().join("merged").to_str().unwrap(),
        ],
        &project(),
    );
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn only_commands_that_shard_are_replayed() {
    let t = tempfile::tempdir().unwrap();
    let ps = parts(t.path());
    for command in [
        vec!["variants", "variants/cosmos-karma.toml"],
        vec!["figures", "cosmos-test"],
        vec!["--lang", "fr", "options"],
    ] {
        for p in &ps {
            let mut m = manifest(p);
            m["command"] = command.clone().into();
            set_manifest(p, &m);
        }
        let named = command
            .iter()
            .find(|a| !a.starts_with('-') && **a != "fr")
            .unwrap();
        merge_refused(
            &ps,
            t.path(),
            &[&format!("`{named}`"), "run, sweep, table, report"],
        );
    }
    // A recorded command that carries its own --out.
    for p in &ps {
        let mut m = manifest(p);
        m["command"] = vec!["table", "cosmos-test", "--out", "/tmp/elsewhere"].into();
        set_manifest(p, &m);
    }
    merge_refused(&ps, t.path(), &["is invalid", "--out"]);
}

#[test]
fn parts_of_another_build_are_refused_naming_both_builds() {
    let t = tempfile::tempdir().unwrap();
    let ps = parts(t.path());
    assert_eq!(manifest(&ps[0])["build"], BUILD_ID);
    assert_eq!(manifest(&ps[0])["format"], "cosmosim-partial/2");
    let mut m = manifest(&ps[1]);
    let other = "0123456789abcdef0123456789abcdef";
    m["build"] = other.into();
    set_manifest(&ps[1], &m);
    merge_refused(&ps, t.path(), &[ps[1].to_str().unwrap(), other, BUILD_ID]);
    // A part of the previous format is named as such.
    let mut m = manifest(&ps[0]);
    m["format"] = "cosmosim-partial/1".into();
    set_manifest(&ps[0], &m);
    merge_refused(&ps, t.path(), &["cosmosim-partial/1", "cosmosim-partial/2"]);
}

#[test]
fn parts_of_another_stream_version_are_refused_naming_both_versions() {
    let t = tempfile::tempdir().unwrap();
    let ps = parts(t.path());
    let ours = cosmosim::engine::STREAM_VERSION;
    assert_eq!(manifest(&ps[0])["stream_version"], ours);
    let mut m = manifest(&ps[1]);
    m["stream_version"] = (ours + 1).into();
    set_manifest(&ps[1], &m);
    let (v, o) = (format!("version {}", ours + 1), format!("version {ours}"));
    merge_refused(&ps, t.path(), &[ps[1].to_str().unwrap(), &v, &o, BUILD_ID]);
    // A part written before streams were versioned reads as version 0.
    let mut m = manifest(&ps[1]);
    m.as_object_mut().unwrap().remove("stream_version");
    set_manifest(&ps[1], &m);
    merge_refused(&ps, t.path(), &["version 0", &o]);
}
