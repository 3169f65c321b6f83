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
mod report;
mod run;
pub mod shard;
pub mod signals;
mod subject;
mod sweep;
mod table;
mod trace;
mod tune;
mod variants;

pub use compare::{compare, Changed};
pub use expect::{expect, ExpectationsFailed};
pub use figures::{figures, parse_table, table_names, table_outputs};
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

use std::path::{Path, PathBuf};

use crate::report::Output;

/// Writes outputs into `dir` (a staging folder) and returns the files written, relative to
/// `dir`.
pub(crate) fn write_outputs(outputs: &mut [Output], dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut all = Vec::new();
    if shard::sharding() {
        // A shard publishes accumulators, not outputs: rendering them would be wasted.
        return Ok(all);
    }
    // Inside a run's pool (`report`), every output renders at once (issue 28): each
    // writes its own files, and the list keeps the outputs' order. Outside one, a
    // command stays on its own thread rather than start rayon's global pool, which
    // would ignore `--threads`.
    let write = |o: &mut Output| -> anyhow::Result<Vec<PathBuf>> {
        signals::check()?;
        Ok(o.write(dir)?
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
    for l in lists {
        all.extend(l?);
    }
    Ok(all)
}

/// Prepares `target`, runs `produce` (compute, then write into the staging folder it is
/// given; returns the files written, relative to it), and publishes the set at once. The
/// list of files goes to stderr unless quiet.
pub(crate) fn publish_set(
    target: &Path,
    quiet: bool,
    produce: impl FnOnce(&Path) -> anyhow::Result<Vec<PathBuf>>,
) -> anyhow::Result<()> {
    if shard::sharding() {
        return shard::publish_partial(target, quiet, produce);
    }
    let staging = Staging::prepare(target)?;
    let files = produce(staging.dir())?;
    signals::check()?;
    staging.publish()?;
    if !quiet {
        for f in files {
            say(&crate::tr!("page.wrote", path = target.join(f).display()));
        }
    }
    Ok(())
}

/// Runs the command `cli` names (`main`, and `merge` re-running a shards' command).
pub fn dispatch(cli: &crate::cli::Cli) -> anyhow::Result<()> {
    use crate::cli::Command;
    language::choose(cli)?;
    if let Some(arg) = cli.shard {
        if !shard::sharding() {
            return shard::run_shard(cli, arg);
        }
    }
    match &cli.command {
        Command::Report(args) => report(args, cli.quiet),
        Command::Table {
            table: t,
            precision,
        } => table(t, precision, cli.quiet),
        Command::Run(args) => run_cmd(args, cli.quiet),
        Command::Sweep(args) => sweep(args, cli.quiet),
        Command::Check { file } => check(file, cli.quiet),
        Command::Options => print_stdout(&list_options()),
        Command::Figures { target, args } => figures(target, args, cli.quiet),
        Command::Expect(args) => expect(args, cli.quiet),
        Command::Compare(args) => compare(args, cli.quiet),
        Command::Tune(args) => tune_cmd(args, cli.quiet),
        Command::Optimise(args) => optimise(args, cli.quiet),
        Command::Variants(args) => variants(args, cli.quiet),
        Command::Trace(args) => trace(args, cli.quiet),
        Command::Init(args) => init(args, cli.quiet),
        Command::Merge(args) => {
            if cli.shard.is_some() {
                return Err(crate::error::UserError::new(crate::tr!("shard.not_for_merge")).into());
            }
            merge(args, cli.quiet, cli.lang)
        }
    }
}
