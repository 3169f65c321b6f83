//! Issue 23 item 1: a kind's own trial cap is checked where every kind's settings are
//! resolved, so `check` refuses what `run` refuses, with the same message (a Trinités
//! skirmish of 60,000,000 trials passed `check` and failed `run`).

use std::path::Path;

use assert_cmd::Command;

fn refused(args: &[&str], cwd: &Path) -> String {
    let o = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_and_run_refuse_a_kinds_trial_cap_alike() {
    let t = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    for rel in [
        "trinites/skirmish.toml",
        "nephilim/duel.toml",
        "fallout/firefight.toml",
    ] {
        let text = std::fs::read_to_string(root.join(rel)).unwrap();
        let mut table: toml::Table = toml::from_str(&text).unwrap();
        let run = table
            .entry("run")
            .or_insert_with(|| toml::Value::Table(Default::default()));
        run.as_table_mut()
            .unwrap()
            .insert("trials".into(), toml::Value::Integer(60_000_000));
        std::fs::write(t.path().join("big.toml"), toml::to_string(&table).unwrap()).unwrap();
        let check = refused(&["check", "big.toml"], t.path());
        let run = refused(&["run", "big.toml", "--out", "o", "-q"], t.path());
        assert_eq!(check, run, "{rel}");
        assert!(
            check.contains("big.toml:")
                && check.contains("run.trials")
                && check.contains("1..50000000"),
            "{rel}: {check}"
        );
        // The command line's --trials meets the same cap before any work.
        let flag = refused(
            &[
                "run",
                root.join(rel).to_str().unwrap(),
                "--trials",
                "60000000",
                "-q",
                "--out",
                "p",
            ],
            t.path(),
        );
        assert!(
            flag.contains("--trials") && flag.contains("50000000"),
            "{rel}: {flag}"
        );
    }
}

/// Audit of 2026-12-07 afternoon (commands item 2): a mutation sweep of 5000 Chance x
/// 5000 karma values passed `check` and ran 25 million cells. Each list and the cells are
/// capped where the file is validated, so `check` and `run` refuse it alike, naming the key.
#[test]
fn a_mutation_sweep_is_capped_before_any_work() {
    let t = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let text = std::fs::read_to_string(root.join("cosmos/mutation.toml")).unwrap();
    let mut table: toml::Table = toml::from_str(&text).unwrap();
    let list = |v: Vec<i64>| toml::Value::Array(v.into_iter().map(toml::Value::Integer).collect());
    let mutation = table["mutation"].as_table_mut().unwrap();
    mutation.remove("levels");
    let mut sweep = toml::Table::new();
    sweep.insert(
        "chance".into(),
        list((0..5000).map(|i| 1 + i % 100).collect()),
    );
    sweep.insert("karma".into(), list(vec![0, 5]));
    mutation.insert("sweep".into(), toml::Value::Table(sweep.clone()));
    std::fs::write(t.path().join("big.toml"), toml::to_string(&table).unwrap()).unwrap();
    let check = refused(&["check", "big.toml"], t.path());
    let run = refused(&["run", "big.toml", "--out", "o", "-q"], t.path());
    assert_eq!(check, run);
    assert!(
        check.contains("big.toml:")
            && check.contains("mutation.sweep.chance")
            && check.contains("5000 values")
            && check.contains("at most 100 values"),
        "{check}"
    );
    sweep.insert("chance".into(), list(vec![50]));
    sweep.insert("karma".into(), list((0..22).map(|i| i % 21 - 10).collect()));
    mutation_sweep(&mut table, sweep);
    std::fs::write(t.path().join("big.toml"), toml::to_string(&table).unwrap()).unwrap();
    let check = refused(&["check", "big.toml"], t.path());
    assert!(
        check.contains("mutation.sweep.karma") && check.contains("at most 21 values"),
        "{check}"
    );
}

fn mutation_sweep(table: &mut toml::Table, sweep: toml::Table) {
    table["mutation"]
        .as_table_mut()
        .unwrap()
        .insert("sweep".into(), toml::Value::Table(sweep));
}
