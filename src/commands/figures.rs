use crate::lang::Lang;
use std::path::Path;

use clap::{CommandFactory, Parser};

use crate::balance::figures::describe;
use crate::cli::{Cli, Command, TableCommand};
use crate::engine::shard::Mode;
use crate::error::UserError;
use crate::report::Output;
use crate::systems::RunOverrides;

use super::{print_stdout, run_scenario};

/// Trials of the quick run `figures` makes of a scenario: the columns do not depend on
/// the trial count.
const FIGURES_TRIALS: u64 = 1_000;

/// Every table name `cosmosim table` knows.
pub fn table_names() -> Vec<String> {
    Cli::command()
        .find_subcommand("table")
        .map(|t| {
            t.get_subcommands()
                .map(|s| s.get_name().to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Whether table `name` takes a trial count (`--trials`): an exact-only table does not,
/// so a file's or the command's trials go to the Monte Carlo tables alone.
pub fn takes_trials(name: &str) -> bool {
    Cli::command()
        .find_subcommand("table")
        .and_then(|t| t.find_subcommand(name))
        .is_some_and(|t| t.get_arguments().any(|a| a.get_id() == "trials"))
}

/// Parses `table NAME ARGS...` with the table's own clap definition, so its flags,
/// defaults and validation are the command line's. The error is clap's first line.
pub fn parse_table(name: &str, args: &[String], lang: Lang) -> Result<TableCommand, String> {
    if !table_names().iter().any(|t| t == name) {
        return Err(tr!(
            lang,
            "check.table_unknown",
            name = crate::limits::clip(name, lang),
            allowed = table_names().join(", ")
        ));
    }
    let argv = ["cosmosim", "table", name]
        .into_iter()
        .map(str::to_string)
        .chain(args.iter().cloned());
    match Cli::try_parse_from(argv) {
        Ok(Cli {
            command: Command::Table { table, .. },
            ..
        }) => Ok(table),
        Ok(_) => Err(format!("`{name}` is not a table")),
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("").trim();
            Err(first.trim_start_matches("error: ").to_string())
        }
    }
}

/// Computes a table's outputs with `args` (quiet, nothing written), its engine in `mode`
/// (a shard or a merge) when one is given.
pub fn table_outputs(
    cmd: &TableCommand,
    quiet: bool,
    mode: Option<&'static Mode>,
    lang: Lang,
) -> anyhow::Result<Vec<Output>> {
    let ctx = cmd.run_args().context(quiet, mode, lang)?;
    cmd.compute(&ctx)
}

/// `cosmosim figures TABLE [FLAGS...] | FILE`: the outputs, their columns, key columns and
/// meaning, for naming figures in an expectations file.
pub fn figures(target: &str, args: &[String], quiet: bool, lang: Lang) -> anyhow::Result<()> {
    let outputs = if target.ends_with(".toml") || Path::new(target).is_file() {
        let o = RunOverrides {
            trials: Some(FIGURES_TRIALS),
            quiet: true,
            options: options_of(args, lang)?,
            ..Default::default()
        };
        run_scenario(Path::new(target), &o, lang)?.outputs
    } else {
        let cmd = parse_table(target, args, lang).map_err(UserError::new)?;
        table_outputs(&cmd, quiet, None, lang)?
    };
    print_stdout(&describe(&outputs, lang), lang)
}

/// `--option k=v` pairs among a scenario's extra arguments (the only flag allowed there).
fn options_of(args: &[String], lang: Lang) -> Result<Vec<String>, UserError> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match (a.as_str(), it.next()) {
            ("--option", Some(v)) => out.push(v.clone()),
            _ => {
                return Err(UserError::new(tr!(
                    lang,
                    "check.figures_option_only",
                    argument = a
                )))
            }
        }
    }
    Ok(out)
}
