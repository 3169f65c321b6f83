//! Item 9: the small defects of untrusted input: a full disk, negative flag values, a
//! closed stdout, polars thread pool, duplicate table entries, lang case, French messages.

use super::*;

/// A small tmpfs, unmounted on drop; `None` where mounting is not allowed.
struct SmallDisk(PathBuf);

impl SmallDisk {
    fn mount(at: &Path) -> Option<SmallDisk> {
        fs::create_dir_all(at).ok()?;
        let ok = Std::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .ok()?
            .success();
        ok.then(|| SmallDisk(at.to_path_buf()))
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Std::new("umount").arg(&self.0).status();
    }
}

/// A full disk names the file it could not write, in words, and exits 2 — for `expect`
/// too, where exit 1 would read as a failed expectation.
#[test]
fn a_full_disk_names_the_file_and_exits_2() {
    let d = tempfile::tempdir().unwrap();
    let Some(disk) = SmallDisk::mount(&d.path().join("small")) else {
        eprintln!("skipped: cannot mount a small tmpfs here (needs root on Linux)");
        return;
    };
    let small = disk.0.to_str().unwrap().to_string();
    let out = disk.0.join("out");
    let out = out.to_str().unwrap();
    let (code, err) = run_in(d.path(), &["table", "cosmos-test", "--out", out, "--quiet"]);
    assert_eq!(code, Some(2), "{err}");
    // The file named is the one being written (in the staging folder beside `out`).
    assert!(
        err.contains("cannot write") && err.contains(&small) && err.contains("cosmos-test."),
        "{err}"
    );
    assert!(err.contains("No space left"), "{err}");
    assert!(!err.contains("Os {") && !err.contains("kind:"), "{err}");
    // Nearly full: the lock file fits, the pages do not.
    let _ = fs::write(disk.0.join("filler"), vec![0u8; 52 * 1024]);
    // Run from the project, where the file's table_file paths lead.
    let (code, err) = run_in(
        &project(),
        &[
            "expect",
            "balance/cosmos.toml",
            "--out",
            out,
            "--max-trials",
            "2000",
            "--quiet",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("cannot write") && err.contains(&small),
        "{err}"
    );
    drop(disk);
}

/// Negative values need no `=`, and a refused value names its flag.
#[test]
fn negative_flag_values_need_no_equals_and_errors_name_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let (code, err) = run_in(
        d.path(),
        &[
            "table",
            "cosmos-test",
            "--thresholds",
            "-10..50",
            "--out",
            "t",
            "--quiet",
        ],
    );
    assert_eq!(code, Some(0), "{err}");
    let csv = fs::read_to_string(d.path().join("t/cosmos-test.csv")).unwrap();
    assert!(csv.lines().nth(1).unwrap().starts_with("-10,"), "{csv}");
    for (args, flag) in [
        (
            vec!["table", "cosmos-test", "--thresholds", "-500"],
            "--thresholds",
        ),
        (
            vec!["table", "cosmos-test", "--method", "mc", "--trials", "-5"],
            "--trials",
        ),
        (
            vec!["table", "cosmos-karma-drift", "--burn-in", "-1"],
            "--burn-in",
        ),
        (vec!["table", "cosmos-test", "--threads", "-2"], "--threads"),
    ] {
        let (code, err) = run_in(d.path(), &args);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(flag), "{args:?}: {err}");
    }
}

/// `options >&-`: the README's exit 1 with a message; `> /dev/null` is a choice, exit 0.
#[test]
fn a_closed_stdout_exits_1_with_a_message() {
    let out = Std::new("sh")
        .args(["-c", "exec \"$0\" options >&-"])
        .arg(exe())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("standard output") && err.contains("closed"),
        "{err}"
    );
    let out = Std::new("sh")
        .args(["-c", "exec \"$0\" options > /dev/null"])
        .arg(exe())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

/// `--threads 1` holds for polars' own pool too, even where polars would take many
/// threads by itself (here told so through its own variable).
#[test]
fn threads_1_bounds_polars_pool_too() {
    let d = tempfile::tempdir().unwrap();
    let mut child = Std::new(exe())
        .args([
            "table",
            "cosmos-test",
            "--method",
            "mc",
            "--trials",
            "20000",
            "--threads",
            "1",
            "--quiet",
            "--out",
            "t",
        ])
        .env("POLARS_MAX_THREADS", "7")
        .current_dir(d.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let task = PathBuf::from(format!("/proc/{}/task", child.id()));
    let mut polars = std::collections::BTreeSet::new();
    while child.try_wait().unwrap().is_none() {
        for t in fs::read_dir(&task).into_iter().flatten().flatten() {
            if let Ok(name) = fs::read_to_string(t.path().join("comm")) {
                if name.starts_with("polars") {
                    polars.insert(name.trim().to_string());
                }
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(child.wait().unwrap().success());
    assert!(polars.len() <= 1, "polars threads: {polars:?}");
}

/// A cell or a potion given twice is refused where it is written, naming it; the same
/// from `--option`.
#[test]
fn duplicate_table_entries_are_refused_and_located() {
    let d = tempfile::tempdir().unwrap();
    let f = duel(d.path(), 1000);
    let mut text = fs::read_to_string(&f).unwrap();
    text += "\n[rules]\nelement_cells = \"eau>feu=1.5, feu>glace=1, eau>feu=2\"\n";
    fs::write(&f, text).unwrap();
    for args in [
        &["check", "duel.toml"][..],
        &["run", "duel.toml", "--out", "r"][..],
    ] {
        let (code, err) = run_in(d.path(), args);
        assert_eq!(code, Some(2), "{err}");
        assert!(
            err.contains("duel.toml:")
                && err.contains("rules.element_cells")
                && err.contains("`eau>feu` is given twice"),
            "{err}"
        );
    }
    duel(d.path(), 1000);
    let (code, err) = run_in(
        d.path(),
        &[
            "run",
            "duel.toml",
            "--option",
            "potion_effects=phoenix=-1/0,mana=0/-1,phoenix=-2/0",
            "--out",
            "r",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("`phoenix` is given twice"), "{err}");
}

/// `lang = "FR"` is refused with and without `--lang fr`, in the language in force.
#[test]
fn lang_in_capitals_is_refused_with_and_without_the_flag() {
    let d = tempfile::tempdir().unwrap();
    let f = duel(d.path(), 1000);
    let text = fs::read_to_string(&f).unwrap();
    fs::write(&f, format!("lang = \"FR\"\n{text}")).unwrap();
    let (code, en) = run_in(d.path(), &["check", "duel.toml"]);
    assert_eq!(code, Some(2), "{en}");
    assert!(
        en.contains("duel.toml:1:8: key `lang`: unknown language"),
        "{en}"
    );
    let (code, fr) = run_in(d.path(), &["check", "duel.toml", "--lang", "fr"]);
    assert_eq!(code, Some(2), "{fr}");
    assert!(
        fr.contains("langue inconnue") && fr.contains("minuscules"),
        "{fr}"
    );
    assert!(!fr.contains("unknown") && !fr.contains(" or "), "{fr}");
    // The lower-case value passes both ways.
    fs::write(&f, format!("lang = \"fr\"\n{text}")).unwrap();
    for extra in [&[][..], &["--lang", "fr"][..]] {
        let (code, err) = run_in(d.path(), &[&["check", "duel.toml"][..], extra].concat());
        assert_eq!(code, Some(0), "{err}");
    }
}

/// Error paths run in French say nothing in English: figures, rows and `where`.
#[test]
fn figure_errors_are_french_under_lang_fr() {
    let d = tempfile::tempdir().unwrap();
    let f = duel(d.path(), 1000);
    let f = f.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            vec![
                "tune",
                f,
                "--vary",
                "aldric.hp=100..200",
                "--figure",
                "combat-sides.nope",
                "--where",
                "outcome=offensive",
                "--target",
                "0.5",
            ],
            "n'a pas de colonne `nope`",
        ),
        (
            vec![
                "tune",
                f,
                "--vary",
                "aldric.hp=100..200",
                "--figure",
                "nope.share",
                "--target",
                "0.5",
            ],
            "sortie `nope` inconnue",
        ),
        (
            vec![
                "tune",
                "table",
                "cosmos-test",
                "--vary",
                "thresholds=20..85",
                "--figure",
                "p_success",
                "--target",
                "0.3",
            ],
            "lignes de `cosmos-test` correspondent",
        ),
        (
            vec![
                "tune",
                f,
                "--vary",
                "aldric.hp=100..200",
                "--figure",
                "combat-sides.share",
                "--where",
                "nope=1",
                "--target",
                "0.5",
            ],
            "n'est pas une colonne",
        ),
    ];
    for (args, needle) in cases {
        let (code, err) = run_in(
            d.path(),
            &[&args[..], &["--lang", "fr", "--out", "x"]].concat(),
        );
        assert_eq!(code, Some(2), "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err}");
        for english in [
            " the ",
            " is ",
            " has no ",
            " rows of ",
            "unknown output",
            " not a column",
        ] {
            assert!(
                !err.contains(english),
                "{args:?}: English `{english}` in {err}"
            );
        }
    }
    // An expectation's row, in French from the reason to the allowed values.
    expect_file(
        d.path(),
        "[[expect]]\nname = \"a\"\ntable = \"cosmos-test\"\nparams = { thresholds = \"50\" }\nwhere = { threshold = 50 }\nfigure = \"p_success\"\nbetween = [0.3, 0.5]\n",
    );
    let (code, err) = run_in(
        d.path(),
        &["expect", "e.toml", "--lang", "fr", "--out", "x"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("e.toml:")
            && err.contains("lignes de `cosmos-test` correspondent")
            && err.contains("une valeur par colonne clé"),
        "{err}"
    );
    assert!(
        !err.contains(" rows ") && !err.contains(" per key "),
        "{err}"
    );
}
