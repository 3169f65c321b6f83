//! `expect`'s bands (audit of 2026-12-07, evening): a band's mistake is located at the
//! band's own key, a share's band must lie in 0..1, and a share's widened interval is
//! shown (and decided) inside 0..1.

use std::path::Path;

use assert_cmd::Command;

/// Runs `expect` on `body` after a title; returns (exit code, stderr, expect.csv).
fn expect(dir: &Path, body: &str, lang: &str) -> (i32, String, String) {
    let file = dir.join("e.toml");
    std::fs::write(&file, format!("title = \"bands\"\n{body}")).unwrap();
    let out = dir.join("out");
    let r = Command::cargo_bin("cosmosim")
        .unwrap()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["expect", "--quiet", "--threads", "2", "--lang", lang])
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    (
        r.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&r.stderr).to_string(),
        std::fs::read_to_string(out.join("expect.csv")).unwrap_or_default(),
    )
}

/// Lines 2..7 of every file: the expectation up to its figure (line 7 is `figure`).
const TEST_AT_50: &str = "[[expect]]\nname = \"a\"\ntable = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\" }\nwhere = { threshold = 50, karma = 0 }\nfigure = \"p_success\"\n";

#[test]
fn a_bad_band_is_located_at_its_own_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[&str])] = &[
        // Two bands: the second is the one too many (line 9), not `figure` (line 7).
        (
            "at_least = 0.6\nat_most = 0.4\n",
            &["e.toml:9:", "expect[0].at_most", "give exactly one band"],
        ),
        (
            "at_least = nan\n",
            &["e.toml:8:", "expect[0].at_least", "not a number"],
        ),
        (
            "at_most = inf\n",
            &["e.toml:8:", "expect[0].at_most", "not a number"],
        ),
        (
            "equals = nan\n",
            &["e.toml:8:", "expect[0].equals", "not a number"],
        ),
        // A share's band in percent, or below 0: at the band's key, before any run.
        (
            "between = [38, 40]\n",
            &[
                "e.toml:8:",
                "expect[0].between",
                "p_success is a share (0 to 1) and the band has 38",
                "allowed: numbers from 0 to 1",
            ],
        ),
        (
            "at_least = -0.5\n",
            &["e.toml:8:", "expect[0].at_least", "the band has -0.5"],
        ),
        (
            "at_most = 1.2\n",
            &["e.toml:8:", "expect[0].at_most", "1.2"],
        ),
        ("equals = 50\n", &["e.toml:8:", "expect[0].equals", "50"]),
    ];
    for (band, wanted) in cases {
        let (code, err, _) = expect(dir.path(), &format!("{TEST_AT_50}{band}"), "en");
        assert_eq!(code, 2, "{band}\n{err}");
        for w in *wanted {
            assert!(err.contains(w), "missing {w:?} for {band:?} in {err}");
        }
        assert!(!err.contains("expect[0].figure"), "{err}");
    }
    // In French too.
    let (code, err, _) = expect(
        dir.path(),
        &format!("{TEST_AT_50}between = [38, 40]\n"),
        "fr",
    );
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("p_success est une proportion (de 0 à 1) et la fourchette contient 38"),
        "{err}"
    );
    assert!(err.contains("des nombres de 0 à 1"), "{err}");
    // No band at all: `figure` is still where to add one.
    let (code, err, _) = expect(dir.path(), TEST_AT_50, "en");
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("e.toml:7:") && err.contains("expect[0].figure"),
        "{err}"
    );
    // 0 and 1 are a share's own bounds; a figure that is no share takes any band.
    for band in ["between = [0, 1]\n", "at_least = 0\n", "at_most = 1\n"] {
        let (code, err, _) = expect(dir.path(), &format!("{TEST_AT_50}{band}"), "en");
        assert_eq!(code, 0, "{band}\n{err}");
    }
    let karma = TEST_AT_50.replace("\"p_success\"", "\"karma\"");
    let (code, err, _) = expect(dir.path(), &format!("{karma}between = [-5, 5]\n"), "en");
    assert_eq!(code, 0, "{err}");
}

/// P(success) at threshold 11 is 0.01; 6 hits in 300 trials have a Wilson 95% interval
/// near 0, and widened to 99.9999% its lower end fell below 0 (-0.005404 at seed 1). A
/// share is in 0..1 whatever the trials: the interval now stops at 0.
#[test]
fn a_share_interval_stays_in_0_1() {
    let dir = tempfile::tempdir().unwrap();
    let body = "confidence = 0.999999\n[[expect]]\nname = \"a\"\ntable = \"cosmos-test\"\nparams = { thresholds = \"11\", karma = \"0\", method = \"mc\" }\nwhere = { threshold = 11, karma = 0 }\nfigure = \"p_success\"\nbetween = [0.0, 0.005]\ntrials = 300\nmax_trials = 300\n";
    let (code, err, csv) = expect(dir.path(), body, "en");
    assert_eq!(code, 1, "{err}");
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    // The figure's cell is quoted and holds commas: split outside quotes.
    let mut row = vec![String::new()];
    let mut quoted = false;
    for ch in csv.lines().nth(1).unwrap().chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => row.push(String::new()),
            c => row.last_mut().unwrap().push(c),
        }
    }
    let cell = |n: &str| row[header.iter().position(|h| *h == n).unwrap()].as_str();
    assert_eq!(cell("value"), "0.0066666667", "{csv}");
    assert_eq!(cell("value_lo"), "0.0000000000", "{csv}");
    assert_eq!(cell("value_hi"), "0.0498709022", "{csv}");
    assert_eq!(cell("verdict"), "undecided", "{csv}");
    assert!(csv.contains("(interval 0..0.049871 at 99.9999%)"), "{csv}");
}
