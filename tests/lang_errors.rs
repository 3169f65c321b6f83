//! Issue 14: `check` and error messages in French. A bad scenario checked with `--lang fr`
//! or `lang = "fr"` in the file gets a French located message (file:line:col, key path
//! and allowed values kept), exit 2, never a panic; flag values are refused in French
//! before the command runs; English messages stay word for word what they were.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

/// The shipped scenario `shipped` (a path under `scenarios/`) with `edit` applied to its
/// text, written to `dir` as `name`.
fn edited(dir: &Path, shipped: &str, name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(shipped),
    )
    .unwrap();
    let path = dir.join(name);
    std::fs::write(&path, edit(&text)).unwrap();
    path
}

/// The shipped Trinités skirmish with `edit` applied to its text, written to `dir`.
fn skirmish(dir: &Path, name: &str, edit: impl Fn(&str) -> String) -> PathBuf {
    edited(dir, "trinites/skirmish.toml", name, edit)
}

/// `args`' exit code and stderr; a panic (exit 101) fails the test.
fn refused(args: &[&str]) -> (i32, String) {
    let out = cosmosim().args(args).output().unwrap();
    let err = String::from_utf8(out.stderr).unwrap();
    let code = out.status.code().unwrap_or(-1);
    assert!(!err.contains("panicked"), "{err}");
    (code, err)
}

/// `check FILE` in English, then with `--lang fr`: both refused (exit 2, no panic); the
/// two messages.
fn check_both(file: &str) -> (String, String) {
    let (code, en) = refused(&["check", file]);
    assert_eq!(code, 2, "{en}");
    let (code, fr) = refused(&["check", file, "--lang", "fr"]);
    assert_eq!(code, 2, "{fr}");
    (en, fr)
}

/// [`check_both`], the English message containing `en_says` and the French `fr_says`.
fn check_says(file: &str, en_says: &str, fr_says: &str) -> (String, String) {
    let (en, fr) = check_both(file);
    assert!(en.contains(en_says), "{en}");
    assert!(fr.contains(fr_says), "{fr}");
    (en, fr)
}

fn out_of_range(text: &str) -> String {
    text.replacen("max_rounds = 30", "max_rounds = 0", 1)
}

#[test]
fn check_in_french_keeps_the_location_the_key_and_the_allowed_values() {
    let dir = tempfile::tempdir().unwrap();
    let bad = skirmish(dir.path(), "bad.toml", out_of_range);
    let bad = bad.to_str().unwrap();
    let line = std::fs::read_to_string(bad)
        .unwrap()
        .lines()
        .position(|l| l.starts_with("max_rounds = 0"))
        .unwrap()
        + 1;
    let located = format!("{bad}:{line}:14: ");

    // English, pinned word for word; French.
    check_says(
        bad,
        &format!("error: {located}key `combat.max_rounds`: 0 is out of range; allowed: 1.."),
        &format!(
            "erreur : {located}clé `combat.max_rounds` : 0 est hors limites ; valeurs admises : 1.."
        ),
    );
    // The same through the file's own `lang` (first line, before any table).
    let own = skirmish(dir.path(), "own.toml", |t| {
        format!("lang = \"fr\"\n{}", out_of_range(t))
    });
    let (code, fr) = refused(&["check", own.to_str().unwrap()]);
    assert_eq!(code, 2, "{fr}");
    assert!(
        fr.contains(&format!(
            ":{}:14: clé `combat.max_rounds` : 0 est hors limites ; valeurs admises : 1..",
            line + 1
        )),
        "{fr}"
    );
    // `--lang en` wins over the file.
    let (_, en) = refused(&["--lang=en", "check", own.to_str().unwrap()]);
    assert!(en.contains("0 is out of range; allowed: 1.."), "{en}");
}

#[test]
fn toml_and_serde_messages_come_in_french() {
    let dir = tempfile::tempdir().unwrap();
    // An unknown key: the reader's message, its key names kept.
    let unknown = skirmish(dir.path(), "unknown.toml", |t| {
        t.replacen("max_rounds = 30", "max_rounds = 30\nmax_round = 4", 1)
    });
    let (_, fr) = check_says(
        unknown.to_str().unwrap(),
        "unknown field `max_round`, expected",
        "clé inconnue `max_round`",
    );
    assert!(
        fr.contains("`max_rounds`") && fr.starts_with("erreur : "),
        "{fr}"
    );

    // A type error and broken TOML, with `lang = "fr"` in the file.
    let typed = skirmish(dir.path(), "typed.toml", |t| {
        format!(
            "lang = \"fr\"\n{}",
            t.replacen("max_rounds = 30", "max_rounds = \"many\"", 1)
        )
    });
    let (code, fr) = refused(&["check", typed.to_str().unwrap()]);
    assert_eq!(code, 2, "{fr}");
    assert!(
        fr.contains("clé `combat.max_rounds` : type invalide : chaîne \"many\""),
        "{fr}"
    );
    let broken = skirmish(dir.path(), "broken.toml", |t| {
        format!(
            "lang = \"fr\"\n{}",
            t.replacen("max_rounds = 30", "max_rounds = ", 1)
        )
    });
    let (code, fr) = refused(&["check", broken.to_str().unwrap()]);
    assert_eq!(code, 2, "{fr}");
    assert!(
        fr.starts_with("erreur : ") && fr.contains("broken.toml:"),
        "{fr}"
    );
}

#[test]
fn an_unknown_language_in_the_file_is_refused_with_the_allowed_values() {
    let dir = tempfile::tempdir().unwrap();
    let de = skirmish(dir.path(), "de.toml", |t| format!("lang = \"de\"\n{t}"));
    let (code, err) = refused(&["check", de.to_str().unwrap()]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("de.toml:1:8: key `lang`: unknown language; allowed: \"en\" or \"fr\""),
        "{err}"
    );
}

#[test]
fn flag_values_are_refused_in_french_before_the_command_runs() {
    let dir = tempfile::tempdir().unwrap();
    let ok = skirmish(dir.path(), "ok.toml", |t| t.to_string());
    let ok = ok.to_str().unwrap();
    // English, pinned.
    let (code, en) = refused(&["run", ok, "--trials", "0"]);
    assert_eq!(code, 2, "{en}");
    assert!(
        en.contains("0 is out of range; allowed: 1..1000000000000"),
        "{en}"
    );
    for args in [
        vec!["run", ok, "--trials", "0", "--lang", "fr"],
        vec!["--lang=fr", "run", ok, "--trials", "0"],
    ] {
        let (code, fr) = refused(&args);
        assert_eq!(code, 2, "{fr}");
        assert!(
            fr.contains("erreur : valeur invalide '0' pour '--trials <TRIALS>' : 0 est hors limites ; valeurs admises : 1..1000000000000"),
            "{fr}"
        );
    }
    let (code, fr) = refused(&["run", ok, "--threads", "lots", "--lang", "fr"]);
    assert_eq!(code, 2, "{fr}");
    assert!(
        fr.contains("`lots` n'est pas un nombre entier ; valeurs admises : 0..1024"),
        "{fr}"
    );
    // Rule options are refused in French with their allowed values kept.
    let (code, fr) = refused(&[
        "run",
        ok,
        "--lang",
        "fr",
        "--trials",
        "10",
        "--option",
        "trinites_dual_keep=best",
    ]);
    assert_eq!(code, 2, "{fr}");
    assert!(
        fr.contains("option de règle `trinites_dual_keep` = `best` non admise ; valeurs admises :"),
        "{fr}"
    );
}

#[test]
fn check_says_ok_in_french() {
    let dir = tempfile::tempdir().unwrap();
    let ok = skirmish(dir.path(), "ok.toml", |t| t.to_string());
    let ok = ok.to_str().unwrap();
    let out = cosmosim().args(["check", ok]).output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with(&format!("{ok}: ok\n")));
    let out = cosmosim()
        .args(["check", ok, "--lang", "fr"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8(out.stdout)
        .unwrap()
        .starts_with(&format!("{ok} : valide\n")));
}

#[test]
fn the_options_listing_is_framed_in_french() {
    let out = cosmosim()
        .args(["options", "--lang", "fr"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.starts_with("Options et paramètres de règles"),
        "{text}"
    );
    assert!(
        text.contains("super_crit_roll  (lecture, C-TEST-2)"),
        "{text}"
    );
    assert!(text.contains("      par défaut : "), "{text}");
    assert!(text.contains("un nombre entier de "), "{text}");
}

/// Issue 24 item 9: the validation errors of expectation and variants files were partly
/// English under `--lang fr`; each now reads wholly in French.
#[test]
fn expect_and_variants_errors_are_wholly_french() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    const ONE: &str = "table = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\" }\nwhere = { threshold = 50, karma = 0 }\nfigure = \"p_success\"\nat_most = 1\n";
    const STUDY: &str =
        "[[study]]\ntable = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\" }\n";
    const VARIANT: &str = "[variants.cancel_overflow]\nkarma_overflow = \"cancel\"\n";
    let english = [
        "error:",
        "allowed:",
        "empty name",
        "a short sentence",
        "give exactly one",
        "is used twice",
        "a name unique",
        "is out of range",
        "is studied twice",
        "scenario once",
    ];
    let cases: [(&str, &str, String, &str); 5] = [
        (
            "expect",
            "empty name",
            format!("[[expect]]\nname = \" \"\n{ONE}"),
            "nom vide ; valeurs admises : ",
        ),
        (
            "expect",
            "table and scenario",
            format!("[[expect]]\nname = \"a\"\nscenario = \"x.toml\"\n{ONE}"),
            "donner exactement un seul de `table` et `scenario`",
        ),
        (
            "expect",
            "name used twice",
            format!("[[expect]]\nname = \"a\"\n{ONE}\n[[expect]]\nname = \"a\"\n{ONE}"),
            "le nom « a » est employé deux fois",
        ),
        (
            "variants",
            "alpha out of range",
            format!("alpha = 0.9\n{STUDY}\n{VARIANT}"),
            "0.9 est hors limites",
        ),
        (
            "variants",
            "study twice",
            format!("{STUDY}\n{STUDY}\n{VARIANT}"),
            "est étudié deux fois ; valeurs admises : chaque table",
        ),
    ];
    for (command, what, text, french) in cases {
        let file = d.join(format!("{command}.toml"));
        std::fs::write(&file, text).unwrap();
        let out = d.join("out");
        let (code, err) = refused(&[
            command,
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--lang",
            "fr",
        ]);
        assert_eq!(code, 2, "{what}: {err}");
        assert!(err.contains("erreur : "), "{what}: {err}");
        assert!(err.contains(french), "{what}: `{french}` not in {err}");
        for e in english {
            assert!(!err.contains(e), "{what}: English `{e}` in {err}");
        }
    }
}

/// Every test threshold of the growth files is checked the one way: out of -100..200 it
/// is refused citing C-TEST-1, its value written with a decimal comma in French (the
/// campaign's `[[campaign.thresholds]]` showed `250.5` in French; the expedition's
/// reference test did not cite the rule).
#[test]
fn growth_thresholds_are_refused_alike_in_both_languages() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "campaign.toml",
            "threshold = 35",
            "campaign.thresholds[0].threshold",
        ),
        (
            "expedition.toml",
            "threshold = 55",
            "expedition.reference_test.threshold",
        ),
    ];
    for (name, from, key) in cases {
        let f = edited(dir.path(), &format!("cosmos/{name}"), name, |t| {
            assert!(t.contains(from), "{name} has no `{from}`");
            t.replacen(from, "threshold = 250.5", 1)
        });
        let f = f.to_str().unwrap();
        check_says(
            f,
            &format!("key `{key}`: 250.5 is out of range; allowed: -100..200 (C-TEST-1)"),
            &format!(
                "clé `{key}` : 250,5 est hors limites ; valeurs admises : -100..200 (C-TEST-1)"
            ),
        );
    }
}

/// Audit of 2026-12-08: a type error on a whole-number key named a Rust type ("expected
/// i64") a designer does not know. Keys of three kinds and four integer types: the file,
/// line, column and key stay, the type is said in words, and what was written gets its
/// probable meaning, in English and in French.
#[test]
fn whole_number_keys_say_a_whole_number_in_both_languages() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // (edited file, its line as written, column, key, English message, French message).
    let cases = [
        (
            edited(d, "cosmos/expedition-legs.toml", "tpd.toml", |t| {
                t.replacen("turns_per_day = 100 ", "turns_per_day = 10.5", 1)
            }),
            "turns_per_day = 10.5",
            17,
            "expedition.march.turns_per_day",
            "invalid type: floating point `10.5`, expected a whole number; write a whole number such as 10 or 11",
            "type invalide : nombre à virgule `10.5`, attendu : un nombre entier ; écrivez un nombre entier, par exemple 10 ou 11",
        ),
        (
            edited(d, "cosmos/wounded-ambush.toml", "rounds.toml", |t| {
                t.replacen("max_rounds = 40", "max_rounds = 40.0", 1)
            }),
            "max_rounds = 40.0",
            14,
            "combat.max_rounds",
            "invalid type: floating point `40.0`, expected a whole number from 0 to 4294967295; write a whole number: 40 (TOML reads `1e12` or `40.0` as a real number)",
            "type invalide : nombre à virgule `40.0`, attendu : un nombre entier de 0 à 4294967295 ; écrivez un nombre entier : 40 (TOML lit `1e12` ou `40.0` comme un nombre réel)",
        ),
        (
            skirmish(d, "skirmish.toml", |t| {
                t.replacen("max_rounds = 30", "max_rounds = \"30\"", 1)
            }),
            "max_rounds = \"30\"",
            14,
            "combat.max_rounds",
            "invalid type: string \"30\", expected a whole number; write the number without quotes: 30",
            "type invalide : chaîne \"30\", attendu : un nombre entier ; écrivez le nombre sans guillemets : 30",
        ),
        (
            edited(d, "cosmos/wounded-ambush.toml", "targets.toml", |t| {
                t.replacen("targets = 2", "targets = 2.5", 1)
            }),
            "targets = 2.5",
            11,
            "attacks.cleaver.targets",
            "expected a whole number such as 2, or \"all\"",
            "attendu : un nombre entier, par exemple 2, ou \"all\"",
        ),
    ];
    for (path, written, col, key, en, fr) in cases {
        let text = std::fs::read_to_string(&path).unwrap();
        let line = text.lines().position(|l| l.starts_with(written)).unwrap() + 1;
        let p = path.to_str().unwrap();
        let (got_en, got) = check_both(p);
        assert_eq!(
            got_en.trim_end(),
            format!("error: {p}:{line}:{col}: key `{key}`: {en}")
        );
        assert_eq!(
            got.trim_end(),
            format!("erreur : {p}:{line}:{col}: clé `{key}` : {fr}")
        );
        for jargon in ["i64", "u32", "untagged", "RawTargets"] {
            assert!(!got.contains(jargon), "{got}");
        }
    }
}

/// Audit of 2026-12-07, afternoon: a required key left out of a Trinités file got serde's
/// "missing field `rapidite`" with no allowed values (a `[[group]]` without `rapidite` said
/// nothing of -12..24). The message names the key and what its validation allows, in both
/// languages, exit 2; a duel's `[adam]` and `[humans]` keys likewise.
#[test]
fn a_missing_trinites_key_says_what_it_allows() {
    let dir = tempfile::tempdir().unwrap();
    let no_rapidite = skirmish(dir.path(), "norap.toml", |t| {
        let at = t.find("[[group]]").unwrap();
        let cut = at + t[at..].find("rapidite = ").unwrap();
        let end = cut + t[cut..].find('\n').unwrap() + 1;
        format!("{}{}", &t[..cut], &t[end..])
    });
    let bad = no_rapidite.to_str().unwrap();
    check_says(
        bad,
        "key `group[0]`: missing field `rapidite`; allowed: -12..24",
        "clé `group[0]` : clé `rapidite` manquante ; valeurs admises : -12..24",
    );
    let duel = |name: &str, key: &str| {
        edited(dir.path(), "trinites/duel.toml", name, |t| {
            let cut = t.find(&format!("\n{key} = ")).unwrap() + 1;
            let end = cut + t[cut..].find('\n').unwrap() + 1;
            format!("{}{}", &t[..cut], &t[end..])
        })
    };
    for (name, key, en_says, fr_says) in [
        (
            "nokarma.toml",
            "deva_karma",
            "key `adam`: missing field `deva_karma`; allowed: 0..12",
            "clé `adam` : clé `deva_karma` manquante ; valeurs admises : 0..12",
        ),
        (
            "nocount.toml",
            "count",
            "key `humans`: missing field `count`; allowed: 1..8",
            "clé `humans` : clé `count` manquante ; valeurs admises : 1..8",
        ),
        (
            "noweapon.toml",
            "weapon",
            "key `adam`: missing field `weapon`; allowed: the name of one of the file's [[weapons]]",
            "clé `adam` : clé `weapon` manquante ; valeurs admises : le nom de l'une des [[weapons]] du fichier",
        ),
    ] {
        let f = duel(name, key);
        let f = f.to_str().unwrap();
        check_says(f, en_says, fr_says);
    }
}
