use crate::cli::ReportArgs;
use crate::context::{Context, Method};
use crate::report::{write_index, Output};
use crate::rules::RuleOptions;
use crate::systems::cosmos::tables::{karma_drift_output, test_output, KarmaDriftParams, TestGrid};
use crate::systems::cosmos::Outcome;

use super::export;

const INTRO: &str = "Every table cosmosim knows, computed with default settings. Exact tables come \
from the dice distributions; each Monte Carlo cross-check re-derives a table by seeded \
simulation, and its 95% intervals should cover the exact value in about 95% of cells. \
Each output has a `.meta.json` with its full provenance (tool version, seed, trials, rule options, parameters).";

/// `cosmosim report`: every table, plus Monte Carlo cross-checks, and `index.md`.
pub fn report(a: &ReportArgs, quiet: bool) -> anyhow::Result<()> {
    let ctx = Context::new(a.run.seed, a.run.threads, RuleOptions::from_pairs(&a.run.options)?, quiet)?;
    let mut outputs: Vec<Output> = Vec::new();

    let grid = TestGrid {
        thresholds: (20..=85).collect(),
        karma: (-10..=10).collect(),
        modifier: 0.0,
        crit_fail_from: 91,
    };
    let exact = test_output(&grid, &ctx, Method::Exact, 0)?;
    let mut mc = test_output(&grid, &ctx, Method::Mc, a.trials)?;
    mc.key_figures.insert(0, coverage(&exact, &mc)?);
    rename(&mut mc, "cosmos-test-mc", "Monte Carlo cross-check of the test table");
    outputs.push(exact);
    outputs.push(mc);

    let drift = KarmaDriftParams {
        thresholds: (20..=85).collect(),
        burn_in: 1_000,
    };
    let exact = karma_drift_output(&drift, &ctx, Method::Exact, 0)?;
    let mut mc = karma_drift_output(&drift, &ctx, Method::Mc, 10 * a.trials)?;
    mc.key_figures.insert(0, drift_coverage(&exact, &mc)?);
    rename(&mut mc, "cosmos-karma-drift-mc", "Monte Carlo cross-check of karma drift");
    outputs.push(exact);
    outputs.push(mc);

    export(&mut outputs, &a.run.out, &ctx)?;
    let entries: Vec<_> = outputs.iter().map(|o| o.index_entry()).collect();
    write_index(&a.run.out, INTRO, &entries)?;
    ctx.say(&format!("wrote {}", a.run.out.join("index.md").display()));
    Ok(())
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
