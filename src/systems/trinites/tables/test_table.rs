use polars::prelude::*;

use crate::context::{Context, Method};
use crate::engine::{Counts, Draws, Simulation};
use crate::report::{
    float_column, int_column, interval_columns, text_column, Chart, Figure, LineChart, LineSeries,
    Output,
};
use crate::stats::{wilson, Proportion};
use crate::systems::trinites::{kept_dist, roll_test, DualKeep, TrinitesRules, EXPLODE_DEPTH};

use super::{bool_text, provenance, range_text};

/// The grid of the `trinites-test` table: every modifier, single d12 then the two dice.
#[derive(Clone, Debug, PartialEq)]
pub struct TestGrid {
    /// Skill + difficulty, added to the natural result (T-TEST).
    pub modifiers: Vec<i64>,
}

impl TestGrid {
    fn cells(&self) -> impl Iterator<Item = (i64, bool)> + '_ {
        self.modifiers.iter().flat_map(|&m| [(m, false), (m, true)])
    }
}

/// Counts of one cell: [success & Deva kept, success & other, failure & Deva kept,
/// failure & other].
pub type TestCellCounts = Counts<4>;

struct TestCellSim {
    dual: bool,
    modifier: i64,
    keep: DualKeep,
    target: i64,
}

impl Simulation for TestCellSim {
    type Acc = TestCellCounts;

    fn empty(&self) -> TestCellCounts {
        TestCellCounts::default()
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut TestCellCounts) {
        let rng = &mut draws.batch();
        for _ in 0..trials {
            let r = roll_test(rng, self.dual, self.modifier, self.keep, self.target);
            let i = 2 * usize::from(!r.succeeds(self.modifier, self.target))
                + usize::from(!r.deva_kept);
            acc.add(i);
        }
    }
}

/// T-RETRY: P(success within two tries), the second at -`malus` (book 3, parameter
/// `trinites_retry_malus`; a second failure is final), against the target in force.
fn p_with_retry(p: f64, dual: bool, modifier: i64, rules: &TrinitesRules) -> f64 {
    let m2 = modifier - rules.retry_malus;
    let second = kept_dist(dual, m2, rules.dual_keep, rules.target, EXPLODE_DEPTH).p_success(m2);
    p + (1.0 - p) * second
}

/// The stream key of a cell, from its values.
fn cell_key(modifier: i64, dual: bool) -> crate::engine::StreamKey {
    crate::engine::StreamKey::new("trinites.test")
        .int("modifier", modifier)
        .value("dual", &toml::Value::Boolean(dual))
}

/// Monte Carlo counts of one (modifier, dual) cell.
pub fn test_cell_mc(
    modifier: i64,
    dual: bool,
    rules: &TrinitesRules,
    ctx: &Context,
    trials: u64,
) -> TestCellCounts {
    let sim = TestCellSim {
        dual,
        modifier,
        keep: rules.dual_keep,
        target: rules.target,
    };
    ctx.engine.run(
        &sim,
        &cell_key(modifier, dual),
        trials,
        &crate::engine::Progress::hidden(),
    )
}

/// The `trinites-test` output: CSV `modifier,dual,p_success,p_deva_kept,p_success_retry`
/// (+ `trials` and Wilson bounds with `--method mc`), a chart and provenance.
pub fn test_output(
    grid: &TestGrid,
    ctx: &Context,
    method: Method,
    trials: u64,
) -> anyhow::Result<Output> {
    let rules = TrinitesRules::from_options(&ctx.options);
    let cells: Vec<(i64, bool)> = grid.cells().collect();
    // (p_success, p_deva_kept, truncated_mass, counts)
    let mut rows: Vec<(f64, f64, f64, Option<TestCellCounts>)> = Vec::with_capacity(cells.len());
    let mut retry: Vec<f64> = Vec::new();
    let progress = ctx.progress(
        if method == Method::Mc {
            trials * cells.len() as u64
        } else {
            0
        },
        "trinites-test",
    );
    for &(m, dual) in &cells {
        match method {
            Method::Exact => {
                let k = kept_dist(dual, m, rules.dual_keep, rules.target, EXPLODE_DEPTH);
                rows.push((k.p_success(m), k.p_deva_kept(), k.truncated_mass, None));
                retry.push(p_with_retry(k.p_success(m), dual, m, &rules));
            }
            Method::Mc => {
                let c = test_cell_mc(m, dual, &rules, ctx, trials);
                progress.advance(trials);
                let n = trials as f64;
                let s = (c.counts[0] + c.counts[1]) as f64 / n;
                let d = (c.counts[0] + c.counts[2]) as f64 / n;
                rows.push((s, d, 0.0, Some(c)));
            }
        }
    }
    progress.finish();
    let deva = |i: usize| if cells[i].1 { Some(rows[i].1) } else { None };
    let mut cols = vec![
        int_column("modifier", &cells, |c| c.0),
        text_column("dual", &cells, |c| bool_text(c.1)),
        float_column("p_success", &rows, |r| r.0),
        Column::new(
            "p_deva_kept".into(),
            (0..cells.len()).map(deva).collect::<Vec<_>>(),
        ),
    ];
    // The truncated mass (< 1e-13) would print as 0 at 10 decimals: it goes to the
    // provenance (`truncated_mass`) and the key figures instead.
    match method {
        Method::Exact => cols.push(Column::new("p_success_retry".into(), retry)),
        Method::Mc => {
            let counts: Vec<TestCellCounts> = rows.iter().filter_map(|r| r.3).collect();
            let [_, lo, hi] = interval_columns("p_success", &counts, |c| {
                Proportion::new(c.counts[0] + c.counts[1], trials)
            });
            cols.extend([
                Column::new("trials".into(), vec![trials; cells.len()]),
                lo,
                hi,
            ]);
        }
    }
    let frame = DataFrame::new_infer_height(cols)?;

    let series = |dual: bool, name: &str, value: &dyn Fn(usize) -> f64| {
        let mut s = LineSeries {
            name: name.into(),
            ..Default::default()
        };
        for (i, c) in cells.iter().enumerate().filter(|(_, c)| c.1 == dual) {
            s.points.push((c.0 as f64, value(i)));
            if let Some(cnt) = rows[i].3 {
                let (lo, hi) = wilson(cnt.counts[0] + cnt.counts[1], trials);
                if name != tr!(ctx.lang, "trinites.test.deva_kept") {
                    s.band.push((c.0 as f64, lo, hi));
                }
            }
        }
        s
    };
    let p = |i: usize| rows[i].0;
    let success = LineChart {
        x_kind: Default::default(),
        title: tr!(ctx.lang, "trinites.test.chart").into(),
        x_label: tr!(ctx.lang, "trinites.test.x_axis").into(),
        y_label: tr!(ctx.lang, "trinites.test.y_axis").into(),
        y_range: Some((0.0, 1.0)),
        series: vec![
            series(false, tr!(ctx.lang, "trinites.test.single"), &p),
            series(true, tr!(ctx.lang, "trinites.test.dual"), &p),
        ],
    };
    let d = |i: usize| rows[i].1;
    let kept = LineChart {
        x_kind: Default::default(),
        title: tr!(ctx.lang, "trinites.test.kept_chart").into(),
        x_label: tr!(ctx.lang, "trinites.test.modifier").into(),
        y_label: tr!(ctx.lang, "trinites.test.kept_axis").into(),
        y_range: Some((0.0, 1.0)),
        series: vec![series(true, tr!(ctx.lang, "trinites.test.deva_kept"), &d)],
    };

    let at = |m: i64, dual: bool| cells.iter().position(|&c| c == (m, dual));
    let mut key = Vec::new();
    for m in [0, 3, 6, 9] {
        if let (Some(s), Some(t)) = (at(m, false), at(m, true)) {
            key.push(tr!(
                ctx.lang,
                "trinites.test.key",
                m = format!("{m:+}"),
                single = ctx.lang.num(rows[s].0, 4),
                dual = ctx.lang.num(rows[t].0, 4),
                kept = ctx.lang.pct(rows[t].1, 1)
            ));
        }
    }
    let trunc = rows.iter().map(|r| r.2).fold(0.0, f64::max);
    if method == Method::Exact {
        key.push(tr!(
            ctx.lang,
            "trinites.test.key_trunc",
            depth = EXPLODE_DEPTH,
            trunc = crate::systems::trinites::sci(ctx.lang, trunc)
        ));
    }

    let name = "trinites-test";
    let prov = provenance(name, ctx, method, trials, trunc)
        .with_param("modifiers", range_text(&grid.modifiers));
    Ok(Output {
        name: name.into(),
        title: tr!(ctx.lang, "trinites.test.title").into(),
        question: tr!(ctx.lang, "trinites.test.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(success), Chart::Lines(kept)])],
        key_figures: key,
        provenance: prov,
    })
}
