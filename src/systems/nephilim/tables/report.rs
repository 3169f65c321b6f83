use crate::context::{Context, Method};
use crate::report::{class_columns, coverage, Output};

use super::{dice_output, initiative_output, magic_output, test_output, MagicGrid};

/// Default margins of `nephilim-test`: wide enough for the d6 option's +-10 swing.
pub const DEFAULT_MARGINS: std::ops::RangeInclusive<i64> = -8..=8;
/// Rapidité + Réaction differences of the rulebook's omitted table.
pub const DEFAULT_DIFFERENCES: std::ops::RangeInclusive<i64> = -3..=14;

/// Every Nephilim table with default settings plus Monte Carlo cross-checks.
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let margins: Vec<i64> = DEFAULT_MARGINS.collect();
    let diffs: Vec<i64> = DEFAULT_DIFFERENCES.collect();
    let mut out = vec![dice_output(ctx)?];
    let exact = test_output(&margins, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&margins, ctx, Method::Mc, trials)?.renamed(
        "nephilim-test-mc",
        "Monte Carlo cross-check of the Nephilim test table",
    );
    let classes = ["crit_success", "success", "failure", "crit_failure"];
    mc.key_figures.insert(
        0,
        coverage(&exact, &mc, &class_columns(&classes))?.sentence("probabilities"),
    );
    out.push(exact);
    out.push(mc);
    let exact = initiative_output(&diffs, ctx, Method::Exact, 0)?;
    let mut mc = initiative_output(&diffs, ctx, Method::Mc, trials)?.renamed(
        "nephilim-initiative-mc",
        "Monte Carlo cross-check of the Nephilim initiative table",
    );
    let c = coverage(
        &exact,
        &mc,
        &[(
            "p_earlier_segment",
            "p_earlier_segment_lo",
            "p_earlier_segment_hi",
        )],
    )?;
    mc.key_figures.insert(0, c.sentence("probabilities"));
    out.push(exact);
    out.push(mc);
    out.push(magic_output(&MagicGrid::default(), ctx)?);
    Ok(out)
}
