//! The scale-out recipes (recipes/, docs/scale-out.md), tested for their command lines:
//! the GitHub Actions matrix, the Slurm job array and the Kubernetes Indexed Job are run
//! here as their engine would run them (each shard with the environment the engine sets),
//! on a small rules repository, and their merge must give the unsharded bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

const GITHUB: &str = include_str!("../recipes/github/shards.yml");
const K8S_SHARDS: &str = include_str!("../recipes/kubernetes/shards-job.yaml");
const K8S_MERGE: &str = include_str!("../recipes/kubernetes/merge-job.yaml");
const SCENARIO: &str = "scenarios/cosmos/apocalypse.toml";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_cosmosim")
}

/// A rules repository with the apocalypse scenario at 140,001 trials (three batches).
fn repo() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("scenarios/cosmos")).unwrap();
    let text = std::fs::read_to_string(root().join(SCENARIO)).unwrap();
    let text = text.replace("trials = 200000", "trials = 140001");
    assert!(text.contains("trials = 140001\n"));
    std::fs::write(d.path().join(SCENARIO), text).unwrap();
    d
}

/// A clean environment: none of the shard index variables of the machine running tests.
fn command(program: &str) -> Command {
    let mut c = Command::new(program);
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
    c
}

fn sh(line: &str, cwd: &Path, env: &[(&str, String)]) {
    let o = command("sh")
        .arg("-c")
        .arg(line)
        .current_dir(cwd)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{line}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect()
}

/// The unsharded run of the repository's scenario.
fn unsharded(repo: &Path) -> BTreeMap<String, Vec<u8>> {
    sh(
        &format!("{} -q run {SCENARIO} --out expected", bin()),
        repo,
        &[],
    );
    let f = files(&repo.join("expected"));
    assert!(f.contains_key("summary.md"));
    f
}

#[test]
fn github_matrix_shards_then_merge_job() {
    let lines: Vec<&str> = GITHUB
        .lines()
        .filter_map(|l| l.trim().strip_prefix("- run:"))
        .map(str::trim)
        .filter(|l| l.contains("cosmosim "))
        .collect();
    assert_eq!(lines.len(), 2, "{lines:?}");
    let shards: u64 = GITHUB
        .lines()
        .find_map(|l| l.trim().strip_prefix("SHARDS:"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let matrix = GITHUB
        .lines()
        .find_map(|l| l.trim().strip_prefix("shard: ["))
        .unwrap();
    let matrix: Vec<u64> = matrix
        .trim_end_matches(']')
        .split(',')
        .map(|x| x.trim().parse().unwrap())
        .collect();
    assert_eq!(matrix, (1..=shards).collect::<Vec<_>>());
    assert!(lines[0].contains("--shard auto/$SHARDS") && lines[0].contains(SCENARIO));

    let r = repo();
    let expected = unsharded(r.path());
    for i in &matrix {
        let line = lines[0]
            .replace("./target/release/cosmosim", bin())
            .replace("${{ matrix.shard }}", &i.to_string());
        let env = [
            ("SHARDS", shards.to_string()),
            ("COSMOSIM_SHARD_INDEX", i.to_string()),
        ];
        sh(&line, r.path(), &env);
    }
    sh(
        &lines[1].replace("./target/release/cosmosim", bin()),
        r.path(),
        &[],
    );
    assert_eq!(files(&r.path().join("reports/cosmos/apocalypse")), expected);
}

#[test]
fn slurm_array_shards_then_merge() {
    let r = repo();
    let expected = unsharded(r.path());
    let sbatch = root().join("recipes/slurm/shards.sbatch");
    let text = std::fs::read_to_string(&sbatch).unwrap();
    assert!(text.contains("#SBATCH --array="));
    // An array submitted as --array=5-7: three tasks whose ids start at 5.
    for id in 5..=7 {
        let env = [
            ("COSMOSIM", bin().to_string()),
            ("SLURM_ARRAY_TASK_ID", id.to_string()),
            ("SLURM_ARRAY_TASK_MIN", "5".to_string()),
            ("SLURM_ARRAY_TASK_COUNT", "3".to_string()),
            ("SLURM_CPUS_PER_TASK", "1".to_string()),
        ];
        sh(&format!("bash {}", sbatch.display()), r.path(), &env);
    }
    let merge = root().join("recipes/slurm/merge.sh");
    sh(
        &format!("bash {}", merge.display()),
        r.path(),
        &[("COSMOSIM", bin().to_string())],
    );
    assert_eq!(files(&r.path().join("reports/cosmos/apocalypse")), expected);

    // submit.sh queues the array, then the merge after it: a stand-in sbatch records
    // what it is asked.
    let fake = r.path().join("fakebin");
    std::fs::create_dir_all(&fake).unwrap();
    std::fs::write(
        fake.join("sbatch"),
        "#!/bin/sh\necho \"$@\" >> \"$SBATCH_LOG\"\necho 4242\n",
    )
    .unwrap();
    sh(
        &format!("chmod +x {}/sbatch", fake.display()),
        r.path(),
        &[],
    );
    let log = r.path().join("sbatch.log");
    let path = format!("{}:{}", fake.display(), std::env::var("PATH").unwrap());
    let submit = root().join("recipes/slurm/submit.sh");
    sh(
        &format!("bash {}", submit.display()),
        &root(),
        &[
            ("PATH", path),
            ("SHARDS", "3".into()),
            ("SBATCH_LOG", log.display().to_string()),
        ],
    );
    let calls = std::fs::read_to_string(&log).unwrap();
    let calls: Vec<&str> = calls.lines().collect();
    assert_eq!(
        calls,
        [
            "--parsable --array=1-3 recipes/slurm/shards.sbatch",
            "--dependency=afterok:4242 --job-name=cosmosim-merge recipes/slurm/merge.sh"
        ]
    );
}

/// The container command of a Job manifest (a YAML flow sequence of quoted strings, which
/// is JSON too).
fn container_command(manifest: &str) -> Vec<String> {
    let line = manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix("command:"))
        .unwrap();
    serde_json::from_str(line.trim()).unwrap()
}

fn yaml_number(manifest: &str, key: &str) -> u64 {
    manifest
        .lines()
        .find_map(|l| l.trim().strip_prefix(key))
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[test]
fn kubernetes_indexed_job_then_merge_job() {
    assert!(K8S_SHARDS.contains("completionMode: Indexed"));
    let n = yaml_number(K8S_SHARDS, "completions:");
    let cmd = container_command(K8S_SHARDS);
    assert!(cmd.contains(&format!("auto/{n}")), "{cmd:?}");
    assert_eq!(cmd[0], "cosmosim");
    let r = repo();
    let expected = unsharded(r.path());
    let parts = r.path().join("volume");
    let parts_s = parts.display().to_string();
    for index in 0..n {
        // Kubernetes sets JOB_COMPLETION_INDEX and expands $(JOB_COMPLETION_INDEX).
        let args: Vec<String> = cmd[1..]
            .iter()
            .map(|a| {
                a.replace("$(JOB_COMPLETION_INDEX)", &index.to_string())
                    .replace("/parts", &parts_s)
            })
            .collect();
        let o = command(bin())
            .args(&args)
            .env("JOB_COMPLETION_INDEX", index.to_string())
            .current_dir(r.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let merge = container_command(K8S_MERGE);
    assert_eq!(merge[..2], ["sh", "-c"]);
    let line = merge[2]
        .replacen("cosmosim ", &format!("{} ", bin()), 1)
        .replace("/parts", &parts_s);
    sh(&line, r.path(), &[]);
    assert_eq!(files(&parts.join("merged")), expected);
}
