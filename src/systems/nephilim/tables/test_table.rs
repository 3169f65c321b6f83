use polars::prelude::*;

use crate::context::{Context, Method};
use crate::engine::{Counts, Draws, Simulation};
use crate::report::{interval_columns, Chart, Figure, LineChart, LineSeries, Output};
use crate::stats::{wilson, Proportion};
use crate::systems::nephilim::{classify, probs_over, DSampler, NephilimRules, Outcome};

use super::{provenance, range_text};

/// Monte Carlo counts of one margin, in `Outcome::ALL` order.
pub type TestCounts = Counts<4>;

struct TestSim {
    margin: i64,
    crit: i64,
    d: DSampler,
}

impl Simulation for TestSim {
    type Acc = TestCounts;

    fn empty(&self) -> TestCounts {
        TestCounts::default()
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut TestCounts) {
        let rng = &mut draws.batch();
        for _ in 0..trials {
            acc.add(classify(self.margin, self.d.roll(rng), self.crit) as usize);
        }
    }
}

/// The stream key of a margin: its value, not the row position (the die is a rule: a
/// variant's die meets the same streams).
fn key(margin: i64) -> crate::engine::StreamKey {
    crate::engine::StreamKey::new("nephilim.test").int("margin", margin)
}

/// Monte Carlo counts per margin, `trials` each.
pub fn test_mc(
    margins: &[i64],
    rules: &NephilimRules,
    ctx: &Context,
    trials: u64,
) -> Vec<TestCounts> {
    let progress = ctx.progress(trials * margins.len() as u64, "nephilim-test");
    let out = ctx.engine.map_cells(margins, |&m| {
        let sim = TestSim {
            margin: m,
            crit: rules.crit_from(),
            d: rules.die.sampler(),
        };
        ctx.engine.run(&sim, &key(m), trials, &progress)
    });
    progress.finish();
    out
}

/// The `nephilim-test` output: `margin,p_crit_success,p_success,p_failure,p_crit_failure`
/// (margin = score - difficulty before the dice; N-TEST, N-CRIT) for the die in force,
/// plus `trials` and `<class>_lo/_hi` 95% Wilson bounds with `--method mc`.
pub fn test_output(
    margins: &[i64],
    ctx: &Context,
    method: Method,
    trials: u64,
) -> anyhow::Result<Output> {
    let rules = NephilimRules::from_options(&ctx.options);
    let roll = rules.die.roll_dist();
    let counts = (method == Method::Mc).then(|| test_mc(margins, &rules, ctx, trials));
    let probs: Vec<[f64; 4]> = match &counts {
        None => margins
            .iter()
            .map(|&m| probs_over(m, &roll, rules.crit_from()))
            .collect(),
        Some(c) => c
            .iter()
            .map(|c| c.counts.map(|x| x as f64 / trials as f64))
            .collect(),
    };
    let mut cols = vec![Column::new("margin".into(), margins.to_vec())];
    for o in Outcome::ALL {
        cols.push(Column::new(
            format!("p_{}", o.name()).into(),
            probs.iter().map(|p| p[o as usize]).collect::<Vec<_>>(),
        ));
    }
    if let Some(counts) = &counts {
        cols.push(Column::new("trials".into(), vec![trials; margins.len()]));
        for o in Outcome::ALL {
            let [_, lo, hi] = interval_columns(o.name(), counts, |c| {
                Proportion::new(c.counts[o as usize], trials)
            });
            cols.extend([lo, hi]);
        }
    }
    let frame = DataFrame::new_infer_height(cols)?;

    let mut chart = LineChart {
        title: tr!(ctx.lang, "nephilim.test.chart", die = rules.die.name()),
        x_label: tr!(ctx.lang, "nephilim.test.x_axis").into(),
        y_label: tr!(ctx.lang, "nephilim.dice.probability").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    let mut sob = LineSeries {
        name: tr!(ctx.lang, "nephilim.test.success_or_better").into(),
        ..Default::default()
    };
    for (i, &m) in margins.iter().enumerate() {
        sob.points.push((m as f64, probs[i][0] + probs[i][1]));
        if let Some(c) = &counts {
            let (lo, hi) = wilson(c[i].counts[0] + c[i].counts[1], trials);
            sob.band.push((m as f64, lo, hi));
        }
    }
    chart.series.push(sob);
    for o in Outcome::ALL {
        chart.series.push(LineSeries {
            name: match o {
                Outcome::CritSuccess => tr!(ctx.lang, "nephilim.test.crit_success"),
                Outcome::Success => tr!(ctx.lang, "nephilim.test.success"),
                Outcome::Failure => tr!(ctx.lang, "nephilim.test.failure"),
                Outcome::CritFailure => tr!(ctx.lang, "nephilim.test.crit_failure"),
            }
            .into(),
            points: margins
                .iter()
                .zip(&probs)
                .map(|(&m, p)| (m as f64, p[o as usize]))
                .collect(),
            band: Vec::new(),
        });
    }

    let mut key = Vec::new();
    for m in [-4, -2, 0, 2, 4] {
        if let Some(i) = margins.iter().position(|&x| x == m) {
            let p = probs[i];
            key.push(tr!(
                ctx.lang,
                "nephilim.test.key",
                m = format!("{m:+}"),
                success = ctx.lang.num(p[0] + p[1], 4),
                crit = ctx.lang.num(p[0], 4),
                crit_failure = ctx.lang.num(p[3], 4)
            ));
        }
    }
    Ok(Output {
        name: "nephilim-test".into(),
        title: tr!(ctx.lang, "nephilim.test.title").into(),
        question: tr!(ctx.lang, "nephilim.test.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: key,
        provenance: provenance("nephilim-test", ctx, method, trials)
            .with_param("margins", range_text(margins)),
    })
}
