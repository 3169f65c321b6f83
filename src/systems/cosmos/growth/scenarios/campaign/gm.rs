//! The outputs of the game master's script: the exact karma law with grants against the
//! simulation (no postures), and the Light/Dark budget (postures entered and refused).

use polars::prelude::*;

use crate::engine::Moments;
use crate::lang;
use crate::report::{
    BarChart, BarSeries, Chart, Figure, LineChart, LineSeries, Output, Provenance,
};
use crate::stats::{t_interval, wilson};
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
    m: &CampaignModel,
    script: &Script,
    mix: &Mix,
    rules: &TestRules,
    none: &CampaignAcc,
    prov: &Provenance,
) -> anyhow::Result<Output> {
    let exact = exact_checkpoints(m, script, mix, rules);
    let mut cols: Vec<Vec<f64>> = vec![vec![]; 8];
    let mut tests = vec![];
    let mut ex = LineSeries {
        name: crate::tr!("growth.campaign.gm_exact_series").into(),
        ..Default::default()
    };
    let mut mc = LineSeries {
        name: crate::tr!("growth.campaign.gm_mc_series").into(),
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
        let (dl, dh) = wilson(die, t.total());
        worst = worst.max((mean - mean_ex).abs() / se.max(1e-12));
        tests.push(x);
        for (col, v) in cols.iter_mut().zip([
            mean_ex,
            mean,
            lo,
            hi,
            die_share(law),
            die as f64 / t.total() as f64,
            dl,
            dh,
        ]) {
            col.push(v);
        }
        ex.points.push((x as f64, mean_ex));
        mc.points.push((x as f64, mean));
        mc.band.push((x as f64, lo, hi));
    }
    let mut frame = vec![Column::new("test".into(), tests)];
    for (n, c) in [
        "karma_mean_exact",
        "karma_mean_mc",
        "karma_mean_mc_lo",
        "karma_mean_mc_hi",
        "p_karma_die_exact",
        "p_karma_die_mc",
        "p_karma_die_mc_lo",
        "p_karma_die_mc_hi",
    ]
    .iter()
    .zip(cols)
    {
        frame.push(Column::new((*n).into(), c));
    }
    let last = exact.last().map_or(0.0, |l| die_share(l));
    let key = vec![
        crate::tr!("growth.campaign.gm_key_last", share = lang::num(last, 4)),
        crate::tr!("growth.campaign.gm_key_gap", gap = lang::num(worst, 2)),
    ];
    Ok(Output {
        name: "campaign-gm".into(),
        title: crate::tr!("growth.campaign.gm_title").into(),
        question: crate::tr!("growth.campaign.gm_question").into(),
        frame: DataFrame::new_infer_height(frame)?,
        figures: vec![Figure {
            suffix: None,
            panels: vec![Chart::Lines(LineChart {
                title: crate::tr!("growth.campaign.gm_chart").into(),
                x_label: crate::tr!("growth.campaign.tests_axis").into(),
                y_label: crate::tr!("growth.campaign.gm_y").into(),
                y_range: Some((-10.0, 10.0)),
                series: vec![ex, mc],
                ..Default::default()
            })],
        }],
        key_figures: key,
        provenance: Provenance {
            output: "campaign-gm".into(),
            ..prov.clone()
        },
    })
}

/// `campaign-points`: postures entered and refused for want of a Light/Dark point.
pub fn points_output(
    results: &[(&str, CampaignAcc)],
    tests: u32,
    prov: &Provenance,
) -> anyhow::Result<Output> {
    let (_, acc) = results
        .iter()
        .find(|(n, _)| *n == "postures")
        .expect("a budget implies postures (validated)");
    let iv = |m: &Moments| t_interval(m.mean, m.std_error(), m.n);
    let (pl, ph) = iv(&acc.postures);
    let (rl, rh) = iv(&acc.refused);
    let n = acc.postures.n;
    let (ol, oh) = wilson(acc.ran_out, n);
    let ran_out = acc.ran_out as f64 / n.max(1) as f64;
    let key = vec![crate::tr!(
        "growth.campaign.points_key",
        entered = lang::num(acc.postures.mean, 2),
        tests = tests,
        entered_lo = lang::num(pl, 2),
        entered_hi = lang::num(ph, 2),
        refused = lang::num(acc.refused.mean, 2),
        p = lang::num(ran_out, 4),
        p_lo = lang::num(ol, 4),
        p_hi = lang::num(oh, 4)
    )];
    let frame = DataFrame::new_infer_height(vec![
        Column::new("postures".into(), vec!["postures"]),
        Column::new("entered_mean".into(), vec![acc.postures.mean]),
        Column::new("entered_mean_lo".into(), vec![pl]),
        Column::new("entered_mean_hi".into(), vec![ph]),
        Column::new("refused_mean".into(), vec![acc.refused.mean]),
        Column::new("refused_mean_lo".into(), vec![rl.max(0.0)]),
        Column::new("refused_mean_hi".into(), vec![rh]),
        Column::new("p_refused".into(), vec![ran_out]),
        Column::new("p_refused_lo".into(), vec![ol]),
        Column::new("p_refused_hi".into(), vec![oh]),
    ])?;
    // Two categories of counts: bars.
    let chart = BarChart {
        title: crate::tr!("growth.campaign.points_chart").into(),
        x_label: crate::tr!("growth.campaign.points_x").into(),
        y_label: crate::tr!("growth.campaign.points_y").into(),
        categories: vec![
            crate::tr!("growth.campaign.entered").into(),
            crate::tr!("growth.campaign.refused").into(),
        ],
        series: vec![BarSeries {
            name: crate::tr!("growth.campaign.points_series").into(),
            values: vec![acc.postures.mean, acc.refused.mean],
            intervals: vec![(pl, ph), (rl.max(0.0), rh)],
        }],
        y_range: None,
    };
    Ok(Output {
        name: "campaign-points".into(),
        title: crate::tr!("growth.campaign.points_title").into(),
        question: crate::tr!("growth.campaign.points_question").into(),
        frame,
        figures: vec![Figure {
            suffix: None,
            panels: vec![Chart::Bars(chart)],
        }],
        key_figures: key,
        provenance: Provenance {
            output: "campaign-points".into(),
            ..prov.clone()
        },
    })
}
