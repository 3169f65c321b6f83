use std::path::{Path, PathBuf};

use crate::context::Context;
use crate::error::UserError;
use crate::report::write_atomic;
use crate::scenario::ScenarioFile;
use crate::systems::{scenario_kinds, RunOverrides, ScenarioKind, ScenarioResult};

use super::export;

fn kind_of(file: &ScenarioFile) -> Result<&'static ScenarioKind, UserError> {
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
            &format!("unknown game system \"{}\"", header.system),
            &known.join(", "),
        ));
    }
    if let Some(k) = of_system.iter().find(|k| k.kind.is_none()) {
        return Ok(k);
    }
    let allowed: Vec<String> = of_system
        .iter()
        .filter_map(|k| k.kind)
        .map(|k| format!("\"{k}\""))
        .collect();
    match header.kind.as_deref() {
        Some(kind) => of_system
            .iter()
            .copied()
            .find(|k| k.kind == Some(kind))
            .ok_or_else(|| {
                file.error_at(
                    &["kind"],
                    "kind",
                    &format!("unknown {} scenario kind \"{kind}\"", header.system),
                    &allowed.join(", "),
                )
            }),
        None => Err(file.error_at(
            &[],
            "kind",
            &format!("missing key `kind` for a {} scenario", header.system),
            &allowed.join(", "),
        )),
    }
}

/// `cosmosim check FILE`: validate without running.
pub fn check(path: &Path, quiet: bool) -> anyhow::Result<()> {
    let file = ScenarioFile::read(path)?;
    let kind = kind_of(&file)?;
    (kind.check)(&file)?;
    if !quiet {
        println!("{}: ok", path.display());
        if let Some(defaults) = kind.defaults {
            let lines = defaults(&file)?;
            if !lines.is_empty() {
                println!("defaults this file relies on (write them to make them explicit):");
                for l in lines {
                    println!("  {l}");
                }
            }
        }
    }
    Ok(())
}

/// Runs a scenario file and returns its result (nothing written).
pub fn run_scenario(path: &Path, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let file = ScenarioFile::read(path)?;
    let kind = kind_of(&file)?;
    (kind.run)(&file, o)
}

/// Writes a scenario result's outputs and `summary.md` into `dir`.
pub fn write_scenario(result: &mut ScenarioResult, dir: &Path, quiet: bool) -> anyhow::Result<()> {
    let ctx = Context::new(0, 1, Default::default(), quiet)?;
    export(&mut result.outputs, dir, &ctx)?;
    let summary = dir.join("summary.md");
    write_atomic(&summary, result.summary.as_bytes())?;
    ctx.say(&format!("wrote {}", summary.display()));
    Ok(())
}

/// `cosmosim run FILE`: outputs go to `--out` or `reports/<file stem>/`.
pub fn run(path: &Path, o: &RunOverrides) -> anyhow::Result<()> {
    let mut result = run_scenario(path, o)?;
    let dir = o.out.clone().unwrap_or_else(|| default_out(path));
    write_scenario(&mut result, &dir, o.quiet)
}

pub fn default_out(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "scenario".into());
    PathBuf::from("reports").join(stem)
}

/// Shipped scenario files under `dir`, sorted, for `report`.
pub fn shipped_scenarios(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "toml") {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}
