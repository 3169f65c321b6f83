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
        title: "+1D-1D by die".into(),
        x_label: "modifier (+1D-1D)".into(),
        y_label: "probability".into(),
        ..Default::default()
    };
    let mut key = Vec::new();
    for d in DieKind::ALL {
        let r = d.roll_dist();
        let mut c = 0.0;
        let mut s = LineSeries {
            name: format!("{} (crits at +-{})", d.name(), d.crit()),
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
        key.push(format!(
            "{}: P(+1D-1D = 0) = {:.4}, P(>= 0) = {:.4}, P(raw +{}) = {:.4}, standard deviation {:.3}",
            d.name(),
            r.prob(&0),
            r.prob_where(|x| *x >= 0),
            d.crit(),
            r.prob(&d.crit()),
            r.variance().sqrt()
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
        title: "Nephilim +1D-1D modifier by die".into(),
        question: "How likely is each +1D-1D modifier with the Nephilim die (0,1,2,2,3,4), a plain d6 or a plain d4, and how likely is a result at or below it?".into(),
        frame,
        figures: vec![Figure {
            suffix: None,
            panels: vec![Chart::Lines(chart)],
        }],
        key_figures: key,
        provenance: provenance("nephilim-dice", ctx, crate::context::Method::Exact, 0)
            .with_param("dice", "nephilim,d6,d4 (all three; the die option does not filter this table)")
            .with_param("cumulative", "P(result <= modifier)"),
    })
}
