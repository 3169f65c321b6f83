//! The previous edition's levelling and creation (C-EDITION, C-LEVEL-3, C-LEVEL-4; audit
//! of 2026-12-07): cosmos-previous.fr.txt has no genetics (no DNA points) and one
//! skill-sheet model, "Fiche compétences" (l. 385-404), with no skill points. Levelling and
//! creation used to report the current book's skill points and DNA points under
//! `edition = "previous"`; they now report that edition's own sheet, and a figure it lacks
//! is refused where a designer names it.

mod common;

use common::params::{cosmosim, write};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn shipped(name: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/scenarios/cosmos/{name}.toml")).unwrap()
}

/// The shipped file with `[rules] edition = "previous"` before its `[creation]` table.
fn previous(name: &str) -> String {
    shipped(name).replacen(
        "[creation]",
        "[rules]\nedition = \"previous\"\n\n[creation]",
        1,
    )
}

fn ok(o: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn refused(o: &std::process::Output) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(o.status.code(), Some(2), "{err}");
    err
}

/// The quantity column of a quantile CSV.
fn quantities(csv: &str) -> Vec<String> {
    let mut q: Vec<String> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().to_string())
        .collect();
    q.dedup();
    q.sort();
    q.dedup();
    q
}

/// cosmos-previous.fr.txt l. 389-398: "Niveau 1 : 3 compétences actives, Niveau 2 : 2,
/// Niveau 3 : 3, Niveau 4 : 1 compétence active à 100 PM, Niveau 5 : Le Final Skill,
/// Niveau 6 : Aucune, Niveau 7 : 3, Niveau 8 : 2, Niveau 9 : 3, Niveau 10 : 1 [...] à
/// 100 PM"; l. 403-404: at most 5 passives at levels 1-6, 8 at 7-10.
const BOOK_ACTIVE: [i64; 10] = [3, 2, 3, 1, 0, 0, 3, 2, 3, 1];

fn book_sheet_row(level: usize) -> String {
    let held: i64 = BOOK_ACTIVE[..level].iter().sum();
    let at_100 = [4, 10].iter().filter(|l| **l <= level).count();
    let passives = if level <= 6 { 5 } else { 8 };
    format!(
        "{level},{},{held},{at_100},{},{passives}",
        BOOK_ACTIVE[level - 1],
        u8::from(level >= 5)
    )
}

#[test]
fn the_previous_edition_reports_its_own_skill_sheet_and_no_points() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    // Levels past 10 are left to the game master by the sheet: no rows there.
    let lev = previous("leveling").replace("max_level = 10", "max_level = 12");
    let lev = write(t, "lev.toml", &lev);
    ok(&cosmosim(
        t,
        &["-q", "run", &lev, "--trials", "300", "--out", "l"],
    ));
    let q = std::fs::read_to_string(t.join("l/leveling-quantiles.csv")).unwrap();
    assert_eq!(
        quantities(&q),
        [
            "agilite",
            "chance",
            "charisme",
            "esprit",
            "force",
            "hp",
            "karma",
            "pm",
            "precision"
        ]
    );
    let sheet = std::fs::read_to_string(t.join("l/leveling-skill-sheet.csv")).unwrap();
    let want: Vec<String> = (1..=10).map(book_sheet_row).collect();
    assert_eq!(sheet.lines().skip(1).collect::<Vec<_>>(), want);
    let meta = std::fs::read_to_string(t.join("l/leveling-skill-sheet.meta.json")).unwrap();
    assert!(meta.contains("\"method\": \"exact\""), "{meta}");
    let summary = std::fs::read_to_string(t.join("l/summary.md")).unwrap();
    assert!(!summary.contains("DNA points: exact mean"), "{summary}");
    assert!(!summary.contains("skill points gained: exact"), "{summary}");
    assert!(summary.contains("skill sheet at level 10"), "{summary}");

    // A creation, and a converted level-4 character with no points to keep.
    let cre = write(t, "cre.toml", &previous("creation"));
    ok(&cosmosim(
        t,
        &["-q", "run", &cre, "--trials", "300", "--out", "c"],
    ));
    let dist = std::fs::read_to_string(t.join("c/creation-distributions.csv")).unwrap();
    assert!(
        !dist.contains("skill_points") && !dist.contains("dna_points"),
        "{dist}"
    );
    let sheet = std::fs::read_to_string(t.join("c/creation-skill-sheet.csv")).unwrap();
    assert_eq!(
        sheet.lines().skip(1).collect::<Vec<_>>(),
        [book_sheet_row(1)]
    );
    let conv = previous("conversion")
        .replace("skill_points = 14", "skill_points = 0")
        .replace("dna_points = 9", "dna_points = 0");
    let conv = write(t, "conv.toml", &conv);
    ok(&cosmosim(
        t,
        &["-q", "run", &conv, "--trials", "300", "--out", "v"],
    ));
    let sheet = std::fs::read_to_string(t.join("v/creation-skill-sheet.csv")).unwrap();
    assert_eq!(sheet.lines().count(), 1 + 4, "{sheet}");

    // Traces tell no skill-point or DNA dice, and cannot look for them.
    for (f, dna) in [(&lev, "dna_points"), (&cre, "dna_points")] {
        let text = ok(&cosmosim(t, &["trace", f, "--trial", "0"]));
        assert!(
            !text.contains("DNA") && !text.contains("skill points"),
            "{text}"
        );
        let json = ok(&cosmosim(
            t,
            &["trace", f, "--trial", "0", "--format", "json"],
        ));
        assert!(
            !json.contains(dna) && !json.contains("skill_points"),
            "{json}"
        );
        let find = format!("{dna}_at_least=1");
        let err = refused(&cosmosim(t, &["trace", f, "--find", &find]));
        assert!(
            err.contains(&format!("unknown condition `{dna}_at_least`")),
            "{err}"
        );
    }
    let text = ok(&cosmosim(t, &["trace", &lev, "--trial", "0"]));
    assert!(text.contains("skill sheet at level 5"), "{text}");
}

/// What the previous book lacks is refused at the key that asks for it, in `check` as in
/// `run`: a skill tree to spend skill points on (the progressive model), and a converted
/// character's skill or DNA points.
#[test]
fn the_previous_edition_refuses_skill_trees_and_kept_points() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    // build-paths.toml without its gene tree: a skill tree alone.
    let mut keep = true;
    let paths = shipped("build-paths");
    let skills: Vec<&str> = paths
        .lines()
        .filter(|l| {
            if l.starts_with('[') {
                keep = !l.contains("leveling.dna");
            }
            keep
        })
        .collect();
    let skills = skills.join("\n");
    assert!(skills.contains("[leveling.skills]") && !skills.contains("leveling.dna"));
    let line = skills.lines().position(|l| l == "[creation]").unwrap() + 2;
    let f = write(t, "skills.toml", &previous_text(&skills));
    let want = format!("skills.toml:{line}:11: key `rules.edition`: the previous edition has no skill-point (the progressive skill sheet of [leveling.skills]) rule (C-EDITION)");
    for args in [
        vec!["check", &f],
        vec!["run", &f, "--trials", "10", "--out", "o"],
    ] {
        let err = refused(&cosmosim(t, &args));
        assert!(err.contains(&want), "{err}");
    }
    ok(&cosmosim(t, &["check", &write(t, "cur.toml", &skills)]));

    let conv = previous("conversion");
    let f = write(t, "conv.toml", &conv);
    let at = |key: &str| conv.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    let err = refused(&cosmosim(t, &["check", &f]));
    let want = format!(
        "conv.toml:{}:16: key `creation.conversion.skill_points`: 14 skill points: the previous edition has no skill points (C-EDITION)",
        at("skill_points")
    );
    assert!(err.contains(&want), "{err}");
    let f = write(
        t,
        "conv.toml",
        &conv.replace("skill_points = 14", "skill_points = 0"),
    );
    let err = refused(&cosmosim(t, &["run", &f, "--out", "o"]));
    assert!(
        err.contains(&format!(
            "conv.toml:{}:14: key `creation.conversion.dna_points`: 9 DNA points",
            at("dna_points")
        )),
        "{err}"
    );
    let err = refused(&cosmosim(t, &["--lang", "fr", "check", &f]));
    assert!(
        err.contains("l'édition précédente n'a pas de points ADN"),
        "{err}"
    );
    assert!(!t.join("o").exists());
}

fn previous_text(text: &str) -> String {
    text.replacen(
        "[creation]",
        "[rules]\nedition = \"previous\"\n\n[creation]",
        1,
    )
}

/// A figure of the current edition named under the previous one (an `expect` row, a
/// sweep's focus at a grid point) is refused, located and named (exit 2), not read as
/// absent or as 0.
#[test]
fn figures_the_previous_edition_lacks_are_refused_where_named() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    write(t, "lev.toml", &previous("leveling"));
    write(
        t,
        "cur.toml",
        &shipped("leveling").replacen(
            "[creation]",
            "[rules]\nedition = \"current\"\n\n[creation]",
            1,
        ),
    );
    let expect = "title = \"t\"\nseed = 1\n\n[[expect]]\nname = \"dna\"\nscenario = \"lev.toml\"\nfigure = \"leveling-quantiles.mean\"\nwhere = { quantity = \"dna_points\", level = 10 }\nat_least = 20\ntrials = 200\n";
    write(t, "ex.toml", expect);
    let err = refused(&cosmosim(t, &["-q", "expect", "ex.toml", "--out", "e"]));
    assert!(
        err.contains("ex.toml:8:9: key `expect[0].where`: no row of `leveling-quantiles` has level = 10, quantity = \"dna_points\""),
        "{err}"
    );
    let sheet = expect
        .replace(
            "leveling-quantiles.mean",
            "leveling-skill-sheet.active_skills",
        )
        .replace("quantity = \"dna_points\", ", "")
        .replace("at_least = 20", "between = [18, 18]");
    write(t, "ex2.toml", &sheet);
    ok(&cosmosim(t, &["-q", "expect", "ex2.toml", "--out", "e2"]));

    let focus = [
        "--trials",
        "200",
        "--figure",
        "leveling-quantiles.mean",
        "--where",
        "quantity=dna_points",
        "--where",
        "level=10",
        "--out",
        "s",
        "-q",
    ];
    let mut args = vec![
        "sweep",
        "cur.toml",
        "--vary",
        "rules.edition=current,previous",
    ];
    args.extend(focus);
    let err = refused(&cosmosim(t, &args));
    assert!(
        err.contains("with --vary rules.edition=previous: no row of `leveling-quantiles` has quantity = \"dna_points\", level = 10"),
        "{err}"
    );
    assert!(!t.join("s").exists());
}
