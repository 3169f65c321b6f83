//! `--shard I/N | auto/N` as typed on the command line, and the job engines' variables
//! `auto` reads (Slurm arrays, Kubernetes Indexed Jobs, GitLab parallel jobs, a GitHub
//! matrix through COSMOSIM_SHARD_INDEX). Below the commands, so `cli` can parse it.

use crate::engine::shard::{ShardId, MAX_SHARDS};
use crate::error::UserError;
use crate::lang::Lang;

/// Where `--shard auto/N` reads the shard's index, first found wins, with its base.
/// `SLURM_ARRAY_TASK_ID` counts from `SLURM_ARRAY_TASK_MIN` (any `--array=a-b` works).
pub const AUTO_VARIABLES: &[(&str, u64)] = &[
    ("COSMOSIM_SHARD_INDEX", 1),
    ("SLURM_ARRAY_TASK_ID", 0),
    ("JOB_COMPLETION_INDEX", 0),
    ("CI_NODE_INDEX", 1),
];

/// `--shard` as typed: `I/N` (1-based) or `auto/N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShardArg {
    Fixed(ShardId),
    Auto { count: u64 },
}

/// clap parser for `--shard`.
pub fn parse_shard(s: &str) -> Result<ShardArg, crate::lang::Words> {
    let (i, n) = s
        .split_once('/')
        .ok_or_else(|| words!("shard.usage", value = crate::lang::Clip(s)))?;
    let count = crate::limits::parse_bounded(n.trim(), 1, MAX_SHARDS)
        .map_err(|e| words!("shard.count", error => e))?;
    if i.trim() == "auto" {
        return Ok(ShardArg::Auto { count });
    }
    let index = crate::limits::parse_bounded(i.trim(), 1, count)
        .map_err(|e| words!("shard.index", error => e))?;
    Ok(ShardArg::Fixed(ShardId { index, count }))
}

impl ShardArg {
    /// The shard this process runs; `auto` reads [`AUTO_VARIABLES`] from `env`.
    pub fn resolve(
        self,
        env: impl Fn(&str) -> Option<String>,
        lang: Lang,
    ) -> Result<ShardId, UserError> {
        let count = match self {
            ShardArg::Fixed(id) => return Ok(id),
            ShardArg::Auto { count } => count,
        };
        for (var, base) in AUTO_VARIABLES {
            let Some(v) = env(var) else { continue };
            let bad =
                |why: &str| UserError::new(format!("--shard auto/{count}: {var}={}: {why}", &v));
            let raw: u64 = v
                .trim()
                .parse()
                .map_err(|_| bad(tr!(lang, "shard.auto.not_whole_number")))?;
            let min = match *var {
                "SLURM_ARRAY_TASK_ID" => match env("SLURM_ARRAY_TASK_MIN") {
                    Some(m) => m
                        .trim()
                        .parse::<u64>()
                        .map_err(|_| bad(tr!(lang, "shard.auto.min_not_whole_number")))?,
                    None => 0,
                },
                _ => *base,
            };
            let total = match *var {
                "SLURM_ARRAY_TASK_ID" => env("SLURM_ARRAY_TASK_COUNT"),
                "CI_NODE_INDEX" => env("CI_NODE_TOTAL"),
                _ => None,
            };
            if let Some(t) = total {
                if t.trim() != count.to_string() {
                    return Err(bad(&tr!(lang, "shard.auto.task_count", tasks = &t, count)));
                }
            }
            let index = raw
                .checked_sub(min)
                .map(|i| i + 1)
                .filter(|i| (1..=count).contains(i))
                .ok_or_else(|| {
                    bad(&tr!(
                        lang,
                        "shard.auto.outside",
                        shard = raw as i128 - min as i128 + 1,
                        min,
                        count
                    ))
                })?;
            return Ok(ShardId { index, count });
        }
        let names: Vec<&str> = AUTO_VARIABLES.iter().map(|(v, _)| *v).collect();
        Err(UserError::new(tr!(
            lang,
            "shard.auto.none_set",
            count,
            names = names.join(", ")
        )))
    }
}
