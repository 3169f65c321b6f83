//! The mutation report: survival curves, time-to-event quantiles, ultimate shares, the
//! Chance x karma sweep, and what events, levels and campaign tests did.

use polars::prelude::*;

use crate::context::Context;
use crate::engine::Tally;
use crate::lang::Lang;
use crate::report::{
    interval_columns, param_text, BarChart, BarSeries, Chart, Figure, LineChart, LineSeries,
    Output, Provenance,
};
use crate::rules::growth::MUTATION_OPTIONS;
use crate::scenario::ScenarioFile;
use crate::stats::{wilson, Estimate, Proportion};
use crate::systems::cosmos::growth::genetics::Ultimate;
use crate::systems::cosmos::growth::{quantile_interval, OPTIONS};
use crate::systems::ScenarioResult;

use super::super::scenario_result;
use super::model::MutationModel;
use super::sim::run_cell;

fn share_by(t: &Tally, day: u32) -> u64 {
    t.below
        + t.iter()
            .take_while(|(d, _)| *d <= day as i64)
            .map(|(_, c)| c)
            .sum::<u64>()
}

fn opt(v: Option<i64>) -> Option<f64> {
    v.map(|x| x as f64)
}

fn days_text(lang: Lang, v: Option<i64>, max: u32) -> String {
    v.map_or(tr!(lang, "growth.mutation.not_within", max), |d| {
        tr!(lang, "growth.mutation.n_days", n = d)
    })
}

/// Runs the model's cell (and its sweep) and writes the outputs.
pub(super) fn report(
    file: &ScenarioFile,
    m: &MutationModel,
    ctx: &Context,
    trials: u64,
    title: Option<String>,
    question: Option<String>,
) -> anyhow::Result<ScenarioResult> {
    let acc = run_cell(m, ctx, trials, m.chance, m.karma);
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    // Each listed only when set off its default, so files written before the options
    // keep their provenance.
    opts.extend(
        ctx.options
            .in_force(MUTATION_OPTIONS)
            .into_iter()
            .filter(|(k, v)| {
                MUTATION_OPTIONS
                    .iter()
                    .any(|s| s.key == k && s.default != v)
            }),
    );
    let tree = |l| {
        if m.sample {
            tr!(l, "params.tree_sample").to_string()
        } else {
            tr!(l, "params.tree_genes", n = m.tree.len())
        }
    };
    let prov = Provenance::monte_carlo("mutation", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param_text("tree", tree(crate::lang::Lang::En), tree)
        .with_param("chance", m.chance)
        .with_param("karma", m.karma)
        .with_param("max_days", m.max_days)
        .with_param("therapy_every_days", m.therapy_every)
        .with_param("schedule", param_text(&m.schedule.phases));
    let mut prov = prov.with_scenario(file.reference());
    // New keys show in provenance only when used (older files keep their bytes).
    if !m.events.is_empty() {
        prov = prov.with_param("events", param_text(&m.events));
    }
    if let Some(l) = &m.levels {
        prov = prov.with_param("levels", param_text(l));
    }
    if let Some(c) = &m.campaign {
        prov = prov.with_param("campaign_tests", param_text(c));
    }
    let n = trials;

    // Survival curves.
    let days: Vec<u32> = (0..=m.max_days).collect();
    let mut cols: [Vec<Proportion>; 2] = [vec![], vec![]];
    let mut curves = [
        LineSeries {
            name: tr!(ctx.lang, "growth.mutation.no_major_yet").into(),
            ..Default::default()
        },
        LineSeries {
            name: tr!(ctx.lang, "growth.mutation.no_ultimate_yet").into(),
            ..Default::default()
        },
    ];
    for &d in &days {
        for (k, t) in [&acc.first_major, &acc.ultimate].into_iter().enumerate() {
            let p = Proportion::new(n - share_by(t, d), n);
            cols[k].push(p);
            curves[k].points.push((d as f64, p.p));
            curves[k].band.push((d as f64, p.lo, p.hi));
        }
    }
    let mut scols = vec![Column::new(
        "day".into(),
        days.iter().map(|&d| d as i64).collect::<Vec<_>>(),
    )];
    for (name, c) in ["p_no_major", "p_no_ultimate"].iter().zip(&cols) {
        scols.extend(interval_columns(name, c, |&p| p));
    }
    let [c0, c1] = curves;
    let surv_chart = LineChart {
        x_kind: Default::default(),
        title: tr!(ctx.lang, "growth.mutation.surv_chart").into(),
        x_label: tr!(ctx.lang, "growth.mutation.day_axis").into(),
        y_label: tr!(ctx.lang, "growth.mutation.not_yet").into(),
        y_range: Some((0.0, 1.0)),
        series: vec![c0, c1],
    };
    let by_end = |t: &Tally| Proportion::new(share_by(t, m.max_days), n);
    let pu = by_end(&acc.ultimate);
    let mut key = vec![tr!(
        ctx.lang,
        "growth.mutation.p_ultimate_key",
        days = m.max_days,
        p = ctx.lang.num(pu.p, 4),
        lo = ctx.lang.num(pu.lo, 4),
        hi = ctx.lang.num(pu.hi, 4),
        chance = m.chance,
        karma = ctx.lang.signed(m.karma as f64, 0)
    )];
    let surv_out = Output {
        name: "mutation-survival".into(),
        title: tr!(ctx.lang, "growth.mutation.surv_title").into(),
        question: tr!(ctx.lang, "growth.mutation.surv_question").into(),
        frame: DataFrame::new_infer_height(scols)?,
        figures: vec![Figure::new(vec![Chart::Lines(surv_chart)])],
        key_figures: key.clone(),
        provenance: prov.for_output("mutation-survival"),
    };

    // Time-to-event quantiles.
    let (mut ev, mut qs, mut dv, mut dl, mut dh, mut pe) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (name, t) in [
        ("first_major", &acc.first_major),
        ("ultimate", &acc.ultimate),
        ("final_ultimate", &acc.final_ultimate),
    ] {
        let p = by_end(t);
        for q in [0.1, 0.25, 0.5, 0.75, 0.9] {
            let (v, lo, hi) = quantile_interval(t, q);
            ev.push(name);
            qs.push(q);
            dv.push(opt(v));
            dl.push(opt(lo));
            dh.push(opt(hi));
            pe.push(p);
            if q == 0.5 {
                let label = match name {
                    "first_major" => tr!(ctx.lang, "growth.mutation.first_major"),
                    "ultimate" => tr!(ctx.lang, "growth.mutation.ultimate"),
                    _ => tr!(ctx.lang, "growth.mutation.final_ultimate"),
                };
                key.push(tr!(
                    ctx.lang,
                    "growth.mutation.median_key",
                    event = label,
                    days = days_text(ctx.lang, v, m.max_days),
                    lo = lo.map_or("-".into(), |x| x.to_string()),
                    hi = hi.map_or(tr!(ctx.lang, "growth.mutation.censored").to_string(), |x| {
                        x.to_string()
                    })
                ));
            }
        }
    }
    let mut tcols = vec![
        Column::new("event".into(), ev),
        Column::new("quantile".into(), qs),
        Column::new("day".into(), dv),
        Column::new("day_lo".into(), dl),
        Column::new("day_hi".into(), dh),
    ];
    tcols.extend(interval_columns("p_by_end", &pe, |&p| p));
    let times_frame = DataFrame::new_infer_height(tcols)?;
    let mo = Estimate::mean(&acc.mutations);
    key.push(
        tr!(
            ctx.lang,
            "growth.mutation.count_key",
            mean = ctx.lang.num(mo.value, 2),
            lo = ctx.lang.num(mo.lo, 2),
            hi = ctx.lang.num(mo.hi, 2)
        ) + ctx.lang.no_spread(mo.lo, mo.hi),
    );
    // A share: its delta-method interval may pass 0 or 1 on few characters.
    let ps = Estimate::ratio(&acc.positive_majors);
    let ps = ps.clipped(0.0, 1.0);
    key.push(tr!(
        ctx.lang,
        "growth.mutation.positive_key",
        share = ctx.lang.num(ps.value, 4),
        lo = ctx.lang.num(ps.lo, 4),
        hi = ctx.lang.num(ps.hi, 4)
    ));
    let times_out = Output {
        name: "mutation-times".into(),
        title: tr!(ctx.lang, "growth.mutation.times_title").into(),
        question: tr!(ctx.lang, "growth.mutation.times_question").into(),
        frame: times_frame,
        figures: vec![super::super::cdf_chart(
            ctx.lang,
            tr!(ctx.lang, "growth.mutation.times_chart"),
            tr!(ctx.lang, "growth.mutation.day"),
            &[
                (
                    tr!(ctx.lang, "growth.mutation.first_major").to_string(),
                    &acc.first_major,
                ),
                (
                    tr!(ctx.lang, "growth.mutation.ultimate").to_string(),
                    &acc.ultimate,
                ),
                (
                    tr!(ctx.lang, "growth.mutation.final_ultimate").to_string(),
                    &acc.final_ultimate,
                ),
            ],
        )],
        key_figures: key[1..].to_vec(),
        provenance: prov.for_output("mutation-times"),
    };

    // Ultimate types: the share of each among characters with one (0 without any).
    let share = |hits: u64, n: u64| {
        let (lo, hi) = wilson(hits, n);
        Estimate {
            value: hits as f64 / n.max(1) as f64,
            lo,
            hi,
        }
    };
    let (mut un, mut first, mut last) = (vec![], vec![], vec![]);
    let (tf, tl) = (acc.first_type.total(), acc.final_type.total());
    for u in Ultimate::ALL {
        un.push(u.name());
        first.push(share(acc.first_type.counts[u as usize], tf));
        last.push(share(acc.final_type.counts[u as usize], tl));
    }
    let ult_key = vec![tr!(
        ctx.lang,
        "growth.mutation.ultimates_key",
        n = tf,
        shares = un
            .iter()
            .zip(&first)
            .map(|(n, s)| format!("{n} {}", ctx.lang.num(s.value, 3)))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    let shares_chart = |name: &str, v: &[Estimate]| BarSeries::with_intervals(name, v, |&s| s);
    // Ultimate types are categories: grouped bars, not a line through them.
    let ult_chart = BarChart {
        title: tr!(ctx.lang, "growth.mutation.ult_chart").into(),
        x_label: tr!(ctx.lang, "growth.mutation.ult_x").into(),
        y_label: tr!(ctx.lang, "growth.mutation.ult_y").into(),
        categories: un.iter().map(|u| u.to_string()).collect(),
        y_range: Some((0.0, 1.0)),
        series: vec![
            shares_chart(tr!(ctx.lang, "growth.mutation.first_ultimate"), &first),
            shares_chart(tr!(ctx.lang, "growth.mutation.final_ultimate"), &last),
        ],
    };
    let ult_out = Output {
        name: "mutation-ultimates".into(),
        title: tr!(ctx.lang, "growth.mutation.ult_title").into(),
        question: tr!(ctx.lang, "growth.mutation.ult_question").into(),
        frame: DataFrame::new_infer_height(
            [Column::new("ultimate".into(), un)]
                .into_iter()
                .chain(interval_columns("share_first", &first, |&s| s))
                .chain(interval_columns("share_final", &last, |&s| s))
                .collect(),
        )?,
        figures: vec![Figure::new(vec![Chart::Bars(ult_chart)])],
        key_figures: ult_key,
        provenance: prov.for_output("mutation-ultimates"),
    };
    let mut outputs = vec![surv_out, times_out, ult_out];

    // Chance x karma sweep.
    if let Some((chances, karmas)) = &m.sweep {
        let mut pos = vec![];
        let (mut cc, mut kk, mut pp, mut med, mut medm) = (vec![], vec![], vec![], vec![], vec![]);
        let mut chart = LineChart {
            title: tr!(ctx.lang, "growth.mutation.sweep_chart", days = m.max_days),
            x_label: tr!(ctx.lang, "growth.mutation.chance_axis").into(),
            y_label: tr!(ctx.lang, "growth.mutation.p_ultimate").into(),
            y_range: Some((0.0, 1.0)),
            ..Default::default()
        };
        for &k in karmas {
            let mut s = LineSeries {
                name: tr!(
                    ctx.lang,
                    "growth.mutation.karma_series",
                    karma = ctx.lang.signed(k as f64, 0)
                ),
                ..Default::default()
            };
            for &c in chances {
                let a = run_cell(m, ctx, trials, c, k as i8);
                let p = by_end(&a.ultimate);
                cc.push(c);
                kk.push(k);
                pp.push(p);
                med.push(opt(quantile_interval(&a.ultimate, 0.5).0));
                medm.push(opt(quantile_interval(&a.first_major, 0.5).0));
                pos.push(Estimate::ratio(&a.positive_majors).value);
                s.points.push((c as f64, p.p));
                s.band.push((c as f64, p.lo, p.hi));
            }
            chart.series.push(s);
        }
        let lo_i = 0;
        let hi_i = pp.len() - 1;
        let cell = |i: usize| {
            tr!(
                ctx.lang,
                "growth.mutation.sweep_cell",
                chance = cc[i],
                karma = ctx.lang.signed(kk[i] as f64, 0),
                p = ctx.lang.num(pp[i].p, 4),
                positive = ctx.lang.num(pos[i], 3)
            )
        };
        let sweep_key = vec![tr!(
            ctx.lang,
            "growth.mutation.sweep_join",
            first = cell(lo_i),
            last = cell(hi_i)
        )];
        key.extend(sweep_key.clone());
        outputs.push(Output {
            name: "mutation-sweep".into(),
            title: tr!(ctx.lang, "growth.mutation.sweep_title").into(),
            question: tr!(ctx.lang, "growth.mutation.sweep_question").into(),
            frame: DataFrame::new_infer_height(
                [
                    Column::new("chance".into(), cc),
                    Column::new("karma".into(), kk),
                ]
                .into_iter()
                .chain(interval_columns("p_ultimate_by_end", &pp, |&p| p))
                .chain([
                    Column::new("median_days_to_ultimate".into(), med),
                    Column::new("median_days_to_first_major".into(), medm),
                    Column::new("positive_major_share".into(), pos),
                ])
                .collect(),
            )?,
            figures: vec![Figure::new(vec![Chart::Lines(chart)])],
            key_figures: sweep_key,
            provenance: prov
                .for_output("mutation-sweep")
                .with_param("sweep_trials_per_cell", trials),
        });
    }
    let n_f = n as f64;
    for (e, c) in m.events.iter().zip(&acc.event_counts) {
        key.push(tr!(
            ctx.lang,
            "growth.mutation.event_key",
            name = crate::report::md_text(&e.name),
            times = ctx.lang.num(*c as f64 / n_f, 3)
        ));
    }
    if !m.events.is_empty() {
        let all = acc.mutations.mean * n_f;
        key.push(tr!(
            ctx.lang,
            "growth.mutation.event_share_key",
            share = ctx.lang.num(acc.event_mutations as f64 / all.max(1.0), 4)
        ));
    }
    if let Some(l) = &m.levels {
        key.push(tr!(
            ctx.lang,
            "growth.mutation.levels_key",
            days = l.days_per_level,
            start = l.start,
            chances = format!("{:?}", l.chance)
        ));
    }
    if let Some((tests, _)) = &m.campaign {
        key.push(tr!(ctx.lang, "growth.mutation.campaign_key", tests));
    }
    if m.sample {
        key.push(tr!(ctx.lang, "growth.mutation.sample_tree").into());
    }
    let title = title.unwrap_or_else(|| tr!(ctx.lang, "growth.mutation.title").into());
    let question = question.unwrap_or_else(|| tr!(ctx.lang, "growth.mutation.question").into());
    // `cosmosim trace` (issue 27): one command per first ultimate that happened.
    let none = n - acc.first_type.total();
    let counts = acc.first_type.counts.iter().copied().chain([none]);
    let see = crate::systems::trace::see_trials_section(
        ctx.lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        Ultimate::ALL
            .iter()
            .map(|u| u.name())
            .chain(["none"])
            .zip(counts),
    );
    Ok(scenario_result(
        ctx.lang, title, question, key, outputs, &prov, &see,
    ))
}
