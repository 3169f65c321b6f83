//! The leveling report: per-level quantile bands, skill and DNA points against their exact
//! values, the Chance bonus per level.

use polars::prelude::*;

use super::super::creation::{policy_text, races_text};
use super::super::scenario_result;
use super::model::{level5_within, model, LevelingModel};
use super::sim::{reported, LevelingSim, QUANTITIES};
use super::DEFAULT_TRIALS;
use crate::report::{
    interval_columns, Chart, Figure, FloatColumns, LineChart, LineSeries, Output, Provenance,
};
use crate::rules::growth::RACE_OPTIONS;
use crate::scenario::ScenarioFile;
use crate::stats::{Estimate, Proportion};
use crate::systems::cosmos::growth::aura::Edition;
use crate::systems::cosmos::growth::leveling::{exact, LevelPolicy};
use crate::systems::cosmos::growth::races::{limits_level_ups, race_conflict};
use crate::systems::cosmos::growth::skill_sheet;
use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::cosmos::growth::{band_row, dec, push_distribution, OPTIONS};
use crate::systems::cosmos::growth::{level_dice_into, level_parameters};
use crate::systems::cosmos::TestRules;
use crate::systems::{RunOverrides, ScenarioResult};

/// The model with the options in force, the run's context and trial count, the level
/// parameters for provenance, the title and question: what `run` and `trace` share.
#[allow(clippy::type_complexity)]
pub(super) fn setup(
    file: &ScenarioFile,
    o: &RunOverrides,
) -> anyhow::Result<(
    LevelingModel,
    crate::context::Context,
    u64,
    std::collections::BTreeMap<String, String>,
    Option<String>,
    Option<String>,
)> {
    let (mut m, rules_map, run, title, question) = model(file)?;
    // The level-5 move points against `level5_move_max` in force, before `resolve` so
    // `check` sees it too (one validation).
    let in_force = super::super::common::options_in_force(file, &rules_map, o)?;
    level5_within(file, &mut m, &in_force)?;
    // The creation's move points against `creation_move_points` in force (C-CREATE-2).
    super::super::creation::moves_within(file, &mut m.creation, &in_force)?;
    // A gene tree to spend DNA points on is genetics, a skill tree to spend skill points
    // on the progressive model: neither is in the previous book (C-EDITION).
    use crate::systems::CurrentOnly;
    let needs = (m.dna.as_ref().map(|_| CurrentOnly::Genetics))
        .or(m.skills.as_ref().map(|_| CurrentOnly::SkillPoints));
    let (ctx, trials) = o.resolve_needing(file, &run, &rules_map, DEFAULT_TRIALS, needs)?;
    m.races.conflict = race_conflict(&ctx.options);
    m.limit_levels = limits_level_ups(&ctx.options);
    let level_params = level_parameters(&ctx.options, &mut m.creation);
    level_dice_into(&ctx.options, Some(&mut m.levels));
    // The builds level the same dice as the main policy (common random numbers): the
    // same edition, the same draws.
    m.levels.edition = m.creation.edition;
    for (_, b) in m.builds.iter_mut() {
        level_dice_into(&ctx.options, Some(b));
        b.edition = m.creation.edition;
    }
    Ok((m, ctx, trials, level_params, title, question))
}

fn level_text(p: &LevelPolicy) -> String {
    crate::report::param_text(p)
}

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let (m, ctx, trials, level_params, title, question) = setup(file, o)?;
    let rules = TestRules::from_options(&ctx.options);
    let sim = LevelingSim::new(m.clone(), rules);
    let progress = ctx.progress(trials, tr!(ctx.lang, "growth.progress.leveling"));
    let acc = ctx.engine.run(&sim, &ctx.stream, trials, &progress);
    progress.finish();
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    if !m.races.sheets.is_empty() {
        opts.extend(ctx.options.in_force(RACE_OPTIONS));
    }
    opts.extend(level_params);
    let prov = Provenance::monte_carlo("leveling", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("creation", policy_text(&m.creation))
        .with_param("leveling", level_text(&m.levels))
        .with_param("max_level", m.max_level);
    // Only files with builds name them: the others keep their provenance unchanged.
    let prov = if m.builds.is_empty() {
        prov
    } else {
        let b: Vec<_> = m.builds.iter().map(|(n, p)| (n, p.weights)).collect();
        prov.with_param("builds", crate::report::param_text(&b))
    };
    // Only files with a skill tree name its policies.
    let prov = match &m.skills {
        Some(plan) => {
            let names: Vec<_> = plan.policies.iter().map(|(n, _)| n.as_str()).collect();
            let text = |l| {
                tr!(
                    l,
                    "params.skills",
                    n = plan.tree.skills.len(),
                    blessed = plan.blessed,
                    names = names.join(", ")
                )
            };
            prov.with_param_text("skills", text(crate::lang::Lang::En), text)
        }
        None => prov,
    };
    let prov = if m.races.sheets.is_empty() {
        prov
    } else {
        let limit = if m.limit_levels {
            " race_limits_levelling=always"
        } else {
            ""
        };
        prov.with_param("races", format!("{}{limit}", races_text(&m.races).trim()))
    };
    let prov = prov.with_scenario(file.reference());
    let nq = QUANTITIES.len();
    // C-EDITION: the previous book has no skill points nor DNA points; their rows, chart
    // and exact checks are absent, its own skill sheet is reported instead.
    let edition = m.creation.edition;
    let previous = edition == Edition::Previous;
    let levels: Vec<u32> = (1..=m.max_level).collect();

    // Quantile bands.
    let (mut lv, mut qn) = (vec![], vec![]);
    let mut cols = FloatColumns::default();
    for &l in &levels {
        for (q, name) in reported(edition) {
            let i = (l - 1) as usize * nq + q;
            push_distribution(&mut cols, &acc.values[i], &acc.moments[i]);
            lv.push(l as i64);
            qn.push(name);
        }
    }
    let mut qcols = vec![
        Column::new("level".into(), lv),
        Column::new("quantity".into(), qn),
    ];
    qcols.extend(cols.into_columns());
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
        title: tr!(ctx.lang, "growth.leveling.pools_title").into(),
        x_label: tr!(ctx.lang, "growth.leveling.x_level").into(),
        y_label: tr!(ctx.lang, "growth.leveling.y_points").into(),
        series: vec![
            series(6, tr!(ctx.lang, "growth.leveling.hp"), 0, 4),
            series(7, tr!(ctx.lang, "growth.leveling.pm"), 0, 4),
        ],
        ..Default::default()
    };
    let stats = LineChart {
        title: tr!(ctx.lang, "growth.leveling.stats_title").into(),
        x_label: tr!(ctx.lang, "growth.leveling.x_level").into(),
        y_label: tr!(ctx.lang, "growth.leveling.y_stat").into(),
        series: (0..6)
            .map(|q| series(q, Stat::ALL[q].label(ctx.lang), 1, 3))
            .collect(),
        ..Default::default()
    };
    let points = (!previous).then(|| LineChart {
        title: tr!(ctx.lang, "growth.leveling.points_title").into(),
        x_label: tr!(ctx.lang, "growth.leveling.x_level").into(),
        y_label: tr!(ctx.lang, "growth.leveling.y_points").into(),
        series: vec![
            series(8, tr!(ctx.lang, "growth.leveling.skill_points"), 0, 4),
            series(10, tr!(ctx.lang, "growth.leveling.dna_points"), 0, 4),
        ],
        ..Default::default()
    });
    let last = m.max_level as usize - 1;
    let mut key = Vec::new();
    for (q, label) in [
        (6, tr!(ctx.lang, "growth.leveling.hp")),
        (7, tr!(ctx.lang, "growth.leveling.pm")),
    ] {
        let (mean, qs) = band_row(&acc.values[last * nq + q]);
        key.push(tr!(
            ctx.lang,
            "growth.leveling.key_pool",
            pool = label,
            level = m.max_level,
            mean = ctx.lang.num(mean, 1),
            median = dec(ctx.lang, qs[2]),
            p05 = dec(ctx.lang, qs[0]),
            p95 = dec(ctx.lang, qs[4])
        ));
    }
    let top = m.creation.priority[0] as usize;
    let (mean, qs) = band_row(&acc.values[last * nq + top]);
    key.push(tr!(
        ctx.lang,
        "growth.leveling.key_first_priority",
        stat = m.creation.priority[0].label(ctx.lang),
        level = m.max_level,
        mean = ctx.lang.num(mean, 1),
        median = dec(ctx.lang, qs[2]),
        p05 = dec(ctx.lang, qs[0]),
        p95 = dec(ctx.lang, qs[4])
    ));
    // Exact checks: DNA and level-up skill points have closed forms.
    let mut exact_checks = Vec::new();
    for &l in &[1u32, 3, 6, 9, 10]
        .iter()
        .filter(|l| **l <= m.max_level && !previous)
        .copied()
        .collect::<Vec<_>>()
    {
        for (q, d, what) in [
            (
                10,
                // A conversion's own DNA points, not a new character's (l. 203).
                exact::dna_for(&m.creation, l, m.levels.dna_dice),
                tr!(ctx.lang, "growth.leveling.dna_points"),
            ),
            (
                9,
                exact::skill_gained_at_with(l, &m.levels.rules),
                tr!(ctx.lang, "growth.leveling.skill_gained"),
            ),
        ] {
            if l == 1 && q == 9 {
                continue; // nothing gained yet
            }
            let mo = &acc.moments[(l - 1) as usize * nq + q];
            let e = Estimate::mean(mo);
            let check = tr!(
                ctx.lang,
                "growth.leveling.key_exact",
                level = l,
                what,
                exact = ctx.lang.num(d.mean(), 4),
                simulated = ctx.lang.num(e.value, 4),
                lo = ctx.lang.num(e.lo, 4),
                hi = ctx.lang.num(e.hi, 4),
                outside = if e.lo <= d.mean() && d.mean() <= e.hi {
                    ""
                } else {
                    tr!(ctx.lang, "growth.leveling.outside")
                }
            ) + ctx.lang.no_spread(e.lo, e.hi);
            exact_checks.push((l, check));
        }
    }
    let q_out = Output {
        name: "leveling-quantiles".into(),
        title: tr!(ctx.lang, "growth.leveling.quantiles_title").into(),
        question: if previous {
            tr!(ctx.lang, "growth.leveling.quantiles_question_previous")
        } else {
            tr!(ctx.lang, "growth.leveling.quantiles_question")
        }
        .into(),
        frame: qframe,
        figures: vec![Figure::new(
            [Chart::Lines(pools), Chart::Lines(stats)]
                .into_iter()
                .chain(points.map(Chart::Lines))
                .collect(),
        )],
        key_figures: exact_checks.iter().map(|c| c.1.clone()).collect(),
        provenance: prov.for_output("leveling-quantiles"),
    };

    // Chance test per level and Light/Dark grants.
    let (mut lvl, mut pb, mut km, mut light, mut dark) = (vec![], vec![], vec![], vec![], vec![]);
    let mut chart = LineChart {
        title: tr!(ctx.lang, "growth.leveling.chance_chart_title").into(),
        x_label: tr!(ctx.lang, "growth.leveling.x_level").into(),
        y_label: tr!(ctx.lang, "growth.expedition.y_probability").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    let mut s = LineSeries {
        name: tr!(ctx.lang, "growth.leveling.p_bonus").into(),
        ..Default::default()
    };
    for &l in levels.iter().filter(|l| **l >= 2) {
        let c = &acc.bonus[(l - 1) as usize];
        let p = Proportion::new(c.counts[1], c.total());
        lvl.push(l as i64);
        pb.push(p);
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
        s.points.push((l as f64, p.p));
        s.band.push((l as f64, p.lo, p.hi));
    }
    chart.series.push(s);
    if let (Some(p2), Some(pl)) = (pb.first(), pb.last()) {
        key.push(tr!(
            ctx.lang,
            "growth.leveling.key_chance",
            p2 = ctx.lang.num(p2.p, 4),
            level = m.max_level,
            pl = ctx.lang.num(pl.p, 4)
        ));
    }
    let mut ccols = vec![Column::new("level".into(), lvl)];
    ccols.extend(interval_columns("p_chance_bonus", &pb, |&p| p));
    ccols.extend([
        Column::new("mean_karma".into(), km),
        Column::new("light_points".into(), light),
        Column::new("dark_points".into(), dark),
    ]);
    let cframe = DataFrame::new_infer_height(ccols)?;
    let c_out = Output {
        name: "leveling-chance".into(),
        title: tr!(ctx.lang, "growth.leveling.chance_title").into(),
        question: tr!(ctx.lang, "growth.leveling.chance_question").into(),
        frame: cframe,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: key.iter().rev().take(1).cloned().collect(),
        provenance: prov.for_output("leveling-chance"),
    };
    // The checks at the last level shown (the checked levels stop at 10).
    key.extend(
        exact_checks
            .into_iter()
            .filter(|c| c.0 == m.max_level.min(10))
            .map(|c| c.1),
    );
    let title = title.unwrap_or_else(|| tr!(ctx.lang, "growth.leveling.default_title").into());
    let question =
        question.unwrap_or_else(|| tr!(ctx.lang, "growth.leveling.default_question").into());
    let mut outputs = vec![q_out, c_out];
    if previous {
        let sheet = skill_sheet::output(ctx.lang, "leveling", m.max_level, &prov)?;
        key.extend(sheet.key_figures.iter().cloned());
        outputs.push(sheet);
    }
    if let Some(plan) = &m.skills {
        // The skill tree answers a build question too: first, after builds and DNA.
        let (s_out, s_key) = super::skills::skills_output(ctx.lang, &m, plan, &acc.skills, &prov)?;
        key.splice(0..0, s_key);
        outputs.push(s_out);
    }
    if let Some(d) = &m.dna {
        // The DNA comparison answers a build question: its figures go first.
        let (g_out, g_key) = super::genes::genes_output(ctx.lang, d, &acc.dna, m.max_level, &prov)?;
        key.splice(0..0, g_key);
        outputs.push(g_out);
    }
    if !m.builds.is_empty() {
        // The stat builds answer the first build question: their figures go first.
        let (b_out, b_key) =
            super::builds::builds_output(ctx.lang, &m.builds, &acc.builds, m.max_level, &prov)?;
        key.splice(0..0, b_key);
        outputs.push(b_out);
    }
    // Issue 27: how to replay a character, per outcome of `trace.rs` (the last level's
    // Chance test gave its bonus or not).
    let see = if m.max_level >= 2 {
        let last = &acc.bonus[(m.max_level - 1) as usize];
        crate::systems::trace::see_trials_section(
            file.lang,
            &file.path.display().to_string(),
            ctx.engine.seed(),
            [("bonus", last.counts[1]), ("no_bonus", last.counts[0])],
        )
    } else {
        String::new()
    };
    Ok(scenario_result(
        ctx.lang, title, question, key, outputs, &prov, &see,
    ))
}
