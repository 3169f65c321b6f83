//! The command line on a bad scenario file, as every kind's error tests use it.

use assert_cmd::Command;

/// `check` and `run` on a scenario file holding `text`: both exit 2 with the same message
/// (they share one validation). Returns it with the temporary path shown as `bad.toml`.
pub fn check_and_run_error(text: &str) -> String {
    check_and_run_error_with(text, &[])
}

/// [`check_and_run_error`] with `global` flags before the command (`["--lang", "fr"]`).
pub fn check_and_run_error_with(text: &str, global: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let bin = || Command::cargo_bin("cosmosim").unwrap();
    let check = bin()
        .args(global)
        .arg("check")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let run = bin()
        .args(global)
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

/// The shipped scenario `rel` (a path under `scenarios/`) as written.
pub fn shipped(rel: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(rel);
    std::fs::read_to_string(path).unwrap()
}

/// The shipped scenario `rel` with its first line starting with `from` replaced by `to`
/// (the line must be there).
pub fn shipped_with_line(rel: &str, from: &str, to: &str) -> String {
    let text = shipped(rel);
    let at = text
        .lines()
        .position(|l| l.starts_with(from))
        .unwrap_or_else(|| panic!("{rel} has no line `{from}`"));
    let lines: Vec<&str> = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == at { to } else { l })
        .collect();
    lines.join("\n") + "\n"
}
