//! Golden errors, the shipped scenarios under check, thread-count determinism and sweep
//! (CLI runs on temp dirs).

use super::*;

fn write_tmp(dir: &tempfile::TempDir, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.path().join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn check_error(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    write_tmp(&dir, "bad.toml", text);
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(dir.path())
        .args(["check", "bad.toml"])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr)
        .unwrap()
        .trim_end()
        .to_string()
}

fn good() -> String {
    duel(
        "level = 3\nattacks = [\"blade\"]",
        "dark_below_hp = 0.5",
        "level = 3\nhp = 100\nattacks = [\"blade\"]",
        "",
    )
}

#[test]
fn golden_errors_for_bad_files() {
    let cases: Vec<(String, &str)> = vec![
        (
            good().replace("pm = 100\n", "pm = 100\nmana = 3\n"),
            "error: bad.toml:26:1: key `combatants.hero.mana`: unknown field `mana`, expected one of `side`, `level`, `count`, `stats`, `hp`, `pm`, `hp_start`, `pm_start`, `fp_start`, `fm_start`, `light_spent`, `dark_spent`, `armour`, `mode`, `element`, `elements`, `element_coefficients`, `attacks`, `final_skill`, `light_points`, `dark_points`, `level5_dark`, `actions`, `karma`, `aura_points`, `anti_aura`, `inventory_slots_used`, `natural_actions`, `periodic`, `policy`",
        ),
        (
            good().replace("hp = 100\npm = 100", "hp = \"lots\"\npm = 100"),
            "error: bad.toml:24:6: key `combatants.hero.hp`: invalid type: string \"lots\", expected a whole number",
        ),
        (
            good().replace("force = 60, esprit = 50", "force = 84, esprit = 50").replace("level = 3\nattacks = [\"blade\"]\n\n[combatants.hero.policy]", "level = 2\nattacks = [\"blade\"]\n\n[combatants.hero.policy]"),
            "error: bad.toml:23:19: key `combatants.hero.stats.force`: 84 is out of range at level 2; allowed: 20..80 (C-LEVEL-1: 80 at levels 1-2, 85 from level 3)",
        ),
        (
            good().replace("attacks = [\"blade\"]\n\n[combatants.hero.policy]", "attacks = [\"blade\", \"fireball\"]\n\n[combatants.hero.policy]"),
            "error: bad.toml:27:21: key `combatants.hero.attacks[1]`: undefined attack \"fireball\"; allowed: \"blade\", \"doom\", \"kill\", \"tickle\"",
        ),
        (
            good().replace("damage = \"2d10+5\"", "damage = \"2d10+5\"\nelement = \"wood\""),
            "error: bad.toml:8:11: key `attacks.blade.element`: unknown element \"wood\"; allowed: feu, air, eau, terre, glace, metal, elec, sang, poison, plante, dark, light; also accepted: fire = feu, wind = air, water = eau, earth = terre, ice = glace, métal = metal, élec = elec, electricite = elec, électricité = elec, electricity = elec, lightning = elec, blood = sang, plant = plante, tenebres = dark, ténèbres = dark, lumiere = light, lumière = light",
        ),
        (
            good().replace("dark_below_hp = 0.5", "dark_below_hp = 1.5"),
            "error: bad.toml:30:17: key `combatants.hero.policy.dark_below_hp`: 1.5 is not a fraction of max HP; allowed: a number above 0 and at most 1, e.g. 0.5 for \"below half HP\"",
        ),
        (
            good().replace("pm = 100\n", "pm = 100\ndark_points = 0\n"),
            "error: bad.toml:30:1: key `combatants.hero.policy`: the policy spends Dark points but dark_points = 0; allowed: dark_points >= 1, or no dark_* trigger",
        ),
        (
            good().replace("dark_below_hp = 0.5", "final_skill = \"first_turn\""),
            "error: bad.toml:30:15: key `combatants.hero.policy.final_skill`: the policy uses a Final Skill but the combatant has none; allowed: set `final_skill = \"<attack>\"` on the combatant, or final_skill = \"never\"",
        ),
        (
            good().replace("[combatants.hero.policy]", "[combatants.hero.policy]\ntarget = \"named\"\ntarget_name = \"hero\""),
            "error: bad.toml:31:15: key `combatants.hero.policy.target_name`: \"hero\" is not an enemy combatant; allowed: \"foe\"",
        ),
        (
            good().replace("damage = \"2d10+5\"", "damage = \"2d\""),
            "error: bad.toml:7:10: key `attacks.blade.damage`: `2d` is not a dice expression; allowed: dice terms and whole numbers such as \"2d10+5\", \"d6\", \"1d8+1d4-2\" or \"12\"",
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
    // Rule options in [rules] are checked too.
    let e = check_error(&good().replace(
        "kind = \"combat\"\n",
        "kind = \"combat\"\n[rules]\napocalypse_on = [\"expiry\", \"sunset\"]\n",
    ));
    assert!(
        e.starts_with("error: bad.toml:4:17: key `rules.apocalypse_on`:")
            && e.contains("expiry, final_skill, combat_end"),
        "{e}"
    );
}

#[test]
fn check_accepts_the_shipped_scenarios() {
    for f in ["apocalypse", "duel", "party-vs-boss", "aura-duel"] {
        Command::cargo_bin("cosmosim")
            .unwrap()
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["check", &format!("scenarios/cosmos/{f}.toml")])
            .assert()
            .success();
    }
}

fn run_cli(out: &std::path::Path, args: &[&str]) {
    Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .arg("--out")
        .arg(out)
        .arg("-q")
        .assert()
        .success();
}

#[test]
fn run_is_byte_identical_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let base = [
        "run",
        "scenarios/cosmos/apocalypse.toml",
        "--trials",
        "150000",
        "--seed",
        "3",
    ];
    run_cli(&a, &[&base[..], &["--threads", "1"]].concat());
    run_cli(&b, &[&base[..], &["--threads", "2"]].concat());
    for f in [
        "combat-sides.csv",
        "combat-postures.csv",
        "combat-rounds.csv",
        "combat-karma.csv",
        "summary.md",
    ] {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f}"
        );
    }
    let summary = std::fs::read_to_string(a.join("summary.md")).unwrap();
    assert!(
        summary.contains("Apocalypse fired per Dark point spent:"),
        "{summary}"
    );
    assert!(std::fs::read_to_string(a.join("combat-postures.csv")).unwrap().starts_with(
        "combatant,posture,combats,points_spent,points_per_combat,apocalypse,apocalypse_per_point,apocalypse_per_point_lo,apocalypse_per_point_hi,"
    ));
    let meta = std::fs::read_to_string(a.join("combat-sides.meta.json")).unwrap();
    assert!(
        meta.contains("\"sha256\"") && meta.contains("apocalypse.toml"),
        "{meta}"
    );
}

#[test]
fn sweep_writes_one_row_per_grid_point_and_a_point_equals_a_run() {
    let dir = tempfile::tempdir().unwrap();
    let (sw, run) = (dir.path().join("sw"), dir.path().join("run"));
    run_cli(
        &sw,
        &[
            "sweep",
            "scenarios/cosmos/duel.toml",
            "--trials",
            "30000",
            "--vary",
            "aldric.hp=120,150",
            "--vary",
            "brune.mode=offensive,defensive",
        ],
    );
    let csv = std::fs::read_to_string(sw.join("sweep.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0], "aldric_hp,brune_mode,trials,figure,where,value,value_lo,value_hi",
        "{csv}"
    );
    // Every grid point has the same figures, named as `figures` lists them.
    let per_point = |prefix: &str| lines.iter().filter(|l| l.starts_with(prefix)).count();
    let n = per_point("120,offensive,30000,");
    assert!(n >= 4, "{csv}");
    for p in ["120,defensive,", "150,offensive,", "150,defensive,"] {
        assert_eq!(per_point(p), n, "{p}");
    }
    assert_eq!(lines.len(), 1 + 4 * n);
    let row = lines
        .iter()
        .find(|l| l.starts_with("150,defensive,30000,combat-sides.share,outcome=defensive,"))
        .unwrap_or_else(|| panic!("{csv}"));
    assert!(sw.join("sweep-aldric_hp.png").exists() && sw.join("sweep-brune_mode.png").exists());
    // The grid point with the file's own values gives the run's numbers (streams keyed by
    // the file's values).
    run_cli(
        &run,
        &["run", "scenarios/cosmos/duel.toml", "--trials", "30000"],
    );
    let sides = std::fs::read_to_string(run.join("combat-sides.csv")).unwrap();
    let def: Vec<&str> = sides
        .lines()
        .find(|l| l.starts_with("defensive,"))
        .unwrap()
        .split(',')
        .collect();
    let header: Vec<&str> = sides.lines().next().unwrap().split(',').collect();
    let at = |c: &str| def[header.iter().position(|h| *h == c).unwrap()];
    let cells: Vec<&str> = row.split(',').collect();
    assert_eq!(&cells[5..8], &[at("share"), at("share_lo"), at("share_hi")]);
    // A value the file cannot take is a located error with exit code 2.
    let out = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "sweep",
            "scenarios/cosmos/duel.toml",
            "--trials",
            "100",
            "--out",
        ])
        .arg(dir.path().join("bad"))
        .args(["--vary", "aldric.stats.force=70,90"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let e = String::from_utf8_lossy(&out.stderr);
    assert!(
        e.starts_with("error: with --vary aldric.stats.force=90: scenarios/cosmos/duel.toml:"),
        "{e}"
    );
    assert!(
        e.contains(
            "key `combatants.aldric.stats.force`: 90 is out of range at level 3; allowed: 20..85"
        ),
        "{e}"
    );
}

// Carried forward from the statistics audit of 2026-12-07: a duel that spends no Dark
// point printed "Apocalypse fired per combat: 0.0000 [0.0000 – ∞]", an interval that
// bounds nothing; it now says what the trials show.
#[test]
fn apocalypse_per_combat_without_a_dark_point_says_never_not_an_open_interval() {
    let dir = tempfile::tempdir().unwrap();
    for (lang, never) in [
        (
            "en",
            "Apocalypse fired per combat: never in 2000 combats, since no Dark point was spent",
        ),
        (
            "fr",
            "Apocalypse déclenchée par combat : jamais en 2000 combats, aucun point Dark",
        ),
    ] {
        let out = dir.path().join(lang);
        run_cli(
            &out,
            &[
                "run",
                "scenarios/cosmos/duel.toml",
                "--trials",
                "2000",
                "--lang",
                lang,
            ],
        );
        let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
        assert!(summary.contains(never), "{summary}");
        assert!(!summary.contains('∞'), "{summary}");
    }
    // Where Dark points are spent, the mean count keeps its interval.
    let out = dir.path().join("apocalypse");
    run_cli(
        &out,
        &[
            "run",
            "scenarios/cosmos/apocalypse.toml",
            "--trials",
            "2000",
        ],
    );
    let summary = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(
        summary.contains("(mean count); at least once in"),
        "{summary}"
    );
}
