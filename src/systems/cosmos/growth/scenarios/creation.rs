//! `kind = "creation"`: distributions of HP, PM, stats, points and rerolls of new
//! characters (C-CREATE-1..3), with the rejection probabilities computed exactly and
//! checked against the simulation.

use std::collections::BTreeMap;

use polars::prelude::*;
use serde::Deserialize;

use crate::engine::{Merge, Moments, Rng64, Simulation, Tally};
use crate::error::UserError;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance};
use crate::scenario::{RunSection, ScenarioFile};
use crate::stats::{t_interval, wilson};
use crate::systems::cosmos::growth::creation::{
    create, exact, Conversion, CreationPolicy, HpPmSplit, MovePolicy, StatAssign,
};
use crate::systems::cosmos::growth::stats::cap_at;
use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::cosmos::growth::{band_row, OPTIONS};
use crate::systems::{RunOverrides, ScenarioResult};

use super::{parse_priority, summary, task_of};

/// Default characters per run: about a second on two cores.
pub const DEFAULT_TRIALS: u64 = 200_000;
/// Caps of a converted character's inputs (C-CREATE-3).
pub const MAX_CONVERSION_LEVEL: i64 = 20;
pub const MAX_POOL: i64 = 100_000;
pub const MAX_POINTS: i64 = 1_000;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Raw {
    system: String,
    kind: String,
    title: Option<String>,
    question: Option<String>,
    #[serde(default)]
    run: RunSection,
    #[serde(default)]
    rules: BTreeMap<String, toml::Value>,
    #[serde(default)]
    creation: RawPolicy,
}

/// The `[creation]` table, shared with the leveling scenario.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawPolicy {
    hp_pm_split: Option<HpPmSplit>,
    stat_assign: Option<StatAssign>,
    priority: Option<Vec<String>>,
    move_policy: Option<MovePolicy>,
    move_points: Option<i64>,
    conversion: Option<RawConversion>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConversion {
    force: i64,
    esprit: i64,
    charisme: i64,
    agilite: i64,
    /// C-CREATE-3 "le reste des informations valides le demeure": the character's own
    /// HP, PM, skill and DNA points and level stay.
    hp: i64,
    pm: i64,
    skill_points: i64,
    dna_points: i64,
    level: i64,
}

/// Validates a `[creation]` table into a policy.
pub fn policy(file: &ScenarioFile, raw: &RawPolicy) -> Result<CreationPolicy, UserError> {
    let mut p = CreationPolicy::default();
    if let Some(s) = raw.hp_pm_split {
        p.split = s;
    }
    if let Some(a) = raw.stat_assign {
        p.assign = a;
    }
    if let Some(names) = &raw.priority {
        p.priority = parse_priority(file, &["creation", "priority"], names)?;
    }
    if let Some(c) = &raw.conversion {
        let int = |name: &str, v: i64, lo: i64, hi: i64, why: &str| {
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(file.error_at(
                    &["creation", "conversion", name],
                    &format!("creation.conversion.{name}"),
                    &format!("{v} is out of range"),
                    &format!("{lo}..{hi}{why}"),
                ))
            }
        };
        let level = int("level", c.level, 1, MAX_CONVERSION_LEVEL, "")? as u32;
        // The bound after conversion: 80, or 85 from level 3 (C-CREATE-3, C-LEVEL-1),
        // the same cap `creation::convert` moves points within.
        let cap = cap_at(level) as i64;
        let mut kept = [0i32; 4];
        for (i, (name, v)) in [
            ("force", c.force),
            ("esprit", c.esprit),
            ("charisme", c.charisme),
            ("agilite", c.agilite),
        ]
        .into_iter()
        .enumerate()
        {
            kept[i] = int(
                name,
                v,
                20,
                cap,
                &format!(" (C-CREATE-3: 20..80, or 85 from level 3; level {level})"),
            )? as i32;
        }
        p.conversion = Some(Conversion {
            stats: kept,
            hp: int("hp", c.hp, 1, MAX_POOL, "")? as i32,
            pm: int("pm", c.pm, 0, MAX_POOL, "")? as i32,
            skill_points: int("skill_points", c.skill_points, 0, MAX_POINTS, "")? as i32,
            dna: int("dna_points", c.dna_points, 0, MAX_POINTS, "")? as i32,
            level,
        });
    }
    if let Some(m) = raw.move_policy {
        p.move_policy = m;
    }
    let max_points = if p.conversion.is_some() { 20 } else { 10 };
    let points = raw
        .move_points
        .unwrap_or(if p.move_policy == MovePolicy::None {
            0
        } else {
            max_points
        });
    if !(0..=max_points).contains(&points) {
        return Err(file.error_at(
            &["creation", "move_points"],
            "creation.move_points",
            &format!("{points} points is out of range"),
            &format!("0..{max_points} (C-CREATE-2: 10, C-CREATE-3 conversion: 20)"),
        ));
    }
    p.move_points = points as i32;
    Ok(p)
}

/// Short text of a policy, for provenance and task ids.
pub fn policy_text(p: &CreationPolicy) -> String {
    format!(
        "split={:?} assign={:?} priority={} moves={:?}:{} conversion={:?}",
        p.split,
        p.assign,
        p.priority.map(|s| s.name()).join(","),
        p.move_policy,
        p.move_points,
        p.conversion
    )
}

/// What the creation simulation keeps, in fixed memory.
#[derive(Clone, Debug)]
pub struct CreationAcc {
    /// hp, pm, the six stats, skill points, DNA points.
    pub values: Vec<Tally>,
    pub hp_pm_attempts: Tally,
    pub stat_attempts: Tally,
    pub stat_d100_rolls: u64,
    /// Rolls of all the HP/PM dice and of all the stat dice, summed.
    pub attempts: [u64; 2],
    pub moments: Vec<Moments>,
}

/// The quantities tallied, in order.
pub const QUANTITIES: [&str; 10] = [
    "hp",
    "pm",
    "force",
    "esprit",
    "charisme",
    "agilite",
    "precision",
    "chance",
    "skill_points",
    "dna_points",
];

impl Merge for CreationAcc {
    fn merge(&mut self, o: Self) {
        self.values.merge(o.values);
        self.hp_pm_attempts.merge(o.hp_pm_attempts);
        self.stat_attempts.merge(o.stat_attempts);
        self.stat_d100_rolls += o.stat_d100_rolls;
        self.attempts[0] += o.attempts[0];
        self.attempts[1] += o.attempts[1];
        self.moments.merge(o.moments);
    }
}

/// Creates characters.
pub struct CreationSim(pub CreationPolicy);

impl Simulation for CreationSim {
    type Acc = CreationAcc;

    fn empty(&self) -> CreationAcc {
        let mut values = vec![Tally::new(0, 500), Tally::new(0, 500)];
        values.extend((0..6).map(|_| Tally::new(0, 100)));
        values.push(Tally::new(0, 60));
        values.push(Tally::new(0, 30));
        CreationAcc {
            values,
            hp_pm_attempts: Tally::new(1, 30),
            stat_attempts: Tally::new(1, 30),
            stat_d100_rolls: 0,
            attempts: [0; 2],
            moments: vec![Moments::default(); QUANTITIES.len()],
        }
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut CreationAcc) {
        for _ in 0..trials {
            let c = create(rng, &self.0);
            let ch = c.character;
            let v = [
                ch.hp,
                ch.pm,
                ch.stats[0],
                ch.stats[1],
                ch.stats[2],
                ch.stats[3],
                ch.stats[4],
                ch.stats[5],
                ch.skill_points,
                ch.dna,
            ];
            for (i, x) in v.into_iter().enumerate() {
                acc.values[i].push(x as i64);
                acc.moments[i].push(x as f64);
            }
            acc.hp_pm_attempts.push(c.hp_pm_attempts as i64);
            acc.stat_attempts.push(c.stat_attempts as i64);
            acc.stat_d100_rolls += c.stat_d100_rolls as u64;
            acc.attempts[0] += c.hp_pm_attempts as u64;
            acc.attempts[1] += c.stat_attempts as u64;
        }
    }
}

fn parse(file: &ScenarioFile) -> Result<(Raw, CreationPolicy), UserError> {
    let raw: Raw = file.parse_raw()?;
    let p = policy(file, &raw.creation)?;
    Ok((raw, p))
}

/// Validates the file.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (raw, _) = parse(file)?;
    file.rule_options(&raw.rules)?;
    Ok(())
}

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (raw, p) = parse(file)?;
    let (ctx, trials) = o.resolve(file, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
    let progress = ctx.progress(trials, "creation");
    let acc = ctx.engine.run(
        &CreationSim(p),
        task_of(&policy_text(&p)),
        trials,
        &progress,
    );
    progress.finish();
    let prov = Provenance::monte_carlo(
        "creation",
        "cosmos",
        ctx.options.in_force(OPTIONS),
        ctx.engine.seed(),
        trials,
    )
    .with_param("policy", policy_text(&p));
    let prov = Provenance {
        scenario: Some(file.reference()),
        ..prov
    };

    // Rejections: exact vs simulated.
    let conv = p.conversion.is_some();
    let hp_attempts = acc.attempts[0];
    let st_attempts = acc.attempts[1];
    let stat_dice_kept = st_attempts * if conv { 2 } else { 6 };
    // A conversion keeps its HP and PM (C-CREATE-3): no 10d100 step.
    let mut steps = vec![
        ("hp_pm_10d100", exact::p_hp_pm_accept(), trials, hp_attempts),
        (
            if conv {
                "conversion_2d100"
            } else {
                "stats_6d100"
            },
            if conv {
                exact::p_conversion_accept()
            } else {
                exact::p_stats_accept()
            },
            trials,
            st_attempts,
        ),
        (
            "stat_die_in_20_80",
            61.0 / 100.0,
            stat_dice_kept,
            acc.stat_d100_rolls,
        ),
    ];
    if conv {
        steps.remove(0);
    }
    let mut rej_key = Vec::new();
    let (mut names, mut pe, mut pm, mut lo, mut hi, mut inside, mut ee, mut em) = (
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
        vec![],
    );
    for (name, p_exact, hits, n) in steps {
        let (l, h) = wilson(hits, n);
        names.push(name);
        pe.push(p_exact);
        pm.push(hits as f64 / n as f64);
        lo.push(l);
        hi.push(h);
        inside.push(l <= p_exact && p_exact <= h);
        ee.push(1.0 / p_exact);
        em.push(n as f64 / hits as f64);
        rej_key.push(format!(
            "{name}: P(reroll) = {:.5} exactly (simulated {:.5}, 95% interval {:.5}..{:.5}); {:.4} rolls per accepted result",
            1.0 - p_exact,
            1.0 - hits as f64 / n as f64,
            1.0 - h,
            1.0 - l,
            1.0 / p_exact
        ));
    }
    let rejection = DataFrame::new_infer_height(vec![
        Column::new("step".into(), names.clone()),
        Column::new("p_accept_exact".into(), pe.clone()),
        Column::new("p_accept_mc".into(), pm),
        Column::new("p_accept_lo".into(), lo),
        Column::new("p_accept_hi".into(), hi),
        Column::new("exact_inside_interval".into(), inside),
        Column::new("expected_rolls_exact".into(), ee),
        Column::new("mean_rolls_mc".into(), em),
    ])?;
    let mut geo = LineChart {
        title: "P(accepted within n rolls of all the dice)".into(),
        x_label: "rolls".into(),
        y_label: "probability".into(),
        ..Default::default()
    };
    let attempts: Vec<&Tally> = if conv {
        vec![&acc.stat_attempts]
    } else {
        vec![&acc.hp_pm_attempts, &acc.stat_attempts]
    };
    for (i, t) in attempts.into_iter().enumerate() {
        let mut cum = 0u64;
        let mut s = LineSeries {
            name: format!("{} (simulated)", names[i]),
            ..Default::default()
        };
        let mut e = LineSeries {
            name: format!("{} (exact)", names[i]),
            ..Default::default()
        };
        for n in 1..=4i64 {
            cum += t.iter().find(|(v, _)| *v == n).map_or(0, |x| x.1);
            let (l, h) = wilson(cum, trials);
            s.points.push((n as f64, cum as f64 / trials as f64));
            s.band.push((n as f64, l, h));
            e.points
                .push((n as f64, 1.0 - (1.0 - pe[i]).powi(n as i32)));
        }
        geo.series.push(s);
        geo.series.push(e);
    }
    let rejection_out = Output {
        name: "creation-rejection".into(),
        title: "Creation rerolls: exact vs simulated".into(),
        question:
            "How often must the HP/PM dice, the stat dice and single stat dice be rolled again?"
                .into(),
        frame: rejection,
        figures: vec![Figure {
            suffix: None,
            panels: vec![Chart::Lines(geo)],
        }],
        key_figures: rej_key.clone(),
        provenance: Provenance {
            output: "creation-rejection".into(),
            ..prov.clone()
        },
    };

    // Distributions of each quantity.
    let mut cols: Vec<Vec<f64>> = vec![vec![]; 8];
    let mut dist_key = Vec::new();
    for (i, name) in QUANTITIES.iter().enumerate() {
        let (mean, q) = band_row(&acc.values[i]);
        let m = &acc.moments[i];
        let (l, h) = t_interval(m.mean, m.std_error(), m.n);
        for (c, v) in cols
            .iter_mut()
            .zip([mean, l, h, q[0], q[1], q[2], q[3], q[4]])
        {
            c.push(v);
        }
        if i <= 8 {
            dist_key.push(format!("{name}: mean {mean:.2} (95% {l:.2}..{h:.2}), median {}, 90% of characters in {}..{}", q[2], q[0], q[4]));
        }
    }
    let mut dcols = vec![Column::new("quantity".into(), QUANTITIES.to_vec())];
    for (n, c) in [
        "mean", "mean_lo", "mean_hi", "p05", "p25", "p50", "p75", "p95",
    ]
    .iter()
    .zip(cols)
    {
        dcols.push(Column::new((*n).into(), c));
    }
    let dist_frame = DataFrame::new_infer_height(dcols)?;
    let cdf = |t: &Tally| -> Vec<(f64, f64)> {
        let n = t.total() as f64;
        let mut acc = t.below as f64;
        t.iter()
            .map(|(v, c)| {
                acc += c as f64;
                (v as f64, acc / n)
            })
            .collect()
    };
    let mut hp_chart = LineChart {
        title: "HP and PM: cumulative share of characters".into(),
        x_label: "points".into(),
        y_label: "P(value <= x)".into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    hp_chart.series.push(LineSeries {
        name: "HP (simulated)".into(),
        points: cdf(&acc.values[0]),
        band: vec![],
    });
    hp_chart.series.push(LineSeries {
        name: "PM (simulated)".into(),
        points: cdf(&acc.values[1]),
        band: vec![],
    });
    let mut hp_exact_gap = None;
    if p.split == HpPmSplit::Random {
        let d = exact::hp_random_split();
        let mut acc_p = 0.0;
        let pts: Vec<(f64, f64)> = d
            .outcomes()
            .iter()
            .map(|(v, q)| {
                acc_p += q;
                (*v as f64, acc_p)
            })
            .collect();
        let sim = cdf(&acc.values[0]);
        let gap = sim
            .iter()
            .map(|(x, f)| (f - d.cdf(*x as i64)).abs())
            .fold(0.0, f64::max);
        hp_exact_gap = Some((d.mean(), gap));
        hp_chart.series.push(LineSeries {
            name: "HP (exact, random split)".into(),
            points: pts,
            band: vec![],
        });
    }
    let mut st_chart = LineChart {
        title: "Stats: cumulative share of characters".into(),
        x_label: "stat value".into(),
        y_label: "P(value <= x)".into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    for (i, s) in Stat::ALL.iter().enumerate() {
        let pts = cdf(&acc.values[2 + i])
            .into_iter()
            .filter(|(x, _)| (15.0..=90.0).contains(x))
            .collect();
        st_chart.series.push(LineSeries {
            name: s.name().into(),
            points: pts,
            band: vec![],
        });
    }
    if let Some((mean, gap)) = hp_exact_gap {
        dist_key.insert(0, format!(
            "HP under the random split: exact mean {mean:.3}; largest gap between the simulated and exact CDF {gap:.5} (Kolmogorov bound 1.36/sqrt(n) = {:.5})",
            1.36 / (trials as f64).sqrt()
        ));
    }
    let dist_out = Output {
        name: "creation-distributions".into(),
        title: "New characters: HP, PM, stats, skill and DNA points".into(),
        question: "What do new characters look like: mean, median and spread of each value?".into(),
        frame: dist_frame,
        figures: vec![Figure {
            suffix: None,
            panels: vec![Chart::Lines(hp_chart), Chart::Lines(st_chart)],
        }],
        key_figures: dist_key.clone(),
        provenance: Provenance {
            output: "creation-distributions".into(),
            ..prov.clone()
        },
    };

    let title = raw.title.unwrap_or_else(|| "Character creation".into());
    let question = raw
        .question
        .unwrap_or_else(|| "What do new characters look like?".into());
    let mut key: Vec<String> = rej_key.into_iter().take(2).collect();
    key.extend(dist_key.into_iter().take(4));
    let outputs = vec![rejection_out, dist_out];
    let summary = summary(&title, &question, &key, &outputs, &prov);
    Ok(ScenarioResult {
        title,
        question,
        key_figures: key,
        outputs,
        summary,
    })
}
