//! Stalemates, always visible (issue 27 item 2): a win rate tuned to 50% can hide fights
//! that never end. Every kind that stops at a round cap (or its own horizon) names that
//! end in its outcome table (`outcome = "round_cap"` in Great Cosmos combat, `undecided`
//! in the 2d20, Nephilim and Trinités fights); when its share passes the file's
//! `[run] stalemate_warning` (default 5%), `run`, `sweep`, `tune`, `optimise` and `expect`
//! say so, with the share and its interval.

use crate::lang::Lang;
use crate::report::Output;

use super::figures::{cell, roles, Cell, Role};

/// The default share of unfinished trials above which a warning is given.
pub const DEFAULT_WARNING: f64 = crate::limits::DEFAULT_STALEMATE_WARNING;

/// The outcome names of trials stopped by a cap rather than decided.
const UNFINISHED: &[&str] = &["round_cap", "undecided"];

/// One output row of unfinished trials: `figure [outcome=...]` and its share.
#[derive(Clone, Debug, PartialEq)]
pub struct Stalemate {
    /// `<output>.<column>`, as `figures` names it.
    pub figure: String,
    pub outcome: String,
    pub p: f64,
    pub lo: f64,
    pub hi: f64,
}

/// Every unfinished-trials row of `outputs`: an output keyed by `outcome` whose row is
/// one of [`UNFINISHED`], read from its first estimate (a share with its interval).
pub fn stalemates(outputs: &[Output]) -> Vec<Stalemate> {
    let mut out = Vec::new();
    for o in outputs {
        let f = &o.frame;
        let Some(share) = roles(o).into_iter().find_map(|(c, r)| match r {
            Role::Estimate { lo, hi } => Some((c, lo, hi)),
            _ => None,
        }) else {
            continue;
        };
        for row in 0..f.height() {
            let Cell::Text(name) = cell(f, "outcome", row) else {
                continue;
            };
            if !UNFINISHED.contains(&name.as_str()) {
                continue;
            }
            let num = |c: &str| cell(f, c, row).as_f64().unwrap_or(f64::NAN);
            out.push(Stalemate {
                figure: format!("{}.{}", o.name, share.0),
                outcome: name,
                p: num(&share.0),
                lo: num(&share.1),
                hi: num(&share.2),
            });
        }
    }
    out
}

/// The warnings for `outputs` at `threshold` (a share in 0..1), in the current language;
/// `at` as in [`warning`].
pub fn warnings(outputs: &[Output], threshold: f64, at: Option<&str>, lang: Lang) -> Vec<String> {
    stalemates(outputs)
        .into_iter()
        .filter(|s| s.p > threshold)
        .map(|s| warning(&s, threshold, at, lang))
        .collect()
}

/// One warning; `at` names the grid point or tuned value it was seen at.
pub fn warning(s: &Stalemate, threshold: f64, at: Option<&str>, lang: Lang) -> String {
    let text = tr!(
        lang,
        "stalemate.warning",
        share = lang.pct(s.p, 1),
        lo = lang.pct(s.lo, 1),
        hi = lang.pct(s.hi, 1),
        outcome = s.outcome,
        figure = s.figure,
        threshold = lang.pct(threshold, 0)
    );
    match at {
        Some(at) => tr!(lang, "stalemate.at", text, at),
        None => text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Provenance;
    use polars::prelude::*;

    fn sides(cap: f64) -> Output {
        let frame = df!(
            "outcome" => ["party", "troll", "round_cap"],
            "share" => [0.5, 0.5 - cap, cap],
            "share_lo" => [0.49, 0.49 - cap, cap - 0.01],
            "share_hi" => [0.51, 0.51 - cap, cap + 0.01],
        )
        .unwrap();
        Output {
            name: "combat-sides".into(),
            title: String::new(),
            question: String::new(),
            frame,
            figures: vec![],
            key_figures: vec![],
            provenance: Provenance::monte_carlo(
                "combat-sides",
                "cosmos",
                Default::default(),
                1,
                100,
            ),
        }
    }

    #[test]
    fn a_capped_share_above_the_threshold_is_named_with_its_interval() {
        let s = stalemates(&[sides(0.42)]);
        assert_eq!(s.len(), 1);
        assert_eq!(
            (s[0].figure.as_str(), s[0].outcome.as_str()),
            ("combat-sides.share", "round_cap")
        );
        assert_eq!(s[0].p, 0.42);
        let w = warnings(&[sides(0.42)], DEFAULT_WARNING, None, Lang::En);
        assert_eq!(w.len(), 1);
        assert!(
            w[0].contains("42.0%") && w[0].contains("round_cap"),
            "{}",
            w[0]
        );
        assert!(warnings(&[sides(0.04)], DEFAULT_WARNING, None, Lang::En).is_empty());
        assert_eq!(warnings(&[sides(0.04)], 0.01, None, Lang::En).len(), 1);
    }
}
