//! Issue 27 item 3: `cosmosim init` prints starter files that pass `check` for every kind
//! of scenario, and `init expect --from` proposes expectations that hold on that run.

use std::path::Path;

mod common;
use common::runs::cosmosim;

fn ok(o: &std::process::Output) {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn every_kind_has_a_starter_that_passes_check() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let kinds = [
        ("cosmos", "combat"),
        ("cosmos", "creation"),
        ("cosmos", "leveling"),
        ("cosmos", "mutation"),
        ("cosmos", "expedition"),
        ("cosmos", "campaign"),
        ("fallout", "combat"),
        ("fallout", "economy"),
        ("nephilim", "duel"),
        ("trinites", "duel"),
        ("trinites", "skirmish"),
    ];
    for (system, kind) in kinds {
        let o = cosmosim(d, &["init", "scenario", "--system", system, "--kind", kind]);
        ok(&o);
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        assert!(text.starts_with("# Starter from `cosmosim init`"), "{text}");
        let file = format!("{system}-{kind}.toml");
        std::fs::write(d.join(&file), &text).unwrap();
        ok(&cosmosim(d, &["check", &file]));
    }
    // The default is a Great Cosmos combat; --out writes the file.
    ok(&cosmosim(
        d,
        &["-q", "init", "scenario", "--out", "mine.toml"],
    ));
    let mine = std::fs::read_to_string(d.join("mine.toml")).unwrap();
    assert!(mine.contains("kind = \"combat\""));
    // An unknown kind lists the ones there are.
    let o = cosmosim(
        d,
        &["init", "scenario", "--system", "cosmos", "--kind", "raid"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--system trinites --kind skirmish"));
}

#[test]
fn proposed_expectations_hold_on_the_run_they_come_from() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::create_dir_all(d.join("scenarios/cosmos")).unwrap();
    for f in ["apocalypse.toml", "duel.toml"] {
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenarios/cosmos")
                .join(f),
            d.join("scenarios/cosmos").join(f),
        )
        .unwrap();
    }
    let scenario = "scenarios/cosmos/apocalypse.toml";
    ok(&cosmosim(
        d,
        &["-q", "run", scenario, "--trials", "4000", "--out", "r"],
    ));
    ok(&cosmosim(
        d,
        &["-q", "init", "expect", "--from", "r", "--out", "e.toml"],
    ));
    let e = std::fs::read_to_string(d.join("e.toml")).unwrap();
    let n = e.matches("[[expect]]").count();
    assert!(n >= 10, "{e}");
    assert!(
        e.contains("figure = \"combat-sides.share\"") && e.contains("trials = 4000"),
        "{e}"
    );
    let o = cosmosim(d, &["-q", "expect", "e.toml", "--out", "x"]);
    ok(&o);
    let md = std::fs::read_to_string(d.join("x/expect.md")).unwrap();
    assert!(
        md.contains(&format!("**{n} of {n} expectations hold")),
        "{md}"
    );
    // A folder that is not a scenario run is refused.
    ok(&cosmosim(
        d,
        &["-q", "table", "cosmos-test", "--out", "tab"],
    ));
    let o = cosmosim(d, &["init", "expect", "--from", "tab"]);
    assert_eq!(o.status.code(), Some(2));
    // The starter expectations and variants files run as written.
    ok(&cosmosim(
        d,
        &["-q", "init", "expect", "--out", "start.toml"],
    ));
    ok(&cosmosim(d, &["-q", "expect", "start.toml", "--out", "y"]));
    ok(&cosmosim(d, &["-q", "init", "variants", "--out", "v.toml"]));
    let o = cosmosim(
        d,
        &["-q", "variants", "v.toml", "--trials", "2000", "--out", "v"],
    );
    ok(&o);
}
