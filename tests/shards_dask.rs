//! The Dask recipe on a real Dask cluster: recipes/dask/run_shards.py runs the shards of a
//! scenario as tasks on a `LocalCluster` of worker processes, one worker is killed
//! (SIGKILL) while it runs a shard, Dask retries the task, and the merged outputs are the
//! unsharded bytes.
//!
//! The Python dependencies (recipes/dask/requirements.txt, pinned) are installed into a
//! virtual environment cached outside the clone, `~/.cache/cosmosim-venv/<hash of the
//! requirements>` (or `$COSMOSIM_VENV_DIR/<hash>`). Without Python or pip the test says
//! it is skipped, except where `COSMOSIM_REQUIRE_DASK=1` (set by .ci/run): there a skip
//! is a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

const REQUIREMENTS: &str = include_str!("../recipes/dask/requirements.txt");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Skips (or fails, when Dask is required) with a reason.
fn unavailable(why: &str) {
    if std::env::var("COSMOSIM_REQUIRE_DASK").is_ok_and(|v| v == "1") {
        panic!("COSMOSIM_REQUIRE_DASK=1 but the Dask test cannot run: {why}");
    }
    eprintln!("skipped: the Dask test needs Python 3 with venv and pip: {why}");
}

fn run(c: &mut Command) -> Result<(), String> {
    match c.output() {
        Ok(o) if o.status.success() => Ok(()),
        Ok(o) => Err(format!(
            "{c:?}: {}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
        Err(e) => Err(format!("{c:?}: {e}")),
    }
}

/// The venv's python, created once per requirements file (atomically: built beside, then
/// renamed, so a killed install is never reused).
fn venv() -> Result<PathBuf, String> {
    let hash: String = Sha256::digest(REQUIREMENTS.as_bytes())
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect();
    let base = match std::env::var_os("COSMOSIM_VENV_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(std::env::var_os("HOME").ok_or("HOME is not set")?)
            .join(".cache/cosmosim-venv"),
    };
    let dir = base.join(&hash);
    let python = dir.join("bin/python");
    if python.is_file() {
        return Ok(python);
    }
    std::fs::create_dir_all(&base).map_err(|e| e.to_string())?;
    let building = base.join(format!("{hash}.building-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&building);
    let py = std::env::var("COSMOSIM_PYTHON").unwrap_or_else(|_| "python3".into());
    run(Command::new(&py).arg("-m").arg("venv").arg(&building))?;
    run(Command::new(building.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(root().join("recipes/dask/requirements.txt")))?;
    // A venv's scripts name its own path: build it at its final name by renaming the
    // finished folder (venvs stay valid when only the python path is used).
    match std::fs::rename(&building, &dir) {
        Ok(()) => {}
        Err(_) if python.is_file() => {
            let _ = std::fs::remove_dir_all(&building);
        }
        Err(e) => return Err(e.to_string()),
    }
    Ok(python)
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

#[test]
fn dask_cluster_runs_the_shards_and_survives_a_killed_worker() {
    let python = match venv() {
        Ok(p) => p,
        Err(why) => return unavailable(&why),
    };
    let bin = env!("CARGO_BIN_EXE_cosmosim");
    let t = tempfile::tempdir().unwrap();
    // 600,000 trials: ten batches, so each of four shards computes for a while.
    let command = [
        "run",
        "scenarios/cosmos/apocalypse.toml",
        "--trials",
        "600000",
    ];
    let full = t.path().join("full");
    let o = Command::new(bin)
        .args(command)
        .arg("-q")
        .arg("--out")
        .arg(&full)
        .current_dir(root())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let merged = t.path().join("merged");
    let o = Command::new(&python)
        .arg(root().join("recipes/dask/run_shards.py"))
        .args(["--shards", "4", "--local-workers", "2", "--retries", "2"])
        .arg("--parts")
        .arg(t.path().join("parts"))
        .arg("--out")
        .arg(&merged)
        .arg("--cosmosim")
        .arg(bin)
        .arg("--chaos-kill-worker")
        .arg("--")
        .args(command)
        .current_dir(root())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("chaos: killed worker pid"),
        "no worker was killed: {stdout}"
    );
    let expected = files(&full);
    assert!(expected.contains_key("summary.md"));
    assert_eq!(files(&merged), expected);
}
