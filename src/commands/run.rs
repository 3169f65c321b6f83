use super::user;
use crate::lang::Lang;
use std::path::{Path, PathBuf};

use crate::balance::stalemate;
use crate::cli::ScenarioArgs;
use crate::error::UserError;
use crate::report::charts_section;
use crate::rules::RuleOptions;
use crate::scenario::ScenarioFile;
use crate::systems::{scenario_kinds, CheckedOnly, RunOverrides, ScenarioKind, ScenarioResult};

use super::{print_stdout, run_to_precision, say, signals, Precision, Session};

pub(super) fn kind_of(file: &ScenarioFile) -> Result<&'static ScenarioKind, UserError> {
    let header = file.header()?;
    let kinds = scenario_kinds();
    let of_system: Vec<&'static ScenarioKind> = kinds
        .iter()
        .copied()
        .filter(|k| k.system == header.system)
        .collect();
    if of_system.is_empty() {
        let mut known: Vec<String> = kinds.iter().map(|k| format!("\"{}\"", k.system)).collect();
        known.dedup();
        return Err(file.error_at(
            &["system"],
            "system",
            &tr!(file.lang, "check.unknown_system", system = header.system),
            &known.join(", "),
        ));
    }
    // An exact `kind` first; a system's kind-less entry reads every other file.
    if let Some(kind) = header.kind.as_deref() {
        if let Some(k) = of_system.iter().find(|k| k.kind == Some(kind)) {
            return Ok(k);
        }
    }
    if let Some(k) = of_system.iter().find(|k| k.kind.is_none()) {
        return Ok(k);
    }
    let allowed: Vec<String> = of_system
        .iter()
        .filter_map(|k| k.kind)
        .map(|k| format!("\"{k}\""))
        .collect();
    Err(match header.kind.as_deref() {
        Some(kind) => file.error_at(
            &["kind"],
            "kind",
            &tr!(
                file.lang,
                "check.unknown_kind",
                system = header.system,
                kind
            ),
            &allowed.join(", "),
        ),
        None => file.error_at(
            &[],
            "kind",
            &tr!(file.lang, "check.missing_kind", system = header.system),
            &allowed.join(", "),
        ),
    })
}

/// The kind's `run` stopped at validation (see [`ScenarioKind`]): the one validation
/// `check` and `run` share. Returns the rule options that belong to another system.
pub(super) fn validate(
    file: &ScenarioFile,
    kind: &ScenarioKind,
    o: &RunOverrides,
) -> anyhow::Result<Vec<String>> {
    let checking = RunOverrides {
        check_only: true,
        ..o.clone()
    };
    match (kind.run)(file, &checking) {
        Err(e) if e.is::<CheckedOnly>() => {}
        Err(e) => return Err(e),
        // A kind that never resolves would have run: still valid.
        Ok(_) => {}
    }
    option_warnings(file, kind.system, o)
}

/// The validation `check` and `run` share, with a run's overrides (its rule options):
/// what a caller that runs the file later (`expect`, `variants`) checks before any work.
pub(super) fn validate_scenario(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<()> {
    validate(file, kind_of(file)?, o).map(|_| ())
}

/// What validation and the run found (located in the file), then the option warnings.
fn all_warnings(file: &ScenarioFile, foreign: Vec<String>) -> Vec<String> {
    let mut w = file.warnings();
    w.extend(foreign);
    w
}

/// Rule options (file `[rules]` and `--option`) that belong to another system.
fn option_warnings(
    file: &ScenarioFile,
    system: &str,
    o: &RunOverrides,
) -> anyhow::Result<Vec<String>> {
    #[derive(serde::Deserialize)]
    struct Loose {
        #[serde(default)]
        rules: std::collections::BTreeMap<String, toml::Value>,
    }
    let mut w = match file.parse_raw::<Loose>() {
        Ok(l) => file.rule_options(&l.rules)?.foreign_to(system, file.lang),
        Err(_) => Vec::new(),
    };
    for x in RuleOptions::from_pairs(&o.options, file.lang)?.foreign_to(system, file.lang) {
        if !w.contains(&x) {
            w.push(x);
        }
    }
    Ok(w)
}

/// `cosmosim check FILE`: validate without running; the warnings go to stderr.
pub fn check(path: &Path, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    let file = ScenarioFile::read(path, lang)?;
    let kind = kind_of(&file)?;
    let foreign = validate(&file, kind, &RunOverrides::default())?;
    let warnings = all_warnings(&file, foreign);
    for w in &warnings {
        super::warn(w, lang);
    }
    if !quiet {
        print_stdout(&tr!(lang, "check.ok", file = path.display()), lang)?;
        if let Some(defaults) = kind.defaults {
            let lines = defaults(&file)?;
            if !lines.is_empty() {
                let mut text = String::from(tr!(lang, "check.defaults"));
                for l in lines {
                    text += &format!("  {l}\n");
                }
                print_stdout(&text, lang)?;
            }
        }
    }
    Ok(())
}

/// Runs a scenario file and returns its result (nothing written); the warnings found are
/// the last section of its `summary.md`.
pub fn run_scenario(path: &Path, o: &RunOverrides, lang: Lang) -> anyhow::Result<ScenarioResult> {
    run_scenario_file(&ScenarioFile::read(path, lang)?, o)
}

/// Runs a scenario already read (or edited, e.g. by `tune`).
pub fn run_scenario_file(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let kind = kind_of(file)?;
    let foreign = validate(file, kind, o)?;
    let mut result = (kind.run)(file, o)?;
    let mut warnings = all_warnings(file, foreign);
    warnings.extend(stalemate::warnings(
        &result.outputs,
        file.stalemate_warning(),
        None,
        file.lang,
    ));
    add_warnings(&mut result, &warnings, file.lang);
    Ok(result)
}

fn add_warnings(result: &mut ScenarioResult, warnings: &[String], lang: Lang) {
    if warnings.is_empty() {
        return;
    }
    if !result.summary.ends_with('\n') {
        result.summary.push('\n');
    }
    result.summary += &format!("\n## {}\n\n", tr!(lang, "page.warnings"));
    for w in warnings {
        result.summary += &format!("- {}\n", crate::report::md_text(w));
    }
}

/// Writes a scenario result's outputs and `summary.md` into `dir` (a staging folder);
/// returns the files written, relative to `dir`.
pub fn write_scenario(
    result: &mut ScenarioResult,
    dir: &Path,
    s: &Session,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = s.write_outputs(&mut result.outputs, dir)?;
    let page = format!(
        "{}{}",
        result.summary,
        charts_section(&result.outputs, s.lang)
    );
    files.extend(s.write_page(dir, "summary", &page)?);
    Ok(files)
}

/// `cosmosim run FILE [--precision P]`.
pub fn run_cmd(a: &ScenarioArgs, s: &Session) -> anyhow::Result<()> {
    let goal = super::precision::goal(&a.precision, s.lang)?;
    if goal.is_some() && a.trials.is_some() {
        return Err(user(tr!(s.lang, "check.precision_and_trials")));
    }
    let o = RunOverrides {
        mode: s.mode,
        ..a.overrides(s.quiet)
    };
    run_to(&a.file, &o, goal.as_ref(), s)
}

/// `cosmosim run FILE`: outputs go to `--out` or `reports/<path below scenarios/>/`,
/// published as one set.
pub fn run(path: &Path, o: &RunOverrides, lang: Lang) -> anyhow::Result<()> {
    run_to(path, o, None, &Session::new(o.quiet, lang))
}

fn run_to(
    path: &Path,
    o: &RunOverrides,
    goal: Option<&Precision>,
    s: &Session,
) -> anyhow::Result<()> {
    let file = ScenarioFile::read(path, s.lang)?;
    let kind = kind_of(&file)?;
    // Validate before anything is created on disk.
    let foreign = validate(&file, kind, o)?;
    // Warnings print whatever --quiet says (it silences progress and file lists).
    for w in all_warnings(&file, foreign.clone()) {
        super::warn(&w, s.lang);
    }
    let dir = o.out.clone().unwrap_or_else(|| default_out(path));
    s.publish(&dir, |staging| {
        let mut result = match goal {
            None => (kind.run)(&file, o)?,
            Some(p) => {
                let r = run_to_precision(
                    p,
                    |t| {
                        let at = RunOverrides {
                            trials: Some(t),
                            ..o.clone()
                        };
                        (kind.run)(&file, &at)
                    },
                    |res| &res.outputs,
                    s.lang,
                )?;
                let sentence = r.sentence(p, s.lang);
                if !o.quiet {
                    say(&sentence);
                }
                let mut result = r.value;
                for out in result.outputs.iter_mut() {
                    out.provenance = out.provenance.clone().with_param("precision", p.half_width);
                }
                result.key_figures.insert(0, sentence.clone());
                result.summary = insert_after_question(&result.summary, &sentence);
                result
            }
        };
        signals::check()?;
        let stalled = stalemate::warnings(&result.outputs, file.stalemate_warning(), None, s.lang);
        // Warnings print whatever --quiet says (it silences progress and file lists).
        for w in &stalled {
            super::warn(w, s.lang);
        }
        let mut warnings = all_warnings(&file, foreign);
        warnings.extend(stalled);
        add_warnings(&mut result, &warnings, s.lang);
        write_scenario(&mut result, staging, s)
    })
}

/// `summary.md` with a line after its title and question (before the answers).
pub(super) fn insert_after_question(summary: &str, line: &str) -> String {
    // The title and question are the first two paragraphs.
    let mut parts = summary.splitn(3, "\n\n");
    match (parts.next(), parts.next(), parts.next()) {
        (Some(t), Some(q), Some(rest)) => format!("{t}\n\n{q}\n\n{line}\n\n{rest}"),
        _ => format!("{summary}\n{line}\n"),
    }
}

/// The scenario's path below `scenarios/` (or its file name), without `.toml`: how
/// `report`, `run` and `sweep` name its folder, so two systems' `duel.toml` never share
/// one.
pub fn scenario_rel(path: &Path) -> PathBuf {
    crate::scenario::path::below_scenarios(path)
}

/// `reports/<path below scenarios/>`, e.g. `reports/cosmos/duel` for
/// `scenarios/cosmos/duel.toml`.
pub fn default_out(path: &Path) -> PathBuf {
    PathBuf::from("reports").join(scenario_rel(path))
}

/// Shipped scenario files under `dir`, sorted, for `report`.
pub fn shipped_scenarios(dir: &Path) -> Vec<PathBuf> {
    crate::input::files_below(
        dir,
        |e| e.path().is_dir(),
        |p| p.extension().is_some_and(|x| x == "toml"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_folders_mirror_the_scenario_path() {
        assert_eq!(
            default_out(Path::new("scenarios/cosmos/duel.toml")),
            PathBuf::from("reports/cosmos/duel")
        );
        assert_eq!(
            default_out(Path::new("/x/scenarios/trinites/duel.toml")),
            PathBuf::from("reports/trinites/duel")
        );
        assert_eq!(
            default_out(Path::new("/tmp/small.toml")),
            PathBuf::from("reports/small")
        );
    }
}
