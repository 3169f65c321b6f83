use super::user;
use crate::lang::Lang;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::balance::args::ExpectArgs;
use crate::balance::expect::{
    self, check_file, Compute, ExpectFile, FileOutcomes, Settings, Source,
};
use crate::error::UserError;
use crate::limits::MAX_EXPECT_FILES;
use crate::report::{write_atomic, write_page, Output};
use crate::systems::RunOverrides;

use super::{parse_table, publish_set, run_scenario, say, signals, table_outputs, takes_trials};

/// Expectations failed or undecided: exit 1 (not a bad file).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ExpectationsFailed(pub String);

/// What a run is cached by: its source, its rule options, its trials and its seed.
type RunKey = (Source, Vec<String>, Option<u64>, Option<u64>);

/// Runs tables and scenarios for `expect`, each (source, options, trials) once.
pub(crate) struct Runner {
    pub seed: Option<u64>,
    pub threads: usize,
    pub global_options: Vec<String>,
    pub quiet: bool,
    pub lang: Lang,
    /// A shard or a merge (`report --shard`, `merge`): every table and scenario run in it.
    pub mode: Option<&'static crate::engine::shard::Mode>,
    cache: HashMap<RunKey, Rc<Vec<Output>>>,
    /// Stalemate warnings of every scenario run, in run order (issue 27 item 2: a gate on
    /// a win rate must not pass silently over fights that never end).
    stalled: Vec<String>,
}

impl Runner {
    pub fn new(
        seed: Option<u64>,
        threads: usize,
        global_options: Vec<String>,
        quiet: bool,
        lang: Lang,
    ) -> Runner {
        Runner {
            seed,
            threads,
            global_options,
            quiet,
            lang,
            mode: None,
            cache: HashMap::new(),
            stalled: Vec::new(),
        }
    }

    /// Every stalemate warning of the scenarios run so far (each names its file).
    pub fn stalemate_warnings(&self) -> Vec<String> {
        self.stalled.clone()
    }
}

impl Compute for Runner {
    fn outputs(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
    ) -> anyhow::Result<Rc<Vec<Output>>> {
        self.compute(source, options, trials, self.seed, self.lang)
    }

    fn outputs_at_seeds(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
        seeds: &[u64],
    ) -> anyhow::Result<Vec<Rc<Vec<Output>>>> {
        let options = expect::merged_options(&self.global_options, options);
        let key = |s: u64| (source.clone(), options.clone(), trials, Some(s));
        let missing: Vec<u64> = seeds
            .iter()
            .copied()
            .filter(|s| !self.cache.contains_key(&key(*s)))
            .collect();
        signals::check()?;
        // Small runs (the blocks of a paired test fit in one batch each) side by side on
        // the run's pool; each depends on its own seed only, so the bytes do not depend on
        // the order they finish in.
        let (threads, quiet, mode) = (self.threads, self.quiet, self.mode);
        let done = crate::engine::pool(threads)?.install(|| {
            use rayon::prelude::*;
            missing
                .par_iter()
                .map(|s| {
                    produce(
                        source,
                        &options,
                        trials,
                        Some(*s),
                        threads,
                        quiet,
                        mode,
                        self.lang,
                    )
                })
                .collect::<Vec<_>>()
        });
        for (s, outs) in missing.iter().zip(done) {
            self.cache.insert(key(*s), Rc::new(outs?.0));
        }
        Ok(seeds.iter().map(|s| self.cache[&key(*s)].clone()).collect())
    }

    fn validate(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
    ) -> anyhow::Result<()> {
        let options = expect::merged_options(&self.global_options, options);
        match source {
            Source::Table { name, args } => {
                let argv = table_argv(name, args, &options, trials, self.seed, self.threads);
                parse_table(name, &argv, self.lang).map_err(UserError::new)?;
            }
            Source::Scenario(path) => {
                let o = RunOverrides {
                    options,
                    trials,
                    ..Default::default()
                };
                super::run::validate_scenario(
                    &crate::scenario::ScenarioFile::read(path, self.lang)?,
                    &o,
                )?;
            }
        }
        Ok(())
    }

    fn probe(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
    ) -> anyhow::Result<Vec<Output>> {
        self.probe_outputs(source, options, trials)
    }
}

/// Trials of the short run that checks an expectation's figure and rows before any runs:
/// the outputs' columns and key rows do not depend on the trial count.
const PROBE_TRIALS: u64 = 200;

impl Runner {
    /// See [`Compute::probe`]. A table that takes no trial count (an exact one) runs as
    /// asked, which is quick.
    fn probe_outputs(
        &self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
    ) -> anyhow::Result<Vec<Output>> {
        let options = expect::merged_options(&self.global_options, options);
        let short = Some(trials.map_or(PROBE_TRIALS, |t| t.min(PROBE_TRIALS)));
        let (outs, _) = produce(
            source,
            &options,
            short,
            self.seed,
            self.threads,
            true,
            None,
            self.lang,
        )?;
        Ok(outs)
    }

    fn compute(
        &mut self,
        source: &Source,
        options: &[String],
        trials: Option<u64>,
        seed: Option<u64>,
        lang: Lang,
    ) -> anyhow::Result<Rc<Vec<Output>>> {
        let options = expect::merged_options(&self.global_options, options);
        let key = (source.clone(), options.clone(), trials, seed);
        if let Some(o) = self.cache.get(&key) {
            return Ok(o.clone());
        }
        signals::check()?;
        let (outs, stalled) = produce(
            source,
            &options,
            trials,
            seed,
            self.threads,
            self.quiet,
            self.mode,
            lang,
        )?;
        for w in stalled {
            if !self.stalled.contains(&w) {
                self.stalled.push(w);
            }
        }
        let outs = Rc::new(outs);
        self.cache.insert(key, outs.clone());
        Ok(outs)
    }
}

/// A table's command line: its flags, then the run's options, seed, threads and trials
/// (when the table takes any: an exact one is asked with none, see [`takes_trials`]).
fn table_argv(
    name: &str,
    args: &[String],
    options: &[String],
    trials: Option<u64>,
    seed: Option<u64>,
    threads: usize,
) -> Vec<String> {
    let mut argv = args.to_vec();
    for o in options {
        argv.push("--option".into());
        argv.push(o.clone());
    }
    if let Some(s) = seed {
        argv.extend(["--seed".to_string(), s.to_string()]);
    }
    argv.extend(["--threads".to_string(), threads.to_string()]);
    if let Some(t) = trials.filter(|_| takes_trials(name)) {
        argv.extend(["--trials".to_string(), t.to_string()]);
    }
    argv
}

/// A source's outputs, and the stalemate warnings of a scenario (each names its file).
#[allow(clippy::too_many_arguments)]
fn produce(
    source: &Source,
    options: &[String],
    trials: Option<u64>,
    seed: Option<u64>,
    threads: usize,
    quiet: bool,
    mode: Option<&'static crate::engine::shard::Mode>,
    lang: Lang,
) -> anyhow::Result<(Vec<Output>, Vec<String>)> {
    match source {
        Source::Table { name, args } => {
            let argv = table_argv(name, args, options, trials, seed, threads);
            let cmd = parse_table(name, &argv, lang).map_err(UserError::new)?;
            Ok((table_outputs(&cmd, quiet, mode, lang)?, Vec::new()))
        }
        Source::Scenario(path) => {
            let o = RunOverrides {
                trials,
                seed,
                threads,
                options: options.to_vec(),
                quiet,
                mode,
                ..Default::default()
            };
            let outputs = run_scenario(path, &o, lang)?.outputs;
            let level = crate::scenario::ScenarioFile::read(path, lang)?.stalemate_warning();
            let at = path.display().to_string();
            let stalled = crate::balance::stalemate::warnings(&outputs, level, Some(&at), lang);
            Ok((outputs, stalled))
        }
    }
}

/// Reads and validates every file, and caps the trials they ask for in all under
/// `max_trials` (`--max-trials`): nothing runs before all are valid.
pub(crate) fn read_files(
    paths: &[PathBuf],
    max_trials: Option<u64>,
    lang: Lang,
) -> anyhow::Result<Vec<ExpectFile>> {
    if paths.len() > MAX_EXPECT_FILES {
        return Err(user(tr!(
            lang,
            "check.too_many_expect_files",
            count = paths.len(),
            max = MAX_EXPECT_FILES
        )));
    }
    let files = paths
        .iter()
        .map(|p| ExpectFile::read(p, lang))
        .collect::<Result<Vec<_>, _>>()?;
    crate::balance::expect::model::check_work(&files, max_trials, lang)?;
    Ok(files)
}

/// Decides every file's expectations.
pub(crate) fn evaluate(
    files: &[ExpectFile],
    runner: &mut Runner,
    settings: &Settings,
    quiet: bool,
    lang: Lang,
) -> anyhow::Result<Vec<FileOutcomes>> {
    for f in files {
        expect::validate_file(f, runner, settings, lang)?;
    }
    let mut all = Vec::new();
    for f in files {
        let seed = runner.seed;
        if runner.seed.is_none() {
            runner.seed = f.seed;
        }
        let bar = expectation_bar(f.expectations.len() as u64, quiet, lang);
        let outcomes = check_file(
            f,
            runner,
            settings,
            |o, k, n| {
                let line = format!(
                    "[{k}/{n}] {}: {} — {}",
                    o.name,
                    o.verdict.shown(lang),
                    o.message_shown
                );
                match &bar {
                    Some(b) => {
                        b.println(line);
                        b.inc(1);
                    }
                    None if !quiet => say(&line),
                    None => {}
                }
            },
            lang,
        );
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        runner.seed = seed;
        all.push(FileOutcomes {
            path: f.path.display().to_string(),
            title: f.title.clone(),
            outcomes: outcomes?,
        });
    }
    Ok(all)
}

/// A bar over the file's expectations, on a terminal only and never with `--quiet`.
fn expectation_bar(n: u64, quiet: bool, lang: Lang) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(n);
    bar.set_style(
        indicatif::ProgressStyle::with_template(&format!(
            "{} [{{bar:30}}] {{pos}}/{{len}}",
            tr!(lang, "expect.bar")
        ))
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    Some(bar)
}

/// Writes expect.md, expect.csv, junit.xml and expect.meta.json (`meta`, from
/// [`expect::meta::meta_json`]) into `dir`; returns them relative to `dir`.
pub(crate) fn write_expect(
    results: &[FileOutcomes],
    stalled: &[String],
    meta: &str,
    dir: &Path,
    lang: Lang,
) -> anyhow::Result<Vec<PathBuf>> {
    crate::report::create_dir(dir, lang)?;
    write_atomic(&dir.join("expect.meta.json"), meta.as_bytes(), lang)?;
    write_atomic(
        &dir.join("expect.csv"),
        expect::csv(results)?.as_bytes(),
        lang,
    )?;
    write_atomic(
        &dir.join("junit.xml"),
        expect::junit(results).as_bytes(),
        lang,
    )?;
    let mut page = expect::markdown(results, lang);
    if !stalled.is_empty() {
        page = page + "\n" + &super::race_page::warnings_section(stalled, lang);
    }
    let mut files = write_page(dir, "expect", &page, lang)?;
    files.extend(
        ["expect.csv", "junit.xml", "expect.meta.json"]
            .iter()
            .map(PathBuf::from),
    );
    Ok(files)
}

/// `cosmosim expect FILE...`: exit 0 when every expectation holds, 1 when any fails or is
/// undecided, 2 for a bad file.
pub fn expect(a: &ExpectArgs, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    crate::limits::check_threads(a.threads)?;
    crate::rules::RuleOptions::from_pairs(&a.options, lang)?;
    let files = read_files(&a.files, a.max_trials, lang)?;
    let mut runner = Runner::new(a.seed, a.threads, a.options.clone(), quiet, lang);
    let settings = Settings {
        max_trials: a.max_trials,
    };
    let mut verdict = None;
    publish_set(
        &a.out,
        quiet,
        |staging| {
            let results = evaluate(&files, &mut runner, &settings, quiet, lang)?;
            signals::check()?;
            verdict = Some((expect::all_hold(&results), expect::headline(&results, lang)));
            let stalled = runner.stalemate_warnings();
            // Warnings print whatever --quiet says (it silences progress and file lists).
            for w in &stalled {
                super::warn(w, lang);
            }
            let meta = expect::meta::meta_json(
                &files,
                &results,
                &expect::meta::RunSettings {
                    seed: a.seed,
                    options: &a.options,
                    max_trials: a.max_trials,
                },
            );
            write_expect(&results, &stalled, &meta, staging, lang)
        },
        lang,
    )?;
    match verdict {
        Some((true, line)) => {
            if !quiet {
                say(&line);
            }
            Ok(())
        }
        Some((false, line)) => Err(ExpectationsFailed(format!(
            "{line} (see {})",
            a.out.join("expect.md").display()
        ))
        .into()),
        None => Ok(()),
    }
}
