//! What the tune and optimise pages share: the check of their racing's trial counts, the
//! rows at the answer, the table's figure cells and the page's closing sections.

use crate::balance::dec;
use crate::lang::Lang;
use crate::report::Provenance;

use super::{say, user};

/// The racing's trial counts (tune and optimise): the first look may not ask for more
/// trials than the last allows.
pub(super) fn check_trial_bounds(first: u64, max: u64, lang: Lang) -> anyhow::Result<()> {
    if first > max {
        return Err(user(tr!(lang, "check.first_above_max", first, max)));
    }
    Ok(())
}

/// The provenance of a tune or optimise answer: `p` (the command's own parameters) with
/// the rule options in force and the scenario file (path, sha256) from the first point's
/// run (`first`), and each flag of `flags` that changes the answer (audit of 2026-12-07:
/// `--where`, `--within`, `--option`... were missing, so two different runs wrote the same
/// provenance).
pub(super) fn with_run_settings(
    mut p: Provenance,
    first: Option<&Provenance>,
    flags: &[(&str, String)],
) -> Provenance {
    if let Some(f) = first {
        p.rule_options = f.rule_options.clone();
        p.scenario = f.scenario.clone();
    }
    for (k, v) in flags {
        p = p.with_param(k, v);
    }
    p
}

/// Each answer point's rows on the terminal (tune and optimise).
pub(super) fn say_rows(at_answer: &[(String, Vec<String>)], lang: Lang) {
    for (at, rows) in at_answer {
        say(&tr!(
            lang,
            "tune.rows_at",
            at,
            rows = dec(&rows.join("; "), lang)
        ));
    }
}

/// A point's figure and its 95% interval as the tune and optimise tables show them: six
/// decimals, and "exact" for a figure computed without trials.
pub(super) fn figure_cells(figure: f64, interval95: Option<(f64, f64)>, lang: Lang) -> [String; 2] {
    [
        dec(&format!("{figure:.6}"), lang),
        interval95
            .map(|(l, h)| {
                let b = |x| super::subject::bound(x, 6);
                dec(&format!("{} – {}", b(l), b(h)), lang)
            })
            .unwrap_or_else(|| tr!(lang, "tune.exact").into()),
    ]
}

/// What closes a tune or optimise page after its table: every row at the answer, the
/// warnings, the files written (`files`, the command's own words) and the provenance.
pub(super) fn page_end(
    at_answer: &[(String, Vec<String>)],
    warnings: &[String],
    files: &str,
    provenance: &Provenance,
    lang: Lang,
) -> String {
    format!(
        "\n{}{}{files}\n\n## {}\n\n{}\n",
        rows_section(at_answer, lang),
        warnings_section(warnings, lang),
        tr!(lang, "tune.provenance"),
        provenance.summary(lang)
    )
}

/// `## Every row at the answer`: each answer point with every row of the figure's
/// output (every outcome's share, not only the tuned one), or nothing.
fn rows_section(at_answer: &[(String, Vec<String>)], lang: Lang) -> String {
    if at_answer.is_empty() {
        return String::new();
    }
    let mut md = format!("## {}\n\n", tr!(lang, "tune.rows_title"));
    for (at, rows) in at_answer {
        md += &format!("- **{}**: ", crate::report::md_text(at));
        md += &rows
            .iter()
            .map(|r| dec(&crate::report::md_text(r), lang))
            .collect::<Vec<_>>()
            .join("; ");
        md += "\n";
    }
    md + "\n"
}

/// `## Warnings` with one line per warning (points whose trials stalled), or nothing.
pub(super) fn warnings_section(warnings: &[String], lang: Lang) -> String {
    if warnings.is_empty() {
        return String::new();
    }
    let mut s = format!("## {}\n\n", tr!(lang, "page.warnings"));
    for w in warnings {
        s += &format!("- {}\n", crate::report::md_text(w));
    }
    s + "\n"
}
