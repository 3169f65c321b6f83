//! `expect.md`, `expect.csv` and `junit.xml` from the outcomes of one or more files.
//! Nothing time-dependent is written, so the same inputs give the same bytes.

use polars::prelude::*;

use crate::report::csv_string;

use super::check::Outcome;
use super::decide::{num, Verdict};

/// One expectations file and its outcomes.
pub struct FileOutcomes {
    pub path: String,
    pub title: String,
    pub outcomes: Vec<Outcome>,
}

fn count(files: &[FileOutcomes], v: Verdict) -> usize {
    files
        .iter()
        .flat_map(|f| &f.outcomes)
        .filter(|o| o.verdict == v)
        .count()
}

/// True when every expectation holds.
pub fn all_hold(files: &[FileOutcomes]) -> bool {
    files
        .iter()
        .flat_map(|f| &f.outcomes)
        .all(|o| o.verdict == Verdict::Holds)
}

/// One line for the terminal and `index.md`.
pub fn headline(files: &[FileOutcomes]) -> String {
    let total: usize = files.iter().map(|f| f.outcomes.len()).sum();
    format!(
        "{} of {total} expectations hold, {} fail, {} undecided",
        count(files, Verdict::Holds),
        count(files, Verdict::Fails),
        count(files, Verdict::Undecided)
    )
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn value_text(o: &Outcome) -> String {
    match (o.value, o.interval) {
        (Some(v), Some((lo, hi))) => format!("{} ({}..{})", num(v), num(lo), num(hi)),
        (Some(v), None) => num(v),
        _ => "—".into(),
    }
}

pub const RULE_TEXT: &str = "Exact figures are compared to 1e-9. A Monte Carlo figure is run at its first \
trial count, then doubled up to `max_trials` (default 4× the first): it **holds** when its interval lies \
inside the band, **fails** when the interval lies wholly outside, and is **undecided** if neither happens by \
the last run. Each interval is taken at confidence 1 − (1 − confidence)/(m·c·K) (m expectations in the file, \
c cells of the expectation, K runs): by the union bound, the chance that any verdict of a file is wrong is at \
most 1 − confidence (5% by default).";

/// `expect.md`: one table per file, failures with how far off they are.
pub fn markdown(files: &[FileOutcomes]) -> String {
    let mut s = format!("# Balance expectations\n\n**{}.**\n\n", headline(files));
    for f in files {
        s += &format!("## {} (`{}`)\n\n", md_cell(&f.title), f.path);
        s += "| expectation | figure | value (interval) | band | verdict | trials | off by |\n";
        s += "|---|---|---|---|---|---|---|\n";
        for o in &f.outcomes {
            let verdict = match o.verdict {
                Verdict::Holds => "holds".to_string(),
                Verdict::Fails => "**fails**".to_string(),
                Verdict::Undecided => "**undecided**".to_string(),
            };
            s += &format!(
                "| {} | `{}` ({}) | {} | {} | {} | {} | {} |\n",
                md_cell(&o.name),
                md_cell(&o.what),
                md_cell(&o.source),
                value_text(o),
                md_cell(&o.band),
                verdict,
                o.trials.map_or("exact".to_string(), |t| t.to_string()),
                o.miss.map_or(String::new(), num),
            );
        }
        let problems: Vec<&Outcome> = f
            .outcomes
            .iter()
            .filter(|o| o.verdict != Verdict::Holds)
            .collect();
        if !problems.is_empty() {
            s += "\n";
            for o in problems {
                s += &format!(
                    "- **{}** {}: {}\n",
                    md_cell(&o.name),
                    o.verdict.as_str(),
                    md_cell(&o.message)
                );
            }
        }
        s += "\n";
    }
    s += &format!("## How verdicts are reached\n\n{RULE_TEXT}\n");
    s
}

/// `expect.csv`: one row per expectation.
pub fn csv(files: &[FileOutcomes]) -> anyhow::Result<String> {
    let all: Vec<(&FileOutcomes, &Outcome)> = files
        .iter()
        .flat_map(|f| f.outcomes.iter().map(move |o| (f, o)))
        .collect();
    let text = |g: &dyn Fn(&FileOutcomes, &Outcome) -> String| -> Vec<String> {
        all.iter().map(|(f, o)| g(f, o)).collect()
    };
    let float = |g: &dyn Fn(&Outcome) -> Option<f64>| -> Vec<Option<f64>> {
        all.iter().map(|(_, o)| g(o)).collect()
    };
    let mut frame = DataFrame::new_infer_height(vec![
        Column::new("file".into(), text(&|f, _| f.path.clone())),
        Column::new("name".into(), text(&|_, o| o.name.clone())),
        Column::new("source".into(), text(&|_, o| o.source.clone())),
        Column::new("figure".into(), text(&|_, o| o.what.clone())),
        Column::new("method".into(), text(&|_, o| o.method.to_string())),
        Column::new("value".into(), float(&|o| o.value)),
        Column::new("value_lo".into(), float(&|o| o.interval.map(|i| i.0))),
        Column::new("value_hi".into(), float(&|o| o.interval.map(|i| i.1))),
        Column::new("confidence".into(), float(&|o| o.confidence)),
        Column::new("band".into(), text(&|_, o| o.band.clone())),
        Column::new(
            "verdict".into(),
            text(&|_, o| o.verdict.as_str().to_string()),
        ),
        Column::new(
            "trials".into(),
            all.iter()
                .map(|(_, o)| o.trials)
                .collect::<Vec<Option<u64>>>(),
        ),
        Column::new("off_by".into(), float(&|o| o.miss)),
        Column::new("message".into(), text(&|_, o| o.message.clone())),
    ])?;
    csv_string(&mut frame)
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// `junit.xml`: a test suite per file, a test case per expectation; failed and undecided
/// expectations are failures carrying the message.
pub fn junit(files: &[FileOutcomes]) -> String {
    let total: usize = files.iter().map(|f| f.outcomes.len()).sum();
    let failures = total - count(files, Verdict::Holds);
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s += &format!(
        "<testsuites name=\"cosmosim expect\" tests=\"{total}\" failures=\"{failures}\" errors=\"0\">\n"
    );
    for f in files {
        let n = f.outcomes.len();
        let fl = f
            .outcomes
            .iter()
            .filter(|o| o.verdict != Verdict::Holds)
            .count();
        s += &format!(
            "  <testsuite name=\"{}\" tests=\"{n}\" failures=\"{fl}\" errors=\"0\" skipped=\"0\">\n",
            xml(&f.title)
        );
        for o in &f.outcomes {
            s += &format!(
                "    <testcase name=\"{}\" classname=\"{}\"",
                xml(&o.name),
                xml(&f.path)
            );
            if o.verdict == Verdict::Holds {
                s += "/>\n";
            } else {
                s += &format!(
                    ">\n      <failure message=\"{}\" type=\"{}\">{}</failure>\n    </testcase>\n",
                    xml(&o.message),
                    o.verdict.as_str(),
                    xml(&format!("{} ({}): {}", o.what, o.source, o.message))
                );
            }
        }
        s += "  </testsuite>\n";
    }
    s += "</testsuites>\n";
    s
}
