use crate::context::{Context, Method};
use crate::report::{class_columns, coverage, Output};

use super::{
    dice_output, initiative_output, magic_mc_output, magic_output, meta_output, report_magic_grid,
    test_output, MagicGrid, DEFAULT_KA,
};

/// Default margins of `nephilim-test`: wide enough for the d6 option's +-10 swing.
pub const DEFAULT_MARGINS: std::ops::RangeInclusive<i64> = -8..=8;
/// Rapidité + Réaction differences of the rulebook's omitted table.
pub const DEFAULT_DIFFERENCES: std::ops::RangeInclusive<i64> = -3..=14;

/// Every Nephilim table with default settings plus Monte Carlo cross-checks.
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let lang = ctx.lang;
    let margins: Vec<i64> = DEFAULT_MARGINS.collect();
    let diffs: Vec<i64> = DEFAULT_DIFFERENCES.collect();
    let mut out = vec![dice_output(ctx)?];
    let exact = test_output(&margins, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&margins, ctx, Method::Mc, trials)?
        .renamed("nephilim-test-mc", tr!(lang, "nephilim.tables.mc_test"));
    let classes = ["crit_success", "success", "failure", "crit_failure"];
    mc.key_figures.insert(
        0,
        coverage(&exact, &mc, &class_columns(&classes))?
            .sentence(tr!(lang, "nephilim.tables.mc_what"), lang),
    );
    out.push(exact);
    out.push(mc);
    let exact = initiative_output(&diffs, ctx, Method::Exact, 0)?;
    let mut mc = initiative_output(&diffs, ctx, Method::Mc, trials)?.renamed(
        "nephilim-initiative-mc",
        tr!(lang, "nephilim.tables.mc_initiative"),
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
    mc.key_figures
        .insert(0, c.sentence(tr!(lang, "nephilim.tables.mc_what"), lang));
    out.push(exact);
    out.push(mc);
    out.push(magic_output(&MagicGrid::default(), ctx)?);
    // N-MAGIC cross-check on a smaller grid (180 cells): the exact values of the same
    // cells against the Monte Carlo 95% intervals.
    let small = report_magic_grid();
    let exact = magic_output(&small, ctx)?;
    let mut mc = magic_mc_output(&small, ctx, trials)?
        .renamed("nephilim-magic-mc", tr!(lang, "nephilim.tables.mc_magic"));
    let c = coverage(
        &exact,
        &mc,
        &[
            (
                "p_concentration",
                "p_concentration_lo",
                "p_concentration_hi",
            ),
            ("p_works", "p_works_lo", "p_works_hi"),
        ],
    )?;
    mc.key_figures
        .insert(0, c.sentence(tr!(lang, "nephilim.tables.mc_what"), lang));
    out.push(mc);
    let ka: Vec<i64> = DEFAULT_KA.collect();
    out.push(meta_output(&ka, ctx)?);
    Ok(out)
}
