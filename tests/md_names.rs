//! Issue 24: names from a scenario file (combatants, sides, groups, weapons, races) reach
//! `summary.md` of every system as Markdown text: no markup they hold acts in the `.md`,
//! table rows keep their cells, and `summary.html` shows each name as typed.

use std::path::Path;
use std::process::Command;

/// Printable markup only: names with control characters are refused at parse time.
const HOSTILE: &str = "Bob*<b>x</b>_[l](javascript:1)|y";
/// Race names hold at most 32 characters.
const SHORT: &str = "N*<b>x</b>_[l](j:1)|y";

fn shipped(path: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("scenarios")
            .join(path),
    )
    .unwrap()
}

/// `s` with each `(from, to)` replaced, each `from` present.
fn renamed(mut s: String, pairs: &[(&str, String)]) -> String {
    for (from, to) in pairs {
        assert!(s.contains(from), "{from} not in the shipped file");
        s = s.replace(from, to);
    }
    s
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The line without its code spans (what Markdown reads as markup).
fn outside_code(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(i) = rest.find('`') {
        out += &rest[..i];
        let run = rest[i..].chars().take_while(|&c| c == '`').count();
        let fence = "`".repeat(run);
        let after = &rest[i + run..];
        match after.find(&fence) {
            Some(j) => rest = &after[j + run..],
            None => {
                out += &rest[i..];
                return out;
            }
        }
    }
    out + rest
}

/// Cell separators: `|` not escaped by a backslash, outside code spans.
fn cells(line: &str) -> usize {
    let s = outside_code(line);
    let b = s.as_bytes();
    (0..b.len())
        .filter(|&i| b[i] == b'|' && (i == 0 || b[i - 1] != b'\\'))
        .count()
}

fn check(dir: &Path, typed: &[String]) {
    let md = std::fs::read_to_string(dir.join("summary.md")).unwrap();
    let html = std::fs::read_to_string(dir.join("summary.html")).unwrap();
    let mut width = None;
    for line in md.lines() {
        let text = outside_code(line);
        assert!(!text.contains("<b>"), "raw tag in {dir:?}: {line}");
        for (i, _) in text.match_indices("](j") {
            assert!(i > 0 && &text[i - 1..i] == "\\", "link in {dir:?}: {line}");
        }
        if line.starts_with('|') {
            let n = cells(line);
            match width {
                None => width = Some(n),
                Some(w) => assert_eq!(n, w, "cells in {dir:?}: {line}"),
            }
        } else {
            width = None;
        }
    }
    assert!(!html.contains("<b>x"), "{dir:?}");
    assert!(!html.contains("href=\"j"), "{dir:?}");
    assert!(!html.contains("<em>&lt;b"), "{dir:?}");
    for t in typed {
        assert!(
            html.contains(&html_escape(t)),
            "{t} not shown as typed in {dir:?}/summary.html"
        );
    }
}

fn run(dir: &Path, file: &str, text: &str) -> std::path::PathBuf {
    std::fs::write(dir.join(file), text).unwrap();
    let out = dir.join(file.trim_end_matches(".toml"));
    let o = Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(["run", file, "--trials", "300", "--quiet", "--out"])
        .arg(&out)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    out
}

#[test]
fn hostile_names_in_every_system_summary_read_as_typed() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let n = |p: &str| format!("{p}-{HOSTILE}");
    let q = |p: &str| format!("\"{}\"", n(p));

    // Great Cosmos combat: a combatant and a side.
    let cosmos = renamed(
        shipped("cosmos/duel.toml"),
        &[
            ("[combatants.aldric]", format!("[combatants.{}]", q("A"))),
            ("side = \"offensive\"", format!("side = {}", q("S"))),
        ],
    );
    check(&run(t, "cosmos.toml", &cosmos), &[n("A"), n("S")]);

    // 2d20 firefight: a combatant and a weapon.
    let fallout = renamed(
        shipped("fallout/firefight.toml"),
        &[
            ("name = \"Dweller\"", format!("name = {}", q("D"))),
            ("[weapons.pistol_10mm]", format!("[weapons.{}]", q("W"))),
            ("weapon = \"pistol_10mm\"", format!("weapon = {}", q("W"))),
        ],
    );
    check(&run(t, "fallout.toml", &fallout), &[n("D"), n("W")]);

    // 2d20 action-point economy: a test's name in the steps table.
    let ap = renamed(
        shipped("fallout/ap-economy.toml"),
        &[(
            "name = \"Scout the ruins (Perception + Survival)\"",
            format!("name = {}", q("R")),
        )],
    );
    check(&run(t, "ap.toml", &ap), &[n("R")]);

    // Nephilim duel: a fighter.
    let nephilim = renamed(
        shipped("nephilim/duel.toml"),
        &[("name = \"Fencer\"", format!("name = {}", q("F")))],
    );
    check(&run(t, "nephilim.toml", &nephilim), &[n("F")]);

    // Trinités skirmish: a group (and its pairs), a side and a weapon.
    let skirmish = renamed(
        shipped("trinites/skirmish.toml"),
        &[
            ("name = \"tireuse\"", format!("name = {}", q("T"))),
            ("group = \"tireuse\"", format!("group = {}", q("T"))),
            ("side = \"adam\"", format!("side = {}", q("S"))),
            ("name = \"epee\"", format!("name = {}", q("E"))),
            ("weapon = \"epee\"", format!("weapon = {}", q("E"))),
        ],
    );
    check(
        &run(t, "skirmish.toml", &skirmish),
        &[n("T"), n("S"), n("E")],
    );

    // Trinités duel: no name from the file reaches the page but its title.
    let duel: String = shipped("trinites/duel.toml")
        .lines()
        .map(|l| {
            if l.starts_with("title =") {
                format!("title = \"{HOSTILE}\"")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    check(&run(t, "trinites.toml", &duel), &[HOSTILE.to_string()]);

    // Growth: a race/class name, as text and in a code span.
    let races = renamed(
        shipped("cosmos/creation-races.toml"),
        &[("\"nain_guerrier\"", format!("\"{SHORT}\""))],
    );
    let dir = run(t, "races.toml", &races);
    check(&dir, &[SHORT.to_string()]);
    let html = std::fs::read_to_string(dir.join("summary.html")).unwrap();
    assert!(
        html.contains(&format!("<code>{}</code>", html_escape(SHORT))),
        "the intended race in a code span, with no backslash before its |"
    );
}
