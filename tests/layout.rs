//! Issue 23 item 8: every scenario kind keeps the same files in the same places, so a
//! designer or developer who knows one kind finds their way in any other:
//! `mod.rs` (the `ScenarioKind` and the run's glue), `raw.rs` (the file as written),
//! `model.rs` (its validation), `sim.rs` (the engine's `Simulation`), `report.rs` (outputs
//! and summary) and `trace.rs` (one trial replayed). Rule mechanics a kind needs beyond
//! those (a fight loop, primes...) sit beside them under their own names.

use std::path::{Path, PathBuf};

/// Every scenario kind's folder below `src/systems/` (the 2d20 firefight is reached
/// through the ap-economy entry, which dispatches on `kind`).
const KIND_FOLDERS: &[&str] = &[
    "cosmos/combat",
    "cosmos/growth/scenarios/campaign",
    "cosmos/growth/scenarios/creation",
    "cosmos/growth/scenarios/expedition",
    "cosmos/growth/scenarios/leveling",
    "cosmos/growth/scenarios/mutation",
    "fallout/combat",
    "fallout/scenario",
    "nephilim/duel",
    "trinites/duel",
    "trinites/skirmish",
];

const SHAPE: &[&str] = &[
    "mod.rs",
    "raw.rs",
    "model.rs",
    "sim.rs",
    "report.rs",
    "trace.rs",
];

fn systems() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src/systems")
}

#[test]
fn every_kind_has_the_same_files() {
    for k in KIND_FOLDERS {
        let dir = systems().join(k);
        for f in SHAPE {
            assert!(dir.join(f).is_file(), "{k}/{f} is missing");
        }
        let m = std::fs::read_to_string(dir.join("mod.rs")).unwrap();
        for f in SHAPE.iter().filter(|f| **f != "mod.rs") {
            let name = f.trim_end_matches(".rs");
            assert!(
                m.contains(&format!("mod {name};")),
                "{k}/mod.rs does not declare `mod {name};`"
            );
        }
    }
}

/// A folder holding a scenario file's raw shape is a kind's folder: it must be listed
/// above (so the test sees every kind), and every kind the tool runs has one.
#[test]
fn every_kind_folder_is_listed() {
    fn walk(dir: &Path, found: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                if p.join("raw.rs").is_file() {
                    let rel = p.strip_prefix(systems()).unwrap();
                    found.push(rel.to_string_lossy().replace('\\', "/"));
                }
                walk(&p, found);
            }
        }
    }
    let mut found = Vec::new();
    walk(&systems(), &mut found);
    found.sort();
    assert_eq!(found, KIND_FOLDERS);
    // One entry per kind, the firefight sharing the 2d20 entry.
    assert_eq!(
        cosmosim::systems::scenario_kinds().len() + 1,
        KIND_FOLDERS.len()
    );
}
