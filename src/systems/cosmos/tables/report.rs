use crate::context::{Context, Method};
use crate::report::Output;
use crate::systems::cosmos::Outcome;

use super::{karma_drift_output, test_output, KarmaDriftParams, TestGrid};

/// The default tables and their Monte Carlo cross-checks (`trials` per cell).
pub fn report_outputs(ctx: &Context, trials: u64) -> anyhow::Result<Vec<Output>> {
    let mut outputs = Vec::new();
    let grid = TestGrid {
        thresholds: (20..=85).collect(),
        karma: (-10..=10).collect(),
        modifier: 0.0,
        crit_fail_from: 91,
    };
    let exact = test_output(&grid, ctx, Method::Exact, 0)?;
    let mut mc = test_output(&grid, ctx, Method::Mc, trials)?;
    mc.key_figures.insert(0, coverage(&exact, &mc)?);
    rename(&mut mc, "cosmos-test-mc", "Monte Carlo cross-check of the test table");
    outputs.push(exact);
    outputs.push(mc);

    let drift = KarmaDriftParams {
        thresholds: (20..=85).collect(),
        burn_in: 1_000,
    };
    let exact = karma_drift_output(&drift, ctx, Method::Exact, 0)?;
    let mut mc = karma_drift_output(&drift, ctx, Method::Mc, 10 * trials)?;
    mc.key_figures.insert(0, drift_coverage(&exact, &mc)?);
    rename(&mut mc, "cosmos-karma-drift-mc", "Monte Carlo cross-check of karma drift");
    outputs.push(exact);
    outputs.push(mc);
    Ok(outputs)
}

fn rename(o: &mut Output, name: &str, title: &str) {
    o.name = name.to_string();
    o.title = title.to_string();
    o.provenance.output = name.to_string();
}

fn col(o: &Output, name: &str) -> anyhow::Result<Vec<f64>> {
    Ok(o.frame.column(name)?.f64()?.into_no_null_iter().collect())
}

/// "k of n cells inside their 95% interval; largest gap x".
fn coverage(exact: &Output, mc: &Output) -> anyhow::Result<String> {
    let (mut inside, mut n, mut gap) = (0usize, 0usize, 0.0f64);
    for o in Outcome::ALL {
        let e = col(exact, &format!("p_{}", o.name()))?;
        let m = col(mc, &format!("p_{}", o.name()))?;
        let lo = col(mc, &format!("{}_lo", o.name()))?;
        let hi = col(mc, &format!("{}_hi", o.name()))?;
        for i in 0..e.len() {
            n += 1;
            inside += usize::from(lo[i] <= e[i] && e[i] <= hi[i]);
            gap = gap.max((m[i] - e[i]).abs());
        }
    }
    Ok(format!(
        "{inside} of {n} (cell, class) probabilities ({:.1}%) have the exact value inside the 95% Wilson interval; largest |MC - exact| = {gap:.5}",
        100.0 * inside as f64 / n as f64
    ))
}

fn drift_coverage(exact: &Output, mc: &Output) -> anyhow::Result<String> {
    let e = col(exact, "p_stationary")?;
    let m = col(mc, "p_stationary")?;
    let lo = col(mc, "p_stationary_lo")?;
    let hi = col(mc, "p_stationary_hi")?;
    let inside = (0..e.len()).filter(|&i| lo[i] <= e[i] && e[i] <= hi[i]).count();
    let gap = (0..e.len()).map(|i| (m[i] - e[i]).abs()).fold(0.0, f64::max);
    Ok(format!(
        "{inside} of {} (threshold, karma) shares ({:.1}%) have the exact stationary value inside the 95% interval; largest |MC - exact| = {gap:.5}",
        e.len(),
        100.0 * inside as f64 / e.len() as f64
    ))
}
