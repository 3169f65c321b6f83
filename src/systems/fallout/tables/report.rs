use crate::context::{Context, Method};
use crate::report::Output;

use super::{help_output, luck_output, test_output, HelpGrid, LuckGrid, TestGrid};

/// The default 2d20 tables and the Monte Carlo cross-check of `fallout-test` (`trials`
/// per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let grid = TestGrid::full(1);
    let exact = test_output(&grid, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&grid, ctx, Method::Mc, trials)?;
    mc.key_figures.insert(0, coverage(&exact, &mc)?);
    mc.name = "fallout-test-mc".into();
    mc.title = "Monte Carlo cross-check of the 2d20 test table".into();
    mc.provenance.output = mc.name.clone();
    Ok(vec![
        exact,
        mc,
        help_output(&HelpGrid::full(1), ctx)?,
        luck_output(&LuckGrid::full(), ctx)?,
    ])
}

fn col(o: &Output, name: &str) -> anyhow::Result<Vec<f64>> {
    Ok(o.frame.column(name)?.f64()?.into_no_null_iter().collect())
}

/// "k of n values inside their 95% interval; largest gap x".
pub(crate) fn coverage(exact: &Output, mc: &Output) -> anyhow::Result<String> {
    let (mut inside, mut n, mut gap) = (0usize, 0usize, 0.0f64);
    for c in ["p_pass", "mean_ap", "p_complication"] {
        let (e, m) = (col(exact, c)?, col(mc, c)?);
        let (lo, hi) = (col(mc, &format!("{c}_lo"))?, col(mc, &format!("{c}_hi"))?);
        for i in 0..e.len() {
            n += 1;
            inside += usize::from(lo[i] <= e[i] + 1e-12 && e[i] <= hi[i] + 1e-12);
            gap = gap.max((m[i] - e[i]).abs());
        }
    }
    Ok(format!(
        "{inside} of {n} (cell, column) values ({:.1}%) have the exact value inside the 95% interval; largest |MC - exact| = {gap:.5}",
        100.0 * inside as f64 / n as f64
    ))
}
