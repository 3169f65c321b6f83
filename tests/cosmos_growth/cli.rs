//! The command line around the growth tables and scenarios: columns, bad flags, thread
//! counts and golden validation errors.

use super::*;

#[test]
fn tables_write_their_columns() {
    let dir = tempfile::tempdir().unwrap();
    for (name, header) in [
        ("cosmos-aura", "edition,face,threshold,karma,bonus,p_success_or_better,p_crit_or_better,p_no_aura,delta_success"),
        ("cosmos-piloting", "vehicle_die,stress,effective_die,score,p_success,automatic"),
        ("cosmos-movement", "agility,force,capacity,load,slots_over,fp,fatigue_state,move_walk,move_sprint_fail,move_sprint_success,move_sprint_crit,move_sprint_super,p_sprint_success,p_sprint_crit,p_sprint_super,expected_sprint"),
    ] {
        bin().args(["-q", "table", name, "--out"]).arg(dir.path()).assert().success();
        let csv = std::fs::read_to_string(dir.path().join(format!("{name}.csv"))).unwrap();
        assert_eq!(csv.lines().next().unwrap(), header);
        assert!(dir.path().join(format!("{name}.png")).exists());
        assert!(dir.path().join(format!("{name}.meta.json")).exists());
    }
}

#[test]
fn bad_table_flags_exit_2() {
    bin()
        .args(["table", "cosmos-piloting", "--dice", "7"])
        .assert()
        .code(2);
    bin()
        .args(["table", "cosmos-movement", "--fp", "11"])
        .assert()
        .code(2);
}

#[test]
fn tables_keep_to_what_the_rules_in_force_allow() {
    // C-EDITION: the previous edition has no endurance rule, so its movement table reads
    // FP 0 alone (walk 3 and P(sprint) 0.55 at Agilité 55) and refuses other FP; under
    // karma_bound=5 (C-KARMA-1) cosmos-test reads karma -5..5 and refuses 6 (audit of
    // 2026-12-07, night: FP 6 kept its -1 move; karma -10 showed a test no one takes).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    bin()
        .args([
            "-q",
            "table",
            "cosmos-movement",
            "--agility",
            "55",
            "--loads",
            "20",
        ])
        .args(["--option", "edition=previous", "--out"])
        .arg(&out)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("cosmos-movement.csv")).unwrap();
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(rows.len(), 1, "{csv}");
    assert!(
        rows[0].starts_with("55,50,20,20,0,0,fresh,3,3,6,7,9,0.55"),
        "{csv}"
    );
    for lang in ["en", "fr"] {
        let e = bin()
            .args(["--lang", lang, "table", "cosmos-movement", "--fp", "0,6"])
            .args(["--option", "edition=previous", "--out"])
            .arg(&out)
            .assert()
            .code(2);
        let err = String::from_utf8_lossy(&e.get_output().stderr).to_string();
        assert!(
            err.contains("--fp 6") && err.contains("C-EDITION") && err.contains("--fp 0"),
            "{err}"
        );
    }
    let out = dir.path().join("t");
    bin()
        .args(["-q", "table", "cosmos-test", "--thresholds", "50"])
        .args(["--option", "karma_bound=5", "--out"])
        .arg(&out)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("cosmos-test.csv")).unwrap();
    let karma: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap())
        .collect();
    assert_eq!(
        karma,
        ["-5", "-4", "-3", "-2", "-1", "0", "1", "2", "3", "4", "5"]
    );
    let e = bin()
        .args([
            "table",
            "cosmos-test",
            "--karma",
            "-6..6",
            "--option",
            "karma_bound=5",
            "--out",
        ])
        .arg(&out)
        .assert()
        .code(2);
    let err = String::from_utf8_lossy(&e.get_output().stderr).to_string();
    assert!(err.contains("--karma -6") && err.contains("-5..5"), "{err}");
}

#[test]
fn scenarios_are_identical_across_thread_counts() {
    let dir = tempfile::tempdir().unwrap();
    for file in [
        "scenarios/cosmos/creation.toml",
        "scenarios/cosmos/leveling.toml",
        "scenarios/cosmos/build-paths.toml",
        "scenarios/cosmos/party-expedition.toml",
    ] {
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        for (out, threads) in [(&a, "1"), (&b, "2")] {
            bin()
                .args([
                    "-q",
                    "run",
                    file,
                    "--trials",
                    "70000",
                    "--threads",
                    threads,
                    "--out",
                ])
                .arg(out)
                .assert()
                .success();
        }
        let mut names: Vec<_> = std::fs::read_dir(&a)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        assert!(names.iter().any(|n| n.to_string_lossy() == "summary.md"));
        for n in names {
            assert_eq!(
                std::fs::read(a.join(&n)).unwrap(),
                std::fs::read(b.join(&n)).unwrap(),
                "{file}: {n:?}"
            );
        }
        let summary = std::fs::read_to_string(a.join("summary.md")).unwrap();
        assert!(summary.contains("## Answers") && summary.contains("sha256"));
    }
}

#[test]
fn golden_validation_errors() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "bad.toml", "system = \"cosmos\"\nkind = \"creation\"\n[creation]\npriority = [\"force\", \"force\", \"esprit\", \"charisme\", \"agilite\", \"chance\"]\n");
    let e = ScenarioFile::read(&p, cosmosim::lang::Lang::En).unwrap();
    let err = cosmosim::systems::cosmos::growth::scenarios::creation::check(&e)
        .unwrap_err()
        .0;
    assert_eq!(
        err,
        format!("{}:4:12: key `creation.priority`: stat \"force\" is listed twice; allowed: the six stats, each once: force, esprit, charisme, agilite, precision, chance", p.display())
    );
    let p = write(
        dir.path(),
        "bad2.toml",
        "system = \"cosmos\"\nkind = \"leveling\"\n[leveling]\nlight_dark_at_5 = [2, 2]\n",
    );
    bin().arg("check").arg(&p).assert().code(2).stderr(predicates::str::contains(
        "bad2.toml:4:19: key `leveling.light_dark_at_5`: [2, 2] does not split 3 points; allowed: [light, dark] with light + dark = 3 (C-LD-1)",
    ));
    // A third value was dropped by serde's fixed-size array and the file passed (audit of
    // 2026-12-07, night).
    let p = write(
        dir.path(),
        "bad2b.toml",
        "system = \"cosmos\"\nkind = \"leveling\"\n[leveling]\nlight_dark_at_5 = [2, 1, 3]\n",
    );
    bin().arg("check").arg(&p).assert().code(2).stderr(predicates::str::contains(
        "bad2b.toml:4:19: key `leveling.light_dark_at_5`: [2, 1, 3] is not an array of 2 values [light, dark]; allowed: [light, dark] with light + dark = 3 (C-LD-1)",
    ));
    let p = write(
        dir.path(),
        "bad3.toml",
        "system = \"cosmos\"\nkind = \"creation\"\n[creation]\nhp_pm_split = \"halves\"\n",
    );
    bin().arg("check").arg(&p).assert().code(2).stderr(
        predicates::str::contains("bad3.toml:4:15").and(predicates::str::contains("hp_first")),
    );
    let p = write(
        dir.path(),
        "bad4.toml",
        "system = \"cosmos\"\nkind = \"creation\"\n[creation]\nmove_points = 12\n",
    );
    bin()
        .arg("run")
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicates::str::contains(
            "key `creation.move_points`: 12 points is out of range",
        ));
    // C-CREATE-3: the stat bound follows the converted character's level (80 at level 2,
    // 85 from 3), in `check` and `run` alike; the kept inputs are required.
    let conv = |level: u32, agilite: u32| {
        format!("system = \"cosmos\"\nkind = \"creation\"\n[run]\ntrials = 2000\n[creation.conversion]\nforce = 50\nesprit = 50\ncharisme = 50\nagilite = {agilite}\nhp = 250\npm = 240\nskill_points = 7\ndna_points = 12\nlevel = {level}\n")
    };
    let p = write(dir.path(), "conv.toml", &conv(2, 84));
    for cmd in ["check", "run"] {
        bin().arg(cmd).arg(&p).assert().code(2).stderr(predicates::str::contains(
            "conv.toml:9:11: key `creation.conversion.agilite`: 84 is out of range; allowed: 20..80 (C-CREATE-3: 20..80, or 85 from level 3; level 2)",
        ));
    }
    let p = write(dir.path(), "conv3.toml", &conv(3, 84));
    bin().arg("check").arg(&p).assert().success();
    let p = write(
        dir.path(),
        "conv4.toml",
        &conv(3, 84).replace("dna_points = 12\n", ""),
    );
    bin()
        .arg("check")
        .arg(&p)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("dna_points"));
}
