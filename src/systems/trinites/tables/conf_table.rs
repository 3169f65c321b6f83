use polars::prelude::*;

use crate::context::{Context, Method};
use crate::engine::{Counts, Draws, Progress, Simulation, StreamKey};
use crate::report::{
    float_column, int_column, interval_columns, text_column, Chart, Figure, Heatmap, Output,
};
use crate::stats::Proportion;
use crate::systems::trinites::{
    confront, roll_test, side_dist, ConfOutcome, DualKeep, SideDist, TrinitesRules, EXPLODE_DEPTH,
};

use super::{bool_text, provenance, range_text};

/// The grid of `trinites-confrontation`: A acts, B opposes (and wins ties, T-CONF).
#[derive(Clone, Debug, PartialEq)]
pub struct ConfGrid {
    pub modifiers_a: Vec<i64>,
    pub modifiers_b: Vec<i64>,
}

/// One cell: both sides' modifiers and dice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfCell {
    pub modifier_a: i64,
    pub modifier_b: i64,
    pub dual_a: bool,
    pub dual_b: bool,
}

const DUALS: [(bool, bool); 4] = [(false, false), (true, false), (false, true), (true, true)];

impl ConfGrid {
    pub fn cells(&self) -> Vec<ConfCell> {
        let mut v = Vec::new();
        for &(dual_a, dual_b) in &DUALS {
            for &modifier_a in &self.modifiers_a {
                for &modifier_b in &self.modifiers_b {
                    v.push(ConfCell {
                        modifier_a,
                        modifier_b,
                        dual_a,
                        dual_b,
                    });
                }
            }
        }
        v
    }
}

/// Exact outcome of every cell; each side's distribution is computed once per
/// (modifier, dual).
/// `target`: the success target in force (T-TEST, parameter `trinites_target`).
pub fn conf_grid_exact(cells: &[ConfCell], keep: DualKeep, target: i64) -> (Vec<ConfOutcome>, f64) {
    let mut cache: std::collections::BTreeMap<(i64, bool), SideDist> = Default::default();
    let mut side = |m: i64, d: bool| {
        cache
            .entry((m, d))
            .or_insert_with(|| side_dist(d, m, keep, target, EXPLODE_DEPTH))
            .clone()
    };
    let mut trunc = 0.0f64;
    let out = cells
        .iter()
        .map(|c| {
            let a = side(c.modifier_a, c.dual_a);
            let b = side(c.modifier_b, c.dual_b);
            trunc = trunc.max(a.truncated_mass + b.truncated_mass);
            confront(&a, &b)
        })
        .collect();
    (out, trunc)
}

struct ConfSim {
    cell: ConfCell,
    keep: DualKeep,
    target: i64,
}

impl Simulation for ConfSim {
    /// [A wins, B wins, nobody].
    type Acc = Counts<3>;

    fn empty(&self) -> Counts<3> {
        Counts::default()
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut Counts<3>) {
        let rng = &mut draws.batch();
        let c = self.cell;
        for _ in 0..trials {
            let t = self.target;
            let a = roll_test(rng, c.dual_a, c.modifier_a, self.keep, t);
            let b = roll_test(rng, c.dual_b, c.modifier_b, self.keep, t);
            let fa = if a.succeeds(c.modifier_a, t) {
                a.natural + c.modifier_a
            } else {
                t - 1
            };
            let fb = if b.succeeds(c.modifier_b, t) {
                b.natural + c.modifier_b
            } else {
                t - 1
            };
            let i = if fa < t && fb < t {
                2
            } else if fa > fb {
                0
            } else {
                1
            };
            acc.add(i);
        }
    }
}

/// The stream key of a cell, from its values.
fn cell_key(c: &ConfCell) -> StreamKey {
    StreamKey::new("trinites.confrontation")
        .int("modifier_a", c.modifier_a)
        .int("modifier_b", c.modifier_b)
        .value("dual_a", &toml::Value::Boolean(c.dual_a))
        .value("dual_b", &toml::Value::Boolean(c.dual_b))
}

/// Monte Carlo counts [A wins, B wins, nobody] of one cell.
pub fn conf_mc(cell: ConfCell, rules: &TrinitesRules, ctx: &Context, trials: u64) -> Counts<3> {
    let sim = ConfSim {
        cell,
        keep: rules.dual_keep,
        target: rules.target,
    };
    ctx.engine
        .run(&sim, &cell_key(&cell), trials, &Progress::hidden())
}

/// The `trinites-confrontation` output: CSV `modifier_a,modifier_b,dual_a,dual_b,p_a_wins,
/// p_b_wins,p_nobody` (+ `trials` and Wilson bounds with `--method mc`).
pub fn conf_output(
    grid: &ConfGrid,
    ctx: &Context,
    method: Method,
    trials: u64,
) -> anyhow::Result<Output> {
    let lang = ctx.lang;
    let rules = TrinitesRules::from_options(&ctx.options);
    let cells = grid.cells();
    let mut counts: Vec<Counts<3>> = Vec::new();
    let (probs, trunc) = match method {
        Method::Exact => conf_grid_exact(&cells, rules.dual_keep, rules.target),
        Method::Mc => {
            let progress = ctx.progress(trials * cells.len() as u64, "trinites-confrontation");
            for c in &cells {
                counts.push(conf_mc(*c, &rules, ctx, trials));
                progress.advance(trials);
            }
            progress.finish();
            let n = trials as f64;
            let p = counts
                .iter()
                .map(|c| ConfOutcome {
                    a_wins: c.counts[0] as f64 / n,
                    b_wins: c.counts[1] as f64 / n,
                    nobody: c.counts[2] as f64 / n,
                })
                .collect();
            (p, 0.0)
        }
    };
    let mut cols = vec![
        int_column("modifier_a", &cells, |c| c.modifier_a),
        int_column("modifier_b", &cells, |c| c.modifier_b),
        text_column("dual_a", &cells, |c| bool_text(c.dual_a)),
        text_column("dual_b", &cells, |c| bool_text(c.dual_b)),
        float_column("p_a_wins", &probs, |p| p.a_wins),
        float_column("p_b_wins", &probs, |p| p.b_wins),
        float_column("p_nobody", &probs, |p| p.nobody),
    ];
    if method == Method::Mc {
        cols.push(Column::new("trials".into(), vec![trials; cells.len()]));
        for (k, name) in ["a_wins", "b_wins", "nobody"].iter().enumerate() {
            let [_, lo, hi] = interval_columns(&format!("p_{name}"), &counts, |c| {
                Proportion::new(c.counts[k], trials)
            });
            cols.extend([lo, hi]);
        }
    }
    let frame = DataFrame::new_infer_height(cols)?;

    let find = |ma: i64, mb: i64, da: bool, db: bool| {
        cells.iter().position(|c| {
            *c == ConfCell {
                modifier_a: ma,
                modifier_b: mb,
                dual_a: da,
                dual_b: db,
            }
        })
    };
    let who = |d: bool| {
        if d {
            tr!(lang, "trinites.conf.trinite")
        } else {
            tr!(lang, "trinites.conf.human")
        }
    };
    let panels = DUALS
        .iter()
        .map(|&(da, db)| {
            Chart::Heatmap(Heatmap {
                title: tr!(lang, "trinites.conf.heat_title", a = who(da), b = who(db)),
                x_label: tr!(lang, "trinites.conf.x_axis").into(),
                y_label: tr!(lang, "trinites.conf.y_axis").into(),
                columns: Heatmap::labels(&grid.modifiers_a),
                rows: Heatmap::labels(&grid.modifiers_b),
                values: grid
                    .modifiers_b
                    .iter()
                    .map(|&mb| {
                        grid.modifiers_a
                            .iter()
                            .map(|&ma| find(ma, mb, da, db).map_or(0.0, |i| probs[i].a_wins))
                            .collect()
                    })
                    .collect(),
                range: (0.0, 1.0),
            })
        })
        .collect();

    let mut key = Vec::new();
    for (ma, mb, da, db) in [
        (6, 6, false, false),
        (6, 6, true, false),
        (6, 6, false, true),
        (3, 6, true, false),
    ] {
        if let Some(i) = find(ma, mb, da, db) {
            let p = probs[i];
            key.push(tr!(
                lang,
                "trinites.conf.key",
                a = who(da),
                ma = format!("{ma:+}"),
                b = who(db),
                mb = format!("{mb:+}"),
                a_wins = lang.num(p.a_wins, 4),
                b_wins = lang.num(p.b_wins, 4),
                nobody = lang.num(p.nobody, 4)
            ));
        }
    }
    if method == Method::Exact {
        key.push(tr!(
            lang,
            "trinites.conf.key_trunc",
            trunc = crate::systems::trinites::sci(lang, trunc)
        ));
    }
    let name = "trinites-confrontation";
    let prov = provenance(name, ctx, method, trials, trunc)
        .with_param("modifiers_a", range_text(&grid.modifiers_a))
        .with_param("modifiers_b", range_text(&grid.modifiers_b))
        .with_param_text("tie", tr!(crate::lang::Lang::En, "params.tie"), |l| {
            tr!(l, "params.tie").to_string()
        });
    Ok(Output {
        name: name.into(),
        title: tr!(lang, "trinites.conf.title").into(),
        question: tr!(lang, "trinites.conf.question").into(),
        frame,
        figures: vec![Figure::new(panels)],
        key_figures: key,
        provenance: prov,
    })
}
