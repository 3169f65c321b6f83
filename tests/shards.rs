//! Shards and merge (docs/scale-out.md): for `run`, `sweep`, `table --method mc` and
//! `report`, shards 1..N merged give the unsharded bytes for N in {1, 2, 3, 7} with trial
//! counts that are not multiples of the batch size (so batches split unevenly and some
//! shards own nothing of a call); bad parts and bad flags are refused with exit 2.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const AUTO_VARS: [&str; 6] = [
    "COSMOSIM_SHARD_INDEX",
    "SLURM_ARRAY_TASK_ID",
    "SLURM_ARRAY_TASK_MIN",
    "SLURM_ARRAY_TASK_COUNT",
    "JOB_COMPLETION_INDEX",
    "CI_NODE_INDEX",
];

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn cosmosim(args: &[&str], cwd: &Path) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_cosmosim"));
    for v in AUTO_VARS.iter().chain(["CI_NODE_TOTAL"].iter()) {
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

/// Exit 2 with a message containing every one of `needles`; returns the message.
fn refused(args: &[&str], cwd: &Path, needles: &[&str]) -> String {
    let o = cosmosim(args, cwd);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in {err}");
    }
    assert!(!err.contains("panicked"), "{err}");
    err
}

/// Every visible file under `dir` (hidden staging/lock files excluded) with its bytes.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

fn s(p: &Path) -> String {
    p.display().to_string()
}

/// Runs shards 1..n of `args` into `tmp/parts-n/`, returns their folders.
fn shards(args: &[&str], n: u64, cwd: &Path, tmp: &Path) -> Vec<PathBuf> {
    (1..=n)
        .map(|i| {
            let part = tmp.join(format!("parts-{n}/shard-{i}"));
            let mut a: Vec<String> = args.iter().map(|x| x.to_string()).collect();
            a.extend([
                "--shard".into(),
                format!("{i}/{n}"),
                "--out".into(),
                s(&part),
            ]);
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            ok(&a, cwd);
            part
        })
        .collect()
}

/// The unsharded outputs, then for each N the merge of its shards (given in reverse
/// order: the merge must not depend on it) compared byte for byte.
fn merged_equals_unsharded(args: &[&str], cwd: &Path) {
    let t = tempfile::tempdir().unwrap();
    let full = t.path().join("full");
    let mut a = args.to_vec();
    let full_s = s(&full);
    a.extend(["--quiet", "--out", &full_s]);
    ok(&a, cwd);
    let expected = snapshot(&full);
    assert!(expected
        .keys()
        .any(|k| k.extension().is_some_and(|e| e == "png")));
    for n in [1, 2, 3, 7] {
        let mut parts = shards(args, n, cwd, t.path());
        parts.reverse();
        let out = t.path().join(format!("merged-{n}"));
        let mut m = vec!["merge".to_string(), "--quiet".into()];
        m.extend(parts.iter().map(|p| s(p)));
        m.extend(["--out".into(), s(&out)]);
        let m: Vec<&str> = m.iter().map(String::as_str).collect();
        ok(&m, cwd);
        let got = snapshot(&out);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "{args:?} N={n}"
        );
        for (k, v) in &expected {
            assert!(got[k] == *v, "{args:?} N={n}: {} differs", k.display());
        }
    }
}

#[test]
fn run_shards_merge_to_the_unsharded_bytes() {
    // 140,001 trials: three batches, the last of 9,929 trials.
    merged_equals_unsharded(
        &[
            "run",
            "scenarios/cosmos/apocalypse.toml",
            "--trials",
            "140001",
        ],
        &project(),
    );
}

#[test]
fn sweep_shards_merge_to_the_unsharded_bytes() {
    merged_equals_unsharded(
        &[
            "sweep",
            "scenarios/cosmos/duel.toml",
            "--vary",
            "aldric.level=2,3,4",
            "--vary",
            "brune.level=3,5",
            "--trials",
            "70001",
        ],
        &project(),
    );
}

#[test]
fn table_mc_shards_merge_to_the_unsharded_bytes() {
    merged_equals_unsharded(
        &[
            "table",
            "cosmos-test",
            "--method",
            "mc",
            "--trials",
            "150001",
            "--thresholds",
            "30,55,80",
            "--karma",
            "-2,0,3",
        ],
        &project(),
    );
}

/// A small rules repository: one shipped scenario at 3,000 trials.
fn small_repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("scenarios/cosmos")).unwrap();
    let creation =
        std::fs::read_to_string(project().join("scenarios/cosmos/creation.toml")).unwrap();
    let creation = creation.replace("trials = 200000", "trials = 3000");
    assert!(creation.contains("trials = 3000\n"));
    std::fs::write(d.path().join("scenarios/cosmos/creation.toml"), creation).unwrap();
    d
}

#[test]
fn report_shards_merge_to_the_unsharded_bytes() {
    let repo = small_repo();
    merged_equals_unsharded(&["report", "--trials", "70001"], repo.path());
}

/// Three parts of a cheap table run, in `t/parts-3/`.
fn table_parts(t: &Path, seed: &str) -> Vec<PathBuf> {
    let args = [
        "table",
        "cosmos-test",
        "--method",
        "mc",
        "--trials",
        "200000",
        "--thresholds",
        "50",
        "--seed",
        seed,
    ];
    shards(&args, 3, &project(), t)
}

fn merge_args<'a>(parts: &'a [String], out: &'a str) -> Vec<&'a str> {
    let mut a = vec!["merge"];
    a.extend(parts.iter().map(String::as_str));
    a.extend(["--out", out]);
    a
}

#[test]
fn bad_parts_are_refused_and_named() {
    let t = tempfile::tempdir().unwrap();
    let parts = table_parts(t.path(), "1");
    let out = s(&t.path().join("merged"));
    let names: Vec<String> = parts.iter().map(|p| s(p)).collect();
    let root = project();

    // Missing: shard 3 of 3.
    refused(
        &merge_args(&names[..2], &out),
        &root,
        &["missing shard 3/3"],
    );
    // Duplicate: shard 1 twice (a copy in another folder).
    let copy = t.path().join("copy-of-1");
    std::fs::create_dir_all(&copy).unwrap();
    for f in ["manifest.json", "accumulators.bin"] {
        std::fs::copy(parts[0].join(f), copy.join(f)).unwrap();
    }
    let mut dup = names.clone();
    dup.push(s(&copy));
    refused(&merge_args(&dup, &out), &root, &["duplicate", "shard 1/3"]);
    // Foreign: shard 2 of another seed's run.
    let other = tempfile::tempdir().unwrap();
    let foreign = table_parts(other.path(), "2");
    let mut mixed = names.clone();
    mixed[1] = s(&foreign[1]);
    refused(
        &merge_args(&mixed, &out),
        &root,
        &["foreign part", &mixed[1], "`--seed 2`", "`--seed 1`"],
    );
    // Not a partial folder at all.
    let empty = t.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let mut with_empty = names.clone();
    with_empty[2] = s(&empty);
    refused(
        &merge_args(&with_empty, &out),
        &root,
        &["not a partial folder", &with_empty[2]],
    );

    // Corrupt: one byte of shard 2's accumulators flipped.
    let acc = parts[1].join("accumulators.bin");
    let good = std::fs::read(&acc).unwrap();
    assert!(good.len() > 100, "shard 2 owns batches");
    let mut bad = good.clone();
    bad[good.len() / 2] ^= 0x40;
    std::fs::write(&acc, &bad).unwrap();
    refused(&merge_args(&names, &out), &root, &["corrupt", &names[1]]);
    // Truncated accumulators.
    std::fs::write(&acc, &good[..good.len() - 7]).unwrap();
    refused(&merge_args(&names, &out), &root, &["truncated", &names[1]]);
    std::fs::write(&acc, &good).unwrap();
    // Truncated manifest.
    let man = parts[2].join("manifest.json");
    let text = std::fs::read(&man).unwrap();
    std::fs::write(&man, &text[..text.len() / 2]).unwrap();
    refused(&merge_args(&names, &out), &root, &["truncated", &names[2]]);
    std::fs::write(&man, &text).unwrap();

    // Nothing was written by the refused merges; the repaired set merges.
    assert!(!t.path().join("merged").exists());
    ok(&merge_args(&names, &out), &root);
    assert!(t.path().join("merged/cosmos-test-mc.csv").is_file());
}

#[test]
fn a_scenario_edited_after_the_shards_is_refused() {
    let repo = small_repo();
    let file = "scenarios/cosmos/creation.toml";
    let parts = shards(&["run", file], 2, repo.path(), repo.path());
    let text = std::fs::read_to_string(repo.path().join(file)).unwrap();
    std::fs::write(repo.path().join(file), text + "\n# edited\n").unwrap();
    let names: Vec<String> = parts.iter().map(|p| s(p)).collect();
    refused(
        &merge_args(&names, "out"),
        repo.path(),
        &["input files differ", file],
    );
}

#[test]
fn shard_flags_are_checked_like_every_flag() {
    let root = project();
    let f = "scenarios/cosmos/duel.toml";
    for bad in ["0/3", "4/3", "x", "2", "1/0", "auto/"] {
        refused(
            &["run", f, "--shard", bad, "--out", "x"],
            &root,
            &["--shard"],
        );
    }
    refused(
        &["run", f, "--shard", "auto/3", "--out", "x"],
        &root,
        &[
            "SLURM_ARRAY_TASK_ID",
            "JOB_COMPLETION_INDEX",
            "CI_NODE_INDEX",
        ],
    );
    refused(
        &["run", f, "--shard", "1/2", "--precision", "0.01"],
        &root,
        &["--precision"],
    );
    refused(
        &["run", f, "--shard", "1/2"],
        &root,
        &["--shard needs --out"],
    );
    refused(
        &["options", "--shard", "1/2"],
        &root,
        &["run, sweep, table and report"],
    );
    refused(
        &["check", f, "--shard", "1/2"],
        &root,
        &["run, sweep, table and report"],
    );
}

#[test]
fn auto_takes_the_index_from_the_engine_environment() {
    let t = tempfile::tempdir().unwrap();
    let cases: [(&[(&str, &str)], u64); 4] = [
        (&[("JOB_COMPLETION_INDEX", "1")], 2),
        (&[("CI_NODE_INDEX", "3"), ("CI_NODE_TOTAL", "3")], 3),
        (
            &[
                ("SLURM_ARRAY_TASK_ID", "10"),
                ("SLURM_ARRAY_TASK_MIN", "10"),
                ("SLURM_ARRAY_TASK_COUNT", "3"),
            ],
            1,
        ),
        (&[("COSMOSIM_SHARD_INDEX", "2")], 2),
    ];
    for (k, (vars, index)) in cases.iter().enumerate() {
        let out = t.path().join(format!("p{k}"));
        let mut c = Command::new(env!("CARGO_BIN_EXE_cosmosim"));
        for v in AUTO_VARS.iter().chain(["CI_NODE_TOTAL"].iter()) {
            c.env_remove(v);
        }
        let o = c
            .args(["-q", "table", "cosmos-test", "--method", "mc"])
            .args([
                "--trials",
                "1000",
                "--thresholds",
                "50",
                "--shard",
                "auto/3",
            ])
            .arg("--out")
            .arg(&out)
            .envs(vars.iter().copied())
            .current_dir(project())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let m: serde_json::Value =
            serde_json::from_slice(&std::fs::read(out.join("manifest.json")).unwrap()).unwrap();
        assert_eq!(m["shard"]["index"], *index, "{vars:?}");
        assert_eq!(m["shard"]["count"], 3);
    }
}

/// docs/scale-out.md promises < 1 MB of accumulators per combat scenario shard at the
/// default trial count; one shard of one is the largest partial.
#[test]
fn a_combat_scenario_partial_at_default_trials_stays_under_a_megabyte() {
    let t = tempfile::tempdir().unwrap();
    let part = t.path().join("p");
    ok(
        &[
            "-q",
            "run",
            "scenarios/cosmos/apocalypse.toml",
            "--shard",
            "1/1",
            "--out",
            &s(&part),
        ],
        &project(),
    );
    let size = std::fs::metadata(part.join("accumulators.bin"))
        .unwrap()
        .len();
    assert!(size > 1000 && size < 1_000_000, "{size} bytes");
}

/// `merge --lang` speaks for the merged pages: shards run in one language merge into the
/// other language's unsharded bytes (the accumulators do not depend on the language).
#[test]
fn merge_lang_wins_over_the_shards_language() {
    let t = tempfile::tempdir().unwrap();
    let cwd = project();
    let run = [
        "run",
        "scenarios/cosmos/apocalypse.toml",
        "--trials",
        "70001",
    ];
    for (shard_lang, merge_lang) in [("en", "fr"), ("fr", "en")] {
        let full = t.path().join(format!("full-{merge_lang}"));
        let mut a = run.to_vec();
        let full_s = s(&full);
        a.extend(["--quiet", "--lang", merge_lang, "--out", &full_s]);
        ok(&a, &cwd);
        let mut a = run.to_vec();
        a.extend(["--lang", shard_lang]);
        let sub = t.path().join(shard_lang);
        let parts = shards(&a, 2, &cwd, &sub);
        let out = t.path().join(format!("merged-{merge_lang}"));
        let mut m = vec!["merge".to_string(), "--quiet".into()];
        m.extend(["--lang".into(), merge_lang.into()]);
        m.extend(parts.iter().map(|p| s(p)));
        m.extend(["--out".into(), s(&out)]);
        let m: Vec<&str> = m.iter().map(String::as_str).collect();
        ok(&m, &cwd);
        let (expected, got) = (snapshot(&full), snapshot(&out));
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>()
        );
        for (k, v) in &expected {
            assert!(
                got[k] == *v,
                "{shard_lang} -> {merge_lang}: {} differs",
                k.display()
            );
        }
    }
}
