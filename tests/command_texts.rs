//! What the commands say about themselves (audit of 2026-12-07 afternoon, commands items
//! 4-7): `sweep --help` gives the real caps, `optimise` names the row it decided on, the
//! documented `p_win_<side>` alias works in every system and `figures` lists it, and
//! `trace` refuses a trial the run does not have.

use std::path::Path;

use assert_cmd::Command;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn sweep_help_gives_the_real_caps_and_folder() {
    let o = bin().args(["sweep", "--help"]).output().unwrap();
    let help = String::from_utf8_lossy(&o.stdout).replace('\n', " ");
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    let caps = format!(
        "(default {}, at most {})",
        cosmosim::limits::DEFAULT_MAX_GRID_POINTS,
        cosmosim::limits::MAX_GRID_POINTS
    );
    assert!(help.contains(&caps), "{caps} not in {help}");
    assert!(
        help.contains("reports/cosmos/duel/sweep-aldric.hp/"),
        "{help}"
    );
}

#[test]
fn optimise_names_the_row_it_decided_on() {
    let d = tempfile::tempdir().unwrap();
    bin()
        .current_dir(root())
        .args([
            "optimise",
            "scenarios/cosmos/duel.toml",
            "--vary",
            "aldric.hp=100,300",
            "--maximise",
            "combat-sides.share",
            "--where",
            "outcome=offensive",
            "--first-trials",
            "1024",
            "--max-trials",
            "4096",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("o"))
        .assert()
        .success();
    let md = std::fs::read_to_string(d.path().join("o/optimise.md")).unwrap();
    assert!(
        md.contains("The highest combat-sides.share (outcome=offensive) is at aldric.hp=300"),
        "{md}"
    );
}

#[test]
fn p_win_side_works_outside_great_cosmos_and_figures_lists_it() {
    let file = "scenarios/fallout/firefight.toml";
    let o = bin()
        .current_dir(root())
        .args(["figures", file])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("p_players_win, p_win_players")
            && text.contains("combat-sides.p where { outcome = \"players_win\" }"),
        "{text}"
    );
    let d = tempfile::tempdir().unwrap();
    for figure in ["p_win_players", "p_players_win"] {
        bin()
            .current_dir(root())
            .args([
                "sweep",
                file,
                "--vary",
                "run.seed=1,2",
                "--figure",
                figure,
                "--trials",
                "200",
                "--quiet",
                "--out",
            ])
            .arg(d.path().join(figure))
            .assert()
            .success();
    }
    assert_eq!(
        std::fs::read(d.path().join("p_win_players/sweep.csv")).unwrap(),
        std::fs::read(d.path().join("p_players_win/sweep.csv")).unwrap()
    );
    // The Nephilim `a_wins` row answers `p_win_a` too.
    let o = bin()
        .current_dir(root())
        .args(["figures", "scenarios/nephilim/duel.toml"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("p_a_wins, p_win_a"));
}

#[test]
fn trace_refuses_a_trial_outside_the_run() {
    let o = bin()
        .current_dir(root())
        .args([
            "trace",
            "scenarios/cosmos/duel.toml",
            "--trial",
            "18446744073709551615",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("allowed: --trial 0.."), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    // A trial past the file's count is still a trial a run can have (`run --trials`
    // above it): trial 10 of a 10-trial file is trial 10 of a 20-trial one, same stream.
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join("scenarios/cosmos/duel.toml")).unwrap();
    assert!(text.contains("trials = 1000000"));
    for n in ["10", "20"] {
        let small = text.replacen("trials = 1000000", &format!("trials = {n}"), 1);
        std::fs::write(dir.path().join(format!("d{n}.toml")), small).unwrap();
    }
    let json = |f: &str| {
        let o = bin()
            .current_dir(dir.path())
            .args(["trace", f, "--trial", "10", "--format", "json"])
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert_eq!(json("d10.toml"), json("d20.toml"));
}
