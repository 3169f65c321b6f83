//! `cosmosim trace FILE`: single trials of a run, replayed from their own streams (issue 27).

use super::user;
use crate::cli::{TraceArgs, TraceFormat};
use crate::lang::Lang;
use crate::report::{md_code, write_atomic, write_page};
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
        let md = markdown(&result, &shown, args.find.as_deref(), lang);
        let meta = meta_json(&file, args, &result, &shown, lang)?;
        publish_set(
            out,
            quiet,
            |dir| {
                let mut files = write_page(dir, "trace", &md, lang)?;
                write_atomic(&dir.join("trace.meta.json"), meta.as_bytes(), lang)?;
                files.push("trace.meta.json".into());
                Ok(files)
            },
            lang,
        )?;
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

/// `trace.meta.json` (audit of 2026-12-07, evening: `trace --out` wrote none): the
/// provenance `run` records for the same file, seed and options (scenario hash, options in
/// force, linked files, the run's trial count), with what was replayed and the command
/// that replays it. The options are those of a one-trial run of the file, so a trace lists
/// exactly what `run` lists, kind by kind.
fn meta_json(
    file: &ScenarioFile,
    args: &TraceArgs,
    r: &TraceResult,
    shown: &str,
    lang: Lang,
) -> anyhow::Result<String> {
    let probe = RunOverrides {
        trials: Some(1),
        seed: args.seed,
        options: args.options.clone(),
        quiet: true,
        threads: 1,
        ..RunOverrides::default()
    };
    let outputs = super::run::run_scenario_file(file, &probe)?.outputs;
    let mut p = match outputs.first() {
        Some(o) => o.provenance.for_output("trace"),
        None => crate::report::Provenance::monte_carlo("trace", "", Default::default(), 0, 0),
    };
    for o in outputs.iter().skip(1) {
        for (k, v) in &o.provenance.rule_options {
            p.rule_options.entry(k.clone()).or_insert_with(|| v.clone());
        }
        for l in &o.provenance.linked {
            if !p.linked.contains(l) {
                p.linked.push(l.clone());
            }
        }
    }
    p.scenario = Some(file.reference());
    p.seed = Some(r.seed);
    p.trials = Some(r.run_trials);
    let replayed: Vec<String> = r.trials.iter().map(|t| t.trial.to_string()).collect();
    let mut command = format!("cosmosim trace {shown}");
    match (args.trial, &args.trials, &args.find) {
        (Some(n), _, _) => command += &format!(" --trial {n}"),
        (None, Some(range), _) => command += &format!(" --trials {range}"),
        (None, None, Some(f)) => {
            command += &format!(" --find {f} --count {}", args.count);
            p = p
                .with_param("find", f)
                .with_param("count", args.count)
                .with_param("scanned", r.scanned);
        }
        (None, None, None) => {}
    }
    command += &format!(" --seed {}", r.seed);
    for o in &args.options {
        command += &format!(" --option {o}");
    }
    let p = p
        .with_param("command", command)
        .with_param("trials_replayed", replayed.join(","));
    Ok(p.to_json(lang))
}

fn markdown(r: &TraceResult, file: &str, find: Option<&str>, lang: Lang) -> String {
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
        // Said plainly, with the conditions searched for (audit of 2026-12-07, evening:
        // the page printed "()" where they belonged).
        s.push_str(&tr!(
            lang,
            "trace.none_matched",
            scanned = r.scanned,
            find = md_code(find.unwrap_or(""))
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
