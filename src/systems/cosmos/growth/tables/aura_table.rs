//! `cosmos-aura`: how each aura face moves the victim's test, both editions (C-AURA).

use polars::prelude::*;

use crate::context::Context;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance};
use crate::systems::cosmos::growth::aura::{
    aura_average, aura_effect, landed_against_canceller, AuraTarget, Edition,
};
use crate::systems::cosmos::growth::{GrowthRules, OPTIONS};
use crate::systems::cosmos::TestRules;

/// The grid of the aura table.
#[derive(Clone, Debug, PartialEq)]
pub struct AuraGrid {
    pub editions: Vec<Edition>,
    pub thresholds: Vec<i64>,
    pub karma: i8,
    /// The victim's percentage modifier on its test: a bonus above 0, a malus below
    /// (C-AURA: the faces strip the bonus only, `AuraMods::of_net`).
    pub bonus: f64,
    /// The victim's Esprit (face 6).
    pub esprit: f64,
}

impl Default for AuraGrid {
    fn default() -> Self {
        AuraGrid {
            editions: vec![Edition::Current, Edition::Previous],
            thresholds: (20..=85).step_by(5).collect(),
            karma: 0,
            bonus: 10.0,
            esprit: 50.0,
        }
    }
}

/// CSV `edition,face,threshold,karma,bonus,p_success_or_better,p_crit_or_better,
/// p_no_aura,delta_success`.
pub fn aura_output(grid: &AuraGrid, ctx: &Context) -> anyhow::Result<Output> {
    let rules = TestRules::from_options(&ctx.options);
    let growth = GrowthRules::from_options(&ctx.options);
    let (mut ed, mut face, mut thr, mut sob, mut crit, mut base) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    let target = |t: i64| AuraTarget {
        threshold: t as f64,
        karma: grid.karma,
        bonus: grid.bonus,
        esprit: grid.esprit,
    };
    let mut panels = Vec::new();
    let mut key = Vec::new();
    for &e in &grid.editions {
        let mut chart = LineChart {
            title: tr!(
                ctx.lang,
                "growth.aura.chart_title",
                edition = e.label(ctx.lang)
            ),
            x_label: tr!(ctx.lang, "growth.aura.x_threshold").into(),
            y_label: tr!(ctx.lang, "growth.aura.y_success").into(),
            y_range: Some((0.0, 1.0)),
            ..Default::default()
        };
        for f in 1..=6u8 {
            let mut s = LineSeries {
                name: tr!(ctx.lang, "growth.aura.series_face", face = f),
                ..Default::default()
            };
            for &t in &grid.thresholds {
                let r = aura_effect(ctx.lang, e, f, &target(t), &rules, &growth)?;
                let none = aura_effect(ctx.lang, e, 1, &target(t), &rules, &growth)?;
                ed.push(e.name());
                face.push(f as i64);
                thr.push(t);
                sob.push(r.p_success);
                crit.push(r.p_crit);
                base.push(none.p_success);
                s.points.push((t as f64, r.p_success));
            }
            chart.series.push(s);
        }
        let mut avg = LineSeries {
            name: tr!(ctx.lang, "growth.aura.series_average").into(),
            ..Default::default()
        };
        for &t in &grid.thresholds {
            avg.points.push((
                t as f64,
                aura_average(ctx.lang, e, &target(t), &rules, &growth)?.p_success,
            ));
        }
        chart.series.push(avg);
        panels.push(Chart::Lines(chart));
        let t55 = target(55);
        let none = aura_effect(ctx.lang, e, 1, &t55, &rules, &growth)?.p_success;
        let a = aura_average(ctx.lang, e, &t55, &rules, &growth)?.p_success;
        key.push(tr!(
            ctx.lang,
            "growth.aura.key_edition",
            edition = e.label(ctx.lang),
            // Signed: a negative `--bonus` is a malus (audit of 2026-12-08).
            bonus = if grid.bonus < 0.0 {
                super::super::dec(ctx.lang, grid.bonus)
            } else {
                format!("+{}", super::super::dec(ctx.lang, grid.bonus))
            },
            karma = format!("{:+}", grid.karma),
            none = ctx.lang.num(none, 4),
            avg = ctx.lang.num(a, 4),
            points = ctx.lang.signed(100.0 * (a - none), 1)
        ));
    }
    key.push(tr!(
        ctx.lang,
        "growth.aura.key_anti",
        rolled = landed_against_canceller(10)
    ));
    let n = ed.len();
    let delta: Vec<f64> = sob.iter().zip(&base).map(|(a, b)| a - b).collect();
    let frame = DataFrame::new_infer_height(vec![
        Column::new("edition".into(), ed),
        Column::new("face".into(), face),
        Column::new("threshold".into(), thr),
        Column::new("karma".into(), vec![grid.karma as i64; n]),
        Column::new("bonus".into(), vec![grid.bonus; n]),
        Column::new("p_success_or_better".into(), sob),
        Column::new("p_crit_or_better".into(), crit),
        Column::new("p_no_aura".into(), base),
        Column::new("delta_success".into(), delta),
    ])?;
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    let prov = Provenance::exact("cosmos-aura", "cosmos", opts)
        .with_param(
            "editions",
            grid.editions
                .iter()
                .map(|e| e.name())
                .collect::<Vec<_>>()
                .join(","),
        )
        .with_param("karma", grid.karma)
        .with_param("bonus_percent", grid.bonus)
        .with_param("esprit", grid.esprit);
    Ok(Output {
        name: "cosmos-aura".into(),
        title: tr!(ctx.lang, "growth.aura.title").into(),
        question: tr!(ctx.lang, "growth.aura.question").into(),
        frame,
        figures: vec![Figure::new(panels)],
        key_figures: key,
        provenance: prov,
    })
}
