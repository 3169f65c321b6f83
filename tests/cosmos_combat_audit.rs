//! Great Cosmos combat, audit of 2026-12-07, afternoon (docs/rules.md, "### Great
//! Cosmos"): the second action of Illumination advantage 6 after a Final Skill, the armour
//! step's input in the trace, healing from a negative coefficient, the element aliases in
//! the error, and the simultaneous exchange in the trace.

mod common;

use common::combat::{agrees, run_opts};
use common::trace::{cosmosim, json_trials};

/// `[combatants.<name>]` on side `<name>`, Offensive, with one attack: the stats every
/// fighter of these files shares, but for Agilité.
fn fighter(name: &str, level: u32, agilite: u32, hp: u32, attack: &str) -> String {
    format!(
        "[combatants.{name}]\nside = \"{name}\"\nlevel = {level}\n\
         stats = {{ force = 60, esprit = 35, charisme = 40, agilite = {agilite}, precision = 45, chance = 50 }}\n\
         hp = {hp}\nmode = \"offensive\"\nattacks = [\"{attack}\"]\n"
    )
}

/// `[attacks.<name>]` on Force.
fn attack(name: &str, damage: &str) -> String {
    format!("[attacks.{name}]\nstat = \"force\"\ndamage = \"{damage}\"\n")
}

/// A combat file: `head` (its `[rules]`, then `[combat]`'s `max_rounds`), the attacks
/// `attacks` and `nothing`, `a`'s block, and `b` (level 3, Agilité 40), who never hurts
/// anyone and cannot fall, with `b_extra` lines.
fn combat(head: &str, attacks: &str, a: &str, b_extra: &str) -> String {
    format!(
        "system = \"cosmos\"\nkind = \"combat\"\n{head}{attacks}{}{a}{}{b_extra}",
        attack("nothing", "0"),
        fighter("b", 3, 40, 100000, "nothing")
    )
}

/// `a` (level 5, Agilité 50) holds Illumination from the start and uses its Final Skill at
/// its first turn; `b` never hurts it and cannot fall. One round.
fn final_skill() -> String {
    combat(
        "[combat]\nmax_rounds = 1\n",
        &(attack("sword", "2d10+5") + &attack("blast", "5d10")),
        &(fighter("a", 5, 50, 151, "sword")
            + "final_skill = \"blast\"\n[combatants.a.policy]\nlight_at_start = true\n\
               defence = \"none\"\nfinal_skill = \"first_turn\"\n"),
        "",
    )
}

#[test]
fn a_final_skill_ends_the_second_action_of_advantage_6_with_the_posture() {
    // Book l. 119: the advantage die's "effet s'appliquera pendant toute la durée de
    // celle-ci" (the posture); l. 120: the Final Skill "met fin prématurément à la posture
    // Illumination". `a` acts first (C-TURN-3) and spends its first action on the Final
    // Skill, which ends the posture: by default its second action (advantage 6, 1 in 6)
    // goes with it, so `a` takes exactly one action in every combat. Before the fix it
    // took a second one at karma 0 whenever the d6 showed 6.
    let n = 60_000;
    let (_, acc) = run_opts(&final_skill(), n, &[]);
    let a = &acc.fighters[0];
    assert_eq!(a.adv_faces.iter().sum::<u64>(), n);
    assert_eq!(a.actions, n, "one action per combat");
    // `kept`, the earlier behaviour: a second action exactly when the d6 shows 6.
    let (_, acc) = run_opts(&final_skill(), n, &["extra_action_after_final_skill=kept"]);
    let a = &acc.fighters[0];
    assert_eq!(a.actions - n, a.adv_faces[5]);
    agrees(a.actions - n, n, 1.0 / 6.0);
}

#[test]
fn the_trace_says_the_second_action_is_lost() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("fs.toml"), final_skill()).unwrap();
    // Seed 5, trial 1: advantage 6 (the auditor's case sc/FS1.toml).
    for (lang, says) in [
        ("en", "a loses its second action"),
        ("fr", "a perd sa deuxième action"),
    ] {
        let o = cosmosim(
            d,
            &[
                "--lang", lang, "trace", "fs.toml", "--seed", "5", "--trial", "1",
            ],
        );
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("d6 = 6)") && text.contains(says), "{text}");
    }
    let o = cosmosim(
        d,
        &[
            "trace", "fs.toml", "--seed", "5", "--trial", "1", "--format", "json",
        ],
    );
    let trials = json_trials(&o);
    let steps = trials[0]["steps"].as_array().unwrap();
    let attacks = steps
        .iter()
        .filter(|s| s["step"] == "attack" && s["who"] == "a")
        .count();
    assert_eq!(attacks, 1);
    assert!(steps
        .iter()
        .any(|s| s["step"] == "skip" && s["why"] == "extra_action_lost"));
}

/// `a` hits `b` for 15 (Offensive: x1.5 = 22.5) at tier multiplier 1 whatever the tier;
/// `b` wears armour 20% + 5: 22.5 x 0.8 = 18, - 5 = 13.
fn armour() -> String {
    combat(
        "[rules]\ncrit_damage_mult = 1\nsuper_damage_mult = 1\n[combat]\nmax_rounds = 3\n",
        &(attack("cut", "15") + "threshold = 200\n"),
        &(fighter("a", 3, 50, 150, "cut") + "[combatants.a.policy]\ndefence = \"none\"\n"),
        "armour = { flat = 5, percent = 20 }\n",
    )
}

#[test]
fn the_trace_shows_the_unfloored_damage_the_armour_step_uses() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("ar.toml"), armour()).unwrap();
    for (lang, says) in [
        ("en", "= 22.5, 13 after armour"),
        ("fr", "= 22.5, 13 après armure"),
    ] {
        let o = cosmosim(d, &["--lang", lang, "trace", "ar.toml", "--trial", "0"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains(says), "{text}");
        assert!(!text.contains("= 22,"), "{text}");
    }
    let o = cosmosim(
        d,
        &["trace", "ar.toml", "--trials", "0..19", "--format", "json"],
    );
    let mut hits = 0;
    for t in json_trials(&o) {
        for s in t["steps"].as_array().unwrap() {
            if s["step"] == "damage" && s["to"] == "b" {
                assert_eq!(s["unfloored"].as_f64(), Some(22.5), "{s}");
                assert_eq!(
                    (s["before_armour"].as_i64(), s["after_armour"].as_i64()),
                    (Some(22), Some(13)),
                    "{s}"
                );
                hits += 1;
            }
        }
    }
    assert!(hits > 0);
}

#[test]
fn a_negative_coefficient_heals_the_floor_so_the_heal_is_rounded_up() {
    // Reading (C-CMB-4: "then floored. A negative coefficient heals"): 21 x 1.5 (Offensive)
    // x -0.5 = -15.75, floored to -16, heals 16 (not 15). Armour never touches a heal.
    let text = armour()
        .replace("damage = \"15\"", "damage = \"21\"\nelement = \"metal\"")
        .replace(
            "armour = { flat = 5, percent = 20 }",
            "armour = { flat = 5, percent = 20 }\nhp_start = 60\nelement_coefficients = { metal = -0.5 }",
        );
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("hl.toml"), text).unwrap();
    let o = cosmosim(d, &["trace", "hl.toml", "--trial", "0", "--format", "json"]);
    let trials = json_trials(&o);
    let steps = trials[0]["steps"].as_array().unwrap();
    let heal = steps
        .iter()
        .find(|s| s["step"] == "damage" && s["to"] == "b")
        .unwrap();
    assert_eq!(heal["unfloored"].as_f64(), Some(-15.75), "{heal}");
    assert_eq!(heal["after_armour"].as_i64(), Some(-16), "{heal}");
    let hp = steps
        .iter()
        .find(|s| s["step"] == "hp" && s["who"] == "b")
        .unwrap();
    assert_eq!(
        (hp["before"].as_i64(), hp["after"].as_i64()),
        (Some(60), Some(76)),
        "{hp}"
    );
}

#[test]
fn an_unknown_element_lists_the_english_and_accented_aliases() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let bad = armour().replace("damage = \"15\"", "damage = \"15\"\nelement = \"firre\"");
    std::fs::write(d.join("el.toml"), bad).unwrap();
    let ok = armour().replace("damage = \"15\"", "damage = \"15\"\nelement = \"fire\"");
    std::fs::write(d.join("ok.toml"), ok).unwrap();
    assert!(cosmosim(d, &["check", "ok.toml"]).status.success());
    for (lang, also) in [("en", "also accepted:"), ("fr", "acceptés aussi :")] {
        let o = cosmosim(d, &["--lang", lang, "check", "el.toml"]);
        assert_eq!(o.status.code(), Some(2));
        let e = String::from_utf8_lossy(&o.stderr);
        for says in [
            "el.toml:",
            "firre",
            "feu, air",
            also,
            "fire = feu",
            "lumière = light",
        ] {
            assert!(e.contains(says), "{lang} {says}: {e}");
        }
    }
}

#[test]
fn a_simultaneous_exchange_is_marked_in_the_trace() {
    // Equal Agilité: d20s decide; still tied (1 in 20), the two act at once (C-TURN-1).
    let text = armour().replace("agilite = 40", "agilite = 50");
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("sim.toml"), text).unwrap();
    let o = cosmosim(
        d,
        &[
            "trace", "sim.toml", "--trials", "0..199", "--format", "json",
        ],
    );
    let mut marked = 0;
    for t in json_trials(&o) {
        let steps = t["steps"].as_array().unwrap();
        for (i, s) in steps.iter().enumerate() {
            if s["step"] == "round" {
                let order = s["order"].as_array().unwrap();
                let tied =
                    order.len() == 2 && order[0]["d20"] != 0 && order[0]["d20"] == order[1]["d20"];
                let next = &steps[i + 1];
                assert_eq!(next["step"] == "simultaneous", tied, "{s} {next}");
                if tied {
                    assert_eq!(next["who"], serde_json::json!(["a", "b"]));
                    marked += 1;
                    let n = t["trial"].as_u64().unwrap().to_string();
                    for (lang, says) in [
                        ("en", "a, b act at once"),
                        ("fr", "a, b agissent en même temps"),
                    ] {
                        let o = cosmosim(d, &["--lang", lang, "trace", "sim.toml", "--trial", &n]);
                        let text = String::from_utf8_lossy(&o.stdout);
                        assert!(text.contains(says), "{text}");
                    }
                }
            }
        }
    }
    assert!(marked > 0);
}

/// The book's class of a d100 test from its faces (C-TEST-2..4 at the defaults: 42 and 66
/// on the natural roll, crits at score 1-10 and 91-100, a d10 taken off from karma +5 and
/// added from -5, the bounds' exceptions at +/-10).
fn class_by_hand(
    natural: u64,
    die: Option<u64>,
    karma: i64,
    threshold: f64,
) -> (u64, &'static str) {
    let score = match die {
        None => natural as i64,
        Some(d) if karma >= 5 => natural as i64 - d as i64,
        Some(d) => natural as i64 + d as i64,
    }
    .clamp(1, 100) as u64;
    let class = if natural == 42 {
        if karma == -10 {
            "crit_success"
        } else {
            "super_success"
        }
    } else if natural == 66 {
        if karma == 10 {
            "crit_failure"
        } else {
            "super_failure"
        }
    } else if score <= 10 && karma != -10 {
        "crit_success"
    } else if score >= 91 && karma != 10 {
        "crit_failure"
    } else if score as f64 <= threshold {
        "success"
    } else {
        "failure"
    };
    (score, class)
}

#[test]
fn the_trace_shows_the_d100_and_karma_die_each_test_drew() {
    // Audit of 2026-12-07, afternoon: a test's step showed threshold, karma and class but
    // not the dice, so a designer could not check a class by hand. The faces are the ones
    // drawn (one index over the table's (d100, karma die) pairs without a modifier, the
    // d100 then the die with one): each step's class must follow from them by the book.
    // The duel's karma drifts to both bounds; the boss fight's buffs and the backlash
    // malus take the path with a modifier.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/cosmos");
    let mut seen = [0u32; 3];
    for (file, trials) in [("duel.toml", "0..39"), ("boss-fight.toml", "0..9")] {
        let d = tempfile::tempdir().unwrap();
        std::fs::copy(root.join(file), d.path().join(file)).unwrap();
        let o = cosmosim(
            d.path(),
            &["trace", file, "--trials", trials, "--format", "json"],
        );
        for t in json_trials(&o) {
            for s in t["steps"].as_array().unwrap() {
                if s["step"] != "test" {
                    continue;
                }
                let natural = s["natural"].as_u64().unwrap();
                assert!((1..=100).contains(&natural), "{s}");
                let die = s["karma_die"].as_u64();
                let karma = s["karma"].as_i64().unwrap();
                assert_eq!(die.is_some(), karma.abs() >= 5, "{s}");
                if let Some(d) = die {
                    assert!((1..=10).contains(&d), "{s}");
                }
                let (score, class) =
                    class_by_hand(natural, die, karma, s["threshold"].as_f64().unwrap());
                assert_eq!(s["score"].as_u64(), Some(score), "{s}");
                assert_eq!(s["outcome"], class, "{s}");
                seen[0] += 1;
                seen[1] += u32::from(die.is_some());
                seen[2] += u32::from(s["modifier"].as_i64() != Some(0));
            }
        }
    }
    assert!(seen[0] > 1000 && seen[1] > 50 && seen[2] > 50, "{seen:?}");
    // The text says the same.
    let d = tempfile::tempdir().unwrap();
    std::fs::copy(root.join("duel.toml"), d.path().join("duel.toml")).unwrap();
    for (lang, die) in [("en", "karma die"), ("fr", "dé de karma")] {
        let o = cosmosim(
            d.path(),
            &["trace", "duel.toml", "--trials", "0..39", "--lang", lang],
        );
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains(" d100 ") && text.contains(die), "{text}");
    }
}
