//! Issue 14 for the 2d20, Nephilim and Trinités systems: `--lang fr` writes their pages,
//! charts and validation messages in French with each book's own terms and decimal commas,
//! while every CSV stays byte-identical to the English run (scripts read them).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn shipped(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Every file of `dir` by name, as bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let p = e.unwrap().path();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

/// Runs `args` once in English and once with `--lang fr` (each into its own folder) and
/// returns both folders' files.
fn both(args: &[&str]) -> (BTreeMap<String, Vec<u8>>, BTreeMap<String, Vec<u8>>) {
    let (en, fr) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (dir, lang) in [(&en, "en"), (&fr, "fr")] {
        cosmosim()
            .args(args)
            .args(["--quiet", "--lang", lang, "--out"])
            .arg(dir.path())
            .assert()
            .success();
    }
    (files(en.path()), files(fr.path()))
}

/// Same file names in both languages; every CSV byte-identical; every chart redrawn
/// (its title, axes and legends are text, so a French chart cannot equal the English one).
fn csvs_same_charts_translated(en: &BTreeMap<String, Vec<u8>>, fr: &BTreeMap<String, Vec<u8>>) {
    assert_eq!(
        en.keys().collect::<Vec<_>>(),
        fr.keys().collect::<Vec<_>>(),
        "file names depend on the language"
    );
    let mut csvs = 0;
    for (name, bytes) in en {
        if name.ends_with(".csv") {
            csvs += 1;
            assert!(&fr[name] == bytes, "{name} differs between en and fr");
        }
        // `<output>-rounds.png` is drawn by the shared `report::end_rounds`, whose own words
        // belong to the report area; every other chart is this system's.
        if name.ends_with(".png") && !name.ends_with("rounds.png") {
            assert!(
                &fr[name] != bytes,
                "{name}: the French chart is the English one"
            );
        }
    }
    assert!(csvs > 0);
}

fn text(files: &BTreeMap<String, Vec<u8>>, name: &str) -> String {
    String::from_utf8(files[name].clone()).unwrap()
}

/// A French decimal (`0,53`, `12,5 %`) somewhere in `s`.
fn has_decimal_comma(s: &str) -> bool {
    let b = s.as_bytes();
    (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b',' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
}

fn summary_checks(en: &BTreeMap<String, Vec<u8>>, fr: &BTreeMap<String, Vec<u8>>, terms: &[&str]) {
    let (e, f) = (text(en, "summary.md"), text(fr, "summary.md"));
    for t in terms {
        assert!(f.contains(t), "French summary lacks \"{t}\":\n{f}");
        assert!(!e.contains(t), "English summary has the French \"{t}\"");
    }
    assert!(f.contains("## Réponses"), "{f}");
    assert!(f.contains("Provenance"), "{f}");
    assert!(has_decimal_comma(&f), "no decimal comma in:\n{f}");
    assert!(f.contains("\u{a0}%"), "no French percent in:\n{f}");
}

/// `check --lang fr` of a shipped file with `from` replaced by `to`: exit 2, located in
/// the edited file; returns the message.
fn french_check_error(scenario: &str, from: &str, to: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(shipped(scenario)).unwrap();
    assert!(text.contains(from));
    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, text.replacen(from, to, 1)).unwrap();
    let out = cosmosim()
        .args(["check", "--lang", "fr"])
        .arg(&bad)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(err.contains("bad.toml:"), "{err}");
    err
}

// ------------------------------------------------------------------ 2d20 (Fallout)

#[test]
fn fallout_table_in_french_keeps_the_csv() {
    let (en, fr) = both(&[
        "table",
        "fallout-test",
        "--tn",
        "8..12",
        "--difficulty",
        "1..3",
    ]);
    csvs_same_charts_translated(&en, &fr);
}

#[test]
fn fallout_firefight_in_french() {
    let file = shipped("scenarios/fallout/firefight.toml");
    let (en, fr) = both(&[
        "run",
        file.to_str().unwrap(),
        "--trials",
        "400",
        "--seed",
        "3",
    ]);
    csvs_same_charts_translated(&en, &fr);
    summary_checks(
        &en,
        &fr,
        &[
            "réserve de groupe",
            "PA par combat",
            "dés de combat",
            "Combattants",
        ],
    );
}

#[test]
fn fallout_errors_in_french() {
    let err = french_check_error(
        "scenarios/fallout/firefight.toml",
        "side = \"players\"",
        "side = \"allies\"",
    );
    assert!(err.contains("combatant[0].side"), "{err}");
    assert!(err.contains("camp inconnu \"allies\""), "{err}");
    assert!(err.contains("réserve de groupe"), "{err}");
    // A table's own check speaks French too (it runs after --lang is set).
    let dir = tempfile::tempdir().unwrap();
    let out = cosmosim()
        .args([
            "table",
            "fallout-test",
            "--tn",
            "2..3",
            "--tag-rank",
            "5..6",
            "--lang",
            "fr",
            "--out",
        ])
        .arg(dir.path().join("t"))
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    let err = String::from_utf8(out).unwrap();
    assert!(err.contains("la grille n'a aucune case"), "{err}");
    assert!(err.contains("compétence personnelle"), "{err}");
}

// ------------------------------------------------------------------ Nephilim

#[test]
fn nephilim_table_in_french_keeps_the_csv() {
    let (en, fr) = both(&["table", "nephilim-test", "--margins=-4..4"]);
    csvs_same_charts_translated(&en, &fr);
}

#[test]
fn nephilim_duel_in_french() {
    let file = shipped("scenarios/nephilim/duel.toml");
    let (en, fr) = both(&[
        "run",
        file.to_str().unwrap(),
        "--trials",
        "400",
        "--seed",
        "3",
    ]);
    csvs_same_charts_translated(&en, &fr);
    summary_checks(
        &en,
        &fr,
        &[
            "segment d'initiative",
            "actions supplémentaires",
            "blessures",
            "Grille des actions",
        ],
    );
}

#[test]
fn nephilim_errors_in_french() {
    let err = french_check_error(
        "scenarios/nephilim/duel.toml",
        "defence_kind = \"parry\"",
        "defence_kind = \"block\"",
    );
    assert!(err.contains("fighter[0].defence_kind"), "{err}");
    assert!(err.contains("défense inconnue \"block\""), "{err}");
}

// ------------------------------------------------------------------ Trinités

#[test]
fn trinites_table_in_french_keeps_the_csv() {
    let (en, fr) = both(&["table", "trinites-test", "--modifiers=-3..6"]);
    csvs_same_charts_translated(&en, &fr);
}

#[test]
fn trinites_duel_in_french() {
    let file = shipped("scenarios/trinites/duel.toml");
    let (en, fr) = both(&[
        "run",
        file.to_str().unwrap(),
        "--trials",
        "200",
        "--seed",
        "3",
    ]);
    csvs_same_charts_translated(&en, &fr);
    summary_checks(
        &en,
        &fr,
        &[
            "l'Adam'",
            "paire prime/pénalité",
            "Karma dépensé",
            "IC à 95",
        ],
    );
}

#[test]
fn trinites_errors_in_french() {
    let err = french_check_error(
        "scenarios/trinites/duel.toml",
        "pairs = \"all\"",
        "pairs = [[\"efficacite\", \"none\"]]",
    );
    assert!(err.contains("adam.pairs[0]"), "{err}");
    assert!(err.contains("une prime demande une pénalité"), "{err}");
}
