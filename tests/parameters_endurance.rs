//! Endurance parameters (issue 16): exhaustion as a parameter (`fatigue_exhausted_at`,
//! C-FAT-4, also the tracks' ceiling of C-FAT-2), an expedition's own numbers
//! (`fatigue_daily_gain` C-FAT-2; `fatigue_full_rest`, `fatigue_exhaustion_rest_hours`,
//! `fatigue_meal_relief` C-FAT-3) and its fights reading the combat gains of C-FAT-2.
//! Book values give today's bytes; changed values move the figures they should, by
//! hand-computed amounts. The level-5 grant (`level5_points`) is in `parameters_level5.rs`.

mod common;

use std::path::Path;

use cosmosim::rules::RuleOptions;
use cosmosim::systems::cosmos::growth::fatigue::expedition::TrekRules;
use cosmosim::systems::cosmos::growth::fatigue::{FatigueLevels, FatigueState};
use cosmosim::systems::cosmos::growth::scenarios::expedition::{ReferenceTable, ReferenceTest};
use cosmosim::systems::cosmos::growth::stats::Stat;
use cosmosim::systems::cosmos::growth::{GrowthRules, PassiveTest};
use cosmosim::systems::cosmos::TestRules;

use common::params::{cell, cosmosim, csvs, day, run, write};

const EXPEDITION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/expedition.toml"
);
const PARTY_QUICK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/party-expedition-quick.toml"
);

/// A traveller with no starting modifier, `days` days of meals x3 and 8 h nights, a
/// march of `march_fp`, `encounters` fights a day of `rounds` rounds with one psychic
/// attack each when `psychic` (no HP or PM lost); the reference test Agilité 55, karma 0.
fn trek(days: u32, march_fp: i32, encounters: &str, rounds: &str, psychic: bool) -> String {
    format!(
        r#"system = "cosmos"
kind = "expedition"

[expedition]
days = {days}

[expedition.traveller]
force = 50
esprit = 50

[expedition.day]
march_fp = {march_fp}
march_fm = 0
meals = 3
pauses = 0
sleep_hours = 8
rest_quality = 0
encounters = "{encounters}"

[expedition.encounter]
rounds = "{rounds}"
hp_lost = "0"
pm_spent = "0"
psychic_attacks = "{psychic}"

[expedition.reference_test]
stat = "agilite"
threshold = 55
karma = 0
"#,
        psychic = i32::from(psychic)
    )
}

/// Two combatants trading harmless blows for 3 rounds with in-combat fatigue on; the
/// hero starts at FP 8.
const TIRED: &str = r#"system = "cosmos"
kind = "combat"

[combat]
fatigue = true
max_rounds = 3

[attacks.tickle]
stat = "force"
damage = "0"

[combatants.hero]
side = "a"
level = 3
stats = { force = 60, esprit = 50, charisme = 40, agilite = 60, precision = 50, chance = 50 }
hp = 100
fp_start = 8
attacks = ["tickle"]

[combatants.foe]
side = "b"
level = 3
stats = { force = 60, esprit = 40, charisme = 40, agilite = 40, precision = 50, chance = 50 }
hp = 100
attacks = ["tickle"]
"#;

#[test]
fn endurance_parameters_at_their_book_values_give_todays_bytes() {
    // The typed numbers agree with the registry's defaults.
    assert_eq!(
        TrekRules::from_options(&RuleOptions::default()),
        TrekRules::BOOK
    );
    assert_eq!(TestRules::default().fatigue, FatigueLevels::default());
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let tired = write(t, "tired.toml", TIRED);
    let book = [
        "fatigue_exhausted_at=10",
        "fatigue_daily_gain=1",
        "fatigue_full_rest=7",
        "fatigue_exhaustion_rest_hours=12",
        "fatigue_meal_relief=1",
    ];
    for (i, file) in [EXPEDITION, PARTY_QUICK, tired.as_str()].iter().enumerate() {
        run(t, file, &format!("b{i}"), "4000", &[]);
        run(t, file, &format!("p{i}"), "4000", &book);
        assert_eq!(
            csvs(&t.join(format!("p{i}"))),
            csvs(&t.join(format!("b{i}"))),
            "{file}"
        );
    }
    let table = |out: &str, opt: &[&str]| {
        let mut args = vec!["table", "cosmos-movement", "--out", out, "--quiet"];
        for o in opt {
            args.extend(["--option", o]);
        }
        assert!(cosmosim(t, &args).status.success());
        std::fs::read_to_string(t.join(out).join("cosmos-movement.csv")).unwrap()
    };
    assert_eq!(table("mb", &[]), table("mp", &["fatigue_exhausted_at=10"]));
}

/// C-FAT-4 by hand on the exact (FP, FM) reference table: exhaustion at 9 makes FP 9 a
/// blocked test and FM 9 a failed concentration, and leaves FP 8 as it was.
#[test]
fn exhaustion_moves_the_exact_reference_table() {
    let book = TestRules::default();
    let at9 = TestRules::from_options(
        &RuleOptions::from_pairs(&["fatigue_exhausted_at=9"], cosmosim::lang::Lang::En).unwrap(),
    );
    assert_eq!(at9.fatigue.exhausted, 9);
    assert_eq!(at9.fatigue.state(9), FatigueState::Exhausted);
    assert_eq!(at9.fatigue.state(8), FatigueState::Extreme);
    let test = |concentrate| ReferenceTest {
        stat: Stat::Agilite,
        threshold: 55.0,
        karma: 0,
        concentrate,
    };
    let k = PassiveTest::Karma;
    let plain_b = ReferenceTable::new(&test(None), &book, k).unwrap();
    let plain_9 = ReferenceTable::new(&test(None), &at9, k).unwrap();
    // FP 9: extreme in the book (55 - 30 = 25, crit band from 86: 1..25 and 42 -> 0.26),
    // exhausted at 9 ("incapable de bouger, agir"): 0.
    assert!((plain_b.at(9, 0) - 0.26).abs() < 1e-12);
    assert_eq!(plain_9.at(9, 0), 0.0);
    // FP 8 and FM 9 alone: an Agilité test is untouched by FM exhaustion.
    for (fp, fm) in [(8, 0), (7, 3), (0, 9), (-3, -3)] {
        assert_eq!(plain_9.at(fp, fm), plain_b.at(fp, fm), "({fp}, {fm})");
    }
    // Concentrating at FP 8 (extreme) needs FM below exhaustion (C-FAT-5). Book, FM 9 is
    // extreme: the passive Esprit 50 test is at 20 with the band from 86 (1..20 and 42:
    // 0.21), then 55 - 15 = 40 (0.41) or 25 (0.26). At 9, FM 9 is exhaustion: 0.26.
    let conc_b = ReferenceTable::new(&test(Some(50.0)), &book, k).unwrap();
    let conc_9 = ReferenceTable::new(&test(Some(50.0)), &at9, k).unwrap();
    assert!((conc_b.at(8, 9) - (0.21 * 0.41 + 0.79 * 0.26)).abs() < 1e-12);
    assert!((conc_9.at(8, 9) - 0.26).abs() < 1e-12);
    // An Esprit test is blocked at FM 9 under exhaustion at 9 only.
    let esprit = ReferenceTest {
        stat: Stat::Esprit,
        ..test(None)
    };
    assert!(ReferenceTable::new(&esprit, &book, k).unwrap().at(0, 9) > 0.0);
    assert_eq!(ReferenceTable::new(&esprit, &at9, k).unwrap().at(0, 9), 0.0);
}

/// The movement table (exact): Agilité 60 walks ceil(60/20) = 3, 1 at FP 8 in the book
/// (-2 for extreme fatigue); with exhaustion at 8 it cannot move at all, and its sprint
/// test is blocked; FP 6 is untouched.
#[test]
fn exhaustion_moves_the_movement_table() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let row = |out: &str, opt: Option<&str>, fp: &str| -> (String, String, String) {
        let mut args = vec![
            "table",
            "cosmos-movement",
            "--agility",
            "60",
            "--loads",
            "0",
            "--fp",
            "6,8",
            "--out",
            out,
            "--quiet",
        ];
        if let Some(o) = opt {
            args.extend(["--option", o]);
        }
        let o = cosmosim(t, &args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let csv = std::fs::read_to_string(t.join(out).join("cosmos-movement.csv")).unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
        for l in lines {
            let c: Vec<&str> = l.split(',').collect();
            if c[at("fp")] == fp {
                return (
                    c[at("move_walk")].to_string(),
                    c[at("fatigue_state")].to_string(),
                    c[at("p_sprint_success")].to_string(),
                );
            }
        }
        panic!("no row at fp {fp}");
    };
    let book = row("b", None, "8");
    assert_eq!((book.0.as_str(), book.1.as_str()), ("1", "extreme"));
    let at8 = row("e", Some("fatigue_exhausted_at=8"), "8");
    assert_eq!((at8.0.as_str(), at8.1.as_str()), ("0", "exhausted"));
    assert_eq!(at8.2.parse::<f64>().unwrap(), 0.0);
    assert_eq!(
        row("e", Some("fatigue_exhausted_at=8"), "6"),
        row("b", None, "6")
    );
}

/// Monte Carlo against hand-computed exact values under a changed exhaustion: one day,
/// +1 daily +6 march = FP 7, then 1d4-1 fights of one round (+1 FP each: rounds/5 + 1).
/// Book: FP 7, 8, 9, 10 equally likely: P(exhausted) 1/4, mean FP 8.5, FM 1, reference
/// Agilité 55: (0.45 + 0.26 + 0.26 + 0) / 4. Exhaustion at 8: FP 7, 8, 8, 8, the 1 and 2
/// FP past 8 spill onto FM (1, 1, 2, 3): P(exhausted) 3/4, mean FP 7.75, FM 1.75,
/// reference (0.45 + 0 + 0 + 0) / 4 (the extreme state is empty).
#[test]
fn exhaustion_caps_the_tracks_of_an_expedition_mc_against_exact() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "edge.toml", &trek(1, 6, "1d4-1", "1", false));
    let n = 20_000.0;
    run(t, &f, "b", "20000", &[]);
    run(t, &f, "e", "20000", &["fatigue_exhausted_at=8"]);
    // 5 standard errors of each figure (variance at most that of the values' spread).
    let close = |got: f64, want: f64, var: f64| {
        assert!(
            (got - want).abs() <= 5.0 * (var / n).sqrt(),
            "{got} vs {want}"
        );
    };
    close(day(t, "b", 1, "p_exhausted_worst"), 0.25, 0.25 * 0.75);
    close(day(t, "b", 1, "fp_worst_mean"), 8.5, 1.25);
    assert_eq!(day(t, "b", 1, "fm_worst_mean"), 1.0);
    close(
        day(t, "b", 1, "p_reference_success_worst"),
        (0.45 + 0.26 + 0.26) / 4.0,
        0.05,
    );
    close(day(t, "e", 1, "p_exhausted_worst"), 0.75, 0.75 * 0.25);
    close(day(t, "e", 1, "fp_worst_mean"), 7.75, 0.1875);
    close(day(t, "e", 1, "fm_worst_mean"), 1.75, 0.6875);
    close(
        day(t, "e", 1, "p_reference_success_worst"),
        0.45 / 4.0,
        0.05,
    );
    // The tracks never pass the ceiling.
    assert_eq!(day(t, "e", 1, "fp_worst_p95"), 8.0);
}

/// C-FAT-2 / C-FAT-3 by hand in a two-day trek with one fight of 5 rounds and one psychic
/// attack a day. Day 1: +1/+1, the fight +2 FP (5/5 + 1) and +2 FM: worst (3, 3); three
/// meals -3/-3: end (0, 0); the night's full rest -7/-7: (-3, -3). Day 2: worst (0, 0).
#[test]
fn an_expedition_reads_the_endurance_parameters_by_hand() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "slog.toml", &trek(2, 0, "1", "5", true));
    let worst = |out: &str, opts: &[&str], d: i64| {
        run(t, &f, out, "200", opts);
        (
            day(t, out, d, "fp_worst_mean"),
            day(t, out, d, "fm_worst_mean"),
        )
    };
    assert_eq!(worst("book", &[], 1), (3.0, 3.0));
    assert_eq!(worst("book", &[], 2), (0.0, 0.0));
    // fatigue_daily_gain = 2: +2/+2 a day.
    assert_eq!(worst("daily", &["fatigue_daily_gain=2"], 1), (4.0, 4.0));
    // The combat gains of C-FAT-2 reach the abstract encounter: +1 FP every 2 rounds
    // (5/2 + 1 = 3), +4 FM per psychic attack; each leaves the other track.
    assert_eq!(worst("r2", &["fatigue_rounds_per_fp=2"], 1), (4.0, 3.0));
    assert_eq!(worst("psy", &["fatigue_psychic_fm=4"], 1), (3.0, 5.0));
    // The fight's end gain apart (fatigue_combat_end_fp): 5/5 + 0 = 1 FP, 5/5 + 3 = 4 FP.
    assert_eq!(worst("end0", &["fatigue_combat_end_fp=0"], 1), (2.0, 3.0));
    assert_eq!(worst("end3", &["fatigue_combat_end_fp=3"], 1), (5.0, 3.0));
    // fatigue_full_rest = 0: the night leaves (0, 0), so day 2 peaks at (3, 3); with 5,
    // (-3, -3) as in the book (the floor).
    assert_eq!(worst("rest0", &["fatigue_full_rest=0"], 2), (3.0, 3.0));
    assert_eq!(worst("rest5", &["fatigue_full_rest=5"], 2), (0.0, 0.0));
    // fatigue_meal_relief = 2: the three meals of day 1 take (3, 3) to (-3, -3), not (0, 0).
    run(t, &f, "meal2", "200", &["fatigue_meal_relief=2"]);
    assert_eq!(day(t, "book", 1, "fp_end_mean"), 0.0);
    assert_eq!(day(t, "meal2", 1, "fp_end_mean"), -3.0);
    assert_eq!(day(t, "meal2", 1, "fm_worst_mean"), 3.0);
    // Exhaustion clears only with a long enough rest (C-FAT-3). A march of +9: day 1 at
    // FP 10 (exhausted), FM 1, meals take FM to -2 only. Book: the 8 h night leaves FP at
    // 10 (FM -3), so day 2's +10 FP all spills: FM -3 + 1 + 10 = 8. With 8 h enough, the
    // night recovers FP to 3 and day 2 spills 3: FM -3 + 1 + 3 = 1.
    let g = write(t, "march.toml", &trek(2, 9, "0", "1", false));
    run(t, &g, "m_book", "200", &[]);
    run(t, &g, "m_h8", "200", &["fatigue_exhaustion_rest_hours=8"]);
    assert_eq!(day(t, "m_book", 1, "fp_end_mean"), 10.0);
    assert_eq!(day(t, "m_book", 2, "fm_worst_mean"), 8.0);
    assert_eq!(day(t, "m_h8", 2, "fm_worst_mean"), 1.0);
    assert_eq!(day(t, "m_h8", 2, "fp_worst_mean"), 10.0);
    // The previous edition has no endurance rule (C-EDITION): an expedition is refused
    // (tests/parameters_editions.rs), and the set's endurance numbers are 0, which a
    // combat with `fatigue = true` plays as a fight without fatigue.
    assert_eq!(
        RuleOptions::from_pairs(&["edition=previous"], cosmosim::lang::Lang::En)
            .unwrap()
            .get("fatigue_daily_gain"),
        "0"
    );
    assert_eq!(GrowthRules::default().trek, TrekRules::BOOK);
}

/// A combat with in-combat fatigue, the hero starting at FP 8: in the book it is in
/// extreme fatigue and acts; with exhaustion at 8 it cannot act (C-FAT-4), and the +1 FP
/// at combat end spills onto its FM (C-FAT-2): FP 8, FM 1 (book: FP 9, FM 0).
#[test]
fn exhaustion_stops_a_combatant_and_its_gains_spill() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let f = write(t, "tired.toml", TIRED);
    run(t, &f, "b", "2000", &[]);
    run(t, &f, "e", "2000", &["fatigue_exhausted_at=8"]);
    let c = "combat-combatants.csv";
    assert!(cell(t, "b", c, "hero", "actions_per_combat") > 0.0);
    assert_eq!(cell(t, "e", c, "hero", "actions_per_combat"), 0.0);
    assert_eq!(cell(t, "b", c, "hero", "fp_end_mean"), 9.0);
    assert_eq!(cell(t, "b", c, "hero", "fm_end_mean"), 0.0);
    assert_eq!(cell(t, "e", c, "hero", "fp_end_mean"), 8.0);
    assert_eq!(cell(t, "e", c, "hero", "fm_end_mean"), 1.0);
    // The foe is not touched: 3 rounds, +1 FP at the end.
    assert_eq!(cell(t, "e", c, "foe", "fp_end_mean"), 1.0);
    // The fatigue report counts the hero's FP as exhausted under the value in force.
    let fat = "combat-fatigue.csv";
    let p = |out: &str| {
        let csv = std::fs::read_to_string(t.join(out).join(fat)).unwrap();
        let mut lines = csv.lines();
        let head: Vec<&str> = lines.next().unwrap().split(',').collect();
        let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
        lines
            .map(|l| l.split(',').collect::<Vec<_>>())
            .find(|c| c[0] == "hero" && c[at("track")] == "fp")
            .map(|c| {
                (
                    c[at("p_extreme")].to_string(),
                    c[at("p_exhausted")].to_string(),
                )
            })
            .unwrap()
    };
    let (b, e) = (p("b"), p("e"));
    assert_eq!(b.0.parse::<f64>().unwrap(), 1.0);
    assert_eq!(e.1.parse::<f64>().unwrap(), 1.0);
}

/// No fatigue state may start past exhaustion (C-FAT-4): exit 2 with the rule, from
/// `--option`, a file's `[rules]` (located) and a variant.
#[test]
fn a_state_past_exhaustion_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let o = cosmosim(
        t,
        &[
            "table",
            "cosmos-movement",
            "--option",
            "fatigue_exhausted_at=6",
            "--out",
            "x",
            "--quiet",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("fatigue_moderate_from = 6") || e.contains("fatigue_extreme_from = 8"),
        "{e}"
    );
    assert!(
        e.contains("fatigue_exhausted_at = 6") && e.contains("C-FAT-4"),
        "{e}"
    );
    // Lowering the states too is fine.
    let ok = cosmosim(
        t,
        &[
            "table",
            "cosmos-movement",
            "--option",
            "fatigue_exhausted_at=6",
            "--option",
            "fatigue_moderate_from=5",
            "--option",
            "fatigue_extreme_from=6",
            "--out",
            "y",
            "--quiet",
        ],
    );
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    // In a file: `check` points at the file's key, as `run` does.
    let text = format!(
        "{}\n[rules]\nfatigue_exhausted_at = 7\n",
        trek(1, 0, "0", "1", false)
    );
    let f = write(t, "bad.toml", &text);
    for cmd in ["check", "run"] {
        let mut args = vec![cmd, f.as_str(), "--quiet"];
        if cmd == "run" {
            args.extend(["--out", "z"]);
        }
        let o = cosmosim(t, &args);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains("rules.fatigue_exhausted_at"), "{cmd}: {e}");
        assert!(e.contains("fatigue_extreme_from = 8"), "{cmd}: {e}");
    }
    // A variant that lowers exhaustion alone is refused before anything runs.
    let exp = write(t, "ok.toml", &trek(1, 0, "0", "1", false));
    let v = write(
        t,
        "v.toml",
        &format!("[[study]]\nscenario = \"{exp}\"\n\n[variants.early]\nfatigue_exhausted_at = 7\n"),
    );
    let o = cosmosim(t, &["variants", &v, "--out", "vv", "--quiet"]);
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("variants.early.fatigue_exhausted_at"), "{e}");
}

/// French (issue 14): the conflict message in the book's terms, and an expedition under a
/// changed exhaustion writes the same CSVs in both languages.
#[test]
fn endurance_parameters_in_french() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    let o = cosmosim(
        t,
        &[
            "table",
            "cosmos-movement",
            "--lang",
            "fr",
            "--option",
            "fatigue_exhausted_at=7",
            "--out",
            "x",
            "--quiet",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains("fatigue_extreme_from = 8 dépasse fatigue_exhausted_at = 7"),
        "{e}"
    );
    assert!(e.contains("l'épuisement ; valeurs admises :"), "{e}");
    let f = write(t, "edge.toml", &trek(2, 6, "1d4-1", "1", false));
    run(t, &f, "en", "2000", &["fatigue_exhausted_at=9"]);
    let mut args = vec![
        "run",
        f.as_str(),
        "--trials",
        "2000",
        "--seed",
        "1",
        "--out",
        "fr",
        "--quiet",
    ];
    args.extend(["--lang", "fr", "--option", "fatigue_exhausted_at=9"]);
    assert!(cosmosim(t, &args).status.success());
    assert_eq!(csvs(&t.join("fr")), csvs(&t.join("en")));
    let summary = std::fs::read_to_string(t.join("fr/summary.md")).unwrap();
    assert!(
        summary.contains("épuisement") || summary.contains("Épuisement"),
        "{summary}"
    );
}

const PARTY_LINKED: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/party-expedition.toml"
);

/// The figure `column` on day `d` of `party-days.csv` in run `out`.
fn party_day(dir: &Path, out: &str, d: i64, column: &str) -> f64 {
    let csv = std::fs::read_to_string(dir.join(out).join("party-days.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |c: &str| head.iter().position(|h| *h == c).unwrap();
    for l in lines {
        let c: Vec<&str> = l.split(',').collect();
        if c[at("day")] == d.to_string() {
            return c[at(column)].parse().unwrap();
        }
    }
    panic!("no day {d}");
}

/// A run's options reach the combat an expedition plays (issue 10 item 9, issue 16): the
/// party of party-expedition.toml fights the fire drake of party-vs-boss.toml, where water
/// doubles on fire (C-ELEM). `--option element_cells=eau>feu=1` takes that away, so the
/// drake knocks out more travellers on the first fight day (2); the book value written
/// out gives the same bytes, and the value in force is in the provenance.
#[test]
fn run_options_reach_the_linked_combat() {
    let d = tempfile::tempdir().unwrap();
    let t = d.path();
    run(t, PARTY_LINKED, "book", "3000", &[]);
    run(t, PARTY_LINKED, "none", "3000", &["element_cells=none"]);
    run(t, PARTY_LINKED, "dry", "3000", &["element_cells=eau>feu=1"]);
    assert_eq!(csvs(&t.join("book")), csvs(&t.join("none")));
    let able = |out: &str| party_day(t, out, 2, "able_travellers_mean");
    // At 3 000 trials the mean's standard error is under 0.02; the gap is about 0.25.
    assert!(
        able("dry") < able("book") - 0.1,
        "{} vs {}",
        able("dry"),
        able("book")
    );
    let meta = std::fs::read_to_string(t.join("dry").join("party-days.meta.json")).unwrap();
    assert!(meta.contains(r#""element_cells": "eau>feu=1""#), "{meta}");
}
