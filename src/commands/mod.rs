//! One function per subcommand: build the context, compute, export.

mod options;
mod report;
mod run;
mod sweep;
mod table;

pub use options::list_options;
pub use report::report;
pub use run::{check, default_out, run, run_scenario, shipped_scenarios, write_scenario};
pub use sweep::sweep;
pub use table::table;

use std::path::{Path, PathBuf};

use crate::context::Context;
use crate::report::Output;

/// Writes outputs and lists the files on stderr (unless quiet).
pub(crate) fn export(
    outputs: &mut [Output],
    dir: &Path,
    ctx: &Context,
) -> anyhow::Result<Vec<PathBuf>> {
    let mut all = Vec::new();
    for o in outputs.iter_mut() {
        let files = o.write(dir)?;
        for f in &files {
            ctx.say(&format!("wrote {}", f.display()));
        }
        all.extend(files);
    }
    Ok(all)
}
