use std::path::{Path, PathBuf};

use crate::cli::ReportArgs;
use crate::report::{write_index, IndexEntry};
use crate::systems::{self, RunOverrides};

use super::{run_scenario, scenario_rel, shipped_scenarios, signals};
use super::{write_scenario, Session};

/// Where shipped scenarios live, relative to the project root (the working directory of
/// `cargo run`).
const SCENARIO_DIR: &str = "scenarios";

/// Expectations files `report` checks (their verdicts are reported, never fatal: the
/// `expect` command is the CI gate).
const BALANCE_DIR: &str = "balance";

/// `report --quick` (issue 28 item 2): trials per cross-check cell, per scenario, and the
/// cap of the balance expectations.
const QUICK_TABLE_TRIALS: u64 = 20_000;
const QUICK_SCENARIO_TRIALS: u64 = 2_000;
const QUICK_EXPECT_TRIALS: u64 = 20_000;

/// `cosmosim report`: every table of every system, every shipped scenario, and `index.md`,
/// published as one set.
pub fn report(a: &ReportArgs, s: &Session) -> anyhow::Result<()> {
    let ctx = a.run.context(s.quiet, s.mode, s.lang)?;
    let default_out = a.run.out == Path::new("reports");
    // A quick look never replaces the full set: reports/quick/.
    let mut out = if a.quick && default_out {
        a.run.out.join("quick")
    } else {
        a.run.out.clone()
    };
    // The French set lives beside the English one (issue 14): reports/fr/.
    if s.lang == crate::lang::Lang::Fr && default_out {
        out = out.join("fr");
    }
    let table_trials = if a.quick {
        QUICK_TABLE_TRIALS
    } else {
        a.trials
    };
    // Every page and provenance of a quick report says so.
    let mark = |p: crate::report::Provenance| {
        if a.quick {
            p.with_param("quick", "true")
        } else {
            p
        }
    };
    let pool = crate::engine::pool(a.run.threads)?;
    s.publish(&out, |staging| {
        let mut outputs = systems::report_outputs(&ctx, table_trials)?;
        for o in outputs.iter_mut() {
            o.provenance = mark(o.provenance.clone());
        }
        signals::check()?;
        let mut written = pool.install(|| s.write_outputs(&mut outputs, staging))?;
        let mut entries: Vec<IndexEntry> = outputs.iter().map(|o| o.index_entry()).collect();

        let root = Path::new(SCENARIO_DIR);
        let paths = shipped_scenarios(root);
        let o = RunOverrides {
            seed: Some(a.run.seed),
            threads: a.run.threads,
            options: a.run.options.clone(),
            trials: a.quick.then_some(QUICK_SCENARIO_TRIALS),
            // Scenarios run side by side: one progress bar each would fight for the line.
            quiet: true,
            mode: s.mode,
            ..Default::default()
        };
        // Every scenario runs at once on the run's thread pool (a small-trial scenario
        // fills one batch, so one after another they would leave cores idle). Each result
        // depends only on its file, seed and options, never on scheduling; they are
        // written below in file order, and the first failure in that order is reported.
        let results: Vec<anyhow::Result<_>> = pool.install(|| {
            use rayon::prelude::*;
            paths
                .par_iter()
                .map(|p| run_scenario(p, &o, s.lang))
                .collect()
        });
        // Every scenario's pages and charts render at once too; the files and the index
        // keep file order, and the first failure in that order is reported.
        let written_per: Vec<anyhow::Result<(Vec<PathBuf>, Option<IndexEntry>)>> =
            pool.install(|| {
                use rayon::prelude::*;
                paths
                    .par_iter()
                    .zip(results)
                    .map(|(path, result)| {
                        let mut result = result?;
                        write_one(path, &mut result, staging, a.quick, &mark, s)
                    })
                    .collect()
            });
        for w in written_per {
            let (files, entry) = w?;
            written.extend(files);
            entries.extend(entry);
        }
        let mut intro = tr!(s.lang, "index.intro").to_string();
        if a.quick {
            intro = format!("{}\n\n{intro}", tr!(s.lang, "index.quick"));
        }
        let balance: Vec<PathBuf> = shipped_scenarios(Path::new(BALANCE_DIR));
        if !balance.is_empty() {
            let cap = a.quick.then_some(QUICK_EXPECT_TRIALS);
            let files = super::expect::read_files(&balance, cap, s.lang)?;
            let mut runner = super::expect::Runner::new(
                None,
                a.run.threads,
                a.run.options.clone(),
                true,
                s.lang,
            );
            runner.mode = s.mode;
            let settings = crate::balance::expect::Settings { max_trials: cap };
            let results = super::expect::evaluate(&files, &mut runner, &settings, true, s.lang)?;
            let stalled = runner.stalemate_warnings();
            // A shard's pages are discarded: it only records the calls.
            if !s.is_shard() {
                let meta = crate::balance::expect::meta::meta_json(
                    &files,
                    &results,
                    &crate::balance::expect::meta::RunSettings {
                        seed: None,
                        options: &a.run.options,
                        max_trials: cap,
                    },
                );
                for f in super::expect::write_expect(
                    &results,
                    &stalled,
                    &meta,
                    &staging.join(BALANCE_DIR),
                    s.lang,
                )? {
                    written.push(Path::new(BALANCE_DIR).join(f));
                }
            }
            intro += "\n\n";
            intro += &tr!(
                s.lang,
                "index.balance",
                files = balance
                    .iter()
                    .map(|p| crate::report::md_code(&p.display().to_string()))
                    .collect::<Vec<_>>()
                    .join(", "),
                headline = crate::balance::expect::headline(&results, s.lang)
            );
        }
        if !s.is_shard() {
            write_index(staging, &intro, &entries, s.lang)?;
        }
        written.extend(["index.md", "index.html"].iter().map(PathBuf::from));
        Ok(written)
    })
}

/// Writes one scenario's result into `staging/<its path>`: the files written (relative to
/// the staging folder) and its index entry.
fn write_one(
    path: &Path,
    result: &mut crate::systems::ScenarioResult,
    staging: &Path,
    quick: bool,
    mark: &(impl Fn(crate::report::Provenance) -> crate::report::Provenance + Sync),
    s: &Session,
) -> anyhow::Result<(Vec<PathBuf>, Option<IndexEntry>)> {
    let rel = scenario_rel(path);
    signals::check()?;
    if quick {
        for o in result.outputs.iter_mut() {
            o.provenance = mark(o.provenance.clone());
        }
        result.summary =
            super::run::insert_after_question(&result.summary, tr!(s.lang, "index.quick"));
    }
    let dir = staging.join(&rel);
    std::fs::create_dir_all(&dir)?;
    let written: Vec<PathBuf> = write_scenario(result, &dir, s)?
        .into_iter()
        .map(|f| rel.join(f))
        .collect();
    let prefix = rel.display().to_string();
    let mut files = vec![format!("{prefix}/summary.md")];
    let mut provenance = None;
    for out in &result.outputs {
        let e = out.index_entry();
        files.extend(e.files.iter().map(|f| format!("{prefix}/{f}")));
        provenance.get_or_insert(e.provenance);
    }
    let entry = provenance.map(|provenance| IndexEntry {
        name: prefix.replace('/', "-"),
        title: result.title.clone(),
        question: result.question.clone(),
        key_figures: result.key_figures.clone(),
        files,
        provenance,
    });
    Ok((written, entry))
}
