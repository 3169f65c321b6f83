//! Issue 27 item 2: fights that hit the round cap are never hidden behind a win rate.
//! Above the file's `[run] stalemate_warning` (default 5%), `run`, `sweep`, `tune`,
//! `optimise` and `expect` warn on stderr and in their page, with the share and its
//! interval.

use std::path::Path;

mod common;
use common::runs::cosmosim;

/// The shipped duel with a 4-round cap: most fights end unfinished.
fn capped(dir: &Path, extra_run: &str) -> String {
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cosmos/duel.toml"),
    )
    .unwrap()
    .replacen("max_rounds = 40", "max_rounds = 4", 1)
    .replacen("[run]\n", &format!("[run]\n{extra_run}"), 1);
    assert!(text.contains("max_rounds = 4\n"));
    std::fs::write(dir.join("capped.toml"), text).unwrap();
    "capped.toml".into()
}

fn warned(o: &std::process::Output) -> bool {
    let e = String::from_utf8_lossy(&o.stderr);
    e.contains("ended unfinished (`round_cap` in `combat-sides.share`)")
}

#[test]
fn run_sweep_and_tune_warn_about_stalemates_above_the_level() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = capped(d, "");
    let o = cosmosim(d, &["run", &f, "--trials", "2000", "--out", "r"]);
    assert!(o.status.success());
    assert!(warned(&o), "{}", String::from_utf8_lossy(&o.stderr));
    let summary = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(
        summary.contains("## Warnings") && summary.contains("round_cap"),
        "{summary}"
    );
    let o = cosmosim(
        d,
        &[
            "sweep",
            &f,
            "--trials",
            "1000",
            "--vary",
            "aldric.hp=100,150",
            "--out",
            "s",
        ],
    );
    assert!(
        o.status.success() && warned(&o),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(String::from_utf8_lossy(&o.stderr).contains("(at aldric.hp="));
    let o = cosmosim(
        d,
        &[
            "tune",
            &f,
            "--vary",
            "aldric.hp=100..200",
            "--figure",
            "combat-sides.share",
            "--where",
            "outcome=defensive",
            "--target",
            "0.3",
            "--first-trials",
            "1000",
            "--max-trials",
            "2000",
            "--out",
            "tuned",
        ],
    );
    assert!(
        o.status.success() && warned(&o),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let page = std::fs::read_to_string(d.join("tuned/tune.md")).unwrap();
    assert!(page.contains("## Warnings"), "{page}");
    // The level is the file's: at 100% nothing is said.
    let quiet = capped(d, "stalemate_warning = 1.0\n");
    let o = cosmosim(d, &["run", &quiet, "--trials", "2000", "--out", "q"]);
    assert!(o.status.success() && !warned(&o));
    // The shipped duel (40 rounds) finishes its fights: no warning.
    let duel = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cosmos/duel.toml");
    let o = cosmosim(
        d,
        &[
            "run",
            duel.to_str().unwrap(),
            "--trials",
            "2000",
            "--out",
            "plain",
        ],
    );
    assert!(o.status.success() && !warned(&o));
}

#[test]
fn a_level_outside_0_to_1_is_refused_by_check_and_run_alike() {
    let t = tempfile::tempdir().unwrap();
    let f = capped(t.path(), "stalemate_warning = 5\n");
    for cmd in [
        vec!["check", f.as_str()],
        vec!["run", f.as_str(), "--out", "x"],
    ] {
        let o = cosmosim(t.path(), &cmd);
        assert_eq!(o.status.code(), Some(2), "{cmd:?}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(
            e.contains("capped.toml:")
                && e.contains("run.stalemate_warning")
                && e.contains("0.0..1.0"),
            "{e}"
        );
    }
}

#[test]
fn a_dash_range_and_a_percent_are_answered_with_the_syntax_meant() {
    let t = tempfile::tempdir().unwrap();
    let f = capped(t.path(), "");
    let o = cosmosim(t.path(), &["sweep", &f, "--vary", "aldric.hp=100-300"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("write a range as 100..300"));
    let o = cosmosim(
        t.path(),
        &[
            "tune",
            &f,
            "--vary",
            "aldric.hp=100-300",
            "--figure",
            "combat-sides.share",
            "--where",
            "outcome=defensive",
            "--target",
            "0.5",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("write a range as 100..300"));
    let o = cosmosim(
        t.path(),
        &[
            "tune",
            &f,
            "--vary",
            "aldric.hp=100..300",
            "--figure",
            "combat-sides.share",
            "--where",
            "outcome=defensive",
            "--target",
            "50%",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains(": 0.5"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Issue 27 item 2: `expect` warns too. A gate on a win rate that passes over fights which
/// mostly never end says so on stderr and in `expect.md`, naming the scenario; a gate on a
/// scenario that finishes its fights says nothing.
#[test]
fn expect_warns_about_stalemates_in_the_scenarios_it_runs() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = capped(d, "");
    let gate = |scenario: &str| {
        format!(
            "title = \"gate\"\nseed = 1\n\n[[expect]]\nname = \"the defensive side wins at times\"\n\
             scenario = \"{scenario}\"\nfigure = \"combat-sides.share\"\n\
             where = {{ outcome = \"defensive\" }}\nat_least = 0.0\ntrials = 2000\n"
        )
    };
    std::fs::write(d.join("gate.toml"), gate(&f)).unwrap();
    let o = cosmosim(d, &["expect", "gate.toml", "--out", "e"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(warned(&o), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("capped.toml"));
    let page = std::fs::read_to_string(d.join("e/expect.md")).unwrap();
    assert!(
        page.contains("## Warnings") && page.contains("round_cap"),
        "{page}"
    );
    // The shipped duel ends its fights: no warning.
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cosmos/duel.toml"),
        d.join("duel.toml"),
    )
    .unwrap();
    std::fs::write(d.join("plain.toml"), gate("duel.toml")).unwrap();
    let o = cosmosim(d, &["expect", "plain.toml", "--out", "p"]);
    assert!(o.status.success() && !warned(&o));
    let page = std::fs::read_to_string(d.join("p/expect.md")).unwrap();
    assert!(!page.contains("## Warnings"), "{page}");
}
