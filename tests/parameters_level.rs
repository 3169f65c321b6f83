//! Level-up dice as parameters (issue 16), so far C-LEVEL-4's creation grant
//! (`dna_creation_base`, `dna_creation_die`, book "5+1d20 points d'ADN", l. 278): the
//! book values give today's bytes; changed values move the DNA figures by hand-computed
//! amounts.

mod common;

use std::path::Path;

use common::params::{combat_run, cosmosim};

const LEVELING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/leveling.toml"
);

/// Every file of a run (CSV, meta, summary, charts), by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The mean of `quantity` at `level` in `leveling-quantiles.csv`.
fn mean_at(csv: &str, level: u32, quantity: &str) -> f64 {
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{level},{quantity},")))
        .unwrap();
    row.split(',').nth(2).unwrap().parse().unwrap()
}

#[test]
fn book_values_give_todays_bytes() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), LEVELING, "plain", &[]);
    combat_run(
        d.path(),
        LEVELING,
        "book",
        &[
            "dna_creation_base=5",
            "dna_creation_die=20",
            "dna_level3_die=4",
            "dna_level6_die=6",
            "dna_level9_die=8",
        ],
    );
    let (a, b) = (
        files(&d.path().join("plain")),
        files(&d.path().join("book")),
    );
    assert_eq!(a.len(), b.len());
    for ((na, fa), (nb, fb)) in a.iter().zip(&b) {
        assert_eq!(na, nb);
        assert!(fa == fb, "{na} differs at the book's values");
    }
}

#[test]
fn changed_values_move_the_dna_figures_they_should() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), LEVELING, "plain", &[]);
    combat_run(d.path(), LEVELING, "base8", &["dna_creation_base=8"]);
    combat_run(d.path(), LEVELING, "d10", &["dna_creation_die=10"]);
    let read =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.csv")).unwrap();
    let (plain, base8, d10) = (read("plain"), read("base8"), read("d10"));
    // Same draws, 3 more points each: every level's mean DNA moves by exactly 3, and
    // nothing else moves.
    for level in 1..=10 {
        let delta = mean_at(&base8, level, "dna_points") - mean_at(&plain, level, "dna_points");
        assert!((delta - 3.0).abs() < 1e-9, "level {level}: {delta}");
        assert_eq!(
            mean_at(&base8, level, "skill_points"),
            mean_at(&plain, level, "skill_points")
        );
    }
    // 5 + 1d10: mean 10.5 at level 1 (20,000 characters, sd sqrt(99/12) = 2.87: 5 sigma
    // is 0.10), and the summary's exact check reads the parameters.
    let m = mean_at(&d10, 1, "dna_points");
    assert!((m - 10.5).abs() < 0.11, "{m}");
    let s = std::fs::read_to_string(d.path().join("d10").join("summary.md")).unwrap();
    assert!(s.contains("level 1, DNA points: exact mean 10.5000"), "{s}");
    // Listed in the provenance only when changed.
    let meta = |o: &str| {
        std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.meta.json")).unwrap()
    };
    assert!(meta("d10").contains("dna_creation_die"));
    assert!(!meta("plain").contains("dna_creation_die"));
}

/// C-LEVEL-4's level dice: with no level-6 die the mean DNA from level 6 on drops by
/// exactly the d6's 3.5 in the exact check, and the simulated mean follows it; a d20 at
/// level 3 adds 8 to the exact mean from level 3 on (10.5 for 2.5).
#[test]
fn level_dice_move_the_exact_dna_check() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), LEVELING, "no6", &["dna_level6_die=0"]);
    combat_run(d.path(), LEVELING, "d20at3", &["dna_level3_die=20"]);
    let s = |o: &str| std::fs::read_to_string(d.path().join(o).join("summary.md")).unwrap();
    // Book: 15.5, 18, 21.5, 26, 26 at levels 1, 3, 6, 9, 10.
    let no6 = s("no6");
    assert!(
        no6.contains("level 3, DNA points: exact mean 18.0000"),
        "{no6}"
    );
    assert!(
        no6.contains("level 6, DNA points: exact mean 18.0000"),
        "{no6}"
    );
    assert!(
        no6.contains("level 10, DNA points: exact mean 22.5000"),
        "{no6}"
    );
    let d20 = s("d20at3");
    assert!(
        d20.contains("level 3, DNA points: exact mean 26.0000"),
        "{d20}"
    );
    assert!(
        d20.contains("level 10, DNA points: exact mean 34.0000"),
        "{d20}"
    );
    let csv = std::fs::read_to_string(d.path().join("no6").join("leveling-quantiles.csv")).unwrap();
    // 20,000 characters; sd of the DNA sum at level 10 without the d6 below 6.5: 5 sigma
    // is under 0.23.
    let m = mean_at(&csv, 10, "dna_points");
    assert!((m - 22.5).abs() < 0.23, "{m}");
}

#[test]
fn out_of_range_values_are_refused_with_the_range() {
    let d = tempfile::tempdir().unwrap();
    let o = cosmosim(
        d.path(),
        &[
            "run",
            LEVELING,
            "--option",
            "dna_creation_die=0",
            "--out",
            "x",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("dna_creation_die") && err.contains("1"),
        "{err}"
    );
}
