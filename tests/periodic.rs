//! Issue 27 item 4: periodic effects in Great Cosmos combat (house rule H-PERIODIC,
//! docs/rules.md): regeneration, bleeding or poison placed by a hit, damage auras; each with
//! a moment, a duration, a condition and a cap, counted in `combat-combatants.csv` and
//! shown by `trace`. Hand values come from files where nothing else moves HP.

use std::path::Path;

mod common;
use common::runs::cosmosim;

/// Two combatants whose attacks deal 0: only periodic effects move HP. `extra` is added
/// at the end (periodic tables, combatant keys through dotted keys).
fn harmless(extra: &str) -> String {
    format!(
        r#"system = "cosmos"
kind = "combat"
title = "periodic"

[run]
trials = 200
seed = 3

[combat]
max_rounds = 10

[attacks.tap]
stat = "force"
damage = "0"

[combatants.troll]
side = "monster"
level = 3
stats = {{ force = 50, esprit = 30, charisme = 30, agilite = 40, precision = 40, chance = 40 }}
hp = 100
attacks = ["tap"]

[combatants.hero]
side = "party"
count = 2
level = 3
stats = {{ force = 50, esprit = 30, charisme = 30, agilite = 50, precision = 40, chance = 40 }}
hp = 100
attacks = ["tap"]
{extra}"#
    )
}

/// `combat-combatants.csv` as (combatant, column) -> value.
fn combatants(dir: &Path) -> std::collections::BTreeMap<(String, String), String> {
    let text = std::fs::read_to_string(dir.join("combat-combatants.csv")).unwrap();
    let mut lines = text.lines();
    let head: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let mut out = std::collections::BTreeMap::new();
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        for (h, v) in head.iter().zip(&f) {
            out.insert((f[0].to_string(), h.clone()), v.to_string());
        }
    }
    out
}

fn run(dir: &Path, name: &str, text: &str) -> std::collections::BTreeMap<(String, String), String> {
    std::fs::write(dir.join(name), text).unwrap();
    let out = dir.join(format!("{name}-out"));
    let o = cosmosim(dir, &["-q", "run", name, "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    combatants(&out)
}

fn value(t: &std::collections::BTreeMap<(String, String), String>, who: &str, col: &str) -> f64 {
    t.get(&(who.to_string(), col.to_string()))
        .unwrap_or_else(|| panic!("{who} {col} missing"))
        .parse()
        .unwrap()
}

#[test]
fn regeneration_heals_below_its_threshold_up_to_its_cap() {
    let d = tempfile::tempdir().unwrap();
    // From 10 of 100 HP, 5 per turn while below half, capped at 20: 10, 15, 20, 25, 30,
    // then the cap stops it. Every combat ends at the round cap with the troll at 30.
    let t = run(
        d.path(),
        "regen.toml",
        &harmless(
            "\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5\"\nbelow_hp = 0.5\ncap = 20\n",
        )
        .replace(
            "hp = 100\nattacks = [\"tap\"]\n\n[combatants.hero]",
            "hp = 100\nhp_start = 10\nperiodic = [\"regeneration\"]\nattacks = [\"tap\"]\n\n[combatants.hero]",
        ),
    );
    assert_eq!(value(&t, "troll", "hp_end_mean"), 30.0);
    assert_eq!(value(&t, "troll", "periodic_healed_per_combat"), 20.0);
    assert_eq!(value(&t, "troll", "periodic_ticks_per_combat"), 4.0);
    assert_eq!(value(&t, "hero_1", "periodic_healed_per_combat"), 0.0);
    // The condition alone: below 20% of max, it stops at 20 HP after two ticks.
    let t = run(
        d.path(),
        "regen2.toml",
        &harmless("\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5\"\nbelow_hp = 0.2\n")
            .replace(
                "hp = 100\nattacks = [\"tap\"]\n\n[combatants.hero]",
                "hp = 100\nhp_start = 10\nperiodic = [\"regeneration\"]\nattacks = [\"tap\"]\n\n[combatants.hero]",
            ),
    );
    assert_eq!(value(&t, "troll", "hp_end_mean"), 20.0);
    assert_eq!(value(&t, "troll", "periodic_ticks_per_combat"), 2.0);
}

#[test]
fn an_aura_strikes_every_standing_enemy_for_its_rounds() {
    let d = tempfile::tempdir().unwrap();
    // 2 HP to each hero at every round start of rounds 1..3: 6 each, 12 dealt.
    let t = run(
        d.path(),
        "aura.toml",
        &harmless(
            "\n[periodic.stench]\nkind = \"aura\"\namount = \"2\"\nat = \"round_start\"\nrounds = 3\n",
        )
        .replace(
            "hp = 100\nattacks = [\"tap\"]\n\n[combatants.hero]",
            "hp = 100\nperiodic = [\"stench\"]\nattacks = [\"tap\"]\n\n[combatants.hero]",
        ),
    );
    for h in ["hero_1", "hero_2"] {
        assert_eq!(value(&t, h, "hp_end_mean"), 94.0);
        assert_eq!(value(&t, h, "periodic_taken_per_combat"), 6.0);
        assert_eq!(value(&t, h, "taken_mean"), 6.0);
    }
    assert_eq!(value(&t, "troll", "periodic_dealt_per_combat"), 12.0);
    assert_eq!(value(&t, "troll", "dealt_mean"), 12.0);
    assert_eq!(value(&t, "troll", "hp_end_mean"), 100.0);
    // A lethal aura ends the combat: 40 per round start downs both heroes in round 3.
    std::fs::write(
        d.path().join("lethal.toml"),
        harmless("\n[periodic.fire]\nkind = \"aura\"\namount = \"40\"\nat = \"round_start\"\n")
            .replace(
                "hp = 100\nattacks = [\"tap\"]\n\n[combatants.hero]",
                "hp = 100\nperiodic = [\"fire\"]\nattacks = [\"tap\"]\n\n[combatants.hero]",
            ),
    )
    .unwrap();
    let o = cosmosim(d.path(), &["-q", "run", "lethal.toml", "--out", "lethal"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sides = std::fs::read_to_string(d.path().join("lethal/combat-sides.csv")).unwrap();
    let monster = sides.lines().find(|l| l.starts_with("monster,")).unwrap();
    assert!(monster.starts_with("monster,200,200,1.0"), "{sides}");
    assert!(monster.ends_with(",3.0000000000"), "{sides}");
}

#[test]
fn bleeding_placed_by_a_hit_ticks_for_its_rounds_and_shows_in_traces() {
    let d = tempfile::tempdir().unwrap();
    // The troll's claws deal 1 and place bleeding (2 HP at the start of each of the
    // hero's turns, the 2 rounds after the hit); the heroes deal nothing.
    let text = harmless(
        "\n[attacks.claws]\nstat = \"force\"\ndamage = \"1\"\non_hit = \"bleeding\"\n\n\
         [periodic.bleeding]\nkind = \"damage\"\namount = \"2\"\nrounds = 2\n",
    )
    .replace(
        "hp = 100\nattacks = [\"tap\"]\n\n[combatants.hero]",
        "hp = 100\nattacks = [\"claws\"]\n\n[combatants.hero]",
    );
    std::fs::write(d.path().join("bleed.toml"), &text).unwrap();
    let o = cosmosim(
        d.path(),
        &[
            "trace",
            "bleed.toml",
            "--trials",
            "0..29",
            "--format",
            "json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut placed_seen = 0;
    let mut bled = 0;
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let t: serde_json::Value = serde_json::from_str(line).unwrap();
        let steps = t["steps"].as_array().unwrap();
        // Per hero, the rounds its placements cover: the 2 after each hit's round.
        let mut round = 0u64;
        let mut covered: std::collections::BTreeSet<(String, u64)> = Default::default();
        for s in steps {
            match s["step"].as_str().unwrap() {
                "round" => round = s["round"].as_u64().unwrap(),
                "placed" => {
                    placed_seen += 1;
                    assert_eq!(s["effect"], "bleeding");
                    assert_eq!(s["from"], "troll");
                    assert_eq!(s["until"].as_u64().unwrap(), round + 2);
                    let who = s["who"].as_str().unwrap().to_string();
                    covered.insert((who.clone(), round + 1));
                    covered.insert((who, round + 2));
                }
                "periodic" => {
                    let who = s["who"].as_str().unwrap().to_string();
                    assert!(
                        covered.contains(&(who.clone(), round)),
                        "{who} bleeds in round {round}"
                    );
                    assert_eq!(s["amount"].as_i64().unwrap(), 2);
                    bled += 1;
                }
                _ => {}
            }
        }
    }
    assert!(placed_seen > 10, "{placed_seen} placements in 30 trials");
    assert!(bled > 10, "{bled} ticks for {placed_seen} placements");
    // The words in both languages.
    let o = cosmosim(d.path(), &["trace", "bleed.toml", "--trial", "0"]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("now suffers bleeding from troll"), "{text}");
    assert!(text.contains("suffers bleeding: 2 HP"), "{text}");
    let o = cosmosim(
        d.path(),
        &["--lang", "fr", "trace", "bleed.toml", "--trial", "0"],
    );
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("subit désormais bleeding de troll"), "{text}");
}

#[test]
fn replayed_trials_with_periodic_effects_end_as_the_batch_run_counted_them() {
    let d = tempfile::tempdir().unwrap();
    let text = harmless(
        "\n[attacks.club]\nstat = \"force\"\ndamage = \"2d10\"\non_hit = \"bleeding\"\n\n\
         [periodic.bleeding]\nkind = \"damage\"\namount = \"1d4\"\nat = \"turn_end\"\n\n\
         [periodic.regeneration]\nkind = \"regeneration\"\namount = \"1d6\"\nbelow_hp = 0.5\ncap = 30\n",
    )
    .replace(
        "hp = 100\nattacks = [\"tap\"]\n\n[combatants.hero]",
        "hp = 100\nperiodic = [\"regeneration\"]\nattacks = [\"club\"]\n\n[combatants.hero]",
    )
    .replace("damage = \"0\"", "damage = \"1d10\"");
    std::fs::write(d.path().join("mix.toml"), &text).unwrap();
    let o = cosmosim(
        d.path(),
        &["-q", "run", "mix.toml", "--trials", "300", "--out", "mix"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let sides = std::fs::read_to_string(d.path().join("mix/combat-sides.csv")).unwrap();
    let o = cosmosim(
        d.path(),
        &[
            "trace", "mix.toml", "--trials", "0..299", "--format", "json",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut tally: std::collections::BTreeMap<String, u64> = Default::default();
    for line in String::from_utf8_lossy(&o.stdout).lines() {
        let t: serde_json::Value = serde_json::from_str(line).unwrap();
        *tally
            .entry(t["outcome"].as_str().unwrap().into())
            .or_default() += 1;
    }
    for l in sides.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let count: u64 = f[2].parse().unwrap();
        assert_eq!(
            tally.get(f[0]).copied().unwrap_or(0),
            count,
            "{}: {sides}",
            f[0]
        );
    }
}

#[test]
fn bad_periodic_keys_are_refused_with_the_key_and_the_allowed_values() {
    let d = tempfile::tempdir().unwrap();
    let cases = [
        (
            "\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5\"\nbelow_hp = 1.5\n",
            "key `periodic.regeneration.below_hp`",
        ),
        (
            "\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5\"\nat = \"dawn\"\n",
            "round_start",
        ),
        (
            "\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5d\"\n",
            "key `periodic.regeneration.amount`",
        ),
        (
            "\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5\"\nrounds = 0\n",
            "key `periodic.regeneration.rounds`",
        ),
    ];
    for (i, (extra, wanted)) in cases.iter().enumerate() {
        let name = format!("bad{i}.toml");
        std::fs::write(d.path().join(&name), harmless(extra)).unwrap();
        let o = cosmosim(d.path(), &["check", &name]);
        assert_eq!(o.status.code(), Some(2), "{extra}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(wanted), "{extra}: {e}");
    }
    // Names: an unknown one lists those defined; a hit cannot place a regeneration.
    let text = harmless("\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5\"\n")
        .replace(
            "hp = 100\nattacks = [\"tap\"]\n\n[combatants.hero]",
            "hp = 100\nperiodic = [\"regen\"]\nattacks = [\"tap\"]\n\n[combatants.hero]",
        );
    std::fs::write(d.path().join("name.toml"), text).unwrap();
    let o = cosmosim(d.path(), &["check", "name.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("combatants.troll.periodic") && e.contains("\"regeneration\""),
        "{e}"
    );
    let text = harmless("\n[periodic.regeneration]\nkind = \"regeneration\"\namount = \"5\"\n")
        .replace(
            "damage = \"0\"",
            "damage = \"0\"\non_hit = \"regeneration\"",
        );
    std::fs::write(d.path().join("hit.toml"), text).unwrap();
    let o = cosmosim(d.path(), &["check", "hit.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("attacks.tap.on_hit") && e.contains("kind = \"damage\""),
        "{e}"
    );
    // `run` refuses what `check` refuses.
    let o = cosmosim(d.path(), &["-q", "run", "hit.toml", "--out", "x"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The "Monster recipes" file in docs/scenarios.md passes `check` as printed, runs, counts
/// its periodic effects, and its stalemates are warned about as the page says.
#[test]
fn the_monster_recipe_in_the_docs_passes_check_and_runs() {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scenarios.md"))
            .unwrap();
    let at = doc.find("### Monster recipes").expect("recipes section");
    let rest = &doc[at..];
    let start = rest.find("```toml\n").unwrap() + "```toml\n".len();
    let end = start + rest[start..].find("```").unwrap();
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("troll.toml"), &rest[start..end]).unwrap();
    let o = cosmosim(d.path(), &["check", "troll.toml"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The defaults the file relies on include its periodic effects' timing and length.
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("periodic.regeneration.at = turn_start (default)"),
        "{out}"
    );
    assert!(
        out.contains("periodic.bleeding.at = turn_start (default)"),
        "{out}"
    );
    assert!(
        out.contains("periodic.regeneration.rounds = whole combat / 3"),
        "{out}"
    );
    assert!(!out.contains("periodic.bleeding.rounds"), "{out}");
    let o = cosmosim(
        d.path(),
        // --quiet silences progress and the file list, never a warning.
        &["-q", "run", "troll.toml", "--trials", "4000", "--out", "o"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ended unfinished (`round_cap`"), "{err}");
    let summary = std::fs::read_to_string(d.path().join("o/summary.md")).unwrap();
    assert!(summary.contains("## Warnings"), "{summary}");
    let t = combatants(&d.path().join("o"));
    assert!(value(&t, "troll", "periodic_healed_per_combat") > 0.0);
    assert!(value(&t, "troll", "periodic_healed_per_combat") <= 60.0);
    assert!(value(&t, "cub_1", "periodic_dealt_per_combat") > 0.0);
    assert!(value(&t, "hero_1", "periodic_taken_per_combat") > 0.0);
}
