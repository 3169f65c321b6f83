//! `cosmosim trace FILE`: single trials of a run, replayed from their own streams (issue 27).

use super::user;
use crate::cli::{TraceArgs, TraceFormat};
use crate::lang::Lang;
use crate::report::write_page;
use crate::scenario::ScenarioFile;
use crate::systems::trace::{parse_find, parse_range, TraceRequest, TraceResult, Which};
use crate::systems::RunOverrides;

use super::{print_stdout, publish_set};

pub fn trace(args: &TraceArgs, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    let file = ScenarioFile::read(&args.file, lang)?;
    let kind = super::run::kind_of(&file)?;
    let trace = kind.trace;
    let which = match (args.trial, &args.trials, &args.find) {
        (Some(n), _, _) => Which::Range(n, n),
        (None, Some(r), _) => {
            let (a, b) = parse_range(r, file.lang)?;
            Which::Range(a, b)
        }
        (None, None, Some(f)) => Which::Find(parse_find(f, file.lang)?, args.count),
        (None, None, None) => return Err(user(tr!(file.lang, "trace.which_missing"))),
    };
    let overrides = RunOverrides {
        seed: args.seed,
        options: args.options.clone(),
        quiet: true,
        threads: 1,
        ..RunOverrides::default()
    };
    // A trial no run can have is refused before any work, exit 2 (audit of 2026-12-07
    // afternoon: --trial 18446744073709551615 was replayed). A trial past the file's own
    // count stays allowed: trial 250 of a 200-trial file is trial 250 of `run --trials
    // 300`, the same stream (streams are keyed by the trial's number, not the count).
    if let Which::Range(a, b) = which.clone() {
        let last = crate::limits::MAX_TRIALS - 1;
        if b > last {
            return Err(user(tr!(
                file.lang,
                "trace.outside_run",
                asked = if a == b {
                    a.to_string()
                } else {
                    format!("{a}..{b}")
                },
                trials = crate::limits::MAX_TRIALS,
                last
            )));
        }
    }
    let result = trace(&file, &TraceRequest { which, overrides })?;
    let shown = args.file.display().to_string();
    match args.format {
        TraceFormat::Text => print_stdout(&text(&result, &shown, lang), lang)?,
        TraceFormat::Json => print_stdout(&json_lines(&result), lang)?,
    }
    if let Some(out) = &args.out {
        let md = markdown(&result, &shown, lang);
        publish_set(out, quiet, |dir| write_page(dir, "trace", &md, lang), lang)?;
    }
    if result.trials.is_empty() {
        // Found nothing: exit 1, as grep does, so a script can tell (never a bad file).
        anyhow::bail!(tr!(
            lang,
            "trace.none_found",
            scanned = result.scanned,
            find = args.find.as_deref().unwrap_or("")
        ));
    }
    Ok(())
}

/// The command that replays one trial alone.
fn replay_command(file: &str, trial: u64, seed: u64) -> String {
    format!("cosmosim trace {file} --trial {trial} --seed {seed}")
}

fn account(t: &crate::systems::trace::Traced) -> String {
    let mut s = String::new();
    for (depth, line) in &t.lines {
        s.push_str(&"  ".repeat(*depth as usize));
        s.push_str(line);
        s.push('\n');
    }
    s
}

fn text(r: &TraceResult, file: &str, lang: Lang) -> String {
    let mut s = String::new();
    for t in &r.trials {
        s.push_str(&tr!(
            lang,
            "trace.header",
            trial = t.trial,
            file,
            seed = r.seed,
            outcome = t.outcome
        ));
        s.push('\n');
        s.push_str(&account(t));
        s.push('\n');
    }
    s
}

fn json_lines(r: &TraceResult) -> String {
    let mut s = String::new();
    for t in &r.trials {
        let v = serde_json::json!({
            "trial": t.trial,
            "seed": r.seed,
            "stream_version": crate::engine::STREAM_VERSION,
            "outcome": t.outcome,
            "steps": t.steps,
        });
        s.push_str(&v.to_string());
        s.push('\n');
    }
    s
}

fn markdown(r: &TraceResult, file: &str, lang: Lang) -> String {
    let mut s = format!("# {}\n\n", tr!(lang, "trace.title", file));
    s.push_str(&tr!(
        lang,
        "trace.provenance",
        tool = "cosmosim",
        version = env!("CARGO_PKG_VERSION"),
        seed = r.seed,
        stream = crate::engine::STREAM_VERSION
    ));
    s.push_str("\n\n");
    if r.trials.is_empty() {
        s.push_str(&tr!(
            lang,
            "trace.none_found",
            scanned = r.scanned,
            find = ""
        ));
        s.push('\n');
    }
    for t in &r.trials {
        s.push_str(&format!(
            "## {}\n\n`{}`\n\n```text\n{}```\n\n",
            tr!(
                lang,
                "trace.trial_heading",
                trial = t.trial,
                outcome = t.outcome
            ),
            replay_command(file, t.trial, r.seed),
            account(t)
        ));
    }
    s
}
