//! Balance checks: `figures`, `expect` (exact and Monte Carlo verdicts, the sequential
//! rule, published tables, JUnit), bad files. CLI runs on temp dirs.

use std::path::Path;

use assert_cmd::Command;

fn cosmosim() -> Command {
    let mut c = Command::cargo_bin("cosmosim").unwrap();
    c.current_dir(env!("CARGO_MANIFEST_DIR"));
    c
}

/// Writes an expectations file with `body` after a title, runs `expect` on it, returns
/// (exit code, stderr, expect.csv, junit.xml).
fn expect(dir: &Path, body: &str, extra: &[&str]) -> (i32, String, String, String) {
    let file = dir.join("e.toml");
    std::fs::write(&file, format!("title = \"test intent\"\n{body}")).unwrap();
    let out = dir.join("out");
    let r = cosmosim()
        .arg("expect")
        .arg(&file)
        .arg("--out")
        .arg(&out)
        .args(if extra.contains(&"--threads") {
            &[][..]
        } else {
            &["--threads", "2"][..]
        })
        .args(extra)
        .output()
        .unwrap();
    let read = |n: &str| std::fs::read_to_string(out.join(n)).unwrap_or_default();
    (
        r.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&r.stderr).to_string(),
        read("expect.csv"),
        read("junit.xml"),
    )
}

const EXACT_TEST: &str = "table = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\" }\nwhere = { threshold = 50, karma = 0 }\nfigure = \"p_success\"\n";
const MC_TEST: &str = "table = \"cosmos-test\"\nparams = { thresholds = \"50\", karma = \"0\", method = \"mc\" }\nwhere = { threshold = 50, karma = 0 }\nfigure = \"p_success\"\n";

/// The verdict and trials of a row of expect.csv, by expectation name.
fn row(csv: &str, name: &str) -> (String, Option<u64>) {
    let header: Vec<&str> = csv.lines().next().unwrap().split(',').collect();
    let col = |n: &str| header.iter().position(|h| *h == n).unwrap();
    let line = csv
        .lines()
        .find(|l| l.contains(name))
        .unwrap_or_else(|| panic!("{name} not in {csv}"));
    let cells = split_csv(line);
    (
        cells[col("verdict")].to_string(),
        cells[col("trials")].parse().ok(),
    )
}

/// Splits a CSV line, honouring double quotes.
fn split_csv(line: &str) -> Vec<String> {
    let mut cells = vec![String::new()];
    let mut quoted = false;
    for ch in line.chars() {
        match ch {
            '"' => quoted = !quoted,
            ',' if !quoted => cells.push(String::new()),
            c => cells.last_mut().unwrap().push(c),
        }
    }
    cells
}

#[test]
fn exact_expectations_hold_and_fail() {
    let dir = tempfile::tempdir().unwrap();
    // p_success at 50, karma 0 is 0.39 exactly (C-TEST-1: 11..50 less the 42).
    let body = format!(
        "[[expect]]\nname = \"in band\"\n{EXACT_TEST}between = [0.38, 0.40]\n\n\
         [[expect]]\nname = \"equals exactly\"\n{EXACT_TEST}equals = 0.39\n\n\
         [[expect]]\nname = \"too high\"\n{EXACT_TEST}at_least = 0.395\n"
    );
    let (code, err, csv, junit) = expect(dir.path(), &body, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(row(&csv, "in band").0, "holds");
    assert_eq!(row(&csv, "equals exactly").0, "holds");
    assert_eq!(row(&csv, "too high").0, "fails");
    assert!(junit.contains("off by 0.005"), "{junit}");
}

#[test]
fn monte_carlo_expectations_hold_fail_and_need_more_trials() {
    let dir = tempfile::tempdir().unwrap();
    // True value 0.39. At 10,000 trials the interval (99.9% here) is about ±0.016, so
    // `at_least 0.38` cannot be decided at first; by 160,000 trials it is ±0.004.
    let body = format!(
        "[[expect]]\nname = \"clearly inside\"\n{MC_TEST}between = [0.3, 0.5]\ntrials = 10000\n\n\
         [[expect]]\nname = \"clearly outside\"\n{MC_TEST}at_most = 0.3\ntrials = 10000\n\n\
         [[expect]]\nname = \"needs more trials\"\n{MC_TEST}at_least = 0.38\ntrials = 10000\nmax_trials = 640000\n\n\
         [[expect]]\nname = \"never decided\"\n{MC_TEST}equals = 0.39\ntrials = 10000\nmax_trials = 20000\n"
    );
    let (code, err, csv, _) = expect(dir.path(), &body, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(row(&csv, "clearly inside"), ("holds".into(), Some(10000)));
    assert_eq!(row(&csv, "clearly outside"), ("fails".into(), Some(10000)));
    let (v, t) = row(&csv, "needs more trials");
    assert_eq!(v, "holds");
    assert!(t.unwrap() > 10000 && t.unwrap() <= 640000, "{t:?}");
    assert_eq!(
        row(&csv, "never decided"),
        ("undecided".into(), Some(20000))
    );
}

#[test]
fn verdicts_do_not_depend_on_threads() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "[[expect]]\nname = \"x\"\n{MC_TEST}at_least = 0.38\ntrials = 10000\nmax_trials = 640000\n"
    );
    let (_, _, a, _) = expect(dir.path(), &body, &["--threads", "1"]);
    let (_, _, b, _) = expect(dir.path(), &body, &[]);
    assert_eq!(a, b);
}

#[test]
fn published_table_is_checked_cell_by_cell() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.csv");
    // Exact values at 50: crit 0.045 / 0.10 / 0.155; a misprint at karma 5.
    std::fs::write(
        &book,
        "threshold,karma,p_crit_success\n50,-5,0.05\n50,0,0.10\n50,5,0.17\n",
    )
    .unwrap();
    let body = format!(
        "[[expect]]\nname = \"book\"\ntable = \"cosmos-test\"\nparams = {{ thresholds = \"50\", karma = \"-5,0,5\" }}\ntable_file = \"{}\"\nprecision = 0.01\n",
        book.display()
    );
    let (code, err, csv, junit) = expect(dir.path(), &body, &[]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(row(&csv, "book").0, "fails");
    assert!(junit.contains("2 of 3 printed cells"), "{junit}");
    assert!(junit.contains("printed 0.17, computed 0.155"), "{junit}");
}

/// Minimal JUnit check: the elements and attributes the JUnit XML schema requires and
/// CI dashboards read (testsuites > testsuite[name, tests, failures] > testcase[name,
/// classname] > failure[message]), with consistent counts.
#[test]
fn junit_has_the_required_elements() {
    let dir = tempfile::tempdir().unwrap();
    let body = format!(
        "[[expect]]\nname = \"holds <&>\"\n{EXACT_TEST}at_most = 0.5\n\n\
         [[expect]]\nname = \"fails\"\n{EXACT_TEST}at_most = 0.1\n"
    );
    let (_, _, _, junit) = expect(dir.path(), &body, &[]);
    assert!(junit.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites "));
    assert!(junit.trim_end().ends_with("</testsuites>"));
    let tags: Vec<&str> = junit
        .split('<')
        .skip(1)
        .map(|t| t.split('>').next().unwrap())
        .collect();
    let attr = |tag: &str, a: &str| -> Option<String> {
        let key = format!(" {a}=\"");
        tag.find(&key).map(|i| {
            let rest = &tag[i + key.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
    };
    let suites: Vec<&&str> = tags
        .iter()
        .filter(|t| t.starts_with("testsuite "))
        .collect();
    assert_eq!(suites.len(), 1);
    assert_eq!(attr(suites[0], "name").unwrap(), "test intent");
    assert_eq!(attr(suites[0], "tests").unwrap(), "2");
    assert_eq!(attr(suites[0], "failures").unwrap(), "1");
    let cases: Vec<&&str> = tags.iter().filter(|t| t.starts_with("testcase ")).collect();
    assert_eq!(cases.len(), 2);
    assert!(cases
        .iter()
        .all(|c| attr(c, "name").is_some() && attr(c, "classname").is_some()));
    assert_eq!(attr(cases[0], "name").unwrap(), "holds &lt;&amp;&gt;");
    let failures: Vec<&&str> = tags.iter().filter(|t| t.starts_with("failure ")).collect();
    assert_eq!(failures.len(), 1);
    assert!(attr(failures[0], "message")
        .unwrap()
        .contains("expected at most 0.1"));
    // Every opened element is closed.
    for el in ["testsuites", "testsuite", "failure"] {
        let open = tags
            .iter()
            .filter(|t| t.starts_with(&format!("{el} ")))
            .count();
        let close = tags.iter().filter(|t| **t == format!("/{el}")).count();
        assert_eq!(open, close, "{el}");
    }
}

#[test]
fn bad_files_are_located_with_the_allowed_values() {
    let dir = tempfile::tempdir().unwrap();
    let cases: &[(&str, &[&str])] = &[
        (
            &format!("[[expect]]\nname = \"a\"\n{EXACT_TEST}between = [0.4, 0.3]\n"),
            &["e.toml:8:", "expect[0].between", "allowed: [low, high]"],
        ),
        (
            &format!("[[expect]]\nname = \"a\"\n{EXACT_TEST}"),
            &["expect[0].figure", "give exactly one band"],
        ),
        (
            "[[expect]]\nname = \"a\"\ntable = \"cosmos-tst\"\nfigure = \"p_success\"\nat_most = 1\n",
            &["e.toml:4:", "expect[0].table", "unknown table", "allowed: cosmos-test"],
        ),
        (
            &format!("[[expect]]\nname = \"a\"\n{}at_most = 1\n", EXACT_TEST.replace("p_success", "p_sucess")),
            &["e.toml:7:", "expect[0].figure", "`p_success`", "`p_crit_success`"],
        ),
        (
            &format!("[[expect]]\nname = \"a\"\n{}at_most = 1\n", EXACT_TEST.replace("karma = 0 }", "karm = 0 }")),
            &["expect[0].where", "`karma`"],
        ),
        (
            "[[expect]]\nname = \"a\"\ntable = \"cosmos-test\"\nparams = { thresholds = \"999\" }\nfigure = \"p_success\"\nat_most = 1\n",
            &["e.toml:5:", "expect[0].params", "-100..200"],
        ),
        (
            "[[expect]]\nname = \"a\"\ntable = \"cosmos-test\"\nfigure = \"p_success\"\nat_most = 1\nbogus = 2\n",
            &["e.toml:7:", "bogus"],
        ),
        (
            &format!("[[expect]]\nname = \"a\"\n{EXACT_TEST}at_most = 1\nconfidence = 1.5\n"),
            &["expect[0].confidence", "0.5..0.999999"],
        ),
        (
            &format!("[[expect]]\nname = \"a\"\n{EXACT_TEST}at_most = 1\noptions = {{ super_crit_roll = \"nope\" }}\n"),
            &["expect[0].options.super_crit_roll"],
        ),
    ];
    for (body, wanted) in cases {
        let (code, err, _, _) = expect(dir.path(), body, &[]);
        assert_eq!(code, 2, "{body}\n{err}");
        for w in *wanted {
            assert!(err.contains(w), "missing {w:?} in {err}");
        }
    }
}

/// A trial count out of range is one located error: the key named once, one allowed range
/// (it read "key `expect[0].trials`: expect[0].trials: 0 trials is out of range; allowed:
/// 1..N; allowed: a whole number of trials"). Variants files say it the same way.
#[test]
fn a_trial_count_out_of_range_names_its_key_and_range_once() {
    let dir = tempfile::tempdir().unwrap();
    for key in ["trials", "max_trials"] {
        let body = format!("[[expect]]\nname = \"a\"\n{MC_TEST}at_most = 1\n{key} = 0\n");
        let (code, err, _, _) = expect(dir.path(), &body, &[]);
        assert_eq!(code, 2, "{err}");
        let named = format!("expect[0].{key}");
        assert_eq!(err.matches(&named).count(), 1, "{err}");
        assert_eq!(err.matches("allowed:").count(), 1, "{err}");
        assert!(
            err.contains("e.toml:9:") && err.contains("allowed: 1..1000000000000"),
            "{err}"
        );
    }
    let v = dir.path().join("v.toml");
    std::fs::write(&v, "title = \"t\"\nquestion = \"q\"\ntrials = 0\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cosmosim"))
        .args(["variants", v.to_str().unwrap(), "--out"])
        .arg(dir.path().join("vo"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("v.toml:3:") && err.contains("key `trials`"),
        "{err}"
    );
    assert_eq!(err.matches("allowed:").count(), 1, "{err}");
}

#[test]
fn shipped_expectations_all_hold() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("b");
    cosmosim()
        .args([
            "-q",
            "expect",
            "balance/cosmos.toml",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&out)
        .assert()
        .success();
    let csv = std::fs::read_to_string(out.join("expect.csv")).unwrap();
    assert!(csv.lines().count() > 12, "{csv}");
    assert!(!csv.contains(",fails,") && !csv.contains(",undecided,"));
}

#[test]
fn figures_lists_columns_and_keys() {
    let out = cosmosim()
        .args(["figures", "cosmos-test", "--thresholds", "50"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("key columns: threshold, karma"), "{text}");
    assert!(text.contains("p_crit_success") && text.contains("exact figure"));
    let out = cosmosim()
        .args(["figures", "scenarios/cosmos/apocalypse.toml"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("combat-postures.apocalypse_per_point"),
        "{text}"
    );
    cosmosim().args(["figures", "nope"]).assert().code(2);
}

/// Issue 24: a published table that prints no figure (a header only, or key columns only)
/// would "hold" with 0 of 0 cells; it is refused, naming the CSV and what is missing, in
/// English and French. A table saved by a spreadsheet (byte-order mark, quoted cells) is
/// read as the numbers it holds.
#[test]
fn a_published_table_that_checks_nothing_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.csv");
    let body = format!(
        "[[expect]]\nname = \"book\"\ntable = \"cosmos-test\"\nparams = {{ thresholds = \"50\", karma = \"-5,0,5\" }}\ntable_file = \"{}\"\nprecision = 0.01\n",
        book.display()
    );
    for (csv, en, fr) in [
        (
            "threshold,karma,p_crit_success\n",
            "has a header but no rows",
            "a un en-tête mais aucune ligne",
        ),
        (
            "threshold,karma\n50,-5\n50,0\n",
            "prints no figure, only the columns threshold, karma",
            "n'imprime aucun chiffre",
        ),
    ] {
        std::fs::write(&book, csv).unwrap();
        let (code, err, _, junit) = expect(dir.path(), &body, &[]);
        assert_eq!(code, 2, "{csv:?}: {err}");
        assert!(
            err.contains("book.csv") && err.contains(en),
            "{csv:?}: {err}"
        );
        assert!(
            err.contains("e.toml:") && err.contains("table_file"),
            "{err}"
        );
        assert!(junit.is_empty(), "nothing is reported as holding: {junit}");
        let (code, err, _, _) = expect(dir.path(), &body, &["--lang", "fr"]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(fr), "{csv:?}: {err}");
    }
}

#[test]
fn a_published_table_saved_by_a_spreadsheet_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.csv");
    // The exact crit chances at 50 (0.045, 0.10, 0.155), as a spreadsheet saves them.
    std::fs::write(
        &book,
        "\u{FEFF}\"threshold\",\"karma\",\"p_crit_success\"\r\n\"50\",\"-5\",\"0.05\"\r\n\
         \"50\",\"0\",\"0.10\"\r\n50,5,\"0.16\"\r\n",
    )
    .unwrap();
    let body = format!(
        "[[expect]]\nname = \"book\"\ntable = \"cosmos-test\"\nparams = {{ thresholds = \"50\", karma = \"-5,0,5\" }}\ntable_file = \"{}\"\nprecision = 0.02\n",
        book.display()
    );
    let (code, err, csv, junit) = expect(dir.path(), &body, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(row(&csv, "book").0, "holds");
    assert!(csv.contains("3 of 3 printed cells"), "{csv}");
    assert!(junit.contains("<testcase name=\"book\""), "{junit}");
}

/// Issue 24: an expectation name with a control character or an empty one is refused
/// where it is written; the message names the character, never prints it.
#[test]
fn names_with_control_characters_or_empty_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    for (name, what) in [
        ("a\\u001b[31mb", "U+001B"),
        ("a\\u0000b", "U+0000"),
        ("", "an empty name"),
        ("a\\nb", "line break"),
        ("a\\u202eb", "U+202E"),
    ] {
        let body = format!("[[expect]]\nname = \"{name}\"\n{EXACT_TEST}at_most = 0.5\n");
        let (code, err, _, _) = expect(dir.path(), &body, &[]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(
            err.contains("e.toml:3:8") && err.contains("expect[0].name") && err.contains(what),
            "{name}: {err}"
        );
        assert!(
            !err.chars().any(|c| c.is_control() && c != '\n'),
            "{name}: {err:?}"
        );
    }
}
