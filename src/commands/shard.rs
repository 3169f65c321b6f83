//! `--shard I/N`: run one shard of `run`, `sweep`, `table` or `report` and publish a
//! **partial** folder (the accumulators of the batches this shard owns and a manifest)
//! instead of the command's outputs. `cosmosim merge` (merge.rs) puts the parts together.
//! The engine does the cutting (`engine::shard`): every command shards the same way.

use super::user;
use crate::lang::Lang;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

pub use crate::args::shard::{parse_shard, ShardArg, AUTO_VARIABLES};
use crate::cli::{Cli, Command};
use crate::engine::shard::{self, Accumulators, Mode, ShardId, ShardSink};
use crate::error::UserError;
pub use crate::report::file_sha256 as sha256_hex;
use crate::report::write_atomic;

use super::{shipped_scenarios, signals, Staging};

/// What identifies a partial folder's format; bumped when the layout changes (2: the
/// build identity).
pub const FORMAT: &str = "cosmosim-partial/2";
/// This binary's build identity (build.rs): parts merge only into the build that made
/// them, since engine calls are keyed by the simulations' type names.
pub const BUILD_ID: &str = env!("COSMOSIM_BUILD_ID");
/// The commands `--shard` runs, hence the only ones a manifest may name.
pub const SHARD_COMMANDS: &[&str] = &["run", "sweep", "table", "report"];
/// Flags a recorded command never holds (the merge adds its own).
const NOT_RECORDED: &[&str] = &["--out", "--shard", "--threads", "--quiet", "-q"];
pub const MANIFEST: &str = "manifest.json";
pub const ACCUMULATORS: &str = "accumulators.bin";

/// A partial folder's manifest: what must match for parts to be merged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: String,
    pub tool_version: String,
    /// The build identity of the binary that made the part ([`BUILD_ID`]).
    pub build: String,
    /// The random streams' derivation ([`crate::engine::STREAM_VERSION`]); parts of
    /// another version hold other numbers under the same names (0: a part from before
    /// the version was recorded).
    #[serde(default)]
    pub stream_version: u32,
    /// The command line without the program name, `--shard`, `--out`, `--threads` and
    /// `--quiet` (which never change results): the merge re-runs exactly this.
    pub command: Vec<String>,
    /// Seed, trials and rule options as given on the command line (null: the scenario
    /// file's or the default), for people reading the manifest; `command` holds them too.
    pub seed: Option<u64>,
    pub trials: Option<u64>,
    pub options: Vec<String>,
    /// SHA-256 of every input file the command reads (path as given -> hash).
    pub inputs: Vec<(String, String)>,
    pub shard: ShardId,
    pub accumulators: AccFile,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AccFile {
    pub file: String,
    pub bytes: u64,
    pub sha256: String,
    pub calls: u64,
    pub batches: u64,
}

impl Manifest {
    /// What parts of one run share (everything but the shard index and the data).
    pub fn run_identity(&self) -> impl PartialEq + std::fmt::Debug + '_ {
        (
            &self.format,
            &self.tool_version,
            &self.build,
            self.stream_version,
            &self.command,
            &self.inputs,
            self.shard.count,
        )
    }
}

impl Manifest {
    /// Everything a manifest must satisfy on its own, whatever wrote it: the shard within
    /// its count, the one accumulators file name (never a path), a size within the cap, a
    /// SHA-256 of 64 hex digits, and a command without the flags a part never records.
    /// The command's subcommand is checked by the merge, which parses it.
    pub fn validate(&self, lang: Lang) -> Result<(), String> {
        let ShardId { index, count } = self.shard;
        if count == 0 || count > shard::MAX_SHARDS || index == 0 || index > count {
            return Err(tr!(
                lang,
                "safety.parts.shard",
                index,
                count,
                max = shard::MAX_SHARDS
            ));
        }
        if self.accumulators.file != ACCUMULATORS {
            return Err(tr!(
                lang,
                "safety.parts.file",
                file = crate::limits::clip(&self.accumulators.file, lang),
                expected = ACCUMULATORS
            ));
        }
        if self.accumulators.bytes > crate::input::MAX_PART_BYTES {
            return Err(tr!(
                lang,
                "safety.parts.bytes",
                bytes = self.accumulators.bytes,
                max = crate::input::MAX_PART_BYTES
            ));
        }
        let hex = &self.accumulators.sha256;
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(tr!(lang, "safety.parts.sha256").to_string());
        }
        let flag = self.command.iter().find(|a| {
            NOT_RECORDED
                .iter()
                .any(|f| *a == f || a.starts_with(&format!("{f}=")))
        });
        if self.command.is_empty() || flag.is_some() {
            return Err(tr!(
                lang,
                "safety.parts.command_flag",
                flag = crate::limits::clip(flag.map_or("", String::as_str), lang)
            ));
        }
        if self.build.is_empty() || self.build.len() > 64 {
            return Err(tr!(lang, "safety.parts.no_build").to_string());
        }
        Ok(())
    }

    /// Checks that the decoded accumulators hold what the manifest announces.
    pub fn matches(&self, acc: &Accumulators) -> bool {
        let batches: u64 = acc.calls.values().map(|b| b.len() as u64).sum();
        acc.calls.len() as u64 == self.accumulators.calls
            && batches == self.accumulators.batches
            && acc.calls.keys().all(|k| !k.sim.is_empty())
    }
}

/// The command line a partial records: the arguments without the program name and the
/// flags that never change results.
pub fn recorded_command(args: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter().skip(1);
    while let Some(a) = it.next() {
        // Kept in step with NOT_RECORDED, which a manifest is checked against.
        if ["--out", "--shard", "--threads"].contains(&a.as_str()) {
            it.next();
        } else if ["--out=", "--shard=", "--threads="]
            .iter()
            .any(|p| a.starts_with(p))
            || a == "-q"
            || a == "--quiet"
        {
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// The input files a command reads: a scenario file, or for `report` every shipped
/// scenario and expectations file. Tables read none.
pub fn input_files(cli: &Cli) -> Vec<PathBuf> {
    match &cli.command {
        // With the files the scenario links (audit of 2026-12-07 afternoon): parts run
        // against two versions of an expedition's combat file must not merge.
        Command::Run(a) => with_linked(&a.file),
        Command::Sweep(a) => with_linked(&a.scenario.file),
        Command::Report(_) => {
            let mut v = shipped_scenarios(Path::new("scenarios"));
            v.extend(shipped_scenarios(Path::new("balance")));
            v
        }
        _ => Vec::new(),
    }
}

fn with_linked(file: &Path) -> Vec<PathBuf> {
    let mut v = vec![file.to_path_buf()];
    v.extend(crate::systems::linked_inputs(file));
    v
}

/// (path, SHA-256) of each input; an unreadable file is left to the command to report.
pub fn hash_inputs(files: &[PathBuf]) -> Vec<(String, String)> {
    files
        .iter()
        .map(|p| {
            let h = crate::input::read_file(p, crate::input::MAX_TEXT_BYTES)
                .map(|b| sha256_hex(&b))
                .unwrap_or_else(|_| "unreadable".into());
            (p.display().to_string(), h)
        })
        .collect()
}

/// Runs the command of `cli` as shard `arg`: sets the engine's mode, then dispatches; the
/// command's `publish_set` publishes the partial (see [`publish_partial`]).
pub fn run_shard(cli: &Cli, arg: ShardArg, lang: Lang) -> anyhow::Result<()> {
    let id = arg.resolve(|v| std::env::var(v).ok(), lang)?;
    let precision = match &cli.command {
        Command::Run(a) => a.precision.precision,
        Command::Sweep(a) => a.scenario.precision.precision,
        Command::Table { precision, .. } => precision.precision,
        Command::Report(_) => None,
        _ => return Err(user(tr!(lang, "shard.not_for_merge"))),
    };
    if precision.is_some() {
        return Err(user(tr!(lang, "shard.with_precision")));
    }
    let args: Vec<String> = std::env::args_os()
        .map(|a| a.into_string())
        .collect::<Result<_, _>>()
        .map_err(|a| UserError::new(tr!(lang, "shard.not_utf8", argument = format!("{a:?}"))))?;
    // A partial never lands in a default output folder such as reports/.
    if !args.iter().any(|a| a == "--out" || a.starts_with("--out=")) {
        return Err(user(tr!(lang, "shard.needs_out")));
    }
    let (seed, trials, options) = match &cli.command {
        Command::Run(a) => (a.seed, a.trials, a.options.clone()),
        Command::Sweep(a) => (
            a.scenario.seed,
            a.scenario.trials,
            a.scenario.options.clone(),
        ),
        Command::Report(a) => (Some(a.run.seed), Some(a.trials), a.run.options.clone()),
        Command::Table { table, .. } => {
            let r = table.run_args();
            (Some(r.seed), None, r.options.clone())
        }
        _ => (None, None, Vec::new()),
    };
    let manifest = Manifest {
        format: FORMAT.into(),
        tool_version: env!("CARGO_PKG_VERSION").into(),
        build: BUILD_ID.into(),
        stream_version: crate::engine::STREAM_VERSION,
        command: recorded_command(&args),
        seed,
        trials,
        options,
        inputs: hash_inputs(&input_files(cli)),
        shard: id,
        accumulators: AccFile {
            file: ACCUMULATORS.into(),
            bytes: 0,
            sha256: String::new(),
            calls: 0,
            batches: 0,
        },
    };
    let session = super::Session::in_mode(cli.quiet, lang, Mode::shard(id), Some(manifest));
    super::run_command(cli, &session)
}

/// `publish_set` of a shard: runs the command's `produce` into a scratch folder (outputs
/// are skipped, see `write_outputs`), then publishes the partial folder at `target`.
pub fn publish_partial(
    target: &Path,
    quiet: bool,
    mode: &Mode,
    mut manifest: Manifest,
    produce: impl FnOnce(&Path) -> anyhow::Result<Vec<PathBuf>>,
    lang: Lang,
) -> anyhow::Result<()> {
    let staging = Staging::prepare(target, lang)?;
    let scratch = staging.dir().join(".scratch");
    std::fs::create_dir_all(&scratch)?;
    produce(&scratch)?;
    std::fs::remove_dir_all(&scratch)?;
    signals::check()?;
    let ShardSink { acc, clash } = mode.take_sink().unwrap_or_default();
    if let Some(k) = clash {
        anyhow::bail!(
            "engine call {} (seed {}, task {}, {} trials) was made twice with different \
             results: its shards could not be merged; please report this",
            k.sim,
            k.seed,
            k.task,
            k.trials
        );
    }
    let bytes = shard::encode(&acc);
    manifest.accumulators = AccFile {
        file: ACCUMULATORS.into(),
        bytes: bytes.len() as u64,
        sha256: sha256_hex(&bytes),
        calls: acc.calls.len() as u64,
        batches: acc.calls.values().map(|b| b.len() as u64).sum(),
    };
    write_atomic(&staging.dir().join(ACCUMULATORS), &bytes, lang)?;
    let json = serde_json::to_string_pretty(&manifest)? + "\n";
    write_atomic(&staging.dir().join(MANIFEST), json.as_bytes(), lang)?;
    staging.publish(lang)?;
    if !quiet {
        super::say(&tr!(
            lang,
            "shard.wrote",
            index = manifest.shard.index,
            count = manifest.shard.count,
            target = target.display(),
            bytes = bytes.len()
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(pairs: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn shard_flags_parse_and_refuse() {
        assert_eq!(
            parse_shard("2/8"),
            Ok(ShardArg::Fixed(ShardId { index: 2, count: 8 }))
        );
        assert_eq!(parse_shard("auto/3"), Ok(ShardArg::Auto { count: 3 }));
        for bad in ["0/3", "4/3", "3", "a/3", "1/0", "1/1000001"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn auto_reads_each_engine_with_its_base() {
        let auto = ShardArg::Auto { count: 4 };
        let id = |i| Ok(ShardId { index: i, count: 4 });
        assert_eq!(
            auto.resolve(env(&[("COSMOSIM_SHARD_INDEX", "4")]), Lang::En),
            id(4)
        );
        assert_eq!(
            auto.resolve(env(&[("JOB_COMPLETION_INDEX", "0")]), Lang::En),
            id(1)
        );
        assert_eq!(
            auto.resolve(env(&[("CI_NODE_INDEX", "2")]), Lang::En),
            id(2)
        );
        let slurm = [
            ("SLURM_ARRAY_TASK_ID", "7"),
            ("SLURM_ARRAY_TASK_MIN", "5"),
            ("SLURM_ARRAY_TASK_COUNT", "4"),
        ];
        assert_eq!(auto.resolve(env(&slurm), Lang::En), id(3));
        assert!(auto
            .resolve(env(&[("JOB_COMPLETION_INDEX", "4")]), Lang::En)
            .is_err());
        assert!(auto
            .resolve(
                env(&[("CI_NODE_INDEX", "1"), ("CI_NODE_TOTAL", "5")]),
                Lang::En
            )
            .is_err());
        assert!(auto.resolve(env(&[]), Lang::En).is_err());
    }

    #[test]
    fn the_recorded_command_drops_what_never_changes_results() {
        let a: Vec<String> = [
            "cosmosim",
            "-q",
            "run",
            "x.toml",
            "--out",
            "p/1",
            "--shard=1/2",
            "--threads",
            "2",
            "--trials",
            "9",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        assert_eq!(recorded_command(&a), ["run", "x.toml", "--trials", "9"]);
    }
}
