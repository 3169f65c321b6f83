//! Issue 14, Great Cosmos growth in French: `--lang fr` writes the expedition and levelling
//! pages with the rulebook's terms (FP, FM, épuisé, PV, points ADN) and comma decimals,
//! the CSVs stay byte-identical to the English run, and a bad growth file gets a French
//! message inside the shared `file:line:col: key` frame (exit 2).

use assert_cmd::Command;
use std::path::Path;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

/// Runs `file` in `lang` into `out` at a fixed seed.
fn run(file: &str, lang: &str, out: &Path) {
    bin()
        .args([
            "-q", "run", file, "--lang", lang, "--trials", "3000", "--seed", "5",
        ])
        .arg("--out")
        .arg(out)
        .assert()
        .success();
}

/// Every CSV of `a` has a byte-identical twin in `b`; returns how many were compared.
fn same_csvs(a: &Path, b: &Path) -> usize {
    let mut n = 0;
    for e in std::fs::read_dir(a).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "csv") {
            let twin = b.join(p.file_name().unwrap());
            assert_eq!(
                std::fs::read(&p).unwrap(),
                std::fs::read(&twin).unwrap(),
                "{} differs between languages",
                p.display()
            );
            n += 1;
        }
    }
    n
}

/// A decimal written with a comma (`0,2840`): a digit, a comma, a digit.
fn has_comma_decimal(text: &str) -> bool {
    let b = text.as_bytes();
    (1..b.len().saturating_sub(1))
        .any(|i| b[i] == b',' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit())
}

/// A decimal written with a dot (`0.2840`) outside file names and code spans is English.
fn dotted_decimals_outside_code(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        // Provenance (file hashes, option values) and file links keep their own form.
        if line.contains("sha256") || line.contains(".csv") || line.contains(".png") {
            continue;
        }
        let b = line.as_bytes();
        for i in 1..b.len().saturating_sub(1) {
            if b[i] == b'.' && b[i - 1].is_ascii_digit() && b[i + 1].is_ascii_digit() {
                out.push(line.to_string());
                break;
            }
        }
    }
    out
}

#[test]
fn expedition_in_french_reads_the_rulebook_terms_and_keeps_the_csvs() {
    let dir = tempfile::tempdir().unwrap();
    let (en, fr) = (dir.path().join("en"), dir.path().join("fr"));
    for file in [
        "scenarios/cosmos/expedition.toml",
        "scenarios/cosmos/party-expedition.toml",
    ] {
        run(file, "en", &en);
        run(file, "fr", &fr);
        assert!(same_csvs(&en, &fr) >= 2, "{file}: no CSV compared");
        let page = std::fs::read_to_string(fr.join("summary.md")).unwrap();
        let english = std::fs::read_to_string(en.join("summary.md")).unwrap();
        assert_ne!(page, english);
        for term in ["épuisé", "intervalle à 95 %", "Réponses", "jour"] {
            assert!(page.contains(term), "{file}: no « {term} » in\n{page}");
        }
        assert!(
            has_comma_decimal(&page),
            "{file}: no comma decimal in\n{page}"
        );
        assert!(
            dotted_decimals_outside_code(&page).is_empty(),
            "{file}: English decimals left: {:?}",
            dotted_decimals_outside_code(&page)
        );
        // Option keys (`fatigue_exhausted_at=10` in the provenance line) and code spans
        // (the "See a trial" commands name the CSVs' outcomes, `--find outcome=exhausted`)
        // stay English.
        let prose: String = page
            .lines()
            .filter(|l| !l.starts_with("cosmosim "))
            .map(|l| l.split('`').step_by(2).collect::<Vec<_>>().join(" "))
            .collect::<Vec<_>>()
            .join("\n");
        for english_words in ["at the day's worst point", "exhausted", "Answers"] {
            assert!(
                !prose.contains(english_words),
                "{file}: English « {english_words} » left in\n{page}"
            );
        }
    }
    // The single traveller's page names the fatigue tracks and the reference test.
    run("scenarios/cosmos/expedition.toml", "fr", &fr);
    let page = std::fs::read_to_string(fr.join("summary.md")).unwrap();
    for term in [
        "FP médiane",
        "FM médiane",
        "test d'Agilité",
        "premier épuisement",
    ] {
        assert!(page.contains(term), "no « {term} » in\n{page}");
    }
}

#[test]
fn levelling_in_french_reads_the_rulebook_terms_and_keeps_the_csvs() {
    let dir = tempfile::tempdir().unwrap();
    let (en, fr) = (dir.path().join("en"), dir.path().join("fr"));
    for file in [
        "scenarios/cosmos/leveling.toml",
        "scenarios/cosmos/build-paths.toml",
        "scenarios/cosmos/creation.toml",
    ] {
        run(file, "en", &en);
        run(file, "fr", &fr);
        assert!(same_csvs(&en, &fr) >= 2, "{file}: no CSV compared");
        let page = std::fs::read_to_string(fr.join("summary.md")).unwrap();
        assert!(
            has_comma_decimal(&page),
            "{file}: no comma decimal in\n{page}"
        );
        assert!(
            dotted_decimals_outside_code(&page).is_empty(),
            "{file}: English decimals left: {:?}",
            dotted_decimals_outside_code(&page)
        );
        for english_words in ["mean ", "median ", "Answers", "Outputs"] {
            assert!(
                !page.contains(english_words),
                "{file}: English « {english_words} » left in\n{page}"
            );
        }
    }
    run("scenarios/cosmos/leveling.toml", "fr", &fr);
    let page = std::fs::read_to_string(fr.join("summary.md")).unwrap();
    for term in [
        "PV au niveau 10",
        "points ADN",
        "moyenne exacte",
        "test de Chance",
    ] {
        assert!(page.contains(term), "no « {term} » in\n{page}");
    }
}

#[test]
fn a_bad_growth_file_gets_a_french_message_in_the_shared_frame() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.toml");
    // The shipped expedition with 400 days (line 12; the cap is 365).
    let shipped = std::fs::read_to_string("scenarios/cosmos/expedition.toml").unwrap();
    assert!(
        shipped.lines().nth(11) == Some("days = 10"),
        "line 12 moved"
    );
    std::fs::write(&file, shipped.replacen("days = 10\n", "days = 400\n", 1)).unwrap();
    let message = |lang: &str| {
        let out = bin()
            .args(["check", "--lang", lang])
            .arg(&file)
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        String::from_utf8(out).unwrap()
    };
    let fr = message("fr");
    assert!(fr.contains("bad.toml:12:"), "{fr}");
    assert!(fr.contains("`expedition.days`"), "{fr}");
    assert!(fr.contains("400 est hors limites"), "{fr}");
    let en = message("en");
    assert!(en.contains("400 is out of range"), "{en}");
    assert!(en.contains("`expedition.days`"), "{en}");

    // A levelling file with a twice-listed stat: the French message and allowed values.
    let shipped = std::fs::read_to_string("scenarios/cosmos/leveling.toml").unwrap();
    let twice = shipped.replacen(
        "priority = [\"agilite\", \"force\",",
        "priority = [\"force\", \"force\",",
        1,
    );
    assert_ne!(twice, shipped, "the shipped priority line moved");
    std::fs::write(&file, twice).unwrap();
    let fr = message("fr");
    assert!(fr.contains("`creation.priority`"), "{fr}");
    assert!(
        fr.contains("la statistique « force » figure deux fois"),
        "{fr}"
    );
    assert!(
        fr.contains("les six statistiques, chacune une fois"),
        "{fr}"
    );
}
