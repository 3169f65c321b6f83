use std::path::Path;

use crate::cli::ReportArgs;
use crate::context::Context;
use crate::report::{write_index, IndexEntry};
use crate::rules::RuleOptions;
use crate::systems::{self, RunOverrides};

use super::{export, run_scenario, shipped_scenarios, write_scenario};

const INTRO: &str = "Every table cosmosim knows, computed with default settings, then every shipped \
scenario. Exact tables come from the dice distributions; each Monte Carlo cross-check re-derives a \
table by seeded simulation, and its 95% intervals should cover the exact value in about 95% of cells. \
Each output has a `.meta.json` with its full provenance (tool version, seed, trials, rule options, \
parameters, scenario file hash).";

/// Where shipped scenarios live, relative to the project root (the working directory of
/// `cargo run`).
const SCENARIO_DIR: &str = "scenarios";

/// `cosmosim report`: every table of every system, every shipped scenario, and `index.md`.
pub fn report(a: &ReportArgs, quiet: bool) -> anyhow::Result<()> {
    let ctx = Context::new(a.run.seed, a.run.threads, RuleOptions::from_pairs(&a.run.options)?, quiet)?;
    let mut outputs = systems::report_outputs(&ctx, a.trials)?;
    export(&mut outputs, &a.run.out, &ctx)?;
    let mut entries: Vec<IndexEntry> = outputs.iter().map(|o| o.index_entry()).collect();

    let root = Path::new(SCENARIO_DIR);
    for path in shipped_scenarios(root) {
        let rel = path.strip_prefix(root).unwrap_or(&path).with_extension("");
        let dir = a.run.out.join(&rel);
        let o = RunOverrides {
            seed: Some(a.run.seed),
            threads: a.run.threads,
            options: a.run.options.clone(),
            quiet,
            ..Default::default()
        };
        let mut result = run_scenario(&path, &o)?;
        write_scenario(&mut result, &dir, quiet)?;
        let prefix = rel.display().to_string();
        let mut files = vec![format!("{prefix}/summary.md")];
        let mut provenance = None;
        for out in &result.outputs {
            let e = out.index_entry();
            files.extend(e.files.iter().map(|f| format!("{prefix}/{f}")));
            provenance.get_or_insert(e.provenance);
        }
        if let Some(provenance) = provenance {
            entries.push(IndexEntry {
                name: prefix.replace('/', "-"),
                title: result.title.clone(),
                question: result.question.clone(),
                key_figures: result.key_figures.clone(),
                files,
                provenance,
            });
        }
    }
    write_index(&a.run.out, INTRO, &entries)?;
    ctx.say(&format!("wrote {}", a.run.out.join("index.md").display()));
    Ok(())
}
