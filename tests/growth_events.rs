//! Mutation driven by events, levels and campaign karma (issue 10 item 12; C-GENE-2..5,
//! option `minor_sign`) and campaign karma with a Light/Dark budget and the game master's
//! grants (issue 10 item 13; C-KARMA-1..3). Exact answers are derived here by enumeration,
//! independently of the simulation; Monte Carlo must agree within 5 standard errors
//! (each check fails by chance with probability below 1e-6).

use assert_cmd::Command;
use cosmosim::scenario::ScenarioFile;
use cosmosim::systems::cosmos::growth::scenarios::{campaign, mutation};
use cosmosim::systems::cosmos::{drift, Outcome, TestRules, TestSpec};
use cosmosim::systems::{RunOverrides, ScenarioResult};

fn bin() -> Command {
    Command::cargo_bin("cosmosim").unwrap()
}

fn write(dir: &std::path::Path, name: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn run_text(
    name: &str,
    text: &str,
    trials: u64,
    options: &[&str],
    f: fn(&ScenarioFile, &RunOverrides) -> anyhow::Result<ScenarioResult>,
) -> ScenarioResult {
    let file = ScenarioFile::from_text(name, text, cosmosim::lang::Lang::En);
    let o = RunOverrides {
        trials: Some(trials),
        quiet: true,
        options: options.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    f(&file, &o).unwrap()
}

fn column(r: &ScenarioResult, output: &str, col: &str) -> Vec<f64> {
    r.outputs
        .iter()
        .find(|o| o.name == output)
        .unwrap()
        .frame
        .column(col)
        .unwrap()
        .f64()
        .unwrap()
        .into_no_null_iter()
        .collect()
}

fn close(p_hat: f64, p: f64, n: u64) -> bool {
    (p_hat - p).abs() <= 5.0 * (p * (1.0 - p) / n as f64).sqrt().max(1e-12)
}

/// A one-gene tree (no relatives, no children): the Chance table then reads
/// SuperSuccess = positive major, CritSuccess/Success = positive minor, Failure =
/// negative minor, CritFailure/SuperFailure = negative major (C-GENE-3).
const ONE_GENE: &str = "[[mutation.genes]]\nname = \"g\"\n";

/// Exact P(no major after the rolls), by enumeration over outcome sequences with karma
/// drift (C-KARMA-1) and the escalation reading (C-GENE-4, `minor_sign`).
fn p_no_major(chances: &[i64], karma: i8, separate: bool) -> f64 {
    let rules = TestRules::default();
    fn go(chances: &[i64], karma: i8, pos: u8, neg: u8, separate: bool, rules: &TestRules) -> f64 {
        let Some((&c, rest)) = chances.split_first() else {
            return 1.0;
        };
        let dist = TestSpec::new(c as f64, karma).unwrap().exact(rules);
        let mut p = 0.0;
        for o in Outcome::ALL {
            let q = dist.prob(&o);
            if q == 0.0 {
                continue;
            }
            let (pos, neg) = match o {
                Outcome::CritSuccess | Outcome::Success => (pos + 1, neg),
                Outcome::Failure => (pos, neg + 1),
                _ => continue, // a major
            };
            let escalates = if separate {
                pos >= 3 || neg >= 3
            } else {
                pos + neg >= 3
            };
            if !escalates {
                let k = drift(karma, o, &TestRules::default());
                p += q * go(rest, k, pos, neg, separate, rules);
            }
        }
        p
    }
    go(chances, karma, 0, 0, separate, &rules)
}

fn events_file(days: &str, extra: &str) -> String {
    format!(
        "system = \"cosmos\"\nkind = \"mutation\"\n[mutation]\nchance = 50\nmax_days = {days}\n{extra}{ONE_GENE}[[mutation.events]]\nname = \"dose\"\ndays = [1, 2, 3]\nmutations = 1\n"
    )
}

#[test]
fn event_rolls_match_the_exact_chain_for_both_minor_sign_readings() {
    let n = 40_000;
    for (separate, opts) in [(false, vec![]), (true, vec!["minor_sign=separate"])] {
        let r = run_text("ev.toml", &events_file("3", ""), n, &opts, mutation::run);
        let no_major = column(&r, "mutation-survival", "p_no_major");
        assert!(no_major.len() >= 4, "days 0..=3: {no_major:?}");
        for (day, &got) in no_major.iter().enumerate().take(4).skip(1) {
            let exact = p_no_major(&vec![50; day], 0, separate);
            assert!(
                close(got, exact, n),
                "separate={separate} day {day}: {got} vs {exact}"
            );
        }
        if !separate {
            // Three minors on one gene always escalate (C-GENE-4): no character is left
            // without a major after three rolls.
            assert_eq!(no_major[3], 0.0);
        } else {
            assert!(no_major[3] > 0.2, "{}", no_major[3]);
        }
    }
}

#[test]
fn chance_follows_the_levels() {
    // A level every day from level 1, Chance 50 then 90: the 2nd and 3rd rolls are at
    // Chance 90, so nearly every minor is positive and, with minor_sign = separate, three
    // positive minors escalate far more often than at Chance 50.
    let n = 40_000;
    let text = events_file(
        "3",
        "[mutation.levels]\nstart = 1\ndays_per_level = 1\nchance = [50, 90]\n",
    );
    let r = run_text("lv.toml", &text, n, &["minor_sign=separate"], mutation::run);
    let no_major = column(&r, "mutation-survival", "p_no_major");
    let exact = p_no_major(&[50, 90, 90], 0, true);
    assert!(close(no_major[3], exact, n), "{} vs {exact}", no_major[3]);
    let flat = p_no_major(&[50, 50, 50], 0, true);
    assert!((exact - flat).abs() > 0.05, "{exact} vs {flat}");
    // chance_per_level: 50, 70, 90 on days 1, 2, 3.
    let text = events_file(
        "3",
        "[mutation.levels]\nstart = 1\ndays_per_level = 1\nchance_per_level = 20\n",
    );
    let r = run_text(
        "lv2.toml",
        &text,
        n,
        &["minor_sign=separate"],
        mutation::run,
    );
    let no_major = column(&r, "mutation-survival", "p_no_major");
    let exact = p_no_major(&[50, 70, 90], 0, true);
    assert!(close(no_major[3], exact, n), "{} vs {exact}", no_major[3]);
}

#[test]
fn daily_chance_events_and_immediate_majors() {
    // A bite with a 10% daily chance that brings a major: P(no major by day d) = 0.9^d.
    let n = 40_000;
    let text = format!(
        "system = \"cosmos\"\nkind = \"mutation\"\n[mutation]\nchance = 50\nmax_days = 10\n{ONE_GENE}[[mutation.events]]\nname = \"bite\"\ndaily_chance = 0.1\nmajor = true\n"
    );
    let r = run_text("bite.toml", &text, n, &[], mutation::run);
    let no_major = column(&r, "mutation-survival", "p_no_major");
    assert!(no_major.len() >= 11, "days 0..=10: {no_major:?}");
    for (d, &got) in no_major.iter().enumerate().take(11) {
        let exact = 0.9f64.powi(d as i32);
        assert!(close(got, exact, n), "day {d}: {got}");
    }
    // Three bites make an ultimate (C-GENE-5): P(at least 3 in 10 days), binomial.
    let no_ult = column(&r, "mutation-survival", "p_no_ultimate");
    let binom = |k: u32| {
        let c = (0..k).fold(1.0, |a, i| a * (10 - i) as f64 / (i + 1) as f64);
        c * 0.1f64.powi(k as i32) * 0.9f64.powi(10 - k as i32)
    };
    let exact = binom(0) + binom(1) + binom(2);
    assert!(close(no_ult[10], exact, n), "{} vs {exact}", no_ult[10]);
}

/// Exact P(no major) after one roll a day for `days` days, each day's roll preceded by
/// `tests` campaign tests at `threshold` (a dynamic program over karma and the minors of
/// each sign on the one gene, under `minor_sign = separate`).
fn p_no_major_with_campaign(days: usize, tests: usize, threshold: f64, karma: i8) -> f64 {
    use cosmosim::systems::cosmos::transition_matrix;
    let rules = TestRules::default();
    let p = transition_matrix(threshold, &rules);
    // state: (karma index, positive minors, negative minors) -> probability
    let mut law = std::collections::BTreeMap::new();
    law.insert(((karma + 10) as usize, 0u8, 0u8), 1.0);
    for _ in 0..days {
        for _ in 0..tests {
            let mut next = std::collections::BTreeMap::new();
            for (&(k, a, b), &q) in &law {
                for (j, t) in p[k].iter().enumerate() {
                    if *t > 0.0 {
                        *next.entry((j, a, b)).or_insert(0.0) += q * t;
                    }
                }
            }
            law = next;
        }
        let mut next = std::collections::BTreeMap::new();
        for (&(k, a, b), &q) in &law {
            let karma = k as i8 - 10;
            let dist = TestSpec::new(50.0, karma).unwrap().exact(&rules);
            for o in Outcome::ALL {
                let (a, b) = match o {
                    Outcome::CritSuccess | Outcome::Success => (a + 1, b),
                    Outcome::Failure => (a, b + 1),
                    _ => continue,
                };
                if a < 3 && b < 3 {
                    let j = (drift(karma, o, &TestRules::default()) + 10) as usize;
                    *next.entry((j, a, b)).or_insert(0.0) += q * dist.prob(&o);
                }
            }
        }
        law = next;
    }
    law.values().sum()
}

#[test]
fn campaign_tests_move_the_karma_of_the_mutation_roll() {
    // 30 campaign tests a day before each roll: the roll reads the karma they leave
    // (C-KARMA-1). Karma barely moves the major bands, but the karma die moves success vs
    // failure, hence the sign of minors, which `minor_sign = separate` escalates apart.
    // Starting at karma +10 (the karma die helps every roll), the campaign's crit
    // successes pull karma back towards 0 between the rolls.
    let n = 40_000;
    let text = format!(
        "system = \"cosmos\"\nkind = \"mutation\"\n[mutation]\nchance = 50\nkarma = 10\nmax_days = 3\n{ONE_GENE}[[mutation.events]]\nname = \"dose\"\ndays = [1, 2, 3]\nmutations = 1\n[mutation.campaign]\ntests_per_day = 30\n[[mutation.campaign.thresholds]]\nthreshold = 50\n"
    );
    let r = run_text("cp.toml", &text, n, &["minor_sign=separate"], mutation::run);
    let no_major = column(&r, "mutation-survival", "p_no_major");
    let exact = p_no_major_with_campaign(3, 30, 50.0, 10);
    assert!(close(no_major[3], exact, n), "{} vs {exact}", no_major[3]);
    // The DP without campaign tests is the enumeration above.
    let flat = p_no_major_with_campaign(3, 0, 50.0, 10);
    assert!((flat - p_no_major(&[50; 3], 10, true)).abs() < 1e-12);
    // Karma has moved: the answer differs from rolls without campaign tests.
    assert!((exact - flat).abs() > 0.01, "{exact} vs {flat}");
}

const CAMPAIGN: &str = "system = \"cosmos\"\nkind = \"campaign\"\n[campaign]\ntests = 20\ncheckpoint_every = 1\nburn_in = 0\ntests_per_session = 10\n[[campaign.thresholds]]\nthreshold = 50\n[campaign.postures]\nevery_tests = 2\nlength_tests = 1\nkind = \"alternate\"\n";

#[test]
fn postures_are_paid_in_points_and_refused_without() {
    // 10 postures due (tests 2, 4, ..., 20); 1 Light + 1 Dark, 1 Light more at session 2:
    // exactly 3 entered and 7 refused in every campaign.
    let text = format!("{CAMPAIGN}[campaign.points]\nlight = 1\ndark = 1\n[[campaign.gm_grants]]\nsession = 2\nlight = 1\n");
    let r = run_text("pts.toml", &text, 2_000, &[], campaign::run);
    assert_eq!(column(&r, "campaign-points", "entered_mean"), vec![3.0]);
    assert_eq!(column(&r, "campaign-points", "refused_mean"), vec![7.0]);
    assert_eq!(column(&r, "campaign-points", "p_refused"), vec![1.0]);
}

#[test]
fn gm_karma_grants_match_the_exact_chain() {
    // +6 before session 2 on top of drift at threshold 50; both overflow readings (book
    // line 77: a grant past +-10 "ne pourra pas avoir lieu" = cancel).
    let n = 20_000;
    let text = format!("{CAMPAIGN}[[campaign.gm_grants]]\nsession = 2\nkarma = 6\n[[campaign.gm_grants]]\ntest = 15\nkarma = 6\n");
    for opts in [vec![], vec!["karma_overflow=cancel"]] {
        let r = run_text("gm.toml", &text, n, &opts, campaign::run);
        let ex = column(&r, "campaign-gm", "karma_mean_exact");
        let mc = column(&r, "campaign-gm", "karma_mean_mc");
        let lo = column(&r, "campaign-gm", "karma_mean_mc_lo");
        let hi = column(&r, "campaign-gm", "karma_mean_mc_hi");
        for i in 0..ex.len() {
            let se = (hi[i] - lo[i]) / (2.0 * 1.96);
            assert!(
                (mc[i] - ex[i]).abs() <= 5.0 * se.max(1e-9),
                "{opts:?} test {}: {} vs {}",
                i + 1,
                mc[i],
                ex[i]
            );
        }
        // The grant lands before test 11: the mean jumps by about 6.
        assert!(ex[10] - ex[9] > 5.0, "{} {}", ex[9], ex[10]);
        let pd_ex = column(&r, "campaign-gm", "p_karma_die_exact");
        let pd_mc = column(&r, "campaign-gm", "p_karma_die_mc");
        for i in 0..ex.len() {
            assert!(close(pd_mc[i], pd_ex[i], n), "{} vs {}", pd_mc[i], pd_ex[i]);
        }
    }
}

#[test]
fn validation_is_located_and_shared_by_check_and_run() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "e1.toml",
            events_file("3", "").replace("mutations = 1", "mutations = 11"),
            "e1.toml:11:13: key `mutation.events[0].mutations`: 11 is out of range; allowed: 0..10",
        ),
        (
            "e2.toml",
            events_file("3", "").replace("days = [1, 2, 3]", "days = [1]\ndaily_chance = 0.5"),
            "key `mutation.events[0].days`: event \"dose\" needs exactly one of days and daily_chance",
        ),
        (
            "e3.toml",
            events_file("3", "[mutation.levels]\ndays_per_level = 5\nchance = [40, 45]\n"),
            "key `mutation.levels.chance`: the list starts at 40 but mutation.chance is 50",
        ),
        (
            "c1.toml",
            format!("{CAMPAIGN}[[campaign.gm_grants]]\nsession = 3\nkarma = 1\n"),
            "c1.toml:15:11: key `campaign.gm_grants[0].session`: 3 is out of range; allowed: 1..2",
        ),
        (
            "c2.toml",
            format!("{CAMPAIGN}[[campaign.gm_grants]]\ntest = 4\nlight = 1\n"),
            "key `campaign.gm_grants[0].light`: Light/Dark points granted without a budget",
        ),
        (
            "c3.toml",
            format!("{CAMPAIGN}[campaign.points]\nlevel5_dark = 2\n"),
            "key `campaign.points.level5_dark`: level5_dark without level5_session",
        ),
    ];
    for (name, text, want) in cases {
        let p = write(dir.path(), name, &text);
        for cmd in ["check", "run"] {
            let mut c = bin();
            c.arg(cmd).arg(&p);
            if cmd == "run" {
                c.arg("--out").arg(dir.path().join("out"));
            }
            c.assert().code(2).stderr(predicates::str::contains(want));
        }
    }
    // The option's values are named.
    let p = write(dir.path(), "o.toml", &events_file("3", ""));
    bin()
        .arg("run")
        .arg(&p)
        .args(["--option", "minor_sign=both", "--out"])
        .arg(dir.path().join("out"))
        .assert()
        .code(2)
        .stderr(predicates::str::contains("together | separate"));
}

/// Golden CSVs of the shipped examples at a small trial count (pins streams and columns;
/// regenerate deliberately with `UPDATE_GOLDEN=1 cargo test --release --test growth_events`).
fn golden_run(scenario: &str, trials: &str, files: &[(&str, &str)]) {
    let d = tempfile::tempdir().unwrap();
    bin()
        .args(["-q", "run", scenario, "--trials", trials, "--out"])
        .arg(d.path())
        .assert()
        .success();
    for (csv, golden) in files {
        let got = std::fs::read_to_string(d.path().join(csv)).unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/golden")
            .join(golden);
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            std::fs::write(&path, &got).unwrap();
        }
        let want = std::fs::read_to_string(&path).unwrap();
        assert_eq!(got, want, "golden {golden} changed");
    }
}

#[test]
fn golden_mutation_events_and_campaign_gm() {
    golden_run(
        "scenarios/cosmos/mutation-events.toml",
        "2000",
        &[
            (
                "mutation-survival.csv",
                "cosmos-mutation-events-survival.csv",
            ),
            ("mutation-times.csv", "cosmos-mutation-events-times.csv"),
        ],
    );
    golden_run(
        "scenarios/cosmos/campaign-gm.toml",
        "2000",
        &[
            ("campaign-gm.csv", "cosmos-campaign-gm.csv"),
            ("campaign-points.csv", "cosmos-campaign-points.csv"),
        ],
    );
}

#[test]
fn french_pages_and_identical_csvs() {
    // Issue 14: `--lang fr` writes French text (the book's terms, comma decimals) and the
    // very same CSV bytes.
    let d = tempfile::tempdir().unwrap();
    let (en, fr) = (d.path().join("en"), d.path().join("fr"));
    for scenario in [
        "scenarios/cosmos/campaign-gm.toml",
        "scenarios/cosmos/mutation-events.toml",
    ] {
        for (out, lang) in [(&en, "en"), (&fr, "fr")] {
            bin()
                .args([
                    "-q", "run", scenario, "--trials", "1000", "--lang", lang, "--out",
                ])
                .arg(out)
                .assert()
                .success();
        }
        let summary = std::fs::read_to_string(fr.join("summary.md")).unwrap();
        let english = std::fs::read_to_string(en.join("summary.md")).unwrap();
        if scenario.contains("campaign") {
            assert!(
                summary.contains("Réserve de Light/Dark points"),
                "{summary}"
            );
            assert!(english.contains("Light/Dark budget:"), "{english}");
        } else {
            assert!(summary.contains("mutation ultime"), "{summary}");
            assert!(summary.contains("intervalle à 95 %"), "{summary}");
        }
        // A comma decimal in a key figure ("= 0,1234").
        assert!(
            summary
                .as_bytes()
                .windows(3)
                .any(|w| w[0] == b'0' && w[1] == b',' && w[2].is_ascii_digit()),
            "{summary}"
        );
        for entry in std::fs::read_dir(&en).unwrap() {
            let p = entry.unwrap().path();
            if p.extension().is_some_and(|e| e == "csv") {
                let name = p.file_name().unwrap();
                assert_eq!(
                    std::fs::read(&p).unwrap(),
                    std::fs::read(fr.join(name)).unwrap(),
                    "{name:?} differs between English and French"
                );
            }
        }
    }
}

/// Exact P(no major after the rolls) on one gene with a gene therapy after each roll
/// (C-GENE-5), minors escalating together (C-GENE-4: the 2nd irreversible, the 3rd a
/// major): `negative_only` keeps the positive minors through the therapy.
fn p_no_major_with_therapy(chances: &[i64], karma: i8, negative_only: bool) -> f64 {
    let rules = TestRules::default();
    // Gene state: (minors, positive minors, irreversible).
    fn go(chances: &[i64], karma: i8, g: (u8, u8, bool), neg_only: bool, r: &TestRules) -> f64 {
        let Some((&c, rest)) = chances.split_first() else {
            return 1.0;
        };
        let dist = TestSpec::new(c as f64, karma).unwrap().exact(r);
        let mut p = 0.0;
        for o in Outcome::ALL {
            let q = dist.prob(&o);
            let positive = match o {
                Outcome::CritSuccess | Outcome::Success => 1,
                Outcome::Failure => 0,
                _ => continue, // a major
            };
            let (minors, pos) = (g.0 + 1, g.1 + positive);
            if q == 0.0 || minors >= 3 {
                continue;
            }
            let mut next = (minors, pos, g.2 || minors == 2);
            if next.0 == 1 && !next.2 && (!neg_only || next.1 == 0) {
                next = (0, 0, false);
            }
            p += q * go(rest, drift(karma, o, r), next, neg_only, r);
        }
        p
    }
    go(chances, karma, (0, 0, false), negative_only, &rules)
}

#[test]
fn gene_therapy_cures_positive_minors_unless_therapy_cures_negative() {
    // Doses on days 1, 2, 3 and a therapy every day (C-GENE-5 "cures reversible minors";
    // cosmos-current l. 296: a reversible minor of either sign is curable). Default
    // `reversible`: every minor is cured the day it comes, so only a major roll makes a
    // major. `negative`: a positive minor stays, so a second minor makes it
    // irreversible and a third a major (audit of 2026-12-07).
    let n = 40_000;
    let text = events_file("3", "therapy_every_days = 1\n");
    let mut seen = Vec::new();
    for (opts, negative_only) in [
        (vec![], false),
        (vec!["therapy_cures=reversible"], false),
        (vec!["therapy_cures=negative"], true),
    ] {
        let r = run_text("th.toml", &text, n, &opts, mutation::run);
        let no_major = column(&r, "mutation-survival", "p_no_major")[3];
        let exact = p_no_major_with_therapy(&[50, 50, 50], 0, negative_only);
        assert!(close(no_major, exact, n), "{opts:?}: {no_major} vs {exact}");
        seen.push(exact);
        // Listed in the provenance only off its default.
        let listed = r.outputs[0].provenance.rule_options.get("therapy_cures");
        assert_eq!(
            listed.map(|s| s.as_str()),
            negative_only.then_some("negative")
        );
    }
    assert!(seen[0] - seen[2] > 0.05, "{seen:?}");
}
