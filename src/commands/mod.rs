//! One function per subcommand. The command layer owns what the systems must not: the
//! thread pool's size, signals, and publishing outputs as one set (staging folder, fsync,
//! one swap; see `publish`). Systems only compute `Output`s and `ScenarioResult`s.

mod compare;
mod expect;
mod figures;
mod init;
pub mod language;
mod merge;
mod optimise;
mod options;
mod output;
mod precision;
mod publish;
mod race_page;
mod report;
mod run;
pub mod shard;
pub mod signals;
mod subject;
mod sweep;
mod table;
mod trace;
mod tune;
mod tune_page;
mod variants;

pub use compare::{compare, Changed};
pub use expect::{expect, ExpectationsFailed};
pub use figures::{figures, parse_table, table_names, table_outputs, takes_trials};
pub use init::init;
pub use merge::merge;
pub use optimise::optimise;
pub use options::list_options;
pub use output::{print_stdout, say, warn};
pub use precision::{run_to_precision, widest, Precision, Reached, Widest};
pub use publish::Staging;
pub use report::report;
pub use run::{
    check, default_out, run, run_cmd, run_scenario, run_scenario_file, scenario_rel,
    shipped_scenarios, write_scenario,
};
pub use sweep::sweep;
pub use table::table;
pub use trace::trace;
pub use tune::tune_cmd;
pub use variants::variants;

use crate::lang::Lang;
use std::path::{Path, PathBuf};

use crate::engine::shard::Mode;
use crate::report::Output;

/// What a command runs with, passed down rather than set for the process (issue 23, item
/// 5): whether to stay quiet, and whether it runs as one shard of a run or as a merge.
/// Only the commands `--shard` accepts (`run`, `sweep`, `table`, `report`) take one; the
/// others always compute everything.
pub struct Session {
    pub quiet: bool,
    /// The language the command writes in (`commands::language::choose`).
    pub lang: crate::lang::Lang,
    /// The mode the command's engines run in (`engine::shard`): made once per command and
    /// lent to every engine it builds.
    pub mode: Option<&'static Mode>,
    /// A shard's manifest, completed when its part is published.
    part: Option<shard::Manifest>,
}

impl Session {
    /// A command computing everything.
    pub fn new(quiet: bool, lang: Lang) -> Session {
        Session {
            quiet,
            lang,
            mode: None,
            part: None,
        }
    }

    /// A command run in `mode` for the rest of the process (a shard with its manifest,
    /// or a merge): the mode is leaked once so engines, which are `Copy`, can borrow it.
    fn in_mode(quiet: bool, lang: Lang, mode: Mode, part: Option<shard::Manifest>) -> Session {
        Session {
            quiet,
            lang,
            mode: Some(Box::leak(Box::new(mode))),
            part,
        }
    }

    /// Whether this command is a shard: it publishes accumulators, not outputs.
    pub fn is_shard(&self) -> bool {
        self.mode.is_some_and(Mode::is_shard)
    }

    /// [`publish_set`], or in a shard, the partial folder of its accumulators.
    pub(crate) fn publish(
        &self,
        target: &Path,
        produce: impl FnOnce(&Path) -> anyhow::Result<Vec<PathBuf>>,
    ) -> anyhow::Result<()> {
        match (self.mode, &self.part) {
            (Some(mode), Some(part)) if mode.is_shard() => {
                shard::publish_partial(target, self.quiet, mode, part.clone(), produce, self.lang)
            }
            _ => publish_set(target, self.quiet, produce, self.lang),
        }
    }

    /// [`write_outputs`]; a shard renders nothing (its outputs would be discarded).
    pub(crate) fn write_outputs(
        &self,
        outputs: &mut [Output],
        dir: &Path,
    ) -> anyhow::Result<Vec<PathBuf>> {
        if self.is_shard() {
            return Ok(Vec::new());
        }
        write_outputs(outputs, dir, self.lang)
    }

    /// `report::write_page`; a shard renders no charts, so its (discarded) pages are not
    /// rendered either.
    pub(crate) fn write_page(
        &self,
        dir: &Path,
        stem: &str,
        markdown: &str,
    ) -> anyhow::Result<Vec<PathBuf>> {
        if self.is_shard() {
            return Ok(vec![
                PathBuf::from(format!("{stem}.md")),
                PathBuf::from(format!("{stem}.html")),
            ]);
        }
        crate::report::write_page(dir, stem, markdown, self.lang)
    }
}

/// A message for the user (exit code 2), as the commands return it.
fn user(msg: impl Into<String>) -> anyhow::Error {
    crate::error::UserError::new(msg).into()
}

/// Writes outputs into `dir` (a staging folder) and returns the files written, relative to
/// `dir`.
pub(crate) fn write_outputs(
    outputs: &mut [Output],
    dir: &Path,
    lang: Lang,
) -> anyhow::Result<Vec<PathBuf>> {
    // Inside a run's pool (`report`), every output renders at once (issue 28): each
    // writes its own files, and the list keeps the outputs' order. Outside one, a
    // command stays on its own thread rather than start rayon's global pool, which
    // would ignore `--threads`.
    let write = |o: &mut Output| -> anyhow::Result<Vec<PathBuf>> {
        signals::check()?;
        Ok(o.write(dir, lang)?
            .into_iter()
            .map(|f| f.strip_prefix(dir).map(Path::to_path_buf).unwrap_or(f))
            .collect())
    };
    let lists: Vec<anyhow::Result<Vec<PathBuf>>> = if rayon::current_thread_index().is_some() {
        use rayon::prelude::*;
        outputs.par_iter_mut().map(write).collect()
    } else {
        outputs.iter_mut().map(write).collect()
    };
    Ok(lists
        .into_iter()
        .collect::<anyhow::Result<Vec<_>>>()?
        .concat())
}

/// Prepares `target`, runs `produce` (compute, then write into the staging folder it is
/// given; returns the files written, relative to it), and publishes the set at once. The
/// list of files goes to stderr unless quiet.
pub(crate) fn publish_set(
    target: &Path,
    quiet: bool,
    produce: impl FnOnce(&Path) -> anyhow::Result<Vec<PathBuf>>,
    lang: Lang,
) -> anyhow::Result<()> {
    let staging = Staging::prepare(target, lang)?;
    let files = produce(staging.dir())?;
    signals::check()?;
    staging.publish(lang)?;
    if !quiet {
        for f in files {
            say(&tr!(lang, "page.wrote", path = target.join(f).display()));
        }
    }
    Ok(())
}

/// Runs the command `cli` names (`main`), in `lang` (`language::choose`).
pub fn dispatch(cli: &crate::cli::Cli, lang: Lang) -> anyhow::Result<()> {
    // After the language is settled: the handler's own last words are in it.
    signals::install(lang);
    match cli.shard {
        Some(arg) => shard::run_shard(cli, arg, lang),
        None => run_command(cli, &Session::new(cli.quiet, lang)),
    }
}

/// Runs the command `cli` names in session `s` (a shard, or a merge re-running the
/// shards' command).
pub(crate) fn run_command(cli: &crate::cli::Cli, s: &Session) -> anyhow::Result<()> {
    use crate::cli::Command;
    let quiet = s.quiet;
    match &cli.command {
        Command::Report(args) => report(args, s),
        Command::Table {
            table: t,
            precision,
        } => table(t, precision, s),
        Command::Run(args) => run_cmd(args, s),
        Command::Sweep(args) => sweep(args, s),
        Command::Check { file } => check(file, quiet, s.lang),
        Command::Options => print_stdout(&list_options(s.lang), s.lang),
        Command::Figures { target, args } => figures(target, args, quiet, s.lang),
        Command::Expect(args) => expect(args, quiet, s.lang),
        Command::Compare(args) => compare(args, quiet, s.lang),
        Command::Tune(args) => tune_cmd(args, quiet, s.lang),
        Command::Optimise(args) => optimise(args, quiet, s.lang),
        Command::Variants(args) => variants(args, quiet, s.lang),
        Command::Trace(args) => trace(args, quiet, s.lang),
        Command::Init(args) => init(args, quiet, s.lang),
        Command::Merge(args) => {
            if cli.shard.is_some() || s.mode.is_some() {
                return Err(
                    crate::error::UserError::new(tr!(s.lang, "shard.not_for_merge")).into(),
                );
            }
            merge(args, s, cli.lang)
        }
    }
}
