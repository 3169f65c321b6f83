//! Editions as variants (issue 16, C-EDITION): `edition = "previous"` is a named parameter
//! set that expands to the values that differ (no endurance rule, the previous aura
//! table); explicit parameters win; `cosmosim variants` puts both editions side by side.

mod common;

use cosmosim::rules::RuleOptions;
use cosmosim::systems::cosmos::growth::aura::Edition;

use common::params::{combat_run, cosmosim, csvs, test_table};

const AURA_DUEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/aura-duel.toml"
);
const EDITIONS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/cosmos-editions.toml");

#[test]
fn the_previous_edition_expands_to_its_parameters_and_explicit_values_win() {
    let cur = RuleOptions::default();
    let prev = RuleOptions::from_pairs(&["edition=previous"], cosmosim::lang::Lang::En).unwrap();
    assert_eq!(cur.get("fatigue_extreme_malus"), "30");
    assert_eq!(prev.get("fatigue_extreme_malus"), "0");
    assert_eq!(prev.get("fatigue_crit_failure_extra"), "0");
    assert_eq!(prev.get("fatigue_point_relief"), "0");
    // What both editions share keeps the book's value.
    assert_eq!(prev.get("crit_failure_from"), "91");
    assert_eq!(prev.get("posture_turns"), "3");
    let mixed = RuleOptions::from_pairs(
        &["edition=previous", "fatigue_extreme_malus=20"],
        cosmosim::lang::Lang::En,
    )
    .unwrap();
    assert_eq!(mixed.get("fatigue_extreme_malus"), "20");
    assert_eq!(mixed.get("fatigue_light_malus"), "0");
    let e = RuleOptions::from_pairs(&["edition=older"], cosmosim::lang::Lang::En).unwrap_err();
    assert!(e.0.contains("current | previous"), "{e}");
}

/// The test table is the same in both editions (same tests and karma); its provenance
/// records the edition. The combat takes the previous aura table, which differs from the
/// current one only for a victim with a test bonus (C-AURA: the previous edition keeps
/// it); the aura duel's swordsmen have none, so its figures stay, byte for byte.
#[test]
fn editions_move_only_what_differs() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let grid = ["--thresholds", "20..85:5", "--karma", "-10..10"];
    let book = test_table(t, "book", &grid);
    let mut a = grid.to_vec();
    a.extend(["--option", "edition=previous"]);
    assert_eq!(test_table(t, "prev", &a), book);
    let meta = std::fs::read_to_string(t.join("prev/cosmos-test.meta.json")).unwrap();
    assert!(meta.contains("\"edition\": \"previous\""), "{meta}");

    combat_run(t, AURA_DUEL, "a_book", &[]);
    combat_run(t, AURA_DUEL, "a_cur", &["edition=current"]);
    combat_run(t, AURA_DUEL, "a_prev", &["edition=previous"]);
    assert_eq!(csvs(&t.join("a_cur")), csvs(&t.join("a_book")));
    assert_eq!(csvs(&t.join("a_prev")), csvs(&t.join("a_book")));
    let text = std::fs::read_to_string(AURA_DUEL).unwrap();
    let (sim, _) = common::combat::run_opts(&text, 10, &["edition=previous"]);
    assert_eq!(sim.model.edition, Edition::Previous);
    let (sim, _) = common::combat::run_opts(&text, 10, &[]);
    assert_eq!(sim.model.edition, Edition::Current);
}

/// The shipped editions file runs and names the previous edition against the book.
#[test]
fn variants_put_the_editions_side_by_side() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    // The file names its scenarios from the repository root, as the shipped files do.
    let out = t.join("ed").to_string_lossy().into_owned();
    let o = cosmosim(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")),
        &[
            "variants", EDITIONS, "--trials", "4000", "--out", &out, "--quiet",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let md = std::fs::read_to_string(t.join("ed/variants.md")).unwrap();
    assert!(md.contains("previous_edition"), "{md}");
    let csv = std::fs::read_to_string(t.join("ed/headlines.csv")).unwrap();
    assert!(csv.contains("previous_edition"), "{csv}");
}
