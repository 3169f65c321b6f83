use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cosmosim::cli::{Cli, Command};
use cosmosim::commands::{self, signals::Interrupted};
use cosmosim::error::UserError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    commands::signals::install();
    let result = match &cli.command {
        Command::Report(args) => commands::report(args, cli.quiet),
        Command::Table { table, precision } => commands::table(table, precision, cli.quiet),
        Command::Run(args) => commands::run_cmd(args, cli.quiet),
        Command::Sweep(args) => commands::sweep(args, cli.quiet),
        Command::Check { file } => commands::check(file, cli.quiet),
        Command::Options => commands::print_stdout(&commands::list_options()),
        Command::Figures { target, args } => commands::figures(target, args, cli.quiet),
        Command::Expect(args) => commands::expect(args, cli.quiet),
        Command::Compare(args) => commands::compare(args, cli.quiet),
        Command::Tune(args) => commands::tune_cmd(args, cli.quiet),
        Command::Optimise(args) => commands::optimise(args, cli.quiet),
        Command::Variants(args) => commands::variants(args, cli.quiet),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stderr must not turn an error into a panic.
            let text = cosmosim::limits::clip_quoted(&format!("{e:#}"));
            let _ = writeln!(std::io::stderr(), "error: {text}");
            if let Some(i) = e.downcast_ref::<Interrupted>() {
                ExitCode::from(i.exit_code())
            } else if e.chain().any(|c| c.is::<UserError>()) {
                // Bad input is the user's to fix (exit 2); anything else is ours (exit 1).
                ExitCode::from(2)
            } else {
                ExitCode::from(1)
            }
        }
    }
}
