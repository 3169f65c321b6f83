//! `cosmosim tune` (issue 12): answers checked against the exact table and against an
//! independent run at the answer.

use std::fs;

use assert_cmd::Command;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

/// P(success) at karma 0 is (threshold - 10)/100 below 42 (C-TEST: 11..threshold, the
/// 1..10 band being crits); 0.305 lies between 40 (0.30) and 41 (0.31), as the exact
/// table says.
#[test]
fn tuning_an_exact_table_reads_the_table() {
    let d = tempfile::tempdir().unwrap();
    bin()
        .args([
            "tune",
            "table",
            "cosmos-test",
            "--vary",
            "thresholds=20..85",
            "--figure",
            "p_success",
            "--param",
            "karma=0",
            "--target",
            "0.305",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("t"))
        .assert()
        .success();
    let md = fs::read_to_string(d.path().join("t/tune.md")).unwrap();
    assert!(
        md.contains("between thresholds = 40 (0.300000) and thresholds = 41 (0.310000) (exact)."),
        "{md}"
    );
    // Nothing was sampled: no trials, confidence or seed is claimed.
    assert!(md.contains("points read from the exact table"), "{md}");
    assert!(
        !md.contains("trials in all") && !md.contains("confidence"),
        "{md}"
    );
    let meta = fs::read_to_string(d.path().join("t/tune.meta.json")).unwrap();
    assert!(meta.contains("\"method\": \"exact\""), "{meta}");
    assert!(
        !meta.contains("\"seed\"") && !meta.contains("confidence"),
        "{meta}"
    );
    // The same two cells of the exact table.
    bin()
        .args([
            "table",
            "cosmos-test",
            "--thresholds",
            "40,41",
            "--karma",
            "0",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("e"))
        .assert()
        .success();
    let rows = csv_rows(&fs::read_to_string(d.path().join("e/cosmos-test.csv")).unwrap());
    let col = rows[0].iter().position(|c| c == "p_success").unwrap();
    assert_eq!(rows[1][col], "0.3000000000");
    assert_eq!(rows[2][col], "0.3100000000");
    let tune = fs::read_to_string(d.path().join("t/tune.csv")).unwrap();
    assert!(
        tune.starts_with("value,figure,figure_lo,figure_hi,trials,decided\n"),
        "{tune}"
    );
    assert!(d.path().join("t/tune.png").exists());
    // An exact hit is said as such.
    bin()
        .args([
            "tune",
            "table",
            "cosmos-test",
            "--vary",
            "thresholds=20..85",
            "--figure",
            "p_success",
            "--param",
            "karma=0",
            "--target",
            "0.39",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("h"))
        .assert()
        .success();
    let md = fs::read_to_string(d.path().join("h/tune.md")).unwrap();
    assert!(
        md.contains("p_success equals 0.39 at thresholds = 50."),
        "{md}"
    );
}

/// The duel's Offensive win rate grows with Aldric's HP. The answer brackets 0.5; an
/// independent `run` at each bracket value lands on its side of 0.5.
#[test]
fn tuning_a_monotone_scenario_figure_is_confirmed_by_independent_runs() {
    let d = tempfile::tempdir().unwrap();
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");
    bin()
        .args([
            "tune",
            duel,
            "--vary",
            "aldric.hp=50..400",
            "--figure",
            "combat-sides.share",
            "--where",
            "outcome=offensive",
            "--target",
            "0.5",
            "--within",
            "0.02",
            "--first-trials",
            "8192",
            "--max-trials",
            "262144",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("t"))
        .assert()
        .success();
    let md = fs::read_to_string(d.path().join("t/tune.md")).unwrap();
    // Issue 26 item 6: the trials reported are every trial run: each point's looks double
    // from 8192 to its last (2 x last - 8192 in all), plus the first check of the low end.
    let points = csv_rows(&fs::read_to_string(d.path().join("t/tune.csv")).unwrap());
    let col = points[0].iter().position(|c| c == "trials").unwrap();
    let looks: u64 = points[1..]
        .iter()
        .map(|r| 2 * r[col].parse::<u64>().unwrap() - 8192)
        .sum();
    let meta = fs::read_to_string(d.path().join("t/tune.meta.json")).unwrap();
    assert!(
        meta.contains(&format!("\"trials\": {},", looks + 8192)),
        "{looks} + 8192 expected in {meta}"
    );
    let line = md.lines().find(|l| l.starts_with("**")).unwrap();
    // "... within ±0.02 of 0.5 at aldric.hp = N: ..."
    let hp: i64 = line
        .split("aldric.hp = ")
        .nth(1)
        .and_then(|r| r.split(':').next())
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("{line}"));
    let text = fs::read_to_string(duel)
        .unwrap()
        .replacen("hp = 150", &format!("hp = {hp}"), 1);
    fs::write(d.path().join("at.toml"), text).unwrap();
    bin()
        .args([
            "run", "at.toml", "--trials", "200000", "--quiet", "--out", "r",
        ])
        .current_dir(d.path())
        .assert()
        .success();
    let rows = csv_rows(&fs::read_to_string(d.path().join("r/combat-sides.csv")).unwrap());
    let share = rows[0].iter().position(|c| c == "share").unwrap();
    let off = rows.iter().find(|r| r[0] == "offensive").unwrap();
    let p: f64 = off[share].parse().unwrap();
    // Within the asked ±0.02, plus the run's own 95% half-width (~0.0022).
    assert!((p - 0.5).abs() <= 0.02 + 0.003, "{p} at hp {hp}");
}

#[test]
fn bad_tune_requests_exit_2_with_a_message() {
    let d = tempfile::tempdir().unwrap();
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "tune",
                duel,
                "--vary",
                "aldric.hp",
                "--figure",
                "x",
                "--target",
                "1",
            ],
            "expected KEY=LO..HI",
        ),
        (
            vec![
                "tune",
                duel,
                "--vary",
                "aldric.hp=50..400",
                "--figure",
                "combat-sides.nope",
                "--where",
                "outcome=offensive",
                "--target",
                "0.5",
            ],
            "has no column `nope`",
        ),
        (
            vec![
                "tune",
                duel,
                "--vary",
                "aldric.hpx=50..400",
                "--figure",
                "combat-sides.share",
                "--where",
                "outcome=offensive",
                "--target",
                "0.5",
            ],
            "hpx",
        ),
        (
            vec![
                "tune",
                duel,
                "--vary",
                "aldric.mode=1..2",
                "--figure",
                "combat-sides.share",
                "--where",
                "outcome=offensive",
                "--target",
                "0.5",
            ],
            "mode",
        ),
        (
            vec![
                "tune",
                "table",
                "cosmos-test",
                "--vary",
                "thresholds=20..85",
                "--figure",
                "p_success",
                "--target",
                "0.3",
            ],
            "rows of `cosmos-test` match",
        ),
    ];
    for (args, needle) in cases {
        let out = bin()
            .args(&args)
            .arg("--out")
            .arg(d.path().join("x"))
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
    }
    // Out of range: said plainly, exit 0 (an answer, not an error).
    bin()
        .args([
            "tune",
            "table",
            "cosmos-test",
            "--vary",
            "thresholds=20..30",
            "--figure",
            "p_success",
            "--param",
            "karma=0",
            "--target",
            "0.6",
            "--quiet",
            "--out",
        ])
        .arg(d.path().join("n"))
        .assert()
        .success();
    let md = fs::read_to_string(d.path().join("n/tune.md")).unwrap();
    assert!(
        md.contains("does not reach 0.6 on [20, 30] at any of its values"),
        "{md}"
    );
}

/// Audit of 2026-12-07: with both ends on one side of the target, `tune` said "never
/// reaches ... max -0.2 at 30" though the exact Aura table (face 3, karma 0) has -0.19
/// inside the range. It now reads every whole value of a short exact range and finds the
/// first crossing, and says the figure does not move one way there.
#[test]
fn tune_finds_a_crossing_between_two_ends_on_one_side() {
    let d = tempfile::tempdir().unwrap();
    let tune = |target: &str, out: &str| {
        bin()
            .args([
                "tune",
                "table",
                "cosmos-aura",
                "--vary",
                "thresholds=30..80",
                "--figure",
                "delta_success",
                "--where",
                "edition=current",
                "--where",
                "face=3",
                "--param",
                "karma=0",
                "--target",
                target,
                "--quiet",
                "--out",
            ])
            .arg(d.path().join(out))
            .assert()
            .success();
        fs::read_to_string(d.path().join(out).join("tune.md")).unwrap()
    };
    let md = tune("-0.192", "hump");
    assert!(md.contains("reaches -0.192 between thresholds = "), "{md}");
    assert!(md.contains("does not move one way with the key"), "{md}");
    // Every point in the table was one the tool read (its CSV), the ends first.
    let csv = fs::read_to_string(d.path().join("hump/tune.csv")).unwrap();
    assert!(csv.lines().count() > 3, "{csv}");
    let md = tune("-0.1", "none");
    assert!(
        md.contains("does not reach -0.1 on [30, 80] at any of its values"),
        "{md}"
    );
}

/// Issue 27 item 3: without `--out`, tune and optimise write beside the scenario's own
/// outputs, one folder per key (`reports/<scenario>/tune-<key>/`), so a second tune of
/// another key overwrites nothing; the answer names the row it tuned.
#[test]
fn tune_and_optimise_default_to_a_folder_per_scenario_and_key() {
    let d = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cosmos/duel.toml"
    ))
    .unwrap();
    fs::create_dir_all(d.path().join("scenarios/mine")).unwrap();
    fs::write(d.path().join("scenarios/mine/duel.toml"), text).unwrap();
    for vary in ["aldric.hp=50..400", "brune.hp=50..400"] {
        bin()
            .args([
                "tune",
                "scenarios/mine/duel.toml",
                "--vary",
                vary,
                "--figure",
                "combat-sides.share",
                "--where",
                "outcome=offensive",
                "--target",
                "0.5",
                "--within",
                "0.05",
                "--first-trials",
                "4096",
                "--max-trials",
                "16384",
                "--quiet",
            ])
            .current_dir(d.path())
            .assert()
            .success();
    }
    for key in ["aldric.hp", "brune.hp"] {
        let md = fs::read_to_string(
            d.path()
                .join(format!("reports/mine/duel/tune-{key}/tune.md")),
        )
        .unwrap();
        assert!(
            md.contains("combat-sides.share (outcome=offensive)"),
            "{md}"
        );
        // Every outcome at the answer, not only the tuned one.
        assert!(md.contains("## Every row at the answer"), "{md}");
        for row in [
            "outcome = offensive: ",
            "outcome = defensive: ",
            "outcome = round_cap: ",
        ] {
            assert!(md.contains(row), "{row} missing in {md}");
        }
    }
    bin()
        .args([
            "optimise",
            "scenarios/mine/duel.toml",
            "--vary",
            "aldric.hp=140,160",
            "--maximise",
            "combat-sides.share",
            "--where",
            "outcome=offensive",
            "--first-trials",
            "2048",
            "--max-trials",
            "4096",
            "--quiet",
        ])
        .current_dir(d.path())
        .assert()
        .success();
    let md = fs::read_to_string(
        d.path()
            .join("reports/mine/duel/optimise-aldric.hp/optimise.md"),
    )
    .unwrap();
    assert!(md.contains("outcome = defensive: "), "{md}");
}

/// Issue 27 item 3: `tune --write FILE` writes the scenario with the tuned value set in
/// place (comments and order kept, one header line), the file passes `check`, and a run
/// of it reproduces the tuned figure.
#[test]
fn tune_write_sets_the_answer_in_the_file() {
    let d = tempfile::tempdir().unwrap();
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");
    fs::copy(duel, d.path().join("duel.toml")).unwrap();
    let tune = |file: &str, out: &str| {
        bin()
            .args([
                "tune",
                file,
                "--vary",
                "aldric.hp=50..400",
                "--figure",
                "combat-sides.share",
                "--where",
                "outcome=offensive",
                "--target",
                "0.5",
                "--within",
                "0.03",
                "--first-trials",
                "8192",
                "--max-trials",
                "65536",
                "--quiet",
                "--out",
                out,
                "--write",
                "tuned.toml",
            ])
            .current_dir(d.path())
            .assert()
            .success();
    };
    tune("duel.toml", "t");
    let before = fs::read_to_string(d.path().join("duel.toml")).unwrap();
    let after = fs::read_to_string(d.path().join("tuned.toml")).unwrap();
    let first = after.lines().next().unwrap();
    assert!(
        first.starts_with("# tuned by cosmosim") && first.contains("aldric.hp = "),
        "{first}"
    );
    let hp: i64 = first
        .split("aldric.hp = ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap();
    // Every other line is the file's own, in order, comments included.
    let expected = before.replacen("hp = 150", &format!("hp = {hp}"), 1);
    assert_eq!(
        after.lines().skip(1).collect::<Vec<_>>(),
        expected.lines().collect::<Vec<_>>()
    );
    bin()
        .args(["check", "tuned.toml"])
        .current_dir(d.path())
        .assert()
        .success();
    // Tuning the written file again replaces the header line instead of adding one.
    tune("tuned.toml", "t2");
    let again = fs::read_to_string(d.path().join("tuned.toml")).unwrap();
    assert_eq!(again.matches("# tuned by cosmosim").count(), 1);
    bin()
        .args([
            "run",
            "tuned.toml",
            "--trials",
            "100000",
            "--quiet",
            "--out",
            "r",
        ])
        .current_dir(d.path())
        .assert()
        .success();
    let rows = csv_rows(&fs::read_to_string(d.path().join("r/combat-sides.csv")).unwrap());
    let share = rows[0].iter().position(|c| c == "share").unwrap();
    let p: f64 = rows.iter().find(|r| r[0] == "offensive").unwrap()[share]
        .parse()
        .unwrap();
    assert!((p - 0.5).abs() <= 0.03 + 0.004, "{p} at hp {hp}");
    // A table has no file to write.
    let o = bin()
        .args([
            "tune",
            "table",
            "cosmos-test",
            "--vary",
            "thresholds=20..85",
            "--figure",
            "p_success",
            "--param",
            "karma=0",
            "--target",
            "0.305",
            "--quiet",
            "--write",
            "x.toml",
        ])
        .current_dir(d.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
}

/// Audit of 2026-12-07 afternoon (commands item 3): `--write` with a key the file does not
/// write (it takes a default) was refused only after the whole tune had run and written
/// its folder; it is refused before any trial now, and nothing is written.
#[test]
fn tune_write_refuses_an_unwritable_key_before_any_work() {
    let d = tempfile::tempdir().unwrap();
    let duel = concat!(env!("CARGO_MANIFEST_DIR"), "/scenarios/cosmos/duel.toml");
    fs::copy(duel, d.path().join("duel.toml")).unwrap();
    let o = bin()
        .args([
            "tune",
            "duel.toml",
            "--vary",
            "aldric.armour.flat=0..10",
            "--figure",
            "combat-sides.share",
            "--where",
            "outcome=offensive",
            "--target",
            "0.5",
            "--quiet",
            "--out",
            "t",
            "--write",
            "tuned.toml",
        ])
        .current_dir(d.path())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("does not write `aldric.armour.flat`"), "{err}");
    assert!(
        !d.path().join("t").exists(),
        "the tune ran before the refusal"
    );
    assert!(!d.path().join("tuned.toml").exists());
}
