//! `cosmosim variants FILE`: the book rules and each named variant on the same seed, each
//! variant compared with the book; writes variants.md/.html (the answer first),
//! variants.csv, headlines.csv, a chart per headline figure and every variant's outputs
//! in its own folder, published as one set.

use crate::lang::Lang;
use std::path::{Path, PathBuf};

use crate::balance::args::VariantsArgs;
use crate::balance::variants::{self, VariantsFile};
use crate::report::{file_sha256, render_png, write_atomic, write_page};

use super::expect::Runner;
use super::{publish_set, say, signals, write_outputs};

/// `reports/variants/<file stem>/` unless `--out` says otherwise.
fn default_out(file: &Path) -> PathBuf {
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_else(|| "variants".into());
    Path::new("reports/variants").join(stem)
}

pub fn variants(a: &VariantsArgs, quiet: bool, lang: Lang) -> anyhow::Result<()> {
    let f = VariantsFile::read(&a.file, lang)?;
    let seed = a.seed.unwrap_or(f.seed);
    let out = a.out.clone().unwrap_or_else(|| default_out(&a.file));
    let mut runner = Runner::new(Some(seed), a.threads, Vec::new(), true, lang);
    let f = VariantsFile {
        trials: a.trials.or(f.trials),
        seed,
        ..f
    };
    f.check_work(a.trials.is_some(), lang)?;
    let mut headline = String::new();
    publish_set(
        &out,
        quiet,
        |staging| {
            let study = variants::study(&f, seed, &mut runner, lang)?;
            signals::check()?;
            let mut files = Vec::new();
            for v in &study.variants {
                for (d, outs) in study.dirs.iter().zip(&v.outputs) {
                    let rel = Path::new(&v.name).join(d);
                    let mut outs: Vec<_> = outs.iter().cloned().collect();
                    for w in write_outputs(&mut outs, &staging.join(&rel), lang)? {
                        files.push(rel.join(w));
                    }
                }
            }
            // A file of the set, written and listed.
            let put = |name: &str, bytes: &[u8], files: &mut Vec<PathBuf>| {
                files.push(PathBuf::from(name));
                write_atomic(&staging.join(name), bytes, lang)
            };
            put(
                "variants.csv",
                variants::csv(&study)?.as_bytes(),
                &mut files,
            )?;
            if !f.headlines.is_empty() {
                let text = variants::headline_csv(&f, &study)?;
                put("headlines.csv", text.as_bytes(), &mut files)?;
            }
            for i in 0..f.headlines.len() {
                let name = format!("headline-{}.png", i + 1);
                render_png(
                    &variants::chart(&f, &study, i, lang),
                    &staging.join(&name),
                    lang,
                )?;
                files.push(PathBuf::from(name));
            }
            let sha = file_sha256(f.file.text.as_bytes());
            // Every file the numbers rest on (audit of 2026-12-07, evening: only the
            // variants file was hashed): each studied scenario and the files it links, as
            // their runs read them, once each, by path.
            let mut inputs: Vec<crate::report::ScenarioRef> = Vec::new();
            for v in &study.variants {
                for outs in &v.outputs {
                    for o in outs.iter() {
                        let p = &o.provenance;
                        for r in p.scenario.iter().chain(&p.linked) {
                            if !inputs.contains(r) {
                                inputs.push(r.clone());
                            }
                        }
                    }
                }
            }
            inputs.sort_by(|a, b| (&a.path, &a.sha256).cmp(&(&b.path, &b.sha256)));
            let meta = serde_json::json!({
                "tool": format!("cosmosim {}", env!("CARGO_PKG_VERSION")),
                "command": "variants",
                "file": f.path.display().to_string(),
                "file_sha256": sha,
                "inputs": inputs,
                "seed": seed,
                "trials": f.trials,
                "alpha": f.alpha,
                "test": {
                    "monte_carlo": "paired t test on block differences, Benjamini-Hochberg",
                    "blocks": variants::BLOCKS,
                    "block_seed": "stream key variants.block(seed, block)",
                },
                "variants": study.variants.iter().map(|v| serde_json::json!({
                    "name": v.name, "options": v.options, "description": v.description
                })).collect::<Vec<_>>(),
            });
            let json = format!("{}\n", serde_json::to_string_pretty(&meta)?);
            put("variants.meta.json", json.as_bytes(), &mut files)?;
            let provenance = tr!(
                lang,
                "variants.provenance",
                version = env!("CARGO_PKG_VERSION"),
                file = f.path.display(),
                sha = &sha[..12],
                seed,
                trials = f.trials.map(|t| t.to_string()).unwrap_or_else(|| tr!(
                    lang,
                    "variants.own_trials"
                )
                .into()),
                alpha = crate::balance::dec(&f.alpha.to_string(), lang)
            );
            let md = variants::markdown(&f, &study, &provenance, lang);
            let answer = format!("## {}\n\n", tr!(lang, "variants.answer"));
            headline = md
                .split(answer.as_str())
                .nth(1)
                .and_then(|s| s.split("\n\n").next())
                .unwrap_or("")
                .to_string();
            files.extend(write_page(staging, "variants", &md, lang)?);
            Ok(files)
        },
        lang,
    )?;
    if !quiet {
        say(&headline);
    }
    Ok(())
}
