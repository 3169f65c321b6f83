//! The expedition's report: per-day FP/FM bands, P(exhausted) and the reference test, each
//! taken at the day's worst point and at its end (labelled `_worst` / `_end`), the day of
//! first exhaustion, and the optional legs.

use polars::prelude::*;

use crate::engine::{Moments, Tally};
use crate::lang::Lang;
use crate::report::{
    interval_columns, Chart, Figure, FloatColumns, LineChart, LineSeries, Output, Provenance,
};
use crate::scenario::ScenarioFile;
use crate::stats::{Estimate, Proportion};
use crate::systems::cosmos::growth::{band_row, dec, quantile_interval, GrowthRules, OPTIONS};
use crate::systems::cosmos::TestRules;
use crate::systems::{RunOverrides, ScenarioResult};

use super::super::common::nonnegative_mean;
use super::super::scenario_result;
use super::legs::piloting_by_day;
use super::model::{model, ExpeditionModel};
use super::sim::ExpeditionSim;
use super::{DEFAULT_TRIALS, NEEDS};

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let parsed = model(file)?;
    if parsed.0.party.is_some() {
        return super::party_report::run(file, o, parsed);
    }
    let (m, rules_map, run, title, question) = parsed;
    let (ctx, trials) = o.resolve_needing(file, &run, &rules_map, DEFAULT_TRIALS, NEEDS)?;
    let rules = TestRules::from_options(&ctx.options);
    let growth = GrowthRules::from_options(&ctx.options);
    let sim = ExpeditionSim::with_growth(m, &rules, &growth).map_err(|e| e.user(ctx.lang))?;
    let progress = ctx.progress(trials, tr!(ctx.lang, "growth.progress.expedition"));
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    let m = &sim.model;
    let days = m.plans.len();
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    opts.extend(
        crate::systems::cosmos::growth::fatigue::expedition::TrekRules::listed(&ctx.options),
    );
    let (rs, rt, rk) = m.reference;
    // The stat as the file names it in English (`agilite`), the book's name in French.
    let reference = |l: Lang| format!("{} {rt} karma {rk}", rs.label(l));
    let prov = Provenance::monte_carlo("expedition", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("days", days)
        .with_param_text("reference_test", reference(Lang::En), reference);
    let mut prov = prov.with_scenario(file.reference());
    if let Some(p) = &m.legs.piloting {
        let crew = |l| tr!(l, "params.crew", score = p.score, die = p.vehicle_die);
        prov = prov.with_param_text("piloting", crew(crate::lang::Lang::En), crew);
    }
    if let Some(mv) = &m.legs.march {
        let march = |l| {
            tr!(
                l,
                "params.march",
                agility = mv.mover.agility,
                load = mv.mover.load,
                karma = mv.mover.karma,
                turns = mv.turns_per_day,
                pace = crate::report::param_text(&mv.pace)
            )
        };
        prov = prov.with_param_text("march", march(crate::lang::Lang::En), march);
    }

    let mut cols = FloatColumns::default();
    // Bands and risks at the two moments of the day (see `sim::Moment`): `_worst` is the
    // day's worst point, `_end` its end (evening, before the night).
    let series = |name: String| LineSeries {
        name,
        ..Default::default()
    };
    let mut bands = [
        series(tr!(ctx.lang, "growth.expedition.band_fp_worst").into()),
        series(tr!(ctx.lang, "growth.expedition.band_fm_worst").into()),
        series(tr!(ctx.lang, "growth.expedition.band_fp_end").into()),
        series(tr!(ctx.lang, "growth.expedition.band_fm_end").into()),
    ];
    let mut pex = series(tr!(ctx.lang, "growth.expedition.p_exhausted_worst").into());
    let mut pcum = series(tr!(ctx.lang, "growth.expedition.p_exhausted_by_day").into());
    let mut pref_worst = series(tr!(
        ctx.lang,
        "growth.expedition.p_reference_worst",
        stat = rs.test_label(ctx.lang),
        threshold = rt
    ));
    let mut pref_end = series(tr!(
        ctx.lang,
        "growth.expedition.p_reference_end",
        stat = rs.test_label(ctx.lang),
        threshold = rt
    ));
    let pilot = m.legs.piloting.as_ref().map(piloting_by_day);
    let mut cum = 0u64;
    let fe: Vec<(i64, u64)> = acc.first_exhaustion.iter().collect();
    for d in 0..days {
        let x = d as f64 + 1.0;
        for (j, (when, mo)) in [("worst", &acc.worst), ("end", &acc.end)]
            .into_iter()
            .enumerate()
        {
            for (k, (name, t)) in [("fp", &mo.fp[d]), ("fm", &mo.fm[d])]
                .into_iter()
                .enumerate()
            {
                let (mean, q) = band_row(t);
                cols.push(&format!("{name}_{when}_mean"), mean);
                for (qn, v) in ["p05", "p25", "p50", "p75", "p95"].iter().zip(q) {
                    cols.push(&format!("{name}_{when}_{qn}"), v);
                }
                bands[2 * j + k].points.push((x, q[2]));
                bands[2 * j + k].band.push((x, q[0], q[4]));
            }
        }
        for (when, mo) in [("worst", &acc.worst), ("end", &acc.end)] {
            let c = &mo.exhausted[d];
            let p = cols.interval(
                &format!("p_exhausted_{when}"),
                Proportion::new(c.counts[1], c.total()),
            );
            if when == "worst" {
                pex.points.push((x, p.value));
                pex.band.push((x, p.lo, p.hi));
            }
        }
        cum += fe.get(d).map_or(0, |e| e.1);
        let p = cols.interval("p_exhausted_by_day", Proportion::new(cum, trials));
        pcum.points.push((x, p.value));
        pcum.band.push((x, p.lo, p.hi));
        for (when, mo, line) in [
            ("worst", &acc.worst, &mut pref_worst),
            ("end", &acc.end, &mut pref_end),
        ] {
            // A share averaged over trials: its interval stays inside 0..1, and trials that
            // all gave the same share leave it unbounded (`Estimate::clipped`).
            let r = Estimate::mean(&mo.reference[d]).clipped(0.0, 1.0);
            cols.interval(&format!("p_reference_success_{when}"), r);
            line.points.push((x, r.value));
            line.band.push((x, r.lo, r.hi));
        }
        if let Some(p) = &pilot {
            // Exact (the piloting table, `legs::piloting_by_day`): `_exact` tells `figures`
            // and `expect` so, as every exact column of a Monte Carlo output.
            cols.push("p_piloting_success_exact", p[d]);
        }
        if let Some(mv) = acc.march.get(d) {
            let e = nonnegative_mean(mv);
            cols.push("march_distance_mean", e.value);
            cols.push("march_distance_lo", e.lo);
            cols.push("march_distance_hi", e.hi);
        }
    }
    let mut dcols = vec![Column::new(
        "day".into(),
        (1..=days as i64).collect::<Vec<_>>(),
    )];
    dcols.extend(cols.into_columns());
    let [b0, b1, b2, b3] = bands;
    let track_chart = LineChart {
        x_kind: Default::default(),
        title: tr!(ctx.lang, "growth.expedition.track_title").into(),
        x_label: tr!(ctx.lang, "growth.expedition.x_day").into(),
        y_label: tr!(ctx.lang, "growth.expedition.y_points").into(),
        y_range: Some((-3.0, 10.0)),
        series: vec![b0, b1, b2, b3],
    };
    let first_last = |l: &LineSeries| {
        (
            l.points.first().map_or(0.0, |p| p.1),
            l.points.last().map_or(0.0, |p| p.1),
        )
    };
    let (rw1, rwn) = first_last(&pref_worst);
    let (re1, ren) = first_last(&pref_end);
    let risk_chart = LineChart {
        x_kind: Default::default(),
        title: tr!(ctx.lang, "growth.expedition.risk_title").into(),
        x_label: tr!(ctx.lang, "growth.expedition.x_day").into(),
        y_label: tr!(ctx.lang, "growth.expedition.y_probability").into(),
        y_range: Some((0.0, 1.0)),
        series: vec![pex, pcum, pref_worst, pref_end],
    };
    let fp_last = band_row(&acc.end.fp[days - 1]);
    let fm_last = band_row(&acc.end.fm[days - 1]);
    let by_end = share(&acc.first_exhaustion, days);
    let p_by_end = Proportion::new(by_end, trials);
    let mut key = vec![
        tr!(
            ctx.lang,
            "growth.expedition.key_exhausted",
            days,
            p = ctx.lang.num(p_by_end.p, 4),
            lo = ctx.lang.num(p_by_end.lo, 4),
            hi = ctx.lang.num(p_by_end.hi, 4)
        ),
        tr!(
            ctx.lang,
            "growth.expedition.key_last_day",
            days,
            fp = dec(ctx.lang, fp_last.1[2]),
            fp_lo = dec(ctx.lang, fp_last.1[0]),
            fp_hi = dec(ctx.lang, fp_last.1[4]),
            fm = dec(ctx.lang, fm_last.1[2]),
            fm_lo = dec(ctx.lang, fm_last.1[0]),
            fm_hi = dec(ctx.lang, fm_last.1[4])
        ),
        tr!(
            ctx.lang,
            "growth.expedition.key_reference",
            stat = rs.test_label(ctx.lang),
            threshold = rt,
            worst_first = ctx.lang.num(rw1, 4),
            worst_last = ctx.lang.num(rwn, 4),
            days,
            end_first = ctx.lang.num(re1, 4),
            end_last = ctx.lang.num(ren, 4)
        ),
    ];
    let leg_keys = legs_key_figures(ctx.lang, m, pilot.as_deref(), &acc.march);
    let (med, lo, hi) = quantile_interval(&acc.first_exhaustion, 0.5);
    key.push(tr!(
        ctx.lang,
        "growth.expedition.key_median_first",
        median = med.map_or(tr!(ctx.lang, "growth.expedition.not_within", days), |d| {
            tr!(ctx.lang, "growth.expedition.day_n", day = d)
        }),
        lo = lo.map_or("-".into(), |x| x.to_string()),
        hi = hi.map_or(tr!(ctx.lang, "growth.expedition.censored").into(), |x| x
            .to_string())
    ));
    let days_out = Output {
        name: "expedition-days".into(),
        title: tr!(ctx.lang, "growth.expedition.days_title").into(),
        question: tr!(ctx.lang, "growth.expedition.days_question").into(),
        frame: DataFrame::new_infer_height(dcols)?,
        figures: vec![Figure::new(vec![
            Chart::Lines(track_chart),
            Chart::Lines(risk_chart),
        ])],
        key_figures: key.clone(),
        provenance: prov.for_output("expedition-days"),
    };
    let (mut qs, mut dv, mut dl, mut dh) = (vec![], vec![], vec![], vec![]);
    for q in [0.1, 0.25, 0.5, 0.75, 0.9] {
        let (v, l, h) = quantile_interval(&acc.first_exhaustion, q);
        qs.push(q);
        dv.push(v.map(|x| x as f64));
        dl.push(l.map(|x| x as f64));
        dh.push(h.map(|x| x as f64));
    }
    let p_cols = interval_columns("p_by_end", &qs, |_| p_by_end);
    let mut ex_cols = vec![
        Column::new("quantile".into(), qs),
        Column::new("day".into(), dv),
        Column::new("day_lo".into(), dl),
        Column::new("day_hi".into(), dh),
    ];
    ex_cols.extend(p_cols);
    let ex_out = Output {
        name: "expedition-exhaustion".into(),
        title: tr!(ctx.lang, "growth.expedition.first_title").into(),
        question: tr!(ctx.lang, "growth.expedition.first_question").into(),
        frame: DataFrame::new_infer_height(ex_cols)?,
        figures: vec![super::super::cdf_chart(
            ctx.lang,
            tr!(ctx.lang, "growth.expedition.first_cdf_title"),
            tr!(ctx.lang, "growth.expedition.x_day"),
            &[(
                tr!(ctx.lang, "growth.expedition.first_series").to_string(),
                &acc.first_exhaustion,
            )],
        )],
        key_figures: key[3..].to_vec(),
        provenance: prov.for_output("expedition-exhaustion"),
    };
    let title = title.unwrap_or_else(|| tr!(ctx.lang, "growth.expedition.default_title").into());
    let question =
        question.unwrap_or_else(|| tr!(ctx.lang, "growth.expedition.default_question").into());
    let outputs = vec![days_out, ex_out];
    key.truncate(4);
    key.extend(leg_keys);
    // Issue 27: how to replay a trial, per outcome of `trace.rs` (exhausted on some day).
    let see = crate::systems::trace::see_trials_section(
        file.lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        [("exhausted", by_end), ("not_exhausted", trials - by_end)],
    );
    Ok(scenario_result(
        ctx.lang, title, question, key, outputs, &prov, &see,
    ))
}

fn share(t: &Tally, days: usize) -> u64 {
    t.below
        + t.iter()
            .take_while(|(d, _)| *d <= days as i64)
            .map(|(_, c)| c)
            .sum::<u64>()
}

/// Key figures of the optional legs: piloting success over the whole expedition, grid
/// units marched.
fn legs_key_figures(
    lang: Lang,
    m: &ExpeditionModel,
    pilot: Option<&[f64]>,
    march: &[Moments],
) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(p), Some(leg)) = (pilot, &m.legs.piloting) {
        let all: f64 = p.iter().product();
        let mean = p.iter().sum::<f64>() / p.len().max(1) as f64;
        out.push(tr!(
            lang,
            "growth.expedition.key_piloting",
            score = leg.score,
            die = leg.vehicle_die,
            first = lang.num(p.first().copied().unwrap_or(0.0), 4),
            last = lang.num(p.last().copied().unwrap_or(0.0), 4),
            mean = lang.num(mean, 4),
            all = lang.num(all, 4)
        ));
    }
    if let (Some(first), Some(last)) = (march.first(), march.last()) {
        let total: f64 = march.iter().map(|x| x.mean).sum();
        out.push(tr!(
            lang,
            "growth.expedition.key_march",
            first = lang.num(first.mean, 1),
            last = lang.num(last.mean, 1),
            days = march.len(),
            total = lang.num(total, 1)
        ));
    }
    out
}
