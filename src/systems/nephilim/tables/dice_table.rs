use polars::prelude::*;

use crate::context::Context;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output};
use crate::systems::nephilim::DieKind;

use super::provenance;

/// The `nephilim-dice` output: the +1D-1D law of all three dice in one file, columns
/// `die,modifier,probability,cumulative` with cumulative = P(result <= modifier) (N-DIE).
/// The `die` rule option does not filter it: the point is to compare the dice.
pub fn dice_output(ctx: &Context) -> anyhow::Result<Output> {
    let (mut die, mut modifier, mut prob, mut cum) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut chart = LineChart {
        title: tr!(ctx.lang, "nephilim.dice.chart").into(),
        x_label: tr!(ctx.lang, "nephilim.dice.x_axis").into(),
        y_label: tr!(ctx.lang, "nephilim.dice.probability").into(),
        ..Default::default()
    };
    let mut key = Vec::new();
    for d in DieKind::ALL {
        let r = d.roll_dist();
        let mut c = 0.0;
        let mut s = LineSeries {
            name: tr!(
                ctx.lang,
                "nephilim.dice.series",
                die = d.name(),
                crit = d.crit()
            ),
            ..Default::default()
        };
        for m in -d.crit()..=d.crit() {
            let p = r.prob(&m);
            c += p;
            die.push(d.name());
            modifier.push(m);
            prob.push(p);
            cum.push(c.min(1.0));
            s.points.push((m as f64, p));
        }
        chart.series.push(s);
        key.push(tr!(
            ctx.lang,
            "nephilim.dice.key",
            die = d.name(),
            zero = ctx.lang.num(r.prob(&0), 4),
            at_least = ctx.lang.num(r.prob_where(|x| *x >= 0), 4),
            crit = d.crit(),
            p_crit = ctx.lang.num(r.prob(&d.crit()), 4),
            sd = ctx.lang.num(r.variance().sqrt(), 3)
        ));
    }
    let frame = DataFrame::new_infer_height(vec![
        Column::new("die".into(), die),
        Column::new("modifier".into(), modifier),
        Column::new("probability".into(), prob),
        Column::new("cumulative".into(), cum),
    ])?;
    Ok(Output {
        name: "nephilim-dice".into(),
        title: tr!(ctx.lang, "nephilim.dice.title").into(),
        question: tr!(ctx.lang, "nephilim.dice.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: key,
        provenance: provenance("nephilim-dice", ctx, crate::context::Method::Exact, 0)
            .with_param_text(
                "dice",
                tr!(crate::lang::Lang::En, "params.nephilim_dice"),
                |l| tr!(l, "params.nephilim_dice").to_string(),
            )
            .with_param_text(
                "cumulative",
                tr!(crate::lang::Lang::En, "params.cumulative"),
                |l| tr!(l, "params.cumulative").to_string(),
            ),
    })
}
