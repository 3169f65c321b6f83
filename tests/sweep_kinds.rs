//! Issue 23 items 3 and 4: `sweep` runs every scenario kind through the kind itself, and
//! writes every figure under the name `figures` lists; `tune` accepts those names, and a
//! wrong name is refused with the closest ones.

use std::path::{Path, PathBuf};

use assert_cmd::Command;

fn scenario(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenarios")
        .join(rel)
}

fn cosmosim(args: &[&str], cwd: &Path) -> std::process::Output {
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(cwd)
        .args(args)
        .output()
        .unwrap()
}

/// Rows of `sweep.csv` as (varied value, figure, where, value) with its header checked.
fn sweep(rel: &str, vary: &str, out: &Path) -> Vec<(String, String, String, String)> {
    let file = scenario(rel);
    let o = cosmosim(
        &[
            "-q",
            "sweep",
            file.to_str().unwrap(),
            "--vary",
            vary,
            "--trials",
            "2000",
            "--out",
            out.to_str().unwrap(),
        ],
        out.parent().unwrap(),
    );
    assert!(
        o.status.success(),
        "{rel}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let csv = std::fs::read_to_string(out.join("sweep.csv")).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    let column = vary.split('=').next().unwrap().replace(['.', '-'], "_");
    assert_eq!(
        header,
        format!("{column},trials,figure,where,value,value_lo,value_hi")
    );
    let png = out.join(format!("sweep-{column}.png"));
    assert!(png.exists(), "{}", png.display());
    lines
        .map(|l| {
            let c: Vec<&str> = l.split(',').collect();
            (c[0].into(), c[2].into(), c[3].into(), c[4].into())
        })
        .collect()
}

/// The `figures` listing of a scenario.
fn figures(rel: &str, cwd: &Path) -> String {
    let o = cosmosim(&["figures", scenario(rel).to_str().unwrap()], cwd);
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn sweep_runs_a_nephilim_duel_an_expedition_and_a_2d20_combat_with_the_figures_names() {
    let t = tempfile::tempdir().unwrap();
    for (rel, vary, values) in [
        ("nephilim/duel.toml", "duel.max_rounds=3,20", ["3", "20"]),
        (
            "cosmos/expedition.toml",
            "expedition.traveller.force=50,62",
            ["50", "62"],
        ),
        ("fallout/firefight.toml", "pools.group_ap=0,4", ["0", "4"]),
    ] {
        let out = t.path().join(rel.replace(['/', '.'], "_"));
        let rows = sweep(rel, vary, &out);
        let listed = figures(rel, t.path());
        // Both points, the same figures at each, every name one `figures` lists.
        let at = |v: &str| -> Vec<(String, String)> {
            rows.iter()
                .filter(|r| r.0 == v)
                .map(|r| (r.1.clone(), r.2.clone()))
                .collect()
        };
        assert!(!at(values[0]).is_empty(), "{rel}");
        assert_eq!(at(values[0]), at(values[1]), "{rel}");
        for (_, figure, _, _) in &rows {
            assert!(
                listed.contains(&format!("    {figure} ")),
                "{rel}: {figure}"
            );
        }
        // Monte Carlo figures carry intervals; at least one moved with the varied value.
        assert!(
            rows.iter().any(|r| {
                rows.iter()
                    .any(|s| s.0 != r.0 && s.1 == r.1 && s.2 == r.2 && s.3 != r.3)
            }),
            "{rel}: nothing moved"
        );
    }
}

/// An entry of an array of tables, by its name: a Nephilim `[[fighter]]`, a 2d20
/// `[[combatant]]`, a Trinités `[[group]]` (audit of 2026-12-08: each said "unknown field
/// `Fencer`"). The varied value reaches the fight: a figure moves.
#[test]
fn sweep_varies_a_fighter_combatant_or_group_by_its_name() {
    let t = tempfile::tempdir().unwrap();
    for (rel, vary, values) in [
        ("nephilim/duel.toml", "Fencer.initiative=-4,8", ["-4", "8"]),
        ("fallout/firefight.toml", "Dweller.tn=6,16", ["6", "16"]),
        (
            "trinites/skirmish.toml",
            "bretteur.attack=0,12",
            ["0", "12"],
        ),
    ] {
        let out = t.path().join(rel.replace(['/', '.'], "_"));
        let rows = sweep(rel, vary, &out);
        let at =
            |v: &str| -> Vec<&String> { rows.iter().filter(|r| r.0 == v).map(|r| &r.3).collect() };
        assert!(!at(values[0]).is_empty(), "{rel}");
        assert_ne!(at(values[0]), at(values[1]), "{rel}: nothing moved");
    }
}

#[test]
fn tune_accepts_the_sweeps_names_and_a_wrong_name_lists_the_closest() {
    let t = tempfile::tempdir().unwrap();
    let rows = sweep(
        "nephilim/duel.toml",
        "duel.max_rounds=5,10",
        &t.path().join("sw"),
    );
    let (_, figure, place, _) = rows
        .iter()
        .find(|r| !r.2.is_empty() && r.1.ends_with("share"))
        .or_else(|| rows.first())
        .unwrap()
        .clone();
    let file = scenario("nephilim/duel.toml");
    let mut args = vec![
        "-q",
        "tune",
        file.to_str().unwrap(),
        "--vary",
        "duel.max_rounds=1..30",
        "--figure",
        &figure,
        "--target",
        "0.5",
        "--first-trials",
        "2000",
        "--max-trials",
        "4000",
        "--out",
        "tuned",
    ];
    for w in place.split(' ').filter(|w| !w.is_empty()) {
        args.extend(["--where", w]);
    }
    let o = cosmosim(&args, t.path());
    assert!(
        o.status.success(),
        "{figure} {place}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    // One letter off: refused (exit 2) with the right name among the closest.
    let typo = format!("{}x", figure);
    args[6] = &typo;
    let o = cosmosim(&args, t.path());
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("closest") && e.contains(&format!("`{figure}`")),
        "{e}"
    );
}

/// Issue 23 item 3: the short headline names are aliases of the same figure in every
/// command: `p_win_<side>` (or `p_<outcome>`) is the outcome table's share of that row.
#[test]
fn headline_aliases_read_the_same_figure_as_its_full_name() {
    let t = tempfile::tempdir().unwrap();
    let duel = scenario("cosmos/duel.toml");
    let tune = |figure: &str, wheres: &[&str], out: &str| {
        let mut args = vec![
            "-q",
            "tune",
            duel.to_str().unwrap(),
            "--vary",
            "aldric.hp=100..200",
            "--figure",
            figure,
            "--target",
            "0.5",
            "--first-trials",
            "2000",
            "--max-trials",
            "4000",
            "--out",
            out,
        ];
        for w in wheres {
            args.extend(["--where", w]);
        }
        let o = cosmosim(&args, t.path());
        assert!(
            o.status.success(),
            "{figure}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        std::fs::read_to_string(t.path().join(out).join("tune.csv")).unwrap()
    };
    let full = tune("combat-sides.share", &["outcome=defensive"], "full");
    assert_eq!(tune("p_win_defensive", &[], "alias"), full);
    assert_eq!(tune("p_defensive", &[], "short"), full);
    // In an expectations file too, for another rulebook's outcome table.
    std::fs::copy(scenario("nephilim/duel.toml"), t.path().join("duel.toml")).unwrap();
    std::fs::write(
        t.path().join("e.toml"),
        "title = \"aliases\"\n\n[[expect]]\nname = \"undecided is rare\"\nscenario = \"duel.toml\"\n\
         figure = \"p_undecided\"\nbetween = [0.0, 0.5]\ntrials = 2000\n",
    )
    .unwrap();
    let o = cosmosim(&["-q", "expect", "e.toml", "--out", "x"], t.path());
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// Issue 27 item 2: a sweep's headline follows the figure it is asked about (`--figure`,
/// `--where`, aliases included), its default folder is named after the scenario and the
/// varied key, and an unknown figure is refused with the closest names before the grid
/// runs on.
#[test]
fn a_sweeps_headline_follows_the_asked_figure_and_its_folder_the_key() {
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join("scenarios/cosmos")).unwrap();
    std::fs::copy(
        scenario("cosmos/duel.toml"),
        t.path().join("scenarios/cosmos/duel.toml"),
    )
    .unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "-q",
            "sweep",
            "scenarios/cosmos/duel.toml",
            "--vary",
            "aldric.hp=100,150",
            "--trials",
            "2000",
        ];
        args.extend_from_slice(extra);
        cosmosim(&args, t.path())
    };
    let summary = || {
        std::fs::read_to_string(
            t.path()
                .join("reports/cosmos/duel/sweep-aldric.hp/summary.md"),
        )
        .unwrap()
    };
    // Default: the first figure of the first output, every row (the side shares).
    let o = run(&[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let plain = summary();
    assert!(
        plain.contains("combat-sides.share \\[outcome=defensive\\]: from"),
        "{plain}"
    );
    assert!(
        plain.contains("combat-sides.share \\[outcome=round_cap\\]: from"),
        "{plain}"
    );
    // One row by name and where, and by its alias: the same headline, that row alone.
    let o = run(&[
        "--figure",
        "combat-sides.share",
        "--where",
        "outcome=offensive",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let focused = summary();
    let lines: Vec<&str> = focused.lines().filter(|l| l.contains(": from ")).collect();
    assert_eq!(lines.len(), 1, "{focused}");
    assert!(
        lines[0].starts_with("- combat-sides.share \\[outcome=offensive\\]: from"),
        "{focused}"
    );
    // The lower HP of the Offensive swordsman gives his lowest win rate.
    assert!(lines[0].contains("(aldric.hp=100) to"), "{focused}");
    let o = run(&["--figure", "p_offensive"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(summary(), focused);
    // Another output's figure leads when asked.
    let o = run(&[
        "--figure",
        "combat-combatants.p_down",
        "--where",
        "combatant=brune",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let down = summary();
    assert!(
        down.contains("- combat-combatants.p_down \\[combatant=brune\\]: from"),
        "{down}"
    );
    assert!(!down.contains("- combat-sides.share"), "{down}");
    // A column without an interval cannot lead: it is not a figure sweep can decide.
    let o = run(&["--figure", "combat-sides.mean_rounds"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    // A mistyped figure: exit 2, the closest names, and the last good set untouched.
    let o = run(&["--figure", "combat-sides.shar"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("closest: `combat-sides.share`"), "{err}");
    assert_eq!(summary(), down);
    let o = run(&[
        "--figure",
        "combat-sides.share",
        "--where",
        "outcome=nobody",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("nobody_standing"), "{err}");
}

/// Audit of 2026-12-07, evening: the summary read "from <lowest> to <highest>" whatever
/// the order of the values swept, so a win rate that falls as the foe's HP grows read as
/// rising. It now goes from the first value swept to the last, in both languages; with
/// two values, no lowest/highest is added.
#[test]
fn a_sweeps_summary_goes_from_the_first_value_to_the_last() {
    let t = tempfile::tempdir().unwrap();
    for (lang, from) in [("en", ": from "), ("fr", " : de ")] {
        let out = t.path().join(lang);
        let o = cosmosim(
            &[
                "sweep",
                scenario("cosmos/duel.toml").to_str().unwrap(),
                "--vary",
                "brune.hp=100,150",
                "--trials",
                "4000",
                "--figure",
                "p_offensive",
                "--lang",
                lang,
                "--quiet",
                "--out",
                out.to_str().unwrap(),
            ],
            t.path(),
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
        let line = summary
            .lines()
            .find(|l| l.contains(from))
            .unwrap_or_else(|| panic!("{summary}"));
        // Aldric (Offensive) wins less as Brune has more HP: his share falls along the
        // sweep, and the line follows the HP as given (it read from 150 to 100).
        let at100 = line
            .find("(brune.hp=100)")
            .unwrap_or_else(|| panic!("{line}"));
        let at150 = line
            .find("(brune.hp=150)")
            .unwrap_or_else(|| panic!("{line}"));
        assert!(at100 < at150, "{line}");
        assert!(
            !line.contains("lowest") && !line.contains("plus bas"),
            "{line}"
        );
    }
}
