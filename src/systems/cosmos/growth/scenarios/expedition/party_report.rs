//! A party's report (issue 10 item 8): the party per day (`party-days`: P(someone
//! exhausted) at the day's worst point and at its end, P(the party can go on) the next
//! morning, P(stopped by that day), supplies left) and each traveller per day
//! (`party-travellers`, one row per traveller and day).

use polars::prelude::*;

use crate::engine::Counts;
use crate::lang::Lang;
use crate::report::{
    Chart, Figure, FloatColumns, LineChart, LineSeries, Output, Provenance, XKind,
};
use crate::scenario::ScenarioFile;
use crate::stats::Proportion;
use crate::systems::cosmos::growth::{band_row, GrowthRules, OPTIONS};
use crate::systems::cosmos::TestRules;
use crate::systems::{RunOverrides, ScenarioResult};

use super::super::common::nonnegative_mean;
use super::super::scenario_result;
use super::model::ExpeditionModel;
use super::party::{PartyAcc, PartySim};
use super::{DEFAULT_TRIALS, NEEDS};

/// The share of the second category of `c`.
fn rate(c: &Counts<2>) -> Proportion {
    Proportion::new(c.counts[1], c.total())
}

/// Runs a party file (called by `report::run` when the file has `[[expedition.travellers]]`).
pub fn run(
    file: &ScenarioFile,
    o: &RunOverrides,
    parsed: crate::systems::cosmos::growth::scenarios::Parsed<ExpeditionModel>,
) -> anyhow::Result<ScenarioResult> {
    let (m, rules_map, run, title, question) = parsed;
    let (ctx, trials) = o.resolve_needing(file, &run, &rules_map, DEFAULT_TRIALS, NEEDS)?;
    let rules = TestRules::from_options(&ctx.options);
    let mut m = m;
    let mut combat_opts = None;
    if let Some(l) = m.linked.as_mut() {
        let o = l.under(&ctx.options, ctx.lang)?;
        l.rules = crate::systems::cosmos::combat::CombatRules::from_options(&o);
        combat_opts = Some(crate::systems::cosmos::combat::listed_options(&o));
    }
    let growth = GrowthRules::from_options(&ctx.options);
    let sim = PartySim::with_growth(m, &rules, &growth).map_err(|e| e.user(ctx.lang))?;
    let progress = ctx.progress(trials, tr!(ctx.lang, "growth.progress.party"));
    // Keyed by the file's values: an option moves the rules, not the streams.
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    let m = &sim.model;
    let party = m.party.as_ref().expect("a party");
    let days = m.plans.len();
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    opts.extend(
        crate::systems::cosmos::growth::fatigue::expedition::TrekRules::listed(&ctx.options),
    );
    // The played combat's rules in force (its file's `[rules]` under the run's options).
    opts.extend(combat_opts.unwrap_or_default());
    let (rs, rt, rk) = m.reference;
    // The stat as the file names it in English (`agilite`), the book's name in French.
    let reference = |l: Lang| format!("{} {rt} karma {rk}", rs.label(l));
    let names: Vec<&str> = party.members.iter().map(|x| x.name.as_str()).collect();
    let rations = |l: Lang| {
        party
            .rations
            .map_or(tr!(l, "params.rations_planned").to_string(), |r| {
                r.to_string()
            })
    };
    let prov = Provenance::monte_carlo("expedition", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("days", days)
        .with_param("travellers", names.join(", "))
        .with_param_text("rations", rations(Lang::En), rations)
        .with_param_text("reference_test", reference(Lang::En), reference);
    // A linked combat (issue 10 item 9): which file each encounter plays.
    let prov = match &m.linked {
        Some(l) => prov
            .with_param("encounter_combat", &l.path)
            .with_linked(l.file.clone()),
        None => prov,
    };
    let prov = prov.with_scenario(file.reference());
    let party_out = party_days(ctx.lang, m, &acc, trials, &prov)?;
    let trav_out = traveller_days(ctx.lang, m, &acc, &prov)?;

    let last = days - 1;
    let go = go_on(&acc, last);
    let ever = acc
        .first_stop
        .iter()
        .filter(|x| x.0 <= days as i64)
        .map(|x| x.1)
        .sum::<u64>();
    let stopped = Proportion::new(ever, trials);
    let first_below_half = (0..days).find(|&d| go_on(&acc, d).p < 0.5);
    let mut key = vec![
        tr!(
            ctx.lang,
            "growth.party.key_go_on",
            days,
            p = ctx.lang.num(go.p, 4),
            lo = ctx.lang.num(go.lo, 4),
            hi = ctx.lang.num(go.hi, 4),
            linked = match &m.linked {
                Some(l) => tr!(
                    ctx.lang,
                    "growth.party.key_go_on_linked",
                    path = crate::report::md_code(&l.path)
                ),
                None => String::new(),
            }
        ),
        tr!(
            ctx.lang,
            "growth.party.key_stopped",
            days,
            p = ctx.lang.num(stopped.p, 4),
            lo = ctx.lang.num(stopped.lo, 4),
            hi = ctx.lang.num(stopped.hi, 4),
            when = match first_below_half {
                Some(d) => tr!(ctx.lang, "growth.party.first_below_half", day = d + 1),
                None => tr!(ctx.lang, "growth.party.never_below_half").to_string(),
            }
        ),
    ];
    let risky = (0..days).find(|&d| rate(&acc.someone_worst[d]).p >= 0.01);
    key.push(match risky {
        Some(d) => {
            let r = rate(&acc.someone_worst[d]);
            tr!(
                ctx.lang,
                "growth.party.key_first_risk",
                day = d + 1,
                p = ctx.lang.num(r.p, 4),
                lo = ctx.lang.num(r.lo, 4),
                hi = ctx.lang.num(r.hi, 4)
            )
        }
        None => tr!(ctx.lang, "growth.party.key_no_risk", days),
    });
    let worst_day = (0..days)
        .max_by(|&a, &b| {
            rate(&acc.someone_worst[a])
                .p
                .total_cmp(&rate(&acc.someone_worst[b]).p)
                .then(b.cmp(&a))
        })
        .unwrap_or(0);
    let sw = rate(&acc.someone_worst[worst_day]);
    key.push(tr!(
        ctx.lang,
        "growth.party.key_peak",
        day = worst_day + 1,
        p = ctx.lang.num(sw.p, 4),
        lo = ctx.lang.num(sw.lo, 4),
        hi = ctx.lang.num(sw.hi, 4)
    ));
    let per: Vec<String> = party
        .members
        .iter()
        .zip(&acc.members)
        .map(|(mem, a)| {
            let ex = a
                .first_exhaustion
                .iter()
                .filter(|x| x.0 <= days as i64)
                .map(|x| x.1)
                .sum::<u64>();
            format!(
                "{} {}",
                crate::report::md_text(&mem.name),
                ctx.lang.num(ex as f64 / trials as f64, 4)
            )
        })
        .collect();
    key.push(tr!(
        ctx.lang,
        "growth.party.key_per_traveller",
        list = per.join(", ")
    ));
    let title = title.unwrap_or_else(|| tr!(ctx.lang, "growth.party.default_title").into());
    let question =
        question.unwrap_or_else(|| tr!(ctx.lang, "growth.party.default_question").into());
    let outputs = vec![party_out, trav_out];
    // Issue 27: how to replay a trial, per outcome of `trace.rs` (the party stopped on
    // some morning, or went on every day).
    let see = crate::systems::trace::see_trials_section(
        file.lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        [("stopped", ever), ("went_on", trials - ever)],
    );
    Ok(scenario_result(
        ctx.lang, title, question, key, outputs, &prov, &see,
    ))
}

/// P(every traveller wakes able) after day `d`.
fn go_on(acc: &PartyAcc, d: usize) -> Proportion {
    let t = &acc.able[d];
    Proportion::new(t.iter().last().map_or(0, |x| x.1), t.total())
}

fn party_days(
    lang: Lang,
    m: &ExpeditionModel,
    acc: &PartyAcc,
    trials: u64,
    prov: &Provenance,
) -> anyhow::Result<Output> {
    let days = m.plans.len();
    let mut cols = FloatColumns::default();
    let s = |name: &str| LineSeries {
        name: name.into(),
        ..Default::default()
    };
    let mut lines = [
        s(tr!(lang, "growth.party.line_someone_worst")),
        s(tr!(lang, "growth.party.line_someone_end")),
        s(tr!(lang, "growth.party.line_go_on")),
        s(tr!(lang, "growth.party.line_stopped")),
    ];
    let mut stopped = 0u64;
    let fs: Vec<(i64, u64)> = acc.first_stop.iter().collect();
    for d in 0..days {
        let x = d as f64 + 1.0;
        let rows = [
            ("p_someone_exhausted_worst", rate(&acc.someone_worst[d])),
            ("p_someone_exhausted_end", rate(&acc.someone_end[d])),
            ("p_party_can_go_on", go_on(acc, d)),
            ("p_party_stopped_by_day", {
                stopped += fs.get(d).map_or(0, |e| e.1);
                Proportion::new(stopped, trials)
            }),
        ];
        for (line, (name, p)) in lines.iter_mut().zip(rows) {
            let p = cols.interval(name, p);
            line.points.push((x, p.value));
            line.band.push((x, p.lo, p.hi));
        }
        let able = &acc.able[d];
        let am = able.iter().map(|(v, c)| v as f64 * c as f64).sum::<f64>() / able.total() as f64;
        cols.push("able_travellers_mean", am);
        if let Some(r) = acc.rations_left.get(d) {
            let e = nonnegative_mean(r);
            cols.push("rations_left_mean", e.value);
            cols.push("rations_left_lo", e.lo);
            cols.push("rations_left_hi", e.hi);
        }
        for (k, l) in acc.potions_left.iter().enumerate() {
            cols.push(&format!("potions_left_{k}_mean"), l[d].mean);
        }
    }
    let mut dcols = vec![Column::new(
        "day".into(),
        (1..=days as i64).collect::<Vec<_>>(),
    )];
    dcols.extend(cols.into_columns());
    let chart = LineChart {
        x_kind: XKind::Integer,
        title: tr!(lang, "growth.party.days_title").into(),
        x_label: tr!(lang, "growth.expedition.x_day").into(),
        y_label: tr!(lang, "growth.expedition.y_probability").into(),
        y_range: Some((0.0, 1.0)),
        series: lines.into_iter().collect(),
    };
    Ok(Output {
        name: "party-days".into(),
        title: tr!(lang, "growth.party.days_title").into(),
        question: tr!(lang, "growth.party.days_question").into(),
        frame: DataFrame::new_infer_height(dcols)?,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: Vec::new(),
        provenance: prov.for_output("party-days"),
    })
}

fn traveller_days(
    lang: Lang,
    m: &ExpeditionModel,
    acc: &PartyAcc,
    prov: &Provenance,
) -> anyhow::Result<Output> {
    let party = m.party.as_ref().expect("a party");
    let days = m.plans.len();
    let (mut who, mut day) = (Vec::new(), Vec::new());
    let mut cols = FloatColumns::default();
    let mut ex_lines = Vec::new();
    let mut fp_lines = Vec::new();
    for (mem, a) in party.members.iter().zip(&acc.members) {
        let mut ex = LineSeries {
            name: tr!(lang, "growth.party.series_exhausted", name = mem.name),
            ..Default::default()
        };
        let mut fp = LineSeries {
            name: tr!(lang, "growth.party.series_fp", name = mem.name),
            ..Default::default()
        };
        let fe: Vec<(i64, u64)> = a.first_exhaustion.iter().collect();
        let mut cum = 0u64;
        for d in 0..days {
            let x = d as f64 + 1.0;
            who.push(mem.name.clone());
            day.push(d as i64 + 1);
            for (when, mo) in [("worst", &a.worst), ("end", &a.end)] {
                for (track, t) in [("fp", &mo.fp[d]), ("fm", &mo.fm[d])] {
                    let (mn, q) = band_row(t);
                    cols.push(&format!("{track}_{when}_mean"), mn);
                    cols.push(&format!("{track}_{when}_p50"), q[2]);
                    if when == "end" && track == "fp" {
                        fp.points.push((x, q[2]));
                        fp.band.push((x, q[0], q[4]));
                    }
                }
                let p = cols.interval(&format!("p_exhausted_{when}"), rate(&mo.exhausted[d]));
                if when == "worst" {
                    ex.points.push((x, p.value));
                    ex.band.push((x, p.lo, p.hi));
                }
                let r = &mo.reference[d];
                cols.push(&format!("p_reference_success_{when}"), r.mean);
            }
            cum += fe.get(d).map_or(0, |e| e.1);
            cols.push(
                "p_exhausted_by_day",
                cum as f64 / a.first_exhaustion.total() as f64,
            );
        }
        ex_lines.push(ex);
        fp_lines.push(fp);
    }
    let mut dcols = vec![
        Column::new("traveller".into(), who),
        Column::new("day".into(), day),
    ];
    dcols.extend(cols.into_columns());
    let ex_chart = LineChart {
        x_kind: XKind::Integer,
        title: tr!(lang, "growth.party.ex_title").into(),
        x_label: tr!(lang, "growth.expedition.x_day").into(),
        y_label: tr!(lang, "growth.expedition.y_probability").into(),
        // Fitted: individual risks are small next to the party's.
        y_range: None,
        series: ex_lines,
    };
    let fp_chart = LineChart {
        x_kind: XKind::Integer,
        title: tr!(lang, "growth.party.fp_title").into(),
        x_label: tr!(lang, "growth.expedition.x_day").into(),
        y_label: tr!(lang, "growth.party.y_fp").into(),
        y_range: Some((-3.0, 10.0)),
        series: fp_lines,
    };
    Ok(Output {
        name: "party-travellers".into(),
        title: tr!(lang, "growth.party.travellers_title").into(),
        question: tr!(lang, "growth.party.travellers_question").into(),
        frame: DataFrame::new_infer_height(dcols)?,
        figures: vec![Figure::new(vec![
            Chart::Lines(ex_chart),
            Chart::Lines(fp_chart),
        ])],
        key_figures: Vec::new(),
        provenance: prov.for_output("party-travellers"),
    })
}
