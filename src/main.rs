use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cosmosim::cli::Cli;
use cosmosim::commands::{self, signals::Interrupted};
use cosmosim::error::UserError;

fn main() -> ExitCode {
    let cli = Cli::parse();
    commands::signals::install();
    let result = commands::dispatch(&cli);
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
