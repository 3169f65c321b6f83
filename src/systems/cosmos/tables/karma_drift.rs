use polars::prelude::*;

use crate::context::{Context, Method};
use crate::engine::StreamKey;
use crate::report::{
    float_column, int_column, Chart, Figure, Heatmap, LineChart, LineSeries, Output, Provenance,
};
use crate::stats::t_interval;
use crate::systems::cosmos::{
    stationary_with_band, KarmaWalk, TestRules, KARMA_MIN, KARMA_STATES, OPTIONS,
};

use super::test_table::range_text;

/// The grid of the `cosmos-karma-drift` table.
#[derive(Clone, Debug, PartialEq)]
pub struct KarmaDriftParams {
    pub thresholds: Vec<i64>,
    /// Tests discarded at the start of each simulated trajectory.
    pub burn_in: u64,
    /// Start of the crit-failure band (91; 86 under extreme fatigue, C-FAT-4).
    pub crit_fail_from: u8,
}

/// One row: threshold, karma, stationary share (with the Monte Carlo interval if any).
#[derive(Clone, Debug, PartialEq)]
pub struct KarmaDriftRow {
    pub threshold: i64,
    pub karma: i64,
    pub p: f64,
    pub interval: Option<(f64, f64)>,
}

fn rows(
    params: &KarmaDriftParams,
    ctx: &Context,
    method: Method,
    trials: u64,
) -> Vec<KarmaDriftRow> {
    let rules = TestRules::from_options(&ctx.options);
    let progress = ctx.progress(
        trials * params.thresholds.len() as u64,
        "cosmos-karma-drift",
    );
    // Every threshold at once (issue 28); rows stay in threshold order.
    let per: Vec<Vec<KarmaDriftRow>> = ctx.engine.map_cells(&params.thresholds, |&t| {
        let mut out = Vec::new();
        match method {
            Method::Exact => {
                let pi = stationary_with_band(t as f64, params.crit_fail_from, &rules);
                for (i, p) in pi.iter().enumerate() {
                    out.push(KarmaDriftRow {
                        threshold: t,
                        karma: KARMA_MIN as i64 + i as i64,
                        p: *p,
                        interval: None,
                    });
                }
            }
            Method::Mc => {
                let walk =
                    KarmaWalk::with_band(t as f64, params.crit_fail_from, &rules, params.burn_in);
                let acc = ctx.engine.run(
                    &walk,
                    &StreamKey::new("cosmos.karma-drift").int("threshold", t),
                    trials,
                    &progress,
                );
                let total = acc.visits.total() as f64;
                for i in 0..KARMA_STATES {
                    let m = &acc.share[i];
                    out.push(KarmaDriftRow {
                        threshold: t,
                        karma: KARMA_MIN as i64 + i as i64,
                        p: acc.visits.counts[i] as f64 / total,
                        interval: Some(t_interval(m.mean, m.std_error(), m.n)),
                    });
                }
            }
        }
        out
    });
    let out: Vec<KarmaDriftRow> = per.concat();
    progress.finish();
    out
}

/// The `cosmos-karma-drift` output: `threshold,karma,p_stationary` (+ `steps`,
/// `p_stationary_lo`, `p_stationary_hi` with `--method mc`), charts and provenance.
pub fn karma_drift_output(
    params: &KarmaDriftParams,
    ctx: &Context,
    method: Method,
    trials: u64,
) -> anyhow::Result<Output> {
    let rows = rows(params, ctx, method, trials);
    let mut cols = vec![
        int_column("threshold", &rows, |r| r.threshold),
        int_column("karma", &rows, |r| r.karma),
        float_column("p_stationary", &rows, |r| r.p),
    ];
    if method == Method::Mc {
        cols.push(Column::new("steps".into(), vec![trials; rows.len()]));
        cols.push(float_column("p_stationary_lo", &rows, |r| {
            r.interval.map_or(0.0, |i| i.0.max(0.0))
        }));
        cols.push(float_column("p_stationary_hi", &rows, |r| {
            r.interval.map_or(1.0, |i| i.1.min(1.0))
        }));
    }
    let frame = DataFrame::new_infer_height(cols)?;

    let n = params.thresholds.len();
    let picks: Vec<i64> = if n <= 5 {
        params.thresholds.clone()
    } else {
        (0..5).map(|i| params.thresholds[i * (n - 1) / 4]).collect()
    };
    let mut lines = LineChart {
        title: tr!(ctx.lang, "cosmos.drift.lines_title").into(),
        x_label: tr!(ctx.lang, "cosmos.table.karma_axis").into(),
        y_label: tr!(ctx.lang, "cosmos.drift.share_axis").into(),
        ..Default::default()
    };
    for t in &picks {
        let of_t: Vec<&KarmaDriftRow> = rows.iter().filter(|r| r.threshold == *t).collect();
        lines.series.push(LineSeries {
            name: tr!(ctx.lang, "cosmos.drift.threshold_series", threshold = t),
            points: of_t.iter().map(|r| (r.karma as f64, r.p)).collect(),
            band: of_t
                .iter()
                .filter_map(|r| r.interval.map(|(lo, hi)| (r.karma as f64, lo.max(0.0), hi)))
                .collect(),
        });
    }
    let karmas: Vec<i64> = (-10..=10).collect();
    let max_p = rows.iter().map(|r| r.p).fold(0.0, f64::max);
    let heat = Heatmap {
        title: tr!(ctx.lang, "cosmos.drift.heat_title").into(),
        x_label: tr!(ctx.lang, "cosmos.table.threshold_axis").into(),
        y_label: tr!(ctx.lang, "cosmos.table.karma_axis").into(),
        columns: Heatmap::labels(&params.thresholds),
        rows: Heatmap::labels(&karmas),
        values: karmas
            .iter()
            .map(|&k| {
                params
                    .thresholds
                    .iter()
                    .map(|&t| {
                        rows.iter()
                            .find(|r| r.threshold == t && r.karma == k)
                            .map_or(0.0, |r| r.p)
                    })
                    .collect()
            })
            .collect(),
        range: (0.0, max_p),
    };

    let mut key = Vec::new();
    for t in &picks {
        let of_t: Vec<&KarmaDriftRow> = rows.iter().filter(|r| r.threshold == *t).collect();
        let mean: f64 = of_t.iter().map(|r| r.karma as f64 * r.p).sum();
        let high: f64 = of_t.iter().filter(|r| r.karma >= 5).map(|r| r.p).sum();
        let low: f64 = of_t.iter().filter(|r| r.karma <= -5).map(|r| r.p).sum();
        key.push(tr!(
            ctx.lang,
            "cosmos.drift.key",
            threshold = t,
            mean = ctx.lang.signed(mean, 3),
            high = ctx.lang.num(high, 4),
            low = ctx.lang.num(low, 4)
        ));
    }

    // Success and failure never move karma (C-KARMA-1), so the threshold only matters
    // through the crit bands: say so when the table shows it.
    let spread = params
        .thresholds
        .iter()
        .flat_map(|&t| {
            let of_t: Vec<f64> = rows
                .iter()
                .filter(|r| r.threshold == t)
                .map(|r| r.p)
                .collect();
            let first: Vec<f64> = rows
                .iter()
                .filter(|r| r.threshold == params.thresholds[0])
                .map(|r| r.p)
                .collect();
            of_t.into_iter()
                .zip(first)
                .map(|(a, b)| (a - b).abs())
                .collect::<Vec<_>>()
        })
        .fold(0.0, f64::max);
    if method == Method::Exact && params.thresholds.len() > 1 {
        key.insert(
            0,
            tr!(
                ctx.lang,
                "cosmos.drift.spread",
                spread = {
                    // Scientific notation has no helper: localise its decimal mark here.
                    let s = format!("{spread:.2e}");
                    match ctx.lang {
                        crate::lang::Lang::Fr => s.replace('.', ","),
                        crate::lang::Lang::En => s,
                    }
                },
                from = params.crit_fail_from
            ),
        );
    }

    let opts = ctx.options.in_force(OPTIONS);
    let prov = match method {
        Method::Exact => Provenance::exact("cosmos-karma-drift", "cosmos", opts),
        Method::Mc => Provenance::monte_carlo(
            "cosmos-karma-drift",
            "cosmos",
            opts,
            ctx.engine.seed(),
            trials,
        )
        .with_param("burn_in", params.burn_in)
        .with_param_text(
            "interval",
            tr!(crate::lang::Lang::En, "params.interval_t"),
            |l| tr!(l, "params.interval_t").to_string(),
        )
        .with_param(
            crate::report::T_DF_PARAM,
            trials.div_ceil(crate::engine::BATCH_SIZE).saturating_sub(1),
        ),
    }
    .with_param("thresholds", range_text(&params.thresholds))
    .with_param("crit_fail_from", params.crit_fail_from);

    Ok(Output {
        name: "cosmos-karma-drift".into(),
        title: tr!(ctx.lang, "cosmos.drift.title").into(),
        question: tr!(ctx.lang, "cosmos.drift.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(lines), Chart::Heatmap(heat)])],
        key_figures: key,
        provenance: prov,
    })
}
