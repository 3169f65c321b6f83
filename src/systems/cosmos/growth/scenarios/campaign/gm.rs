//! The outputs of the game master's script: the exact karma law with grants against the
//! simulation (no postures), and the Light/Dark budget (postures entered and refused).

use polars::prelude::*;

use crate::lang::Lang;
use crate::report::{
    float_column, interval_columns, BarChart, BarSeries, Chart, Figure, LineChart, LineSeries,
    Output, Provenance,
};
use crate::stats::{t_interval, Estimate, Proportion};

use super::super::common::nonnegative_mean;
use crate::systems::cosmos::growth::campaign::Mix;
use crate::systems::cosmos::TestRules;

use super::model::{CampaignModel, Script};
use super::sim::{exact_checkpoints, CampaignAcc};

fn die_share(law: &[f64]) -> f64 {
    law.iter()
        .enumerate()
        .filter(|(i, _)| (*i as i64 - 10).abs() >= 5)
        .map(|(_, p)| p)
        .sum()
}

/// `campaign-gm`: karma mean and P(karma die in play) at each checkpoint, exact and
/// simulated, without postures, the grants included.
pub fn exact_output(
    lang: Lang,
    m: &CampaignModel,
    script: &Script,
    mix: &Mix,
    rules: &TestRules,
    none: &CampaignAcc,
    prov: &Provenance,
) -> anyhow::Result<Output> {
    let exact = exact_checkpoints(m, script, mix, rules);
    // (test, karma mean exact, simulated, P(karma die) exact, simulated)
    let mut rows: Vec<(i64, f64, Estimate, f64, Proportion)> = vec![];
    let mut ex = LineSeries {
        name: tr!(lang, "growth.campaign.gm_exact_series").into(),
        ..Default::default()
    };
    let mut mc = LineSeries {
        name: tr!(lang, "growth.campaign.gm_mc_series").into(),
        ..Default::default()
    };
    let mut worst: f64 = 0.0;
    for (c, (law, t)) in exact.iter().zip(&none.checkpoints).enumerate() {
        let x = ((c + 1) as u32 * m.checkpoint_every) as i64;
        let mean_ex: f64 = law
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64 - 10.0) * p)
            .sum();
        let total = t.total();
        let nf = total as f64;
        let mean = t.iter().map(|(k, n)| k as f64 * n as f64).sum::<f64>() / nf;
        let var = t
            .iter()
            .map(|(k, n)| (k as f64 - mean).powi(2) * n as f64)
            .sum::<f64>()
            / (nf - 1.0).max(1.0);
        let se = (var / nf).sqrt();
        let die: u64 = t.iter().filter(|(k, _)| k.abs() >= 5).map(|(_, n)| n).sum();
        let (lo, hi) = t_interval(mean, se, total);
        worst = worst.max((mean - mean_ex).abs() / se.max(1e-12));
        rows.push((
            x,
            mean_ex,
            Estimate::new(mean, lo, hi),
            die_share(law),
            Proportion::new(die, t.total()),
        ));
        ex.points.push((x as f64, mean_ex));
        mc.points.push((x as f64, mean));
        mc.band.push((x as f64, lo, hi));
    }
    let mut frame = vec![
        Column::new("test".into(), rows.iter().map(|r| r.0).collect::<Vec<_>>()),
        float_column("karma_mean_exact", &rows, |r| r.1),
    ];
    frame.extend(interval_columns("karma_mean_mc", &rows, |r| r.2));
    frame.push(float_column("p_karma_die_exact", &rows, |r| r.3));
    frame.extend(interval_columns("p_karma_die_mc", &rows, |r| r.4));
    let last = exact.last().map_or(0.0, |l| die_share(l));
    let key = vec![
        tr!(
            lang,
            "growth.campaign.gm_key_last",
            share = lang.num(last, 4)
        ),
        tr!(lang, "growth.campaign.gm_key_gap", gap = lang.num(worst, 2)),
    ];
    Ok(Output {
        name: "campaign-gm".into(),
        title: tr!(lang, "growth.campaign.gm_title").into(),
        question: tr!(lang, "growth.campaign.gm_question").into(),
        frame: DataFrame::new_infer_height(frame)?,
        figures: vec![Figure::new(vec![Chart::Lines(LineChart {
            title: tr!(lang, "growth.campaign.gm_chart").into(),
            x_label: tr!(lang, "growth.campaign.tests_axis").into(),
            y_label: tr!(lang, "growth.campaign.gm_y").into(),
            y_range: Some((-10.0, 10.0)),
            series: vec![ex, mc],
            ..Default::default()
        })])],
        key_figures: key,
        provenance: prov.for_output("campaign-gm"),
    })
}

/// `campaign-points`: postures entered and refused for want of a Light/Dark point.
pub fn points_output(
    lang: Lang,
    results: &[(&str, CampaignAcc)],
    tests: u32,
    prov: &Provenance,
) -> anyhow::Result<Output> {
    let (_, acc) = results
        .iter()
        .find(|(n, _)| *n == "postures")
        .expect("a budget implies postures (validated)");
    let entered = Estimate::mean(&acc.postures);
    let refused = nonnegative_mean(&acc.refused);
    let ran_out = Proportion::new(acc.ran_out, acc.postures.n);
    let key = vec![
        tr!(
            lang,
            "growth.campaign.points_key",
            entered = lang.num(entered.value, 2),
            tests,
            entered_lo = lang.num(entered.lo, 2),
            entered_hi = lang.num(entered.hi, 2),
            refused = lang.num(refused.value, 2),
            p = lang.num(ran_out.p, 4),
            p_lo = lang.num(ran_out.lo, 4),
            p_hi = lang.num(ran_out.hi, 4)
        ) + lang.no_spread(entered.lo, entered.hi),
    ];
    let one = ["postures"];
    let mut cols = vec![Column::new("postures".into(), one.to_vec())];
    cols.extend(interval_columns("entered_mean", &one, |_| entered));
    cols.extend(interval_columns("refused_mean", &one, |_| refused));
    cols.extend(interval_columns("p_refused", &one, |_| ran_out));
    let frame = DataFrame::new_infer_height(cols)?;
    // Two categories of counts: bars.
    let chart = BarChart {
        title: tr!(lang, "growth.campaign.points_chart").into(),
        x_label: tr!(lang, "growth.campaign.points_x").into(),
        y_label: tr!(lang, "growth.campaign.points_y").into(),
        categories: vec![
            tr!(lang, "growth.campaign.entered").into(),
            tr!(lang, "growth.campaign.refused").into(),
        ],
        series: vec![BarSeries {
            name: tr!(lang, "growth.campaign.points_series").into(),
            values: vec![entered.value, refused.value],
            intervals: vec![(entered.lo, entered.hi), (refused.lo, refused.hi)],
        }],
        y_range: None,
    };
    Ok(Output {
        name: "campaign-points".into(),
        title: tr!(lang, "growth.campaign.points_title").into(),
        question: tr!(lang, "growth.campaign.points_question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Bars(chart)])],
        key_figures: key,
        provenance: prov.for_output("campaign-points"),
    })
}
