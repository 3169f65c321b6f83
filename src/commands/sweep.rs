use std::path::PathBuf;

use crate::cli::SweepArgs;
use crate::context::Context;
use crate::error::UserError;
use crate::report::write_atomic;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::combat;

use super::export;

/// `cosmosim sweep FILE --vary ...`: outputs go to `--out` or `reports/<stem>-sweep/`.
pub fn sweep(a: &SweepArgs, quiet: bool) -> anyhow::Result<()> {
    let file = ScenarioFile::read(&a.scenario.file)?;
    let header = file.header()?;
    if (header.system.as_str(), header.kind.as_deref()) != ("cosmos", Some("combat")) {
        return Err(file
            .error_at(
                &["kind"],
                "kind",
                "sweep runs combat scenarios only",
                "system = \"cosmos\" with kind = \"combat\"",
            )
            .into());
    }
    let o = a.scenario.overrides(quiet);
    let mut out = vec![combat::sweep::sweep(&file, &a.vary, &o)?];
    let dir = a.scenario.out.clone().unwrap_or_else(|| {
        let stem = a
            .scenario
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default();
        PathBuf::from("reports").join(format!("{stem}-sweep"))
    });
    let ctx = Context::new(0, 1, Default::default(), quiet)?;
    export(&mut out, &dir, &ctx)?;
    let mut md = format!("# {}\n\n{}\n\n", out[0].title, out[0].question);
    for k in &out[0].key_figures {
        md += &format!("- {k}\n");
    }
    md += &format!(
        "\nTable: combat-sweep.csv (one row per grid point, 95% intervals in *_lo/*_hi).\n\n{}\n",
        out[0].provenance.summary()
    );
    let path = dir.join("summary.md");
    write_atomic(&path, md.as_bytes()).map_err(|e| UserError::new(format!("{e}")))?;
    ctx.say(&format!("wrote {}", path.display()));
    Ok(())
}
