//! Audit of 2026-12-07, evening: bad input gets a message naming file, line, key and what
//! is allowed (with the syntax probably meant), exit 2, `check` and `run` alike, in
//! English and French. Each test here failed before the fix it names.

mod common;

use assert_cmd::Command;
use common::cli::{check_and_run_error, check_and_run_error_with, shipped, shipped_with_line};

const DUEL: &str = "cosmos/duel.toml";

/// The message in English and in French (`--lang fr`) for the duel with one line replaced.
fn duel_error(from: &str, to: &str) -> (String, String) {
    let text = shipped_with_line(DUEL, from, to);
    (
        check_and_run_error(&text),
        check_and_run_error_with(&text, &["--lang", "fr"]),
    )
}

/// Item 1: an enumerated key given another type said what it wanted but not the words.
#[test]
fn a_wrong_type_for_an_enumerated_key_lists_the_allowed_values() {
    let (en, fr) = duel_error("mode = \"offensive\"", "mode = 1");
    assert!(
        en.contains("bad.toml:26:8: key `combatants.aldric.mode`"),
        "{en}"
    );
    assert!(en.contains("; allowed: `offensive` or `defensive`"), "{en}");
    assert!(
        fr.contains(" ; valeurs admises : `offensive` ou `defensive`"),
        "{fr}"
    );
    let (en, fr) = duel_error("element = \"metal\"", "element = 1");
    assert!(en.contains("key `attacks.sword.element`"), "{en}");
    assert!(en.contains("; allowed: ") && en.contains("metal"), "{en}");
    assert!(
        fr.contains(" ; valeurs admises : ") && fr.contains("metal"),
        "{fr}"
    );
    let (en, fr) = duel_error("side = \"offensive\"", "side = 1");
    assert!(
        en.contains("allowed: two or more different `side` values")
            && en.contains("side = \"offensive\""),
        "{en}"
    );
    assert!(fr.contains("side = \"offensive\""), "{fr}");
}

/// Item 2: "expected struct RawStats" named a Rust type.
#[test]
fn a_wrong_type_for_a_table_says_table_with_an_example() {
    let (en, fr) = duel_error("stats = {", "stats = 5");
    for m in [&en, &fr] {
        assert!(!m.contains("Raw") && !m.contains("struct"), "{m}");
        assert!(
            m.contains("[combatants.aldric]\n    stats = { force = 60, esprit = 35, charisme = 40, agilite = 50, precision = 45, chance = 50 }"),
            "{m}"
        );
    }
    assert!(en.contains("expected a table; for example:"), "{en}");
    assert!(fr.contains("attendu : une table ; par exemple :"), "{fr}");
}

/// Item 3: a missing required key named neither its table nor how it is written; every
/// kind of every system now gets an example from its starter.
#[test]
fn a_missing_required_key_gets_an_example_in_every_kind() {
    let en = check_and_run_error("system = \"cosmos\"\nkind = \"combat\"\n");
    assert!(
        en.contains("bad.toml:1:1: missing field `attacks`; allowed: at least one [attacks.<name>] table; for example (at the top of the file, before any [table]):\n    [attacks.sword]\n    damage = \"2d10+5\"\n(required keys only; for a full file: cosmosim init scenario --system cosmos --kind combat)"),
        "{en}"
    );
    // Cosmos creation and leveling have no required key: their header alone is valid.
    let kinds = [
        ("cosmos", Some("combat")),
        ("cosmos", Some("mutation")),
        ("cosmos", Some("expedition")),
        ("cosmos", Some("campaign")),
        ("fallout", Some("combat")),
        ("fallout", None),
        ("nephilim", Some("duel")),
        ("trinites", None),
        ("trinites", Some("skirmish")),
    ];
    for (system, kind) in kinds {
        let mut text = format!("system = \"{system}\"\n");
        if let Some(k) = kind {
            text.push_str(&format!("kind = \"{k}\"\n"));
        }
        let en = check_and_run_error(&text);
        assert!(en.contains(":1:1: "), "{system} {kind:?}: {en}");
        let fr = check_and_run_error_with(&text, &["--lang", "fr"]);
        assert!(en.contains("missing field `"), "{system} {kind:?}: {en}");
        assert!(en.contains("; for example"), "{system} {kind:?}: {en}");
        assert!(fr.contains(" ; par exemple"), "{system} {kind:?}: {fr}");
    }
}

/// Item 4: `[run] trials` said "0 or more" though 0 is refused.
#[test]
fn run_trials_of_the_wrong_type_state_the_real_range() {
    for v in ["-1", "1.5", "\"x\""] {
        let (en, fr) = duel_error("trials = ", &format!("trials = {v}"));
        assert!(
            en.contains("expected a whole number from 1 to 1000000000000"),
            "{en}"
        );
        assert!(!en.contains("0 or more"), "{en}");
        assert!(fr.contains("un nombre entier de 1 à 1000000000000"), "{fr}");
    }
}

/// Item 5: constant damage is a dice expression, written in quotes (docs/scenarios.md:
/// `"12"`); a bare number says how to write it.
#[test]
fn a_number_where_a_dice_expression_belongs_says_to_quote_it() {
    let (en, fr) = duel_error("damage = ", "damage = 7");
    assert!(en.contains("key `attacks.sword.damage`: invalid type: integer `7`, expected a string; allowed: dice terms and whole numbers such as \"2d10+5\", \"d6\", \"1d8+1d4-2\" or \"12\"; write damage = \"7\""), "{en}");
    assert!(fr.contains(" ; écrivez damage = \"7\""), "{fr}");
}

/// Item 6: a `--vary` point's error gave the line of the re-written file.
#[test]
fn a_vary_error_names_the_line_of_the_users_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("duel.toml");
    std::fs::write(&path, shipped(DUEL)).unwrap();
    let line = shipped(DUEL)
        .lines()
        .position(|l| l == "level = 3")
        .unwrap()
        + 1;
    for (lang, vary) in [("en", "aldric.level=3,99"), ("fr", "aldric.level=3,99")] {
        let out = Command::cargo_bin("cosmosim")
            .unwrap()
            .args(["--lang", lang, "-q", "sweep"])
            .arg(&path)
            .args(["--vary", vary, "--trials", "100", "--out"])
            .arg(dir.path().join("o"))
            .assert()
            .code(2)
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8(out).unwrap();
        let at = format!("{}:{line}:9: ", path.display());
        assert!(err.contains(&at), "{at} in {err}");
        assert!(
            !err.contains("edited file") && !err.contains("fichier modifié"),
            "{err}"
        );
    }
}

/// Item 3, the headers: a table or an array of tables missing at the top is shown with its
/// header, as the docs write it.
#[test]
fn a_missing_top_table_is_shown_with_its_header() {
    let en = check_and_run_error("system = \"trinites\"\n");
    assert!(
        en.contains("for example (at the top of the file, before any [table]):\n    [[weapons]]\n    name = "),
        "{en}"
    );
    let fr = check_and_run_error_with("system = \"fallout\"\n", &["--lang", "fr"]);
    assert!(
        fr.contains("par exemple (en tête du fichier, avant toute [table]) :\n    [policy]\n"),
        "{fr}"
    );
}

/// Audit of 2026-12-07, night: a missing table printed the starter's whole table (a
/// missing `[expedition]` gave eight lines of which one was required); it now shows only
/// the keys the kind requires, and the command that writes a full file.
#[test]
fn a_missing_table_shows_only_its_required_keys() {
    let text = "system = \"cosmos\"\nkind = \"expedition\"\n";
    assert_eq!(
        check_and_run_error(text),
        "error: bad.toml:1:1: missing field `expedition`; for example (at the top of the file, before any [table]):\n    [expedition]\n    days = 10\n    day = { encounters = \"1d2-1\" }\n    reference_test = { stat = \"agilite\", threshold = 55 }\n(required keys only; for a full file: cosmosim init scenario --system cosmos --kind expedition)\n"
    );
    assert_eq!(
        check_and_run_error_with(text, &["--lang", "fr"]),
        "erreur : bad.toml:1:1: clé `expedition` manquante ; par exemple (en tête du fichier, avant toute [table]) :\n    [expedition]\n    days = 10\n    day = { encounters = \"1d2-1\" }\n    reference_test = { stat = \"agilite\", threshold = 55 }\n(clés obligatoires seulement ; pour un fichier complet : cosmosim init scenario --system cosmos --kind expedition)\n"
    );
    // Every kind: a header alone gets a short example and the command for a full file.
    // (system, the file's `kind`, `init`'s --kind)
    for (system, kind, init) in [
        ("cosmos", "combat", "combat"),
        ("cosmos", "mutation", "mutation"),
        ("cosmos", "expedition", "expedition"),
        ("cosmos", "campaign", "campaign"),
        ("fallout", "combat", "combat"),
        ("fallout", "ap-economy", "economy"),
        ("nephilim", "duel", "duel"),
        ("trinites", "duel", "duel"),
        ("trinites", "skirmish", "skirmish"),
    ] {
        let text = format!("system = \"{system}\"\nkind = \"{kind}\"\n");
        let command = format!("cosmosim init scenario --system {system} --kind {init}");
        let en = check_and_run_error(&text);
        assert!(
            en.ends_with(&format!("for a full file: {command})\n")),
            "{en}"
        );
        assert!(en.lines().count() <= 10, "{en}");
        let fr = check_and_run_error_with(&text, &["--lang", "fr"]);
        assert!(
            fr.ends_with(&format!("fichier complet : {command})\n")),
            "{fr}"
        );
    }
}

/// Audit of 2026-12-07, night: a misspelt key or word listed what is allowed but not the
/// one probably meant.
#[test]
fn a_misspelt_key_or_word_says_which_was_meant() {
    let (en, fr) = duel_error("trials = ", "trial = 1000");
    assert_eq!(en, "error: bad.toml:9:1: key `run.trial`: unknown field `trial`, expected one of `trials`, `seed`, `stream`, `stalemate_warning` (did you mean `trials`?)\n");
    assert_eq!(fr, "erreur : bad.toml:9:1: clé `run.trial` : clé inconnue `trial` ; attendu : l'une de `trials`, `seed`, `stream`, `stalemate_warning` (vouliez-vous dire `trials` ?)\n");
    let (en, fr) = duel_error("mode = \"offensive\"", "mode = \"ofensive\"");
    assert_eq!(en, "error: bad.toml:26:8: key `combatants.aldric.mode`: unknown variant `ofensive`, expected `offensive` or `defensive` (did you mean `offensive`?)\n");
    assert_eq!(fr, "erreur : bad.toml:26:8: clé `combatants.aldric.mode` : valeur inconnue `ofensive` ; attendu : `offensive` ou `defensive` (vouliez-vous dire `offensive` ?)\n");
}

/// Audit of 2026-12-07, night: `[weapons]` where `[[weapons]]` was meant said "it is set
/// twice; keep one", which would drop an entry.
#[test]
fn a_table_where_a_list_was_meant_says_so() {
    let text = shipped_with_line("trinites/duel.toml", "[[weapons]]", "[weapons]");
    let en = check_and_run_error(&text);
    assert_eq!(en, "error: bad.toml:28:3: duplicate key `weapons`: `[weapons]` is one table, `[[weapons]]` one entry of a list; write `[[weapons]]` before each entry\n");
    let fr = check_and_run_error_with(&text, &["--lang", "fr"]);
    assert_eq!(fr, "erreur : bad.toml:28:3: clé `weapons` en double : `[weapons]` est une seule table, `[[weapons]]` une entrée d'une liste ; écrivez `[[weapons]]` avant chaque entrée\n");
}

/// Audit of 2026-12-07, night: a number past 64 bits was "integer `N` as i128", a Rust
/// type.
#[test]
fn a_number_too_large_says_so() {
    let (en, fr) = duel_error("level = 3", "level = 99999999999999999999");
    assert!(
        en.contains("integer `99999999999999999999` (too large), expected"),
        "{en}"
    );
    assert!(!en.contains("i128"), "{en}");
    assert!(
        fr.contains("entier `99999999999999999999` (trop grand), attendu"),
        "{fr}"
    );
}
