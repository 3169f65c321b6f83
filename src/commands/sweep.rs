use super::user;
use crate::balance::sweep::sweep as sweep_grid;
use crate::cli::SweepArgs;
use crate::report::{charts_section, md_text};
use crate::scenario::ScenarioFile;

use super::{run_to_precision, signals, Session};

/// `cosmosim sweep FILE --vary ...`: outputs go to `--out` or
/// `reports/<path below scenarios/>/sweep-<varied keys>/`, published as one set.
pub fn sweep(a: &SweepArgs, s: &Session) -> anyhow::Result<()> {
    let quiet = s.quiet;
    let file = ScenarioFile::read(&a.scenario.file, s.lang)?;
    // Every kind, through the kind's own run (the same validation, streams and outputs).
    let run = |f: &ScenarioFile, o: &crate::systems::RunOverrides| {
        Ok(super::run_scenario_file(f, o)?.outputs)
    };
    let goal = super::precision::goal(&a.scenario.precision, s.lang)?;
    if goal.is_some() && a.scenario.trials.is_some() {
        return Err(user(tr!(s.lang, "check.precision_and_trials")));
    }
    let focus = a
        .figure
        .as_ref()
        .map(|f| -> anyhow::Result<_> {
            Ok(crate::balance::sweep::Focus {
                figure: f.clone(),
                wanted: super::tune::parse_where(&a.where_, s.lang)?,
            })
        })
        .transpose()?;
    let mut o = a.scenario.overrides(quiet);
    o.mode = s.mode;
    o.max_points = a.max_points;
    // Every grid point is validated (and the grid size capped) before anything is
    // created on disk.
    let checking = crate::systems::RunOverrides {
        check_only: true,
        ..o.clone()
    };
    match sweep_grid(&file, &a.vary, &checking, focus.as_ref(), run) {
        Err(e) if e.is::<crate::systems::CheckedOnly>() => {}
        Err(e) => return Err(e),
        Ok(_) => {}
    }
    // One folder per question (issue 27): reports/<scenario>/sweep-<keys>/.
    let dir = a.scenario.out.clone().unwrap_or_else(|| {
        let keys: Vec<&str> = a.vary.iter().map(|v| v.key.as_str()).collect();
        crate::balance::args::default_out(
            &[a.scenario.file.to_string_lossy().into_owned()],
            "sweep",
            &keys,
        )
    });
    s.publish(&dir, |staging| {
        let mut precision_line = None;
        let mut warned = Vec::new();
        let mut out = match &goal {
            None => {
                let s = sweep_grid(&file, &a.vary, &o, focus.as_ref(), run)?;
                warned = s.warnings;
                vec![s.output]
            }
            Some(p) => {
                let r = run_to_precision(
                    p,
                    |t| {
                        let at = crate::systems::RunOverrides {
                            trials: Some(t),
                            ..o.clone()
                        };
                        Ok(vec![
                            sweep_grid(&file, &a.vary, &at, focus.as_ref(), run)?.output,
                        ])
                    },
                    |v| v,
                    s.lang,
                )?;
                let sentence = r.sentence(p, s.lang);
                if !quiet {
                    super::say(&sentence);
                }
                precision_line = Some(sentence);
                let mut v = r.value;
                v[0].provenance = v[0]
                    .provenance
                    .clone()
                    .with_param("precision", p.half_width);
                v
            }
        };
        signals::check()?;
        let mut files = s.write_outputs(&mut out, staging)?;
        let mut md = format!(
            "# {}\n\n{}\n\n",
            md_text(&out[0].title),
            md_text(&out[0].question)
        );
        if let Some(line) = &precision_line {
            md += &format!("{line}\n\n");
        }
        for k in &out[0].key_figures {
            md += &format!("- {k}\n");
        }
        md += "\n";
        md += tr!(s.lang, "sweep.table");
        md += &format!("\n\n{}\n", out[0].provenance.summary(s.lang));
        // Warnings print whatever --quiet says (it silences progress and file lists).
        for w in &warned {
            super::warn(w, s.lang);
        }
        let mut warnings = file.warnings();
        warnings.extend(warned);
        if !warnings.is_empty() {
            md += &format!("\n## {}\n\n", tr!(s.lang, "page.warnings"));
            for w in warnings {
                md += &format!("- {}\n", md_text(&w));
            }
        }
        md += &charts_section(&out, s.lang);
        files.extend(s.write_page(staging, "summary", &md)?);
        Ok(files)
    })
}
