use polars::prelude::*;

use crate::context::{Context, Method};
use crate::engine::{Counts, Draws, Simulation};
use crate::report::{interval_columns, Chart, Figure, LineChart, LineSeries, Output};
use crate::stats::Proportion;
use crate::systems::nephilim::{
    gap_noise, p_earlier_over, sample_earlier, DSampler, NephilimRules,
};

use super::{provenance, range_text};

/// Monte Carlo counts of one difference: [earlier segment, not earlier].
pub type InitCounts = Counts<2>;

struct InitSim {
    difference: i64,
    gap: i64,
    d: DSampler,
}

impl Simulation for InitSim {
    type Acc = InitCounts;

    fn empty(&self) -> InitCounts {
        InitCounts::default()
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut InitCounts) {
        let rng = &mut draws.batch();
        let mut earlier = 0u64;
        for _ in 0..trials {
            earlier += u64::from(sample_earlier(self.difference, self.gap, &self.d, rng));
        }
        acc.counts[0] += earlier;
        acc.counts[1] += trials - earlier;
    }
}

/// The stream key of a difference: its value (the die and the segment rule are rules).
fn key(difference: i64) -> crate::engine::StreamKey {
    crate::engine::StreamKey::new("nephilim.initiative").int("difference", difference)
}

/// Monte Carlo counts per difference, `trials` each.
pub fn initiative_mc(
    differences: &[i64],
    rules: &NephilimRules,
    ctx: &Context,
    trials: u64,
) -> Vec<InitCounts> {
    let progress = ctx.progress(trials * differences.len() as u64, "nephilim-initiative");
    let out = ctx.engine.map_cells(differences, |&d| {
        let sim = InitSim {
            difference: d,
            gap: rules.init_segment.gap(),
            d: rules.die.sampler(),
        };
        ctx.engine.run(&sim, &key(d), trials, &progress)
    });
    progress.finish();
    out
}

/// The `nephilim-initiative` output: `difference,p_earlier_segment` (N-INIT), plus
/// `trials,p_earlier_segment_lo,p_earlier_segment_hi` with `--method mc`.
pub fn initiative_output(
    differences: &[i64],
    ctx: &Context,
    method: Method,
    trials: u64,
) -> anyhow::Result<Output> {
    let rules = NephilimRules::from_options(&ctx.options);
    let noise = gap_noise(&rules);
    let counts = (method == Method::Mc).then(|| initiative_mc(differences, &rules, ctx, trials));
    let p: Vec<f64> = match &counts {
        None => differences
            .iter()
            .map(|&d| p_earlier_over(d, &noise, &rules))
            .collect(),
        Some(c) => c
            .iter()
            .map(|c| c.counts[0] as f64 / trials as f64)
            .collect(),
    };
    let mut cols = vec![
        Column::new("difference".into(), differences.to_vec()),
        Column::new("p_earlier_segment".into(), p.clone()),
    ];
    let mut series = LineSeries {
        name: tr!(
            ctx.lang,
            "nephilim.initiative.series",
            die = rules.die.name(),
            gap = rules.init_segment.gap()
        ),
        points: differences
            .iter()
            .zip(&p)
            .map(|(&d, &q)| (d as f64, q))
            .collect(),
        band: Vec::new(),
    };
    if let Some(c) = &counts {
        let share: Vec<Proportion> = c
            .iter()
            .map(|c| Proportion::new(c.counts[0], trials))
            .collect();
        series.band = differences
            .iter()
            .zip(&share)
            .map(|(&d, s)| (d as f64, s.lo, s.hi))
            .collect();
        cols.push(Column::new(
            "trials".into(),
            vec![trials; differences.len()],
        ));
        let [_, lo, hi] = interval_columns("p_earlier_segment", &share, |&s| s);
        cols.extend([lo, hi]);
    }
    let frame = DataFrame::new_infer_height(cols)?;
    let chart = LineChart {
        title: tr!(ctx.lang, "nephilim.initiative.chart").into(),
        x_label: tr!(ctx.lang, "nephilim.initiative.x_axis").into(),
        y_label: tr!(ctx.lang, "nephilim.initiative.y_axis").into(),
        series: vec![series],
        y_range: Some((0.0, 1.0)),
        x_kind: Default::default(),
    };
    let mut key = Vec::new();
    for d in [0, 3, 5, 8] {
        if let Some(i) = differences.iter().position(|&x| x == d) {
            key.push(tr!(
                ctx.lang,
                "nephilim.initiative.key_difference",
                d = format!("{d:+}"),
                p = ctx.lang.num(p[i], 4)
            ));
        }
    }
    if let Some(i) = differences.iter().position(|&x| x == 5) {
        key.push(tr!(
            ctx.lang,
            "nephilim.initiative.key_example",
            p = ctx.lang.num(p[i], 4)
        ));
    }
    if let Some(first_sure) = differences.iter().zip(&p).find(|(_, &q)| q >= 1.0 - 1e-12) {
        key.push(tr!(
            ctx.lang,
            "nephilim.initiative.key_sure",
            d = format!("{:+}", first_sure.0)
        ));
    }
    Ok(Output {
        name: "nephilim-initiative".into(),
        title: tr!(ctx.lang, "nephilim.initiative.title").into(),
        question: tr!(ctx.lang, "nephilim.initiative.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: key,
        provenance: provenance("nephilim-initiative", ctx, method, trials)
            .with_param("differences", range_text(differences)),
    })
}
