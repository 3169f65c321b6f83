//! What an AP-economy run writes: the per-test CSV and chart, and summary.md.

use polars::prelude::*;

use crate::context::Context;
use crate::report::{float_column, int_column, interval_columns, text_column};
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance, XKind};
use crate::scenario::ScenarioFile;
use crate::stats::{mean_ci, Estimate, Proportion};
use crate::systems::fallout::OPTIONS;
use crate::systems::ScenarioResult;

use super::model::ApEconomy;
use super::sim::ApAcc;

/// Builds the outputs and the summary of a finished run.
pub(super) fn result(
    file: &ScenarioFile,
    m: &ApEconomy,
    acc: &ApAcc,
    ctx: &Context,
    n: u64,
) -> anyhow::Result<ScenarioResult> {
    let steps = &m.steps;
    let pass: Vec<Estimate> = acc
        .steps
        .iter()
        .map(|a| Proportion::new(a.pass, n).estimate())
        .collect();
    let pool: Vec<Estimate> = acc
        .steps
        .iter()
        .map(|a| mean_ci(a.pool_sum, a.pool_sq, n))
        .collect();
    let mj: Vec<Estimate> = acc
        .steps
        .iter()
        .map(|a| mean_ci(a.mj_sum, a.mj_sq, n))
        .collect();
    let nf = n as f64;
    let frame = DataFrame::new_infer_height(
        [
            vec![
                Column::new("test".into(), (1..=steps.len() as i64).collect::<Vec<_>>()),
                text_column("name", steps, |s| s.name.as_str()),
                int_column("tn", steps, |s| s.spec.tn as i64),
                int_column("difficulty", steps, |s| s.difficulty as i64),
                int_column("tag_rank", steps, |s| s.spec.tag_rank as i64),
                int_column("complication", steps, |s| s.spec.complication as i64),
            ],
            interval_columns("p_pass", &pass, |&r| r).into(),
            vec![
                float_column("p_pass_no_buy", steps, |s| s.p_pass[0]),
                float_column("mean_bonus_dice", &acc.steps, |a| a.bonus_dice as f64 / nf),
                float_column("mean_mj_dice", &acc.steps, |a| a.mj_dice as f64 / nf),
            ],
            interval_columns("mean_pool_after", &pool, |&r| r).into(),
            interval_columns("mean_mj_pool_after", &mj, |&r| r).into(),
            vec![
                float_column("mean_ap_lost", &acc.steps, |a| a.ap_lost as f64 / nf),
                float_column("p_complication", &acc.steps, |a| a.complication as f64 / nf),
            ],
        ]
        .concat(),
    )?;

    let x = |i: usize| (i + 1) as f64;
    let line = |name: &str, v: &[Estimate]| LineSeries {
        name: name.into(),
        points: v.iter().enumerate().map(|(i, p)| (x(i), p.value)).collect(),
        band: v
            .iter()
            .enumerate()
            .map(|(i, p)| (x(i), p.lo, p.hi))
            .collect(),
    };
    let flow = LineChart {
        title: tr!(ctx.lang, "fallout.ap.flow_chart").into(),
        x_label: tr!(ctx.lang, "fallout.ap.test").into(),
        y_label: tr!(ctx.lang, "fallout.ap.ap").into(),
        series: vec![
            line(tr!(ctx.lang, "fallout.ap.group_pool"), &pool),
            line(tr!(ctx.lang, "fallout.ap.mj_pool"), &mj),
        ],
        y_range: None,
        // One value per test of the sequence: points, not a line between tests.
        x_kind: XKind::Integer,
    };
    let rates = LineChart {
        title: tr!(ctx.lang, "fallout.ap.pass_chart").into(),
        x_label: tr!(ctx.lang, "fallout.ap.test").into(),
        y_label: tr!(ctx.lang, "fallout.ap.p_pass").into(),
        series: vec![
            line(tr!(ctx.lang, "fallout.ap.with_policy"), &pass),
            LineSeries {
                name: tr!(ctx.lang, "fallout.ap.no_buy").into(),
                points: steps
                    .iter()
                    .enumerate()
                    .map(|(i, s)| (x(i), s.p_pass[0]))
                    .collect(),
                band: vec![],
            },
        ],
        y_range: Some((0.0, 1.0)),
        // One value per test of the sequence: points, not a line between tests.
        x_kind: XKind::Integer,
    };

    let k = steps.len();
    let total_pass: u64 = acc.steps.iter().map(|a| a.pass).sum();
    let (mean_rate_lo, mean_rate_hi) = {
        let e = mean_ci(
            acc.passes.iter().map(|(v, c)| v as u64 * c).sum(),
            acc.passes.iter().map(|(v, c)| (v * v) as u64 * c).sum(),
            n,
        );
        (e.lo / k as f64, e.hi / k as f64)
    };
    let mean_rate = total_pass as f64 / (nf * k as f64);
    let no_buy = steps.iter().map(|s| s.p_pass[0]).sum::<f64>() / k as f64;
    let all = Proportion::new(acc.passes.iter().last().map_or(0, |(_, c)| c), n);
    let last = k - 1;
    let lost: f64 = acc.steps.iter().map(|a| a.ap_lost as f64).sum::<f64>() / nf;
    let bonus: f64 = acc.steps.iter().map(|a| a.bonus_dice as f64).sum::<f64>() / nf;
    let (n3, n2) = (|x: f64| ctx.lang.num(x, 3), |x: f64| ctx.lang.num(x, 2));
    let key = vec![
        tr!(
            ctx.lang,
            "fallout.ap.key_rate",
            k,
            rate = n3(mean_rate),
            lo = n3(mean_rate_lo),
            hi = n3(mean_rate_hi),
            no_buy = n3(no_buy)
        ) + ctx.lang.no_spread(mean_rate_lo, mean_rate_hi),
        tr!(
            ctx.lang,
            "fallout.ap.key_all",
            k,
            p = n3(all.p),
            lo = n3(all.lo),
            hi = n3(all.hi)
        ),
        tr!(
            ctx.lang,
            "fallout.ap.key_group",
            mean = n2(pool[last].value),
            lo = n2(pool[last].lo),
            hi = n2(pool[last].hi),
            start = m.start_group
        ) + ctx.lang.no_spread(pool[last].lo, pool[last].hi),
        tr!(
            ctx.lang,
            "fallout.ap.key_mj",
            mean = n2(mj[last].value),
            lo = n2(mj[last].lo),
            hi = n2(mj[last].hi),
            given = n2(mj[last].value - m.start_mj as f64)
        ) + ctx.lang.no_spread(mj[last].lo, mj[last].hi),
        tr!(
            ctx.lang,
            "fallout.ap.key_bonus",
            bonus = n2(bonus),
            lost = n2(lost)
        ),
    ];

    let prov = Provenance::monte_carlo(
        "ap-flow",
        "fallout",
        ctx.options.in_force(OPTIONS),
        ctx.engine.seed(),
        n,
    )
    .with_param_text("policy", m.policy.describe(), |l| m.policy.describe_text(l))
    .with_param("start_group_ap", m.start_group)
    .with_param("start_mj_ap", m.start_mj)
    .with_param("tests", k)
    .with_scenario(file.reference());

    let mut summary = tr!(
        ctx.lang,
        "fallout.ap.summary_head",
        title = crate::report::md_text(&m.title),
        question = crate::report::md_text(&m.question)
    );
    summary += &crate::systems::report_parts::answer_list(&key);
    summary += &tr!(
        ctx.lang,
        "fallout.ap.summary_policy",
        policy = m.policy.describe_text(ctx.lang)
    );
    summary += tr!(ctx.lang, "fallout.ap.summary_table");
    for (i, s) in steps.iter().enumerate() {
        summary += &format!(
            "| {} | {} | {} | {} | {} {} | {} | {} | {} | {} |\n",
            i + 1,
            crate::report::md_text(&s.name),
            s.spec.tn,
            s.difficulty,
            n3(pass[i].value),
            ctx.lang.interval(pass[i].lo, pass[i].hi, 3),
            n3(s.p_pass[0]),
            n2(acc.steps[i].bonus_dice as f64 / nf),
            n2(pool[i].value),
            n2(mj[i].value)
        );
    }
    // `cosmosim trace` (issue 27): a trial is the whole sequence, `all_passed` or
    // `some_failed` (`trace.rs`), counted from the tally of tests passed per sequence.
    summary += &crate::systems::trace::see_trials_section(
        ctx.lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        [("all_passed", all.hits), ("some_failed", n - all.hits)],
    );
    summary += tr!(ctx.lang, "fallout.ap.summary_files");
    summary += &tr!(
        ctx.lang,
        "fallout.common.provenance",
        provenance = prov.summary(ctx.lang)
    );

    let out = Output {
        name: "ap-flow".into(),
        title: m.title.clone(),
        question: m.question.clone(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(flow), Chart::Lines(rates)])],
        key_figures: key.clone(),
        provenance: prov,
    };
    Ok(ScenarioResult::new(
        &m.title,
        &m.question,
        key,
        vec![out],
        summary,
    ))
}
