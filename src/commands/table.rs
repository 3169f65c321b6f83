use crate::cli::{PrecisionArgs, TableCommand};

use super::{run_to_precision, say, signals, Session};

/// `cosmosim table <name>`: the system computes, this layer writes the set. A Monte Carlo
/// table is named `<name>-mc`, as in `report`, so it never replaces the exact table.
/// With `--precision`, the trial count grows until every interval is narrow enough.
pub fn table(cmd: &TableCommand, precision: &PrecisionArgs, s: &Session) -> anyhow::Result<()> {
    let quiet = s.quiet;
    let goal = super::precision::goal(precision, s.lang)?;
    let run = cmd.run_args();
    let ctx = run.context(quiet, s.mode, s.lang)?;
    // Warnings print whatever --quiet says (it silences progress and file lists).
    for w in ctx.options.foreign_to(cmd.system(), s.lang) {
        super::warn(&w, s.lang);
    }
    s.publish(&run.out, |staging| {
        let mut outputs = match &goal {
            None => cmd.compute(&ctx)?,
            Some(p) => {
                let r = run_to_precision(p, |t| cmd.with_trials(t).compute(&ctx), |v| v, s.lang)?;
                let sentence = r.sentence(p, s.lang);
                if !quiet {
                    say(&sentence);
                }
                let mut outputs = r.value;
                for o in outputs.iter_mut() {
                    o.key_figures.insert(0, sentence.clone());
                    o.provenance = o.provenance.clone().with_param("precision", p.half_width);
                }
                outputs
            }
        };
        signals::check()?;
        for o in outputs.iter_mut() {
            if o.provenance.method != "exact" && !o.name.ends_with("-mc") {
                o.name = format!("{}-mc", o.name);
                o.provenance.output = o.name.clone();
            }
        }
        s.write_outputs(&mut outputs, staging)
    })
}
