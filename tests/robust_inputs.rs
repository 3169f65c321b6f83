//! Audit of 2026-12-07, bad input: every refusal comes before any work starts, and reads
//! wholly in the chosen language. Each test runs the binary on files in a temporary
//! folder; a run that starts the work it should have refused is stopped by a timeout and
//! fails.

use std::path::{Path, PathBuf};
use std::time::Duration;

use assert_cmd::Command;

fn cosmosim(dir: &Path) -> Command {
    let mut c = Command::cargo_bin("cosmosim").unwrap();
    c.current_dir(dir).timeout(Duration::from_secs(60));
    c
}

/// Exit code and stderr of `args` run in `dir`; a panic fails the test.
fn refused(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let out = cosmosim(dir).args(args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(!err.contains("panicked"), "{err}");
    (out.status.code(), err)
}

/// The shipped `scenarios/<shipped>` with `edit` applied, written to `dir/name`.
fn shipped(dir: &Path, shipped: &str, name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios");
    let text = std::fs::read_to_string(root.join(shipped)).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, edit(&text)).unwrap();
    path
}

/// An expectation on the shipped duel at a billion trials: hours of work, so a refusal
/// that comes after it is never reached within the timeout.
const LONG_EXPECTATION: &str = r#"
[[expect]]
name = "a long duel"
scenario = "duel.toml"
figure = "combat-sides.share"
where = { outcome = "offensive" }
at_least = 0.1
trials = 1000000000
"#;

fn expect_after_long_one(second: &str) -> (Option<i32>, String) {
    let dir = tempfile::tempdir().unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "duel.toml", str::to_string);
    shipped(dir.path(), "cosmos/duel.toml", "bad.toml", |t| {
        t.replacen("max_rounds = 40", "max_rounds = 0", 1)
    });
    let text = format!("seed = 1\n{LONG_EXPECTATION}\n[[expect]]\n{second}");
    std::fs::write(dir.path().join("e.toml"), text).unwrap();
    refused(dir.path(), &["-q", "expect", "e.toml", "--out", "o"])
}

#[test]
fn expect_refuses_a_later_table_flag_before_running_an_earlier_expectation() {
    let (code, err) = expect_after_long_one(
        r#"name = "bad flag"
table = "cosmos-test"
params = { thresholds = "50", bogus = "1" }
where = { threshold = 50, karma = 0 }
figure = "p_success"
at_least = 0.1
"#,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("e.toml:14:10: key `expect[1].params`"),
        "{err}"
    );
}

#[test]
fn expect_refuses_a_later_unknown_table_before_running_an_earlier_expectation() {
    let (code, err) = expect_after_long_one(
        r#"name = "no such table"
table = "cosmos-tset"
figure = "p_success"
at_least = 0.1
"#,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("e.toml:13:9: key `expect[1].table`: unknown table \"cosmos-tset\"; allowed: cosmos-test,"), "{err}");
}

#[test]
fn expect_refuses_a_later_bad_scenario_before_running_an_earlier_expectation() {
    let (code, err) = expect_after_long_one(
        r#"name = "bad scenario"
scenario = "bad.toml"
figure = "combat-sides.share"
where = { outcome = "offensive" }
at_least = 0.1
"#,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("bad.toml:13:14: key `combat.max_rounds`"),
        "{err}"
    );
}

#[test]
fn variants_refuse_a_later_study_before_running_an_earlier_one() {
    let dir = tempfile::tempdir().unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "duel.toml", str::to_string);
    shipped(dir.path(), "cosmos/duel.toml", "bad.toml", |t| {
        t.replacen("max_rounds = 40", "max_rounds = 0", 1)
    });
    for (second, located) in [
        (
            "scenario = \"bad.toml\"",
            "bad.toml:13:14: key `combat.max_rounds`",
        ),
        (
            "table = \"cosmos-test\"\nparams = { bogus = \"1\" }",
            "v.toml:7:1: key `study[1]`: unexpected argument '--bogus'",
        ),
    ] {
        let text = format!(
            "seed = 1\ntrials = 1000000000\n\n[[study]]\nscenario = \"duel.toml\"\n\n\
             [[study]]\n{second}\n\n[variants.d20]\nkarma_die_sides = 20\n"
        );
        std::fs::write(dir.path().join("v.toml"), text).unwrap();
        let (code, err) = refused(dir.path(), &["-q", "variants", "v.toml", "--out", "o"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains(located), "{err}");
    }
}

/// `args` refused (exit 2) in French: the message has `french` and none of `english`.
fn refused_in_french(dir: &Path, args: &[&str], french: &str, english: &str) {
    let mut all = args.to_vec();
    all.extend(["--lang", "fr"]);
    let (code, err) = refused(dir, &all);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.starts_with("erreur : "), "{err}");
    assert!(err.contains(french), "{err}");
    assert!(!err.contains(english), "English left in: {err}");
}

#[test]
fn dice_expression_errors_read_in_french() {
    let dir = tempfile::tempdir().unwrap();
    for (dice, french, english) in [
        (
            "1000d1000",
            "le nombre de dés doit être dans 1..100",
            "dice counts",
        ),
        ("2d10+", "n'est pas une expression de dés", "is not a dice"),
        (
            "5-1d4",
            "on ne soustrait pas de dés",
            "cannot be subtracted",
        ),
    ] {
        shipped(dir.path(), "cosmos/duel.toml", "d.toml", |t| {
            t.replacen("\"2d10+5\"", &format!("\"{dice}\""), 1)
        });
        for command in ["check", "run"] {
            refused_in_french(dir.path(), &["-q", command, "d.toml"], french, english);
        }
    }
    // English keeps its words.
    let (_, err) = refused(dir.path(), &["check", "d.toml"]);
    assert!(
        err.contains("`5-1d4`: dice cannot be subtracted, only whole numbers"),
        "{err}"
    );
}

#[test]
fn vary_syntax_errors_read_in_french() {
    let dir = tempfile::tempdir().unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "d.toml", str::to_string);
    for (vary, french, english) in [
        (
            "aldric.level",
            "attendu clé.chemin=a,b",
            "expected key.path",
        ),
        (
            "aldric.level=5..1:1",
            "l'intervalle demande min <= max",
            "the range needs",
        ),
        (
            "aldric.level=1..x",
            "n'est pas un nombre dans",
            "is not a number",
        ),
        (
            "aldric.level=1..5000",
            "5000 valeurs ; au plus 1000",
            "values; at most",
        ),
    ] {
        let args = ["-q", "sweep", "d.toml", "--vary", vary, "--out", "o"];
        refused_in_french(dir.path(), &args, french, english);
    }
}

#[test]
fn file_and_folder_refusals_read_in_french() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("empty")).unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "t.toml", |t| {
        t.replacen("title = {", "title = 3 # {", 1)
    });
    let cases: [(&[&str], &str, &str); 5] = [
        (
            &["check", "none.toml"],
            "fichier ou dossier introuvable",
            "No such file",
        ),
        (
            &["check", "t.toml"],
            "une chaîne, ou une table de langues",
            "a string, or",
        ),
        (
            &["compare", "none", "empty"],
            "none : ce n'est pas un dossier",
            "not a folder",
        ),
        (
            &["compare", "empty", "empty"],
            "aucune sortie",
            "no outputs",
        ),
        (
            &["figures", "cosmos-tset"],
            "table inconnue « cosmos-tset »",
            "unknown table",
        ),
    ];
    for (args, french, english) in cases {
        refused_in_french(dir.path(), args, french, english);
    }
}

#[test]
fn expectation_refusals_read_in_french() {
    let dir = tempfile::tempdir().unwrap();
    for (second, french, english) in [
        (
            "table = \"cosmos-tset\"",
            "table inconnue « cosmos-tset »",
            "unknown table",
        ),
        (
            "table = \"cosmos-test\"\nfigure = \"p_sucess\"",
            "voir `cosmosim figures`",
            "see `cosmosim",
        ),
    ] {
        let text = format!(
            "[[expect]]\nname = \"a\"\n{second}\nparams = {{ thresholds = \"50\", karma = \"0\" }}\n\
             where = {{ threshold = 50, karma = 0 }}\nfigure = \"p_success\"\nat_least = 0.1\n"
        );
        // A case that sets its own figure replaces the default one.
        let text = if second.contains("figure") {
            text.replace("figure = \"p_success\"\n", "")
        } else {
            text
        };
        std::fs::write(dir.path().join("e.toml"), text).unwrap();
        refused_in_french(
            dir.path(),
            &["-q", "expect", "e.toml", "--out", "o"],
            french,
            english,
        );
    }
}

/// Audit of 2026-12-07: a rule option refused in a variants or expectations file said
/// "allowed:" twice (its own values, then a generic line). It now reads as a scenario's
/// `[rules]` refusal does: the option's own allowed values, once.
#[test]
fn a_refused_option_in_a_variants_or_expectations_file_says_allowed_once() {
    let dir = tempfile::tempdir().unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "duel.toml", str::to_string);
    std::fs::write(
        dir.path().join("v.toml"),
        "seed = 1\n\n[[study]]\nscenario = \"duel.toml\"\n\n[variants.d20]\nkarma_die_sides = -5\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("e.toml"),
        "seed = 1\n\n[[expect]]\nname = \"d\"\nscenario = \"duel.toml\"\nfigure = \"combat-sides.share\"\n\
         at_least = 0\noptions = { karma_die_sides = -5 }\n",
    )
    .unwrap();
    for args in [
        ["-q", "variants", "v.toml", "--out", "o"],
        ["-q", "expect", "e.toml", "--out", "o"],
    ] {
        let (code, err) = refused(dir.path(), &args);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("karma_die_sides"), "{err}");
        assert!(err.contains("from 2 to 20"), "{err}");
        assert_eq!(err.matches("allowed:").count(), 1, "{err}");
    }
}

// Audit of 2026-12-07, carried forward: a misspelt figure or `where` value was found only
// after the expectations before it had run (hours, at a billion trials). A short run of
// each source checks names first.
#[test]
fn expect_refuses_a_later_misspelt_figure_before_running_an_earlier_expectation() {
    let (code, err) = expect_after_long_one(
        r#"name = "typo"
scenario = "duel.toml"
figure = "combat-sides.shaer"
where = { outcome = "offensive" }
at_least = 0.1
"#,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("e.toml:14:10: key `expect[1].figure`"),
        "{err}"
    );
    assert!(err.contains("closest: `combat-sides.share`"), "{err}");
}

#[test]
fn expect_refuses_a_later_misspelt_where_value_before_running_an_earlier_expectation() {
    let (code, err) = expect_after_long_one(
        r#"name = "typo"
scenario = "duel.toml"
figure = "combat-sides.share"
where = { outcome = "ofensive" }
at_least = 0.1
"#,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("e.toml:15:9: key `expect[1].where`"), "{err}");
    assert!(err.contains("outcome = \"offensive\""), "{err}");
    // A `where` column that is not there, and one that leaves several rows.
    let (code, err) = expect_after_long_one(
        r#"name = "no such column"
scenario = "duel.toml"
figure = "combat-combatants.p_down"
where = { fighter = "aldric" }
at_least = 0.1
"#,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("`where` names `fighter`"), "{err}");
    let (code, err) = expect_after_long_one(
        r#"name = "several rows"
scenario = "duel.toml"
figure = "combat-combatants.p_down"
at_least = 0.1
"#,
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("2 rows of `combat-combatants` match"), "{err}");
}

// Carried forward: `--vary combatants.nobody.hp` made a half-written combatant and said
// "missing field `side`".
#[test]
fn vary_and_tune_refuse_an_entry_the_file_lacks_with_the_names_it_has() {
    let dir = tempfile::tempdir().unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "d.toml", str::to_string);
    let (code, err) = refused(
        dir.path(),
        &[
            "-q",
            "sweep",
            "d.toml",
            "--vary",
            "combatants.aldirc.hp=10,20",
            "--out",
            "o",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "there is no `aldirc` in `combatants` (did you mean `aldric`?); it has aldric, brune"
        ),
        "{err}"
    );
    assert!(!err.contains("missing field"), "{err}");
    let args = [
        "-q",
        "tune",
        "d.toml",
        "--vary",
        "combatants.nobody.hp=10..50",
        "--figure",
        "combat-sides.share",
        "--where",
        "outcome=offensive",
        "--target",
        "0.5",
        "--out",
        "o",
    ];
    refused_in_french(
        dir.path(),
        &args,
        "il n'y a pas de `nobody` dans `combatants`",
        "missing",
    );
}

// Carried forward: `trials = 1e12` is a real number to TOML; the message now says how to
// write the whole number, in `check` and `run` alike.
#[test]
fn a_whole_real_where_a_count_belongs_says_how_to_write_it() {
    let dir = tempfile::tempdir().unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "d.toml", |t| {
        t.replacen("trials = 1000000\n", "trials = 1e6\n", 1)
    });
    for command in ["check", "run"] {
        let (code, err) = refused(dir.path(), &["-q", command, "d.toml"]);
        assert_eq!(code, Some(2), "{err}");
        assert!(err.contains("key `run.trials`"), "{err}");
        assert!(err.contains("write a whole number: 1000000 "), "{err}");
    }
}

// Carried forward: clap's own refusals stayed English under `--lang fr`.
#[test]
fn command_line_refusals_read_in_french() {
    let dir = tempfile::tempdir().unwrap();
    shipped(dir.path(), "cosmos/duel.toml", "d.toml", str::to_string);
    for (args, french, english) in [
        (
            &["run", "d.toml", "--seed", "abc"][..],
            "valeur invalide 'abc' pour '--seed <SEED>' : ce n'est pas un nombre entier",
            "invalid digit",
        ),
        (
            &["run", "d.toml", "--sed", "1"][..],
            "argument inattendu '--sed' ; un argument proche existe : '--seed'",
            "unexpected argument",
        ),
        (
            &["table", "cosmos-test", "--karma", "300"][..],
            "300 est hors limites ; valeurs admises : -10..10",
            "is not in",
        ),
        (
            &["tune", "d.toml"][..],
            "arguments obligatoires manquants : --vary",
            "required arguments",
        ),
    ] {
        refused_in_french(dir.path(), args, french, english);
    }
}
