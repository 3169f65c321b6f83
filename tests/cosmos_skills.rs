//! Skill points spent on a skill tree (issue 10 item 11; C-LEVEL-3, "Modèle progressif"):
//! Monte Carlo against the exact strict-order answer, exact values by hand, validation,
//! golden CSV and the French page.

use assert_cmd::Command;

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const TREE: &str = r#"
[[leveling.skills.tree]]
name = "a"
cost = 5
upgrades = [3, 4]
[[leveling.skills.tree]]
name = "b"
cost = 6
[[leveling.skills.tree]]
name = "c"
parents = ["a", "b"]
cost = 7
[[leveling.skills.tree]]
name = "holy"
cost = 1
divine = true
"#;

/// Rows of `leveling-skills.csv`: (policy, level, wish, p, exact).
fn rows(dir: &std::path::Path) -> Vec<(String, i64, String, f64, Option<f64>)> {
    let text = std::fs::read_to_string(dir.join("leveling-skills.csv")).unwrap();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (
                f[0].to_string(),
                f[1].parse().unwrap(),
                f[2].to_string(),
                f[3].parse().unwrap(),
                f[6].parse().ok(),
            )
        })
        .collect()
}

/// C-LEVEL-3: with `wait` (strict list order) a wish is met by level L exactly when the
/// skill points by then (creation + level-ups) cover the wishes' cumulative cost, so the
/// simulated share must match the exact one (5 sigma, 40,000 characters; the random split
/// gives the creation points their exact law). `skip` has no exact column.
#[test]
fn strict_order_matches_the_exact_skill_point_sums() {
    let dir = tempfile::tempdir().unwrap();
    let text = format!(
        "system = \"cosmos\"\nkind = \"leveling\"\n[run]\ntrials = 40000\nseed = 5\n[creation]\nhp_pm_split = \"random\"\n[leveling]\nmax_level = 8\n[leveling.skills]\n{TREE}\n[[leveling.skills.policies]]\nname = \"w\"\nwishes = [\"a\", \"b\", \"a+1\", \"c\", \"a+2\"]\n[[leveling.skills.policies]]\nname = \"s\"\nwhen_short = \"skip\"\nwishes = [\"c\", \"a\", \"b\", \"a+2\"]\n"
    );
    let p = write(dir.path(), "s.toml", &text);
    let out = dir.path().join("out");
    bin()
        .args(["-q", "run"])
        .arg(&p)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let n = 40_000.0f64;
    let mut checked = 0;
    for (policy, level, wish, p, exact) in rows(&out) {
        match policy.as_str() {
            "w" => {
                let e = exact.expect("wait has an exact column");
                let sd = (e * (1.0 - e) / n).sqrt().max(1e-12);
                assert!(
                    (p - e).abs() <= 5.0 * sd,
                    "level {level} {wish}: {p} vs {e}"
                );
                checked += 1;
            }
            _ => assert!(exact.is_none()),
        }
    }
    assert_eq!(checked, 8 * 5);
}

/// Exact values by hand: a converted character keeps its 10 skill points (C-CREATE-3);
/// a 10-point wish is met at level 1; an 11-point one at level 2 needs d4-1 >= 1 (3/4);
/// at level 3 it is certain, since a 0 at level 2 brings +2 at level 3 (C-LEVEL-3).
#[test]
fn exact_column_by_hand_for_a_conversion() {
    let dir = tempfile::tempdir().unwrap();
    let text = "system = \"cosmos\"\nkind = \"leveling\"\n[run]\ntrials = 2000\n[creation.conversion]\nforce = 50\nesprit = 50\ncharisme = 50\nagilite = 50\nhp = 100\npm = 100\nskill_points = 10\ndna_points = 5\nlevel = 1\n[leveling]\nmax_level = 3\n[leveling.skills]\n[[leveling.skills.tree]]\nname = \"x\"\ncost = 10\nupgrades = [1]\n[[leveling.skills.policies]]\nname = \"p\"\nwishes = [\"x\", \"x+1\"]\n";
    let p = write(dir.path(), "c.toml", text);
    let out = dir.path().join("out");
    bin()
        .args(["-q", "run"])
        .arg(&p)
        .arg("--out")
        .arg(&out)
        .assert()
        .success();
    let r = rows(&out);
    let get = |l: i64, w: &str| {
        r.iter()
            .find(|x| x.1 == l && x.2 == w)
            .and_then(|x| x.4)
            .unwrap()
    };
    assert_eq!(get(1, "x"), 1.0);
    assert_eq!(get(1, "x+1"), 0.0);
    assert!((get(2, "x+1") - 0.75).abs() < 1e-12);
    assert!((get(3, "x+1") - 1.0).abs() < 1e-12);
}

#[test]
fn golden_skill_tree_errors() {
    let dir = tempfile::tempdir().unwrap();
    let head = "system = \"cosmos\"\nkind = \"leveling\"\n[leveling.skills]\n";
    let pol = |w: &str| format!("[[leveling.skills.policies]]\nname = \"p\"\nwishes = [{w}]\n");
    let cases = [
        (
            format!("{head}[[leveling.skills.tree]]\nname = \"a\"\nparents = [\"z\"]\ncost = 1\n{}", pol("\"a\"")),
            "key `leveling.skills.tree[0].parents[0]`: \"z\" is not a skill defined above; allowed: a skill defined above this one: -",
        ),
        (
            format!("{head}[[leveling.skills.tree]]\nname = \"a\"\ncost = 101\n{}", pol("\"a\"")),
            "key `leveling.skills.tree[0].cost`: 101 is out of range; allowed: 0..100 PC",
        ),
        (
            format!("{head}{TREE}{}", pol("\"a\", \"c\"")),
            "key `leveling.skills.policies[0].wishes[1]`: \"c\" needs the parent skill b, not wished above it",
        ),
        (
            format!("{head}{TREE}{}", pol("\"a+3\"")),
            "key `leveling.skills.policies[0].wishes[0]`: \"a+3\" is not a skill of the tree with an upgrade count it has; allowed: \"skill\" (unlocked) or \"skill+N\" (N upgrades, 1..its upgrades) with skill one of a, b, c, holy",
        ),
        (
            format!("{head}{TREE}[[leveling.skills.policies]]\nname = \"p\"\nwishes = [\"a\"]\nwhen_short = \"later\"\n"),
            "leveling.skills.policies[0].when_short",
        ),
    ];
    for (i, (text, want)) in cases.iter().enumerate() {
        let p = write(dir.path(), &format!("k{i}.toml"), text);
        for cmd in ["check", "run"] {
            let mut c = bin();
            c.arg(cmd).arg(&p);
            if cmd == "run" {
                c.arg("--out").arg(dir.path().join("out"));
            }
            c.assert().code(2).stderr(predicates::str::contains(*want));
        }
    }
    // A divine wish without the blessing is valid but never bought: a warning.
    let p = write(
        dir.path(),
        "w.toml",
        &format!("{head}{TREE}{}", pol("\"holy\"")),
    );
    let o = bin().arg("check").arg(&p).assert().success();
    let err = String::from_utf8_lossy(&o.get_output().stderr).to_string()
        + &String::from_utf8_lossy(&o.get_output().stdout);
    assert!(err.contains("\"holy\" can never be bought"), "{err}");
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

/// The shipped build-paths file: the skill answers at the top, golden CSV, French.
#[test]
fn shipped_build_paths_skills_golden_and_french() {
    let en = tempfile::tempdir().unwrap();
    let fr = tempfile::tempdir().unwrap();
    for (d, lang) in [(&en, "en"), (&fr, "fr")] {
        bin()
            .args([
                "-q",
                "run",
                "scenarios/cosmos/build-paths.toml",
                "--trials",
                "3000",
                "--lang",
                lang,
                "--out",
            ])
            .arg(d.path())
            .assert()
            .success();
    }
    let csv = std::fs::read_to_string(en.path().join("leveling-skills.csv")).unwrap();
    golden(&csv, "cosmos-build-paths-skills.csv");
    assert_eq!(
        csv,
        std::fs::read_to_string(fr.path().join("leveling-skills.csv")).unwrap()
    );
    let s = std::fs::read_to_string(en.path().join("summary.md")).unwrap();
    let answers: Vec<&str> = s
        .split("## Answers")
        .nth(1)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("- "))
        .take(6)
        .collect();
    assert!(
        answers[4].starts_with("- Skill policy \"fighter\""),
        "{answers:?}"
    );
    let f = std::fs::read_to_string(fr.path().join("summary.md")).unwrap();
    assert!(f.contains("Politique de compétences « fighter »"), "{f}");
    assert!(f.contains("points de compétence inutilisés"));
}
