//! What `tune` and `optimise` run at each point: a scenario file with some keys edited,
//! or a table with some flags set; and the one figure read from its outputs.

use crate::lang::Lang;
use std::path::Path;

use super::user;
use crate::balance::figures::{
    cell, resolve, select_row, undecidable, value_at, Cell, FigureValue,
};
use crate::balance::stalemate::warnings;
use crate::balance::sweep::text;
use crate::scenario::{edit::set_value, ScenarioFile};
use crate::systems::RunOverrides;

use super::{parse_table, run_scenario_file, signals, table_outputs, takes_trials};

/// The figure and the run settings shared by every point.
pub(crate) struct Common {
    pub figure: String,
    pub wanted: Vec<(String, Cell)>,
    pub seed: u64,
    pub threads: usize,
    pub options: Vec<String>,
    /// Stalemate warnings of the scenario points evaluated so far, by point (the latest
    /// evaluation of a point, with the most trials, wins; `balance::stalemate`).
    pub stalled: std::cell::RefCell<std::collections::BTreeMap<String, Vec<String>>>,
    /// Every row of the figure's column at each point evaluated (latest look), as
    /// `outcome = party: 0.4982 [0.4901 – 0.5063]`: tune shows them at its answer
    /// (issue 27: every outcome, not only the tuned one).
    pub rows: std::cell::RefCell<std::collections::BTreeMap<String, Vec<String>>>,
    /// The provenance of the first point's output: the rule options in force and the
    /// scenario file (path, sha256) the command's own provenance records.
    pub first: std::cell::RefCell<Option<crate::report::Provenance>>,
}

impl Common {
    /// Every stalemate warning seen, point by point.
    pub fn stalemate_warnings(&self) -> Vec<String> {
        self.stalled.borrow().values().flatten().cloned().collect()
    }
}

pub(crate) enum Subject {
    Table { name: String, fixed: Vec<String> },
    Scenario(ScenarioFile),
}

/// How a point is named: `troll.hp = 275` (the key map of [`Common`]).
pub(crate) fn point_label(set: &[(String, toml::Value)]) -> String {
    set.iter()
        .map(|(k, v)| format!("{k} = {}", text(v)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A figure as tune and optimise show it: `0.4982 [0.4901 – 0.5063]`, or an exact
/// `0.498200`.
pub(super) fn estimate_text(value: f64, interval95: Option<(f64, f64)>) -> String {
    match interval95 {
        Some((lo, hi)) => format!("{value:.4} [{} – {}]", bound(lo, 4), bound(hi, 4)),
        None => format!("{value:.6}"),
    }
}

/// An interval's end with `d` decimals; an unbounded end (a mean whose trials show no
/// spread) reads `∞` / `-∞`, never Rust's `inf`.
pub(super) fn bound(x: f64, d: usize) -> String {
    if x.is_infinite() {
        if x > 0.0 { "∞" } else { "-∞" }.into()
    } else {
        format!("{x:.d$}")
    }
}

impl Subject {
    /// `table <name>` (with `--param FLAG=VALUE` flags) or a scenario file.
    pub fn from_source(
        source: &[String],
        params: &[String],
        lang: Lang,
    ) -> anyhow::Result<Subject> {
        match source {
            [t, name] if t == "table" => {
                let mut fixed = Vec::new();
                for p in params {
                    let (k, v) = p.split_once('=').ok_or_else(|| {
                        user(tr!(
                            lang,
                            "check.param_pair",
                            value = crate::limits::clip(p, lang)
                        ))
                    })?;
                    fixed.push(format!("--{}", k.trim().trim_start_matches("--")));
                    fixed.push(v.trim().to_string());
                }
                Ok(Subject::Table {
                    name: name.clone(),
                    fixed,
                })
            }
            [file] => {
                if !params.is_empty() {
                    return Err(user(tr!(lang, "check.param_on_scenario").to_string()));
                }
                Ok(Subject::Scenario(ScenarioFile::read(
                    Path::new(file),
                    lang,
                )?))
            }
            other => Err(user(tr!(
                lang,
                "check.subject",
                got = crate::limits::clip(&other.join(" "), lang)
            ))),
        }
    }

    /// The figure with `set` (key, value) applied and `trials` trials; `true` when the
    /// figure is exact.
    pub fn figure(
        &self,
        set: &[(String, toml::Value)],
        trials: u64,
        c: &Common,
        lang: Lang,
    ) -> anyhow::Result<(FigureValue, bool)> {
        signals::check()?;
        let at = point_label(set);
        let outputs = match self {
            Subject::Table { name, fixed } => {
                let mut argv = fixed.clone();
                for (k, v) in set {
                    argv.extend([format!("--{k}"), text(v)]);
                }
                for o in &c.options {
                    argv.extend(["--option".to_string(), o.clone()]);
                }
                argv.extend([
                    "--seed".to_string(),
                    c.seed.to_string(),
                    "--threads".to_string(),
                    c.threads.to_string(),
                ]);
                if takes_trials(name) {
                    argv.extend(["--trials".to_string(), trials.to_string()]);
                }
                let cmd = parse_table(name, &argv, lang)
                    .map_err(|e| user(tr!(lang, "check.table_error", name, error = e)))?;
                table_outputs(&cmd, true, None, lang)?
            }
            Subject::Scenario(file) => {
                let mut text = file.text.clone();
                for (k, v) in set {
                    text = set_value(&text, k, v.clone(), lang)?;
                }
                let o = RunOverrides {
                    trials: Some(trials),
                    seed: Some(c.seed),
                    threads: c.threads,
                    options: c.options.clone(),
                    quiet: true,
                    ..Default::default()
                };
                let outputs = run_scenario_file(&file.edited(text), &o)
                    .map_err(|e| user(tr!(lang, "check.with_point", at, error = format!("{e:#}"))))?
                    .outputs;
                let seen = warnings(&outputs, file.stalemate_warning(), Some(&at), lang);
                c.stalled.borrow_mut().insert(at.clone(), seen);
                outputs
            }
        };
        let (f, wanted) = resolve(&outputs, &c.figure, &c.wanted, lang).map_err(user)?;
        if let Some((reason, checkable)) = undecidable(&f, &c.figure, lang) {
            return Err(user(tr!(
                lang,
                "safety.work.figure_refused",
                reason,
                checkable
            )));
        }
        c.first
            .borrow_mut()
            .get_or_insert_with(|| f.output.provenance.clone());
        let row = select_row(f.output, &wanted, lang).map_err(user)?;
        if !wanted.is_empty() {
            let keys: Vec<&String> = wanted.iter().map(|(k, _)| k).collect();
            let lines = (0..f.output.frame.height())
                .filter_map(|r| {
                    let v = value_at(&f, r, lang).ok()?;
                    let label = keys
                        .iter()
                        .map(|k| format!("{k} = {}", cell(&f.output.frame, k, r).bare()))
                        .collect::<Vec<_>>()
                        .join(", ");
                    Some(format!("{label}: {}", estimate_text(v.value, v.interval95)))
                })
                .collect();
            c.rows.borrow_mut().insert(at.clone(), lines);
        }
        let fv = value_at(&f, row, lang)
            .map_err(|e| user(tr!(lang, "check.at_point", at, error = e)))?;
        Ok((fv, f.output.provenance.method == "exact"))
    }
}
