//! French leftovers (audit of 2026-12-07, evening, "French"): English words in French
//! outputs. The `figures` meanings read French words, French chart labels write numbers
//! with a decimal comma, and toml's parse messages reach a French designer in French.

use std::path::Path;

use assert_cmd::Command;
use cosmosim::lang::Lang;
use cosmosim::report::{png_bytes, BarChart, BarSeries, Chart, Figure, Heatmap};

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn figures_in_french_read_the_columns_in_french_words() {
    let o = bin()
        .args(["--lang", "fr", "figures", "cosmos-test"])
        .output()
        .unwrap();
    assert!(o.status.success());
    // French puts a no-break space before the colon.
    let text = String::from_utf8_lossy(&o.stdout).replace('\u{a0}', " ");
    for fr in [
        "probabilité : réussite critique",
        "probabilité : échec super-critique",
        "probabilité : réussite\n",
    ] {
        assert!(text.contains(fr), "{fr:?} not in\n{text}");
    }
    assert!(!text.contains("crit success"), "{text}");
    // English is unchanged.
    let o = bin().args(["figures", "cosmos-test"]).output().unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("probability: crit success"));
}

/// Every column the tool writes (the headers of the committed reports/ CSVs) reads in
/// French words: a new column needs its words in src/lang/columns.fr.toml.
#[test]
fn every_written_column_has_french_words() {
    let mut missing = std::collections::BTreeSet::new();
    let mut seen = 0;
    let mut dirs = vec![root().join("reports")];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "csv") {
                let text = std::fs::read_to_string(&p).unwrap();
                let header = text.lines().next().unwrap_or("");
                for col in header.split(',') {
                    let col = col.trim_matches('"');
                    let stem = col
                        .strip_suffix("_lo")
                        .or_else(|| col.strip_suffix("_hi"))
                        .unwrap_or(col);
                    seen += 1;
                    for w in cosmosim::lang::untranslated_column_words(stem) {
                        missing.insert(format!("{w} (in {col})"));
                    }
                }
            }
        }
    }
    assert!(seen > 400, "only {seen} columns under reports/");
    assert!(missing.is_empty(), "no French words for: {missing:?}");
}

fn bars(categories: &[&str], series: &str) -> Figure {
    Figure::new(vec![Chart::Bars(BarChart {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        categories: categories.iter().map(|s| s.to_string()).collect(),
        series: vec![BarSeries::of(series, &[0.2, 0.4], |v| *v)],
        y_range: Some((0.0, 1.0)),
    })])
}

fn heat(labels: &[&str]) -> Figure {
    let l: Vec<String> = labels.iter().map(|s| s.to_string()).collect();
    Figure::new(vec![Chart::Heatmap(Heatmap {
        title: "t".into(),
        x_label: "x".into(),
        y_label: "y".into(),
        columns: l.clone(),
        rows: l,
        values: vec![vec![0.1, 0.2], vec![0.3, 0.4]],
        range: (0.0, 1.0),
    })])
}

/// A French chart draws a number label `0.1` as `0,1` (the pixels of both are the same),
/// as its axes and the page text do; English draws what it is given; a label that is not
/// a number (`d6`) is left alone.
#[test]
fn french_chart_labels_write_numbers_with_a_decimal_comma() {
    let png = |f: &Figure, l: Lang| png_bytes(f, l).unwrap();
    let dot = bars(&["0.1", "0.25"], "0.5");
    let comma = bars(&["0,1", "0,25"], "0,5");
    assert_eq!(png(&dot, Lang::Fr), png(&comma, Lang::Fr));
    assert_ne!(png(&dot, Lang::En), png(&comma, Lang::En));
    assert_eq!(
        png(&heat(&["0.5", "1.5"]), Lang::Fr),
        png(&heat(&["0,5", "1,5"]), Lang::Fr)
    );
    assert_eq!(cosmosim::report::number_label("0.1", Lang::Fr), "0,1");
    assert_eq!(cosmosim::report::number_label("0.1", Lang::En), "0.1");
    assert_eq!(cosmosim::report::number_label("v1.2", Lang::Fr), "v1.2");
    assert_eq!(cosmosim::report::number_label("20", Lang::Fr), "20");
}

fn check_fr(name: &str, body: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cosmosim-fr-left-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, body).unwrap();
    let o = bin()
        .args(["--lang", "fr", "check"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// toml's parse messages a designer can meet, in French, still naming the file and line.
#[test]
fn toml_parse_messages_reach_french_designers_in_french() {
    let deep = format!("x = {}1{}\n", "[".repeat(200), "]".repeat(200));
    let e = check_fr("deep.toml", &format!("lang = \"fr\"\n{deep}"));
    assert!(e.contains("deep.toml:2"), "{e}");
    assert!(e.contains("profondeur maximale atteinte"), "{e}");
    assert!(!e.contains("recurs"), "{e}");
    let e = check_fr("radix.toml", "lang = \"fr\"\nx = -0x1F\n");
    assert!(e.contains("radix.toml:2"), "{e}");
    assert!(
        e.contains("un entier avec une base (0x, 0o, 0b) ne peut pas avoir de signe"),
        "{e}"
    );
}

/// `--lang fr <command> --help` is French: every help text of every command has its French
/// one (src/lang/help.fr.toml), every French entry is used, and English is clap's own.
#[test]
fn french_help_for_every_command() {
    use clap::CommandFactory;
    let mut cmd = cosmosim::cli::Cli::command();
    cmd.build();
    let (missing, unused) = cosmosim::lang::help::coverage(&cmd);
    assert!(missing.is_empty(), "no French for: {missing:#?}");
    assert!(
        unused.is_empty(),
        "French entries no help uses: {unused:#?}"
    );
    let help = |args: &[&str]| {
        let o = bin().args(args).output().unwrap();
        assert!(o.status.success(), "{o:?}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let fr = help(&["--lang", "fr", "run", "--help"]);
    for w in [
        "Utilisation :",
        "Options:",
        "Afficher l'aide",
        "[défaut : 0]",
    ] {
        assert!(fr.contains(w), "{w:?} not in\n{fr}");
    }
    for en in ["Usage:", "Print help", "[default:", "Possible values"] {
        assert!(!fr.contains(en), "{en:?} in\n{fr}");
    }
    assert_eq!(
        help(&["--lang=fr", "--help"]),
        help(&["--lang", "fr", "help"])
    );
    assert!(help(&["--lang=fr", "--help"]).contains("Commandes"));
    // English: clap's help, untouched.
    let en = help(&["run", "--help"]);
    assert!(en.contains("Usage:") && en.contains("[default: 0]"), "{en}");
    assert_eq!(en, help(&["--lang", "en", "run", "--help"]));
}

/// The shapes the audit met, as `check` shows them to a French designer (the file, line
/// and key around them are `ScenarioFile::error_at`'s, unchanged).
#[test]
fn the_audits_toml_shapes_read_in_french() {
    use cosmosim::scenario::serde_message;
    let fr = |m: &str| serde_message(m, Lang::Fr);
    assert_eq!(
        fr("wanted string or table"),
        "attendu : une chaîne ou une table"
    );
    assert_eq!(
        fr("invalid type: integer `99999999999999999999` as i128, expected a string"),
        "type invalide : entier `99999999999999999999` (trop grand), attendu : une chaîne entre guillemets"
    );
    assert_eq!(
        fr("invalid key-value pair, expected `=`, basic string"),
        "paire clé-valeur invalide ; attendu : `=`, chaîne entre guillemets"
    );
    assert_eq!(
        fr("missing value\nexpected value"),
        "valeur manquante\nattendu : valeur"
    );
    for en in [
        "wanted string or table",
        "invalid key-value pair, expected `=`, basic string",
    ] {
        assert_eq!(serde_message(en, Lang::En), en);
    }
}

/// Every file under `dir` (recursively) whose name ends with one of `exts`.
fn files_under(dir: &Path, exts: &[&str]) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
            } else if exts.iter().any(|x| p.to_string_lossy().ends_with(x)) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// English words the provenance parameters of the French pages used to show (audit of
/// 2026-12-07, night, "French": `tie=B (the side preventing the action) wins equal
/// finals`, `policy=buy the next d20 ... while P(pass) is below 0.7`, ...). Keys and
/// machine values (`plexus=none`, `blessed=false`) are not in it.
const ENGLISH: &str = "the while wins rounded chains chain leader helper luck effect \
    conditional all three result weight every before crew sample illustrative skills \
    policies vs load pace turns buys buy keeping aims focuses enemy giving spent only \
    does filter mean below extra hit genes alternate planned";

/// `report --lang fr`: the "Paramètres" line of every page reads French, while the
/// `.meta.json` files keep the English values scripts read.
#[test]
fn french_report_parameters_read_in_french() {
    let d = tempfile::tempdir().unwrap();
    let o = bin()
        .args([
            "--lang",
            "fr",
            "report",
            "--quick",
            "-q",
            "--threads",
            "2",
            "--out",
        ])
        .arg(d.path())
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut lines = 0;
    let mut english = Vec::new();
    for p in files_under(d.path(), &[".md", ".html"]) {
        let text = std::fs::read_to_string(&p).unwrap();
        for line in text.lines().filter(|l| l.contains("Paramètres")) {
            lines += 1;
            // `key=value, key=value`: the values' words only (a word right before `=` is a
            // key; `helper_tn`, `party-vs-boss.toml` are one word each).
            let mut word = String::new();
            for c in line.chars().chain([' ']) {
                if c.is_alphanumeric() || "_-.".contains(c) {
                    word.push(c);
                    continue;
                }
                let w = word.to_lowercase();
                if c != '=' && ENGLISH.split_whitespace().any(|e| e == w) {
                    english.push(format!("{}: {w} in {line}", p.display()));
                }
                word.clear();
            }
        }
    }
    assert!(lines > 40, "only {lines} parameter lines");
    assert!(english.is_empty(), "{}", english.join("\n"));
    // The machine values stay English (scripts compare them).
    let metas = files_under(d.path(), &["trinites-confrontation.meta.json"]);
    let meta = std::fs::read_to_string(&metas[0]).unwrap();
    assert!(
        meta.contains("\"tie\": \"B (the side preventing the action) wins equal finals, T-CONF\""),
        "{meta}"
    );
    let page = files_under(d.path(), &["index.md"]);
    let page = std::fs::read_to_string(&page[0]).unwrap();
    assert!(
        page.contains("tie=B (le camp qui empêche l'action) l'emporte à finales égales, T-CONF"),
        "{page}"
    );
}

/// serde's length phrase reaches a French designer in French (audit of 2026-12-07, night:
/// "longueur invalide 1, attendu : an array of length 2").
#[test]
fn array_lengths_reach_french_designers_in_french() {
    let text = std::fs::read_to_string(root().join("scenarios/cosmos/leveling.toml")).unwrap();
    assert!(text.contains("light_dark_at_5 = [2, 1]"));
    let e = check_fr(
        "short.toml",
        &text.replace("light_dark_at_5 = [2, 1]", "light_dark_at_5 = [2]"),
    );
    assert!(e.contains("short.toml:30"), "{e}");
    assert!(e.contains("light_dark_at_5"), "{e}");
    assert!(e.contains("un tableau de 2 valeurs"), "{e}");
    assert!(!e.contains("array of length"), "{e}");
}
