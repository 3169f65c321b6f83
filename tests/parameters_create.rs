//! Character creation numbers as parameters (issue 16, C-CREATE-1..3, cosmos-current.fr.txt
//! l. 193, 195, 205): the accepted sum windows of the ten HP/PM dice
//! (`creation_hp_pm_sum_min`/`_max`, 250..750), of the six stat dice
//! (`creation_stats_sum_min`/`_max`, 200..400) and of the two conversion dice
//! (`conversion_sum_min`/`_max`, 60..140), and the move ceilings (`creation_move_points`,
//! 10, l. 195; `conversion_move_points`, 20, l. 205). The book values give today's bytes; changed
//! values move the figures by checkable amounts.

mod common;

use std::path::Path;

use common::params::{combat_run, cosmosim, skills_exact_column, skills_within_5_se};

const CREATION: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/creation.toml"
);
const CREATION_RACES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scenarios/cosmos/creation-races.toml"
);

/// Every creation parameter at the book's value.
const BOOK: &[&str] = &[
    "creation_hp_pm_sum_min=250",
    "creation_hp_pm_sum_max=750",
    "creation_stats_sum_min=200",
    "creation_stats_sum_max=400",
    "conversion_sum_min=60",
    "conversion_sum_max=140",
    "creation_move_points=10",
    "conversion_move_points=20",
];

/// A conversion file (C-CREATE-3): four kept stats, HP, PM and points.
const CONVERSION: &str = "system = \"cosmos\"\nkind = \"creation\"\n[run]\ntrials = 20000\nseed = 1\n[creation.conversion]\nforce = 50\nesprit = 50\ncharisme = 50\nagilite = 50\nhp = 250\npm = 240\nskill_points = 7\ndna_points = 12\nlevel = 1\n";

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

/// The mean of `quantity` in `creation-distributions.csv`.
fn mean_of(dir: &Path, quantity: &str) -> f64 {
    let csv = std::fs::read_to_string(dir.join("creation-distributions.csv")).unwrap();
    let row = csv
        .lines()
        .find(|l| l.starts_with(&format!("{quantity},")))
        .unwrap();
    row.split(',').nth(1).unwrap().parse().unwrap()
}

/// The `creation-rejection.csv` row of `step`, as fields.
fn rejection(dir: &Path, step: &str) -> Vec<String> {
    let csv = std::fs::read_to_string(dir.join("creation-rejection.csv")).unwrap();
    csv.lines()
        .find(|l| l.starts_with(&format!("{step},")))
        .unwrap()
        .split(',')
        .map(str::to_string)
        .collect()
}

const STATS: [&str; 6] = [
    "force",
    "esprit",
    "charisme",
    "agilite",
    "precision",
    "chance",
];

#[test]
fn book_values_give_todays_bytes() {
    let d = tempfile::tempdir().unwrap();
    let conv = d.path().join("conv.toml");
    std::fs::write(&conv, CONVERSION).unwrap();
    let conv = conv.display().to_string();
    for (i, file) in [CREATION, CREATION_RACES, &conv].into_iter().enumerate() {
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

/// C-CREATE-1: a window of one sum (500..500) makes every character's HP + PM exactly 500;
/// the exact acceptance follows the window and the simulated one agrees with it.
#[test]
fn hp_pm_window_moves_hp_plus_pm() {
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), CREATION, "plain", &[]);
    combat_run(
        d.path(),
        CREATION,
        "narrow",
        &["creation_hp_pm_sum_min=500", "creation_hp_pm_sum_max=500"],
    );
    let (plain, narrow) = (d.path().join("plain"), d.path().join("narrow"));
    let total = mean_of(&narrow, "hp") + mean_of(&narrow, "pm");
    assert!((total - 500.0).abs() < 1e-6, "{total}");
    // The book's window keeps the total near 10 x 50.5 = 505.
    let book = mean_of(&plain, "hp") + mean_of(&plain, "pm");
    assert!((book - 505.0).abs() < 2.0, "{book}");
    // P(10d100 = 500) is about 0.0044 (normal approximation 1 / (sqrt(2 pi) 91.2)).
    let row = rejection(&narrow, "hp_pm_10d100");
    let p: f64 = row[1].parse().unwrap();
    assert!((p - 0.0044).abs() < 0.0002, "{p}");
    assert_eq!(row[5], "true", "{row:?}");
    // Listed in the provenance only when changed.
    let meta =
        |dir: &Path| std::fs::read_to_string(dir.join("creation-distributions.meta.json")).unwrap();
    assert!(meta(&narrow).contains("creation_hp_pm_sum_min"));
    assert!(!meta(&plain).contains("creation_hp_pm_sum_min"));
}

/// C-CREATE-2: a window of one sum (300..300) makes the six stats sum to exactly 300 (the
/// point moves keep the sum); a window at the top (min 380) lifts the sum of the means
/// into 380..400.
#[test]
fn stats_window_moves_the_stat_sum() {
    let d = tempfile::tempdir().unwrap();
    combat_run(
        d.path(),
        CREATION,
        "one",
        &["creation_stats_sum_min=300", "creation_stats_sum_max=300"],
    );
    combat_run(d.path(), CREATION, "top", &["creation_stats_sum_max=480"]);
    combat_run(
        d.path(),
        CREATION,
        "high",
        &["creation_stats_sum_min=300", "creation_stats_sum_max=480"],
    );
    let sum = |o: &str| -> f64 { STATS.iter().map(|s| mean_of(&d.path().join(o), s)).sum() };
    assert!((sum("one") - 300.0).abs() < 1e-6, "{}", sum("one"));
    // The exact mean sum given the window, by convolution; 20,000 characters, sd of the
    // sum at most 43.1: 5 sigma is 1.5.
    let high = sum("high");
    assert!((high - mean_in(300, 480)).abs() < 1.5, "{high}");
    assert!(mean_in(300, 480) > 330.0);
    // Max 480 accepts every roll above the book's 200: just above 6 x 50 = 300.
    let top = sum("top");
    assert!((top - mean_in(200, 480)).abs() < 1.5, "{top}");
    let row = rejection(&d.path().join("top"), "stats_6d100");
    // Only sums below 200 are rejected now.
    let p: f64 = row[1].parse().unwrap();
    assert!((p - (1.0 - p_below_200())).abs() < 1e-9, "{p}");
    assert_eq!(row[5], "true", "{row:?}");
}

/// P(six independent dice uniform on 20..80 sum below 200), by convolution.
fn p_below_200() -> f64 {
    // Offsets from 6 x 20 = 120: sums 120..199 are offsets 0..79.
    six_dice()[..80].iter().sum()
}

/// The mean sum of six dice uniform on 20..80 given a sum in `lo..=hi`.
fn mean_in(lo: usize, hi: usize) -> f64 {
    let d = six_dice();
    let (mut w, mut m) = (0.0, 0.0);
    for s in lo..=hi {
        w += d[s - 120];
        m += s as f64 * d[s - 120];
    }
    m / w
}

/// The law of the sum of six dice uniform on 20..80, by offset from 120.
fn six_dice() -> Vec<f64> {
    let mut dist = vec![1.0_f64];
    for _ in 0..6 {
        let mut next = vec![0.0; dist.len() + 60];
        for (s, p) in dist.iter().enumerate() {
            for f in 0..61 {
                next[s + f] += p / 61.0;
            }
        }
        dist = next;
    }
    dist
}

/// C-CREATE-3: a conversion window of one sum (100..100) makes Précision + Chance exactly
/// 100; the book's window leaves the mean at 100 by symmetry.
#[test]
fn conversion_window_moves_precision_plus_chance() {
    let d = tempfile::tempdir().unwrap();
    let conv = d.path().join("conv.toml");
    std::fs::write(&conv, CONVERSION).unwrap();
    let conv = conv.display().to_string();
    combat_run(
        d.path(),
        &conv,
        "one",
        &["conversion_sum_min=100", "conversion_sum_max=100"],
    );
    combat_run(d.path(), &conv, "low", &["conversion_sum_max=100"]);
    let one = d.path().join("one");
    let s = mean_of(&one, "precision") + mean_of(&one, "chance");
    assert!((s - 100.0).abs() < 1e-6, "{s}");
    // Sums 60..100 of two dice on 20..80: weights k - 39 for k = 60..100 (21..61), mean
    // sum(k (k - 39)) / sum(k - 39).
    let (mut w, mut m) = (0.0, 0.0);
    for k in 60..=100 {
        w += (k - 39) as f64;
        m += (k * (k - 39)) as f64;
    }
    let low = d.path().join("low");
    let s = mean_of(&low, "precision") + mean_of(&low, "chance");
    assert!((s - m / w).abs() < 0.5, "{s} vs {}", m / w);
    let row = rejection(&low, "conversion_2d100");
    let p: f64 = row[1].parse().unwrap();
    assert!((p - w / 3721.0).abs() < 1e-9, "{p}");
}

#[test]
fn out_of_range_windows_are_refused_with_the_range() {
    let d = tempfile::tempdir().unwrap();
    for (opt, range) in [
        ("creation_hp_pm_sum_min=501", "from 10 to 500"),
        ("creation_hp_pm_sum_max=499", "from 500 to 1000"),
        ("creation_stats_sum_min=301", "from 120 to 300"),
        ("creation_stats_sum_max=481", "from 300 to 480"),
        ("conversion_sum_min=39", "from 40 to 100"),
        ("conversion_sum_max=99", "from 100 to 160"),
    ] {
        let o = cosmosim(d.path(), &["run", CREATION, "--option", opt, "--out", "x"]);
        assert_eq!(o.status.code(), Some(2), "{opt}");
        let err = String::from_utf8_lossy(&o.stderr);
        let key = opt.split('=').next().unwrap();
        assert!(err.contains(key) && err.contains(range), "{opt}: {err}");
    }
}

/// A creation file with a move policy, `extra` appended to `[creation]`, `rules` as its
/// `[rules]`.
fn moves_file(dir: &Path, name: &str, extra: &str, rules: &str) -> String {
    let p = dir.join(name);
    std::fs::write(
        &p,
        format!(
            "system = \"cosmos\"\nkind = \"creation\"\n[run]\ntrials = 20000\nseed = 1\nstream = \"moves\"\n[creation]\nmove_policy = \"to_first\"\n{extra}[rules]\n{rules}"
        ),
    )
    .unwrap();
    p.display().to_string()
}

fn csv_text(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

/// C-CREATE-2/3: the move ceiling is the default of an unwritten `move_points` with a
/// move policy (0: nothing moves, the stats are the assigned dice, as with no policy),
/// and bounds a written one, in `check` and `run` alike.
#[test]
fn move_ceilings_bound_and_default_the_moves() {
    let d = tempfile::tempdir().unwrap();
    let unwritten = moves_file(d.path(), "u.toml", "", "");
    let zero = moves_file(d.path(), "z.toml", "move_points = 0\n", "");
    let five = moves_file(d.path(), "f.toml", "move_points = 5\n", "");
    combat_run(d.path(), &unwritten, "u0", &["creation_move_points=0"]);
    combat_run(d.path(), &zero, "z", &[]);
    combat_run(d.path(), &unwritten, "u5", &["creation_move_points=5"]);
    combat_run(d.path(), &five, "f", &[]);
    combat_run(d.path(), &unwritten, "u10", &[]);
    let dist = |o: &str| csv_text(&d.path().join(o), "creation-distributions.csv");
    assert_eq!(dist("u0"), dist("z"));
    assert_eq!(dist("u5"), dist("f"));
    // Moves to the first stat (force) raise its mean and keep the sum (the policy text
    // seeds the stream, so the runs draw differently: 5 sigma of the sum's mean is 1.5).
    let sum = |o: &str| -> f64 { STATS.iter().map(|s| mean_of(&d.path().join(o), s)).sum() };
    let force = |o: &str| mean_of(&d.path().join(o), "force");
    assert!(force("u0") < force("u5") && force("u5") < force("u10"));
    assert!(force("u10") - force("u0") <= 10.5);
    assert!((sum("u0") - sum("u10")).abs() < 1.5);
    // A written value above the ceiling in force is refused, naming the parameter.
    let ten = moves_file(d.path(), "t.toml", "move_points = 10\n", "");
    let o = cosmosim(
        d.path(),
        &[
            "run",
            &ten,
            "--option",
            "creation_move_points=5",
            "--out",
            "x",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("0..5 (creation_move_points)"), "{err}");
    let ruled = moves_file(
        d.path(),
        "r.toml",
        "move_points = 10\n",
        "creation_move_points = 5\n",
    );
    let o = cosmosim(d.path(), &["check", &ruled]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("creation_move_points"));
    // Above the book's 10 with the ceiling raised: accepted.
    let fifteen = moves_file(d.path(), "x.toml", "move_points = 15\n", "");
    let o = cosmosim(d.path(), &["check", &fifteen]);
    assert_eq!(o.status.code(), Some(2));
    combat_run(d.path(), &fifteen, "x", &["creation_move_points=20"]);
    // The conversion's own ceiling: 0 moves nothing, as no policy.
    let conv = d.path().join("conv.toml");
    std::fs::write(
        &conv,
        CONVERSION.replace(
            "[creation.conversion]",
            "[creation]\nmove_policy = \"even_out\"\n[creation.conversion]",
        ),
    )
    .unwrap();
    let plain = d.path().join("plain.toml");
    std::fs::write(&plain, CONVERSION).unwrap();
    combat_run(
        d.path(),
        &conv.display().to_string(),
        "c0",
        &["conversion_move_points=0"],
    );
    combat_run(d.path(), &conv.display().to_string(), "c20", &[]);
    combat_run(d.path(), &plain.display().to_string(), "cn", &[]);
    // Policy text differs (even_out:0 vs none:0), so the streams differ: compare the
    // kept stats, which only moves can change.
    for s in ["force", "esprit", "charisme", "agilite"] {
        assert_eq!(mean_of(&d.path().join("c0"), s), 50.0, "{s}");
    }
    assert!(mean_of(&d.path().join("c20"), "force") != 50.0);
}

/// C-CREATE-1 and C-LEVEL-3: the skill tree's exact column (the creation skill points
/// depend on PM) follows the HP/PM window in force: with HP + PM at most 500 (book 750),
/// PM has fewer full hundreds, the column moves, and the simulation still agrees with it
/// (5 sigma at 20,000 characters).
#[test]
fn skill_tree_exact_column_follows_the_hp_pm_window() {
    let build_paths = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/cosmos/build-paths.toml"
    );
    let d = tempfile::tempdir().unwrap();
    combat_run(d.path(), build_paths, "plain", &[]);
    combat_run(
        d.path(),
        build_paths,
        "low",
        &["creation_hp_pm_sum_min=10", "creation_hp_pm_sum_max=500"],
    );
    let csv = |o: &str| csv_text(&d.path().join(o), "leveling-skills.csv");
    let low = csv("low");
    assert_ne!(
        skills_exact_column(&csv("plain")),
        skills_exact_column(&low)
    );
    let checked = skills_within_5_se(&low, 20000.0);
    assert!(checked > 20, "{checked}");
}
