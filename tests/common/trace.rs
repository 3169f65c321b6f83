//! The `cosmosim trace` tests' shared steps (issue 27): run the binary in a folder, copy a
//! shipped Great Cosmos scenario there, read `--format json` trials.

use std::path::Path;

// Handed on for the files that take their other helpers from here.
#[allow(unused_imports)]
pub use super::runs::cosmosim;

/// Copies `scenarios/cosmos/<name>` into `dir`; returns the name to pass to the command.
pub fn shipped(dir: &Path, name: &str) -> String {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("scenarios/cosmos/{name}"));
    std::fs::copy(from, dir.join(name)).unwrap();
    name.to_string()
}

/// The trials of a successful `--format json` run, one JSON object per line.
pub fn json_trials(o: &std::process::Output) -> Vec<serde_json::Value> {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}
