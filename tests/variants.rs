//! `cosmosim variants`: the book rules and named rule variants on the same seed, each
//! compared with the book. Checked against hand-computed exact moves (C-TEST-2: reading
//! 42/66 on the score moves P(success) at threshold 60, karma +6 by exactly +0.005), against
//! a direct `table` run, for determinism across thread counts, and for located errors.

use std::path::Path;
use std::process::Command;

fn cosmosim(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

const FILE: &str = r#"title = "Specials on the score"
question = "What moves when 42/66 are read on the score, or karma overflow cancels?"
seed = 3

[[study]]
table = "cosmos-test"
params = { thresholds = "50,60", karma = "0,6" }

[[headline]]
name = "Success at 60, karma +6"
table = "cosmos-test"
params = { thresholds = "50,60", karma = "0,6" }
figure = "p_success"
where = { threshold = 60, karma = 6 }

[variants.score_specials]
description = "42 and 66 read on the score"
super_crit_roll = "score"

[variants.cancel_overflow]
karma_overflow = "cancel"
"#;

/// Rows of a CSV file whose quoted cells may hold commas (no quotes inside cells here).
fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut cells = vec![String::new()];
            let mut quoted = false;
            for c in l.chars() {
                match c {
                    '"' => quoted = !quoted,
                    ',' if !quoted => cells.push(String::new()),
                    c => cells.last_mut().unwrap().push(c),
                }
            }
            cells
        })
        .collect()
}

fn column(rows: &[Vec<String>], name: &str) -> usize {
    rows[0].iter().position(|c| c == name).unwrap()
}

#[test]
fn variants_move_exactly_what_the_rule_change_moves() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    std::fs::write(t.join("v.toml"), FILE).unwrap();
    let out = cosmosim(t, &["variants", "v.toml", "--out", "a", "--quiet"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // Every compared figure; exactly two move under score_specials (C-TEST-2), none under
    // a karma-overflow reading (a single test never moves karma).
    let rows = csv_rows(&t.join("a/variants.csv"));
    let (v, row, fig, delta, moved) = (
        column(&rows, "variant"),
        column(&rows, "row"),
        column(&rows, "figure"),
        column(&rows, "delta"),
        column(&rows, "moved"),
    );
    let moved_rows: Vec<&Vec<String>> = rows[1..].iter().filter(|r| r[moved] == "true").collect();
    assert_eq!(moved_rows.len(), 2, "{moved_rows:?}");
    for r in &moved_rows {
        assert_eq!(r[v], "score_specials");
    }
    let find = |figure: &str| -> f64 {
        let r = moved_rows
            .iter()
            .find(|r| r[row] == "threshold=60, karma=6" && r[fig] == figure)
            .unwrap_or_else(|| panic!("{figure} at threshold 60, karma 6 did not move"));
        r[delta].parse().unwrap()
    };
    // Hand count: natural 66 under karma +6 scores 56..65, so half of it (0.005) was a
    // success lost to the super failure; on the score, 66 lies above 60.
    assert!((find("p_success") - 0.005).abs() < 1e-9);
    assert!((find("p_failure") + 0.005).abs() < 1e-9);

    // The headline equals a direct table run, book and variant.
    let direct = |opt: Option<&str>, dir: &str| -> f64 {
        let mut args = vec![
            "table",
            "cosmos-test",
            "--thresholds",
            "60",
            "--karma",
            "6",
            "--out",
            dir,
            "--quiet",
        ];
        if let Some(o) = opt {
            args.extend(["--option", o]);
        }
        let o = cosmosim(t, &args);
        assert!(o.status.success());
        let rows = csv_rows(&t.join(dir).join("cosmos-test.csv"));
        rows[1][column(&rows, "p_success")].parse().unwrap()
    };
    let book = direct(None, "t1");
    let score = direct(Some("super_crit_roll=score"), "t2");
    let heads = csv_rows(&t.join("a/headlines.csv"));
    let value = column(&heads, "value");
    let by_variant = |name: &str| -> f64 {
        heads[1..]
            .iter()
            .find(|r| r[column(&heads, "variant")] == name)
            .unwrap()[value]
            .parse()
            .unwrap()
    };
    assert_eq!(by_variant("book"), book);
    assert_eq!(by_variant("score_specials"), score);
    assert_eq!(by_variant("cancel_overflow"), book);

    // The page opens with the answer, then the headline table and chart.
    let md = std::fs::read_to_string(t.join("a/variants.md")).unwrap();
    let answer = md.find("## Answer").unwrap();
    assert!(answer < md.find("## Headline figures").unwrap());
    assert!(
        md.contains("**score_specials** (42 and 66 read on the score): Success at 60, karma +6")
    );
    assert!(md.contains("**cancel_overflow** (karma_overflow=cancel): Success at 60, karma +6"));
    assert!(md.contains("0 of"));
    assert!(t.join("a/headline-1.png").is_file());
    assert!(t.join("a/variants.html").is_file());
    assert!(t.join("a/book/cosmos-test/cosmos-test.csv").is_file());
    assert!(t
        .join("a/score_specials/cosmos-test/cosmos-test.meta.json")
        .is_file());
    let meta =
        std::fs::read_to_string(t.join("a/score_specials/cosmos-test/cosmos-test.meta.json"))
            .unwrap();
    assert!(meta.contains("super_crit_roll"), "{meta}");
}

#[test]
fn variants_are_the_same_bytes_whatever_the_threads() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let mc = FILE.replace(
        "params = { thresholds = \"50,60\", karma = \"0,6\" }",
        "params = { thresholds = \"50,60\", karma = \"0,6\", method = \"mc\" }",
    ) + "trials = 20000\n";
    // `trials` must sit before the tables: put it at the top.
    let mc = format!(
        "trials = 20000\n{}",
        mc.trim_end_matches("trials = 20000\n")
    );
    std::fs::write(t.join("v.toml"), &mc).unwrap();
    for (dir, threads) in [("one", "1"), ("two", "2")] {
        let o = cosmosim(
            t,
            &[
                "variants",
                "v.toml",
                "--out",
                dir,
                "--threads",
                threads,
                "--quiet",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    for f in [
        "variants.csv",
        "headlines.csv",
        "variants.md",
        "variants.meta.json",
    ] {
        assert_eq!(
            std::fs::read(t.join("one").join(f)).unwrap(),
            std::fs::read(t.join("two").join(f)).unwrap(),
            "{f}"
        );
    }
    let md = std::fs::read_to_string(t.join("one/variants.md")).unwrap();
    assert!(
        md.contains("[0."),
        "Monte Carlo headline values carry intervals: {md}"
    );
}

#[test]
fn bad_variants_files_are_located_errors() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let cases: [(&str, String, &str); 5] = [
        (
            "unknown option",
            FILE.replace("karma_overflow = \"cancel\"", "karma_overflw = \"cancel\""),
            "variants.cancel_overflow.karma_overflw",
        ),
        (
            "bad value",
            FILE.replace("super_crit_roll = \"score\"", "super_crit_roll = \"dice\""),
            "natural | score",
        ),
        (
            "book is reserved",
            FILE.replace("[variants.cancel_overflow]", "[variants.book]"),
            "variants.book",
        ),
        (
            "headline not studied",
            FILE.replace(
                "figure = \"p_success\"",
                "figure = \"p_success\"\nscenario = \"nope.toml\"",
            ),
            "headline[0]",
        ),
        (
            "unknown figure",
            FILE.replace("figure = \"p_success\"", "figure = \"p_win\""),
            "headline[0].figure",
        ),
    ];
    for (what, text, needle) in cases {
        std::fs::write(t.join("bad.toml"), &text).unwrap();
        let o = cosmosim(t, &["variants", "bad.toml", "--out", "x", "--quiet"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{what}: {err}");
        assert!(err.contains("bad.toml:"), "{what}: no file:line in {err}");
        assert!(err.contains(needle), "{what}: `{needle}` not in {err}");
        assert!(!t.join("x").exists(), "{what}: outputs written");
    }
}

/// Issue 26 item 4: the backlash dealing x0.25 instead of x0.5 lowers the party's wins on
/// apocalypse.toml by about 0.0016 (7 standard errors in independent 1 M runs, negative at
/// every seed). The two-sample test of independent runs flagged it in 4 of 20 seeds at
/// 100 k trials; the paired block test must flag it in at least 8 of 10 (it did in 20 of
/// 20), and a variant that restates the book value (`backlash_damage_mult = 0.5`) may
/// never move anything.
#[test]
fn paired_test_finds_a_small_real_move_and_no_move_in_an_identical_variant() {
    let d = tempfile::tempdir().unwrap();
    let file = d.path().join("v.toml");
    std::fs::write(
        &file,
        r#"title = "A small move"
question = "Does the paired test see the harsher backlash?"
trials = 100000

[[study]]
scenario = "scenarios/cosmos/apocalypse.toml"

[[headline]]
name = "Party wins"
scenario = "scenarios/cosmos/apocalypse.toml"
figure = "combat-sides.share"
where = { outcome = "party" }

[variants.harsh_backlash]
backlash_damage_mult = 0.25

[variants.same]
backlash_damage_mult = 0.5
"#,
    )
    .unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut flagged = 0;
    for seed in 1..=10 {
        let out = d.path().join(format!("s{seed}"));
        let o = cosmosim(
            root,
            &[
                "variants",
                file.to_str().unwrap(),
                "--seed",
                &seed.to_string(),
                "--out",
                out.to_str().unwrap(),
                "--quiet",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let rows = csv_rows(&out.join("variants.csv"));
        let (v, output, row, fig, method, delta, moved) = (
            column(&rows, "variant"),
            column(&rows, "output"),
            column(&rows, "row"),
            column(&rows, "figure"),
            column(&rows, "method"),
            column(&rows, "delta"),
            column(&rows, "moved"),
        );
        let party = rows[1..]
            .iter()
            .find(|r| {
                r[v] == "harsh_backlash"
                    && r[output].ends_with("combat-sides")
                    && r[row] == "outcome=party"
                    && r[fig] == "share"
            })
            .expect("party wins compared");
        assert_eq!(party[method], "paired");
        assert!(party[delta].parse::<f64>().unwrap() < 0.0, "{party:?}");
        if party[moved] == "true" {
            flagged += 1;
        }
        let same: Vec<_> = rows[1..].iter().filter(|r| r[v] == "same").collect();
        assert!(!same.is_empty());
        assert!(same.iter().all(|r| r[moved] == "false"), "{same:?}");
        let meta = std::fs::read_to_string(out.join("variants.meta.json")).unwrap();
        assert!(meta.contains("\"blocks\": 20"), "{meta}");
    }
    assert!(flagged >= 8, "flagged in {flagged} of 10 seeds");
}

// Carried forward from the edition work of 2026-12-07: rows the book has and a variant's
// rules do not produce (the previous edition has no DNA or skill points, C-EDITION) were
// left out of the comparison in silence, and a headline on them read a bare "n/a".
#[test]
fn rows_a_variant_lacks_are_named_not_dropped_in_silence() {
    let dir = tempfile::tempdir().unwrap();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::copy(
        root.join("scenarios/cosmos/leveling.toml"),
        dir.path().join("leveling.toml"),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("v.toml"),
        r#"title = "Edition"
question = "What moves with the previous edition?"
trials = 300
[[study]]
scenario = "leveling.toml"
[[headline]]
name = "DNA at level 10"
scenario = "leveling.toml"
figure = "leveling-quantiles.mean"
where = { level = 10, quantity = "dna_points" }
[variants.previous]
edition = "previous"
"#,
    )
    .unwrap();
    for (lang, na, absent, new) in [
        (
            "en",
            "DNA at level 10 n/a (absent under this variant's rules)",
            "Absent under this variant (30, not compared): leveling/leveling-quantiles (level=1, quantity=dna_points);",
            "New under this variant (1, not compared): leveling/leveling-skill-sheet.",
        ),
        (
            "fr",
            "DNA at level 10 n.d. (absent sous les règles de cette variante)",
            "Absent sous cette variante (30, non comparé) :",
            "Nouveau sous cette variante (1, non comparé) : leveling/leveling-skill-sheet.",
        ),
    ] {
        let out = cosmosim(dir.path(), &["-q", "variants", "v.toml", "--out", lang, "--lang", lang]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let md = std::fs::read_to_string(dir.path().join(lang).join("variants.md")).unwrap();
        for wanted in [na, absent, new] {
            assert!(md.contains(wanted), "{wanted}\n{md}");
        }
    }
}

/// A file's `trials` (and `--trials`) are the Monte Carlo runs' trial count: an exact
/// table studied beside them runs as it is (it takes no trial count). Before, every table
/// got `--trials` and an exact one refused it: "unexpected argument '--trials' found",
/// located at its study, so `variants/cosmos-editions.toml` (trials = 100000) could not
/// study the aura table.
#[test]
fn an_exact_table_studies_beside_a_files_trials() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let file = r#"title = "Editions on the aura and test tables"
question = "What moves?"
seed = 3
trials = 2000

[[study]]
table = "cosmos-aura"
params = { thresholds = "50", bonus = "10" }

[[study]]
table = "cosmos-test"
params = { thresholds = "50", karma = "0", method = "mc" }

[variants.previous]
edition = "previous"
"#;
    std::fs::write(t.join("v.toml"), file).unwrap();
    for extra in [&[][..], &["--trials", "3000"][..]] {
        let mut args = vec!["variants", "v.toml", "--out", "a", "--quiet"];
        args.extend(extra);
        let out = cosmosim(t, &args);
        assert!(
            out.status.success(),
            "{extra:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let rows = csv_rows(&t.join("a/variants.csv"));
        let output = column(&rows, "output");
        assert!(rows[1..]
            .iter()
            .any(|r| r[output] == "cosmos-aura/cosmos-aura"));
        let meta =
            std::fs::read_to_string(t.join("a/book/cosmos-test/cosmos-test.meta.json")).unwrap();
        let want = if extra.is_empty() { "2000" } else { "3000" };
        assert!(meta.contains(&format!("\"trials\": {want}")), "{meta}");
    }
}
