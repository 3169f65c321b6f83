//! `cosmosim merge PART... --out DIR`: checks that the partial folders belong together,
//! then re-runs their command with the engine in replay mode: every `Engine::run` returns
//! the fold, in the unsharded batch order, of the stored batch accumulators. Every CSV,
//! chart and summary is therefore written by the command's own code, byte-identical to
//! the unsharded run. Work that is not Monte Carlo (exact tables) is simply recomputed.

use super::user;
use crate::lang::Lang;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::Parser;

use crate::cli::{Cli, MergeArgs};
use crate::engine::shard::{self, Accumulators, Mode};
use crate::error::UserError;

use super::shard::{
    hash_inputs, input_files, sha256_hex, Manifest, ACCUMULATORS, BUILD_ID, FORMAT, MANIFEST,
    SHARD_COMMANDS,
};

fn bad(part: &Path, why: impl std::fmt::Display, lang: Lang) -> anyhow::Error {
    user(tr!(lang, "merge.part", part = part.display(), why))
}

/// One part, read and checked against its own manifest.
struct Part {
    path: PathBuf,
    manifest: Manifest,
    acc: Accumulators,
}

fn read_part(path: &Path, lang: Lang) -> anyhow::Result<Part> {
    let bad = |why: String| bad(path, why, lang);
    // Every part is data from elsewhere (another machine, a shared folder): read through
    // `input` (regular files, capped sizes), then validated whole before anything in it
    // is used.
    let text = crate::input::read_text(&path.join(MANIFEST), crate::input::MAX_MANIFEST_BYTES)
        .map_err(|e| {
            bad(tr!(
                lang,
                "merge.no_manifest",
                manifest = MANIFEST,
                error = e.text(lang)
            ))
        })?;
    let corrupt = |e: serde_json::Error| {
        bad(tr!(
            lang,
            "merge.corrupt_manifest",
            manifest = MANIFEST,
            error = e
        ))
    };
    let value: serde_json::Value = serde_json::from_str(&text).map_err(corrupt)?;
    let format = value["format"].as_str().unwrap_or("");
    if format != FORMAT {
        return Err(bad(tr!(
            lang,
            "merge.format",
            found = format!("{:?}", crate::limits::clip(format, lang)),
            expected = format!("{FORMAT:?}")
        )));
    }
    let manifest: Manifest = serde_json::from_value(value).map_err(corrupt)?;
    manifest
        .validate(lang)
        .map_err(|why| bad(tr!(lang, "safety.parts.invalid", manifest = MANIFEST, why)))?;
    if manifest.stream_version != crate::engine::STREAM_VERSION {
        return Err(bad(tr!(
            lang,
            "safety.parts.other_streams",
            version = manifest.stream_version,
            ours = crate::engine::STREAM_VERSION,
            build = crate::limits::clip(&manifest.build, lang),
            our_build = BUILD_ID
        )));
    }
    if manifest.build != BUILD_ID {
        return Err(bad(tr!(
            lang,
            "safety.parts.other_build",
            build = crate::limits::clip(&manifest.build, lang),
            ours = BUILD_ID
        )));
    }
    check_command(path, &manifest.command, lang)?;
    let file = path.join(ACCUMULATORS);
    let bytes = crate::input::read_file(&file, crate::input::MAX_PART_BYTES).map_err(|e| {
        bad(tr!(
            lang,
            "merge.cannot_read",
            file = file.display(),
            error = e.text(lang)
        ))
    })?;
    if bytes.len() as u64 != manifest.accumulators.bytes {
        return Err(bad(tr!(
            lang,
            "merge.truncated",
            file = ACCUMULATORS,
            bytes = bytes.len(),
            expected = manifest.accumulators.bytes
        )));
    }
    if sha256_hex(&bytes) != manifest.accumulators.sha256 {
        return Err(bad(tr!(lang, "merge.corrupt", file = ACCUMULATORS)));
    }
    let acc = shard::decode(&bytes)
        .filter(|acc| manifest.matches(acc))
        .ok_or_else(|| bad(tr!(lang, "merge.undecodable", file = ACCUMULATORS)))?;
    Ok(Part {
        path: path.to_path_buf(),
        manifest,
        acc,
    })
}

/// The recorded command must be one `--shard` runs: the merge replays it, and a part
/// must not make it run anything else (`variants`, `figures`...).
fn check_command(path: &Path, command: &[String], lang: Lang) -> anyhow::Result<()> {
    use crate::cli::Command;
    let argv = std::iter::once("cosmosim".to_string()).chain(command.iter().cloned());
    let refuse = || {
        // The subcommand: the first word that is neither a flag nor `--lang`'s value.
        let mut words = command.iter();
        let mut first = String::new();
        while let Some(a) = words.next() {
            if a == "--lang" {
                words.next();
            } else if !a.starts_with('-') {
                first = crate::limits::clip(a, lang);
                break;
            }
        }
        bad(
            path,
            tr!(
                lang,
                "safety.parts.command",
                command = first,
                allowed = SHARD_COMMANDS.join(", ")
            ),
            lang,
        )
    };
    match Cli::try_parse_from(argv) {
        Ok(cli) => match cli.command {
            Command::Run(_) | Command::Sweep(_) | Command::Table { .. } | Command::Report(_)
                if cli.shard.is_none() =>
            {
                Ok(())
            }
            _ => Err(refuse()),
        },
        // A command this build cannot parse is named by the merge with clap's reason.
        Err(_) => Ok(()),
    }
}

/// Where command `a` departs from `b`: the first differing argument, with the flag it
/// belongs to (`--seed 2`), or "nothing more" when `a` stops first.
fn command_at(a: &[String], b: &[String], lang: Lang) -> String {
    let i = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    match a.get(i) {
        None => tr!(lang, "merge.nothing_more").to_string(),
        Some(x) => {
            let flag = i
                .checked_sub(1)
                .and_then(|j| a.get(j))
                .filter(|f| f.starts_with("--") && !x.starts_with("--"));
            match flag {
                Some(f) => format!("`{f} {x}`"),
                None => format!("`{x}`"),
            }
        }
    }
}

/// Checks that the parts are the shards of one run, each exactly once; returns them
/// ordered by shard index (so the merge is order-independent).
fn check_set(mut parts: Vec<Part>, lang: Lang) -> anyhow::Result<Vec<Part>> {
    // The run most parts belong to (ties: the first in path order) is the reference; the
    // others are foreign.
    parts.sort_by(|a, b| a.path.cmp(&b.path));
    let mut votes: Vec<(usize, usize)> = Vec::new();
    for (i, p) in parts.iter().enumerate() {
        match votes
            .iter_mut()
            .find(|(r, _)| parts[*r].manifest.run_identity() == p.manifest.run_identity())
        {
            Some(v) => v.1 += 1,
            None => votes.push((i, 1)),
        }
    }
    let reference = votes
        .iter()
        .max_by_key(|(i, n)| (*n, std::cmp::Reverse(*i)))
        .map(|(i, _)| *i)
        .unwrap_or(0);
    let r = parts[reference].manifest.clone();
    for p in &parts {
        let m = &p.manifest;
        let differs = if m.tool_version != r.tool_version {
            Some(tr!(
                lang,
                "merge.other_version",
                version = m.tool_version,
                others = r.tool_version
            ))
        } else if m.command != r.command {
            Some(tr!(
                lang,
                "merge.other_command",
                its = command_at(&m.command, &r.command, lang),
                others = command_at(&r.command, &m.command, lang)
            ))
        } else if m.inputs != r.inputs {
            Some(tr!(lang, "merge.other_inputs").to_string())
        } else if m.shard.count != r.shard.count {
            Some(tr!(
                lang,
                "merge.other_count",
                index = m.shard.index,
                count = m.shard.count,
                others = r.shard.count
            ))
        } else {
            None
        };
        if let Some(why) = differs {
            return Err(bad(&p.path, tr!(lang, "merge.foreign", why), lang));
        }
    }
    let mut by_index: BTreeMap<u64, &Part> = BTreeMap::new();
    for p in &parts {
        if let Some(first) = by_index.insert(p.manifest.shard.index, p) {
            return Err(bad(
                &p.path,
                tr!(
                    lang,
                    "merge.duplicate",
                    index = p.manifest.shard.index,
                    count = r.shard.count,
                    other = first.path.display()
                ),
                lang,
            ));
        }
    }
    let missing: Vec<String> = (1..=r.shard.count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{}", r.shard.count))
        .collect();
    if !missing.is_empty() {
        let shards = crate::limits::clip(&missing.join(", "), lang);
        let command = r.command.join(" ");
        return Err(user(if missing.len() > 1 {
            tr!(lang, "merge.missing_many", shards, command)
        } else {
            tr!(lang, "merge.missing_one", shards, command)
        }));
    }
    parts.sort_by_key(|p| p.manifest.shard.index);
    Ok(parts)
}

/// The shards' command, less its `--lang` when the merge names its own.
fn without_lang(command: &[String], drop: bool) -> Vec<String> {
    let mut out = Vec::with_capacity(command.len());
    let mut skip_value = false;
    let mut flags = true;
    for a in command {
        if skip_value {
            skip_value = false;
        } else if drop && flags && a == "--lang" {
            skip_value = true;
        } else if !(drop && flags && a.starts_with("--lang=")) {
            flags &= a != "--";
            out.push(a.clone());
        }
    }
    out
}

/// `cosmosim merge`.
/// `lang`: the merge's own `--lang`, which wins over the shards' language for the pages
/// (the CSVs and the accumulators do not depend on it).
pub fn merge(a: &MergeArgs, s: &super::Session, lang: Option<Lang>) -> anyhow::Result<()> {
    let quiet = s.quiet;
    let parts = a
        .parts
        .iter()
        .map(|p| read_part(p, s.lang))
        .collect::<anyhow::Result<Vec<_>>>()?;
    let parts = check_set(parts, s.lang)?;
    let manifest = parts[0].manifest.clone();
    let mut argv = vec!["cosmosim".to_string()];
    argv.extend(without_lang(&manifest.command, lang.is_some()));
    argv.extend([
        "--out".to_string(),
        a.out.display().to_string(),
        "--threads".to_string(),
        a.threads.to_string(),
    ]);
    if quiet {
        argv.push("--quiet".into());
    }
    if let Some(l) = lang {
        argv.extend(["--lang".to_string(), l.code().to_string()]);
    }
    let cli = Cli::try_parse_from(&argv).map_err(|e| {
        UserError::new(tr!(
            s.lang,
            "merge.command_does_not_parse",
            command = manifest.command.join(" "),
            error = e.to_string().lines().next().unwrap_or("")
        ))
    })?;
    // The inputs must be the ones the shards read: run the merge where they ran.
    let now = hash_inputs(&input_files(&cli));
    if now != manifest.inputs {
        let changed: Vec<&str> = manifest
            .inputs
            .iter()
            .filter(|x| !now.contains(x))
            .map(|(p, _)| p.as_str())
            .collect();
        return Err(user(tr!(
            s.lang,
            "merge.inputs_differ",
            files = if changed.is_empty() {
                tr!(s.lang, "merge.another_set").to_string()
            } else {
                crate::limits::clip(&changed.join(", "), s.lang)
            }
        )));
    }
    let mut store = Accumulators::default();
    for p in parts {
        for (key, batches) in p.acc.calls {
            let into = store.calls.entry(key).or_default();
            for (b, bytes) in batches {
                if into.insert(b, bytes).is_some() {
                    return Err(bad(&p.path, tr!(s.lang, "merge.batch_twice"), s.lang));
                }
            }
        }
    }
    let lang = super::language::choose(&cli)?;
    let session = super::Session::in_mode(quiet, lang, Mode::replay(store), None);
    super::run_command(&cli, &session)?;
    let computed = session.mode.map_or(0, Mode::computed_at_merge);
    if computed > 0 && !quiet {
        super::say(&tr!(session.lang, "merge.computed", batches = computed));
    }
    Ok(())
}
