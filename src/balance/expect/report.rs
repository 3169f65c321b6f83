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
    crate::tr!(
        "expect.headline",
        holds = count(files, Verdict::Holds),
        total = total,
        fails = count(files, Verdict::Fails),
        undecided = count(files, Verdict::Undecided)
    )
}

fn md_cell(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

fn value_text(o: &Outcome) -> String {
    let d = |x: f64| crate::balance::dec(&num(x));
    match (o.value, o.interval) {
        (Some(v), Some((lo, hi))) => {
            crate::tr!(
                "expect.value_interval",
                value = d(v),
                lo = d(lo),
                hi = d(hi)
            )
        }
        (Some(v), None) => d(v),
        _ => "—".into(),
    }
}

/// `expect.md`: one table per file, failures with how far off they are.
pub fn markdown(files: &[FileOutcomes]) -> String {
    let mut s = format!(
        "# {}\n\n**{}.**\n\n",
        crate::tr!("expect.title"),
        headline(files)
    );
    for f in files {
        s += &format!("## {} (`{}`)\n\n", md_cell(&f.title), f.path);
        s += &format!("| {} |\n", crate::tr!("expect.header"));
        s += "|---|---|---|---|---|---|---|\n";
        for o in &f.outcomes {
            let verdict = match o.verdict {
                Verdict::Holds => o.verdict.shown().to_string(),
                _ => format!("**{}**", o.verdict.shown()),
            };
            s += &format!(
                "| {} | `{}` ({}) | {} | {} | {} | {} | {} |\n",
                md_cell(&o.name),
                md_cell(&o.what),
                md_cell(&o.source),
                value_text(o),
                md_cell(&o.band_shown),
                verdict,
                o.trials
                    .map_or(crate::tr!("expect.exact").to_string(), |t| t.to_string()),
                o.miss
                    .map_or(String::new(), |m| crate::balance::dec(&num(m))),
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
                s += &crate::tr!(
                    "expect.problem",
                    name = md_cell(&o.name),
                    verdict = o.verdict.shown(),
                    message = md_cell(&o.message_shown)
                );
                s.push('\n');
            }
        }
        s += "\n";
    }
    s += &format!(
        "## {}\n\n{}\n",
        crate::tr!("expect.how"),
        crate::tr!("expect.rule")
    );
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
