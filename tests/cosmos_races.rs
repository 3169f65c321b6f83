//! Race/class stat limits (issue 10 item 11; C-CREATE-2, C-CREATE-3, C-LEVEL-1):
//! exact P(the intended sheet is met) against the simulation, the two conflict readings,
//! the levelling reading, validation, golden CSV and French pages.

use assert_cmd::Command;
use cosmosim::engine::stream;
use cosmosim::systems::cosmos::growth::creation::{
    create_with, Conversion, CreationPolicy, MovePolicy, StatAssign,
};
use cosmosim::systems::cosmos::growth::leveling::{level_up, Hero, LaterLevels, LevelPolicy};
use cosmosim::systems::cosmos::growth::races::{Conflict, Races, Sheet};
use cosmosim::systems::cosmos::growth::scenarios::creation::{expected_rerolls, p_intended};
use cosmosim::systems::cosmos::growth::stats::Stat;
use cosmosim::systems::cosmos::TestRules;

/// |p̂ - p| <= 5 sqrt(p(1-p)/n): fails by chance with probability below 1e-6.
fn close(p_hat: f64, p: f64, n: u64) -> bool {
    (p_hat - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt().max(1e-12)
}

fn sheet(name: &str, min: [i32; 6], max: [i32; 6]) -> Sheet {
    Sheet {
        name: name.into(),
        min,
        max,
    }
}

/// A dwarf warrior (force >= 70, agilite >= 60, charisme <= 30), then a fallback with
/// force >= 55 only.
fn dwarf(conflict: Conflict) -> Races {
    Races {
        sheets: vec![
            sheet("dwarf", [70, 0, 0, 60, 0, 0], [100, 100, 30, 100, 100, 100]),
            sheet("human", [55, 0, 0, 0, 0, 0], [100; 6]),
        ],
        conflict,
    }
}

fn policy(assign: StatAssign, moves: MovePolicy, points: i32) -> CreationPolicy {
    CreationPolicy {
        assign,
        priority: [
            Stat::Force,
            Stat::Agilite,
            Stat::Precision,
            Stat::Esprit,
            Stat::Chance,
            Stat::Charisme,
        ],
        move_policy: moves,
        move_points: points,
        ..Default::default()
    }
}

/// C-CREATE-2: the share of characters that keep the intended sheet (`change`) is the
/// exact P(the moves can meet it), for both assignments and with 0 or 10 moves.
#[test]
fn intended_sheet_kept_matches_the_exact_chance() {
    let n = 200_000u64;
    for (i, (assign, moves, points)) in [
        (StatAssign::Priority, MovePolicy::ToFirst, 10),
        (StatAssign::Priority, MovePolicy::None, 0),
        (StatAssign::InOrder, MovePolicy::EvenOut, 10),
    ]
    .into_iter()
    .enumerate()
    {
        let p = policy(assign, moves, points);
        let races = dwarf(Conflict::Change);
        let exact = p_intended(&p, &races);
        assert!(exact > 0.0 && exact < 1.0, "{exact}");
        let mut rng = stream(21, i as u64, 0);
        let mut kept = 0u64;
        for _ in 0..n {
            let c = create_with(&mut rng, &p, &races);
            if c.race == Some(0) {
                kept += 1;
                let s = c.character.stats;
                assert!(races.sheets[0].met_by(&s), "{s:?}");
                assert!(s.iter().all(|v| (20..=80).contains(v)));
            }
        }
        let got = kept as f64 / n as f64;
        assert!(
            close(got, exact, n),
            "{assign:?} {points}: {got} vs {exact}"
        );
    }
}

/// C-CREATE-3: a conversion keeps its four stats; its 20 moves go first to the sheet.
#[test]
fn conversion_meets_the_sheet_as_the_enumeration_says() {
    let mut p = policy(StatAssign::Priority, MovePolicy::None, 20);
    p.conversion = Some(Conversion {
        stats: [62, 40, 35, 58],
        hp: 200,
        pm: 250,
        skill_points: 4,
        dna: 12,
        level: 1,
    });
    // Force 8 short and agilite 2 short take 10 of the 20 moves (charisme's 5 over go
    // with them); what precision and chance miss of 50 and 40 must fit in the other 10.
    let races = Races {
        sheets: vec![sheet(
            "dwarf",
            [70, 0, 0, 60, 50, 40],
            [100, 100, 30, 100, 100, 100],
        )],
        conflict: Conflict::Change,
    };
    let exact = p_intended(&p, &races);
    assert!(exact > 0.3 && exact < 0.95, "{exact}");
    let n = 200_000u64;
    let mut rng = stream(22, 0, 0);
    let mut kept = 0u64;
    for _ in 0..n {
        let c = create_with(&mut rng, &p, &races);
        kept += u64::from(c.race == Some(0));
        assert_eq!((c.character.hp, c.character.pm), (200, 250));
    }
    assert!(close(kept as f64 / n as f64, exact, n));
}

/// `race_class_conflict = reroll`: every character ends on the intended sheet and the
/// rerolls per character average (1 - p) / p.
#[test]
fn reroll_keeps_the_intended_sheet_and_counts_rerolls() {
    let p = policy(StatAssign::Priority, MovePolicy::ToFirst, 10);
    let races = dwarf(Conflict::Reroll);
    let pm = p_intended(&p, &races);
    let want = expected_rerolls(pm);
    assert!((want - (1.0 - pm) / pm).abs() < 1e-9);
    let n = 200_000u64;
    let mut rng = stream(23, 0, 0);
    let (mut sum, mut sq) = (0.0, 0.0);
    for _ in 0..n {
        let c = create_with(&mut rng, &p, &races);
        assert_eq!(c.race, Some(0));
        let r = c.race_rerolls as f64;
        sum += r;
        sq += r * r;
    }
    let mean = sum / n as f64;
    let sd = (sq / n as f64 - mean * mean).sqrt();
    assert!(
        (mean - want).abs() <= 5.0 * sd / (n as f64).sqrt(),
        "{mean} vs {want}"
    );
}

/// C-LEVEL-1 with `race_limits_levelling = always`: a sheet's maximum caps gains like the
/// 80/85 cap; without it (the default, the book) gains go up to 85.
#[test]
fn a_sheet_maximum_caps_level_ups_only_when_asked() {
    let rules = TestRules::default();
    let p = LevelPolicy {
        later: LaterLevels {
            stat_die: 20,
            stat_count: 6,
            ..Default::default()
        },
        ..Default::default()
    };
    let base = cosmosim::systems::cosmos::growth::creation::Character {
        stats: [55, 50, 50, 50, 50, 50],
        hp: 200,
        pm: 200,
        skill_points: 3,
        dna: 10,
    };
    let mut rng = stream(24, 0, 0);
    let mut over = 0;
    for _ in 0..300 {
        let mut free = Hero::new(base, 0);
        let mut bound = Hero::new(base, 0);
        bound.max[0] = 60;
        let mut r2 = rng.clone();
        for _ in 2..=10 {
            level_up(&mut free, &mut rng, &p, &Stat::ALL, &rules, &[]);
            level_up(&mut bound, &mut r2, &p, &Stat::ALL, &rules, &[]);
            assert!(bound.c.stats[0] <= 60, "{:?}", bound.c.stats);
        }
        over += usize::from(free.c.stats[0] > 60);
    }
    assert!(over > 250, "{over}");
}

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn golden_race_sheet_errors() {
    let dir = tempfile::tempdir().unwrap();
    let head = "system = \"cosmos\"\nkind = \"creation\"\n[[creation.races]]\nname = \"a\"\n";
    let many: String = (0..17)
        .map(|i| format!("[[creation.races]]\nname = \"r{i}\"\n"))
        .collect();
    let cases = [
        (
            format!("{head}min = {{ forse = 50 }}\n"),
            "r0.toml:5:17: key `creation.races[0].min.forse`: \"forse\" is not a stat; allowed: force, esprit, charisme, agilite, precision, chance".to_string(),
        ),
        (
            format!("{head}max = {{ force = 90 }}\n"),
            "r1.toml:5:17: key `creation.races[0].max.force`: 90 is out of range; allowed: 20..85".to_string(),
        ),
        (
            format!("{head}min = {{ force = 60 }}\nmax = {{ force = 50 }}\n"),
            "key `creation.races[0].min.force`: min 60 is above max 50; allowed: min <= max for each stat".to_string(),
        ),
        (
            format!("{head}[[creation.races]]\nname = \"a\"\n"),
            "key `creation.races[1].name`: \"a\" is empty, too long or repeated".to_string(),
        ),
        (
            format!("system = \"cosmos\"\nkind = \"leveling\"\n{many}"),
            "key `creation.races`: 17 race/class sheets; allowed: 0..16 sheets".to_string(),
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("r{i}.toml"), text);
        for cmd in ["check", "run"] {
            let mut c = bin();
            c.arg(cmd).arg(&p);
            if cmd == "run" {
                c.arg("--out").arg(dir.path().join("out"));
            }
            c.assert()
                .code(2)
                .stderr(predicates::str::contains(want.as_str()));
        }
    }
    // A bad option value is refused with the allowed values.
    let p = write(dir.path(), "ok.toml", head);
    bin()
        .args(["run"])
        .arg(&p)
        .args(["--option", "race_class_conflict=again", "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "allowed: change | reroll (decision C-CREATE-2)",
        ));
}

fn golden(got: &str, name: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, got).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap();
    assert_eq!(got, want, "golden {name} changed");
}

/// The shipped file: its answer first, golden CSV, French pages with the same CSV.
#[test]
fn shipped_creation_races_golden_and_french() {
    let en = tempfile::tempdir().unwrap();
    let fr = tempfile::tempdir().unwrap();
    for (d, lang) in [(&en, "en"), (&fr, "fr")] {
        bin()
            .args([
                "-q",
                "run",
                "scenarios/cosmos/creation-races.toml",
                "--trials",
                "4000",
                "--lang",
                lang,
                "--out",
            ])
            .arg(d.path())
            .assert()
            .success();
    }
    let csv = std::fs::read_to_string(en.path().join("creation-races.csv")).unwrap();
    golden(&csv, "cosmos-creation-races.csv");
    assert_eq!(
        csv,
        std::fs::read_to_string(fr.path().join("creation-races.csv")).unwrap()
    );
    let s = std::fs::read_to_string(en.path().join("summary.md")).unwrap();
    let answers = s.split("## Answers").nth(1).unwrap();
    assert!(
        answers
            .trim_start()
            .starts_with("- Intended race/class `nain_guerrier` kept:"),
        "{answers}"
    );
    let f = std::fs::read_to_string(fr.path().join("summary.md")).unwrap();
    assert!(
        f.contains("Race/classe voulue `nain_guerrier` conservée : 0,"),
        "{f}"
    );
    assert!(f.contains("intervalle à 95 %"));
}

/// `race_limits_levelling` in a leveling file: with `always` the sheet's force maximum (60)
/// holds to level 10 (every quantile), with the default (the book) gains pass it.
#[test]
fn leveling_file_applies_the_sheet_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let text = "system = \"cosmos\"\nkind = \"leveling\"\n[run]\ntrials = 3000\n[creation]\npriority = [\"esprit\", \"charisme\", \"agilite\", \"precision\", \"chance\", \"force\"]\nmove_policy = \"to_first\"\n[[creation.races]]\nname = \"frail\"\nmax = { force = 60 }\n[leveling]\nlevel2_target = \"lowest\"\n[leveling.later]\nstat_die = 20\nstat_count = 6\n";
    let p = write(dir.path(), "l.toml", text);
    let force_p95 = |opt: Option<&str>| -> f64 {
        let out = dir.path().join(opt.unwrap_or("default"));
        let mut c = bin();
        c.args(["-q", "run"]).arg(&p).arg("--out").arg(&out);
        if let Some(o) = opt {
            c.args(["--option", &format!("race_limits_levelling={o}")]);
        }
        c.assert().success();
        let csv = std::fs::read_to_string(out.join("leveling-quantiles.csv")).unwrap();
        let row = csv
            .lines()
            .find(|l| l.starts_with("10,force,"))
            .unwrap()
            .to_string();
        row.split(',').nth(9).unwrap().parse().unwrap()
    };
    assert!(force_p95(Some("always")) <= 60.0);
    assert!(force_p95(None) > 60.0);
}
