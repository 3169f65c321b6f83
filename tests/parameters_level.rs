//! Level-up dice as parameters (issue 16): C-LEVEL-4's DNA grants (`dna_creation_base`,
//! `dna_creation_die`, book "5+1d20 points d'ADN", l. 278; `dna_level3_die`..), C-LEVEL-3's
//! skill points (`skill_*`, l. 551), C-LEVEL-2's Chance bonus (`chance_bonus_dice`,
//! `chance_bonus_die`, l. 94) and C-LEVEL-1's gains and caps (`level2_two_die`..,
//! `stat_cap_low`, `stat_cap_high`, l. 45, 88-90): the book values give today's bytes;
//! changed values move the figures by hand-computed amounts.

mod common;

use std::path::Path;

use common::params::{combat_run, cosmosim, skills_exact_column, skills_within_5_se};

const LEVELING: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/leveling.toml"
);
const BUILD_PATHS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/build-paths.toml"
);

/// Every level-up parameter at the book's value.
const BOOK: &[&str] = &[
    "dna_creation_base=5",
    "dna_creation_die=20",
    "dna_level3_die=4",
    "dna_level6_die=6",
    "dna_level9_die=8",
    "skill_creation_die=6",
    "skill_pm_die=6",
    "skill_pm_step=100",
    "skill_bonus_die=6",
    "skill_level_die=4",
    "skill_level_minus=1",
    "skill_zero_carry=2",
    "chance_bonus_dice=2",
    "chance_bonus_die=20",
    "level2_two_die=10",
    "level2_one_die=20",
    "level3_die=10",
    "level4_die=100",
    "stat_cap_low=80",
    "stat_cap_high=85",
    "level5_move_max=10",
];

/// Every file of a run (CSV, meta, summary, charts), by name.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    v.sort();
    v
}

/// The mean of `quantity` at `level` in `leveling-quantiles.csv`.
fn mean_at(csv: &str, level: u32, quantity: &str) -> f64 {
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{level},{quantity},")))
        .unwrap();
    row.split(',').nth(2).unwrap().parse().unwrap()
}

#[test]
fn book_values_give_todays_bytes() {
    let d = tempfile::tempdir().unwrap();
    for (i, file) in [LEVELING, BUILD_PATHS].into_iter().enumerate() {
        let (plain, book) = (format!("plain{i}"), format!("book{i}"));
        combat_run(d.path(), file, &plain, &[]);
        combat_run(d.path(), file, &book, BOOK);
        let (a, b) = (files(&d.path().join(plain)), files(&d.path().join(book)));
        assert_eq!(a.len(), b.len());
        for ((na, fa), (nb, fb)) in a.iter().zip(&b) {
            assert_eq!(na, nb);
            assert!(fa == fb, "{file}: {na} differs at the book's values");
        }
    }
}

#[test]
fn changed_values_move_the_dna_figures_they_should() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), LEVELING, "plain", &[]);
    combat_run(d.path(), LEVELING, "base8", &["dna_creation_base=8"]);
    combat_run(d.path(), LEVELING, "d10", &["dna_creation_die=10"]);
    let read =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.csv")).unwrap();
    let (plain, base8, d10) = (read("plain"), read("base8"), read("d10"));
    // Same draws, 3 more points each: every level's mean DNA moves by exactly 3, and
    // nothing else moves.
    for level in 1..=10 {
        let delta = mean_at(&base8, level, "dna_points") - mean_at(&plain, level, "dna_points");
        assert!((delta - 3.0).abs() < 1e-9, "level {level}: {delta}");
        assert_eq!(
            mean_at(&base8, level, "skill_points"),
            mean_at(&plain, level, "skill_points")
        );
    }
    // 5 + 1d10: mean 10.5 at level 1 (20,000 characters, sd sqrt(99/12) = 2.87: 5 sigma
    // is 0.10), and the summary's exact check reads the parameters.
    let m = mean_at(&d10, 1, "dna_points");
    assert!((m - 10.5).abs() < 0.11, "{m}");
    let s = std::fs::read_to_string(d.path().join("d10").join("summary.md")).unwrap();
    assert!(s.contains("level 1, DNA points: exact mean 10.5000"), "{s}");
    // Listed in the provenance only when changed.
    let meta = |o: &str| {
        std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.meta.json")).unwrap()
    };
    assert!(meta("d10").contains("dna_creation_die"));
    assert!(!meta("plain").contains("dna_creation_die"));
}

/// C-LEVEL-4's level dice: with no level-6 die the mean DNA from level 6 on drops by
/// exactly the d6's 3.5 in the exact check, and the simulated mean follows it; a d20 at
/// level 3 adds 8 to the exact mean from level 3 on (10.5 for 2.5).
#[test]
fn level_dice_move_the_exact_dna_check() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), LEVELING, "no6", &["dna_level6_die=0"]);
    combat_run(d.path(), LEVELING, "d20at3", &["dna_level3_die=20"]);
    let s = |o: &str| std::fs::read_to_string(d.path().join(o).join("summary.md")).unwrap();
    // Book: 15.5, 18, 21.5, 26, 26 at levels 1, 3, 6, 9, 10.
    let no6 = s("no6");
    assert!(
        no6.contains("level 3, DNA points: exact mean 18.0000"),
        "{no6}"
    );
    assert!(
        no6.contains("level 6, DNA points: exact mean 18.0000"),
        "{no6}"
    );
    assert!(
        no6.contains("level 10, DNA points: exact mean 22.5000"),
        "{no6}"
    );
    let d20 = s("d20at3");
    assert!(
        d20.contains("level 3, DNA points: exact mean 26.0000"),
        "{d20}"
    );
    assert!(
        d20.contains("level 10, DNA points: exact mean 34.0000"),
        "{d20}"
    );
    let csv = std::fs::read_to_string(d.path().join("no6").join("leveling-quantiles.csv")).unwrap();
    // 20,000 characters; sd of the DNA sum at level 10 without the d6 below 6.5: 5 sigma
    // is under 0.23.
    let m = mean_at(&csv, 10, "dna_points");
    assert!((m - 22.5).abs() < 0.23, "{m}");
}

#[test]
fn out_of_range_values_are_refused_with_the_range() {
    let d = tempfile::tempdir().unwrap();
    let o = cosmosim(
        d.path(),
        &[
            "run",
            LEVELING,
            "--option",
            "dna_creation_die=0",
            "--out",
            "x",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("dna_creation_die") && err.contains("1"),
        "{err}"
    );
}

/// C-LEVEL-3's level-up skill points: without the "-1" a d4 never gives 0, so no carry
/// and 2.5 a level (exactly 5 at level 3, 22.5 at level 10); without the carry, 1d4-1
/// gives 1.5 a level (3 and 13.5). The simulated sums follow (5 sigma: sd of 9 d4 is
/// 3.35, so 0.12 at 20 000 trials).
#[test]
fn skill_parameters_move_the_exact_skill_sums() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), LEVELING, "minus0", &["skill_level_minus=0"]);
    combat_run(d.path(), LEVELING, "carry0", &["skill_zero_carry=0"]);
    let s = |o: &str| std::fs::read_to_string(d.path().join(o).join("summary.md")).unwrap();
    let m0 = s("minus0");
    assert!(
        m0.contains("level 3, skill points gained: exact mean 5.0000"),
        "{m0}"
    );
    assert!(
        m0.contains("level 10, skill points gained: exact mean 22.5000"),
        "{m0}"
    );
    let c0 = s("carry0");
    assert!(
        c0.contains("level 3, skill points gained: exact mean 3.0000"),
        "{c0}"
    );
    assert!(
        c0.contains("level 10, skill points gained: exact mean 13.5000"),
        "{c0}"
    );
    let q =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.csv")).unwrap();
    let m = mean_at(&q("minus0"), 10, "skill_points_gained");
    assert!((m - 22.5).abs() < 0.12, "{m}");
    let m = mean_at(&q("carry0"), 10, "skill_points_gained");
    assert!((m - 13.5).abs() < 0.12, "{m}");
}

/// C-LEVEL-3 at creation: with no die per 100 PM and no bonus die the creation skill
/// points are one d6 (mean 3.5; sd 1.71, 5 sigma 0.06 at 20 000), and a d20 instead
/// makes them 10.5.
#[test]
fn creation_skill_dice_move_the_level_1_points() {
    let d = tempfile::tempdir().unwrap();
    combat_run(
        d.path(),
        LEVELING,
        "d6",
        &["skill_pm_die=0", "skill_bonus_die=0"],
    );
    combat_run(
        d.path(),
        LEVELING,
        "d20",
        &[
            "skill_pm_die=0",
            "skill_bonus_die=0",
            "skill_creation_die=20",
        ],
    );
    let q =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.csv")).unwrap();
    let m = mean_at(&q("d6"), 1, "skill_points");
    assert!((m - 3.5).abs() < 0.06, "{m}");
    let m = mean_at(&q("d20"), 1, "skill_points");
    // sd 5.77: 5 sigma 0.21.
    assert!((m - 10.5).abs() < 0.21, "{m}");
}

/// C-LEVEL-2: without the Chance bonus dice, HP + PM at level 10 lose the 2d20's 21 per
/// success, i.e. 21 times the summed P(bonus) of levels 2..10 of the book run (both runs
/// simulated: 5 sigma of the difference is under 6 for an effect near 67).
#[test]
fn chance_bonus_dice_move_hp_and_pm() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), LEVELING, "plain", &[]);
    combat_run(d.path(), LEVELING, "none", &["chance_bonus_dice=0"]);
    let q =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.csv")).unwrap();
    let pool = |o: &str| mean_at(&q(o), 10, "hp") + mean_at(&q(o), 10, "pm");
    let chance =
        std::fs::read_to_string(d.path().join("plain").join("leveling-chance.csv")).unwrap();
    let successes: f64 = chance
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<f64>().unwrap())
        .sum();
    let drop = pool("plain") - pool("none");
    assert!(
        (drop - 21.0 * successes).abs() < 6.0,
        "{drop} vs {successes}"
    );
    // And the P(bonus) itself does not move: the test is rolled as before.
    let none = std::fs::read_to_string(d.path().join("none").join("leveling-chance.csv")).unwrap();
    let s2: f64 = none
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().parse::<f64>().unwrap())
        .sum();
    assert!((s2 - successes).abs() < 0.05, "{s2} vs {successes}");
}

/// C-LEVEL-1: with no level 2, 3, 4 dice and no Chance bonus nothing grows before level
/// 5, so every stat, HP and PM figure at level 4 equals level 1's, byte for byte; with
/// the high cap at 80 no stat passes 80 at level 10 (the book's agilite reaches 85).
#[test]
fn level_gains_and_caps_move_the_stats() {
    let d = tempfile::tempdir().unwrap();
    combat_run(
        d.path(),
        LEVELING,
        "flat",
        &[
            "level2_two_die=0",
            "level3_die=0",
            "level4_die=0",
            "chance_bonus_dice=0",
        ],
    );
    combat_run(d.path(), LEVELING, "cap80", &["stat_cap_high=80"]);
    let q =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.csv")).unwrap();
    let flat = q("flat");
    let row = |level: u32, what: &str| {
        flat.lines()
            .find(|l| l.starts_with(&format!("{level},{what},")))
            .unwrap()
            .split_once(',')
            .unwrap()
            .1
            .to_string()
    };
    for what in [
        "force",
        "esprit",
        "charisme",
        "agilite",
        "precision",
        "chance",
        "hp",
        "pm",
    ] {
        assert_eq!(row(1, what), row(4, what), "{what}");
    }
    let book = q("cap80");
    let agi: Vec<f64> = book
        .lines()
        .find(|l| l.starts_with("10,agilite,"))
        .unwrap()
        .split(',')
        .skip(2)
        .map(|v| v.parse().unwrap())
        .collect();
    assert!(agi.iter().all(|v| *v <= 80.0), "{agi:?}");
    assert_eq!(agi[agi.len() - 1], 80.0);
}

#[test]
fn out_of_range_level_numbers_are_refused() {
    let d = tempfile::tempdir().unwrap();
    for bad in [
        "skill_level_die=0",
        "chance_bonus_die=0",
        "stat_cap_high=101",
        "skill_pm_step=0",
    ] {
        let o = cosmosim(d.path(), &["run", LEVELING, "--option", bad, "--out", "x"]);
        assert_eq!(o.status.code(), Some(2), "{bad}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(bad.split('=').next().unwrap()), "{err}");
    }
}

/// C-LEVEL-1 level 5, "déplacer jusqu'à 10 points": `level5_move_max` bounds the file's
/// `level5_move_points` (in `check` from the file's `[rules]`, in `run` from `--option`
/// too) and is its default with a move policy: at 0 nothing moves, so every stat figure
/// at level 5 equals level 4's (level 5 has no other stat gain); unwritten (as the shipped
/// file leaves it) at the book's 10, the figures are those of a file that writes 10.
#[test]
fn level5_move_max_bounds_and_defaults_the_moves() {
    let d = tempfile::tempdir().unwrap();
    // One stream name for both files: the same draws whatever `level5_move_points` says.
    let text = std::fs::read_to_string(LEVELING).unwrap().replacen(
        "[run]\n",
        "[run]\nstream = \"level5\"\n",
        1,
    );
    let base = d.path().join("base.toml");
    std::fs::write(&base, &text).unwrap();
    let base = base.to_str().unwrap();
    assert!(
        !text.contains("\nlevel5_move_points"),
        "the shipped file leaves it unwritten"
    );
    let ten_text = text.replacen(
        "level5_move_policy = \"to_first\"",
        "level5_move_points = 10\nlevel5_move_policy = \"to_first\"",
        1,
    );
    assert_ne!(ten_text, text);
    std::fs::write(d.path().join("ten.toml"), &ten_text).unwrap();
    let ten = d.path().join("ten.toml");
    let ten = ten.to_str().unwrap();
    combat_run(d.path(), ten, "ten", &[]);
    combat_run(d.path(), base, "default", &[]);
    combat_run(d.path(), base, "none", &["level5_move_max=0"]);
    let q =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-quantiles.csv")).unwrap();
    assert_eq!(q("ten"), q("default"));
    let none = q("none");
    let row = |level: u32, what: &str| {
        none.lines()
            .find(|l| l.starts_with(&format!("{level},{what},")))
            .unwrap()
            .split_once(',')
            .unwrap()
            .1
            .to_string()
    };
    for what in [
        "force",
        "esprit",
        "charisme",
        "agilite",
        "precision",
        "chance",
    ] {
        assert_eq!(row(4, what), row(5, what), "{what}");
    }
    assert_ne!(q("default"), none);
    // A file that writes 10 is refused under a maximum of 5, naming the key.
    let o = cosmosim(
        d.path(),
        &["run", ten, "--option", "level5_move_max=5", "--out", "x"],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("leveling.level5_move_points") && err.contains("0..5"),
        "{err}"
    );
    // `check` reads the file's `[rules]`.
    let ruled = format!("{ten_text}\n[rules]\nlevel5_move_max = 5\n");
    std::fs::write(d.path().join("ruled.toml"), ruled).unwrap();
    let o = cosmosim(d.path(), &["check", "ruled.toml"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("level5_move_points"), "{err}");
}

/// The skill tree's exact column takes the skill parameters: under a d6 per 50 PM, no
/// bonus die, 1d4 a level and no carry, every exact P(wish met) agrees with the simulated
/// one within 5 standard errors (20 000 trials), and the exact column moved.
#[test]
fn skill_tree_exact_column_follows_the_skill_parameters() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), BUILD_PATHS, "plain", &[]);
    combat_run(
        d.path(),
        BUILD_PATHS,
        "changed",
        &[
            "skill_pm_step=50",
            "skill_bonus_die=0",
            "skill_level_minus=0",
            "skill_zero_carry=0",
        ],
    );
    let csv =
        |o: &str| std::fs::read_to_string(d.path().join(o).join("leveling-skills.csv")).unwrap();
    let changed = csv("changed");
    assert_ne!(
        skills_exact_column(&csv("plain")),
        skills_exact_column(&changed)
    );
    let checked = skills_within_5_se(&changed, 20000.0);
    assert!(checked > 20, "{checked}");
}
