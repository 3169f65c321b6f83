//! Great Cosmos over time: small rules, creation, progression (and the CLI around them).
//! Decision IDs are cited per test; bounds for Monte Carlo checks are stated inline.
//! One test binary; a module per subject, with the shared helpers here.

use assert_cmd::Command;
use cosmosim::dice::Die;
use cosmosim::engine::{stream, Engine, Progress};
use cosmosim::lang::Lang;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::growth::aura::{aura_effect, AuraTarget, Edition};
use cosmosim::systems::cosmos::growth::creation::{self, create, CreationPolicy};
use cosmosim::systems::cosmos::growth::fatigue::{Fatigue, FATIGUE_MAX, FATIGUE_MIN};
use cosmosim::systems::cosmos::growth::leveling::{
    exact as level_exact, level_up, Hero, LevelPolicy,
};
use cosmosim::systems::cosmos::growth::movement::{movement, Mover};
use cosmosim::systems::cosmos::growth::piloting::p_success;
use cosmosim::systems::cosmos::growth::scenarios::creation::CreationSim;
use cosmosim::systems::cosmos::growth::stats::{cap_at, Stat};
use cosmosim::systems::cosmos::growth::{inventory, GrowthRules};
use cosmosim::systems::cosmos::{Outcome, TestRules, TestSpec};

use predicates::prelude::PredicateBooleanExt;

mod builds;
mod character;
mod cli;
mod expedition;
mod gene;
mod linked;
mod party;

fn rules() -> (TestRules, GrowthRules) {
    (TestRules::default(), GrowthRules::default())
}

/// |p̂ - p| <= 5 sqrt(p(1-p)/n): fails by chance with probability below 1e-6.
fn close(p_hat: f64, p: f64, n: u64) -> bool {
    (p_hat - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt().max(1e-12)
}

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A scenario file written to `dir` and read back (party and linked-combat tests).
fn party_file(dir: &std::path::Path, name: &str, body: &str) -> ScenarioFile {
    let p = write(dir, name, body);
    ScenarioFile::read(&p, cosmosim::lang::Lang::En).unwrap()
}

/// Golden CSVs of a shipped scenario at a small trial count (pins the streams and the
/// columns). A change here is a change of published numbers: regenerate deliberately
/// with `UPDATE_GOLDEN=1 cargo test --release --test cosmos_growth golden_`.
fn golden_run(scenario: &str, trials: &str, files: &[(&str, &str)]) {
    let d = tempfile::tempdir().unwrap();
    bin()
        .args(["-q", "run", scenario, "--trials", trials, "--out"])
        .arg(d.path())
        .assert()
        .success();
    for (csv, golden) in files {
        let got = std::fs::read_to_string(d.path().join(csv)).unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(golden);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &got).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap();
        assert_eq!(got, want, "golden {golden} changed");
    }
}
