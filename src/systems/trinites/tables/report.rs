use crate::context::{Context, Method};
use crate::report::{coverage, Output};

use super::{conf_output, test_output, ConfGrid, TestGrid};

/// The default tables plus a Monte Carlo cross-check of the test table (`trials` per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let lang = ctx.lang;
    let grid = TestGrid {
        modifiers: (-12..=12).collect(),
    };
    let exact = test_output(&grid, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&grid, ctx, Method::Mc, trials)?
        .renamed("trinites-test-mc", tr!(lang, "trinites.tables.mc_title"));
    let c = coverage(
        &exact,
        &mc,
        &[("p_success", "p_success_lo", "p_success_hi")],
    )?;
    mc.key_figures
        .insert(0, c.sentence(tr!(lang, "trinites.tables.mc_what"), lang));
    let conf = conf_output(
        &ConfGrid {
            modifiers_a: (-12..=12).collect(),
            modifiers_b: (-12..=12).collect(),
        },
        ctx,
        Method::Exact,
        0,
    )?;
    Ok(vec![exact, mc, conf])
}
