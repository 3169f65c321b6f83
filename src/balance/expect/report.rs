//! `expect.md`, `expect.csv` and `junit.xml` from the outcomes of one or more files.
//! Nothing time-dependent is written, so the same inputs give the same bytes.

use crate::lang::Lang;
use polars::prelude::*;

use crate::report::{column, csv_string};

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
pub fn headline(files: &[FileOutcomes], lang: Lang) -> String {
    let total: usize = files.iter().map(|f| f.outcomes.len()).sum();
    tr!(
        lang,
        "expect.headline",
        holds = count(files, Verdict::Holds),
        total,
        fails = count(files, Verdict::Fails),
        undecided = count(files, Verdict::Undecided)
    )
}

/// Any text of the file (names, messages quoting its values) in a Markdown cell.
fn md_cell(s: &str) -> String {
    crate::report::md_text(s)
}

fn value_text(o: &Outcome, lang: Lang) -> String {
    let d = |x: f64| crate::balance::dec(&num(x), lang);
    match (o.value, o.interval) {
        (Some(v), Some((lo, hi))) => {
            tr!(
                lang,
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
pub fn markdown(files: &[FileOutcomes], lang: Lang) -> String {
    let mut s = format!(
        "# {}\n\n**{}.**\n\n",
        tr!(lang, "expect.title"),
        headline(files, lang)
    );
    for f in files {
        s += &format!(
            "## {} ({})\n\n",
            md_cell(&f.title),
            crate::report::md_code(&f.path)
        );
        s += &format!("| {} |\n", tr!(lang, "expect.header"));
        s += "|---|---|---|---|---|---|---|\n";
        for o in &f.outcomes {
            let verdict = match o.verdict {
                Verdict::Holds => o.verdict.shown(lang).to_string(),
                _ => format!("**{}**", o.verdict.shown(lang)),
            };
            s += &format!(
                "| {} | {} ({}) | {} | {} | {} | {} | {} |\n",
                md_cell(&o.name),
                crate::report::md_code_cell(&o.what),
                md_cell(&o.source),
                value_text(o, lang),
                md_cell(&o.band_shown),
                verdict,
                o.trials
                    .map_or(tr!(lang, "expect.exact").to_string(), |t| t.to_string()),
                o.miss
                    .map_or(String::new(), |m| crate::balance::dec(&num(m), lang)),
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
                s += &tr!(
                    lang,
                    "expect.problem",
                    name = md_cell(&o.name),
                    verdict = o.verdict.shown(lang),
                    message = md_cell(&o.message_shown)
                );
                s.push('\n');
            }
        }
        s += "\n";
    }
    s += &format!(
        "## {}\n\n{}\n",
        tr!(lang, "expect.how"),
        tr!(lang, "expect.rule")
    );
    s
}

/// `expect.csv`: one row per expectation.
pub fn csv(files: &[FileOutcomes]) -> anyhow::Result<String> {
    let all: Vec<(&FileOutcomes, &Outcome)> = files
        .iter()
        .flat_map(|f| f.outcomes.iter().map(move |o| (f, o)))
        .collect();
    let mut frame = DataFrame::new_infer_height(vec![
        column("file", &all, |(f, _)| f.path.as_str()),
        column("name", &all, |(_, o)| o.name.as_str()),
        column("source", &all, |(_, o)| o.source.as_str()),
        column("figure", &all, |(_, o)| o.what.as_str()),
        column("method", &all, |(_, o)| o.method),
        column("value", &all, |(_, o)| o.value),
        column("value_lo", &all, |(_, o)| o.interval.map(|i| i.0)),
        column("value_hi", &all, |(_, o)| o.interval.map(|i| i.1)),
        column("confidence", &all, |(_, o)| o.confidence),
        column("band", &all, |(_, o)| o.band.as_str()),
        column("verdict", &all, |(_, o)| o.verdict.as_str()),
        column("trials", &all, |(_, o)| o.trials),
        column("off_by", &all, |(_, o)| o.miss),
        column("message", &all, |(_, o)| o.message.as_str()),
    ])?;
    csv_string(&mut frame)
}

/// `s` as XML 1.0 text or attribute value. XML 1.0 cannot hold most control characters
/// even as `&#1;`, and a CI's parser would reject the whole report, so they are written as
/// the text `\u{1b}`; line breaks and tabs are character references so attributes keep
/// them.
fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            // C0 and C1 controls, DEL, and the two non-characters XML excludes.
            c if c.is_control() || matches!(c, '\u{FFFE}' | '\u{FFFF}') => {
                out.push_str(&c.escape_unicode().to_string())
            }
            c => out.push(c),
        }
    }
    out
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Checks what a strict XML 1.0 parser checks of this flat format: only XML characters,
    /// only known entities and valid character references, no `<` in an attribute value,
    /// and tags that nest.
    pub(crate) fn strict_xml(doc: &str) -> Result<(), String> {
        let xml_char = |c: char| {
            matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}')
                || c >= '\u{10000}'
        };
        if let Some(c) = doc.chars().find(|&c| !xml_char(c)) {
            return Err(format!("not an XML 1.0 character: {:?}", c));
        }
        let mut rest = doc;
        while let Some(at) = rest.find('&') {
            rest = &rest[at + 1..];
            let end = rest.find(';').ok_or("an unterminated entity")?;
            let name = &rest[..end];
            let ok = match name.strip_prefix('#') {
                Some(n) => n
                    .parse::<u32>()
                    .ok()
                    .and_then(char::from_u32)
                    .is_some_and(xml_char),
                None => ["amp", "lt", "gt", "quot", "apos"].contains(&name),
            };
            if !ok {
                return Err(format!("bad reference &{name};"));
            }
        }
        let body = doc
            .strip_prefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
            .ok_or("no XML declaration")?;
        let mut open: Vec<String> = Vec::new();
        let mut rest = body;
        while let Some(at) = rest.find('<') {
            if rest[..at].contains('>') {
                return Err("a `>` outside a tag".into());
            }
            let end = rest[at..].find('>').ok_or("an unterminated tag")? + at;
            let tag = &rest[at + 1..end];
            if tag.contains('<') {
                return Err(format!("`<` inside a tag: {tag}"));
            }
            if tag.matches('"').count() % 2 != 0 {
                return Err(format!("an unbalanced attribute quote: {tag}"));
            }
            if let Some(name) = tag.strip_prefix('/') {
                if open.pop().as_deref() != Some(name) {
                    return Err(format!("</{name}> closes nothing open"));
                }
            } else if !tag.ends_with('/') {
                open.push(tag.split_whitespace().next().unwrap_or("").to_string());
            }
            rest = &rest[end + 1..];
        }
        if !open.is_empty() {
            return Err(format!("{open:?} left open"));
        }
        Ok(())
    }

    fn outcome(name: &str, verdict: Verdict, message: &str) -> Outcome {
        Outcome {
            name: name.into(),
            source: "table cosmos-test".into(),
            what: "p_success where threshold = 50".into(),
            method: "exact",
            value: Some(0.5),
            interval: None,
            confidence: None,
            band: "0.4..0.6".into(),
            band_shown: "0.4..0.6".into(),
            verdict,
            trials: None,
            looks: Vec::new(),
            miss: None,
            message: message.into(),
            message_shown: message.into(),
        }
    }

    #[test]
    fn junit_stays_valid_xml_whatever_the_names_hold() {
        let hostile = "a\u{0}b\u{1b}[31m\u{7f}\u{85}\u{FFFF}<x>&amp;\"'\r\n\t]]>";
        let files = [FileOutcomes {
            path: "balance/<odd>\u{1}.toml".into(),
            title: hostile.into(),
            outcomes: vec![
                outcome(hostile, Verdict::Holds, "fine"),
                outcome("second", Verdict::Fails, hostile),
            ],
        }];
        let doc = junit(&files);
        strict_xml(&doc).unwrap_or_else(|e| panic!("{e}:\n{doc}"));
        // The text is still there, readable.
        assert!(
            doc.contains("a\\u{0}b\\u{1b}[31m\\u{7f}\\u{85}\\u{ffff}&lt;x&gt;&amp;amp;"),
            "{doc}"
        );
        assert!(doc.contains("&#13;&#10;&#9;"), "{doc}");
    }

    #[test]
    fn the_strict_check_catches_bad_xml() {
        let head = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
        for bad in [
            "<a>\u{1b}</a>",
            "<a>&#27;</a>",
            "<a>&nbsp;</a>",
            "<a b=\"<\"/>",
            "<a><b></a>",
            "<a>x & y</a>",
        ] {
            assert!(strict_xml(&format!("{head}{bad}\n")).is_err(), "{bad}");
        }
        assert!(strict_xml(&format!("{head}<a b=\"&#10;\"><c/></a>\n")).is_ok());
    }
}
