//! Issue 24 item 6: a sweep's memory grows by about 1 KB a grid point (its figures'
//! values until the CSV is written), not by a whole simulation model or a point's
//! outputs (8 KB and more, 6 GB at the old grid cap). Alone in its test binary, so the peak resident set of the
//! children (`getrusage(RUSAGE_CHILDREN)`) is this sweep's. A memory assertion, not a
//! timing.

use std::fs;
use std::path::PathBuf;
use std::process::Command;

#[test]
fn a_sweep_of_5000_points_stays_under_its_memory_bound() {
    let d = tempfile::tempdir().unwrap();
    let duel = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scenarios/cosmos/duel.toml");
    let points: u64 = 5_000;
    let status = Command::new(assert_cmd::cargo::cargo_bin("cosmosim"))
        .args(["sweep"])
        .arg(&duel)
        .args([
            "--vary",
            "aldric.hp=1..50",
            "--vary",
            "brune.hp=1..100",
            "--trials",
            "1",
            "--threads",
            "1",
            "--quiet",
            "--out",
            "sw",
        ])
        .current_dir(d.path())
        .status()
        .unwrap();
    assert!(status.success());
    let csv = fs::read_to_string(d.path().join("sw/sweep.csv")).unwrap();
    let rows = csv.lines().count() as u64 - 1;
    assert!(rows >= points && rows.is_multiple_of(points), "{rows} rows");
    // SAFETY: getrusage only fills the struct it is given.
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    assert_eq!(
        unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) },
        0
    );
    let peak_kb = ru.ru_maxrss as u64;
    // The bound of docs/trust.md: 40 MB for the program and its fonts, plus 4 KB a point
    // (about 1 KB is used; a model kept per point was 8 KB).
    let bound_kb = 40 * 1024 + 4 * points;
    assert!(
        peak_kb <= bound_kb,
        "peak {peak_kb} KB for {points} points, bound {bound_kb} KB"
    );
}
