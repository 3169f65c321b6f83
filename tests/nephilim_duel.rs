//! Nephilim duels (N-INIT, N-TEST, N-OPP, N-HEALTH): round-1 segments and the first
//! exchange against exact values, health checks, determinism and located errors.

mod common;

use std::path::Path;

use assert_cmd::Command;
use cosmosim::engine::{Engine, Progress};
use cosmosim::rules::RuleOptions;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::nephilim::duel::{load, DuelSim, A_WINS, BOTH_OUT};
use cosmosim::systems::nephilim::{p_earlier_segment, NephilimRules};

use common::cli::check_and_run_error;

fn cosmosim() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// A duel file: A (initiative 3, attack 2, defence 2) against B (0, 1, 1), weapons 9
/// (any hit kills), each field overridable by `key = value` lines in `a` / `b`.
fn text(a: &str, b: &str, duel: &str) -> String {
    let fighter = |name: &str, base: &[(&str, &str)], over: &str| {
        let mut out = format!("[[fighter]]\nname = \"{name}\"\n");
        let over: Vec<(&str, &str)> = over.lines().filter_map(|l| l.split_once(" = ")).collect();
        for (k, v) in base {
            if !over.iter().any(|(ok, _)| ok == k) {
                out += &format!("{k} = {v}\n");
            }
        }
        for (k, v) in &over {
            out += &format!("{k} = {v}\n");
        }
        out
    };
    let base_a = [
        ("initiative", "3"),
        ("attack", "2"),
        ("defence", "2"),
        ("weapon", "9"),
        ("constitution", "0"),
        ("ka", "0"),
    ];
    let base_b = [
        ("initiative", "0"),
        ("attack", "1"),
        ("defence", "1"),
        ("weapon", "9"),
        ("constitution", "0"),
        ("ka", "0"),
    ];
    format!(
        "system = \"nephilim\"\nkind = \"duel\"\n[duel]\n{duel}\n{}{}",
        fighter("A", &base_a, a),
        fighter("B", &base_b, b)
    )
}

fn run(t: &str, opts: &[&str], n: u64) -> cosmosim::systems::nephilim::duel::DuelAcc {
    let (_, model) = load(&ScenarioFile::from_text(
        "d.toml",
        t,
        cosmosim::lang::Lang::En,
    ))
    .unwrap();
    let rules = NephilimRules::from_options(
        &RuleOptions::from_pairs(opts, cosmosim::lang::Lang::En).unwrap(),
    );
    let actions = [model.fighters[0].actions, model.fighters[1].actions];
    Engine::new(3, 2).unwrap().run(
        &DuelSim::new(model, &rules, actions),
        &cosmosim::engine::StreamKey::new("test").int("task", 0),
        n,
        &Progress::hidden(),
    )
}

fn within(k: u64, n: u64, p: f64) -> bool {
    let f = k as f64 / n as f64;
    (f - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt() + 1e-12
}

#[test]
fn round1_earlier_segment_matches_exact_n_init_under_both_readings() {
    // N-INIT: P(A in an earlier segment) by the option's segment width, for every value
    // the registry allows (read through the options API, whatever the default reading).
    let spec = cosmosim::systems::nephilim::OPTIONS
        .iter()
        .find(|o| o.key == "init_segment")
        .unwrap();
    let cosmosim::rules::Allowed::OneOf(values) = spec.allowed else {
        panic!("init_segment takes one of a list of values")
    };
    for v in values {
        let opt = format!("init_segment={v}");
        let rules = NephilimRules::from_options(
            &RuleOptions::from_pairs(&[opt.as_str()], cosmosim::lang::Lang::En).unwrap(),
        );
        let n = 200_000;
        let acc = run(&text("", "", "max_rounds = 1"), &[opt.as_str()], n);
        let want = p_earlier_segment(3, &rules);
        assert!(
            within(acc.fighters[0].earlier_round1, n, want),
            "{opt}: {} vs {want}",
            acc.fighters[0].earlier_round1
        );
    }
}

#[test]
fn one_round_knockout_matches_exact() {
    // Weapon 9 kills on any hit (N-HEALTH: 9 wound boxes). Defences off, one round, one
    // action each: both attack in their segment; A wins iff A hits and (B misses or B's
    // action comes in a later segment). Exact over the +1D-1D distributions.
    let t = text(
        "defence_kind = \"none\"",
        "defence_kind = \"none\"",
        "max_rounds = 1",
    );
    let n = 300_000;
    let acc = run(&t, &[], n);
    let rules = NephilimRules::default();
    let roll = rules.die.roll_dist();
    let p_hit = |score: i64| roll.prob_where(|r| score + r >= 0);
    let (ha, hb) = (p_hit(2), p_hit(1));
    let p_earlier_a = p_earlier_segment(3, &rules);
    // Same segment: simultaneous blows; A earlier: B never acts if A hits.
    let p_a_wins = p_earlier_a * ha + (1.0 - p_earlier_a) * ha * (1.0 - hb);
    let p_both = (1.0 - p_earlier_a) * ha * hb;
    assert!(
        within(acc.outcomes.counts[A_WINS], n, p_a_wins),
        "{} vs {p_a_wins}",
        acc.outcomes.counts[A_WINS]
    );
    assert!(within(acc.outcomes.counts[BOTH_OUT], n, p_both));
}

#[test]
fn parry_needs_the_same_segment() {
    // N-INIT: "il n'est possible d'esquiver ou de parer un coup que si on peut agir dans
    // le même segment". B far slower never defends in round 1; every attack it defends
    // is from a shared segment.
    let t = text("initiative = 12", "initiative = -12", "max_rounds = 1");
    let acc = run(&t, &[], 50_000);
    assert_eq!(acc.fighters[1].defences, 0);
    assert!(acc.fighters[0].attacks > 0);
}

#[test]
fn exhaustion_and_incapacity_checks_take_fighters_out() {
    // N-HEALTH: starting at fatigue 8 with Ka -4 the exhaustion check (Ka + 1D - 1D >= 0)
    // fails unless the roll is +4: P(stay) = 1/36 per round.
    let t = text(
        "fatigue = 8\nka = -4\nweapon = 0\nattack = -12",
        "weapon = 0\nattack = -12",
        "max_rounds = 1\nmargin_damage = false",
    );
    let (_, m) = load(&ScenarioFile::from_text(
        "d.toml",
        &t,
        cosmosim::lang::Lang::En,
    ))
    .unwrap_or_else(|e| panic!("{e}\n{t}"));
    assert_eq!(m.fighters[0].ka, -4);
    let n = 100_000;
    let acc = run(&t, &[], n);
    assert!(
        within(acc.fighters[0].unconscious, n, 35.0 / 36.0),
        "{}",
        acc.fighters[0].unconscious
    );
}

#[test]
fn extra_actions_cost_fatigue() {
    // N-INIT + the house reading `nephilim_extra_action_cost = malus_and_fatigue` (issue 25:
    // the book's only cost is the -4, so by default no box): each extra action ticks one
    // fatigue box a round.
    let t = text(
        "actions = 3\nweapon = 0",
        "weapon = 0",
        "max_rounds = 2\nmargin_damage = false",
    );
    let n = 10_000;
    assert_eq!(run(&t, &[], n).fighters[0].fatigue_end, 0);
    let acc = run(&t, &["nephilim_extra_action_cost=malus_and_fatigue"], n);
    assert_eq!(
        acc.fighters[0].fatigue_end,
        4 * n,
        "two rounds x two extra actions"
    );
    assert_eq!(acc.fighters[1].fatigue_end, 0);
}

#[test]
fn cli_duel_runs_identically_across_threads() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/nephilim/duel.toml");
    cosmosim().arg("check").arg(&file).assert().success();
    let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    for (dir, threads) in [(&a, "1"), (&b, "2")] {
        cosmosim()
            .args(["-q", "run"])
            .arg(&file)
            .args(["--trials", "70000", "--threads", threads, "--out"])
            .arg(dir.path())
            .assert()
            .success();
    }
    for f in [
        "summary.md",
        "duel-outcome.csv",
        "duel-rounds.csv",
        "duel-fighters.csv",
        "duel-actions.csv",
    ] {
        assert_eq!(read(&a.path().join(f)), read(&b.path().join(f)), "{f}");
    }
    let s = read(&a.path().join("summary.md"));
    assert!(
        s.contains("## Answers (70000 duels, 95% intervals)\n\n- the faster fighter Fencer"),
        "{s}"
    );
    assert!(a.path().join("duel-actions.png").exists());
}

#[test]
fn located_errors() {
    let e = check_and_run_error(&text("actions = 4", "", ""));
    assert!(
        e.contains("fighter[0].actions") && e.contains("1..3"),
        "{e}"
    );
    let e = check_and_run_error(&text("delay = \"later\"", "", ""));
    assert!(
        e.contains("fighter[0].delay") && e.contains("\"to_meet\""),
        "{e}"
    );
    let e = check_and_run_error(&text("", "defence_kind = \"block\"", ""));
    assert!(e.contains("fighter[1].defence_kind"), "{e}");
    let e = check_and_run_error(&text("", "", "max_rounds = 101"));
    assert!(e.contains("duel.max_rounds") && e.contains("1..100"), "{e}");
    let e = check_and_run_error(&text("", "", "").replace("kind = \"duel\"", "kind = \"war\""));
    assert!(e.contains("key `kind`") && e.contains("\"duel\""), "{e}");
    let e = check_and_run_error(&(text("", "", "") + "[[fighter]]\nname = \"C\"\ninitiative = 0\nattack = 0\ndefence = 0\nweapon = 1\nconstitution = 0\nka = 0\n"));
    assert!(e.contains("exactly 2"), "{e}");
}
