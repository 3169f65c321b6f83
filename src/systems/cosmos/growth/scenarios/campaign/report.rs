//! The campaign report: trajectories, first times at +-10 and long-run shares.

use polars::prelude::*;

use crate::context::Context;
use crate::lang::Lang;
use crate::report::{
    interval_columns, Chart, Figure, LineChart, LineSeries, Output, Provenance, XKind,
};
use crate::scenario::ScenarioFile;
use crate::stats::{t_interval, Estimate, Proportion};
use crate::systems::cosmos::growth::campaign::{Mix, PostureKind, Postures};
use crate::systems::cosmos::growth::{band_row, quantile_interval, OPTIONS};
use crate::systems::cosmos::{TestRules, KARMA_STATES};
use crate::systems::ScenarioResult;

use super::super::scenario_result;
use super::model::Campaign;
use super::sim::CampaignSim;

/// The test thresholds and their weights, as the file writes them
/// (`40 (weight 2), 60 (weight 3)`).
fn thresholds_text(t: &[(f64, u32)], lang: Lang) -> String {
    let v: Vec<String> = t
        .iter()
        .map(|(threshold, weight)| {
            tr!(
                lang,
                "params.threshold_weight",
                // As the file writes it (`52.5`), with French's decimal comma.
                threshold = match lang {
                    Lang::En => threshold.to_string(),
                    _ => threshold.to_string().replace('.', ","),
                },
                weight
            )
        })
        .collect();
    v.join(", ")
}

/// `every N tests, L tests of KIND` or `none`.
fn postures_text(p: Option<(u32, u32, PostureKind)>, lang: Lang) -> String {
    p.map_or(
        tr!(lang, "params.postures_none").into(),
        |(every, length, kind)| {
            let kind = match kind {
                PostureKind::Illumination => tr!(lang, "params.posture_illumination"),
                PostureKind::Sepulchral => tr!(lang, "params.posture_sepulchral"),
                PostureKind::Alternate => tr!(lang, "params.posture_alternate"),
            };
            tr!(lang, "params.postures", every, length, kind)
        },
    )
}

/// Runs the variants (no postures; postures) and writes the outputs.
pub(super) fn report(
    file: &ScenarioFile,
    c: &Campaign,
    ctx: &Context,
    trials: u64,
    title: Option<String>,
    question: Option<String>,
) -> anyhow::Result<ScenarioResult> {
    let (m, script) = (&c.model, &c.script);
    let rules = TestRules::from_options(&ctx.options);
    let keep = ctx.options.get("posture_karma_exit") == "keep";
    let mix = Mix::new(m.thresholds.clone(), &rules);
    let mut variants: Vec<(&str, Option<Postures>)> = vec![("none", None)];
    if m.postures.is_some() {
        variants.push(super::trace::traced_variant(c, keep));
    }
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    let prov = Provenance::monte_carlo("campaign", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("tests", m.tests)
        .with_param_text(
            "thresholds",
            thresholds_text(&m.thresholds, Lang::En),
            |l| thresholds_text(&m.thresholds, l),
        )
        .with_param_text("postures", postures_text(m.postures, Lang::En), |l| {
            postures_text(m.postures, l)
        })
        .with_param("burn_in", m.burn_in);
    let mut prov = prov.with_scenario(file.reference());
    // Listed only when used, so older files keep their bytes.
    if !script.is_empty() {
        prov = prov.with_param_text("gm_script", script.describe(Lang::En), |l| {
            script.describe(l)
        });
    }
    let mut results = Vec::new();
    for (name, p) in &variants {
        let sim = CampaignSim {
            model: m,
            script,
            mix: &mix,
            postures: *p,
            rules,
        };
        let progress = ctx.progress(
            trials,
            &tr!(ctx.lang, "growth.campaign.progress", variant = name),
        );
        let acc = ctx.engine.run(
            &sim,
            &ctx.stream.clone().text("variant", name),
            trials,
            &progress,
        );
        progress.finish();
        results.push((*name, acc));
    }

    // Trajectories.
    let (mut vn, mut tn) = (vec![], vec![]);
    let mut cols: Vec<Vec<f64>> = vec![vec![]; 7];
    let mut chart = LineChart {
        title: tr!(ctx.lang, "growth.campaign.traj_chart").into(),
        x_label: tr!(ctx.lang, "growth.campaign.tests_axis").into(),
        y_label: tr!(ctx.lang, "growth.campaign.karma_axis").into(),
        y_range: Some((-10.0, 10.0)),
        ..Default::default()
    };
    for (name, acc) in &results {
        let mut s = LineSeries {
            name: tr!(ctx.lang, "growth.campaign.series_postures", variant = name),
            ..Default::default()
        };
        for (c, t) in acc.checkpoints.iter().enumerate() {
            let x = ((c + 1) as u32 * m.checkpoint_every) as i64;
            let (mean, q) = band_row(t);
            let die = t
                .iter()
                .filter(|(k, _)| k.abs() >= 5)
                .map(|(_, n)| n)
                .sum::<u64>() as f64
                / t.total() as f64;
            vn.push(*name);
            tn.push(x);
            for (col, v) in cols
                .iter_mut()
                .zip([mean, q[0], q[1], q[2], q[3], q[4], die])
            {
                col.push(v);
            }
            s.points.push((x as f64, q[2]));
            s.band.push((x as f64, q[0], q[4]));
        }
        chart.series.push(s);
    }
    let mut tcols = vec![
        Column::new("postures".into(), vn),
        Column::new("test".into(), tn),
    ];
    for (n, c) in [
        "karma_mean",
        "karma_p05",
        "karma_p25",
        "karma_p50",
        "karma_p75",
        "karma_p95",
        "p_karma_die",
    ]
    .iter()
    .zip(cols)
    {
        tcols.push(Column::new((*n).into(), c));
    }
    let mut key = Vec::new();
    let traj_out = Output {
        name: "campaign-trajectories".into(),
        title: tr!(ctx.lang, "growth.campaign.traj_title").into(),
        question: tr!(ctx.lang, "growth.campaign.traj_question").into(),
        frame: DataFrame::new_infer_height(tcols)?,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: vec![],
        provenance: prov.for_output("campaign-trajectories"),
    };

    // First time at +-10.
    let (mut vn, mut ev, mut qs, mut dv, mut dl, mut dh, mut pe) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for (name, acc) in &results {
        for (event, t) in [
            ("first_plus_10", &acc.first_plus),
            ("first_minus_10", &acc.first_minus),
        ] {
            let reached = Proportion::new(t.total() - t.above, t.total());
            for q in [0.1, 0.25, 0.5, 0.75, 0.9] {
                let (v, lo, hi) = quantile_interval(t, q);
                vn.push(*name);
                ev.push(event);
                qs.push(q);
                dv.push(v.map(|x| x as f64));
                dl.push(lo.map(|x| x as f64));
                dh.push(hi.map(|x| x as f64));
                pe.push(reached);
                if q == 0.5 && *name == "none" {
                    let label = if event == "first_plus_10" {
                        tr!(ctx.lang, "growth.campaign.first_plus_10")
                    } else {
                        tr!(ctx.lang, "growth.campaign.first_minus_10")
                    };
                    key.push(tr!(
                        ctx.lang,
                        "growth.campaign.first_key",
                        event = label,
                        tests = m.tests,
                        p = ctx.lang.num(reached.p, 4),
                        lo = ctx.lang.num(reached.lo, 4),
                        hi = ctx.lang.num(reached.hi, 4),
                        median = v.map_or(
                            tr!(ctx.lang, "growth.campaign.not_by_half").to_string(),
                            |x| tr!(ctx.lang, "growth.campaign.n_tests", n = x)
                        )
                    ));
                }
            }
        }
    }
    let mut curves = Vec::new();
    for (name, acc) in &results {
        curves.push((
            tr!(ctx.lang, "growth.campaign.curve_plus", variant = name),
            &acc.first_plus,
        ));
        curves.push((
            tr!(ctx.lang, "growth.campaign.curve_minus", variant = name),
            &acc.first_minus,
        ));
    }
    let ext_chart = super::super::cdf_chart(
        ctx.lang,
        tr!(ctx.lang, "growth.campaign.ext_chart"),
        tr!(ctx.lang, "growth.campaign.tests_axis"),
        &curves,
    );
    let ext_out = Output {
        name: "campaign-extremes".into(),
        title: tr!(ctx.lang, "growth.campaign.ext_title").into(),
        question: tr!(ctx.lang, "growth.campaign.ext_question").into(),
        frame: DataFrame::new_infer_height(
            [
                Column::new("postures".into(), vn),
                Column::new("event".into(), ev),
                Column::new("quantile".into(), qs),
                Column::new("tests".into(), dv),
                Column::new("tests_lo".into(), dl),
                Column::new("tests_hi".into(), dh),
            ]
            .into_iter()
            .chain(interval_columns("p_by_end", &pe, |&p| p))
            .collect(),
        )?,
        figures: vec![ext_chart],
        key_figures: key.clone(),
        provenance: prov.for_output("campaign-extremes"),
    };

    // Stationary shares.
    let exact = mix.stationary(&rules);
    let mut scols = vec![
        Column::new("karma".into(), (-10..=10i64).collect::<Vec<_>>()),
        Column::new("share_exact_no_postures".into(), exact.to_vec()),
    ];
    let mut chart = LineChart {
        title: tr!(ctx.lang, "growth.campaign.stat_chart", burn_in = m.burn_in),
        x_label: tr!(ctx.lang, "growth.campaign.stat_x").into(),
        y_label: tr!(ctx.lang, "growth.campaign.stat_y").into(),
        // A distribution over whole karma values: points, not a curve between them.
        x_kind: XKind::Integer,
        ..Default::default()
    };
    chart.series.push(LineSeries {
        name: tr!(ctx.lang, "growth.campaign.exact_series").into(),
        points: (0..KARMA_STATES)
            .map(|i| (i as f64 - 10.0, exact[i]))
            .collect(),
        band: vec![],
    });
    // The share of tests with the karma die in play: |karma| >= 5 (index 10 is karma 0).
    let die_share = |shares: &[f64]| -> f64 {
        shares
            .iter()
            .enumerate()
            .filter(|(i, _)| (*i as i64 - 10).abs() >= 5)
            .map(|(_, s)| s)
            .sum()
    };
    for (name, acc) in &results {
        let total: u64 = acc.visits.iter().sum();
        let share: Vec<f64> = acc
            .visits
            .iter()
            .map(|v| *v as f64 / total as f64)
            .collect();
        let iv: Vec<(f64, f64)> = acc
            .shares
            .iter()
            .map(|s| t_interval(s.mean, s.std_error(), s.n))
            .collect();
        // The pooled share, with the interval of the per-trial shares (inside 0..1).
        let rows: Vec<(f64, (f64, f64))> = share.iter().copied().zip(iv.iter().copied()).collect();
        scols.extend(interval_columns(
            &format!("share_mc_{name}"),
            &rows,
            |&(s, (l, h))| Estimate::new(s, l, h).clipped(0.0, 1.0),
        ));
        chart.series.push(LineSeries {
            name: tr!(ctx.lang, "growth.campaign.mc_series", variant = name),
            points: share
                .iter()
                .enumerate()
                .map(|(i, s)| (i as f64 - 10.0, *s))
                .collect(),
            band: iv
                .iter()
                .enumerate()
                .map(|(i, (l, h))| (i as f64 - 10.0, l.max(0.0), *h))
                .collect(),
        });
        key.push(tr!(
            ctx.lang,
            "growth.campaign.die_key",
            variant = name,
            share = ctx.lang.num(die_share(&share), 4)
        ));
    }
    key.push(tr!(
        ctx.lang,
        "growth.campaign.die_exact_key",
        share = ctx.lang.num(die_share(&exact), 4)
    ));
    let stat_out = Output {
        name: "campaign-stationary".into(),
        title: tr!(ctx.lang, "growth.campaign.stat_title").into(),
        question: tr!(ctx.lang, "growth.campaign.stat_question").into(),
        frame: DataFrame::new_infer_height(scols)?,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: key[key.len().saturating_sub(3)..].to_vec(),
        provenance: prov.for_output("campaign-stationary"),
    };
    let title = title.unwrap_or_else(|| tr!(ctx.lang, "growth.campaign.title").into());
    let question = question.unwrap_or_else(|| tr!(ctx.lang, "growth.campaign.question").into());
    let mut outputs = vec![traj_out, ext_out, stat_out];
    if script.moves_karma() {
        outputs.push(super::gm::exact_output(
            ctx.lang,
            m,
            script,
            &mix,
            &rules,
            &results[0].1,
            &prov,
        )?);
        key.extend(
            outputs
                .last()
                .map(|o| o.key_figures.clone())
                .unwrap_or_default(),
        );
    }
    if script.points.is_some() {
        outputs.push(super::gm::points_output(
            ctx.lang, &results, m.tests, &prov,
        )?);
        key.extend(
            outputs
                .last()
                .map(|o| o.key_figures.clone())
                .unwrap_or_default(),
        );
    }
    // `cosmosim trace` (issue 27): one command per outcome of the traced variant.
    let traced = super::trace::traced_variant(c, keep).0;
    let see = results
        .iter()
        .find(|(n, _)| *n == traced)
        .map_or(String::new(), |(_, acc)| {
            crate::systems::trace::see_trials_section(
                ctx.lang,
                &file.path.display().to_string(),
                ctx.engine.seed(),
                super::trace::OUTCOMES.into_iter().zip(acc.first.counts),
            )
        });
    Ok(scenario_result(
        ctx.lang, title, question, key, outputs, &prov, &see,
    ))
}
