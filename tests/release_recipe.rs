//! Issue 28 item 1: binaries a designer can download. docs/ci/release.yml builds on
//! Linux, macOS and Windows and packs each binary with docs/ci/package.sh; this test runs
//! the packing step on the binary the tests built and checks the archive and checksum.

use std::path::Path;
use std::process::Command;

const WORKFLOW: &str = include_str!("../docs/ci/release.yml");

#[test]
fn the_release_workflow_builds_every_platform_with_the_locked_lockfile() {
    for os in [
        "ubuntu-latest",
        "ubuntu-24.04-arm",
        "macos-13",
        "macos-14",
        "windows-latest",
    ] {
        assert!(WORKFLOW.contains(os), "no {os} build");
    }
    assert!(WORKFLOW.contains("x86_64-pc-windows-msvc, exe: cosmosim.exe"));
    assert!(WORKFLOW.contains("cargo build --release --locked"));
    assert!(WORKFLOW.contains("docs/ci/package.sh"));
    assert!(WORKFLOW.contains("sha256sum -c SHA256SUMS"));
}

#[test]
fn packing_writes_an_archive_and_a_checksum_sha256sum_accepts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = tempfile::tempdir().unwrap();
    let r = Command::new("bash")
        .arg(root.join("docs/ci/package.sh"))
        .arg(env!("CARGO_BIN_EXE_cosmosim"))
        .arg("x86_64-unknown-linux-gnu")
        .arg(out.path())
        .output()
        .unwrap();
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let version = env!("CARGO_PKG_VERSION");
    let archive = format!("cosmosim-{version}-x86_64-unknown-linux-gnu.tar.gz");
    assert!(out.path().join(&archive).is_file());
    let sum = std::fs::read_to_string(out.path().join(format!("{archive}.sha256"))).unwrap();
    assert!(sum.trim_end().ends_with(&archive), "{sum}");
    let check = Command::new("sha256sum")
        .args(["-c", &format!("{archive}.sha256")])
        .current_dir(out.path())
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    // The archive holds a binary that runs.
    let list = Command::new("tar")
        .args(["-tzf", &archive])
        .current_dir(out.path())
        .output()
        .unwrap();
    let names = String::from_utf8_lossy(&list.stdout);
    let name = format!("cosmosim-{version}-x86_64-unknown-linux-gnu");
    assert!(names.contains(&format!("{name}/cosmosim")), "{names}");
    assert!(names.contains(&format!("{name}/README.md")), "{names}");
    let unpack = Command::new("tar")
        .args(["-xzf", &archive])
        .current_dir(out.path())
        .status()
        .unwrap();
    assert!(unpack.success());
    let run = Command::new(out.path().join(&name).join("cosmosim"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(run.status.success());
}
