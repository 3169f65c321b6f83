//! The creation report: rejections exact vs simulated, distributions of every value.

use polars::prelude::*;

use crate::engine::Tally;
use crate::lang::Lang;
use crate::report::{
    interval_columns, Chart, Figure, FloatColumns, LineChart, LineSeries, Output, Provenance,
};
use crate::scenario::ScenarioFile;
use crate::stats::{Estimate, Proportion};
use crate::systems::cosmos::growth::aura::Edition;
use crate::systems::cosmos::growth::creation::{exact, CreationPolicy, HpPmSplit};
use crate::systems::cosmos::growth::skill_sheet;
use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::cosmos::growth::{dec, push_distribution, OPTIONS};
use crate::systems::{RunOverrides, ScenarioResult};

use super::super::summary;
use super::model::{moves_within, parse, policy_text, races_text};
use super::sim::{CreationSim, POINTS, QUANTITIES};
use super::DEFAULT_TRIALS;
use crate::rules::growth::RACE_OPTIONS;
use crate::systems::cosmos::growth::level_parameters;
use crate::systems::cosmos::growth::races::{race_conflict, Races};

/// The quantity in text: its CSV value in English (as the pages always wrote it), the
/// rulebook's words in French.
fn quantity_label(lang: Lang, i: usize, name: &'static str) -> &'static str {
    match i {
        0 => tr!(lang, "growth.creation.q_hp"),
        1 => tr!(lang, "growth.creation.q_pm"),
        2..=7 => Stat::ALL[i - 2].label(lang),
        8 => tr!(lang, "growth.creation.q_skill"),
        9 => tr!(lang, "growth.creation.q_dna"),
        _ => name,
    }
}

/// A creation file with the settings of the run (`run` and `trace` alike): the file as
/// read, the policy and race/class sheets under the parameters in force, the parameters
/// to list in provenance, the run's context and trial count.
pub(super) struct Loaded {
    pub raw: super::raw::Raw,
    pub p: CreationPolicy,
    pub races: Races,
    pub level_params: std::collections::BTreeMap<String, String>,
    pub ctx: crate::context::Context,
    pub trials: u64,
}

pub(super) fn load(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<Loaded> {
    let (raw, mut p, sheets) = parse(file)?;
    // The move points against `creation_move_points`/`conversion_move_points` in force,
    // before `resolve` as `check` does (one validation).
    let in_force = super::super::common::options_in_force(file, &raw.rules, o)?;
    moves_within(file, &mut p, &in_force)?;
    let (ctx, trials) = o.resolve(file, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
    let level_params = level_parameters(&ctx.options, &mut p);
    let races = Races {
        sheets,
        conflict: race_conflict(&ctx.options),
    };
    Ok(Loaded {
        raw,
        p,
        races,
        level_params,
        ctx,
        trials,
    })
}

/// Runs the file.
pub fn run(file: &ScenarioFile, o: &RunOverrides) -> anyhow::Result<ScenarioResult> {
    let Loaded {
        raw,
        p,
        races,
        level_params,
        ctx,
        trials,
    } = load(file, o)?;
    let progress = ctx.progress(trials, tr!(ctx.lang, "growth.progress.creation"));
    let acc = ctx.engine.run(
        &CreationSim(p, races.clone()),
        &ctx.stream,
        trials,
        &progress,
    );
    progress.finish();
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(level_params);
    if !races.sheets.is_empty() {
        // Listed only with sheets, so files without them keep their provenance.
        opts.extend(ctx.options.in_force(RACE_OPTIONS));
    }
    let prov = Provenance::monte_carlo("creation", "cosmos", opts, ctx.engine.seed(), trials)
        .with_param("policy", policy_text(&p));
    let prov = if races.sheets.is_empty() {
        prov
    } else {
        prov.with_param("races", races_text(&races).trim().to_string())
    };
    let prov = prov.with_scenario(file.reference());

    // Rejections: exact vs simulated.
    let conv = p.conversion.is_some();
    let hp_attempts = acc.attempts[0];
    // Accepted stat rolls thrown away for a race/class sheet were accepted all the same.
    let stat_accepted = trials + acc.race_rerolls;
    let st_attempts = acc.attempts[1];
    let stat_dice_kept = st_attempts * if conv { 2 } else { 6 };
    // A conversion keeps its HP and PM (C-CREATE-3): no 10d100 step.
    let mut steps = vec![
        (
            "hp_pm_10d100",
            exact::p_hp_pm_accept_in(p.sums.hp_pm),
            trials,
            hp_attempts,
        ),
        (
            if conv {
                "conversion_2d100"
            } else {
                "stats_6d100"
            },
            if conv {
                exact::p_conversion_accept_in(p.sums.conversion, &p.bounds)
            } else {
                exact::p_stats_accept_in(p.sums.stats, &p.bounds)
            },
            stat_accepted,
            st_attempts,
        ),
        // The step keeps its name (a CSV key, compared across variants) whatever the
        // window in force (`create_die_min`..`create_die_max`): P(kept) = faces / 100.
        (
            "stat_die_in_20_80",
            p.bounds.p_keep(),
            stat_dice_kept,
            acc.stat_d100_rolls,
        ),
    ];
    if conv {
        steps.remove(0);
    }
    let mut rej_key = Vec::new();
    let (mut names, mut pe, mut pm, mut inside, mut ee, mut em) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (name, p_exact, hits, n) in steps {
        let p = Proportion::new(hits, n);
        names.push(name);
        pe.push(p_exact);
        pm.push(p);
        inside.push(p.lo <= p_exact && p_exact <= p.hi);
        ee.push(1.0 / p_exact);
        em.push(n as f64 / hits as f64);
        rej_key.push(tr!(
            ctx.lang,
            "growth.creation.key_reroll",
            name,
            exact = ctx.lang.num(1.0 - p_exact, 5),
            simulated = ctx.lang.num(1.0 - p.p, 5),
            lo = ctx.lang.num(1.0 - p.hi, 5),
            hi = ctx.lang.num(1.0 - p.lo, 5),
            rolls = ctx.lang.num(1.0 / p_exact, 4)
        ));
    }
    let [p_mc, p_lo, p_hi] = interval_columns("p_accept", &pm, |&p| p);
    let rejection = DataFrame::new_infer_height(vec![
        Column::new("step".into(), names.clone()),
        Column::new("p_accept_exact".into(), pe.clone()),
        p_mc.with_name("p_accept_mc".into()),
        p_lo,
        p_hi,
        Column::new("exact_inside_interval".into(), inside),
        Column::new("expected_rolls_exact".into(), ee),
        Column::new("mean_rolls_mc".into(), em),
    ])?;
    let mut geo = LineChart {
        title: tr!(ctx.lang, "growth.creation.geo_title").into(),
        x_label: tr!(ctx.lang, "growth.creation.x_rolls").into(),
        y_label: tr!(ctx.lang, "growth.expedition.y_probability").into(),
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
            name: tr!(ctx.lang, "growth.creation.simulated", name = names[i]),
            ..Default::default()
        };
        let mut e = LineSeries {
            name: tr!(ctx.lang, "growth.creation.exact", name = names[i]),
            ..Default::default()
        };
        for n in 1..=4i64 {
            cum += t.iter().find(|(v, _)| *v == n).map_or(0, |x| x.1);
            let p = Proportion::new(cum, trials);
            s.points.push((n as f64, p.p));
            s.band.push((n as f64, p.lo, p.hi));
            e.points
                .push((n as f64, 1.0 - (1.0 - pe[i]).powi(n as i32)));
        }
        geo.series.push(s);
        geo.series.push(e);
    }
    let rejection_out = Output {
        name: "creation-rejection".into(),
        title: tr!(ctx.lang, "growth.creation.rejection_title").into(),
        question: tr!(ctx.lang, "growth.creation.rejection_question").into(),
        frame: rejection,
        figures: vec![Figure::new(vec![Chart::Lines(geo)])],
        key_figures: rej_key.clone(),
        provenance: prov.for_output("creation-rejection"),
    };

    // Distributions of each quantity; C-EDITION: the previous book has no skill points
    // nor DNA points, so their rows are absent and its own skill sheet is reported.
    let previous = p.edition == Edition::Previous;
    let shown: Vec<(usize, &str)> = QUANTITIES
        .into_iter()
        .enumerate()
        .filter(|(i, _)| !previous || *i < POINTS)
        .collect();
    let mut cols = FloatColumns::default();
    let mut dist_key = Vec::new();
    for &(i, name) in &shown {
        let (mean, Estimate { lo: l, hi: h, .. }, q) =
            push_distribution(&mut cols, &acc.values[i], &acc.moments[i]);
        if i <= 8 {
            dist_key.push(
                tr!(
                    ctx.lang,
                    "growth.creation.key_quantity",
                    name = quantity_label(ctx.lang, i, name),
                    mean = ctx.lang.num(mean, 2),
                    lo = ctx.lang.num(l, 2),
                    hi = ctx.lang.num(h, 2),
                    median = dec(ctx.lang, q[2]),
                    p05 = dec(ctx.lang, q[0]),
                    p95 = dec(ctx.lang, q[4])
                ) + ctx.lang.no_spread(l, h),
            );
        }
    }
    let names: Vec<&str> = shown.iter().map(|q| q.1).collect();
    let mut dcols = vec![Column::new("quantity".into(), names)];
    dcols.extend(cols.into_columns());
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
        title: tr!(ctx.lang, "growth.creation.hp_title").into(),
        x_label: tr!(ctx.lang, "growth.creation.x_points").into(),
        y_label: tr!(ctx.lang, "growth.creation.y_cdf").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    hp_chart.series.push(LineSeries {
        name: tr!(ctx.lang, "growth.creation.hp_simulated").into(),
        points: cdf(&acc.values[0]),
        band: vec![],
    });
    hp_chart.series.push(LineSeries {
        name: tr!(ctx.lang, "growth.creation.pm_simulated").into(),
        points: cdf(&acc.values[1]),
        band: vec![],
    });
    let mut hp_exact_gap = None;
    // A conversion keeps the character's HP (C-CREATE-3): there is no 10d100 law to meet.
    if p.split == HpPmSplit::Random && p.conversion.is_none() {
        let d = exact::hp_random_split_in(p.sums.hp_pm);
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
            name: tr!(ctx.lang, "growth.creation.hp_exact").into(),
            points: pts,
            band: vec![],
        });
    }
    let mut st_chart = LineChart {
        title: tr!(ctx.lang, "growth.creation.stats_title").into(),
        x_label: tr!(ctx.lang, "growth.creation.x_stat").into(),
        y_label: tr!(ctx.lang, "growth.creation.y_cdf").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    // The stats' range with a margin (book 15..90), wider when the die window or the
    // caps in force go further.
    let b = &p.bounds;
    let shown =
        (b.floor() - 5).min(15) as f64..=(b.die_max + 10).max(b.cap_high + 5).max(90) as f64;
    for (i, s) in Stat::ALL.iter().enumerate() {
        let pts = cdf(&acc.values[2 + i])
            .into_iter()
            .filter(|(x, _)| shown.contains(x))
            .collect();
        st_chart.series.push(LineSeries {
            name: s.label(ctx.lang).into(),
            points: pts,
            band: vec![],
        });
    }
    if let Some((mean, gap)) = hp_exact_gap {
        dist_key.insert(
            0,
            tr!(
                ctx.lang,
                "growth.creation.key_hp_exact",
                mean = ctx.lang.num(mean, 3),
                gap = ctx.lang.num(gap, 5),
                bound = ctx.lang.num(1.36 / (trials as f64).sqrt(), 5)
            ),
        );
    }
    let dist_out = Output {
        name: "creation-distributions".into(),
        title: if previous {
            tr!(ctx.lang, "growth.creation.dist_title_previous")
        } else {
            tr!(ctx.lang, "growth.creation.dist_title")
        }
        .into(),
        question: tr!(ctx.lang, "growth.creation.dist_question").into(),
        frame: dist_frame,
        figures: vec![Figure::new(vec![
            Chart::Lines(hp_chart),
            Chart::Lines(st_chart),
        ])],
        key_figures: dist_key.clone(),
        provenance: prov.for_output("creation-distributions"),
    };

    let title = crate::scenario::Text::pick(raw.title, ctx.lang)
        .unwrap_or_else(|| tr!(ctx.lang, "growth.creation.default_title").into());
    let question = crate::scenario::Text::pick(raw.question, ctx.lang)
        .unwrap_or_else(|| tr!(ctx.lang, "growth.creation.default_question").into());
    let mut key: Vec<String> = rej_key.into_iter().take(2).collect();
    key.extend(dist_key.into_iter().take(4));
    let mut outputs = vec![rejection_out, dist_out];
    if previous {
        // A converted character keeps its level (C-CREATE-3): the sheet up to it.
        let level = p.conversion.map_or(1, |c| c.level);
        let sheet = skill_sheet::output(ctx.lang, "creation", level, &prov)?;
        key.extend(sheet.key_figures.iter().cloned());
        outputs.push(sheet);
    }
    if !races.sheets.is_empty() {
        // The race/class question comes first.
        let (r_out, r_key) = super::races::races_output(ctx.lang, &p, &races, &acc, trials, &prov)?;
        key.splice(0..0, r_key);
        outputs.push(r_out);
    }
    let mut summary = summary(ctx.lang, &title, &question, &key, &outputs, &prov);
    // `cosmosim trace` (issue 27): one command per outcome that happened (`trace.rs`), put
    // before the provenance section that closes the summary.
    let counts = if races.sheets.is_empty() {
        vec![acc.accepted_first, trials - acc.accepted_first]
    } else {
        acc.races.clone()
    };
    let outcomes = super::trace::outcomes(&races).into_iter().zip(counts);
    let see = crate::systems::trace::see_trials_section(
        file.lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        outcomes,
    );
    let at = summary.rfind("\n## ").map_or(summary.len(), |i| i + 1);
    summary.insert_str(at, &format!("{}\n", see.trim_start()));
    Ok(ScenarioResult {
        title,
        question,
        key_figures: key,
        outputs,
        summary,
    })
}
