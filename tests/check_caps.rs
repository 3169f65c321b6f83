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
