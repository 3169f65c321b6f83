//! What computes a figure: a table with its flags or a scenario file, checked where the
//! file names it (for expectations and variants files alike), the trials it runs when no
//! count is given, and the rule options an entry sets.

use crate::lang::Lang;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::UserError;
use crate::rules::RuleOptions;
use crate::scenario::ScenarioFile;

/// Table flags an expectation may not set through `params`: the file and the command own
/// them.
const RESERVED_PARAMS: &[&str] = &["trials", "seed", "threads", "out", "option", "quiet"];

/// What computes the figure.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Source {
    /// A table name and its flags (`--thresholds 50`...).
    Table {
        name: String,
        args: Vec<String>,
    },
    Scenario(PathBuf),
}

impl Source {
    pub fn describe(&self) -> String {
        match self {
            Source::Table { name, args } if args.is_empty() => format!("table {name}"),
            Source::Table { name, args } => format!("table {name} {}", args.join(" ")),
            Source::Scenario(p) => p.display().to_string(),
        }
    }
}

/// A path from the file: relative to the working directory (a rules repository's root,
/// where CI runs) when it exists there, else relative to the expectations file's folder.
/// Either way it must lie inside the working directory or that folder (symlinks
/// resolved), so an expectations file from elsewhere cannot point the tool at any file
/// of the machine; the error is the refusal, shown after the value. A missing file is
/// left to the caller's "no file" message.
pub(super) fn resolve(file: &Path, p: &str, lang: Lang) -> Result<PathBuf, String> {
    let direct = PathBuf::from(p);
    let folder = crate::input::folder_of(file);
    let chosen = if direct.is_absolute() || direct.exists() {
        direct
    } else {
        folder.join(p)
    };
    match crate::input::confine(&chosen, &[Path::new("."), folder]) {
        Ok(_) => Ok(chosen),
        Err(e) if e.is_missing() => Ok(chosen),
        Err(e) => Err(format!(
            "\"{}\": {}",
            crate::limits::clip(p, lang),
            e.text(lang)
        )),
    }
}

fn param_text(v: &toml::Value) -> Option<String> {
    Some(match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Integer(i) => i.to_string(),
        toml::Value::Float(f) => f.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Array(a) => a
            .iter()
            .map(param_text)
            .collect::<Option<Vec<_>>>()?
            .join(","),
        _ => return None,
    })
}

/// A table's `params` (`{ thresholds = "50", method = "mc" }`) as command-line flags; the
/// error is (message, allowed values).
fn table_args(
    params: &BTreeMap<String, toml::Value>,
    lang: Lang,
) -> Result<Vec<String>, (String, &'static str)> {
    let mut args = Vec::new();
    for (k, v) in params {
        if RESERVED_PARAMS.contains(&k.as_str()) {
            return Err((
                tr!(lang, "fr_errors.expect.param_reserved", key = k),
                tr!(lang, "fr_errors.expect.param_reserved_allowed"),
            ));
        }
        let text = param_text(v).ok_or_else(|| {
            (
                tr!(lang, "fr_errors.expect.param_not_flag", key = k),
                tr!(lang, "fr_errors.expect.param_not_flag_allowed"),
            )
        })?;
        let flag = format!("--{}", k.replace('_', "-"));
        match v {
            toml::Value::Boolean(true) => args.push(flag),
            toml::Value::Boolean(false) => {}
            _ => {
                args.push(flag);
                args.push(text);
            }
        }
    }
    Ok(args)
}

/// Entry `i` of `list`'s `table` (with its `params`) or `scenario`: an expectation
/// (`list` = `expect`) or a variants file's `study` and `headline` entries, the same
/// checks in each file's own words; a missing source is located at an expectation's
/// `name`, at a variants entry's `table`.
pub(crate) fn source(
    file: &ScenarioFile,
    list: &'static str,
    i: usize,
    table: &Option<String>,
    scenario: &Option<String>,
    params: &BTreeMap<String, toml::Value>,
) -> Result<Source, UserError> {
    let lang = file.lang;
    let pick = |expect: &'static str, variants: &'static str| {
        if list == "expect" {
            expect
        } else {
            variants
        }
    };
    let idx = i.to_string();
    let err = |key: &str, msg: &str, allowed: &str| {
        file.error_at(
            &[list, &idx, key],
            &format!("{list}[{i}].{key}"),
            msg,
            allowed,
        )
    };
    match (table, scenario) {
        (Some(t), None) => {
            // Refused here, before anything runs: a later entry naming no table must not
            // wait for an earlier entry's hours of work.
            let names = crate::commands::table_names();
            if !names.contains(t) {
                return Err(err(
                    "table",
                    &tr!(
                        lang,
                        "fr_errors.source.unknown_table",
                        name = crate::limits::clip(t, lang)
                    ),
                    &names.join(", "),
                ));
            }
            Ok(Source::Table {
                name: t.clone(),
                args: table_args(params, lang).map_err(|(m, a)| err("params", &m, a))?,
            })
        }
        (None, Some(s)) => {
            if !params.is_empty() {
                return Err(err(
                    "params",
                    tr!(lang, "fr_errors.source.params_tables_only"),
                    pick(
                        tr!(lang, "fr_errors.expect.params_tables_only_allowed"),
                        tr!(lang, "fr_errors.variants.params_tables_only_allowed"),
                    ),
                ));
            }
            let p = resolve(&file.path, s, lang)
                .map_err(|m| err("scenario", &m, tr!(lang, "safety.files.named_allowed")))?;
            if !p.is_file() {
                return Err(err(
                    "scenario",
                    &tr!(lang, "fr_errors.source.no_scenario", file = s),
                    tr!(lang, "fr_errors.source.no_scenario_allowed"),
                ));
            }
            Ok(Source::Scenario(p))
        }
        _ => Err(err(
            pick("name", "table"),
            tr!(lang, "fr_errors.source.table_or_scenario"),
            tr!(lang, "fr_errors.source.table_or_scenario_allowed"),
        )),
    }
}

/// The most trials a table's own default asks for (`--trials` of the Monte Carlo tables:
/// 10^6 or 2·10^6), for an expectation on a table that sets none.
const TABLE_DEFAULT_TRIALS: u64 = 2_000_000;

/// The trials a source runs when no count is given, at most: its scenario's `[run]
/// trials`, or a table's default. Used to bound a file's work before anything runs.
pub fn default_trials(source: &Source) -> u64 {
    match source {
        Source::Table { .. } => TABLE_DEFAULT_TRIALS,
        Source::Scenario(p) => scenario_trials(p).unwrap_or(0),
    }
}

/// A scenario file's `[run] trials`, if it can be read (the run reports any error).
fn scenario_trials(path: &Path) -> Option<u64> {
    // Only its trials are read: a refusal is reported by the run itself.
    let file = ScenarioFile::read(path, Lang::En).ok()?;
    let t: toml::Table = toml::from_str(&file.text).ok()?;
    let n = t.get("run")?.get("trials")?.as_integer()?;
    u64::try_from(n).ok()
}

/// A rule option `key = value` of a file as the pair `key=value`, refused (at `path`) when
/// no system takes it.
pub(crate) fn option_pair(
    file: &ScenarioFile,
    path: &[&str],
    shown: &str,
    (k, v): (&str, &toml::Value),
) -> Result<String, UserError> {
    let pair = format!("{k}={}", param_text(v).unwrap_or_default());
    // The option's own refusal says what is allowed, as a scenario's `[rules]` says it
    // (audit of 2026-12-07: a second "allowed" followed it here).
    RuleOptions::from_pairs(&[&pair], file.lang)
        .map_err(|x| file.error_at_key(path, shown, x.0.trim_start_matches("--option ")))?;
    Ok(pair)
}

/// Rule options for one run: the command line's, then the expectation's (which win).
pub fn merged_options(global: &[String], own: &[String]) -> Vec<String> {
    let key = |p: &String| p.split_once('=').map(|(k, _)| k.trim().to_string());
    let own_keys: BTreeMap<String, ()> = own.iter().filter_map(key).map(|k| (k, ())).collect();
    global
        .iter()
        .filter(|p| key(p).is_none_or(|k| !own_keys.contains_key(&k)))
        .chain(own.iter())
        .cloned()
        .collect()
}
