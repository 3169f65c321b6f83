//! Pieces every growth scenario shares: the priority list, the summary.md layout.

use crate::error::UserError;
use crate::lang::Lang;
use crate::report::{md_text, Output, Provenance};
pub use crate::scenario::shown_key;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::ScenarioResult;

/// A list of the six stats, each once, most wanted first.
pub fn parse_priority(
    file: &ScenarioFile,
    path: &[&str],
    names: &[String],
) -> Result<[Stat; 6], UserError> {
    let allowed = tr!(file.lang, "growth.common.six_stats", names = Stat::names());
    let mut out = Vec::with_capacity(6);
    for n in names {
        let s = Stat::parse(n).ok_or_else(|| {
            bad(
                file,
                path,
                tr!(file.lang, "growth.common.unknown_stat", name = n),
                &allowed,
            )
        })?;
        if out.contains(&s) {
            return Err(bad(
                file,
                path,
                tr!(file.lang, "growth.common.stat_twice", name = n),
                &allowed,
            ));
        }
        out.push(s);
    }
    out.try_into().map_err(|v: Vec<Stat>| {
        bad(
            file,
            path,
            tr!(file.lang, "growth.common.stats_listed", count = v.len()),
            &allowed,
        )
    })
}

/// `summary.md`: the answers first, then the files, then provenance.
pub fn summary(
    lang: Lang,
    title: &str,
    question: &str,
    key: &[String],
    outputs: &[Output],
    prov: &Provenance,
) -> String {
    let (title, question) = (md_text(title), md_text(question));
    let mut s = format!(
        "# {title}\n\n**{}** {question}\n\n## {}\n\n",
        tr!(lang, "growth.summary.question"),
        tr!(lang, "growth.summary.answers")
    );
    for k in key {
        s += &format!("- {k}\n");
    }
    s += &format!("\n## {}\n\n", tr!(lang, "growth.summary.outputs"));
    for o in outputs {
        s += &format!(
            "### {} (`{}.csv`)\n\n{}\n\n",
            md_text(&o.title),
            o.name,
            md_text(&o.question)
        );
        for k in &o.key_figures {
            s += &format!("- {k}\n");
        }
        s += "\n";
    }
    s += &format!(
        "## {}\n\n{}\n",
        tr!(lang, "growth.summary.provenance"),
        prov.summary(lang)
    );
    s
}

/// A growth run's result: its `summary.md` is [`summary`] followed by `see`, the
/// `cosmosim trace` commands that replay a trial of each outcome (issue 27; may be empty).
pub fn scenario_result(
    lang: Lang,
    title: String,
    question: String,
    key: Vec<String>,
    outputs: Vec<Output>,
    prov: &Provenance,
    see: &str,
) -> ScenarioResult {
    let summary = summary(lang, &title, &question, &key, &outputs, prov) + see;
    ScenarioResult {
        title,
        question,
        key_figures: key,
        outputs,
        summary,
    }
}

/// A validated scenario: its model, `[rules]`, `[run]`, `title` and `question`.
pub type Parsed<M> = (
    M,
    std::collections::BTreeMap<String, toml::Value>,
    crate::scenario::RunSection,
    Option<String>,
    Option<String>,
);

/// An error at `path`, its key shown by [`shown_key`]: the one form of the growth files'
/// validation errors.
pub fn bad(file: &ScenarioFile, path: &[&str], msg: impl AsRef<str>, allowed: &str) -> UserError {
    file.error_at(path, &shown_key(path), msg.as_ref(), allowed)
}

/// `v` if `range` holds it, else "`v` is out of range" at `path`, allowing `allowed`.
pub fn within<T: PartialOrd + std::fmt::Display>(
    file: &ScenarioFile,
    path: &[&str],
    v: T,
    range: std::ops::RangeInclusive<T>,
    allowed: &str,
) -> Result<T, UserError> {
    if range.contains(&v) {
        Ok(v)
    } else {
        let msg = tr!(file.lang, "growth.valid.out_of_range", value = v);
        Err(bad(file, path, msg, allowed))
    }
}

/// `v` if it lies in `lo..=hi`, else an error at `path` allowing `lo..hi` then `why` (`""`,
/// or a reason such as `" (C-TEST-3)"`).
pub fn in_range(
    file: &ScenarioFile,
    path: &[&str],
    v: i64,
    lo: i64,
    hi: i64,
    why: &str,
) -> Result<i64, UserError> {
    within(file, path, v, lo..=hi, &format!("{lo}..{hi}{why}"))
}

/// A test's threshold, within -100..200 (C-TEST-1), else an error allowing `-100..200`
/// then `why`; the value shown as written, with a decimal comma in French.
pub fn threshold(file: &ScenarioFile, path: &[&str], v: f64, why: &str) -> Result<f64, UserError> {
    if (-100.0..=200.0).contains(&v) {
        return Ok(v);
    }
    let value = crate::systems::cosmos::growth::dec(file.lang, v);
    let msg = tr!(file.lang, "growth.valid.out_of_range", value);
    Err(bad(file, path, msg, &format!("-100..200{why}")))
}

/// `[[thresholds]]` under `at` (campaign tests): each threshold (C-TEST-1) with its weight
/// 1..1000.
pub fn thresholds(
    file: &ScenarioFile,
    at: &[&str],
    raw: &[super::campaign::raw::RawThreshold],
) -> Result<Vec<(f64, u32)>, UserError> {
    let mut out = Vec::new();
    for (i, t) in raw.iter().enumerate() {
        let is = i.to_string();
        let path = |k: &'static str| [at, &[is.as_str(), k]].concat();
        // The one threshold check, so a campaign's threshold reads as every other's
        // (decimal comma in French, C-TEST-1 cited).
        let threshold = threshold(file, &path("threshold"), t.threshold, " (C-TEST-1)")?;
        let weight = in_range(file, &path("weight"), t.weight, 1, 1000, "")?;
        out.push((threshold, weight as u32));
    }
    Ok(out)
}

/// A name for a sheet, a build or a policy: trimmed, 1..32 characters, and not `taken`
/// already; else an error at `path`.
pub fn unique_name(
    file: &ScenarioFile,
    path: &[&str],
    name: &str,
    taken: impl Fn(&str) -> bool,
) -> Result<String, UserError> {
    let trimmed = name.trim();
    if trimmed.is_empty() || trimmed.len() > 32 || taken(trimmed) {
        return Err(bad(
            file,
            path,
            tr!(file.lang, "growth.lvalid.bad_name", name),
            tr!(file.lang, "growth.lvalid.bad_name_allowed"),
        ));
    }
    Ok(trimmed.to_string())
}

/// A chart of time-to-event distributions: P(event by x) for each named tally (values
/// above the tally's range = not within the horizon), with 95% Wilson bands.
pub fn cdf_chart(
    lang: Lang,
    title: &str,
    x_label: &str,
    tallies: &[(String, &crate::engine::Tally)],
) -> crate::report::Figure {
    use crate::report::{Chart, Figure, LineChart, LineSeries};
    let mut series = Vec::new();
    for (name, t) in tallies {
        let n = t.total();
        let mut cum = t.below;
        let mut s = LineSeries {
            name: name.clone(),
            ..Default::default()
        };
        for (x, c) in t.iter() {
            cum += c;
            let (lo, hi) = crate::stats::wilson(cum, n);
            s.points.push((x as f64, cum as f64 / n.max(1) as f64));
            s.band.push((x as f64, lo, hi));
        }
        series.push(s);
    }
    Figure::new(vec![Chart::Lines(LineChart {
        x_kind: Default::default(),
        title: title.into(),
        x_label: x_label.into(),
        y_label: tr!(lang, "growth.summary.cdf_y").into(),
        series,
        y_range: Some((0.0, 1.0)),
    })])
}

/// The mean of a quantity that cannot be negative (a count, a distance) with its 95% t
/// interval ([`Estimate::mean`]), the lower bound clamped at 0; trials with no spread
/// leave it unbounded on both sides ([`crate::stats::Estimate::clipped`]).
pub(super) fn nonnegative_mean(m: &crate::engine::Moments) -> crate::stats::Estimate {
    crate::stats::Estimate::mean(m).clipped(0.0, f64::INFINITY)
}

/// The options in force before `resolve`: the file's `[rules]`, then `--option` (what
/// `check` and `run` validate against, one validation).
pub(super) fn options_in_force(
    file: &ScenarioFile,
    rules: &std::collections::BTreeMap<String, toml::Value>,
    o: &crate::systems::RunOverrides,
) -> Result<crate::rules::RuleOptions, UserError> {
    let mut in_force = file.rule_options(rules)?;
    for (k, v) in crate::rules::RuleOptions::from_pairs(&o.options, file.lang)?.explicitly_set() {
        in_force.set(&k, &v, file.lang)?;
    }
    Ok(in_force)
}

/// Stats as a JSON object by stat name (`cosmosim trace --format json`).
pub(super) fn stats_json(s: &[i32; 6]) -> serde_json::Value {
    let m: serde_json::Map<String, serde_json::Value> = Stat::ALL
        .iter()
        .map(|st| (st.name().to_string(), s[*st as usize].into()))
        .collect();
    m.into()
}

/// Karma as the traces write it, signed (`+3`, `-2`).
pub(super) fn karma_text(lang: Lang, karma: i8) -> String {
    lang.signed(karma as f64, 0)
}
