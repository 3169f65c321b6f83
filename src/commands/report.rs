use std::path::{Path, PathBuf};

use crate::cli::ReportArgs;
use crate::report::{write_index, IndexEntry};
use crate::systems::{self, RunOverrides};

use super::{publish_set, run_scenario, scenario_rel, shipped_scenarios, signals};
use super::{write_outputs, write_scenario};

/// Where shipped scenarios live, relative to the project root (the working directory of
/// `cargo run`).
const SCENARIO_DIR: &str = "scenarios";

/// Expectations files `report` checks (their verdicts are reported, never fatal: the
/// `expect` command is the CI gate).
const BALANCE_DIR: &str = "balance";

/// `cosmosim report`: every table of every system, every shipped scenario, and `index.md`,
/// published as one set.
pub fn report(a: &ReportArgs, quiet: bool) -> anyhow::Result<()> {
    let ctx = a.run.context(quiet)?;
    // The French set lives beside the English one (issue 14): reports/fr/.
    let out =
        if crate::lang::current() == crate::lang::Lang::Fr && a.run.out == Path::new("reports") {
            a.run.out.join("fr")
        } else {
            a.run.out.clone()
        };
    publish_set(&out, quiet, |staging| {
        let mut outputs = systems::report_outputs(&ctx, a.trials)?;
        signals::check()?;
        let mut written = write_outputs(&mut outputs, staging)?;
        let mut entries: Vec<IndexEntry> = outputs.iter().map(|o| o.index_entry()).collect();

        let root = Path::new(SCENARIO_DIR);
        let paths = shipped_scenarios(root);
        let o = RunOverrides {
            seed: Some(a.run.seed),
            threads: a.run.threads,
            options: a.run.options.clone(),
            // Scenarios run side by side: one progress bar each would fight for the line.
            quiet: true,
            ..Default::default()
        };
        // Every scenario runs at once on the run's thread pool (a small-trial scenario
        // fills one batch, so one after another they would leave cores idle). Each result
        // depends only on its file, seed and options, never on scheduling; they are
        // written below in file order, and the first failure in that order is reported.
        let pool = crate::engine::pool(a.run.threads)?;
        let results: Vec<anyhow::Result<_>> = pool.install(|| {
            use rayon::prelude::*;
            paths.par_iter().map(|p| run_scenario(p, &o)).collect()
        });
        for (path, result) in paths.iter().zip(results) {
            let rel = scenario_rel(path);
            let mut result = result?;
            signals::check()?;
            let dir = staging.join(&rel);
            std::fs::create_dir_all(&dir)?;
            for f in write_scenario(&mut result, &dir)? {
                written.push(rel.join(f));
            }
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
        let mut intro = crate::tr!("index.intro").to_string();
        let balance: Vec<PathBuf> = shipped_scenarios(Path::new(BALANCE_DIR));
        if !balance.is_empty() {
            let files = super::expect::read_files(&balance, None)?;
            let mut runner =
                super::expect::Runner::new(None, a.run.threads, a.run.options.clone(), true);
            let results = super::expect::evaluate(&files, &mut runner, &Default::default(), true)?;
            for f in super::expect::write_expect(&results, &staging.join(BALANCE_DIR))? {
                written.push(Path::new(BALANCE_DIR).join(f));
            }
            intro += "\n\n";
            intro += &crate::tr!(
                "index.balance",
                files = balance
                    .iter()
                    .map(|p| crate::report::md_code(&p.display().to_string()))
                    .collect::<Vec<_>>()
                    .join(", "),
                headline = crate::balance::expect::headline(&results)
            );
        }
        write_index(staging, &intro, &entries)?;
        written.extend(["index.md", "index.html"].iter().map(PathBuf::from));
        Ok(written)
    })
}
