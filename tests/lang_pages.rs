//! Issue 14, pages: `--lang fr` (or `lang = "fr"` in an expectations file) writes the
//! pages in French — French headings, comma decimals, `<html lang="fr">`, `"lang": "fr"`
//! in provenance — while every CSV keeps the bytes of the English run. `report --lang fr`
//! writes to `reports/fr/` unless `--out` says otherwise.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs cosmosim in `dir`; returns its stderr (status lines) after checking it succeeded.
fn cosmosim(dir: &Path, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cosmosim {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn read(p: PathBuf) -> String {
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The names of the files in `dir` ending with `ext`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(ext))
        .collect();
    v.sort();
    v
}

/// Every CSV of `en` has a byte-identical twin in `fr`.
fn same_csvs(en: &Path, fr: &Path) {
    let names = files(en, ".csv");
    assert!(!names.is_empty(), "no CSV in {}", en.display());
    assert_eq!(names, files(fr, ".csv"));
    for n in names {
        assert!(
            std::fs::read(en.join(&n)).unwrap() == std::fs::read(fr.join(&n)).unwrap(),
            "{n} differs between the English and French runs"
        );
    }
}

#[test]
fn a_french_run_writes_french_pages_and_the_same_csvs() {
    let d = tempfile::tempdir().unwrap();
    let duel = root().join("scenarios/cosmos/duel.toml");
    let duel = duel.to_str().unwrap();
    let common = ["--trials", "2000", "--seed", "3", "--threads", "2"];
    let (en, fr) = (d.path().join("en"), d.path().join("fr"));
    let mut args = vec!["run", duel, "--out", en.to_str().unwrap()];
    args.extend(common);
    let en_log = cosmosim(d.path(), &args);
    let mut args = vec!["run", duel, "--lang", "fr", "--out", fr.to_str().unwrap()];
    args.extend(common);
    let fr_log = cosmosim(d.path(), &args);
    same_csvs(&en, &fr);

    // Status lines follow the language.
    assert!(en_log.contains("wrote "), "{en_log}");
    assert!(fr_log.contains("écrit "), "{fr_log}");
    assert!(!fr_log.contains("wrote "), "{fr_log}");

    let (en_md, fr_md) = (read(en.join("summary.md")), read(fr.join("summary.md")));
    assert!(en_md.contains("\n## Charts and tables\n"));
    assert!(fr_md.contains("\n## Graphiques et tableaux\n"), "{fr_md}");
    assert!(fr_md.contains("Fichiers\u{a0}: "));
    assert!(fr_md.contains("méthode monte_carlo · graine 3 · 2000 essais"));
    assert!(read(fr.join("summary.html")).contains("<html lang=\"fr\">"));
    assert!(read(en.join("summary.html")).contains("<html lang=\"en\">"));

    // Provenance records the language only when it is not English, as its last key.
    for n in files(&en, ".meta.json") {
        let (e, f) = (read(en.join(&n)), read(fr.join(&n)));
        assert!(!e.contains("\"lang\""), "{n}: {e}");
        assert_eq!(
            f,
            format!(
                "{},\n  \"lang\": \"fr\"\n}}\n",
                e.trim_end().trim_end_matches('}').trim_end()
            ),
            "{n}"
        );
    }
}

#[test]
fn lang_fr_in_an_expectations_file_gives_a_french_expect_page() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    std::fs::write(
        t.join("fr.toml"),
        "title = \"équilibre\"\nlang = \"fr\"\n\n[[expect]]\nname = \"pile ou face moins les critiques\"\n\
         table = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\" }\n\
         where = { threshold = 50, karma = 0 }\nfigure = \"p_success\"\nbetween = [0.38, 0.40]\n\n\
         [[expect]]\nname = \"a failing one\"\ntable = \"cosmos-test\"\n\
         params = { thresholds = \"50\", karma = \"0\" }\nwhere = { threshold = 50, karma = 0 }\n\
         figure = \"p_success\"\nat_least = 0.5\n",
    )
    .unwrap();
    // The failing expectation makes the command exit 1: run it directly.
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
            .args(args)
            .current_dir(t)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    let fr_err = run(&["expect", "fr.toml", "--out", "fr", "--quiet"]);
    // `--lang en` wins over the file's `lang`: the same file gives the English page.
    run(&[
        "expect", "fr.toml", "--lang", "en", "--out", "en", "--quiet",
    ]);
    same_csvs(&t.join("en"), &t.join("fr"));
    assert!(
        std::fs::read(t.join("en/junit.xml")).unwrap()
            == std::fs::read(t.join("fr/junit.xml")).unwrap()
    );
    let fr = read(t.join("fr/expect.md"));
    for want in [
        "# Attentes d'équilibrage",
        "**Attentes tenues\u{a0}: 1 sur 2\u{a0}; en échec\u{a0}: 1\u{a0}; indécises\u{a0}: 0.**",
        "| tenue |",
        "**en échec**",
        "entre 0,38 et 0,4",
        "au moins 0,5",
        "## Comment les verdicts sont rendus",
        "attendu au moins 0,5\u{a0}: écart de 0,11",
    ] {
        assert!(fr.contains(want), "{want:?} not in:\n{fr}");
    }
    assert!(fr.contains("- **a failing one** en échec\u{a0}: "), "{fr}");
    assert!(!fr.contains("0.38"), "{fr}");
    let en = read(t.join("en/expect.md"));
    assert!(en.contains("# Balance expectations") && en.contains("between 0.38 and 0.4"));
    assert!(read(t.join("fr/expect.html")).contains("<html lang=\"fr\">"));
    assert!(
        fr_err.contains("Attentes tenues\u{a0}: 1 sur 2"),
        "{fr_err}"
    );
}

#[test]
fn a_french_tune_answers_with_comma_decimals_and_the_same_csv() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let tune = [
        "tune",
        "table",
        "cosmos-test",
        "--vary",
        "thresholds=20..85",
        "--figure",
        "p_success",
        "--param",
        "karma=0",
        "--target",
        "0.305",
        "--quiet",
    ];
    let mut en = tune.to_vec();
    en.extend(["--out", "en"]);
    cosmosim(t, &en);
    let mut fr = tune.to_vec();
    fr.extend(["--out", "fr", "--lang", "fr"]);
    cosmosim(t, &fr);
    same_csvs(&t.join("en"), &t.join("fr"));
    let md = read(t.join("fr/tune.md"));
    assert!(
        md.starts_with("# Régler thresholds pour que p_success = 0,305\n"),
        "{md}"
    );
    assert!(
        md.contains("| valeur | chiffre |") && md.contains("0,300000"),
        "{md}"
    );
    assert!(read(t.join("en/tune.md")).contains("0.300000"));
}

/// `report --lang fr` without `--out` writes `reports/fr/`, next to the English set (run in
/// an empty folder: the tables only, no scenario or expectations file).
#[test]
fn report_in_french_defaults_to_reports_fr() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    std::fs::create_dir_all(t.join("scenarios")).unwrap();
    cosmosim(
        t,
        &["report", "--lang", "fr", "--quiet", "--trials", "2000"],
    );
    let index = read(t.join("reports/fr/index.md"));
    assert!(index.starts_with("# Rapport cosmosim\n"), "{index}");
    assert!(index.contains("## Sommaire") && index.contains("**Question.**"));
    assert!(!t.join("reports/index.md").exists());
    assert!(read(t.join("reports/fr/index.html")).contains("<html lang=\"fr\">"));
}
