use crate::cli::TableCommand;
use crate::context::Context;
use crate::rules::RuleOptions;
use crate::systems::cosmos::tables::{karma_drift_output, test_output, KarmaDriftParams, TestGrid};

use super::export;

/// `cosmosim table <name>`.
pub fn table(cmd: &TableCommand, quiet: bool) -> anyhow::Result<()> {
    match cmd {
        TableCommand::CosmosTest(a) => {
            let ctx = Context::new(a.run.seed, a.run.threads, RuleOptions::from_pairs(&a.run.options)?, quiet)?;
            let grid = TestGrid {
                thresholds: a.thresholds.0.clone(),
                karma: a.karma.0.clone(),
                modifier: a.modifier,
                crit_fail_from: a.crit_fail_from,
            };
            let mut out = vec![test_output(&grid, &ctx, a.method.method, a.method.trials)?];
            export(&mut out, &a.run.out, &ctx)?;
        }
        TableCommand::CosmosKarmaDrift(a) => {
            let ctx = Context::new(a.run.seed, a.run.threads, RuleOptions::from_pairs(&a.run.options)?, quiet)?;
            let params = KarmaDriftParams {
                thresholds: a.thresholds.0.clone(),
                burn_in: a.burn_in,
            };
            let mut out = vec![karma_drift_output(&params, &ctx, a.method, a.trials)?];
            export(&mut out, &a.run.out, &ctx)?;
        }
    }
    Ok(())
}
