use polars::prelude::*;

use crate::context::{Context, Method};
use crate::dice::Die;
use crate::engine::{Counts, Draws, Rng64, Simulation};
use crate::error::UserError;
use crate::lang::Lang;
use crate::report::{
    int_column, Chart, Figure, Heatmap, LineChart, LineSeries, Output, Provenance,
};
use crate::stats::wilson;
use crate::systems::cosmos::{
    roll_dist, KarmaDie, Outcome, TestRules, TestSampler, TestSpec, OPTIONS,
};

use super::KARMA_BANDS;

/// The grid of the `cosmos-test` table.
#[derive(Clone, Debug, PartialEq)]
pub struct TestGrid {
    pub thresholds: Vec<i64>,
    pub karma: Vec<i64>,
    /// Percentage bonus (+) or malus (-) applied per `percent_mode` (C-TEST-1).
    pub modifier: f64,
    /// Start of the crit-failure band (91; 86 under extreme fatigue, C-FAT-4).
    pub crit_fail_from: u8,
}

impl TestGrid {
    pub fn spec(
        &self,
        threshold: i64,
        karma: i64,
        rules: &TestRules,
        lang: Lang,
    ) -> Result<TestSpec, UserError> {
        let k = i8::try_from(karma)
            .map_err(|_| UserError::new(tr!(lang, "cosmos.table.karma_range", karma)))?;
        TestSpec::new(threshold as f64, k)
            .and_then(|s| {
                s.with_modifier(self.modifier, rules.percent_mode)
                    .with_crit_fail_from(self.crit_fail_from)
            })
            .map_err(|e| e.user(lang))
    }

    fn cells(&self) -> impl Iterator<Item = (i64, i64)> + '_ {
        self.thresholds
            .iter()
            .flat_map(move |&t| self.karma.iter().map(move |&k| (t, k)))
    }
}

/// Exact outcome probabilities per cell (threshold-major order), in `Outcome::ALL` order.
/// The three roll distributions (one per karma die) are shared by every threshold.
pub fn test_grid_exact(
    grid: &TestGrid,
    rules: &TestRules,
    lang: Lang,
) -> Result<Vec<[f64; 6]>, UserError> {
    let rolls = [KarmaDie::None, KarmaDie::Minus, KarmaDie::Plus].map(|d| roll_dist(d, rules));
    grid.cells()
        .map(|(t, k)| {
            let spec = grid.spec(t, k, rules, lang)?;
            let dist = &rolls[spec.karma_die(rules) as usize];
            let mut p = [0.0; 6];
            for (roll, q) in dist.outcomes() {
                p[spec.classify_roll(*roll, rules) as usize] += q;
            }
            Ok(p)
        })
        .collect()
}

/// Monte Carlo counts for one cell.
pub type CellCounts = Counts<6>;

/// One cell: its sampler, and the die its sampler draws the (natural, karma die) pair with.
struct CellSim {
    sampler: TestSampler,
    pairs: Die,
}

/// Room for every pair a sampler draws (100 x a karma die of at most 20 sides), a power of
/// two so a masked index needs no bounds check.
const PAIR_SLOTS: usize = 2048;

impl CellSim {
    fn new(sampler: TestSampler, rules: &TestRules) -> CellSim {
        let pairs = TestSampler::pairs(rules);
        assert!(pairs.faces() as usize <= PAIR_SLOTS);
        CellSim { sampler, pairs }
    }
}

/// The pairs under the book's d10 karma die.
const BOOK_PAIRS: Die = Die::known(1000);

/// Counts `trials` draws of `pairs` by the pair drawn, four to a turn of the loop.
#[inline(always)]
fn count_pairs(pairs: Die, rng: &mut Rng64, trials: u64, by_pair: &mut [u64; PAIR_SLOTS]) {
    let draw = |rng: &mut Rng64| pairs.index(rng) as usize & (PAIR_SLOTS - 1);
    for _ in 0..trials / 4 {
        by_pair[draw(rng)] += 1;
        by_pair[draw(rng)] += 1;
        by_pair[draw(rng)] += 1;
        by_pair[draw(rng)] += 1;
    }
    for _ in 0..trials % 4 {
        by_pair[draw(rng)] += 1;
    }
}

impl Simulation for CellSim {
    type Acc = CellCounts;

    fn empty(&self) -> CellCounts {
        CellCounts::default()
    }

    /// Draws as [`TestSampler::sample`] does, but counts the drawn pair itself and reads the
    /// pairs' outcomes once per batch: a trial is one draw and one increment (issue 28).
    #[inline(never)]
    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut CellCounts) {
        let rng = &mut draws.batch();
        let mut by_pair = [0u64; PAIR_SLOTS];
        // The book's d10 gets its own loop: a die known at compile time needs no mask.
        if self.pairs == BOOK_PAIRS {
            count_pairs(BOOK_PAIRS, rng, trials, &mut by_pair);
        } else {
            count_pairs(self.pairs, rng, trials, &mut by_pair);
        }
        let n = self.pairs.faces() as usize;
        for (i, &k) in by_pair[..n].iter().enumerate() {
            acc.counts[self.sampler.outcome_at(i) as usize] += k;
        }
    }
}

/// The stream key of a cell: its values, not its position, so a cell gives the same
/// numbers whatever grid it is part of.
fn cell_key(threshold: i64, karma: i64) -> crate::engine::StreamKey {
    crate::engine::StreamKey::new("cosmos.test")
        .int("threshold", threshold)
        .int("karma", karma)
}

/// Monte Carlo counts per cell, `trials` per cell.
pub fn test_grid_mc(
    grid: &TestGrid,
    rules: &TestRules,
    ctx: &Context,
    trials: u64,
) -> Result<Vec<CellCounts>, UserError> {
    let cells: Vec<(i64, i64)> = grid.cells().collect();
    let progress = ctx.progress(trials * cells.len() as u64, "cosmos-test");
    let out = ctx
        .engine
        .map_cells(&cells, |&(t, k)| {
            let sim = CellSim::new(
                TestSampler::new(&grid.spec(t, k, rules, ctx.lang)?, rules),
                rules,
            );
            Ok(ctx.engine.run(&sim, &cell_key(t, k), trials, &progress))
        })
        .into_iter()
        .collect();
    progress.finish();
    out
}

fn success_or_better(p: &[f64; 6]) -> f64 {
    p[0] + p[1] + p[2]
}

/// The `cosmos-test` output: CSV columns `threshold,karma,p_super_success,...` (+ `trials`
/// and `<class>_lo/_hi` Wilson bounds with `--method mc`), a chart and provenance.
pub fn test_output(
    grid: &TestGrid,
    ctx: &Context,
    method: Method,
    trials: u64,
) -> anyhow::Result<Output> {
    let lang = ctx.lang;
    let rules = TestRules::from_options(&ctx.options);
    let cells: Vec<(i64, i64)> = grid.cells().collect();
    let mut cols: Vec<Column> = vec![
        int_column("threshold", &cells, |c| c.0),
        int_column("karma", &cells, |c| c.1),
    ];
    let (probs, counts) = match method {
        Method::Exact => (test_grid_exact(grid, &rules, ctx.lang)?, None),
        Method::Mc => {
            let counts = test_grid_mc(grid, &rules, ctx, trials)?;
            let probs = counts
                .iter()
                .map(|c| c.counts.map(|x| x as f64 / trials as f64))
                .collect();
            (probs, Some(counts))
        }
    };
    for o in Outcome::ALL {
        let v: Vec<f64> = probs.iter().map(|p| p[o as usize]).collect();
        cols.push(Column::new(format!("p_{}", o.name()).into(), v));
    }
    if let Some(counts) = &counts {
        cols.push(Column::new("trials".into(), vec![trials; cells.len()]));
        for o in Outcome::ALL {
            let (lo, hi): (Vec<f64>, Vec<f64>) = counts
                .iter()
                .map(|c| wilson(c.counts[o as usize], trials))
                .unzip();
            cols.push(Column::new(format!("{}_lo", o.name()).into(), lo));
            cols.push(Column::new(format!("{}_hi", o.name()).into(), hi));
        }
    }
    let frame = DataFrame::new_infer_height(cols)?;

    let sob = |t: i64, k: i64| -> Option<f64> {
        cells
            .iter()
            .position(|&c| c == (t, k))
            .map(|i| success_or_better(&probs[i]))
    };
    let mut lines = LineChart {
        title: tr!(lang, "cosmos.table.sob_by_threshold").into(),
        x_label: tr!(lang, "cosmos.table.threshold_axis").into(),
        y_label: tr!(lang, "cosmos.table.sob_axis").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    for kb in KARMA_BANDS.iter().filter(|k| grid.karma.contains(k)) {
        let mut s = LineSeries {
            name: tr!(lang, "cosmos.table.karma_series", karma = format!("{kb:+}")),
            ..Default::default()
        };
        for &t in &grid.thresholds {
            let i = cells.iter().position(|&c| c == (t, *kb)).unwrap_or(0);
            s.points.push((t as f64, success_or_better(&probs[i])));
            if let Some(counts) = &counts {
                let c = &counts[i].counts;
                let (lo, hi) = wilson(c[0] + c[1] + c[2], trials);
                s.band.push((t as f64, lo, hi));
            }
        }
        lines.series.push(s);
    }
    let heat = Heatmap {
        title: tr!(lang, "cosmos.table.sob").into(),
        x_label: tr!(lang, "cosmos.table.threshold_axis").into(),
        y_label: tr!(lang, "cosmos.table.karma_axis").into(),
        columns: Heatmap::labels(&grid.thresholds),
        rows: Heatmap::labels(&grid.karma),
        values: grid
            .karma
            .iter()
            .map(|&k| {
                grid.thresholds
                    .iter()
                    .map(|&t| sob(t, k).unwrap_or(0.0))
                    .collect()
            })
            .collect(),
        range: (0.0, 1.0),
    };

    let mut key = Vec::new();
    let mut cite = |t: i64, k: i64, what: &str| {
        if let Some(i) = cells.iter().position(|&c| c == (t, k)) {
            let p = &probs[i];
            key.push(tr!(
                lang,
                "cosmos.table.cite",
                what,
                threshold = t,
                karma = format!("{k:+}"),
                sob = lang.num(success_or_better(p), 4),
                crit = lang.num(p[0] + p[1], 4),
                fail = lang.num(p[4] + p[5], 4)
            ));
        }
    };
    cite(50, 0, "");
    cite(55, 6, tr!(lang, "cosmos.table.agilite_example"));
    cite(55, -6, "");
    if let (Some(a), Some(b)) = (sob(50, 0), sob(50, 5)) {
        key.push(tr!(
            lang,
            "cosmos.table.karma5_gain",
            gain = lang.signed(100.0 * (b - a), 1)
        ));
    }

    let mut prov = Provenance::for_method(
        method,
        "cosmos-test",
        "cosmos",
        ctx.options.in_force(OPTIONS),
        ctx.engine.seed(),
        trials,
    );
    prov = prov
        .with_param("thresholds", range_text(&grid.thresholds))
        .with_param("karma", range_text(&grid.karma))
        .with_param("modifier_percent", grid.modifier)
        .with_param("crit_fail_from", grid.crit_fail_from);

    Ok(Output {
        name: "cosmos-test".into(),
        title: tr!(lang, "cosmos.table.test_title").into(),
        question: tr!(lang, "cosmos.table.test_question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(lines), Chart::Heatmap(heat)])],
        key_figures: key,
        provenance: prov,
    })
}

pub(crate) use crate::report::range_text;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::StreamKey;
    use crate::systems::cosmos::{CritBand, KarmaOverflow};

    /// A batch counts what [`TestSampler::sample`] draws trial by trial, under the book's
    /// d10 karma die and under others (karma tests, an extreme band).
    #[test]
    fn counting_pairs_gives_the_samplers_outcomes() {
        let key = StreamKey::new("test.cosmos_cell");
        for (sides, threshold, karma) in [
            (10, 50.0, 0),
            (10, 35.0, -6),
            (20, 80.0, 7),
            (1, 20.0, 3),
            (6, 60.0, -10),
        ] {
            let rules = TestRules {
                karma_die_sides: sides,
                karma_overflow: KarmaOverflow::Cancel,
                ..TestRules::default()
            };
            let spec = TestSpec::new(threshold, karma)
                .unwrap()
                .with_crit_band(CritBand::From(86));
            let sampler = TestSampler::new(&spec, &rules);
            let sim = CellSim::new(sampler.clone(), &rules);
            let draws = Draws::new(3, &key, u64::from(sides));
            let mut acc = CellCounts::default();
            sim.run_batch(&draws, 30_000, &mut acc);
            let mut want = CellCounts::default();
            let rng = &mut draws.batch();
            for _ in 0..30_000 {
                want.add(sampler.sample_index(rng) as usize);
            }
            assert_eq!(acc.counts, want.counts, "d{sides} {threshold} {karma}");
            assert!(
                acc.counts.iter().filter(|&&n| n > 0).count() >= 4,
                "{:?}",
                acc.counts
            );
        }
    }
}
