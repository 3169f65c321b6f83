use crate::context::{Context, Method};
use crate::report::{class_columns, coverage, Output};
use crate::systems::cosmos::Outcome;

use super::{karma_drift_output, test_output, KarmaDriftParams, TestGrid};

/// The default tables and their Monte Carlo cross-checks (`trials` per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let mut outputs = Vec::new();
    let grid = TestGrid {
        thresholds: (20..=85).collect(),
        karma: (-10..=10).collect(),
        modifier: 0.0,
        crit_fail_from: crate::systems::cosmos::TestRules::from_options(&ctx.options)
            .crit_failure_from,
    };
    let exact = test_output(&grid, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&grid, ctx, Method::Mc, trials)?
        .renamed("cosmos-test-mc", tr!(ctx.lang, "cosmos.table.mc_title"));
    let names: Vec<&str> = Outcome::ALL.iter().map(|o| o.name()).collect();
    let c = coverage(&exact, &mc, &class_columns(&names))?;
    mc.key_figures.insert(
        0,
        c.sentence(tr!(ctx.lang, "cosmos.table.mc_what"), ctx.lang),
    );
    outputs.push(exact);
    outputs.push(mc);

    let drift = KarmaDriftParams {
        thresholds: (20..=85).collect(),
        burn_in: 1_000,
        crit_fail_from: crate::systems::cosmos::TestRules::from_options(&ctx.options)
            .crit_failure_from,
    };
    let exact = karma_drift_output(&drift, ctx, Method::Exact, 0)?;
    let mut mc = karma_drift_output(&drift, ctx, Method::Mc, 10 * trials)?.renamed(
        "cosmos-karma-drift-mc",
        tr!(ctx.lang, "cosmos.drift.mc_title"),
    );
    let c = coverage(
        &exact,
        &mc,
        &[("p_stationary", "p_stationary_lo", "p_stationary_hi")],
    )?;
    mc.key_figures.insert(
        0,
        c.sentence(tr!(ctx.lang, "cosmos.drift.mc_what"), ctx.lang),
    );
    outputs.push(exact);
    outputs.push(mc);
    Ok(outputs)
}
