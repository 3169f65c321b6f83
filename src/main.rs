use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

use cosmosim::cli::Cli;
use cosmosim::commands::{self, signals::Interrupted};
use cosmosim::error::UserError;
use cosmosim::lang::{Lang, Words};

fn main() -> ExitCode {
    // `--lang fr` speaks before the command line is parsed, so clap's refusals (`--trials
    // 0`, an unknown flag) answer in French too (`bad_flag`).
    let argv_lang = commands::language::from_argv(std::env::args_os().skip(1));
    // polars keeps a thread pool of its own, sized once from POLARS_MAX_THREADS (else one
    // per core) at its first use. It only shapes and formats the output frames here; the
    // simulations run on the tool's pool, sized by --threads. One polars thread keeps
    // `--threads N` a bound on the whole process (N workers + main + signals + 1).
    std::env::set_var("POLARS_MAX_THREADS", "1");
    // French help (`--lang fr run --help`) comes from the same tree with French texts;
    // English parses with clap's own, byte for byte as before.
    let parsed = match argv_lang {
        Some(Lang::Fr) => parse_french(),
        _ => Cli::try_parse(),
    };
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => bad_flag(e, argv_lang.unwrap_or(Lang::En)),
    };
    let chosen = commands::language::choose(&cli);
    let lang = chosen
        .as_ref()
        .map_or(argv_lang.unwrap_or(Lang::En), |l| *l);
    let result = chosen.and_then(|l| commands::dispatch(&cli, l));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed stderr must not turn an error into a panic.
            let text = cosmosim::limits::clip_quoted(&worded(&e, lang), lang);
            let _ = writeln!(
                std::io::stderr(),
                "{}",
                cosmosim::tr!(lang, "error.prefix", message = text)
            );
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

/// The error and its causes, as `{e:#}` writes them, with the errors that word themselves
/// later (a signal, a refused file, a flag's refusal) in `lang`.
fn worded(e: &anyhow::Error, lang: Lang) -> String {
    let part = |c: &(dyn std::error::Error + 'static)| {
        if let Some(i) = c.downcast_ref::<Interrupted>() {
            i.text(lang)
        } else if let Some(w) = c.downcast_ref::<Words>() {
            w.text(lang)
        } else if let Some(r) = c.downcast_ref::<cosmosim::input::Refused>() {
            r.text(lang)
        } else {
            c.to_string()
        }
    };
    e.chain().map(part).collect::<Vec<_>>().join(": ")
}

/// The command line parsed by the French command tree (`lang::help`): the same flags and
/// checks, the help in French.
fn parse_french() -> Result<Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let mut matches = cosmosim::lang::help::french(Cli::command()).try_get_matches()?;
    Cli::from_arg_matches_mut(&mut matches)
}

/// clap's refusal of the command line: in the chosen language (`args::refusal`; in
/// English only a refused value), else as clap writes it.
fn bad_flag(e: clap::Error, lang: Lang) -> ! {
    if let Some(text) = cosmosim::args::refusal::worded(&e, lang) {
        let _ = writeln!(
            std::io::stderr(),
            "{}",
            cosmosim::tr!(lang, "error.prefix", message = text)
        );
        std::process::exit(2);
    }
    e.exit()
}
