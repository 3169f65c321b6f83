//! 2d20 (Fallout) system: hand-computed values, exact vs Monte Carlo, determinism, CLI
//! runs and scenario validation errors (F-TEST, F-AP, F-HELP, F-LUCK).

use std::path::Path;

use assert_cmd::Command;
use cosmosim::context::Context;
use cosmosim::engine::Progress;
use cosmosim::lang::Lang;
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::fallout::scenario::{ApEconomy, ApSim};
use cosmosim::systems::fallout::tables::{test_grid_mc, TestCell};
use cosmosim::systems::fallout::{helped_dist, luck_odds, odds, pool_dist, DieSpec, Shortfall};

const TOL: f64 = 1e-12;

fn cell(tn: u8, difficulty: u8, dice: u8, tag_rank: u8, complication: u8) -> TestCell {
    TestCell {
        tn,
        difficulty,
        dice,
        tag_rank,
        complication,
        crit_face: 1,
        complication_from: 20,
    }
}

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

// ---------------------------------------------------------------- hand-computed (F-TEST)

#[test]
fn tn10_difficulty1_two_dice_by_hand() {
    let o = cell(10, 1, 2, 0, 1).exact(Lang::En).unwrap();
    // Fail only if both dice exceed 10.
    assert!((o.p_pass - (1.0 - 0.5f64 * 0.5)).abs() < TOL);
    // Per die E[S] = 2*0.05 + 1*0.45 = 0.55; E[max(S-1,0)] = E[S] - 1 + P(S=0).
    assert!((o.mean_ap - (1.1 - 1.0 + 0.25)).abs() < TOL, "{o:?}");
    // Complication on a 20 only.
    assert!((o.p_complication - (1.0 - 0.95f64 * 0.95)).abs() < TOL);
}

#[test]
fn tag_rank_doubles_low_dice_by_hand() {
    // TN 10, tag rank 4: per die P(2) = 4/20, P(1) = 6/20. Difficulty 3 needs 2+2 or 2+1.
    let o = cell(10, 3, 2, 4, 1).exact(Lang::En).unwrap();
    assert!(
        (o.p_pass - (0.2 * 0.2 + 2.0 * 0.2 * 0.3)).abs() < TOL,
        "{o:?}"
    );
    // Without the tag only 1+1 crits reach 3... and 1 + (2..10): 0.05^2 + 2 * 0.05 * 0.45.
    let plain = cell(10, 3, 2, 0, 1).exact(Lang::En).unwrap();
    assert!((plain.p_pass - (0.05 * 0.05 + 2.0 * 0.05 * 0.45)).abs() < TOL);
}

#[test]
fn complication_range_by_hand() {
    // Range 3 = complication on 18-20: P(none on 3 dice) = (17/20)^3.
    let o = cell(12, 2, 3, 0, 3).exact(Lang::En).unwrap();
    assert!((o.p_complication - (1.0 - 0.85f64.powi(3))).abs() < TOL);
    // At TN 19 an 18 or 19 is both a success and a complication.
    let hi = cell(19, 3, 2, 0, 3).exact(Lang::En).unwrap();
    assert!(
        (hi.p_pass - (0.05 * 0.05 + 2.0 * 0.05 * 0.9)).abs() < TOL,
        "{hi:?}"
    );
}

#[test]
fn difficulty_zero_always_passes_and_every_success_is_ap() {
    let o = cell(7, 0, 4, 2, 1).exact(Lang::En).unwrap();
    assert!((o.p_pass - 1.0).abs() < TOL);
    // E[S] per die: 2 * 2/20 + 5/20.
    assert!((o.mean_ap - 4.0 * (0.2 + 0.25)).abs() < TOL);
}

#[test]
fn help_by_hand() {
    // F-HELP. Leader and helper TN 10, difficulty 2, 2d20: leader S >= 2 (0.30) passes;
    // leader S = 1 (0.45) passes if the helper scores (0.5); leader S = 0 fails.
    let s = DieSpec::new(Lang::En, 10, 0, 1).unwrap();
    let o = odds(&helped_dist(&s, 2, &s), 2);
    assert!((o.p_pass - (0.30 + 0.45 * 0.5)).abs() < TOL, "{o:?}");
    assert!((odds(&pool_dist(&s, 2), 2).p_pass - 0.30).abs() < TOL);
    // The helper's 20 is a complication too.
    assert!((o.p_complication - (1.0 - 0.95f64.powi(3))).abs() < TOL);
}

#[test]
fn luck_by_hand() {
    // F-LUCK, reroll a zero-success die on a failure. TN 10, difficulty 2, 2d20:
    // 0.30 + P(S=1, one zero die) 0.45 * P(reroll <= 10) 0.5 + P(S=0) 0.25 * P(reroll = 1) 0.05.
    let s = DieSpec::new(Lang::En, 10, 0, 1).unwrap();
    let l = luck_odds(&s, 2, 2);
    assert!(
        (l.p_pass - (0.30 + 0.45 * 0.5 + 0.25 * 0.05)).abs() < TOL,
        "{l:?}"
    );
    assert!((l.p_spent - 0.70).abs() < TOL);
}

// ---------------------------------------------------------------- exact vs Monte Carlo

#[test]
fn exact_and_monte_carlo_agree() {
    // |p_hat - p| <= 5 sqrt(p(1-p)/n) for each probability; 5 standard errors for E[AP].
    let cells = [
        cell(10, 1, 2, 0, 1),
        cell(10, 3, 2, 4, 1),
        cell(6, 2, 5, 6, 5),
        cell(19, 4, 3, 0, 3),
        cell(14, 0, 4, 2, 2),
    ];
    let n = 300_000u64;
    let ctx = Context::new(7, 2, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap();
    let mc = test_grid_mc(&cells, &ctx, n).unwrap();
    for (c, a) in cells.iter().zip(&mc) {
        let e = c.exact(Lang::En).unwrap();
        let bound = |p: f64| 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-9;
        assert!(
            (a.p_pass() - e.p_pass).abs() <= bound(e.p_pass),
            "{c:?} pass {} vs {}",
            a.p_pass(),
            e.p_pass
        );
        assert!(
            (a.p_complication() - e.p_complication).abs() <= bound(e.p_complication),
            "{c:?}"
        );
        let (lo, hi) = a.mean_ap_interval();
        let se = (hi - lo) / (2.0 * 1.96);
        assert!(
            (a.mean_ap() - e.mean_ap).abs() <= 5.0 * se + 1e-9,
            "{c:?} ap {} vs {}",
            a.mean_ap(),
            e.mean_ap
        );
        assert_eq!(a.trials, n);
    }
}

#[test]
fn monte_carlo_is_the_same_whatever_the_threads() {
    let cells = [cell(12, 2, 3, 2, 1)];
    let one = test_grid_mc(
        &cells,
        &Context::new(3, 1, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap(),
        200_000,
    )
    .unwrap();
    let two = test_grid_mc(
        &cells,
        &Context::new(3, 2, RuleOptions::default(), true, cosmosim::lang::Lang::En).unwrap(),
        200_000,
    )
    .unwrap();
    assert_eq!(one, two);
}

// ---------------------------------------------------------------- scenario (F-AP)

fn scenario(text: &str) -> ApEconomy {
    ApEconomy::from_file(&ScenarioFile::from_text(
        "s.toml",
        text,
        cosmosim::lang::Lang::En,
    ))
    .unwrap()
    .0
}

fn run_sim(
    m: &ApEconomy,
    shortfall: Shortfall,
    n: u64,
) -> cosmosim::systems::fallout::scenario::ApAcc {
    let engine = cosmosim::engine::Engine::new(11, 2).unwrap();
    engine.run(
        &ApSim::new(m, shortfall),
        &cosmosim::engine::StreamKey::new("test").int("task", 0),
        n,
        &Progress::hidden(),
    )
}

#[test]
fn never_buying_passes_at_the_exact_two_dice_rate() {
    let m = scenario(
        "system = \"fallout\"\n[policy]\nbuy = \"never\"\n[[test]]\ntn = 10\ndifficulty = 1\n[[test]]\ntn = 8\ndifficulty = 2\ntag_rank = 2\n",
    );
    let n = 200_000;
    let acc = run_sim(&m, Shortfall::Split, n);
    for (step, a) in m.steps.iter().zip(&acc.steps) {
        let p = step.p_pass[0];
        let p_hat = a.pass as f64 / n as f64;
        assert!(
            (p_hat - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt(),
            "{p_hat} vs {p}"
        );
        assert_eq!(a.bonus_dice, 0);
    }
    assert!((m.steps[0].p_pass[0] - 0.75).abs() < TOL);
}

#[test]
fn dice_bought_without_ap_feed_the_mj() {
    // F-AP: one bonus die, empty pool: every sequence gives the MJ exactly 1 AP, and the
    // test passes at the exact 3-dice rate.
    let m = scenario(
        "system = \"fallout\"\n[policy]\nbuy = \"always\"\nmax_bonus = 1\ngive_mj_ap = true\n[[test]]\ntn = 9\ndifficulty = 2\n",
    );
    let n = 100_000;
    let acc = run_sim(&m, Shortfall::Split, n);
    assert_eq!(acc.steps[0].mj_sum, n);
    assert_eq!(acc.steps[0].bonus_dice, n);
    let p = m.steps[0].p_pass[1];
    let p_hat = acc.steps[0].pass as f64 / n as f64;
    assert!((p_hat - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt());
}

#[test]
fn shortfall_option_changes_who_pays() {
    // Pool 2, two bonus dice (1 + 2 AP): split takes 1 then the last 1 AP and gives the MJ
    // 1; whole_die keeps that 1 AP and gives the MJ the whole 2.
    let m = scenario(
        "system = \"fallout\"\n[start]\ngroup_ap = 2\n[policy]\nbuy = \"always\"\nmax_bonus = 2\ngive_mj_ap = true\n[[test]]\ntn = 2\ndifficulty = 5\n",
    );
    let n = 10_000;
    let split = run_sim(&m, Shortfall::Split, n);
    let whole = run_sim(&m, Shortfall::WholeDie, n);
    assert_eq!(split.steps[0].mj_sum, n);
    assert_eq!(whole.steps[0].mj_sum, 2 * n);
    // Same seed, same 4 dice: identical rolls, so whole_die ends exactly 1 AP richer per
    // sequence (at most 8 - 5 = 3 AP earned: the cap never bites).
    assert_eq!(split.steps[0].pass, whole.steps[0].pass);
    assert_eq!(whole.steps[0].pool_sum, split.steps[0].pool_sum + n);
}

#[test]
fn pool_is_capped_at_six() {
    // TN 20, tag rank 6, difficulty 0, 2d20: 2 to 4 AP per test (each die 2 successes
    // w.p. 0.3, else 1); three tests earn 7.8 on average, the pool never exceeds 6.
    let m = scenario("system = \"fallout\"\n[policy]\nbuy = \"never\"\n[[test]]\ntn = 20\ndifficulty = 0\ntag_rank = 6\nrepeat = 3\n");
    let n = 50_000;
    let acc = run_sim(&m, Shortfall::Split, n);
    let last = acc.steps[2];
    assert!(last.pool_sum <= 6 * n);
    assert!(last.ap_lost > 0);
    // Nothing is spent, so every AP earned is in the pool or lost: the total matches the
    // exact E[AP] within 5 standard deviations (variance per sequence 6 * 0.21 = 1.26).
    let earned: f64 =
        3.0 * odds(&pool_dist(&DieSpec::new(Lang::En, 20, 6, 1).unwrap(), 2), 0).mean_ap * n as f64;
    assert!((earned / n as f64 - 7.8).abs() < TOL);
    let kept_or_lost = (last.pool_sum + acc.steps.iter().map(|a| a.ap_lost).sum::<u64>()) as f64;
    assert!(
        (kept_or_lost - earned).abs() <= 5.0 * (1.26 * n as f64).sqrt(),
        "{kept_or_lost} vs {earned}"
    );
}

// ---------------------------------------------------------------- CLI

#[test]
fn cli_fallout_test_writes_the_exact_table() {
    let dir = tempfile::tempdir().unwrap();
    cosmosim()
        .args([
            "-q",
            "table",
            "fallout-test",
            "--tn",
            "9..11",
            "--difficulty",
            "1,2",
            "--dice",
            "2,3",
            "--tag-rank",
            "0,4",
        ])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let csv = read(&dir.path().join("fallout-test.csv"));
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("tn,difficulty,dice,tag_rank,p_pass,mean_ap,p_complication")
    );
    assert!(
        csv.contains("\n10,1,2,0,0.7500000000,0.3500000000,0.0975000000\n"),
        "{csv}"
    );
    assert_eq!(csv.lines().count(), 1 + 3 * 2 * 2 * 2);
    assert!(dir.path().join("fallout-test.png").exists());
    assert!(dir.path().join("fallout-test-tag-ap.png").exists());
    assert!(read(&dir.path().join("fallout-test.meta.json")).contains("\"method\": \"exact\""));
}

#[test]
fn cli_complication_flag_is_validated() {
    let dir = tempfile::tempdir().unwrap();
    cosmosim()
        .args(["-q", "table", "fallout-test", "--complication", "6"])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("--complication"));
    cosmosim()
        .args(["-q", "table", "fallout-test", "--tn", "1..20"])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("allowed values: 2..20"));
}

#[test]
fn cli_mc_is_byte_identical_across_threads() {
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        cosmosim()
            .args([
                "-q",
                "table",
                "fallout-test",
                "--tn",
                "8,12",
                "--difficulty",
                "2",
                "--dice",
                "2..3",
                "--tag-rank",
                "0",
            ])
            .args([
                "--method",
                "mc",
                "--trials",
                "70000",
                "--threads",
                threads,
                "--seed",
                "5",
            ])
            .arg("--out")
            .arg(dir.path())
            .assert()
            .success();
    }
    // Monte Carlo tables are published as <name>-mc.csv (issue 8).
    let csv = read(&a.path().join("fallout-test-mc.csv"));
    assert_eq!(csv, read(&b.path().join("fallout-test-mc.csv")));
    assert!(csv.starts_with("tn,difficulty,dice,tag_rank,p_pass,mean_ap,p_complication,trials,p_pass_lo,p_pass_hi,mean_ap_lo,mean_ap_hi,p_complication_lo,p_complication_hi\n"), "{csv}");
}

#[test]
fn cli_help_and_luck_tables() {
    let dir = tempfile::tempdir().unwrap();
    cosmosim()
        .args([
            "-q",
            "table",
            "fallout-help",
            "--tn",
            "10",
            "--helper-tn",
            "10",
            "--difficulty",
            "2",
            "--dice",
            "2",
        ])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let csv = read(&dir.path().join("fallout-help.csv"));
    assert!(csv.starts_with("tn,helper_tn,difficulty,dice,p_pass_alone,p_pass_helped,gain,mean_ap_alone,mean_ap_helped,p_complication_alone,p_complication_helped\n10,10,2,2,0.3000000000,0.5250000000,0.2250000000,"), "{csv}");
    cosmosim()
        .args([
            "-q",
            "table",
            "fallout-luck",
            "--tn",
            "10",
            "--difficulty",
            "2",
            "--dice",
            "2",
            "--tag-rank",
            "0",
        ])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let csv = read(&dir.path().join("fallout-luck.csv"));
    assert!(csv.starts_with("tn,difficulty,dice,tag_rank,p_pass,p_pass_luck,gain,mean_ap,mean_ap_luck,p_spent,p_saved_if_spent\n10,2,2,0,0.3000000000,0.5375000000,0.2375000000,"), "{csv}");
    assert!(
        dir.path().join("fallout-luck.png").exists()
            && dir.path().join("fallout-help.png").exists()
    );
}

#[test]
fn cli_shipped_scenario_checks_and_runs_identically_across_threads() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/fallout/ap-economy.toml");
    cosmosim()
        .arg("check")
        .arg(&file)
        .assert()
        .success()
        .stdout(predicates::str::contains("ok"));
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        cosmosim()
            .args(["-q", "run"])
            .arg(&file)
            .args(["--trials", "70000", "--threads", threads])
            .arg("--out")
            .arg(dir.path())
            .assert()
            .success();
    }
    let summary = read(&a.path().join("summary.md"));
    assert_eq!(summary, read(&b.path().join("summary.md")));
    assert_eq!(
        read(&a.path().join("ap-flow.csv")),
        read(&b.path().join("ap-flow.csv"))
    );
    assert!(summary.starts_with("# 2d20 AP economy"), "{summary}");
    assert!(
        summary.contains("## Answers\n\n- mean pass rate"),
        "{summary}"
    );
    assert!(a.path().join("ap-flow.png").exists());
}

// ---------------------------------------------------------------- scenario errors

const GOOD: &str = "system = \"fallout\"\n[policy]\nbuy = \"below\"\nbelow = 0.7\n[[test]]\ntn = 10\ndifficulty = 2\n";

/// Runs `check` and `run` on a bad file: both exit 2 with the same message.
fn bad(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let out = cosmosim()
        .arg("check")
        .arg(&path)
        .assert()
        .code(2)
        .get_output()
        .stderr
        .clone();
    cosmosim()
        .args(["-q", "run"])
        .arg(&path)
        .arg("--out")
        .arg(dir.path().join("o"))
        .assert()
        .code(2);
    String::from_utf8(out)
        .unwrap()
        .replace(&path.display().to_string(), "bad.toml")
}

#[test]
fn good_file_checks() {
    assert!(ApEconomy::from_file(&ScenarioFile::from_text(
        "s.toml",
        GOOD,
        cosmosim::lang::Lang::En
    ))
    .is_ok());
}

#[test]
fn error_unknown_key() {
    let e = bad(&GOOD.replace("difficulty = 2", "difficulty = 2\ndificulty = 3"));
    assert_eq!(
        e,
        "error: bad.toml:8:1: key `test[0].dificulty`: unknown field `dificulty`, expected one of `name`, `tn`, `difficulty`, `tag_rank`, `complication`, `repeat` (did you mean `difficulty`?)\n"
    );
}

#[test]
fn error_tn_out_of_range() {
    let e = bad(&GOOD.replace("tn = 10", "tn = 25"));
    assert_eq!(
        e,
        "error: bad.toml:6:6: key `test[0].tn`: target number 25 is out of range; allowed: 2..20\n"
    );
}

#[test]
fn error_difficulty_out_of_range() {
    let e = bad(&GOOD.replace("difficulty = 2", "difficulty = 6"));
    assert_eq!(e, "error: bad.toml:7:14: key `test[0].difficulty`: difficulty 6 is out of range; allowed: 0..5\n");
}

#[test]
fn error_tag_rank_above_tn() {
    let e = bad(&GOOD.replace("tn = 10", "tn = 4\ntag_rank = 5"));
    assert_eq!(
        e,
        "error: bad.toml:7:12: key `test[0].tag_rank`: tag rank 5 is out of range; allowed: 0..4\n"
    );
}

#[test]
fn error_bad_policy() {
    let e = bad(&GOOD.replace("buy = \"below\"", "buy = \"sometimes\""));
    assert_eq!(e, "error: bad.toml:3:7: key `policy.buy`: unknown buying policy \"sometimes\"; allowed: \"never\", \"always\", \"below\"\n");
    let e = bad(&GOOD.replace("below = 0.7", "below = 1.5"));
    assert_eq!(e, "error: bad.toml:4:9: key `policy.below`: 1.5 is not a probability; allowed: a number from 0 to 1\n");
    let e = bad(&GOOD.replace("below = 0.7\n", ""));
    assert_eq!(e, "error: bad.toml:2:1: key `policy.below`: missing key `below` for buy = \"below\"; allowed: a number from 0 to 1\n");
    let e = bad(&GOOD.replace("below = 0.7", "below = 0.7\nmax_bonus = 4"));
    assert_eq!(e, "error: bad.toml:5:13: key `policy.max_bonus`: bonus dice 4 is out of range; allowed: 0..3\n");
}

#[test]
fn error_bad_rule_option() {
    let e = bad(&format!(
        "{GOOD}[rules]\nfallout_ap_shortfall = \"never\"\n"
    ));
    assert!(
        e.starts_with("error: bad.toml:9:24: key `rules.fallout_ap_shortfall`:"),
        "{e}"
    );
    assert!(e.contains("split | whole_die"), "{e}");
}

#[test]
fn cli_rule_option_is_listed_and_recorded() {
    cosmosim()
        .arg("options")
        .assert()
        .success()
        .stdout(predicates::str::contains("fallout_ap_shortfall"));
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/fallout/ap-economy.toml");
    let dir = tempfile::tempdir().unwrap();
    cosmosim()
        .args(["-q", "run"])
        .arg(&file)
        .args([
            "--trials",
            "1000",
            "--option",
            "fallout_ap_shortfall=whole_die",
        ])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .success();
    let meta = read(&dir.path().join("ap-flow.meta.json"));
    assert!(
        meta.contains("\"fallout_ap_shortfall\": \"whole_die\""),
        "{meta}"
    );
    assert!(read(&dir.path().join("summary.md")).contains("fallout_ap_shortfall=whole_die"));
    cosmosim()
        .args(["-q", "run"])
        .arg(&file)
        .args(["--option", "fallout_ap_shortfall=half"])
        .arg("--out")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("split | whole_die"));
}
