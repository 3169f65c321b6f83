//! `compare.meta.json`: what a comparison rests on (audit of 2026-12-07: the folder
//! recorded no tool version). Each folder compared is named with an identity of its
//! provenance: a SHA-256 over every output's name and `.meta.json` (canonical JSON, in
//! name order), so two comparisons of the same runs have the same identities, and the
//! versions and seeds found there. `"command": "compare"` marks it as a command's record,
//! not an output's provenance, so a later `compare` leaves `compare.csv` out.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::load::Loaded;
use crate::report::file_sha256;

#[derive(Serialize)]
struct Meta {
    tool: &'static str,
    version: &'static str,
    command: &'static str,
    base: Folder,
    new: Folder,
    test: Test,
}

#[derive(Serialize)]
struct Folder {
    path: String,
    outputs: usize,
    provenance_sha256: String,
    versions: BTreeSet<String>,
    seeds: BTreeSet<u64>,
}

#[derive(Serialize)]
struct Test {
    monte_carlo: &'static str,
    exact: &'static str,
    alpha: f64,
    fail_on_change: bool,
}

fn folder(path: &str, outputs: &BTreeMap<String, Loaded>) -> Folder {
    let mut all = String::new();
    for (name, o) in outputs {
        all += name;
        all.push('\n');
        all += &o.meta.to_string();
        all.push('\n');
    }
    Folder {
        path: path.to_string(),
        outputs: outputs.len(),
        provenance_sha256: file_sha256(all.as_bytes()),
        versions: outputs
            .values()
            .filter_map(|o| o.meta["version"].as_str().map(str::to_string))
            .collect(),
        seeds: outputs
            .values()
            .filter_map(|o| o.meta["seed"].as_u64())
            .collect(),
    }
}

/// The JSON of `compare.meta.json` for folders `base` and `new` (as loaded) at `alpha`.
pub fn meta_json(
    (base_path, base): (&str, &BTreeMap<String, Loaded>),
    (new_path, new): (&str, &BTreeMap<String, Loaded>),
    alpha: f64,
    fail_on_change: bool,
) -> String {
    let meta = Meta {
        tool: env!("CARGO_PKG_NAME"),
        version: env!("CARGO_PKG_VERSION"),
        command: "compare",
        base: folder(base_path, base),
        new: folder(new_path, new),
        test: Test {
            monte_carlo: "two-sample z test from the 95% intervals, Benjamini-Hochberg",
            exact: "moves when |new - base| > 1e-9",
            alpha,
            fail_on_change,
        },
    };
    serde_json::to_string_pretty(&meta).unwrap_or_default() + "\n"
}

/// Whether a sidecar is a command's record (`expect`, `compare`) rather than the
/// provenance of an output: its CSV is that command's report, not figures to compare.
pub fn is_command_record(meta: &serde_json::Value) -> bool {
    meta.get("command").is_some()
}
