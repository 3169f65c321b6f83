//! `kind = "expedition"`: FP/FM over a multi-day expedition (C-FAT-1..4): quantile bands
//! per day, P(exhausted) per day, time to first exhaustion and the success rate of a
//! reference test as the maluses bite.

use polars::prelude::*;

use crate::engine::{Counts, Merge, Moments, Rng64, Simulation, Tally};
use crate::error::UserError;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance};
use crate::scenario::ScenarioFile;
use crate::stats::{t_interval, wilson};
use crate::systems::cosmos::growth::fatigue::expedition::Trek;
use crate::systems::cosmos::growth::fatigue::{FatigueState, FATIGUE_MIN};
use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::cosmos::growth::{band_row, quantile_interval, GrowthRules, OPTIONS};
use crate::systems::cosmos::{TestRules, TestSpec};
use crate::systems::{RunOverrides, ScenarioResult};

use super::{summary, task_of};

/// Default expeditions per run.
pub const DEFAULT_TRIALS: u64 = 50_000;

mod legs;
mod model;

pub use legs::{march_table, piloting_by_day, Legs, March, Pace, Piloting};
pub use model::{check, model, ExpeditionModel};

/// Which track's fatigue hits a stat's tests (C-FAT-4).
fn track_of(s: Stat) -> Option<bool> {
    match s {
        Stat::Esprit => Some(false),
        Stat::Force | Stat::Precision | Stat::Agilite => Some(true),
        _ => None,
    }
}

/// P(success or better) of the reference test at each track value -3..10 (exact):
/// the state's malus and crit band; an exhausted track cannot act (C-FAT-4). With
/// `concentrate = Some(esprit)` the test follows a concentrate action (C-FAT-5): light
/// fatigue ignored, moderate malus halved, extreme malus halved if a passive Esprit test
/// (karma 0, no modifiers) succeeds — weighed exactly by that test's chance.
pub fn reference_table(
    stat: Stat,
    threshold: f64,
    karma: i8,
    rules: &TestRules,
    concentrate: Option<f64>,
) -> Result<[f64; 14], UserError> {
    let p_at = |st: FatigueState, malus: f64| -> Result<f64, UserError> {
        let spec = TestSpec::new(threshold, karma)?
            .with_modifier(malus, rules.percent_mode)
            .with_crit_fail_from(st.crit_fail_from())?;
        Ok(spec.exact(rules).prob_where(|o| o.is_success()))
    };
    let passive_esprit = match concentrate {
        Some(esprit) => TestSpec::new(esprit, 0)?
            .exact(rules)
            .prob_where(|o| o.is_success()),
        None => 0.0,
    };
    let mut out = [0.0; 14];
    for (i, slot) in out.iter_mut().enumerate() {
        let v = i as i32 + FATIGUE_MIN;
        let st = if track_of(stat).is_some() {
            FatigueState::of(v)
        } else {
            FatigueState::Fresh
        };
        *slot = match (st, concentrate) {
            (FatigueState::Exhausted, _) => 0.0,
            (_, None) => p_at(st, st.test_malus())?,
            (FatigueState::Extreme, Some(_)) => {
                passive_esprit * p_at(st, st.concentrated_malus())?
                    + (1.0 - passive_esprit) * p_at(st, st.test_malus())?
            }
            (_, Some(_)) => p_at(st, st.concentrated_malus())?,
        };
    }
    Ok(out)
}

/// Per-day tallies: FP and FM in the evening, exhaustion, reference test.
#[derive(Clone, Debug)]
pub struct TrekAcc {
    pub fp: Vec<Tally>,
    pub fm: Vec<Tally>,
    pub exhausted: Vec<Counts<2>>,
    pub reference: Vec<Moments>,
    pub first_exhaustion: Tally,
    /// Grid units marched per day (empty without a march leg).
    pub march: Vec<Moments>,
}

impl Merge for TrekAcc {
    fn merge(&mut self, o: Self) {
        self.fp.merge(o.fp);
        self.fm.merge(o.fm);
        self.exhausted.merge(o.exhausted);
        self.reference.merge(o.reference);
        self.first_exhaustion.merge(o.first_exhaustion);
        self.march.merge(o.march);
    }
}

/// Expeditions, day after day.
pub struct ExpeditionSim {
    pub model: ExpeditionModel,
    table: [f64; 14],
    /// Grid units marched in a day by morning FP -3..10, with a march leg.
    march: Option<[f64; 14]>,
}

impl ExpeditionSim {
    /// With the default growth options.
    pub fn new(model: ExpeditionModel, rules: &TestRules) -> Result<ExpeditionSim, UserError> {
        ExpeditionSim::with_growth(model, rules, &GrowthRules::default())
    }

    /// With the growth options in force (sprint and overload readings, C-MOVE, C-INV).
    pub fn with_growth(
        model: ExpeditionModel,
        rules: &TestRules,
        growth: &GrowthRules,
    ) -> Result<ExpeditionSim, UserError> {
        let (s, t, k) = model.reference;
        let concentrate = model.concentrate.then_some(model.traveller.esprit as f64);
        Ok(ExpeditionSim {
            table: reference_table(s, t, k, rules, concentrate)?,
            march: match &model.legs.march {
                Some(m) => Some(march_table(m, rules, growth)?),
                None => None,
            },
            model,
        })
    }
}

impl Simulation for ExpeditionSim {
    type Acc = TrekAcc;

    fn empty(&self) -> TrekAcc {
        let d = self.model.plans.len();
        TrekAcc {
            fp: vec![Tally::new(-3, 10); d],
            fm: vec![Tally::new(-3, 10); d],
            exhausted: vec![Counts::default(); d],
            reference: vec![Moments::default(); d],
            first_exhaustion: Tally::new(1, d as i64),
            march: if self.march.is_some() {
                vec![Moments::default(); d]
            } else {
                Vec::new()
            },
        }
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut TrekAcc) {
        let m = &self.model;
        let track = track_of(m.reference.0);
        for _ in 0..trials {
            let mut t = Trek::new(&m.traveller, &m.potions);
            let mut first = m.plans.len() as i64 + 1;
            for (d, plan) in m.plans.iter().enumerate() {
                if let Some(table) = &self.march {
                    // The march happens in the day, at the morning's FP (C-FAT-4).
                    acc.march[d].push(table[(t.f.fp - FATIGUE_MIN) as usize]);
                }
                t.day(plan, &m.encounter, rng);
                t.evening(plan, &m.potions);
                acc.fp[d].push(t.f.fp as i64);
                acc.fm[d].push(t.f.fm as i64);
                acc.exhausted[d].add(usize::from(t.exhausted_today));
                if t.exhausted_today && first > m.plans.len() as i64 {
                    first = d as i64 + 1;
                }
                let v = match track {
                    Some(true) => t.f.fp,
                    Some(false) => t.f.fm,
                    None => 0,
                };
                acc.reference[d].push(self.table[(v - FATIGUE_MIN) as usize]);
                t.night(plan);
            }
            acc.first_exhaustion.push(first);
        }
    }
}

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (m, rules_map, run, title, question) = model(file)?;
    let (ctx, trials) = o.resolve(file, &run, &rules_map, DEFAULT_TRIALS)?;
    let rules = TestRules::from_options(&ctx.options);
    let text = format!("{m:?}");
    let growth = GrowthRules::from_options(&ctx.options);
    let sim = ExpeditionSim::with_growth(m, &rules, &growth)?;
    let progress = ctx.progress(trials, "expedition");
    let acc = ctx.engine.run(&sim, task_of(&text), trials, &progress);
    progress.finish();
    let m = &sim.model;
    let days = m.plans.len();
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    let (rs, rt, rk) = m.reference;
    let prov = Provenance::monte_carlo("expedition", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("days", days)
        .with_param("reference_test", format!("{} {rt} karma {rk}", rs.name()));
    let mut prov = Provenance {
        scenario: Some(file.reference()),
        ..prov
    };
    if let Some(p) = &m.legs.piloting {
        prov = prov.with_param(
            "piloting",
            format!("crew score {} on d{}", p.score, p.vehicle_die),
        );
    }
    if let Some(mv) = &m.legs.march {
        prov = prov.with_param(
            "march",
            format!(
                "agilite {} load {} karma {} turns {} pace {}",
                mv.mover.agility,
                mv.mover.load,
                mv.mover.karma,
                mv.turns_per_day,
                format!("{:?}", mv.pace).to_lowercase()
            ),
        );
    }

    let mut cols: Vec<(String, Vec<f64>)> = Vec::new();
    let mut push = |name: &str, v: f64| match cols.iter_mut().find(|c| c.0 == name) {
        Some(c) => c.1.push(v),
        None => cols.push((name.to_string(), vec![v])),
    };
    let mut bands = [
        LineSeries {
            name: "FP median (5%..95%)".into(),
            ..Default::default()
        },
        LineSeries {
            name: "FM median (5%..95%)".into(),
            ..Default::default()
        },
    ];
    let mut pex = LineSeries {
        name: "P(exhausted that day)".into(),
        ..Default::default()
    };
    let mut pcum = LineSeries {
        name: "P(exhausted by that day)".into(),
        ..Default::default()
    };
    let mut pref = LineSeries {
        name: format!("P({} test at {rt} succeeds)", rs.name()),
        ..Default::default()
    };
    let pilot = m.legs.piloting.as_ref().map(piloting_by_day);
    let mut cum = 0u64;
    let fe: Vec<(i64, u64)> = acc.first_exhaustion.iter().collect();
    for d in 0..days {
        let x = d as f64 + 1.0;
        for (k, (name, t)) in [("fp", &acc.fp[d]), ("fm", &acc.fm[d])]
            .into_iter()
            .enumerate()
        {
            let (mean, q) = band_row(t);
            push(&format!("{name}_mean"), mean);
            for (qn, v) in ["p05", "p25", "p50", "p75", "p95"].iter().zip(q) {
                push(&format!("{name}_{qn}"), v);
            }
            bands[k].points.push((x, q[2]));
            bands[k].band.push((x, q[0], q[4]));
        }
        let c = &acc.exhausted[d];
        let (lo, hi) = wilson(c.counts[1], c.total());
        let p = c.counts[1] as f64 / c.total() as f64;
        push("p_exhausted", p);
        push("p_exhausted_lo", lo);
        push("p_exhausted_hi", hi);
        pex.points.push((x, p));
        pex.band.push((x, lo, hi));
        cum += fe.get(d).map_or(0, |e| e.1);
        let (lo, hi) = wilson(cum, trials);
        push("p_exhausted_by_day", cum as f64 / trials as f64);
        push("p_exhausted_by_day_lo", lo);
        push("p_exhausted_by_day_hi", hi);
        pcum.points.push((x, cum as f64 / trials as f64));
        pcum.band.push((x, lo, hi));
        let r = &acc.reference[d];
        let (lo, hi) = t_interval(r.mean, r.std_error(), r.n);
        push("p_reference_success", r.mean);
        push("p_reference_success_lo", lo.max(0.0));
        push("p_reference_success_hi", hi.min(1.0));
        pref.points.push((x, r.mean));
        pref.band.push((x, lo.max(0.0), hi.min(1.0)));
        if let Some(p) = &pilot {
            push("p_piloting_success", p[d]);
        }
        if let Some(mv) = acc.march.get(d) {
            let (lo, hi) = t_interval(mv.mean, mv.std_error(), mv.n);
            push("march_distance_mean", mv.mean);
            push("march_distance_lo", lo.max(0.0));
            push("march_distance_hi", hi);
        }
    }
    let mut dcols = vec![Column::new(
        "day".into(),
        (1..=days as i64).collect::<Vec<_>>(),
    )];
    dcols.extend(cols.into_iter().map(|(n, v)| Column::new(n.into(), v)));
    let [b0, b1] = bands;
    let track_chart = LineChart {
        x_kind: Default::default(),
        title: "Fatigue in the evening, by day".into(),
        x_label: "day".into(),
        y_label: "points (-3..10)".into(),
        y_range: Some((-3.0, 10.0)),
        series: vec![b0, b1],
    };
    let risk_chart = LineChart {
        x_kind: Default::default(),
        title: "Exhaustion and the reference test".into(),
        x_label: "day".into(),
        y_label: "probability".into(),
        y_range: Some((0.0, 1.0)),
        series: vec![pex, pcum, pref.clone()],
    };
    let fp_last = band_row(&acc.fp[days - 1]);
    let fm_last = band_row(&acc.fm[days - 1]);
    let by_end = share(&acc.first_exhaustion, days);
    let (bl, bh) = wilson(by_end, trials);
    let mut key = vec![
        format!(
            "P(exhausted at least once in {days} days) = {:.4} (95% {bl:.4}..{bh:.4})",
            by_end as f64 / trials as f64
        ),
        format!(
            "day {days} evening: FP median {} (90% in {}..{}), FM median {} (90% in {}..{})",
            fp_last.1[2], fp_last.1[0], fp_last.1[4], fm_last.1[2], fm_last.1[0], fm_last.1[4]
        ),
        format!(
            "{} test at {rt}: P(success) {:.4} on day 1, {:.4} on day {days}",
            rs.name(),
            pref.points.first().map_or(0.0, |p| p.1),
            pref.points.last().map_or(0.0, |p| p.1)
        ),
    ];
    let leg_keys = legs_key_figures(m, pilot.as_deref(), &acc.march);
    let (med, lo, hi) = quantile_interval(&acc.first_exhaustion, 0.5);
    key.push(format!(
        "median day of first exhaustion: {} (95% {}..{})",
        med.map_or(format!("not within {days} days"), |d| format!("day {d}")),
        lo.map_or("-".into(), |x| x.to_string()),
        hi.map_or("censored".into(), |x| x.to_string())
    ));
    let days_out = Output {
        name: "expedition-days".into(),
        title: "Fatigue day by day".into(),
        question: "How do FP and FM build up each day, how likely is exhaustion, and how much does the reference test suffer?".into(),
        frame: DataFrame::new_infer_height(dcols)?,
        figures: vec![Figure { suffix: None, panels: vec![Chart::Lines(track_chart), Chart::Lines(risk_chart)] }],
        key_figures: key.clone(),
        provenance: Provenance { output: "expedition-days".into(), ..prov.clone() },
    };
    let (mut qs, mut dv, mut dl, mut dh) = (vec![], vec![], vec![], vec![]);
    for q in [0.1, 0.25, 0.5, 0.75, 0.9] {
        let (v, l, h) = quantile_interval(&acc.first_exhaustion, q);
        qs.push(q);
        dv.push(v.map(|x| x as f64));
        dl.push(l.map(|x| x as f64));
        dh.push(h.map(|x| x as f64));
    }
    let n = qs.len();
    let ex_out = Output {
        name: "expedition-exhaustion".into(),
        title: "Day of first exhaustion".into(),
        question: "On which day does a traveller first reach 10 FP or FM (quantiles with 95% intervals; empty = not within the expedition)?".into(),
        frame: DataFrame::new_infer_height(vec![
            Column::new("quantile".into(), qs),
            Column::new("day".into(), dv),
            Column::new("day_lo".into(), dl),
            Column::new("day_hi".into(), dh),
            Column::new("p_by_end".into(), vec![by_end as f64 / trials as f64; n]),
            Column::new("p_by_end_lo".into(), vec![bl; n]),
            Column::new("p_by_end_hi".into(), vec![bh; n]),
        ])?,
        figures: vec![super::cdf_chart(
            "First exhaustion: P(reached 10 FP or FM by that day)",
            "day",
            &[("first exhaustion".to_string(), &acc.first_exhaustion)],
        )],
        key_figures: key[3..].to_vec(),
        provenance: Provenance { output: "expedition-exhaustion".into(), ..prov.clone() },
    };
    let title = title.unwrap_or_else(|| "Expedition fatigue".into());
    let question =
        question.unwrap_or_else(|| "How does fatigue build up over the expedition?".into());
    let outputs = vec![days_out, ex_out];
    key.truncate(4);
    key.extend(leg_keys);
    let summary = summary(&title, &question, &key, &outputs, &prov);
    Ok(ScenarioResult {
        title,
        question,
        key_figures: key,
        outputs,
        summary,
    })
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
fn legs_key_figures(m: &ExpeditionModel, pilot: Option<&[f64]>, march: &[Moments]) -> Vec<String> {
    let mut out = Vec::new();
    if let (Some(p), Some(leg)) = (pilot, &m.legs.piloting) {
        let all: f64 = p.iter().product();
        let mean = p.iter().sum::<f64>() / p.len().max(1) as f64;
        out.push(format!(
            "piloting (crew score {}, d{} vehicle): P(leg succeeds) {:.4} on day 1, {:.4} on the last day, {mean:.4} on average; every leg succeeds with P = {all:.4} (exact, C-PILOT)",
            leg.score,
            leg.vehicle_die,
            p.first().copied().unwrap_or(0.0),
            p.last().copied().unwrap_or(0.0),
        ));
    }
    if let (Some(first), Some(last)) = (march.first(), march.last()) {
        let total: f64 = march.iter().map(|x| x.mean).sum();
        out.push(format!(
            "march: {:.1} grid units on day 1, {:.1} on day {} (means); {total:.1} over the expedition (C-MOVE, C-INV, C-FAT-4)",
            first.mean,
            last.mean,
            march.len()
        ));
    }
    out
}
