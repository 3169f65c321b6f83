use crate::context::{Context, Method};
use crate::report::Output;

use super::{conf_output, test_output, ConfGrid, TestGrid};

/// The default tables plus a Monte Carlo cross-check of the test table (`trials` per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let grid = TestGrid {
        modifiers: (-12..=12).collect(),
    };
    let exact = test_output(&grid, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&grid, ctx, Method::Mc, trials)?;
    mc.key_figures.insert(0, coverage(&exact, &mc)?);
    mc.name = "trinites-test-mc".into();
    mc.title = "Monte Carlo cross-check of the Trinités test table".into();
    mc.provenance.output = mc.name.clone();
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

fn col(o: &Output, name: &str) -> anyhow::Result<Vec<f64>> {
    Ok(o.frame.column(name)?.f64()?.into_no_null_iter().collect())
}

fn coverage(exact: &Output, mc: &Output) -> anyhow::Result<String> {
    let e = col(exact, "p_success")?;
    let m = col(mc, "p_success")?;
    let lo = col(mc, "p_success_lo")?;
    let hi = col(mc, "p_success_hi")?;
    let inside = (0..e.len())
        .filter(|&i| lo[i] <= e[i] && e[i] <= hi[i])
        .count();
    let gap = (0..e.len())
        .map(|i| (m[i] - e[i]).abs())
        .fold(0.0, f64::max);
    Ok(format!(
        "{inside} of {} (modifier, dice) cells have the exact P(success) inside the 95% Wilson interval; largest |MC - exact| = {gap:.5}",
        e.len()
    ))
}
