//! Computes the book rules and every variant on the same seed, and compares each
//! variant with the book in memory: exact figures by the rules of `compare`, Monte Carlo
//! figures by the paired block test (`paired.rs`).

use crate::lang::Lang;
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::balance::compare::{compare, Comparison, Loaded, Move};
use crate::balance::expect::{Compute, Source};
use crate::balance::figures::{self, FigureValue};
use crate::report::Output;

use super::model::{VariantsFile, BOOK};
use super::paired::{self, Blocks, BLOCKS};

/// One set of rules and what it gave.
pub struct VariantResult {
    pub name: String,
    pub description: String,
    pub options: Vec<String>,
    /// The outputs of each studied table or scenario, in the file's order.
    pub outputs: Vec<Rc<Vec<Output>>>,
    /// Against the book (None for the book itself).
    pub comparison: Option<Comparison>,
}

/// A headline figure under one variant.
#[derive(Clone, Debug)]
pub struct HeadlineValue {
    /// The value and its interval, or why there is none (e.g. a rate of 0 events of 0).
    pub value: Result<FigureValue, String>,
    /// The matching move against the book (None for the book, or when undefined).
    pub moved: Option<Move>,
}

pub struct Study {
    /// The folder of each studied source below the output folder's variant folders.
    pub dirs: Vec<String>,
    /// The book first, then the variants in file order.
    pub variants: Vec<VariantResult>,
    /// `[headline][variant]`.
    pub headlines: Vec<Vec<HeadlineValue>>,
}

/// A folder name per studied source: a scenario's path below `scenarios/`, a table's name
/// (numbered when the same table is studied with several params).
fn dirs(study: &[Source]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (i, s) in study.iter().enumerate() {
        let d = match s {
            Source::Scenario(p) => {
                let text = p.with_extension("").display().to_string();
                match text.split_once("scenarios/") {
                    Some((_, rest)) => rest.to_string(),
                    None => p
                        .file_stem()
                        .map(|x| x.to_string_lossy().to_string())
                        .unwrap_or_else(|| format!("study-{i}")),
                }
            }
            Source::Table { name, .. } => name.clone(),
        };
        let d = if out.contains(&d) {
            format!("{d}-{i}")
        } else {
            d
        };
        out.push(d);
    }
    out
}

fn loaded(
    dirs: &[String],
    outputs: &[Rc<Vec<Output>>],
) -> anyhow::Result<BTreeMap<String, Loaded>> {
    let mut m = BTreeMap::new();
    for (d, outs) in dirs.iter().zip(outputs) {
        for o in outs.iter() {
            m.insert(
                format!("{d}/{}", o.name),
                Loaded {
                    frame: o.frame.clone(),
                    meta: serde_json::to_value(&o.provenance)?,
                },
            );
        }
    }
    Ok(m)
}

/// `[block][source]`: one rule set's outputs (None for a source without Monte Carlo).
type BlockRuns = Vec<Vec<Option<Rc<Vec<crate::report::Output>>>>>;

/// The blocks of one rule set, as [`BlockRuns`].
fn block_runs<C: Compute>(
    f: &VariantsFile,
    seed: u64,
    options: &[String],
    trials: &[Option<u64>],
    compute: &mut C,
) -> anyhow::Result<BlockRuns> {
    let seeds: Vec<u64> = (0..BLOCKS).map(|b| paired::block_seed(seed, b)).collect();
    let mut out = vec![Vec::with_capacity(f.study.len()); seeds.len()];
    for (src, n) in f.study.iter().zip(trials) {
        let runs = match n {
            Some(n) => compute
                .outputs_at_seeds(src, options, Some(paired::block_trials(*n)), &seeds)?
                .into_iter()
                .map(Some)
                .collect(),
            None => vec![None; seeds.len()],
        };
        for (block, run) in out.iter_mut().zip(runs) {
            block.push(run);
        }
    }
    Ok(out)
}

/// Runs the study: the book and each variant on every source, then the comparisons and
/// headline values. A source that fails to compute, or a headline figure that does not
/// exist, is an error located in the variants file. `seed` is the run's seed (the file's,
/// or `--seed`): the blocks of the paired test derive theirs from it.
pub fn study<C: Compute>(
    f: &VariantsFile,
    seed: u64,
    compute: &mut C,
    lang: Lang,
) -> anyhow::Result<Study> {
    let dirs = dirs(&f.study);
    let mut rules: Vec<(String, String, Vec<String>)> = vec![(
        BOOK.to_string(),
        "the rules as the book writes them".into(),
        vec![],
    )];
    for v in &f.variants {
        rules.push((v.name.clone(), v.description.clone(), v.options.clone()));
    }
    // The book's refusal of a studied source is the file's fault: located at the study.
    let located = |e: anyhow::Error, name: &str, i: usize| match e
        .downcast_ref::<crate::error::UserError>()
    {
        Some(u) if name == BOOK => anyhow::Error::from(f.study_error(i, &u.0, lang)),
        _ => e,
    };
    // Every source under every rule set is checked before anything runs: a bad study
    // must not wait for the hours of work of the ones before it.
    for (name, _, options) in &rules {
        for (i, src) in f.study.iter().enumerate() {
            compute
                .validate(src, options, f.trials)
                .map_err(|e| located(e, name, i))?;
        }
    }
    let mut variants: Vec<VariantResult> = Vec::new();
    for (name, description, options) in rules {
        let mut outputs = Vec::new();
        for (i, src) in f.study.iter().enumerate() {
            let outs = compute
                .outputs(src, &options, f.trials)
                .map_err(|e| located(e, &name, i))?;
            outputs.push(outs);
        }
        variants.push(VariantResult {
            name,
            description,
            options,
            outputs,
            comparison: None,
        });
    }
    let book = loaded(&dirs, &variants[0].outputs)?;
    for v in variants.iter_mut().skip(1) {
        let other = loaded(&dirs, &v.outputs)?;
        v.comparison = Some(compare(&book, &other, f.alpha)?);
    }
    if variants.len() > 1 {
        let trials: Vec<Option<u64>> = variants[0]
            .outputs
            .iter()
            .map(|o| paired::run_trials(o))
            .collect();
        let mut runs = Vec::with_capacity(variants.len());
        for v in &variants {
            runs.push(block_runs(f, seed, &v.options, &trials, compute)?);
        }
        let (book_runs, rest) = runs.split_first().expect("the book is first");
        for (v, run) in variants.iter_mut().skip(1).zip(rest) {
            if let Some(c) = v.comparison.as_mut() {
                let (b, n) = (Blocks::new(&dirs, book_runs, c), Blocks::new(&dirs, run, c));
                paired::apply(c, &b, &n);
            }
        }
    }
    let mut headlines = Vec::new();
    for (hi, h) in f.headlines.iter().enumerate() {
        let si = f
            .study
            .iter()
            .position(|s| *s == h.source)
            .expect("validated: a headline's source is studied");
        let mut row_text = String::new();
        let mut values = Vec::new();
        for (vi, v) in variants.iter().enumerate() {
            let outs = &v.outputs[si];
            let at = figures::resolve(outs, &h.figure, &h.wanted, lang).and_then(|(r, wanted)| {
                let row = figures::select_row(r.output, &wanted, lang)?;
                Ok((r, row))
            });
            let (fref, row) = match at {
                Ok(x) => x,
                Err(m) if vi == 0 => return Err(f.headline_error(hi, &m, lang).into()),
                Err(m) => {
                    values.push(HeadlineValue {
                        value: Err(m),
                        moved: None,
                    });
                    continue;
                }
            };
            if vi == 0 {
                let frame = &fref.output.frame;
                row_text =
                    crate::balance::compare::row_text(frame, &figures::key_columns(frame), row);
            }
            let key = format!("{}/{}", dirs[si], fref.output.name);
            let moved = v.comparison.as_ref().and_then(|c| {
                c.figures
                    .iter()
                    .find(|m| m.output == key && m.figure == fref.column && m.row == row_text)
                    .cloned()
            });
            values.push(HeadlineValue {
                value: figures::value_at(&fref, row, lang),
                moved,
            });
        }
        headlines.push(values);
    }
    Ok(Study {
        dirs,
        variants,
        headlines,
    })
}
