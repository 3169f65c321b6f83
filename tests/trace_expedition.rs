//! Issue 27 item 1: `cosmosim trace` on Great Cosmos expeditions (a traveller alone and a
//! party, abstract fights and played combats): replays tally to the run's counts, `--find`
//! reads how an expedition ended, and the account tells each day's FP/FM moves
//! (C-FAT-1..4) in English and French.

use std::path::Path;

mod common;
use common::trace::{cosmosim, json_trials, shipped};

/// Column `col` of a CSV, as numbers.
fn column(path: &Path, col: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = head.iter().position(|h| *h == col).unwrap();
    lines
        .map(|l| l.split(',').nth(c).unwrap().parse().unwrap())
        .collect()
}

fn fails_naming(dir: &Path, args: &[&str], says: &str) {
    let o = cosmosim(dir, args);
    assert_eq!(o.status.code(), Some(2), "{args:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains(says), "{args:?}: {e}");
}

#[test]
fn a_travellers_replays_tally_to_the_runs_exhaustion_count() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "expedition.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
    let trials = json_trials(&o);
    assert_eq!(trials.len(), 300);
    for (i, t) in trials.iter().enumerate() {
        assert_eq!(t["trial"], i as u64);
        let steps = t["steps"].as_array().unwrap();
        assert_eq!(steps.last().unwrap()["step"], "end");
        assert_eq!(steps.last().unwrap()["outcome"], t["outcome"]);
        // Ten days, each told.
        assert_eq!(steps.iter().filter(|s| s["step"] == "day").count(), 10);
        // Every step that moves a track says from what to what, and the next one starts
        // where it ended.
        let mut at: Option<serde_json::Value> = None;
        for s in steps.iter().filter(|s| s.get("after").is_some()) {
            if let (Some(a), Some(b)) = (&at, s.get("before")) {
                assert_eq!(a, b, "trial {i}: {s}");
            }
            at = Some(s["after"].clone());
        }
    }
    // expedition-exhaustion.csv: p_by_end, the share exhausted on some day.
    let p = column(&d.join("r/expedition-exhaustion.csv"), "p_by_end")[0];
    let exhausted = trials
        .iter()
        .filter(|t| t["outcome"] == "exhausted")
        .count();
    let rest = trials
        .iter()
        .filter(|t| t["outcome"] == "not_exhausted")
        .count();
    assert_eq!(exhausted, (p * 300.0).round() as usize, "p_by_end {p}");
    assert_eq!(exhausted + rest, 300);
    assert!(exhausted > 0 && rest > 0, "{exhausted} of 300");
    // The days' P(exhausted) at the worst point, day by day, from the evenings told.
    let per_day = column(&d.join("r/expedition-days.csv"), "p_exhausted_worst");
    for (day, p) in per_day.iter().enumerate() {
        let n = trials
            .iter()
            .filter(|t| {
                t["steps"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|s| s["step"] == "evening")
                    .nth(day)
                    .unwrap()["exhausted"]
                    == true
            })
            .count();
        assert_eq!(n, (p * 300.0).round() as usize, "day {}", day + 1);
    }
    // The summary says how to see each outcome that happened.
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("## See a trial"), "{s}");
    assert!(
        s.contains("`cosmosim trace expedition.toml --find outcome=exhausted --seed 1`"),
        "{s}"
    );
    assert!(s.contains("--find outcome=not_exhausted --seed 1`"), "{s}");
}

#[test]
fn find_shows_an_exhausted_traveller_and_bad_conditions_name_the_allowed_ones() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "expedition.toml");
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "exhausted",
            "--count",
            "2",
            "--format",
            "json",
        ],
    );
    let found = json_trials(&o);
    assert_eq!(found.len(), 2);
    for t in &found {
        assert_eq!(t["outcome"], "exhausted");
        let steps = t["steps"].as_array().unwrap();
        assert!(
            steps
                .iter()
                .any(|s| s["step"] == "evening" && s["exhausted"] == true),
            "{t}"
        );
        // A track at 10 somewhere.
        assert!(
            steps
                .iter()
                .any(|s| s["after"]["fp"] == 10 || s["after"]["fm"] == 10),
            "{t}"
        );
    }
    // Replayed by number, the found trial tells the same story.
    let n = found[0]["trial"].as_u64().unwrap().to_string();
    let o = cosmosim(d, &["trace", &f, "--trial", &n, "--format", "json"]);
    assert_eq!(json_trials(&o)[0]["steps"], found[0]["steps"]);
    // Exhausted by day 5 (the forced march of days 4 and 5), with a potion drunk.
    let o = cosmosim(
        d,
        &[
            "trace",
            &f,
            "--find",
            "exhausted_by=5,potions_at_least=1",
            "--format",
            "json",
        ],
    );
    let t = &json_trials(&o)[0];
    let end = t["steps"].as_array().unwrap().last().unwrap().clone();
    assert!(end["first_exhaustion"].as_i64().unwrap() <= 5, "{end}");
    assert!(t["steps"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["step"] == "potion"));
    let o = cosmosim(d, &["trace", &f, "--find", "outcome=not_exhausted"]);
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Day 10"), "{text}");
    assert!(
        text.contains("End: not_exhausted (first exhaustion: never)"),
        "{text}"
    );
    for (args, says) in [
        (vec!["trace", &f, "--find", "fire"], "exhausted_by=<day>"),
        (
            vec!["trace", &f, "--find", "outcome=dead"],
            "exhausted, not_exhausted",
        ),
        (vec!["trace", &f, "--find", "exhausted_by=11"], "1..10"),
        (
            vec!["trace", &f, "--find", "stopped_by=3"],
            "potions_at_least",
        ),
    ] {
        fails_naming(d, &args, says);
    }
}

#[test]
fn a_partys_replays_tally_to_the_runs_stops_and_find_reads_a_traveller() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "party-expedition-quick.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "300", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..299", "--format", "json"]);
    let trials = json_trials(&o);
    let p = *column(&d.join("r/party-days.csv"), "p_party_stopped_by_day")
        .last()
        .unwrap();
    let stopped = trials.iter().filter(|t| t["outcome"] == "stopped").count();
    let went_on = trials.iter().filter(|t| t["outcome"] == "went_on").count();
    assert_eq!(stopped, (p * 300.0).round() as usize, "{p}");
    assert_eq!(stopped + went_on, 300);
    assert!(stopped > 0 && went_on > 0, "{stopped} of 300");
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("--find outcome=stopped --seed"), "{s}");
    // Each traveller by name; the shared rations run down.
    let steps = trials[0]["steps"].as_array().unwrap();
    for name in ["Warrior", "Mage", "Scout", "Healer"] {
        assert!(
            steps
                .iter()
                .any(|s| s["step"] == "morning" && s["who"] == name),
            "{name}"
        );
    }
    assert!(steps.iter().any(|s| s["step"] == "rations"));
    let o = cosmosim(
        d,
        &["trace", &f, "--find", "exhausted=Mage", "--format", "json"],
    );
    let t = &json_trials(&o)[0];
    assert!(
        t["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["step"] == "evening" && s["who"] == "Mage" && s["exhausted"] == true),
        "{t}"
    );
    fails_naming(
        d,
        &["trace", &f, "--find", "exhausted=Ogre"],
        "Warrior, Mage, Scout, Healer",
    );
    fails_naming(
        d,
        &["trace", &f, "--find", "outcome=exhausted"],
        "stopped, went_on",
    );
}

#[test]
fn a_played_combat_is_one_step_with_its_result() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    shipped(d, "party-vs-boss.toml");
    let f = shipped(d, "party-expedition.toml");
    let o = cosmosim(d, &["-q", "run", &f, "--trials", "200", "--out", "r"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = cosmosim(d, &["trace", &f, "--trials", "0..199", "--format", "json"]);
    let trials = json_trials(&o);
    let p = *column(&d.join("r/party-days.csv"), "p_party_stopped_by_day")
        .last()
        .unwrap();
    let stopped = trials.iter().filter(|t| t["outcome"] == "stopped").count();
    assert_eq!(stopped, (p * 200.0).round() as usize, "{p}");
    let combat = trials
        .iter()
        .flat_map(|t| t["steps"].as_array().unwrap())
        .find(|s| s["step"] == "combat")
        .expect("a played combat");
    assert_eq!(combat["file"], "party-vs-boss.toml");
    assert!(combat["rounds"].as_u64().unwrap() >= 1);
    let o = cosmosim(
        d,
        &["trace", &f, "--find", "knocked_out", "--format", "json"],
    );
    if o.status.success() {
        let t = &json_trials(&o)[0];
        assert!(t["steps"]
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s["step"] == "fought" && s["knockout"] == true));
    }
}

#[test]
fn the_account_reads_in_french() {
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    let f = shipped(d, "expedition.toml");
    let o = cosmosim(d, &["--lang", "fr", "trace", &f, "--trial", "0"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("Jour 1"), "{text}");
    assert!(text.contains("Le voyageur commence à FP -1"), "{text}");
    assert!(text.contains("court repos de 6 h"), "{text}");
    assert!(text.contains("jour 1 d'affilée sans manger"), "{text}");
    assert!(!text.contains("Day 1"), "{text}");
    let o = cosmosim(
        d,
        &[
            "--lang", "fr", "-q", "run", &f, "--trials", "200", "--out", "r",
        ],
    );
    assert!(o.status.success());
    let s = std::fs::read_to_string(d.join("r/summary.md")).unwrap();
    assert!(s.contains("--find outcome=exhausted --seed 1`"), "{s}");
}

/// The audit of 2026-12-07's played combat (/tmp/audit/expeditions/sc/fight.toml,
/// fightf.toml, fight2.toml): a 1-HP traveller the boss strikes first (`lowest_hp`) with
/// 50 damage, a 5000-HP one, ten rounds; `fatigue` runs the combat's own C-FAT-2 gains,
/// `point` lets the tough one spend a Light point at once.
fn audit_combat(fatigue: bool, point: bool) -> String {
    let stats = "stats = { force = 50, esprit = 50, charisme = 50, agilite = 50, precision = 50, chance = 50 }";
    let mut s = format!(
        "system = \"cosmos\"\nkind = \"combat\"\n[combat]\nmax_rounds = 10\nfatigue = {fatigue}\n\
[attacks.poke]\nstat = \"force\"\ndamage = \"1\"\n[attacks.smash]\nstat = \"force\"\ndamage = \"50\"\n\
[combatants.weak]\nside = \"party\"\nlevel = 1\n{stats}\nhp = 1\npm = 0\nmode = \"offensive\"\nattacks = [\"poke\"]\n\
[combatants.tough]\nside = \"party\"\nlevel = 1\n{stats}\nhp = 5000\npm = 0\nmode = \"offensive\"\nattacks = [\"poke\"]\n\
[combatants.boss]\nside = \"boss\"\nlevel = 1\nstats = {{ force = 80, esprit = 50, charisme = 50, agilite = 80, precision = 50, chance = 50 }}\nhp = 5000\npm = 0\nmode = \"offensive\"\nattacks = [\"smash\"]\n\
[combatants.boss.policy]\ntarget = \"lowest_hp\"\n"
    );
    if point {
        s += "[combatants.tough.policy]\nlight_below_hp = 0.99\n";
    }
    s
}

/// The expedition of sc/linked.toml: one day, both travellers in the combat `combat`.
fn audit_linked(combat: &str, march_fp: i32) -> String {
    format!(
        "system = \"cosmos\"\nkind = \"expedition\"\n[run]\nseed = 1\n[expedition]\ndays = 1\n\
[[expedition.travellers]]\nname = \"weak\"\nforce = 50\nesprit = 50\n\
[[expedition.travellers]]\nname = \"tough\"\nforce = 50\nesprit = 50\n\
[expedition.day]\nmarch_fp = {march_fp}\nmeals = 1\nsleep_hours = 8\nencounters = \"1\"\n\
[expedition.encounter]\ncombat = \"{combat}\"\n\
[expedition.reference_test]\nstat = \"agilite\"\nthreshold = 55\n"
    )
}

/// Each trial's step `kind` of traveller `who`.
fn steps_of(o: &std::process::Output, kind: &str, who: &str) -> Vec<serde_json::Value> {
    json_trials(o)
        .iter()
        .map(|t| {
            t["steps"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["step"] == kind && s["who"] == who)
                .unwrap_or_else(|| panic!("no {kind} of {who}: {t}"))
                .clone()
        })
        .collect()
}

#[test]
fn a_played_combat_counts_hp_lost_and_round_gains_as_in_combat_fatigue() {
    // Audit of 2026-12-07, D2 and D3. "+1 FP et +1 FM tous les 100 PV perdus" (book
    // l.384): HP lost is at most the HP the traveller had, as the in-combat fatigue counts
    // them (docs/rules.md "Fatigue in combat"), so the 1-HP traveller lost 1, never 50 or
    // 75. "Tous les 5 tours de combat et en fin de combat +1 FP" (l.393) goes to those
    // standing: the same +FP whether the combat runs its own fatigue or not. Up to the
    // weak one's fall the boss strikes nobody else, so both combats are the same there.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("fight.toml"), audit_combat(false, false)).unwrap();
    std::fs::write(d.join("fightf.toml"), audit_combat(true, false)).unwrap();
    std::fs::write(d.join("linked.toml"), audit_linked("fight.toml", 0)).unwrap();
    std::fs::write(d.join("linkedf.toml"), audit_linked("fightf.toml", 0)).unwrap();
    let args = |f: &'static str| ["trace", f, "--trials", "0..99", "--format", "json"];
    let plain = cosmosim(d, &args("linked.toml"));
    let tired = cosmosim(d, &args("linkedf.toml"));
    let weak = steps_of(&plain, "fought", "weak");
    let weak_f = steps_of(&tired, "fought", "weak");
    let tough = steps_of(&plain, "fought", "tough");
    let mut down = 0;
    for ((w, wf), t) in weak.iter().zip(&weak_f).zip(&tough) {
        assert!(w["hp_lost"].as_i64().unwrap() <= 1, "{w}");
        // The weak one's only FP gains are the round ones: the in-combat change.
        assert_eq!(w["round_fp"], wf["dfp"], "{w} / {wf}");
        let rounds = w["rounds"].as_i64().unwrap();
        if w["knockout"] == true {
            down += 1;
            assert!(w["round_fp"].as_i64().unwrap() <= rounds / 5, "{w}");
        }
        // Standing to the end: every 5-round mark and the end.
        assert_eq!(t["round_fp"].as_i64().unwrap(), rounds / 5 + 1, "{t}");
    }
    assert!(down > 50, "{down}");
}

#[test]
fn a_light_point_spent_in_a_played_combat_always_relieves() {
    // Audit of 2026-12-07, D1 (sc/linked2.toml): "Utiliser un Light Point ou Dark Point
    // -6 FP et -6 FM" (l.396). The combat let the tough one spend it (neither track at 10,
    // l.440/444), so its relief comes before the fight's gains, never dropped because
    // those gains reached 10.
    let t = tempfile::tempdir().unwrap();
    let d = t.path();
    std::fs::write(d.join("fight2.toml"), audit_combat(false, true)).unwrap();
    std::fs::write(d.join("linked2.toml"), audit_linked("fight2.toml", 3)).unwrap();
    let o = cosmosim(
        d,
        &[
            "trace",
            "linked2.toml",
            "--trials",
            "0..19",
            "--format",
            "json",
        ],
    );
    let mut seen = 0;
    for s in steps_of(&o, "fought", "tough") {
        let k = s["points_used"].as_i64().unwrap();
        let at = |p: &str, t: &str| s[p][t].as_i64().unwrap();
        let relieved = |t: &str| (at("before", t) - 6 * k).max(-3);
        assert_eq!(at("after_points", "fp"), relieved("fp"), "{s}");
        assert_eq!(at("after_points", "fm"), relieved("fm"), "{s}");
        let (rfp, hs) = (
            s["round_fp"].as_i64().unwrap(),
            s["hp_steps"].as_i64().unwrap(),
        );
        let fp = relieved("fp") + rfp + hs;
        let fm = relieved("fm") + hs;
        if k > 0 && fp < 10 && fm < 10 {
            seen += 1;
            assert_eq!((at("after", "fp"), at("after", "fm")), (fp, fm), "{s}");
        }
    }
    assert!(seen > 0);
}
