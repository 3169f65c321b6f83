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

/// C-EDITION: "The previous edition has no genetics, affiliation or endurance rules". A
/// scenario made of one (mutation, a gene tree to spend DNA points on, an expedition) is
/// refused under `edition = "previous"`, in `check` as in `run` and `trace`, at the
/// file's key when the file sets it and naming `--option` when the flag does (audit of
/// 2026-12-06: they ran with those rules' numbers at 0, a rule of neither book). A
/// levelling without a gene tree, a creation and a combat still run.
#[test]
fn the_previous_edition_refuses_genetics_and_endurance_scenarios() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let shipped = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/scenarios/cosmos/{name}.toml",
            env!("CARGO_MANIFEST_DIR")
        ))
        .unwrap()
    };
    for (name, rule) in [
        ("mutation", "genetics"),
        ("build-paths", "genetics"),
        ("expedition", "endurance"),
        ("forced-march", "endurance"),
    ] {
        let text = shipped(name);
        let line = text.lines().position(|l| l == "[rules]").map(|i| i + 2);
        let prev = match line {
            Some(_) => text.replacen("[rules]\n", "[rules]\nedition = \"previous\"\n", 1),
            None => format!("{text}\n[rules]\nedition = \"previous\"\n"),
        };
        let line = line.unwrap_or_else(|| prev.lines().count());
        let f = t.join(format!("{name}.toml"));
        std::fs::write(&f, &prev).unwrap();
        let f = f.to_str().unwrap();
        let want = format!("{name}.toml:{line}:11: key `rules.edition`: the previous edition has no {rule} rule (C-EDITION)");
        for args in [
            vec!["check", f],
            vec!["run", f, "--trials", "10", "--out", "o"],
            vec!["trace", f, "--trial", "0"],
        ] {
            let o = cosmosim(t, &args);
            let err = String::from_utf8_lossy(&o.stderr);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(&want), "{args:?}: {err}");
            assert!(err.contains("allowed: edition = \"current\""), "{err}");
        }
        // The same refusal from the flag, on the shipped file.
        let f = format!(
            "{}/scenarios/cosmos/{name}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let o = cosmosim(
            t,
            &["run", &f, "--option", "edition=previous", "--out", "o"],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(
            err.contains("--option edition=previous: the previous edition has no")
                && err.contains("allowed: --option edition=current"),
            "{err}"
        );
        let o = cosmosim(
            t,
            &["--lang", "fr", "run", &f, "--option", "edition=previous"],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("l'édition précédente n'a pas de règle"),
            "{err}"
        );
    }
    assert!(!t.join("o").exists());
    for name in ["leveling", "creation", "wounded-ambush"] {
        let f = format!(
            "{}/scenarios/cosmos/{name}.toml",
            env!("CARGO_MANIFEST_DIR")
        );
        let o = cosmosim(
            t,
            &[
                "-q",
                "run",
                &f,
                "--option",
                "edition=previous",
                "--trials",
                "50",
                "--out",
                name,
            ],
        );
        assert!(
            o.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
}
