//! Item 6: no input that runs for hours or fills the memory (exact laws past their caps,
//! expect and variants files asking for hours of work).

use super::*;

/// `skill_pm_step = 1` gives up to 500 skill dice at creation: the exact wish column used
/// to take hours; it now finishes (a generous limit, not a timing) with the exact column
/// filled and matching the Monte Carlo one.
#[test]
fn skill_pm_step_1_finishes_in_seconds() {
    let d = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(project().join("scenarios/cosmos/build-paths.toml"))
        .unwrap()
        .replacen("trials = 100000", "trials = 2000", 1);
    fs::write(d.path().join("bp.toml"), text).unwrap();
    let mut cmd = Std::new(exe());
    cmd.args([
        "run",
        "bp.toml",
        "--option",
        "skill_pm_step=1",
        "--quiet",
        "--out",
        "out",
    ])
    .current_dir(d.path());
    let (done, status) = finishes_within(cmd, Duration::from_secs(60));
    assert!(done, "still running after 60 s");
    assert!(status.success());
    let csv = fs::read_to_string(d.path().join("out/leveling-skills.csv")).unwrap();
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let (mc, lo, hi, ex) = (
        col("p_wish_met"),
        col("p_wish_met_lo"),
        col("p_wish_met_hi"),
        col("p_wish_met_exact"),
    );
    let mut exact_rows = 0;
    for line in csv.lines().skip(1) {
        let c: Vec<&str> = line.split(',').collect();
        if c[ex].is_empty() {
            continue;
        }
        exact_rows += 1;
        let (e, l, h): (f64, f64, f64) = (
            c[ex].parse().unwrap(),
            c[lo].parse().unwrap(),
            c[hi].parse().unwrap(),
        );
        // 2000 trials: the 95% interval, widened a little for the many rows.
        assert!(e >= l - 0.02 && e <= h + 0.02, "{line} (mc {})", c[mc]);
    }
    assert!(exact_rows > 0, "{csv}");
}

/// Past the cap of the exact law (100-faced dice, one per PM), the exact column is left
/// empty and the summary says why; the run still finishes.
#[test]
fn an_exact_law_past_its_cap_is_skipped_and_said() {
    let d = tempfile::tempdir().unwrap();
    let text = fs::read_to_string(project().join("scenarios/cosmos/build-paths.toml"))
        .unwrap()
        .replacen("trials = 100000", "trials = 500", 1);
    fs::write(d.path().join("bp.toml"), text).unwrap();
    let mut cmd = Std::new(exe());
    cmd.args([
        "run",
        "bp.toml",
        "--option",
        "skill_pm_step=1",
        "--option",
        "skill_pm_die=100",
        "--option",
        "skill_creation_die=100",
        "--quiet",
        "--out",
        "out",
    ])
    .current_dir(d.path());
    let (done, status) = finishes_within(cmd, Duration::from_secs(60));
    assert!(done && status.success());
    let md = fs::read_to_string(d.path().join("out/summary.md")).unwrap();
    assert!(
        md.contains("p_wish_met_exact left empty") && md.contains("skill_pm_step = 1"),
        "{md}"
    );
}

/// An expectations file asking for 10^12 trials is refused before anything runs, at the
/// key that asks, with the cap; `--max-trials` brings it under the cap.
#[test]
fn an_expect_file_asking_for_hours_of_work_is_refused_before_running() {
    let d = tempfile::tempdir().unwrap();
    let body = "[[expect]]\nname = \"a\"\ntable = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\", method = \"mc\" }\nwhere = { threshold = 50, karma = 0 }\nfigure = \"p_success\"\nbetween = [0.3, 0.5]\ntrials = 1000000000000\n";
    expect_file(d.path(), body);
    let start = Instant::now();
    let (code, err) = run_in(d.path(), &["expect", "e.toml", "--out", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("e.toml:") && err.contains("expect[0].trials") && err.contains("10000000000"),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(30), "it ran");
    assert!(!d.path().join("x").exists());
    // `check`-like cap at the cap: --max-trials makes the same file a quick run.
    let (code, err) = run_in(
        d.path(),
        &[
            "expect",
            "e.toml",
            "--out",
            "x",
            "--max-trials",
            "4000",
            "--quiet",
        ],
    );
    assert!(code == Some(0) || code == Some(1), "{err}");
    // Many expectations add up: 20 × 10^9 passes the cap at the 11th.
    let many: String = (0..20)
        .map(|i| {
            body.replace("name = \"a\"", &format!("name = \"a{i}\""))
                .replace("1000000000000", "1000000000")
        })
        .collect::<Vec<_>>()
        .join("\n");
    expect_file(d.path(), &many);
    let (code, err) = run_in(d.path(), &["expect", "e.toml", "--out", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("expect[2].trials"), "{err}");
    // A scenario's own [run] trials count when the expectation sets none.
    let big = fs::read_to_string(project().join("scenarios/cosmos/duel.toml"))
        .unwrap()
        .replacen("trials = 1000000", "trials = 1000000000000", 1);
    fs::write(d.path().join("big.toml"), big).unwrap();
    expect_file(
        d.path(),
        "[[expect]]\nname = \"s\"\nscenario = \"big.toml\"\nwhere = { outcome = \"offensive\" }\nfigure = \"combat-sides.share\"\nbetween = [0.3, 0.7]\n",
    );
    let (code, err) = run_in(d.path(), &["expect", "e.toml", "--out", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("expect[0].scenario"), "{err}");
}

/// A variants file runs the book and every variant on every study: a file whose runs add
/// up past the cap is refused before anything runs, at the key that asks (or naming
/// `--trials`), and the shipped files stay under it.
#[test]
fn a_variants_file_asking_for_hours_of_work_is_refused_before_running() {
    let d = tempfile::tempdir().unwrap();
    let body = |trials: &str| {
        format!(
            "title = \"work\"\n{trials}\n[[study]]\ntable = \"cosmos-test\"\nparams = {{ thresholds = \"50\", karma = \"0\" }}\n\n[[study]]\ntable = \"cosmos-test\"\nparams = {{ thresholds = \"60\", karma = \"0\" }}\n\n[variants.a]\nkarma_overflow = \"cancel\"\n\n[variants.b]\npercent_mode = \"relative\"\n"
        )
    };
    // 3 runs × 2 studies × 2·10^9 = 1.2·10^10 > 10^10: the second study passes the cap.
    fs::write(d.path().join("v.toml"), body("trials = 2000000000")).unwrap();
    let start = Instant::now();
    let (code, err) = run_in(d.path(), &["variants", "v.toml", "--out", "x"]);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("v.toml:") && err.contains("trials") && err.contains("10000000000"),
        "{err}"
    );
    assert!(start.elapsed() < Duration::from_secs(30), "it ran");
    assert!(!d.path().join("x").exists());
    // The same count from the flag names the flag.
    fs::write(d.path().join("v.toml"), body("")).unwrap();
    let (code, err) = run_in(
        d.path(),
        &["variants", "v.toml", "--out", "x", "--trials", "2000000000"],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains("--trials") && err.contains("10000000000"),
        "{err}"
    );
    // In French too.
    let (code, err) = run_in(
        d.path(),
        &[
            "variants",
            "v.toml",
            "--out",
            "x",
            "--trials",
            "2000000000",
            "--lang",
            "fr",
        ],
    );
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("plafond"), "{err}");
    // The shipped studies are well under the cap.
    for f in [
        "cosmos-editions.toml",
        "cosmos-karma.toml",
        "cosmos-postures.toml",
    ] {
        let file = cosmosim::balance::variants::VariantsFile::read(
            &project().join("variants").join(f),
            cosmosim::lang::Lang::En,
        );
        let file = file.unwrap_or_else(|e| panic!("{f}: {e}"));
        assert!(
            file.check_work(false, cosmosim::lang::Lang::En).is_ok(),
            "{f}"
        );
    }
}
