//! The command line on a bad scenario file, as every kind's error tests use it.

use assert_cmd::Command;

/// `check` and `run` on a scenario file holding `text`: both exit 2 with the same message
/// (they share one validation). Returns it with the temporary path shown as `bad.toml`.
pub fn check_and_run_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let bin = || Command::cargo_bin("cosmosim").unwrap();
    let check = bin()
        .arg("check")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let run = bin()
        .args(["-q", "run"])
        .arg(&path)
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    assert_eq!(check, run, "check and run share one validation");
    String::from_utf8(check)
        .unwrap()
        .replace(&path.display().to_string(), "bad.toml")
}
