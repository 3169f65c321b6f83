//! Every size a user can ask for has a cap, checked before any work starts, the same for
//! a flag and for a file key. Past the cap the tool answers with exit 2 and the cap in the
//! message instead of running for hours or running out of memory.

use crate::error::UserError;
use crate::lang::{Lang, Words};

/// Trials of one table cell, grid point or scenario run (flags and `[run] trials`).
/// The share of unfinished trials (round cap) above which runs warn, unless a file's
/// `[run] stalemate_warning` says otherwise (`balance::stalemate`).
pub const DEFAULT_STALEMATE_WARNING: f64 = 0.05;
pub const MAX_TRIALS: u64 = 1_000_000_000_000;
/// Worker threads (`--threads`); 0 means one per core.
pub const MAX_THREADS: usize = 1024;
/// Grid points of one `sweep` unless `--max-points` raises it.
pub const DEFAULT_MAX_GRID_POINTS: u64 = 10_000;
/// The most `--max-points` can allow. Each point sets up its own simulation (about 5 ms
/// on one core even at 1 trial) and keeps about 1 KB until the CSV is written: 10^5
/// points is ten minutes and ~130 MB at most; 10^6 was hours and a gigabyte.
pub const MAX_GRID_POINTS: u64 = 100_000;
/// Chance values of a mutation scenario's `[mutation.sweep] chance` list: one per Chance
/// 1..100 (a repeat only repeats a cell).
pub const MAX_MUTATION_SWEEP_CHANCES: usize = 100;
/// Karma values of `[mutation.sweep] karma`: one per karma -10..10.
pub const MAX_MUTATION_SWEEP_KARMAS: usize = 21;
/// Cells of a mutation sweep (Chance x karma), each run at the scenario's trials: every
/// distinct pair once, 2 100, under a `sweep`'s default of [`DEFAULT_MAX_GRID_POINTS`].
pub const MAX_MUTATION_SWEEP_CELLS: usize = MAX_MUTATION_SWEEP_CHANCES * MAX_MUTATION_SWEEP_KARMAS;
/// Tests discarded at the start of each simulated karma trajectory (`--burn-in`).
pub const MAX_BURN_IN: u64 = 10_000_000;
/// `[[expect]]` entries of one expectations file.
pub const MAX_EXPECTATIONS: usize = 1_000;
/// Rows of a published table (`table_file`) an expectation compares cell by cell.
pub const MAX_TABLE_FILE_ROWS: usize = 100_000;
/// Trials one `expect` run may ask for in all: the sum, over every expectation of every
/// file, of the trials of its last look (see `ExpectFile::trials_asked`). 10^10 is hours
/// of combat already; a file past it is refused before anything runs.
pub const MAX_EXPECT_TRIALS: u64 = 10_000_000_000;
/// Files one `expect` run reads.
pub const MAX_EXPECT_FILES: usize = 100;
/// Outputs (CSV + .meta.json pairs) `compare` reads from one folder.
pub const MAX_COMPARE_OUTPUTS: usize = 10_000;
/// Rule variants in one variants file (the book rules come on top).
pub const MAX_VARIANTS: usize = 32;
/// Tables and scenarios one variants file studies.
pub const MAX_STUDY: usize = 32;
/// Headline figures of one variants file.
pub const MAX_HEADLINES: usize = 32;
/// Seeds are any 64-bit value; listed for the documentation of caps.
pub const MAX_SEED: u64 = u64::MAX;

/// Checks a trial count from any source (`what` names the flag or key).
pub fn check_trials(what: &str, trials: u64, lang: Lang) -> Result<u64, UserError> {
    if trials == 0 || trials > MAX_TRIALS {
        return Err(UserError::new(tr!(
            lang,
            "cli.trials_out_of_range",
            what,
            trials,
            max = MAX_TRIALS
        )));
    }
    Ok(trials)
}

/// Checks a trial count read from a file key whose error names the file, line and key
/// itself: the message and the allowed range (`check_trials` puts both in its message).
pub fn check_file_trials(trials: u64, max: u64, lang: Lang) -> Result<u64, (String, String)> {
    if trials == 0 || trials > max {
        return Err((
            tr!(lang, "run.trials_out_of_range", trials),
            format!("1..{max}"),
        ));
    }
    Ok(trials)
}

/// Checks a thread count (`--threads`, already bounded by its flag; a library caller's).
pub fn check_threads(threads: usize) -> Result<usize, Words> {
    if threads > MAX_THREADS {
        return Err(words!(
            "cli.threads_out_of_range",
            threads = threads,
            max = MAX_THREADS
        ));
    }
    Ok(threads)
}

/// Parses a whole number for a flag, with its allowed range in any error.
pub fn parse_bounded(s: &str, lo: u64, hi: u64) -> Result<u64, crate::lang::Words> {
    let v: u64 = s.replace('_', "").parse().map_err(|_| {
        words!(
            "cli.not_whole_number",
            value = crate::lang::Clip(s),
            allowed = format!("{lo}..{hi}")
        )
    })?;
    if v < lo || v > hi {
        return Err(words!(
            "cli.out_of_range",
            value = v,
            allowed = format!("{lo}..{hi}")
        ));
    }
    Ok(v)
}

/// Parses a real number for a flag (`--target`, `--within`, `--tolerance`): NaN and the
/// infinities are refused, since no figure can equal them and a bisection toward them
/// answers nonsense with exit 0.
pub fn parse_finite(s: &str) -> Result<f64, crate::lang::Words> {
    // `50%`: the designer meant a share; say how to write it (issue 27 item 3).
    if let Some(pct) = s.trim().strip_suffix('%') {
        if let Ok(p) = pct.trim().parse::<f64>() {
            return Err(words!(
                "syntax.percent",
                value = crate::lang::Clip(s),
                share = p / 100.0
            ));
        }
    }
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| words!("safety.work.not_finite", value = crate::lang::Clip(s)))?;
    if !v.is_finite() {
        return Err(words!(
            "safety.work.not_finite",
            value = crate::lang::Clip(s)
        ));
    }
    Ok(v)
}

/// `lo-hi` written for a range (`100-300`, `0.2-0.8`): the `(lo, hi)` text when `s` reads
/// so, for a message that teaches `lo..hi` (issue 27 item 3).
pub fn dashed_range(s: &str) -> Option<(&str, &str)> {
    let s = s.trim();
    let cut = s.char_indices().skip(1).find(|&(_, c)| c == '-')?.0;
    let (lo, hi) = (&s[..cut], &s[cut + 1..]);
    (lo.parse::<f64>().is_ok() && hi.parse::<f64>().is_ok()).then_some((lo, hi))
}

/// As [`parse_finite`], at least 0 (`--within`, `--tolerance`).
pub fn parse_finite_non_negative(s: &str) -> Result<f64, crate::lang::Words> {
    let v = parse_finite(s)?;
    if v < 0.0 {
        return Err(words!("safety.work.negative", value = crate::lang::Clip(s)));
    }
    Ok(v)
}

/// A bad value shown in a message: at most 40 characters, so a pasted blob does not
/// flood the terminal.
pub fn clip(s: &str, lang: Lang) -> String {
    lang.clip(s)
}

/// A message with every quoted part (between `"` or backticks) longer than 40
/// characters clipped, so an error never echoes a pasted blob back in full.
pub fn clip_quoted(msg: &str, lang: Lang) -> String {
    let mut out = String::with_capacity(msg.len().min(4096));
    let mut rest = msg;
    while let Some(start) = rest.find(['"', '`']) {
        let quote = rest[start..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=start]);
        let after = &rest[start + 1..];
        // The key path a message names (`key `a.b.c``) is not a bad value: kept whole.
        let is_key = out.ends_with("key `") || out.ends_with(tr!(lang, "error.key_quote"));
        match after.find(quote) {
            Some(end) if is_key => {
                out.push_str(&after[..end]);
                out.push(quote);
                rest = &after[end + 1..];
            }
            Some(end) => {
                out.push_str(&clip(&after[..end], lang));
                out.push(quote);
                rest = &after[end + 1..];
            }
            None => {
                out.push_str(&clip(after, lang));
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dashes_and_percents_get_the_syntax_that_was_meant() {
        assert_eq!(dashed_range("100-300"), Some(("100", "300")));
        assert_eq!(dashed_range("0.2-0.8"), Some(("0.2", "0.8")));
        assert_eq!(dashed_range("-5-3"), Some(("-5", "3")));
        for not in ["-5", "-5,-3", "2d10-5", "to-first", "100..300"] {
            assert_eq!(dashed_range(not), None, "{not}");
        }
        let e = parse_finite("50%").unwrap_err();
        assert!(e.to_string().contains("0.5"), "{e}");
        assert!(parse_finite("abc").unwrap_err().to_string().contains("abc"));
    }

    #[test]
    fn caps_are_checked_with_the_range_in_the_message() {
        assert!(check_trials("--trials", 0, Lang::En)
            .unwrap_err()
            .0
            .contains("1..1000000000000"));
        assert!(check_trials("run.trials", MAX_TRIALS + 1, Lang::En).is_err());
        assert_eq!(check_trials("x", 5, Lang::En).unwrap(), 5);
        assert!(check_threads(100_000)
            .unwrap_err()
            .to_string()
            .contains("0..1024"));
        assert_eq!(check_threads(0).unwrap(), 0);
        assert!(parse_bounded("99999999999999", 0, MAX_BURN_IN)
            .unwrap_err()
            .to_string()
            .contains("0..10000000"));
    }

    #[test]
    fn quoted_parts_of_messages_are_clipped() {
        let long = "y".repeat(300);
        let m = clip_quoted(
            &format!("f.toml:1:1: invalid type: string \"{long}\", expected i64"),
            Lang::En,
        );
        assert!(m.len() < 120, "{m}");
        assert!(m.ends_with("expected i64"), "{m}");
        let m = clip_quoted(
            &format!("unknown variant `{long}`, expected `a` or `b`"),
            Lang::En,
        );
        assert!(
            m.contains("`a` or `b`") && m.contains("300 characters"),
            "{m}"
        );
        assert_eq!(clip_quoted("plain `ok` text", Lang::En), "plain `ok` text");
        let key = "combatants.hero.policy.aura_min_threshold_long";
        assert!(clip_quoted(&format!("f:1:1: key `{key}`: bad"), Lang::En).contains(key));
    }

    #[test]
    fn real_flags_refuse_nan_and_infinities() {
        for bad in ["NaN", "nan", "inf", "-inf", "infinity", "1e999", "x"] {
            let e = parse_finite(bad).unwrap_err();
            assert!(e.to_string().contains("finite"), "{bad}: {e}");
        }
        assert_eq!(parse_finite("-0.5").unwrap(), -0.5);
        assert!(parse_finite_non_negative("-0.01").is_err());
        assert_eq!(parse_finite_non_negative("0.01").unwrap(), 0.01);
    }

    #[test]
    fn long_values_are_clipped() {
        let long = "x".repeat(500);
        let c = clip(&long, Lang::En);
        assert!(c.chars().count() < 70, "{c}");
        assert!(c.contains("500 characters"));
        assert_eq!(clip("short", Lang::En), "short");
    }
}
