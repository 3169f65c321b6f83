//! Great Cosmos combat, support actions and policy rules (issue 9 items 3, 4, 11): heals,
//! buffs/debuffs (house actions), concentrate (C-FAT-5), rules read first match wins for
//! points (C-LD-2), Final Skill (C-LD-4), mode (C-CMB-1) and actions. Exact values where a
//! small case has one (a heal that always lands, a rule that fires at round N); Monte
//! Carlo within 5 sigma of the exact test distribution otherwise (C-TEST-2, karma 0: the
//! tests checked are each combatant's first). Validation messages, boss-fight golden CSVs.

mod common;

use assert_cmd::Command;

use common::combat::{agrees, run_text};

use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::combat::{defence_stops, load};
use cosmosim::systems::cosmos::{Outcome, TestRules, TestSpec};

const N: u64 = 20_000;

/// A hero (level 3, agilite 60, acts first, never defends) against `foe` (agilite 40).
/// `defs` adds `[attacks.*]`/`[support.*]` tables; `hero` holds the hero's extra keys,
/// then optionally `@policy` and its policy keys (rules as `[[...rules]]` tables after).
fn scenario(defs: &str, hero: &str, foe: &str, extra: &str) -> String {
    let defs = format!("[attacks.kill]\nstat = \"force\"\ndamage = \"1000\"\n\n{defs}");
    common::combat::scenario(&defs, hero, foe, extra)
}

/// The exact outcome distribution of a test at `t` with `m` points, karma 0 (C-TEST-1/2).
fn exact(t: f64, m: f64) -> cosmosim::dice::Dist<Outcome> {
    let r = TestRules::default();
    let spec = TestSpec::new(t, 0).unwrap();
    let spec = if m == 0.0 {
        spec
    } else {
        spec.with_modifier(m, r.percent_mode)
    };
    spec.exact(&r)
}

fn p_hit(t: f64, m: f64) -> f64 {
    exact(t, m).prob_where(|o| o.is_success())
}

// Fighters are in name order: foe (0), hero (1); sides: foes (0), heroes (1).
const FOE: usize = 0;
const HERO: usize = 1;

const HEAL10: &str = "[support.cure]\nkind = \"heal\"\nheal = \"10\"\ntarget = \"self\"\n";

#[test]
fn a_heal_that_always_lands_restores_its_dice_up_to_max_hp() {
    // Start at 50 HP, a harmless foe, heal 10 every turn for 3 rounds: 80 HP, 30 healed.
    // From 95 HP the first heal stops at 100 and then nobody is wounded: the hero attacks.
    for (start, end, healed, actions) in [(50u64, 80u64, 30u64, 3u64), (95, 100, 5, 3)] {
        let text = scenario(
            HEAL10,
            &format!(
                "hp_start = {start}\nattacks = [\"tickle\"]\n@policy\n[[combatants.hero.policy.rules]]\nuse = \"cure\""
            ),
            "hp = 100\nattacks = [\"tickle\"]",
            "[combat]\nmax_rounds = 3",
        );
        let (_, acc) = run_text(&text, 2000);
        let h = &acc.fighters[HERO];
        assert_eq!(h.hp_end.sum, end * 2000, "start {start}");
        assert_eq!(h.support.healed, healed * 2000, "start {start}");
        assert_eq!(h.actions, actions * 2000, "start {start}");
        assert_eq!(h.support.heals, if start == 50 { 3 } else { 1 } * 2000);
    }
}

#[test]
fn a_rule_fires_exactly_at_its_round_and_all_any_combine() {
    // Heal 10 from 50 HP, 4 rounds, under each condition: HP at end is exact.
    let cases = [
        ("{ round = 2 }", 60u64),
        ("{ round_at_least = 2 }", 80),
        ("{ any = [{ round = 1 }, { round = 3 }] }", 70),
        // Round 2: 50 < 55 heals to 60; then 60 >= 55: no more.
        (
            "{ all = [{ round_at_least = 2 }, { own_hp_below = 0.55 }] }",
            60,
        ),
        ("{ round_at_least = 2, own_hp_below = 0.65 }", 70),
    ];
    for (when, end) in cases {
        let text = scenario(
            HEAL10,
            &format!(
                "hp_start = 50\nattacks = [\"tickle\"]\n@policy\n[[combatants.hero.policy.rules]]\nwhen = {when}\nuse = \"cure\""
            ),
            "hp = 100\nattacks = [\"tickle\"]",
            "[combat]\nmax_rounds = 4",
        );
        let (_, acc) = run_text(&text, 1000);
        assert_eq!(acc.fighters[HERO].hp_end.sum, end * 1000, "{when}");
    }
}

#[test]
fn a_heal_with_a_test_lands_at_the_exact_chance() {
    // One round, heal 10 on an Esprit 50 success: healed / 10 ~ P(success at 50).
    let text = scenario(
        &format!("{HEAL10}stat = \"esprit\"\n"),
        "hp_start = 50\nattacks = [\"tickle\"]\n@policy\n[[combatants.hero.policy.rules]]\nuse = \"cure\"",
        "hp = 100\nattacks = [\"tickle\"]",
        "[combat]\nmax_rounds = 1",
    );
    let (_, acc) = run_text(&text, N);
    let s = &acc.fighters[HERO].support;
    assert_eq!(s.used, N);
    agrees(s.healed / 10, N, p_hit(50.0, 0.0));
    assert_eq!(s.healed / 10 + s.failed, N);
}

#[test]
fn a_test_buff_then_an_attack_in_the_same_round_matches_the_exact_chance() {
    // Two actions before the foe (60 - (4+d6) > 40): bless itself (+20), then kill on a
    // foe that never defends: P(foe down in round 1) = P(success at 60 + 20).
    let text = scenario(
        "[support.bless]\nkind = \"buff\"\nmodifier = 20\n",
        "actions = 2\nattacks = [\"kill\"]\n@policy\n[[combatants.hero.policy.rules]]\nuse = \"bless\"",
        "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    );
    let (_, acc) = run_text(&text, N);
    agrees(acc.fighters[FOE].down, N, p_hit(60.0, 20.0));
    assert_eq!(acc.fighters[HERO].support.effects, N);
}

#[test]
fn a_damage_multiplier_scales_the_hit_before_the_floor() {
    // x0.99 on a 100-damage hit against 100 HP: 99 leaves the foe standing; only a crit or
    // super success (x1.5 / x2 first) downs it: P = P(crit or better at 60).
    let text = scenario(
        "[attacks.club]\nstat = \"force\"\ndamage = \"100\"\n\n[support.weaken]\nkind = \"buff\"\ndamage_mult = 0.99\n",
        "actions = 2\nattacks = [\"club\"]\n@policy\n[[combatants.hero.policy.rules]]\nuse = \"weaken\"",
        "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    );
    let (_, acc) = run_text(&text, N);
    let p = exact(60.0, 0.0).prob_where(|o| o.tier() >= 2);
    agrees(acc.fighters[FOE].down, N, p);
}

#[test]
fn a_debuff_on_the_enemy_lowers_its_defence() {
    // Hex the foe (-30 on its tests), then kill: the foe parries at Force 60 - 30. P(foe
    // down) = sum over attack outcomes o (hits) and defence outcomes d of P(o) P(d) [d
    // does not stop o] (C-CMB-2).
    let text = scenario(
        "[support.hex]\nkind = \"buff\"\nmodifier = -30\ntarget = \"enemy\"\n",
        "actions = 2\nattacks = [\"kill\"]\n@policy\n[[combatants.hero.policy.rules]]\nuse = \"hex\"",
        "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"parry\"",
        "[combat]\nmax_rounds = 1",
    );
    let (_, acc) = run_text(&text, N);
    let att = exact(60.0, 0.0);
    let def = exact(60.0, -30.0);
    let mut p = 0.0;
    for (o, po) in att.outcomes() {
        if o.tier() == 0 {
            continue;
        }
        for (d, pd) in def.outcomes() {
            if !defence_stops(*o, *d) {
                p += po * pd;
            }
        }
    }
    agrees(acc.fighters[FOE].down, N, p);
}

#[test]
fn concentrate_halves_a_moderate_fatigue_malus_next_round() {
    // C-FAT-5: FP 6 (moderate, -10 on Force tests, C-FAT-4). Concentrate in round 1, kill
    // in round 2: -5. Without it: -10 in both rounds, two tries (the second after karma
    // drift), so only the concentrated case is checked exactly.
    let text = scenario(
        "[support.focus]\nkind = \"concentrate\"\n",
        "fp_start = 6\nattacks = [\"kill\"]\n@policy\n[[combatants.hero.policy.rules]]\nwhen = { round = 1 }\nuse = \"focus\"",
        "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 2",
    );
    let (_, acc) = run_text(&text, N);
    agrees(acc.fighters[FOE].down, N, p_hit(60.0, -5.0));
    assert_eq!(acc.fighters[HERO].support.focused, N);
    // Light fatigue (FP 4, -5) is ignored altogether.
    let (_, acc) = run_text(&text.replace("fp_start = 6", "fp_start = 4"), N);
    agrees(acc.fighters[FOE].down, N, p_hit(60.0, 0.0));
}

#[test]
fn concentrate_in_extreme_fatigue_needs_a_passive_esprit_test() {
    // C-FAT-5: FP 8 (extreme, -30). Concentrating rolls a passive Esprit test (Esprit 50;
    // `passive_test = plain`: karma 0, unmoved); on a success the round-2 kill is at -15,
    // else at -30: P = p(E50) p(60 - 15) + (1 - p(E50)) p(60 - 30).
    let text = scenario(
        "[support.focus]\nkind = \"concentrate\"\n",
        "fp_start = 8\nattacks = [\"kill\"]\n@policy\n[[combatants.hero.policy.rules]]\nwhen = { round = 1 }\nuse = \"focus\"",
        "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[rules]\npassive_test = \"plain\"\n\n[combat]\nmax_rounds = 2",
    );
    let (_, acc) = run_text(&text, N);
    let pe = p_hit(50.0, 0.0);
    let p = pe * p_hit(60.0, -15.0) + (1.0 - pe) * p_hit(60.0, -30.0);
    agrees(acc.fighters[FOE].down, N, p);
}

#[test]
fn no_concentration_under_mental_exhaustion() {
    // C-FAT-5: FM 10 forbids it, so the rule does not apply and the hero attacks in
    // round 1 (a Force test, FP 0): P(foe down) = P(success at 60).
    let text = scenario(
        "[support.focus]\nkind = \"concentrate\"\n",
        "fm_start = 10\nattacks = [\"kill\"]\n@policy\n[[combatants.hero.policy.rules]]\nuse = \"focus\"",
        "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"none\"",
        "[combat]\nmax_rounds = 1",
    );
    let (_, acc) = run_text(&text, N);
    assert_eq!(acc.fighters[HERO].support.used, 0);
    agrees(acc.fighters[FOE].down, N, p_hit(60.0, 0.0));
}

#[test]
fn a_point_rule_reads_the_enemy_posture() {
    // The foe spends its Light point at combat start (C-LD-2); the hero's rule answers an
    // enemy in Illumination with its Dark point, at once: exactly one Sépulcrale per
    // combat. Watching for Sépulcrale instead, it never fires.
    for (posture, entered) in [("illumination", N), ("sepulcrale", 0), ("any", N)] {
        let text = scenario(
            "",
            &format!("attacks = [\"tickle\"]\n@policy\n[[combatants.hero.policy.rules]]\nwhen = {{ enemy_posture = \"{posture}\" }}\nspend = \"dark\""),
            "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\nlight_at_start = true",
            "[combat]\nmax_rounds = 3",
        );
        let (_, acc) = run_text(&text, N);
        assert_eq!(acc.fighters[HERO].posture[1].entered, entered, "{posture}");
        assert_eq!(acc.fighters[FOE].posture[0].entered, N);
    }
}

#[test]
fn a_final_skill_rule_overrides_the_posture_turn() {
    // Level 5, Dark point at combat start, Final Skill "kill": by the default
    // (first_turn) every posture ends by the Final Skill; a rule `final_skill = false`
    // forbids it (none); a rule firing at round 2 over `final_skill = "never"` uses it
    // exactly then (every posture).
    let base = |policy: &str| {
        scenario(
            "",
            &format!("level = 5\nattacks = [\"tickle\"]\nfinal_skill = \"kill\"\n@policy\ndark_at_start = true\n{policy}"),
            "hp = 100000\nattacks = [\"tickle\"]",
            "[combat]\nmax_rounds = 3",
        )
    };
    let cases = [
        ("", N),
        ("[[combatants.hero.policy.rules]]\nfinal_skill = false", 0),
        (
            "final_skill = \"never\"\n[[combatants.hero.policy.rules]]\nwhen = { round = 2 }\nfinal_skill = true",
            N,
        ),
    ];
    for (policy, fs_ends) in cases {
        let (_, acc) = run_text(&base(policy), 2000.min(N));
        let n = 2000 * fs_ends / N;
        assert_eq!(acc.fighters[HERO].posture[1].ends[1], n, "{policy}");
    }
}

#[test]
fn a_mode_rule_takes_away_the_defence() {
    // A faster foe (Agilité 70) acts first and its rule puts it in Offensive (C-CMB-1: no
    // defence), so the hero's kill lands whenever its test succeeds: P = P(success at
    // 60). Without the rule the foe parries and survives more often.
    let text = scenario(
        "",
        "attacks = [\"kill\"]",
        "hp = 100\nattacks = [\"tickle\"]\n\n[combatants.foe.policy]\ndefence = \"parry\"\n\n[[combatants.foe.policy.rules]]\nwhen = { round = 1 }\nmode = \"offensive\"",
        "[combat]\nmax_rounds = 1",
    )
    .replace("agilite = 40", "agilite = 70");
    let (_, acc) = run_text(&text, N);
    agrees(acc.fighters[FOE].down, N, p_hit(60.0, 0.0));
    let plain = text.replace(
        "\n\n[[combatants.foe.policy.rules]]\nwhen = { round = 1 }\nmode = \"offensive\"",
        "",
    );
    let (_, acc0) = run_text(&plain, N);
    assert!(acc0.fighters[FOE].down < acc.fighters[FOE].down);
}

fn check_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.toml"), text).unwrap();
    let mut msgs = Vec::new();
    // `check` and `run` share one validation: the same message, exit 2.
    for cmd in [
        &["check", "bad.toml"][..],
        &["run", "bad.toml", "-q", "--out", "o"],
    ] {
        let out = Command::cargo_bin("cosmosim")
            .unwrap()
            .current_dir(dir.path())
            .args(cmd)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(2),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        msgs.push(
            String::from_utf8(out.stderr)
                .unwrap()
                .trim_end()
                .to_string(),
        );
    }
    assert_eq!(msgs[0], msgs[1]);
    msgs.swap_remove(0)
}

fn good() -> String {
    scenario(
        "[support.cure]\nkind = \"heal\"\nheal = \"2d6\"\n",
        "attacks = [\"kill\"]\n@policy\n[[combatants.hero.policy.rules]]\nwhen = { own_hp_below = 0.5 }\nuse = \"cure\"",
        "hp = 100\nattacks = [\"tickle\"]",
        "",
    )
}

#[test]
fn golden_errors_for_bad_support_and_rule_keys() {
    let cases: Vec<(String, &str)> = vec![
        (
            good().replace("heal = \"2d6\"\n", ""),
            "error: bad.toml:13:1: key `support.cure.heal`: missing key `heal` for kind = \"heal\"; allowed: HP restored as dice terms and whole numbers, e.g. \"2d8+4\"",
        ),
        (
            good().replace("heal = \"2d6\"", "heal = \"2d6\"\ntarget = \"enemy\""),
            "error: bad.toml:16:10: key `support.cure.target`: not a heal target; allowed: self | lowest_hp | lowest_fraction (default; the user included)",
        ),
        (
            good().replace("heal = \"2d6\"", "heal = \"2d6\"\nrounds = 3"),
            "error: bad.toml:16:10: key `support.cure.rounds`: `rounds` does not apply to kind = \"heal\"; allowed: kind, heal, target, stat, pm_cost, uses, cooldown",
        ),
        (
            good().replace("kind = \"heal\"\nheal = \"2d6\"", "kind = \"buff\""),
            "error: bad.toml:13:1: key `support.cure.modifier`: a buff with neither `modifier` nor `damage_mult` does nothing; allowed: modifier = -100..100 and/or damage_mult = 0..10 (not 1)",
        ),
        (
            good().replace("kind = \"heal\"\nheal = \"2d6\"", "kind = \"buff\"\ndamage_mult = 11.0"),
            "error: bad.toml:15:15: key `support.cure.damage_mult`: 11 is out of range; allowed: 0..10 (x the holder's damage dealt)",
        ),
        (
            good().replace("kind = \"heal\"", "kind = \"pray\""),
            "error: bad.toml:14:8: key `support.cure.kind`: unknown variant `pray`, expected one of `heal`, `buff`, `concentrate`",
        ),
        (
            good().replace("use = \"cure\"", "use = \"cure\"\nmode = \"offensive\""),
            "error: bad.toml:30:1: key `combatants.hero.policy.rules[0]`: a rule does exactly one thing; allowed: one of spend = \"dark\" | \"light\" | \"none\", final_skill = true | false, mode = \"offensive\" | \"defensive\", use = \"<attack or support action>\"",
        ),
        (
            good().replace("use = \"cure\"", "use = \"smite\""),
            "error: bad.toml:32:7: key `combatants.hero.policy.rules[0].use`: \"smite\" is neither one of the combatant's attacks nor a [support.*] action; allowed: \"kill\", \"cure\"",
        ),
        (
            good().replace("own_hp_below = 0.5", "own_hp_below = 50"),
            "error: bad.toml:31:25: key `combatants.hero.policy.rules[0].when.own_hp_below`: 50 is not a fraction of max HP; allowed: a number above 0 and at most 1, e.g. 0.5 for \"below half HP\"",
        ),
        (
            good().replace("{ own_hp_below = 0.5 }", "{ any = [{ round = 0 }] }"),
            "error: bad.toml:31:27: key `combatants.hero.policy.rules[0].when.any[0].round`: round 0 is out of range; allowed: 1..50 (combat.max_rounds)",
        ),
        (
            good().replace("{ own_hp_below = 0.5 }", "{ enemy_posture = \"dazed\" }"),
            "error: bad.toml:31:26: key `combatants.hero.policy.rules[0].when.enemy_posture`: unknown variant `dazed`, expected one of `illumination`, `sepulcrale`, `sépulcrale`, `any`",
        ),
        (
            good().replace("use = \"cure\"", "final_skill = true"),
            "error: bad.toml:32:15: key `combatants.hero.policy.rules[0].final_skill`: the rule uses a Final Skill but the combatant has none; allowed: set `final_skill = \"<attack>\"` on the combatant",
        ),
        (
            good().replace("pm = 100\n", "pm = 100\ndark_points = 0\n").replace("use = \"cure\"", "spend = \"dark\""),
            "error: bad.toml:33:9: key `combatants.hero.policy.rules[0].spend`: the rule spends Dark points but dark_points = 0; allowed: dark_points >= 1, or spend = \"light\" | \"none\"",
        ),
    ];
    let mut wrong = Vec::new();
    for (text, want) in cases {
        let got = check_error(&text);
        if got != want {
            wrong.push(format!("got:  {got}\nwant: {want}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn check_lists_the_support_defaults_and_the_summary_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.toml");
    std::fs::write(&path, good()).unwrap();
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .arg("check")
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("support.cure.target = lowest_fraction (default)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("support.cure.stat = none (default): no test: it always lands"),
        "{stdout}"
    );
    Command::cargo_bin("cosmosim")
        .unwrap()
        .args(["run", "--trials", "2000", "-q", "--out"])
        .arg(dir.path().join("out"))
        .arg(&path)
        .assert()
        .success();
    let summary = std::fs::read_to_string(dir.path().join("out/summary.md")).unwrap();
    assert!(
        summary
            .contains("| combatants.hero.policy.rules[0] | when own HP \\< 50%: use cure | file |"),
        "{summary}"
    );
    assert!(summary.contains("## Support actions"), "{summary}");
}

#[test]
fn boss_fight_matches_its_golden_csvs() {
    // Golden files written by this version at --trials 20000 --seed 1 (any --threads).
    let dir = tempfile::tempdir().unwrap();
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "scenarios/cosmos/boss-fight.toml",
            "--trials",
            "20000",
        ])
        .args(["--seed", "1", "--threads", "2", "-q", "--out"])
        .arg(dir.path())
        .assert()
        .success();
    for (name, golden) in [
        (
            "combat-sides.csv",
            include_str!("golden/combat-boss-fight-sides.csv"),
        ),
        (
            "combat-combatants.csv",
            include_str!("golden/combat-boss-fight-combatants.csv"),
        ),
    ] {
        let got = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(got, golden, "{name}");
    }
    let summary = std::fs::read_to_string(dir.path().join("summary.md")).unwrap();
    // The question, then the answers: win rates first, support actions among them.
    let q = summary.find("How often does a party of four").unwrap();
    let a = summary.find("## Answers").unwrap();
    assert!(q < a && summary[a..].starts_with("## Answers"), "{summary}");
    assert!(summary.contains("- side party wins"), "{summary}");
    assert!(summary.contains("- support actions: cleric"), "{summary}");
}

#[test]
fn the_documented_example_covers_support_actions_and_rules() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenarios.md")).unwrap();
    let start = doc.find("```toml\n").unwrap() + 8;
    let end = start + doc[start..].find("```").unwrap();
    let file = ScenarioFile::from_text(
        "docs/scenarios.md",
        &doc[start..end],
        cosmosim::lang::Lang::En,
    );
    let (_, model) = load(&file).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(model.support.len(), 3);
    let hero = model.fighters.iter().find(|f| f.name == "hero").unwrap();
    assert_eq!(hero.rules.list.len(), 8);
    // Every decision kind is exercised, and the three support actions are the hero's.
    let r = &hero.rules;
    assert!(r.points && r.final_skill && r.mode && r.action);
    assert_eq!(hero.support.len(), 3);
}
