//! `cosmos-piloting`: P(success) by pilot score, vehicle die and stress (C-PILOT).

use polars::prelude::*;

use crate::context::Context;
use crate::report::{Chart, Figure, Heatmap, LineChart, LineSeries, Output, Provenance};
use crate::systems::cosmos::growth::piloting::{automatic, effective_die, p_success, vehicles};
use crate::systems::cosmos::growth::OPTIONS;

/// The grid of the piloting table.
#[derive(Clone, Debug, PartialEq)]
pub struct PilotingGrid {
    pub scores: Vec<i64>,
    pub dice: Vec<u32>,
    pub stress: Vec<u32>,
}

impl Default for PilotingGrid {
    fn default() -> Self {
        PilotingGrid {
            scores: (0..=20).collect(),
            dice: vec![4, 6, 8, 10, 12, 20, 100],
            stress: vec![0, 1, 2],
        }
    }
}

/// CSV `vehicle_die,stress,effective_die,score,p_success,automatic` (effective_die 0 =
/// past the d20, the test fails).
pub fn piloting_output(grid: &PilotingGrid, ctx: &Context) -> anyhow::Result<Output> {
    let (mut die, mut st, mut eff, mut sc, mut p, mut auto) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for &d in &grid.dice {
        for &s in &grid.stress {
            for &score in &grid.scores {
                die.push(d as i64);
                st.push(s as i64);
                eff.push(effective_die(d, s).map_or(0, |f| f as i64));
                sc.push(score);
                p.push(p_success(score, d, s));
                auto.push(automatic(score, d, s));
            }
        }
    }
    let frame = DataFrame::new_infer_height(vec![
        Column::new("vehicle_die".into(), die),
        Column::new("stress".into(), st),
        Column::new("effective_die".into(), eff),
        Column::new("score".into(), sc),
        Column::new("p_success".into(), p),
        Column::new("automatic".into(), auto),
    ])?;
    let mut panels = Vec::new();
    for &s in &grid.stress {
        let mut chart = LineChart {
            title: tr!(ctx.lang, "growth.piloting.chart_title", stress = s),
            x_label: tr!(ctx.lang, "growth.piloting.x_crew").into(),
            y_label: tr!(ctx.lang, "growth.piloting.y_success").into(),
            y_range: Some((0.0, 1.0)),
            ..Default::default()
        };
        for &d in &grid.dice {
            chart.series.push(LineSeries {
                name: tr!(ctx.lang, "growth.piloting.series_vehicle", die = d),
                points: grid
                    .scores
                    .iter()
                    .map(|&x| (x as f64, p_success(x, d, s)))
                    .collect(),
                band: vec![],
            });
        }
        panels.push(Chart::Lines(chart));
    }
    let heat_dice: Vec<u32> = grid.dice.iter().copied().filter(|&d| d != 100).collect();
    let heat = Heatmap {
        title: tr!(ctx.lang, "growth.piloting.heat_title").into(),
        x_label: tr!(ctx.lang, "growth.piloting.x_score").into(),
        y_label: tr!(ctx.lang, "growth.piloting.y_die").into(),
        columns: Heatmap::labels(&grid.scores),
        rows: heat_dice.iter().map(|d| format!("d{d}")).collect(),
        values: heat_dice
            .iter()
            .map(|&d| grid.scores.iter().map(|&x| p_success(x, d, 0)).collect())
            .collect(),
        range: (0.0, 1.0),
    };
    let mut key = vec![
        tr!(
            ctx.lang,
            "growth.piloting.key_d8",
            calm = ctx.lang.num(p_success(5, 8, 0), 3),
            stress1 = ctx.lang.num(p_success(5, 8, 1), 3),
            stress2 = ctx.lang.num(p_success(5, 8, 2), 3)
        ),
        tr!(
            ctx.lang,
            "growth.piloting.key_d12",
            p = ctx.lang.num(p_success(50, 12, 2), 1)
        ),
    ];
    key.push(
        vehicles(ctx.lang)
            .iter()
            .map(|(d, pl, astral)| format!("d{d}: {pl} / {astral}"))
            .collect::<Vec<_>>()
            .join("; "),
    );
    let prov = Provenance::exact("cosmos-piloting", "cosmos", ctx.options.in_force(OPTIONS))
        .with_param("scores", crate::report::range_text(&grid.scores))
        .with_param(
            "dice",
            grid.dice
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(","),
        )
        .with_param(
            "stress",
            grid.stress
                .iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(","),
        );
    Ok(Output {
        name: "cosmos-piloting".into(),
        title: tr!(ctx.lang, "growth.piloting.title").into(),
        question: tr!(ctx.lang, "growth.piloting.question").into(),
        frame,
        figures: vec![Figure::new(
            panels.into_iter().chain([Chart::Heatmap(heat)]).collect(),
        )],
        key_figures: key,
        provenance: prov,
    })
}
