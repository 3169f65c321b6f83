//! `kind = "mutation"`: days of exposure until an ultimate mutation (C-GENE-1..5), as
//! survival curves, time-to-event quantiles, ultimate shares and a Chance x karma sweep.

use polars::prelude::*;

use crate::engine::{Counts, Merge, Moments, Rng64, Simulation, Tally};
use crate::report::{
    BarChart, BarSeries, Chart, Figure, LineChart, LineSeries, Output, Provenance,
};
use crate::scenario::ScenarioFile;
use crate::stats::{t_interval, wilson};
use crate::systems::cosmos::growth::genetics::{MutationRules, Mutations, Ultimate};
use crate::systems::cosmos::growth::{quantile_interval, OPTIONS};
use crate::systems::cosmos::{TestRules, TestSampler, TestSpec};
use crate::systems::{RunOverrides, ScenarioResult};

use super::{summary, task_of};

/// Default characters per run (and per sweep cell).
pub const DEFAULT_TRIALS: u64 = 20_000;

mod model;

pub use model::{check, model, MutationModel};

/// Time-to-event tallies (days; `max_days + 1` = not by the end), ultimate types.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct MutationAcc {
    pub first_major: Tally,
    pub ultimate: Tally,
    pub final_ultimate: Tally,
    pub first_type: Counts<4>,
    pub final_type: Counts<4>,
    pub mutations: Moments,
    /// Share of a character's majors that are positive (characters with a major).
    pub positive_share: Moments,
}

impl Merge for MutationAcc {
    fn merge(&mut self, o: Self) {
        self.first_major.merge(o.first_major);
        self.ultimate.merge(o.ultimate);
        self.final_ultimate.merge(o.final_ultimate);
        self.first_type.merge(o.first_type);
        self.final_type.merge(o.final_type);
        self.mutations.merge(o.mutations);
        self.positive_share.merge(o.positive_share);
    }
}

/// Characters exposed day after day.
pub struct MutationSim<'a> {
    pub model: &'a MutationModel,
    pub rules: MutationRules,
    pub chance: i64,
    pub karma: i8,
    samplers: Vec<TestSampler>,
}

impl<'a> MutationSim<'a> {
    pub fn new(
        model: &'a MutationModel,
        rules: MutationRules,
        test: &TestRules,
        chance: i64,
        karma: i8,
    ) -> MutationSim<'a> {
        let samplers = (-10..=10)
            .map(|k| {
                TestSampler::new(
                    &TestSpec::new(chance as f64, k).expect("karma in range"),
                    test,
                )
            })
            .collect();
        MutationSim {
            model,
            rules,
            chance,
            karma,
            samplers,
        }
    }
}

impl Simulation for MutationSim<'_> {
    type Acc = MutationAcc;

    fn empty(&self) -> MutationAcc {
        let d = self.model.max_days as i64;
        MutationAcc {
            first_major: Tally::new(1, d),
            ultimate: Tally::new(1, d),
            final_ultimate: Tally::new(1, d),
            first_type: Counts::default(),
            final_type: Counts::default(),
            mutations: Moments::default(),
            positive_share: Moments::default(),
        }
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut MutationAcc) {
        let m = self.model;
        let never = m.max_days as i64 + 1;
        let mut st = Mutations::new(&m.tree, &self.rules);
        for _ in 0..trials {
            st.reset(self.karma);
            let (mut major, mut ult, mut fin) = (never, never, never);
            let mut count = 0u32;
            for day in 1..=m.max_days {
                let pmu = m.schedule.on_day(day).map_or(0, |d| d.roll(rng));
                count += st.accrue(pmu, rng, &self.samplers, &self.rules);
                if major == never && st.majors > 0 {
                    major = day as i64;
                }
                if ult == never && st.first_ultimate.is_some() {
                    ult = day as i64;
                }
                if st.done() {
                    fin = day as i64;
                    break;
                }
                if m.therapy_every > 0 && day % m.therapy_every == 0 {
                    st.cure_reversible();
                }
            }
            acc.first_major.push(major);
            acc.ultimate.push(ult);
            acc.final_ultimate.push(fin);
            if let Some(u) = st.first_ultimate {
                acc.first_type.add(u as usize);
            }
            if let Some(u) = st.final_ultimate {
                acc.final_type.add(u as usize);
            }
            acc.mutations.push(count as f64);
            if st.majors > 0 {
                acc.positive_share
                    .push(st.majors_positive as f64 / st.majors as f64);
            }
        }
    }
}

fn model_text(m: &MutationModel) -> String {
    let genes: Vec<String> = m
        .tree
        .genes
        .iter()
        .map(|g| format!("{}<{:?}", g.name, g.parent))
        .collect();
    format!(
        "{:?}|{}|{}|{}|{}",
        m.schedule,
        genes.join(","),
        m.max_days,
        m.therapy_every,
        m.tree.exclusive.len()
    )
}

fn run_cell(
    model: &MutationModel,
    ctx: &crate::context::Context,
    trials: u64,
    chance: i64,
    karma: i8,
) -> MutationAcc {
    let rules = MutationRules::from_options(&ctx.options);
    let test = TestRules::from_options(&ctx.options);
    let sim = MutationSim::new(model, rules, &test, chance, karma);
    let progress = ctx.progress(trials, &format!("mutation chance {chance} karma {karma}"));
    let task = task_of(&format!(
        "{}|chance={chance}|karma={karma}",
        model_text(model)
    ));
    let acc = ctx.engine.run(&sim, task, trials, &progress);
    progress.finish();
    acc
}

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

fn days_text(v: Option<i64>, max: u32) -> String {
    v.map_or(format!("not within {max} days"), |d| format!("{d} days"))
}

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (m, rules_map, run, title, question) = model(file)?;
    let (ctx, trials) = o.resolve(file, &run, &rules_map, DEFAULT_TRIALS)?;
    let acc = run_cell(&m, &ctx, trials, m.chance, m.karma);
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    let prov = Provenance::monte_carlo("mutation", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param(
            "tree",
            if m.sample {
                "sample (illustrative)".to_string()
            } else {
                format!("{} genes from the scenario", m.tree.len())
            },
        )
        .with_param("chance", m.chance)
        .with_param("karma", m.karma)
        .with_param("max_days", m.max_days)
        .with_param("therapy_every_days", m.therapy_every)
        .with_param("schedule", format!("{:?}", m.schedule.phases));
    let prov = Provenance {
        scenario: Some(file.reference()),
        ..prov
    };
    let n = trials;

    // Survival curves.
    let days: Vec<u32> = (0..=m.max_days).collect();
    let mut cols: Vec<Vec<f64>> = vec![vec![]; 6];
    let mut curves = [
        LineSeries {
            name: "no major mutation yet".into(),
            ..Default::default()
        },
        LineSeries {
            name: "no ultimate mutation yet".into(),
            ..Default::default()
        },
    ];
    for &d in &days {
        for (k, t) in [&acc.first_major, &acc.ultimate].into_iter().enumerate() {
            let alive = n - share_by(t, d);
            let (lo, hi) = wilson(alive, n);
            let p = alive as f64 / n as f64;
            cols[3 * k].push(p);
            cols[3 * k + 1].push(lo);
            cols[3 * k + 2].push(hi);
            curves[k].points.push((d as f64, p));
            curves[k].band.push((d as f64, lo, hi));
        }
    }
    let mut scols = vec![Column::new(
        "day".into(),
        days.iter().map(|&d| d as i64).collect::<Vec<_>>(),
    )];
    for (name, c) in [
        "p_no_major",
        "p_no_major_lo",
        "p_no_major_hi",
        "p_no_ultimate",
        "p_no_ultimate_lo",
        "p_no_ultimate_hi",
    ]
    .iter()
    .zip(cols)
    {
        scols.push(Column::new((*name).into(), c));
    }
    let [c0, c1] = curves;
    let surv_chart = LineChart {
        x_kind: Default::default(),
        title: "Survival: share of characters without the event yet".into(),
        x_label: "day of exposure".into(),
        y_label: "P(not yet)".into(),
        y_range: Some((0.0, 1.0)),
        series: vec![c0, c1],
    };
    let by_end = |t: &Tally| {
        let k = share_by(t, m.max_days);
        (k as f64 / n as f64, wilson(k, n))
    };
    let (pu, (pul, puh)) = by_end(&acc.ultimate);
    let mut key = vec![format!(
        "P(ultimate mutation within {} days) = {pu:.4} (95% {pul:.4}..{puh:.4}) at Chance {}, karma {:+}",
        m.max_days, m.chance, m.karma
    )];
    let surv_out = Output {
        name: "mutation-survival".into(),
        title: "Survival curves: no major, no ultimate mutation yet".into(),
        question: "What share of exposed characters has not yet had a major / an ultimate mutation after each day?".into(),
        frame: DataFrame::new_infer_height(scols)?,
        figures: vec![Figure { suffix: None, panels: vec![Chart::Lines(surv_chart)] }],
        key_figures: key.clone(),
        provenance: Provenance { output: "mutation-survival".into(), ..prov.clone() },
    };

    // Time-to-event quantiles.
    let (mut ev, mut qs, mut dv, mut dl, mut dh, mut pe, mut pl, mut ph) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for (name, t) in [
        ("first_major", &acc.first_major),
        ("ultimate", &acc.ultimate),
        ("final_ultimate", &acc.final_ultimate),
    ] {
        let (p, (l, h)) = by_end(t);
        for q in [0.1, 0.25, 0.5, 0.75, 0.9] {
            let (v, lo, hi) = quantile_interval(t, q);
            ev.push(name);
            qs.push(q);
            dv.push(opt(v));
            dl.push(opt(lo));
            dh.push(opt(hi));
            pe.push(p);
            pl.push(l);
            ph.push(h);
            if q == 0.5 {
                key.push(format!(
                    "median time to {}: {} (95% {}..{})",
                    name.replace('_', " "),
                    days_text(v, m.max_days),
                    lo.map_or("-".into(), |x| x.to_string()),
                    hi.map_or("censored".into(), |x| x.to_string())
                ));
            }
        }
    }
    let times_frame = DataFrame::new_infer_height(vec![
        Column::new("event".into(), ev),
        Column::new("quantile".into(), qs),
        Column::new("day".into(), dv),
        Column::new("day_lo".into(), dl),
        Column::new("day_hi".into(), dh),
        Column::new("p_by_end".into(), pe),
        Column::new("p_by_end_lo".into(), pl),
        Column::new("p_by_end_hi".into(), ph),
    ])?;
    let mo = &acc.mutations;
    let (ml, mh) = t_interval(mo.mean, mo.std_error(), mo.n);
    key.push(format!("mutations per character until the end or a final ultimate: mean {:.2} (95% {ml:.2}..{mh:.2})", mo.mean));
    let ps = &acc.positive_share;
    let (psl, psh) = t_interval(ps.mean, ps.std_error(), ps.n);
    key.push(format!(
        "share of major mutations that are positive (Chance test super success): {:.4} (95% {psl:.4}..{psh:.4}); most majors come from escalation, chains and crit failures",
        ps.mean
    ));
    let times_out = Output {
        name: "mutation-times".into(),
        title: "Days to the first major and to an ultimate mutation".into(),
        question: "After how many days of exposure does a character get a first major mutation, an ultimate, a final ultimate (quantiles with 95% intervals; empty = not within the horizon)?".into(),
        frame: times_frame,
        figures: vec![super::cdf_chart(
            "P(event by that day of exposure)",
            "day",
            &[
                ("first major".to_string(), &acc.first_major),
                ("ultimate".to_string(), &acc.ultimate),
                ("final ultimate".to_string(), &acc.final_ultimate),
            ],
        )],
        key_figures: key[1..].to_vec(),
        provenance: Provenance { output: "mutation-times".into(), ..prov.clone() },
    };

    // Ultimate types.
    let (mut un, mut sf, mut sfl, mut sfh, mut sl, mut sll, mut slh) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    let (tf, tl) = (acc.first_type.total(), acc.final_type.total());
    for u in Ultimate::ALL {
        let (a, b) = wilson(acc.first_type.counts[u as usize], tf);
        let (c, d) = wilson(acc.final_type.counts[u as usize], tl);
        un.push(u.name());
        sf.push(acc.first_type.counts[u as usize] as f64 / tf.max(1) as f64);
        sfl.push(a);
        sfh.push(b);
        sl.push(acc.final_type.counts[u as usize] as f64 / tl.max(1) as f64);
        sll.push(c);
        slh.push(d);
    }
    let ult_key = vec![format!(
        "{tf} characters reached an ultimate; first ultimate shares: {}",
        un.iter()
            .zip(&sf)
            .map(|(n, s)| format!("{n} {s:.3}"))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    let shares_chart = |name: &str, v: &[f64], lo: &[f64], hi: &[f64]| BarSeries {
        name: name.into(),
        values: v.to_vec(),
        intervals: lo.iter().copied().zip(hi.iter().copied()).collect(),
    };
    // Ultimate types are categories: grouped bars, not a line through them.
    let ult_chart = BarChart {
        title: "Ultimate type shares".into(),
        x_label: "ultimate".into(),
        y_label: "share of characters with an ultimate".into(),
        categories: un.iter().map(|u| u.to_string()).collect(),
        y_range: Some((0.0, 1.0)),
        series: vec![
            shares_chart("first ultimate", &sf, &sfl, &sfh),
            shares_chart("final ultimate", &sl, &sll, &slh),
        ],
    };
    let ult_out = Output {
        name: "mutation-ultimates".into(),
        title: "Which ultimate mutation".into(),
        question: "Among characters who reach an ultimate, what share gets each type, first and final (half_hp allows one more major)?".into(),
        frame: DataFrame::new_infer_height(vec![
            Column::new("ultimate".into(), un),
            Column::new("share_first".into(), sf),
            Column::new("share_first_lo".into(), sfl),
            Column::new("share_first_hi".into(), sfh),
            Column::new("share_final".into(), sl),
            Column::new("share_final_lo".into(), sll),
            Column::new("share_final_hi".into(), slh),
        ])?,
        figures: vec![Figure { suffix: None, panels: vec![Chart::Bars(ult_chart)] }],
        key_figures: ult_key,
        provenance: Provenance { output: "mutation-ultimates".into(), ..prov.clone() },
    };
    let mut outputs = vec![surv_out, times_out, ult_out];

    // Chance x karma sweep.
    if let Some((chances, karmas)) = &m.sweep {
        let mut pos = vec![];
        let (mut cc, mut kk, mut pp, mut ll, mut hh, mut med, mut medm) =
            (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
        let mut chart = LineChart {
            title: format!(
                "P(ultimate within {} days) by Chance and starting karma",
                m.max_days
            ),
            x_label: "Chance".into(),
            y_label: "P(ultimate)".into(),
            y_range: Some((0.0, 1.0)),
            ..Default::default()
        };
        for &k in karmas {
            let mut s = LineSeries {
                name: format!("karma {k:+}"),
                ..Default::default()
            };
            for &c in chances {
                let a = run_cell(&m, &ctx, trials, c, k as i8);
                let (p, (l, h)) = by_end(&a.ultimate);
                cc.push(c);
                kk.push(k);
                pp.push(p);
                ll.push(l);
                hh.push(h);
                med.push(opt(quantile_interval(&a.ultimate, 0.5).0));
                medm.push(opt(quantile_interval(&a.first_major, 0.5).0));
                pos.push(a.positive_share.mean);
                s.points.push((c as f64, p));
                s.band.push((c as f64, l, h));
            }
            chart.series.push(s);
        }
        let lo_i = 0;
        let hi_i = pp.len() - 1;
        let sweep_key = vec![format!(
            "Chance {} karma {:+}: P(ultimate) {:.4}, positive majors {:.3}; Chance {} karma {:+}: P(ultimate) {:.4}, positive majors {:.3}",
            cc[lo_i], kk[lo_i], pp[lo_i], pos[lo_i], cc[hi_i], kk[hi_i], pp[hi_i], pos[hi_i]
        )];
        key.extend(sweep_key.clone());
        outputs.push(Output {
            name: "mutation-sweep".into(),
            title: "How Chance and karma move the time to an ultimate".into(),
            question: "How do the Chance stat and the starting karma change the odds and the timing of an ultimate mutation?".into(),
            frame: DataFrame::new_infer_height(vec![
                Column::new("chance".into(), cc),
                Column::new("karma".into(), kk),
                Column::new("p_ultimate_by_end".into(), pp),
                Column::new("p_ultimate_by_end_lo".into(), ll),
                Column::new("p_ultimate_by_end_hi".into(), hh),
                Column::new("median_days_to_ultimate".into(), med),
                Column::new("median_days_to_first_major".into(), medm),
                Column::new("positive_major_share".into(), pos),
            ])?,
            figures: vec![Figure { suffix: None, panels: vec![Chart::Lines(chart)] }],
            key_figures: sweep_key,
            provenance: Provenance { output: "mutation-sweep".into(), ..prov.clone() }.with_param("sweep_trials_per_cell", trials),
        });
    }
    if m.sample {
        key.push("the gene tree is the shipped sample tree, which is ILLUSTRATIVE (the rulebook's tree is not in the text, C-GENE-1)".into());
    }
    let title = title.unwrap_or_else(|| "Mutation under exposure".into());
    let question =
        question.unwrap_or_else(|| "How many days of exposure until an ultimate mutation?".into());
    let summary = summary(&title, &question, &key, &outputs, &prov);
    Ok(ScenarioResult {
        title,
        question,
        key_figures: key,
        outputs,
        summary,
    })
}
