use crate::context::{Context, Method};
use crate::report::{coverage, Output};

use super::{
    damage_output, help_output, luck_output, test_output, DamageGrid, HelpGrid, LuckGrid, TestGrid,
};

/// The default 2d20 tables and the Monte Carlo cross-check of `fallout-test` (`trials`
/// per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let lang = ctx.lang;
    let grid = TestGrid::full(1);
    let exact = test_output(&grid, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&grid, ctx, Method::Mc, trials)?
        .renamed("fallout-test-mc", tr!(lang, "fallout.tables.mc_title"));
    let c = coverage(
        &exact,
        &mc,
        &[
            ("p_pass", "p_pass_lo", "p_pass_hi"),
            ("mean_ap", "mean_ap_lo", "mean_ap_hi"),
            ("p_complication", "p_complication_lo", "p_complication_hi"),
        ],
    )?;
    mc.key_figures
        .insert(0, c.sentence(tr!(lang, "fallout.tables.mc_what"), lang));
    Ok(vec![
        exact,
        mc,
        help_output(&HelpGrid::full(1), ctx)?,
        luck_output(&LuckGrid::full(), ctx)?,
        damage_output(&DamageGrid::full(), ctx)?,
    ])
}
