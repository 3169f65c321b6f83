//! Issue 24 item 2: files a scenario names, and files given on the command line, may come
//! from anyone. A linked combat outside the scenario's folder (`..`, absolute, symlink),
//! `/dev/zero`, a FIFO and an oversize file are refused with exit 2, quickly, with the
//! file, line and key, and without echoing the other file's content. Every command is
//! bounded by a timeout so a regression (a FIFO opened for reading) fails instead of
//! hanging.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use assert_cmd::Command;

const SECRET: &str = "TOP-SECRET-LINE-42";

fn project() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Runs cosmosim in `cwd` with a 20 s guard; returns (exit code, stderr, seconds).
fn cosmosim(args: &[&str], cwd: &Path) -> (Option<i32>, String, f64) {
    let start = Instant::now();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .args(args)
        .current_dir(cwd)
        .timeout(Duration::from_secs(20))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).to_string(),
        start.elapsed().as_secs_f64(),
    )
}

/// Exit 2 within 10 s, no panic, no secret, every needle in the message.
fn refused(args: &[&str], cwd: &Path, needles: &[&str]) -> String {
    let (code, err, secs) = cosmosim(args, cwd);
    assert_eq!(code, Some(2), "{args:?}: {err}");
    assert!(secs < 10.0, "{args:?} took {secs} s");
    assert!(!err.contains("panicked"), "{err}");
    assert!(
        !err.contains(SECRET),
        "{args:?} echoed the other file: {err}"
    );
    for n in needles {
        assert!(err.contains(n), "{args:?}: `{n}` not in {err}");
    }
    err
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// `t/proj/exp.toml`: the shipped party expedition with its combat line replaced by
/// `combat`; returns the 1-based line of that key. The shipped combat sits beside it, and
/// `t/secret.toml` (outside the folder) holds the secret as a TOML error bait.
fn expedition(t: &Path, combat: &str) -> usize {
    let proj = t.join("proj");
    fs::create_dir_all(&proj).unwrap();
    fs::copy(
        project().join("scenarios/cosmos/party-vs-boss.toml"),
        proj.join("party-vs-boss.toml"),
    )
    .unwrap();
    fs::write(
        t.join("secret.toml"),
        format!("{SECRET} = = \"{SECRET}\"\nsystem = \"cosmos\"\n"),
    )
    .unwrap();
    let text = fs::read_to_string(project().join("scenarios/cosmos/party-expedition.toml"))
        .unwrap()
        .replace(
            "combat = \"party-vs-boss.toml\"",
            &format!("combat = {combat:?}"),
        );
    fs::write(proj.join("exp.toml"), &text).unwrap();
    text.lines()
        .position(|l| l.starts_with("combat = "))
        .unwrap()
        + 1
}

#[test]
fn a_linked_combat_outside_the_scenario_folder_is_refused_without_its_content() {
    let t = tempfile::tempdir().unwrap();
    let secret = t.path().join("secret.toml");
    let cases = [
        "../secret.toml".to_string(),
        secret.display().to_string(),
        "/etc/passwd".to_string(),
        "/dev/zero".to_string(),
    ];
    for combat in &cases {
        let line = expedition(t.path(), combat);
        let at = format!("exp.toml:{line}:");
        for args in [
            &["check", "proj/exp.toml"][..],
            &["run", "proj/exp.toml", "--out", "out"],
        ] {
            let err = refused(
                args,
                t.path(),
                &[&at, "expedition.encounter.combat", "outside"],
            );
            assert!(!err.contains("root:x:0"), "{err}");
        }
    }
    // A symlink inside the folder to a file outside it is outside too.
    std::os::unix::fs::symlink(&secret, t.path().join("proj/link.toml")).unwrap();
    expedition(t.path(), "link.toml");
    refused(&["check", "proj/exp.toml"], t.path(), &["outside"]);
    // The shipped layout (combat beside the expedition) still works.
    expedition(t.path(), "party-vs-boss.toml");
    let (code, err, _) = cosmosim(&["check", "proj/exp.toml"], t.path());
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn devices_fifos_and_oversize_scenario_files_are_refused_quickly() {
    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("fifo.toml");
    mkfifo(&fifo);
    let big = t.path().join("big.toml");
    // Sparse: one byte past the 4 MiB cap costs nothing on disk.
    fs::File::create(&big)
        .unwrap()
        .set_len(cosmosim::input::MAX_TEXT_BYTES + 1)
        .unwrap();
    for out in [&[][..], &["--out", "o"][..]] {
        let cmd = if out.is_empty() { "check" } else { "run" };
        let with = |f: &'static str| [&[cmd, f][..], out].concat();
        refused(&with("/dev/zero"), t.path(), &["/dev/zero", "device"]);
        refused(&with("fifo.toml"), t.path(), &["fifo.toml", "FIFO"]);
        refused(
            &with("big.toml"),
            t.path(),
            &["big.toml", "4194305 bytes", "4194304"],
        );
    }
    assert!(!t.path().join("o").exists());
}

#[test]
fn expectations_may_not_name_files_outside_their_folder_or_the_working_directory() {
    let t = tempfile::tempdir().unwrap();
    let proj = t.path().join("proj");
    fs::create_dir_all(proj.join("balance")).unwrap();
    fs::write(t.path().join("secret.toml"), format!("{SECRET} = 1\n")).unwrap();
    fs::write(t.path().join("secret.csv"), format!("{SECRET}\n1\n")).unwrap();
    let cases = [
        "scenario = \"../../secret.toml\"\nat_most = 0.5\nfigure = \"x.y\"".to_string(),
        "table = \"cosmos-test\"\ntable_file = \"../../secret.csv\"\nprecision = 0.01".to_string(),
    ];
    for body in &cases {
        fs::write(
            proj.join("balance/e.toml"),
            format!("title = \"t\"\n[[expect]]\nname = \"n\"\n{body}\n"),
        )
        .unwrap();
        refused(
            &["expect", "balance/e.toml", "--out", "o"],
            &proj,
            &["balance/e.toml:", "outside"],
        );
    }
}

#[test]
fn merge_and_compare_refuse_fifos_instead_of_hanging() {
    let t = tempfile::tempdir().unwrap();
    // A part whose manifest is a FIFO.
    let part = t.path().join("part");
    fs::create_dir_all(&part).unwrap();
    mkfifo(&part.join("manifest.json"));
    refused(
        &["merge", "part", "--out", "m"],
        t.path(),
        &["part", "FIFO"],
    );
    // A compared folder whose CSV (or provenance) is a FIFO.
    let out = |name: &str| {
        let (code, err, _) = cosmosim(
            &[
                "table",
                "cosmos-test",
                "--thresholds",
                "50",
                "--out",
                t.path().join(name).to_str().unwrap(),
            ],
            &project(),
        );
        assert_eq!(code, Some(0), "{err}");
    };
    out("a");
    out("b");
    let csv = fs::read_dir(t.path().join("b"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.extension().is_some_and(|x| x == "csv"))
        .unwrap();
    fs::remove_file(&csv).unwrap();
    mkfifo(&csv);
    refused(
        &["compare", "a", "b", "--out", "c"],
        t.path(),
        &[csv.file_name().unwrap().to_str().unwrap(), "FIFO"],
    );
    // A CSV linked to a file outside the compared folder.
    fs::remove_file(&csv).unwrap();
    fs::write(t.path().join("secret.csv"), format!("{SECRET}\n1\n")).unwrap();
    std::os::unix::fs::symlink(t.path().join("secret.csv"), &csv).unwrap();
    refused(&["compare", "a", "b", "--out", "c"], t.path(), &["outside"]);
}
