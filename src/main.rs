use std::process::ExitCode;

use clap::Parser;

use cosmosim::cli::{Cli, Command};
use cosmosim::commands;
use cosmosim::error::UserError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Report(args) => commands::report(args, cli.quiet),
        Command::Table { table } => commands::table(table, cli.quiet),
        Command::Run(args) => commands::run(&args.file, &args.overrides(cli.quiet)),
        Command::Sweep(args) => commands::sweep(args, cli.quiet),
        Command::Check { file } => commands::check(file, cli.quiet),
        Command::Options => {
            print!("{}", commands::list_options());
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            // Bad input is the user's to fix (exit 2); anything else is ours (exit 1).
            if e.chain().any(|c| c.is::<UserError>()) {
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
