use std::path::PathBuf;

use crate::balance::args::CompareArgs;
use crate::balance::compare;
use crate::report::{render_png, write_atomic, write_page};

use super::{publish_set, say};

/// Something moved and `--fail-on-change` was given: exit 1.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Changed(pub String);

/// `cosmosim compare BASE NEW`: compare.md, compare.csv and compare.png, published as
/// one set; exit 1 with `--fail-on-change` when anything moved.
pub fn compare(a: &CompareArgs, quiet: bool) -> anyhow::Result<()> {
    let base = compare::load_folder(&a.base)?;
    let new = compare::load_folder(&a.new)?;
    let c = compare::compare(&base, &new, a.alpha)?;
    publish_set(&a.out, quiet, |staging| {
        let mut md = compare::markdown(
            &c,
            &a.base.display().to_string(),
            &a.new.display().to_string(),
        );
        write_atomic(&staging.join("compare.csv"), compare::csv(&c)?.as_bytes())?;
        let mut files = vec![PathBuf::from("compare.csv")];
        if let Some(fig) = compare::chart(&c) {
            render_png(&fig, &staging.join("compare.png"))?;
            files.push(PathBuf::from("compare.png"));
            md += &format!("\n![{}](compare.png)\n", crate::tr!("compare.chart_alt"));
        }
        files.extend(write_page(staging, "compare", &md)?);
        Ok(files)
    })?;
    let line = compare::headline(&c);
    if a.fail_on_change && c.changed() {
        return Err(Changed(format!(
            "{line} (see {})",
            a.out.join("compare.md").display()
        ))
        .into());
    }
    if !quiet {
        say(&line);
    }
    Ok(())
}
