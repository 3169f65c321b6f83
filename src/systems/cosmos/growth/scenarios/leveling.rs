//! `kind = "leveling"`: stats, HP/PM, karma, skill and DNA points at levels 1..N
//! (C-LEVEL-1..4, C-LD-1), as per-level quantile bands.

use std::collections::BTreeMap;

use polars::prelude::*;
use serde::Deserialize;

use crate::engine::{Counts, Merge, Moments, Rng64, Simulation, Tally};
use crate::error::UserError;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance};
use crate::scenario::{RunSection, ScenarioFile};
use crate::stats::{t_interval, wilson};
use crate::systems::cosmos::growth::creation::{create, CreationPolicy, MovePolicy};
use crate::systems::cosmos::growth::leveling::{
    campaign_samplers, exact, level_up, Campaign, Hero, LaterLevels, Level2, LevelPolicy, Pool,
    StatTarget,
};
use crate::systems::cosmos::growth::scenarios::Parsed;
use crate::systems::cosmos::growth::{band_row, OPTIONS};
use crate::systems::cosmos::{TestRules, TestSampler};
use crate::systems::{RunOverrides, ScenarioResult};

use super::creation::{policy as creation_policy, policy_text, RawPolicy};
use super::{summary, task_of};

/// Default characters per run.
pub const DEFAULT_TRIALS: u64 = 100_000;

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
    #[serde(default)]
    leveling: RawLeveling,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLeveling {
    max_level: Option<i64>,
    start_karma: Option<i64>,
    level2: Option<Level2>,
    level2_target: Option<StatTarget>,
    level4: Option<Pool>,
    level5_move_policy: Option<MovePolicy>,
    level5_move_points: Option<i64>,
    chance_bonus: Option<Pool>,
    light_dark_at_5: Option<[i64; 2]>,
    later: Option<RawLater>,
    campaign: Option<RawCampaign>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLater {
    stat_die: Option<i64>,
    stat_count: Option<i64>,
    stat_target: Option<StatTarget>,
    hp_die: Option<i64>,
    pm_die: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCampaign {
    tests_per_level: i64,
    threshold: f64,
}

/// The validated model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LevelingModel {
    pub creation: CreationPolicy,
    pub levels: LevelPolicy,
    pub max_level: u32,
}

const DICE: [i64; 8] = [0, 4, 6, 8, 10, 12, 20, 100];

fn ranged(
    file: &ScenarioFile,
    path: &[&str],
    v: Option<i64>,
    default: i64,
    lo: i64,
    hi: i64,
    why: &str,
) -> Result<i64, UserError> {
    let v = v.unwrap_or(default);
    if !(lo..=hi).contains(&v) {
        return Err(file.error_at(
            path,
            &crate::systems::cosmos::growth::scenarios::shown_key(path),
            &format!("{v} is out of range"),
            &format!("{lo}..{hi} ({why})"),
        ));
    }
    Ok(v)
}

fn die(file: &ScenarioFile, path: &[&str], v: Option<i64>) -> Result<u32, UserError> {
    let v = v.unwrap_or(0);
    if !DICE.contains(&v) {
        return Err(file.error_at(
            path,
            &crate::systems::cosmos::growth::scenarios::shown_key(path),
            &format!("d{v} is not a die"),
            "0 (none), 4, 6, 8, 10, 12, 20, 100",
        ));
    }
    Ok(v as u32)
}

/// Validates a leveling file.
pub fn model(file: &ScenarioFile) -> Result<Parsed<LevelingModel>, UserError> {
    let raw: Raw = file.parse_raw()?;
    let creation = creation_policy(file, &raw.creation)?;
    if let Some(c) = creation.conversion.filter(|c| c.level != 1) {
        // Levels are tallied from 1: a converted character of a higher level has no
        // level-1..L history to show (C-CREATE-3 keeps its level).
        return Err(file.error_at(
            &["creation", "conversion", "level"],
            "creation.conversion.level",
            &format!(
                "a level-{} conversion cannot be levelled from level 1",
                c.level
            ),
            "1 in a leveling scenario (use kind = \"creation\" for higher levels)",
        ));
    }
    let l = &raw.leveling;
    let mut p = LevelPolicy::default();
    let max_level = ranged(
        file,
        &["leveling", "max_level"],
        l.max_level,
        10,
        1,
        30,
        "levels simulated",
    )? as u32;
    p.start_karma = ranged(
        file,
        &["leveling", "start_karma"],
        l.start_karma,
        0,
        -10,
        10,
        "C-TEST-3",
    )? as i8;
    p.level2 = l.level2.unwrap_or(p.level2);
    p.level2_target = l.level2_target.unwrap_or(p.level2_target);
    p.level4 = l.level4.unwrap_or(p.level4);
    p.chance_bonus = l.chance_bonus.unwrap_or(p.chance_bonus);
    p.level5_moves = l.level5_move_policy.unwrap_or(p.level5_moves);
    let default_points = if p.level5_moves == MovePolicy::None {
        0
    } else {
        10
    };
    p.level5_points = ranged(
        file,
        &["leveling", "level5_move_points"],
        l.level5_move_points,
        default_points,
        0,
        10,
        "C-LEVEL-1: up to 10",
    )? as i32;
    if let Some([a, b]) = l.light_dark_at_5 {
        if a < 0 || b < 0 || a + b != 3 {
            return Err(file.error_at(
                &["leveling", "light_dark_at_5"],
                "leveling.light_dark_at_5",
                &format!("[{a}, {b}] does not split 3 points"),
                "[light, dark] with light + dark = 3 (C-LD-1)",
            ));
        }
        p.light_dark_at_5 = (a as u32, b as u32);
    }
    if let Some(r) = &l.later {
        p.later = LaterLevels {
            stat_die: die(file, &["leveling", "later", "stat_die"], r.stat_die)?,
            stat_count: ranged(
                file,
                &["leveling", "later", "stat_count"],
                r.stat_count,
                1,
                0,
                6,
                "stats raised per level",
            )? as usize,
            stat_target: r.stat_target.unwrap_or_default(),
            hp_die: die(file, &["leveling", "later", "hp_die"], r.hp_die)?,
            pm_die: die(file, &["leveling", "later", "pm_die"], r.pm_die)?,
        };
    }
    if let Some(c) = &l.campaign {
        let t = ranged(
            file,
            &["leveling", "campaign", "tests_per_level"],
            Some(c.tests_per_level),
            0,
            0,
            10_000,
            "normal tests between level-ups",
        )?;
        if !(c.threshold.is_finite() && (-100.0..=200.0).contains(&c.threshold)) {
            return Err(file.error_at(
                &["leveling", "campaign", "threshold"],
                "leveling.campaign.threshold",
                &format!("{} is out of range", c.threshold),
                "-100..200 (C-TEST-1)",
            ));
        }
        p.campaign = Campaign {
            tests_per_level: t as u32,
            threshold: c.threshold,
        };
    }
    Ok((
        LevelingModel {
            creation,
            levels: p,
            max_level,
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

/// Quantities tallied per level.
pub const QUANTITIES: [&str; 12] = [
    "force",
    "esprit",
    "charisme",
    "agilite",
    "precision",
    "chance",
    "hp",
    "pm",
    "skill_points",
    "skill_points_gained",
    "dna_points",
    "karma",
];

/// Per-level tallies: `values[level_index * 12 + q]`, Chance-bonus counts per level.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LevelAcc {
    pub values: Vec<Tally>,
    pub moments: Vec<Moments>,
    pub bonus: Vec<Counts<2>>,
}

impl Merge for LevelAcc {
    fn merge(&mut self, o: Self) {
        self.values.merge(o.values);
        self.moments.merge(o.moments);
        self.bonus.merge(o.bonus);
    }
}

/// Creates characters and takes each to `max_level`.
pub struct LevelingSim {
    pub model: LevelingModel,
    pub rules: TestRules,
    campaign: Vec<TestSampler>,
}

impl LevelingSim {
    pub fn new(model: LevelingModel, rules: TestRules) -> LevelingSim {
        let campaign = if model.levels.campaign.tests_per_level > 0 {
            campaign_samplers(&model.levels.campaign, &rules)
        } else {
            vec![]
        };
        LevelingSim {
            model,
            rules,
            campaign,
        }
    }

    fn record(&self, h: &Hero, acc: &mut LevelAcc) {
        let i = (h.level - 1) as usize * QUANTITIES.len();
        let c = &h.c;
        let v = [
            c.stats[0],
            c.stats[1],
            c.stats[2],
            c.stats[3],
            c.stats[4],
            c.stats[5],
            c.hp,
            c.pm,
            c.skill_points,
            h.skill_gained,
            c.dna,
            h.karma as i32,
        ];
        for (q, x) in v.into_iter().enumerate() {
            acc.values[i + q].push(x as i64);
            acc.moments[i + q].push(x as f64);
        }
    }
}

impl Simulation for LevelingSim {
    type Acc = LevelAcc;

    fn empty(&self) -> LevelAcc {
        let n = self.model.max_level as usize;
        let mut values = Vec::with_capacity(n * QUANTITIES.len());
        for _ in 0..n {
            for q in QUANTITIES {
                values.push(match q {
                    "hp" | "pm" => Tally::new(0, 6000),
                    "karma" => Tally::new(-10, 10),
                    _ => Tally::new(0, 200),
                });
            }
        }
        LevelAcc {
            values,
            moments: vec![Moments::default(); n * QUANTITIES.len()],
            bonus: vec![Counts::default(); n],
        }
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut LevelAcc) {
        let m = &self.model;
        for _ in 0..trials {
            let mut h = Hero::new(create(rng, &m.creation).character, m.levels.start_karma);
            self.record(&h, acc);
            for _ in 2..=m.max_level {
                let o = level_up(
                    &mut h,
                    rng,
                    &m.levels,
                    &m.creation.priority,
                    &self.rules,
                    &self.campaign,
                );
                acc.bonus[(h.level - 1) as usize].add(usize::from(o.is_success()));
                self.record(&h, acc);
            }
        }
    }
}

fn level_text(p: &LevelPolicy) -> String {
    format!("{p:?}")
}

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (m, rules_map, run, title, question) = model(file)?;
    let (ctx, trials) = o.resolve(file, &run, &rules_map, DEFAULT_TRIALS)?;
    let rules = TestRules::from_options(&ctx.options);
    let sim = LevelingSim::new(m, rules);
    let progress = ctx.progress(trials, "leveling");
    let text = format!(
        "{} | {} | max_level={}",
        policy_text(&m.creation),
        level_text(&m.levels),
        m.max_level
    );
    let acc = ctx.engine.run(&sim, task_of(&text), trials, &progress);
    progress.finish();
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    let prov = Provenance::monte_carlo("leveling", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("creation", policy_text(&m.creation))
        .with_param("leveling", level_text(&m.levels))
        .with_param("max_level", m.max_level);
    let prov = Provenance {
        scenario: Some(file.reference()),
        ..prov
    };
    let nq = QUANTITIES.len();
    let levels: Vec<u32> = (1..=m.max_level).collect();

    // Quantile bands.
    let (mut lv, mut qn) = (vec![], vec![]);
    let mut cols: Vec<Vec<f64>> = vec![vec![]; 8];
    for &l in &levels {
        for (q, name) in QUANTITIES.iter().enumerate() {
            let i = (l - 1) as usize * nq + q;
            let (mean, qs) = band_row(&acc.values[i]);
            let mo = &acc.moments[i];
            let (lo, hi) = t_interval(mo.mean, mo.std_error(), mo.n);
            lv.push(l as i64);
            qn.push(*name);
            for (c, v) in cols
                .iter_mut()
                .zip([mean, lo, hi, qs[0], qs[1], qs[2], qs[3], qs[4]])
            {
                c.push(v);
            }
        }
    }
    let mut qcols = vec![
        Column::new("level".into(), lv),
        Column::new("quantity".into(), qn),
    ];
    for (n, c) in [
        "mean", "mean_lo", "mean_hi", "p05", "p25", "p50", "p75", "p95",
    ]
    .iter()
    .zip(cols)
    {
        qcols.push(Column::new((*n).into(), c));
    }
    let qframe = DataFrame::new_infer_height(qcols)?;
    let series = |q: usize, name: &str, lo_q: usize, hi_q: usize| -> LineSeries {
        let mut s = LineSeries {
            name: name.into(),
            ..Default::default()
        };
        for &l in &levels {
            let (_, qs) = band_row(&acc.values[(l - 1) as usize * nq + q]);
            s.points.push((l as f64, qs[2]));
            s.band.push((l as f64, qs[lo_q], qs[hi_q]));
        }
        s
    };
    let pools = LineChart {
        title: "HP and PM by level: median, 5%..95% band".into(),
        x_label: "level".into(),
        y_label: "points".into(),
        series: vec![series(6, "HP", 0, 4), series(7, "PM", 0, 4)],
        ..Default::default()
    };
    let stats = LineChart {
        title: "Stats by level: median, 25%..75% band".into(),
        x_label: "level".into(),
        y_label: "stat".into(),
        series: (0..6).map(|q| series(q, QUANTITIES[q], 1, 3)).collect(),
        ..Default::default()
    };
    let points = LineChart {
        title: "Skill and DNA points by level: median, 5%..95% band".into(),
        x_label: "level".into(),
        y_label: "points".into(),
        series: vec![
            series(8, "skill points", 0, 4),
            series(10, "DNA points", 0, 4),
        ],
        ..Default::default()
    };
    let last = m.max_level as usize - 1;
    let mut key = Vec::new();
    for (q, label) in [(6, "HP"), (7, "PM")] {
        let (mean, qs) = band_row(&acc.values[last * nq + q]);
        key.push(format!(
            "{label} at level {}: mean {mean:.1}, median {}, 90% in {}..{}",
            m.max_level, qs[2], qs[0], qs[4]
        ));
    }
    let top = m.creation.priority[0] as usize;
    let (mean, qs) = band_row(&acc.values[last * nq + top]);
    key.push(format!(
        "{} (first priority) at level {}: mean {mean:.1}, median {}, 90% in {}..{}",
        QUANTITIES[top], m.max_level, qs[2], qs[0], qs[4]
    ));
    // Exact checks: DNA and level-up skill points have closed forms.
    let mut exact_checks = Vec::new();
    for &l in &[1u32, 3, 6, 9, 10]
        .iter()
        .filter(|l| **l <= m.max_level)
        .copied()
        .collect::<Vec<_>>()
    {
        for (q, d, what) in [
            (10, exact::dna_at(l), "DNA points"),
            (9, exact::skill_gained_at(l), "skill points gained"),
        ] {
            if l == 1 && q == 9 {
                continue; // nothing gained yet
            }
            let mo = &acc.moments[(l - 1) as usize * nq + q];
            let (lo, hi) = t_interval(mo.mean, mo.std_error(), mo.n);
            exact_checks.push(format!(
                "level {l}, {what}: exact mean {:.4}, simulated {:.4} (95% {lo:.4}..{hi:.4}){}",
                d.mean(),
                mo.mean,
                if lo <= d.mean() && d.mean() <= hi {
                    ""
                } else {
                    " — outside the interval"
                }
            ));
        }
    }
    let q_out = Output {
        name: "leveling-quantiles".into(),
        title: "Stats, HP/PM, karma and points by level".into(),
        question: "Where do stats, HP, PM, karma, skill and DNA points stand at each level (mean with 95% interval, and quantiles)?".into(),
        frame: qframe,
        figures: vec![Figure { suffix: None, panels: vec![Chart::Lines(pools), Chart::Lines(stats), Chart::Lines(points)] }],
        key_figures: exact_checks.clone(),
        provenance: Provenance { output: "leveling-quantiles".into(), ..prov.clone() },
    };

    // Chance test per level and Light/Dark grants.
    let (mut lvl, mut pb, mut lo, mut hi, mut km, mut light, mut dark) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut chart = LineChart {
        title: "P(Chance test succeeds at the level-up: +2d20 HP or PM)".into(),
        x_label: "level".into(),
        y_label: "probability".into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    let mut s = LineSeries {
        name: "P(bonus)".into(),
        ..Default::default()
    };
    for &l in levels.iter().filter(|l| **l >= 2) {
        let c = &acc.bonus[(l - 1) as usize];
        let (a, b) = wilson(c.counts[1], c.total());
        let p = c.counts[1] as f64 / c.total() as f64;
        lvl.push(l as i64);
        pb.push(p);
        lo.push(a);
        hi.push(b);
        km.push(acc.moments[(l - 1) as usize * nq + 11].mean);
        let (lt, dk) = if l >= 5 {
            (
                1 + m.levels.light_dark_at_5.0,
                1 + m.levels.light_dark_at_5.1,
            )
        } else {
            (1, 1)
        };
        light.push(lt as i64);
        dark.push(dk as i64);
        s.points.push((l as f64, p));
        s.band.push((l as f64, a, b));
    }
    chart.series.push(s);
    if let (Some(p2), Some(pl)) = (pb.first(), pb.last()) {
        key.push(format!(
            "P(Chance bonus) at level 2: {p2:.4}; at level {}: {pl:.4}",
            m.max_level
        ));
    }
    let cframe = DataFrame::new_infer_height(vec![
        Column::new("level".into(), lvl),
        Column::new("p_chance_bonus".into(), pb),
        Column::new("p_chance_bonus_lo".into(), lo),
        Column::new("p_chance_bonus_hi".into(), hi),
        Column::new("mean_karma".into(), km),
        Column::new("light_points".into(), light),
        Column::new("dark_points".into(), dark),
    ])?;
    let c_out = Output {
        name: "leveling-chance".into(),
        title: "Level-up Chance test and Light/Dark points".into(),
        question: "How often does the level-up Chance test pay +2d20, and how many Light and Dark points does a character hold at each level?".into(),
        frame: cframe,
        figures: vec![Figure { suffix: None, panels: vec![Chart::Lines(chart)] }],
        key_figures: key.iter().rev().take(1).cloned().collect(),
        provenance: Provenance { output: "leveling-chance".into(), ..prov.clone() },
    };
    key.extend(
        exact_checks
            .into_iter()
            .filter(|k| k.starts_with(&format!("level {}", m.max_level.min(10)))),
    );
    let title = title.unwrap_or_else(|| "Levels 1 to 10".into());
    let question = question.unwrap_or_else(|| {
        "What stats, HP/PM and points does a character have at each level?".into()
    });
    let outputs = vec![q_out, c_out];
    let summary = summary(&title, &question, &key, &outputs, &prov);
    Ok(ScenarioResult {
        title,
        question,
        key_figures: key,
        outputs,
        summary,
    })
}
