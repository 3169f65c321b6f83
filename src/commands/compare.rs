use crate::lang::Lang;
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
pub fn compare(a: &CompareArgs, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    let base = compare::load_folder(&a.base, lang)?;
    let new = compare::load_folder(&a.new, lang)?;
    let c = compare::compare(&base, &new, a.alpha)?;
    publish_set(
        &a.out,
        quiet,
        |staging| {
            let mut md = compare::markdown(
                &c,
                &a.base.display().to_string(),
                &a.new.display().to_string(),
                lang,
            );
            write_atomic(
                &staging.join("compare.csv"),
                compare::csv(&c)?.as_bytes(),
                lang,
            )?;
            let meta = compare::meta_json(
                (&a.base.display().to_string(), &base),
                (&a.new.display().to_string(), &new),
                a.alpha,
                a.fail_on_change,
            );
            write_atomic(&staging.join("compare.meta.json"), meta.as_bytes(), lang)?;
            let mut files = vec![
                PathBuf::from("compare.csv"),
                PathBuf::from("compare.meta.json"),
            ];
            if let Some(fig) = compare::chart(&c, lang) {
                render_png(&fig, &staging.join("compare.png"), lang)?;
                files.push(PathBuf::from("compare.png"));
                md += &format!("\n![{}](compare.png)\n", tr!(lang, "compare.chart_alt"));
            }
            files.extend(write_page(staging, "compare", &md, lang)?);
            Ok(files)
        },
        lang,
    )?;
    let line = compare::headline(&c, lang);
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
