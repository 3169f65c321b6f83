//! Trinités: hand-computed probabilities, exact vs Monte Carlo, determinism, CLI runs and
//! scenario validation errors (T-TEST, T-DUAL, T-CONF, T-LIFE, T-COMBAT).

use std::path::Path;

use assert_cmd::Command;
use cosmosim::context::Context;
use cosmosim::engine::stream;
use cosmosim::rules::RuleOptions;
use cosmosim::systems::trinites::duel::{fight, Combat, DuelEnd, Fighter, Penalty, Prime, RegenAt};
use cosmosim::systems::trinites::tables::{conf_mc, test_cell_mc, ConfCell};
use cosmosim::systems::trinites::{
    confront, kept_dist, side_dist, DualKeep, TrinitesRules, EXPLODE_DEPTH, TARGET,
};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

fn ctx(threads: usize) -> Context {
    Context::new(
        7,
        threads,
        RuleOptions::default(),
        true,
        cosmosim::lang::Lang::En,
    )
    .unwrap()
}

/// |p̂ - p| <= 5·sqrt(p(1-p)/n): fails by chance with probability < 1e-6 per check.
fn within(hits: u64, n: u64, p: f64) -> bool {
    let ph = hits as f64 / n as f64;
    (ph - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-12
}

// ---------------------------------------------------------------- hand-computed (T-TEST)

#[test]
fn single_d12_by_hand() {
    let k = kept_dist(false, 0, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
    // +11: everything but the natural 1 (T-TEST) = 11/12.
    assert!(close(k.p_success(11), 11.0 / 12.0));
    // 0: only a natural 12, rolled again and added (12 + anything >= 13) = 1/12.
    assert!(close(k.p_success(0), 1.0 / 12.0));
    // +12: still 11/12, the natural 1 fails whatever the modifier.
    assert!(close(k.p_success(12), 11.0 / 12.0));
    // +4: naturals 8..12 = 5/12.
    assert!(close(k.p_success(4), 5.0 / 12.0));
}

#[test]
fn dual_by_hand() {
    // T-DUAL at 0: fails only if both dice fail: 1 - (11/12)² = 23/144.
    let k = kept_dist(true, 0, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
    assert!(close(k.p_success(0), 23.0 / 144.0));
    // Deva kept iff deva >= archonte (ties prefer the Deva): (1 + P(tie)) / 2 with
    // P(tie) = Σ p² = 11/144 · 1/(1 - 1/144) = 1/13, so 7/13 at every modifier.
    assert!(close(k.p_deva_kept(), 7.0 / 13.0));
    let k = kept_dist(true, 6, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
    assert!(close(k.p_success(6), 1.0 - 25.0 / 144.0));
}

#[test]
fn confrontation_by_hand() {
    // T-CONF, both at 0 with one d12: each succeeds only on an exploded 12 (1/12).
    // A wins: A succeeds and B fails (11/144), or both succeed and A's total is strictly
    // higher: 1/144 · P(X > Y) = 1/144 · (1 - 1/13)/2. Ties go to B.
    let a = side_dist(false, 0, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
    let o = confront(&a, &a);
    assert!(close(o.a_wins, 11.0 / 144.0 + 6.0 / 13.0 / 144.0));
    assert!(close(o.b_wins, 11.0 / 144.0 + 7.0 / 13.0 / 144.0));
    assert!(close(o.nobody, 121.0 / 144.0));
    // A Trinité at +6 vs a human at 0: nobody = P(both A dice fail)·P(B fails).
    let a = side_dist(true, 6, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
    let b = side_dist(false, 0, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
    assert!(close(confront(&a, &b).nobody, 25.0 / 144.0 * 11.0 / 12.0));
}

#[test]
fn truncation_is_negligible() {
    let k = kept_dist(true, 0, DualKeep::Highest, TARGET, EXPLODE_DEPTH);
    assert!(k.truncated_mass < 2e-14, "{}", k.truncated_mass);
    // A deeper explosion changes no success probability.
    for m in -12..=12 {
        let deep = kept_dist(true, m, DualKeep::Highest, TARGET, EXPLODE_DEPTH + 4);
        assert!(close(
            deep.p_success(m),
            kept_dist(true, m, DualKeep::Highest, TARGET, EXPLODE_DEPTH).p_success(m)
        ));
    }
}

// ----------------------------------------------------------------- exact vs Monte Carlo

#[test]
fn test_table_exact_matches_monte_carlo() {
    let ctx = ctx(2);
    let n = 200_000;
    for keep in ["highest", "deva_if_success"] {
        let rules = TrinitesRules::from_options(
            &RuleOptions::from_pairs(
                &[format!("trinites_dual_keep={keep}")],
                cosmosim::lang::Lang::En,
            )
            .unwrap(),
        );
        for m in [-12, -3, 0, 5, 11] {
            for dual in [false, true] {
                let k = kept_dist(dual, m, rules.dual_keep, TARGET, EXPLODE_DEPTH);
                let c = test_cell_mc(m, dual, &rules, &ctx, n);
                assert!(
                    within(c.counts[0] + c.counts[1], n, k.p_success(m)),
                    "{keep} {m} {dual}"
                );
                assert!(
                    within(c.counts[0] + c.counts[2], n, k.p_deva_kept()),
                    "{keep} {m} {dual}"
                );
            }
        }
    }
}

#[test]
fn confrontation_exact_matches_monte_carlo() {
    let ctx = ctx(2);
    let rules = TrinitesRules::default();
    let n = 200_000;
    for (ma, mb, da, db) in [
        (0, 0, false, false),
        (6, 3, true, false),
        (3, 6, false, true),
        (-3, 9, true, true),
    ] {
        let cell = ConfCell {
            modifier_a: ma,
            modifier_b: mb,
            dual_a: da,
            dual_b: db,
        };
        let e = confront(
            &side_dist(da, ma, rules.dual_keep, TARGET, EXPLODE_DEPTH),
            &side_dist(db, mb, rules.dual_keep, TARGET, EXPLODE_DEPTH),
        );
        let c = conf_mc(cell, &rules, &ctx, n);
        assert!(within(c.counts[0], n, e.a_wins), "{cell:?}");
        assert!(within(c.counts[1], n, e.b_wins), "{cell:?}");
        assert!(within(c.counts[2], n, e.nobody), "{cell:?}");
    }
}

// ------------------------------------------------------------------------ duel mechanics

fn fighter(attack: i64, damage: i64, sword: bool) -> Fighter {
    Fighter {
        rapidite: 3,
        attack,
        reaction: 4,
        initiative_difficulty: 0,
        damage,
        sword,
        protection: 1,
        attacks_per_turn: 1,
        prime: Prime::None,
        penalty: Penalty::None,
    }
}

fn combat(humans: Fighter, count: usize) -> Combat {
    Combat {
        adam: fighter(6, 4, true),
        humans,
        count,
        light: 8,
        dark: 4,
        regenerate_at: RegenAt::Blesse,
        max_rounds: 30,
        strike_unconscious: true,
    }
}

fn wins(c: &Combat, pair: (Prime, Penalty), n: u64) -> u64 {
    let rules = TrinitesRules::default();
    let mut rng = stream(3, 0, 0);
    (0..n)
        .filter(|_| fight(c, pair, &rules, &mut rng).end == DuelEnd::AdamWins)
        .count() as u64
}

#[test]
fn harmless_humans_always_lose() {
    // Damage 1 against protection 1 never ticks a box.
    let c = combat(fighter(5, 1, false), 3);
    assert_eq!(wins(&c, (Prime::None, Penalty::None), 2_000), 2_000);
}

#[test]
fn halved_twice_a_four_point_sword_does_nothing_through_protection_one() {
    // Attaques multiples then Blessure légère: 4 -> 2 -> 1, minus protection 1 = 0.
    let c = combat(fighter(5, 3, false), 2);
    assert_eq!(
        wins(
            &c,
            (Prime::AttaquesMultiples, Penalty::BlessureLegere),
            2_000
        ),
        0
    );
}

#[test]
fn swords_hurt_trinites_more() {
    // VIE ET MORT: the same 4-point weapon, doubled when it is a sword.
    let n = 20_000;
    let club = wins(
        &combat(fighter(5, 4, false), 2),
        (Prime::None, Penalty::None),
        n,
    );
    let sword = wins(
        &combat(fighter(5, 4, true), 2),
        (Prime::None, Penalty::None),
        n,
    );
    assert!(sword + 1_000 < club, "sword {sword} club {club}");
}

// -------------------------------------------------------------------------------- CLI

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn header(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .next()
        .unwrap()
        .to_string()
}

#[test]
fn cli_tables_write_the_contract_columns() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path();
    bin()
        .args(["-q", "table", "trinites-test", "--out"])
        .arg(out)
        .assert()
        .success();
    assert_eq!(
        header(&out.join("trinites-test.csv")),
        "modifier,dual,p_success,p_deva_kept,p_success_retry"
    );
    let csv = std::fs::read_to_string(out.join("trinites-test.csv")).unwrap();
    assert_eq!(csv.lines().count(), 1 + 25 * 2);
    // +11 single: 11/12; with one retry at +8 (naturals 4..12): 11/12 + 1/12 · 9/12 = 141/144.
    assert!(
        csv.contains("\n11,false,0.9166666667,,0.9791666667\n"),
        "{csv}"
    );
    // 0 dual: 23/144, Deva kept 7/13. The retry at -3 needs a natural of 15+ (12 then 3..12,
    // or more): 10/144 per die, so 1 - (134/144)² with two dice (T-RETRY, T-DUAL).
    let p = 23.0 / 144.0;
    let q = 1.0 - (134.0f64 / 144.0).powi(2);
    let row = format!(
        "\n0,true,0.1597222222,0.5384615385,{:.10}\n",
        p + (1.0 - p) * q
    );
    assert!(csv.contains(&row), "{csv}");
    assert!(out.join("trinites-test.png").exists());
    let meta = std::fs::read_to_string(out.join("trinites-test.meta.json")).unwrap();
    assert!(
        meta.contains("\"explode_depth\": \"12\"") && meta.contains("truncated_mass"),
        "{meta}"
    );

    bin()
        .args([
            "-q",
            "table",
            "trinites-confrontation",
            "--modifiers-a",
            "0,6",
            "--modifiers-b",
            "0",
            "--out",
        ])
        .arg(out)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("trinites-confrontation.csv")).unwrap();
    assert_eq!(
        csv.lines().next().unwrap(),
        "modifier_a,modifier_b,dual_a,dual_b,p_a_wins,p_b_wins,p_nobody"
    );
    assert_eq!(csv.lines().count(), 1 + 2 * 4);
    assert!(out.join("trinites-confrontation.png").exists());
}

#[test]
fn cli_rejects_bad_flags_with_exit_2() {
    bin()
        .args(["table", "trinites-test", "--modifiers", "-40..0"])
        .assert()
        .code(2);
    bin()
        .args([
            "table",
            "trinites-test",
            "--option",
            "trinites_dual_keep=lowest",
        ])
        .assert()
        .code(2)
        .stderr(predicates::str::contains("highest | deva_if_success"));
}

#[test]
fn mc_outputs_are_identical_across_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    let run = |threads: &str, sub: &str| {
        let out = dir.path().join(sub);
        bin()
            .args([
                "-q",
                "table",
                "trinites-test",
                "--method",
                "mc",
                "--trials",
                "70000",
                "--modifiers",
                "0,6",
            ])
            .args(["--threads", threads, "--out"])
            .arg(&out)
            .assert()
            .success();
        bin()
            .args([
                "-q",
                "run",
                "scenarios/trinites/duel.toml",
                "--trials",
                "1500",
                "--threads",
                threads,
                "--out",
            ])
            .arg(&out)
            .assert()
            .success();
        out
    };
    let a = run("1", "a");
    let b = run("2", "b");
    for f in [
        "trinites-test-mc.csv",
        "trinites-duel-pairs.csv",
        "trinites-duel-rounds.csv",
        "summary.md",
    ] {
        let x = std::fs::read(a.join(f)).unwrap();
        let y = std::fs::read(b.join(f)).unwrap();
        assert!(!x.is_empty() && x == y, "{f} differs across --threads");
    }
}

#[test]
fn shipped_duel_checks_and_runs() {
    bin()
        .args(["check", "scenarios/trinites/duel.toml"])
        .assert()
        .success();
    let dir = tempfile::tempdir().unwrap();
    bin()
        .args([
            "-q",
            "run",
            "scenarios/trinites/duel.toml",
            "--trials",
            "800",
            "--out",
        ])
        .arg(dir.path())
        .assert()
        .success();
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    let answers = summary.split("## Answers").nth(1).unwrap();
    assert!(
        answers
            .trim_start()
            .starts_with("- The Adam' (none/none) beats 2 human(s)"),
        "{summary}"
    );
    assert!(answers.contains("95% CI"));
    let pairs = std::fs::read_to_string(dir.path().join("trinites-duel-pairs.csv")).unwrap();
    // none/none plus 8 primes × 6 pénalités.
    assert_eq!(pairs.lines().count(), 1 + 1 + 48);
    assert!(pairs.starts_with("prime,penalty,trials,p_adam_wins,p_adam_wins_lo,p_adam_wins_hi,"));
    for f in [
        "trinites-duel-pairs.png",
        "trinites-duel-rounds.png",
        "trinites-duel-rounds.csv",
    ] {
        assert!(dir.path().join(f).exists(), "{f}");
    }
}

// ------------------------------------------------------------------ validation errors

const GOOD: &str = r#"system = "trinites"

[[weapons]]
name = "epee"
damage = 4
sword = true

[adam]
rapidite = 5
attack = 6
reaction = 6
weapon = "epee"
deva_karma = 6
archonte_karma = 4
pairs = [["none", "none"], ["efficacite", "difficulte"]]

[humans]
count = 2
rapidite = 3
attack = 5
reaction = 4
weapon = "epee"
"#;

/// Runs `check` on `text` and returns stderr (exit code must be 2).
fn check_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.toml");
    std::fs::write(&path, text).unwrap();
    let out = bin()
        .current_dir(dir.path())
        .args(["check", "bad.toml"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr)
        .unwrap()
        .trim_end()
        .to_string()
}

#[test]
fn good_file_passes_check() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("good.toml");
    std::fs::write(&path, GOOD).unwrap();
    bin().arg("check").arg(&path).assert().success();
}

#[test]
fn golden_undefined_weapon() {
    let e = check_error(&GOOD.replacen("weapon = \"epee\"\ndeva", "weapon = \"katana\"\ndeva", 1));
    assert_eq!(
        e,
        "error: bad.toml:12:10: key `adam.weapon`: undefined weapon \"katana\"; allowed: a [[weapons]] name: \"epee\""
    );
}

#[test]
fn golden_out_of_range() {
    let e = check_error(&GOOD.replace("count = 2", "count = 12"));
    assert_eq!(
        e,
        "error: bad.toml:18:9: key `humans.count`: 12 is out of range; allowed: 1..8"
    );
    let e = check_error(&GOOD.replace("deva_karma = 6", "deva_karma = 13"));
    assert_eq!(
        e,
        "error: bad.toml:13:14: key `adam.deva_karma`: 13 is out of range; allowed: 0..12"
    );
}

#[test]
fn golden_unknown_key() {
    let e = check_error(&GOOD.replace("rapidite = 5", "rapidite = 5\nspeed = 2"));
    assert_eq!(
        e,
        "error: bad.toml:10:1: key `adam.speed`: unknown field `speed`, expected one of `rapidite`, `attack`, `reaction`, `initiative_difficulty`, `weapon`, `protection`, `attacks_per_turn`, `deva_karma`, `archonte_karma`, `regenerate_at`, `pairs`"
    );
}

#[test]
fn golden_wrong_type() {
    let e = check_error(&GOOD.replace("attack = 6", "attack = \"six\""));
    assert!(
        e.starts_with("error: bad.toml:10:10: key `adam.attack`:"),
        "{e}"
    );
}

#[test]
fn golden_bad_pairs() {
    let e = check_error(&GOOD.replace(
        "[\"efficacite\", \"difficulte\"]",
        "[\"efficacite\", \"none\"]",
    ));
    assert_eq!(
        e,
        "error: bad.toml:15:28: key `adam.pairs[1]`: prime \"efficacite\" with pénalité \"none\": a prime needs a pénalité and no prime allows none; allowed: both \"none\", or a prime with a pénalité"
    );
    let e = check_error(&GOOD.replace("\"difficulte\"", "\"abandon_position\""));
    assert!(
        e.contains(
            "key `adam.pairs[1]`: pénalité \"abandon_position\" needs an advantageous position"
        ),
        "{e}"
    );
    let e = check_error(&GOOD.replace("\"efficacite\"", "\"coup_de_maitre\""));
    assert!(
        e.contains("unknown prime \"coup_de_maitre\"; allowed: none, acceleration,"),
        "{e}"
    );
}

#[test]
fn golden_bad_rule_option() {
    let e = check_error(&format!(
        "{GOOD}\n[rules]\ntrinites_regen_action = \"unique\"\n"
    ));
    assert_eq!(
        e,
        "error: bad.toml:25:25: key `rules.trinites_regen_action`: rule option `trinites_regen_action` = `unique` is not allowed; allowed: libre | gratuite (decision T-COMBAT)"
    );
}
