use crate::cli::TableCommand;

use super::{publish_set, say, signals, write_outputs};

/// `cosmosim table <name>`: the system computes, this layer writes the set. A Monte Carlo
/// table is named `<name>-mc`, as in `report`, so it never replaces the exact table.
pub fn table(cmd: &TableCommand, quiet: bool) -> anyhow::Result<()> {
    let run = cmd.run_args();
    let ctx = run.context(quiet)?;
    if !quiet {
        for w in ctx.options.foreign_to(cmd.system()) {
            say(&format!("warning: {w}"));
        }
    }
    publish_set(&run.out, quiet, |staging| {
        let mut outputs = cmd.compute(&ctx)?;
        signals::check()?;
        for o in outputs.iter_mut() {
            if o.provenance.method != "exact" && !o.name.ends_with("-mc") {
                o.name = format!("{}-mc", o.name);
                o.provenance.output = o.name.clone();
            }
        }
        write_outputs(&mut outputs, staging)
    })
}
