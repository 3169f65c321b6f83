//! `kind = "campaign"`: karma over many tests at mixed thresholds, with and without
//! posture locks (C-KARMA-1..3): trajectories, time to first reach +-10, stationary shares.

use std::collections::BTreeMap;

use polars::prelude::*;
use serde::Deserialize;

use crate::engine::{Merge, Moments, Rng64, Simulation, Tally};
use crate::error::UserError;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance, XKind};
use crate::scenario::{RunSection, ScenarioFile};
use crate::stats::{t_interval, wilson};
use crate::systems::cosmos::growth::campaign::{KarmaTrack, Mix, PostureKind, Postures};
use crate::systems::cosmos::growth::scenarios::Parsed;
use crate::systems::cosmos::growth::{band_row, quantile_interval, OPTIONS};
use crate::systems::cosmos::{TestRules, KARMA_MIN, KARMA_STATES};
use crate::systems::{RunOverrides, ScenarioResult};

use super::{summary, task_of};

/// Default trajectories per variant.
pub const DEFAULT_TRIALS: u64 = 20_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Raw {
    system: String,
    kind: String,
    title: Option<String>,
    question: Option<String>,
    /// Language of the pages written (`"en"`, `"fr"`): read by the command before
    /// validation (`crate::lang`), accepted here so the file stays one shape.
    #[allow(dead_code)]
    lang: Option<String>,
    #[serde(default)]
    run: RunSection,
    #[serde(default)]
    rules: BTreeMap<String, toml::Value>,
    campaign: RawCampaign,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCampaign {
    tests: i64,
    #[serde(default)]
    start_karma: i64,
    checkpoint_every: Option<i64>,
    burn_in: Option<i64>,
    thresholds: Vec<RawThreshold>,
    postures: Option<RawPostures>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawThreshold {
    threshold: f64,
    #[serde(default = "one")]
    weight: i64,
}

fn one() -> i64 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPostures {
    every_tests: i64,
    length_tests: i64,
    kind: PostureKind,
}

/// The validated campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignModel {
    pub tests: u32,
    pub start_karma: i8,
    pub checkpoint_every: u32,
    pub burn_in: u32,
    pub thresholds: Vec<(f64, u32)>,
    pub postures: Option<(u32, u32, PostureKind)>,
}

fn bad(file: &ScenarioFile, path: &[&str], msg: String, allowed: &str) -> UserError {
    file.error_at(
        path,
        &crate::systems::cosmos::growth::scenarios::shown_key(path),
        &msg,
        allowed,
    )
}

fn num(file: &ScenarioFile, path: &[&str], v: i64, lo: i64, hi: i64) -> Result<i64, UserError> {
    if !(lo..=hi).contains(&v) {
        return Err(bad(
            file,
            path,
            format!("{v} is out of range"),
            &format!("{lo}..{hi}"),
        ));
    }
    Ok(v)
}

/// Validates a campaign file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<CampaignModel>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let c = &raw.campaign;
    let tests = num(file, &["campaign", "tests"], c.tests, 1, 100_000)? as u32;
    let start_karma = num(file, &["campaign", "start_karma"], c.start_karma, -10, 10)? as i8;
    let checkpoint_every = num(
        file,
        &["campaign", "checkpoint_every"],
        c.checkpoint_every.unwrap_or((tests as i64 / 50).max(1)),
        1,
        tests as i64,
    )? as u32;
    let burn_in = num(
        file,
        &["campaign", "burn_in"],
        c.burn_in.unwrap_or(tests as i64 / 4),
        0,
        tests as i64 - 1,
    )? as u32;
    if c.thresholds.is_empty() {
        return Err(bad(
            file,
            &["campaign", "thresholds"],
            "no thresholds".into(),
            "at least one [[campaign.thresholds]] with threshold = T (and a weight)",
        ));
    }
    let mut thresholds = Vec::new();
    for (i, t) in c.thresholds.iter().enumerate() {
        let is = i.to_string();
        if !(t.threshold.is_finite() && (-100.0..=200.0).contains(&t.threshold)) {
            return Err(bad(
                file,
                &["campaign", "thresholds", &is, "threshold"],
                format!("{} is out of range", t.threshold),
                "-100..200 (C-TEST-1)",
            ));
        }
        let w = num(
            file,
            &["campaign", "thresholds", &is, "weight"],
            t.weight,
            1,
            1000,
        )?;
        thresholds.push((t.threshold, w as u32));
    }
    let postures = match &c.postures {
        None => None,
        Some(p) => {
            let every = num(
                file,
                &["campaign", "postures", "every_tests"],
                p.every_tests,
                2,
                100_000,
            )? as u32;
            let length = num(
                file,
                &["campaign", "postures", "length_tests"],
                p.length_tests,
                1,
                every as i64 - 1,
            )? as u32;
            Some((every, length, p.kind))
        }
    };
    Ok((
        CampaignModel {
            tests,
            start_karma,
            checkpoint_every,
            burn_in,
            thresholds,
            postures,
        },
        raw.rules,
        raw.run,
        raw.title,
        raw.question,
    ))
}

/// Validates the file.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (_, rules, ..) = model(file)?;
    file.rule_options(&rules)?;
    Ok(())
}

/// Karma at checkpoints, first times at +-10, per-trajectory state shares.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CampaignAcc {
    pub checkpoints: Vec<Tally>,
    pub first_plus: Tally,
    pub first_minus: Tally,
    pub shares: Vec<Moments>,
    pub visits: Vec<u64>,
}

impl Merge for CampaignAcc {
    fn merge(&mut self, o: Self) {
        self.checkpoints.merge(o.checkpoints);
        self.first_plus.merge(o.first_plus);
        self.first_minus.merge(o.first_minus);
        self.shares.merge(o.shares);
        for (a, b) in self.visits.iter_mut().zip(o.visits) {
            *a += b;
        }
    }
}

/// Karma trajectories.
pub struct CampaignSim<'a> {
    pub model: &'a CampaignModel,
    pub mix: &'a Mix,
    pub postures: Option<Postures>,
    pub rules: TestRules,
}

impl Simulation for CampaignSim<'_> {
    type Acc = CampaignAcc;

    fn empty(&self) -> CampaignAcc {
        let n = (self.model.tests / self.model.checkpoint_every) as usize;
        CampaignAcc {
            checkpoints: vec![Tally::new(-10, 10); n],
            first_plus: Tally::new(1, self.model.tests as i64),
            first_minus: Tally::new(1, self.model.tests as i64),
            shares: vec![Moments::default(); KARMA_STATES],
            visits: vec![0; KARMA_STATES],
        }
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut CampaignAcc) {
        let m = self.model;
        let never = m.tests as i64 + 1;
        let counted = (m.tests - m.burn_in) as f64;
        for _ in 0..trials {
            let mut k = KarmaTrack::new(m.start_karma);
            let (mut plus, mut minus) = (never, never);
            let mut visits = [0u32; KARMA_STATES];
            for i in 0..m.tests {
                let read = k.step(i, self.mix, self.postures.as_ref(), &self.rules, rng);
                if i >= m.burn_in {
                    visits[(read - KARMA_MIN) as usize] += 1;
                }
                // Reaching an extreme by drift (a posture's read value does not count).
                if k.karma == self.rules.karma_bound && plus == never {
                    plus = i as i64 + 1;
                }
                if k.karma == -self.rules.karma_bound && minus == never {
                    minus = i as i64 + 1;
                }
                if (i + 1) % m.checkpoint_every == 0 {
                    acc.checkpoints[((i + 1) / m.checkpoint_every - 1) as usize]
                        .push(k.karma as i64);
                }
            }
            acc.first_plus.push(plus);
            acc.first_minus.push(minus);
            for (s, v) in visits.iter().enumerate() {
                acc.shares[s].push(*v as f64 / counted);
                acc.visits[s] += *v as u64;
            }
        }
    }
}

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (m, rules_map, run, title, question) = model(file)?;
    let (ctx, trials) = o.resolve(file, &run, &rules_map, DEFAULT_TRIALS)?;
    let rules = TestRules::from_options(&ctx.options);
    let keep = ctx.options.get("posture_karma_exit") == "keep";
    let mix = Mix::new(m.thresholds.clone(), &rules);
    let mut variants: Vec<(&str, Option<Postures>)> = vec![("none", None)];
    if let Some((every, length, kind)) = m.postures {
        variants.push((
            "postures",
            Some(Postures {
                every,
                length,
                kind,
                keep,
            }),
        ));
    }
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    let prov = Provenance::monte_carlo("campaign", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("tests", m.tests)
        .with_param("thresholds", format!("{:?}", m.thresholds))
        .with_param("postures", format!("{:?}", m.postures))
        .with_param("burn_in", m.burn_in);
    let prov = Provenance {
        scenario: Some(file.reference()),
        ..prov
    };
    let mut results = Vec::new();
    for (name, p) in &variants {
        let sim = CampaignSim {
            model: &m,
            mix: &mix,
            postures: *p,
            rules,
        };
        let progress = ctx.progress(trials, &format!("campaign ({name})"));
        let acc = ctx
            .engine
            .run(&sim, task_of(&format!("{m:?}|{p:?}")), trials, &progress);
        progress.finish();
        results.push((*name, acc));
    }

    // Trajectories.
    let (mut vn, mut tn) = (vec![], vec![]);
    let mut cols: Vec<Vec<f64>> = vec![vec![]; 7];
    let mut chart = LineChart {
        title: "Karma over the campaign: median, 5%..95% band".into(),
        x_label: "tests".into(),
        y_label: "karma".into(),
        y_range: Some((-10.0, 10.0)),
        ..Default::default()
    };
    for (name, acc) in &results {
        let mut s = LineSeries {
            name: format!("postures: {name}"),
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
        title: "Karma trajectories over the campaign".into(),
        question: "How does karma wander over many tests at mixed thresholds, and how often is the karma die in play?".into(),
        frame: DataFrame::new_infer_height(tcols)?,
        figures: vec![Figure { suffix: None, panels: vec![Chart::Lines(chart)] }],
        key_figures: vec![],
        provenance: Provenance { output: "campaign-trajectories".into(), ..prov.clone() },
    };

    // First time at +-10.
    let (mut vn, mut ev, mut qs, mut dv, mut dl, mut dh, mut pe, mut pl, mut ph) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for (name, acc) in &results {
        for (event, t) in [
            ("first_plus_10", &acc.first_plus),
            ("first_minus_10", &acc.first_minus),
        ] {
            let reached = t.total() - t.above;
            let (l, h) = wilson(reached, t.total());
            for q in [0.1, 0.25, 0.5, 0.75, 0.9] {
                let (v, lo, hi) = quantile_interval(t, q);
                vn.push(*name);
                ev.push(event);
                qs.push(q);
                dv.push(v.map(|x| x as f64));
                dl.push(lo.map(|x| x as f64));
                dh.push(hi.map(|x| x as f64));
                pe.push(reached as f64 / t.total() as f64);
                pl.push(l);
                ph.push(h);
                if q == 0.5 && *name == "none" {
                    key.push(format!(
                        "{}: P(within {} tests) = {:.4} (95% {l:.4}..{h:.4}); median {}",
                        event.replace('_', " "),
                        m.tests,
                        reached as f64 / t.total() as f64,
                        v.map_or("not reached by half".into(), |x| format!("{x} tests"))
                    ));
                }
            }
        }
    }
    let mut curves = Vec::new();
    for (name, acc) in &results {
        curves.push((format!("+10, postures {name}"), &acc.first_plus));
        curves.push((format!("-10, postures {name}"), &acc.first_minus));
    }
    let ext_chart = super::cdf_chart(
        "P(karma has drifted to +10 / -10 by that test)",
        "tests",
        &curves,
    );
    let ext_out = Output {
        name: "campaign-extremes".into(),
        title: "Tests until karma first reaches +10 or -10".into(),
        question: "How many tests until karma first drifts to +10 or -10 (quantiles with 95% intervals; empty = not within the campaign)?".into(),
        frame: DataFrame::new_infer_height(vec![
            Column::new("postures".into(), vn),
            Column::new("event".into(), ev),
            Column::new("quantile".into(), qs),
            Column::new("tests".into(), dv),
            Column::new("tests_lo".into(), dl),
            Column::new("tests_hi".into(), dh),
            Column::new("p_by_end".into(), pe),
            Column::new("p_by_end_lo".into(), pl),
            Column::new("p_by_end_hi".into(), ph),
        ])?,
        figures: vec![ext_chart],
        key_figures: key.clone(),
        provenance: Provenance { output: "campaign-extremes".into(), ..prov.clone() },
    };

    // Stationary shares.
    let exact = mix.stationary(&rules);
    let mut scols = vec![
        Column::new("karma".into(), (-10..=10i64).collect::<Vec<_>>()),
        Column::new("share_exact_no_postures".into(), exact.to_vec()),
    ];
    let mut chart = LineChart {
        title: format!("Share of tests at each karma (after {} tests)", m.burn_in),
        x_label: "karma read by the test".into(),
        y_label: "share of tests".into(),
        // A distribution over whole karma values: points, not a curve between them.
        x_kind: XKind::Integer,
        ..Default::default()
    };
    chart.series.push(LineSeries {
        name: "exact, no postures".into(),
        points: (0..KARMA_STATES)
            .map(|i| (i as f64 - 10.0, exact[i]))
            .collect(),
        band: vec![],
    });
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
        scols.push(Column::new(
            format!("share_mc_{name}").into(),
            share.clone(),
        ));
        scols.push(Column::new(
            format!("share_mc_{name}_lo").into(),
            iv.iter().map(|i| i.0.max(0.0)).collect::<Vec<_>>(),
        ));
        scols.push(Column::new(
            format!("share_mc_{name}_hi").into(),
            iv.iter().map(|i| i.1.min(1.0)).collect::<Vec<_>>(),
        ));
        chart.series.push(LineSeries {
            name: format!("simulated, postures: {name}"),
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
        let die: f64 = share
            .iter()
            .enumerate()
            .filter(|(i, _)| (*i as i64 - 10).abs() >= 5)
            .map(|(_, s)| s)
            .sum();
        key.push(format!(
            "postures {name}: share of tests with the karma die in play (|karma| >= 5) = {die:.4}"
        ));
    }
    let die_exact: f64 = exact
        .iter()
        .enumerate()
        .filter(|(i, _)| (*i as i64 - 10).abs() >= 5)
        .map(|(_, s)| s)
        .sum();
    key.push(format!(
        "exact long-run share with the karma die in play, no postures: {die_exact:.4}"
    ));
    let stat_out = Output {
        name: "campaign-stationary".into(),
        title: "Long-run karma shares".into(),
        question: "Over a long campaign, what share of tests is made at each karma, exactly (no postures) and simulated (with and without postures)?".into(),
        frame: DataFrame::new_infer_height(scols)?,
        figures: vec![Figure { suffix: None, panels: vec![Chart::Lines(chart)] }],
        key_figures: key[key.len().saturating_sub(3)..].to_vec(),
        provenance: Provenance { output: "campaign-stationary".into(), ..prov.clone() },
    };
    let title = title.unwrap_or_else(|| "Campaign karma".into());
    let question = question.unwrap_or_else(|| "Where does karma go over a campaign?".into());
    let outputs = vec![traj_out, ext_out, stat_out];
    let summary = summary(&title, &question, &key, &outputs, &prov);
    Ok(ScenarioResult {
        title,
        question,
        key_figures: key,
        outputs,
        summary,
    })
}
