//! Argument types shared by the commands and by the systems' table declarations (seed,
//! threads, output folder, rule options, integer lists). They sit below the systems so
//! that systems never import the command line.

pub mod refusal;
pub mod shard;

use crate::lang::Lang;
use std::path::PathBuf;

use clap::Args;

use crate::context::Method;
use crate::limits::{parse_bounded, MAX_BURN_IN, MAX_THREADS, MAX_TRIALS};

/// Seed, threads and output folder, shared by every command that writes.
#[derive(Debug, Args, Clone)]
pub struct RunArgs {
    /// Seed of the random streams. Same seed + same inputs = same numbers.
    #[arg(long, allow_hyphen_values = true, default_value_t = 1)]
    pub seed: u64,
    /// Worker threads (0 = all cores, at most 1024). Never changes the results, only the
    /// speed.
    #[arg(long, allow_hyphen_values = true, default_value_t = 0, value_parser = parse_threads)]
    pub threads: usize,
    /// Folder the outputs are written to (created if missing).
    #[arg(long, default_value = "reports")]
    pub out: PathBuf,
    /// A rule variant, as key=value (repeatable). `cosmosim options` lists them all.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

impl RunArgs {
    /// The context these flags ask for: seed, threads, rule options; its engine computes
    /// in `mode` (a shard or a merge) when one is given.
    pub fn context(
        &self,
        quiet: bool,
        mode: Option<&'static crate::engine::shard::Mode>,
        lang: Lang,
    ) -> anyhow::Result<crate::context::Context> {
        let mut ctx = crate::context::Context::new(
            self.seed,
            self.threads,
            crate::rules::RuleOptions::from_pairs(&self.options, lang)?,
            quiet,
            lang,
        )?;
        ctx.engine = ctx.engine.in_mode(mode);
        Ok(ctx)
    }
}

/// How a table is computed.
#[derive(Debug, Args, Clone)]
pub struct MethodArgs {
    /// exact = probabilities from the dice distributions; mc = seeded Monte Carlo with 95%
    /// intervals.
    #[arg(long, value_enum, default_value = "exact")]
    pub method: Method,
    /// Monte Carlo trials per cell (with --method mc).
    #[arg(long, allow_hyphen_values = true, default_value_t = 1_000_000, value_parser = parse_trials)]
    pub trials: u64,
}

/// A list of integers given as a range, stepped range or comma list.
#[derive(Debug, Clone, PartialEq)]
pub struct IntList(pub Vec<i64>);

/// Parses comma-separated parts, each `a..b`, `a..b:step` or `a`, each value within `lo..=hi`.
pub fn parse_int_list(s: &str, lo: i64, hi: i64) -> Result<IntList, crate::lang::Words> {
    let num = |x: &str| -> Result<i64, crate::lang::Words> {
        x.trim()
            .parse::<i64>()
            .map_err(|_| words!("cli.list_not_whole_number", value = crate::lang::Clip(x)))
    };
    let mut values: Vec<i64> = Vec::new();
    for part in s.split(',') {
        if let Some((a, rest)) = part.split_once("..") {
            let (b, step) = match rest.split_once(':') {
                Some((b, st)) => (num(b)?, num(st)?),
                None => (num(rest)?, 1),
            };
            let a = num(a)?;
            // Bounds first, so a huge range is refused before it is spelled out.
            if let Some(bad) = [a, b].into_iter().find(|v| *v < lo || *v > hi) {
                return Err(words!(
                    "cli.list_out_of_range",
                    value = bad,
                    lo = lo,
                    hi = hi
                ));
            }
            if step <= 0 {
                return Err(words!("cli.step_not_positive", step = step));
            }
            if b < a {
                return Err(words!("cli.empty_range", a = a, b = b));
            }
            values.extend((a..=b).step_by(step as usize));
        } else {
            values.push(num(part)?);
        }
    }
    if let Some(bad) = values.iter().find(|v| **v < lo || **v > hi) {
        return Err(words!(
            "cli.list_out_of_range",
            value = bad,
            lo = lo,
            hi = hi
        ));
    }
    let mut sorted = values.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != values.len() {
        return Err(words!("cli.values_repeat"));
    }
    Ok(IntList(sorted))
}

pub fn parse_thresholds(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -100, 200)
}

pub fn parse_karma(s: &str) -> Result<IntList, crate::lang::Words> {
    parse_int_list(s, -10, 10)
}

pub fn parse_trials(s: &str) -> Result<u64, crate::lang::Words> {
    parse_bounded(s, 1, MAX_TRIALS)
}

/// `--threads`: 0 (one per core) to [`MAX_THREADS`].
pub fn parse_threads(s: &str) -> Result<usize, crate::lang::Words> {
    parse_bounded(s, 0, MAX_THREADS as u64).map(|t| t as usize)
}

/// `--burn-in`: 0 to [`MAX_BURN_IN`] tests.
pub fn parse_burn_in(s: &str) -> Result<u64, crate::lang::Words> {
    parse_bounded(s, 0, MAX_BURN_IN)
}

pub fn parse_modifier(s: &str) -> Result<f64, crate::lang::Words> {
    let m: f64 = s
        .trim_start_matches('+')
        .parse()
        .map_err(|_| words!("cli.modifier_not_number", value = crate::lang::Clip(s)))?;
    if !(-100.0..=100.0).contains(&m) {
        return Err(words!("cli.modifier_out_of_range", value = m));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn int_lists() {
        assert_eq!(
            parse_int_list("20..23", 0, 100).unwrap().0,
            vec![20, 21, 22, 23]
        );
        assert_eq!(
            parse_int_list("20..30:5", 0, 100).unwrap().0,
            vec![20, 25, 30]
        );
        assert_eq!(
            parse_int_list("-10..-8", -10, 10).unwrap().0,
            vec![-10, -9, -8]
        );
        assert_eq!(parse_int_list("55,30", 0, 100).unwrap().0, vec![30, 55]);
        assert!(parse_int_list("20..10", 0, 100).is_err());
        assert!(parse_int_list("0..300", 0, 100)
            .unwrap_err()
            .to_string()
            .contains("allowed values: 0..100"));
        assert!(parse_int_list("a", 0, 100).is_err());
        assert!(parse_int_list("1,1", 0, 100).is_err());
        assert_eq!(parse_int_list("8..9,50", 0, 100).unwrap().0, vec![8, 9, 50]);
    }
}
