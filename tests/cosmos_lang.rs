//! Issue 14, Great Cosmos tables and combat in French: `--lang fr` writes the pages in
//! French with the rulebook's terms (posture Sépulcrale, contre-coup, PV, Échec critique...)
//! and comma decimals, while every CSV is byte-identical to the English run; a bad combat
//! file gets its validation message in French inside the shared `file:line:col` frame.

use std::path::Path;

use assert_cmd::Command;

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn scenario(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios/cosmos")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// Every `.csv` of `dir`, by file name.
fn csvs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "csv"))
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

/// Runs `args` into `<dir>/en` and `<dir>/fr` (the second with `--lang fr`); returns both
/// folders after checking their CSVs are the same bytes.
fn both(args: &[&str], dir: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (en, fr) = (dir.join("en"), dir.join("fr"));
    for (out, lang) in [(&en, "en"), (&fr, "fr")] {
        cosmosim()
            .args(args)
            .args(["-q", "--lang", lang, "--out"])
            .arg(out)
            .assert()
            .success();
    }
    let (a, b) = (csvs(&en), csvs(&fr));
    assert!(!a.is_empty());
    assert_eq!(
        a.iter().map(|x| &x.0).collect::<Vec<_>>(),
        b.iter().map(|x| &x.0).collect::<Vec<_>>()
    );
    for ((name, x), (_, y)) in a.iter().zip(&b) {
        assert!(x == y, "{name} differs between English and French");
    }
    (en, fr)
}

#[test]
fn french_combat_summary_uses_the_rulebook_terms_and_keeps_the_csvs() {
    let d = tempfile::tempdir().unwrap();
    let (en, fr) = both(
        &[
            "run",
            &scenario("apocalypse.toml"),
            "--trials",
            "2000",
            "--seed",
            "3",
        ],
        d.path(),
    );
    let fr_md = std::fs::read_to_string(fr.join("summary.md")).unwrap();
    let en_md = std::fs::read_to_string(en.join("summary.md")).unwrap();
    for term in [
        "## Réponses (2000 combats, intervalles à 95 %)",
        "contre-coup par posture : Sépulcrale",
        "Apocalypse déclenchée par Dark point dépensé",
        "## Politiques en vigueur",
        "| combattant | camp | P(à terre) |",
        "PV en fin de combat",
        // The trigger of `dark_below_hp = 0.5`, in words.
        "| sous 50\u{a0}% des PV | fichier |",
    ] {
        assert!(fr_md.contains(term), "no `{term}` in:\n{fr_md}");
    }
    // Comma decimals and the French percent sign (no-break space) in the answers.
    let answers = fr_md.split("## Comment les postures").next().unwrap();
    assert!(
        answers.contains(",") && answers.contains("\u{a0}%"),
        "{answers}"
    );
    assert!(!answers.contains("wins"), "{answers}");
    // The English page is untouched by the catalogue.
    assert!(en_md.contains("## Answers (2000 combats, 95% intervals)"));
    assert!(en_md.contains("backlash per posture: Sépulcrale"));
    // The file gives its title in both languages (`title = { en, fr }`): each reads its
    // own; names the user wrote (sides, combatants) are not translated.
    assert_eq!(
        en_md.lines().next().unwrap(),
        "# Apocalypse: how often does it fire?"
    );
    assert_eq!(
        fr_md.lines().next().unwrap(),
        "# Apocalypse : à quelle fréquence se déclenche-t-elle ?"
    );
    assert!(fr_md.contains("| hero | party |"), "{fr_md}");
}

#[test]
fn french_tables_keep_the_csvs_and_translate_the_charts() {
    // A table writes no page of its own (`report` does): its text is in the chart.
    for args in [
        &[
            "table",
            "cosmos-test",
            "--thresholds",
            "45..60",
            "--karma",
            "-6..6",
        ][..],
        &["table", "cosmos-karma-drift", "--thresholds", "30,55"][..],
    ] {
        let d = tempfile::tempdir().unwrap();
        let (en, fr) = both(args, d.path());
        let png = format!("{}.png", args[1]);
        assert_ne!(
            std::fs::read(en.join(&png)).unwrap(),
            std::fs::read(fr.join(&png)).unwrap(),
            "{png}: same chart in both languages"
        );
    }
}

#[test]
fn french_sweep_keeps_the_csv() {
    let d = tempfile::tempdir().unwrap();
    let (_, fr) = both(
        &[
            "sweep",
            &scenario("duel.toml"),
            "--vary",
            "aldric.level=2,3",
            "--trials",
            "500",
        ],
        d.path(),
    );
    let md = std::fs::read_to_string(fr.join("summary.md")).unwrap();
    assert!(md.contains("points de grille x 500 essais"), "{md}");
}

#[test]
fn a_bad_combat_file_gets_a_french_message_in_the_shared_frame() {
    let d = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(scenario("duel.toml"))
        .unwrap()
        .replace("level = 3", "level = 31");
    let file = d.path().join("bad.toml");
    std::fs::write(&file, text).unwrap();
    for (cmd, lang) in [("check", "fr"), ("run", "fr"), ("run", "en")] {
        let mut c = cosmosim();
        c.args([cmd, "--lang", lang]).arg(&file);
        if cmd == "run" {
            c.arg("--out").arg(d.path().join("out"));
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{cmd} {lang}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("bad.toml:"), "{err}");
        assert!(err.contains("combatants.aldric.level"), "{err}");
        if lang == "fr" {
            assert!(err.contains("niveau 31 hors limites"), "{err}");
        } else {
            assert!(err.contains("level 31 is out of range"), "{err}");
        }
        assert!(err.contains("1..30"), "{err}");
    }
}

/// A file without title or question gets the tool's default in each language; the engine
/// task hashes the English default, so the numbers do not move with `--lang` (the combat
/// task is a hash of the model's values, title included).
#[test]
fn a_default_title_in_french_does_not_move_the_numbers() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(scenario("duel.toml")).unwrap();
    let bare: String = text
        .lines()
        .filter(|l| !l.starts_with("title") && !l.starts_with("question"))
        .map(|l| format!("{l}\n"))
        .collect();
    let file = dir.path().join("untitled.toml");
    std::fs::write(&file, bare).unwrap();
    let (en, fr) = both(
        &["run", file.to_str().unwrap(), "--trials", "3000"],
        dir.path(),
    );
    let (en, fr) = (
        std::fs::read_to_string(en.join("summary.md")).unwrap(),
        std::fs::read_to_string(fr.join("summary.md")).unwrap(),
    );
    assert_ne!(
        en.lines().next(),
        fr.lines().next(),
        "the default title is translated"
    );
}

/// `title = { en = "...", fr = "..." }`: each language reads its own words, and the
/// numbers are the same (the combat task hashes the English text).
#[test]
fn a_title_in_two_languages_is_shown_in_the_chosen_one() {
    let dir = tempfile::tempdir().unwrap();
    let (en, fr) = both(
        &["run", &scenario("duel.toml"), "--trials", "3000"],
        dir.path(),
    );
    let first = |d: &Path| {
        std::fs::read_to_string(d.join("summary.md"))
            .unwrap()
            .lines()
            .next()
            .unwrap()
            .to_string()
    };
    assert_eq!(first(&en), "# Duel: Offensive against Defensive");
    assert_eq!(first(&fr), "# Duel : offensif contre défensif");
    // A table with a key other than a language is refused, located, with what is allowed.
    let bad = dir.path().join("bad.toml");
    let text = std::fs::read_to_string(scenario("duel.toml")).unwrap();
    std::fs::write(&bad, text.replacen("title = { en =", "title = { de =", 1)).unwrap();
    let out = cosmosim().arg("check").arg(&bad).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.toml:") && err.contains("table of languages"),
        "{err}"
    );
}
