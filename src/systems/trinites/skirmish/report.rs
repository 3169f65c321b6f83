//! What a skirmish run writes: which side wins and in which round, each combatant's fate
//! (down, coma, dead, damage dealt and taken), and the exact one-attack exchanges;
//! `summary.md` opens with the answers.

use polars::prelude::*;

use crate::context::Context;
use crate::engine::{Merge, Moments};
use crate::lang::Lang;
use crate::report::text_column;
use crate::report::{end_rounds, float_column, int_column, interval_columns, Output, Provenance};
use crate::report::{BarChart, BarSeries, Chart, Figure};
use crate::scenario::ScenarioFile;
use crate::stats::{Estimate, Proportion};
use crate::systems::report_parts::{answer_list, share_bars};
use crate::systems::trinites::listed;
use crate::systems::ScenarioResult;

use super::acc::SkirmishAcc;
use super::exchange::Exchange;
use super::model::Skirmish;
use super::pairs::{pairs_output, PairRun, PairsSpec};

fn pct(lang: Lang, p: f64) -> String {
    lang.pct(p, 1)
}

fn prov(name: &str, m: &Skirmish, file: &ScenarioFile, ctx: &Context, n: u64) -> Provenance {
    Provenance::monte_carlo(name, "trinites", listed(&ctx.options), ctx.engine.seed(), n)
        .with_param("combatants", m.names.len())
        .with_param("sides", m.sides.join(", "))
        .with_param("max_rounds", m.max_rounds)
        .with_param("strike_unconscious", m.strike_unconscious)
        .with_scenario(file.reference())
}

/// Outcome labels in accumulator order: each side, then draw and undecided.
fn outcomes(m: &Skirmish) -> Vec<String> {
    let mut v: Vec<String> = m.sides.clone();
    v.push("draw".into());
    v.push("undecided".into());
    v
}

fn sides_output(
    lang: Lang,
    m: &Skirmish,
    acc: &SkirmishAcc,
    p: Provenance,
) -> anyhow::Result<Output> {
    let n = acc.fights;
    let labels = outcomes(m);
    // One row per outcome: its label, its share (fights counted in `hits`) and the mean
    // rounds of the fights that ended that way.
    let rows: Vec<(&String, Proportion, f64)> = labels
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let share = Proportion::new(acc.outcomes[k], n);
            (l, share, acc.rounds_by_outcome[k].mean)
        })
        .collect();
    let mut cols = vec![
        text_column("outcome", &rows, |r| r.0.as_str()),
        Column::new(
            "fights".into(),
            rows.iter().map(|r| r.1.hits).collect::<Vec<_>>(),
        ),
    ];
    cols.extend(interval_columns("p", &rows, |r| r.1));
    cols.push(float_column("mean_rounds", &rows, |r| {
        if r.1.hits == 0 {
            f64::NAN
        } else {
            r.2
        }
    }));
    let frame = DataFrame::new_infer_height(cols)?;
    let mut categories: Vec<String> = m
        .sides
        .iter()
        .map(|s| tr!(lang, "trinites.skirmish.side_wins", side = s))
        .collect();
    categories.push(tr!(lang, "trinites.skirmish.draw_all_out").into());
    categories.push(tr!(
        lang,
        "trinites.skirmish.undecided_after",
        rounds = m.max_rounds
    ));
    let chart = share_bars(
        [
            tr!(lang, "trinites.skirmish.sides_chart").into(),
            tr!(lang, "trinites.skirmish.outcome").into(),
            tr!(lang, "trinites.skirmish.probability").into(),
        ],
        categories,
        tr!(lang, "trinites.skirmish.p_interval"),
        &rows,
        |r| r.1,
    );
    Ok(Output {
        name: "trinites-skirmish-sides".into(),
        title: tr!(lang, "trinites.skirmish.title_sides", title = m.title),
        question: tr!(lang, "trinites.skirmish.question_sides").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Bars(chart)])],
        key_figures: vec![],
        provenance: p,
    })
}

/// One combatant's row.
struct Row {
    name: String,
    group: String,
    side: String,
    down: Proportion,
    knocked: f64,
    coma: Proportion,
    dead: f64,
    coma_hours: f64,
    dealt: f64,
    taken: f64,
    taken_p50: i64,
    taken_p90: i64,
    karma: f64,
    down_round: f64,
}

fn combatant_rows(m: &Skirmish, acc: &SkirmishAcc) -> Vec<Row> {
    let n = acc.fights;
    acc.fighters
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let g = &m.groups[m.group_of[i]];
            let nan_if_empty = |mo: &Moments| if mo.n == 0 { f64::NAN } else { mo.mean };
            Row {
                name: m.names[i].clone(),
                group: g.name.clone(),
                side: m.sides[g.profile.side].clone(),
                down: Proportion::new(a.down, n),
                knocked: a.knocked as f64 / n as f64,
                coma: Proportion::new(a.coma, n),
                dead: a.dead as f64 / n as f64,
                coma_hours: nan_if_empty(&a.coma_hours),
                dealt: a.dealt.mean,
                taken: a.taken.mean,
                taken_p50: a.ticked.quantile(0.5).unwrap_or(0),
                taken_p90: a.ticked.quantile(0.9).unwrap_or(0),
                karma: a.karma_spent.mean,
                down_round: nan_if_empty(&a.down_round),
            }
        })
        .collect()
}

fn combatants_output(
    lang: Lang,
    m: &Skirmish,
    rows: &[Row],
    n: u64,
    p: Provenance,
) -> anyhow::Result<Output> {
    let frame = DataFrame::new_infer_height(
        [
            vec![
                text_column("combatant", rows, |r| r.name.as_str()),
                text_column("group", rows, |r| r.group.as_str()),
                text_column("side", rows, |r| r.side.as_str()),
                Column::new("fights".into(), vec![n; rows.len()]),
            ],
            interval_columns("p_down", rows, |r| r.down).into(),
            interval_columns("p_coma", rows, |r| r.coma).into(),
            vec![
                float_column("p_dead", rows, |r| r.dead),
                float_column("coma_hours_to_death_mean", rows, |r| r.coma_hours),
                float_column("dealt_mean", rows, |r| r.dealt),
                float_column("taken_mean", rows, |r| r.taken),
                int_column("boxes_ticked_p50", rows, |r| r.taken_p50),
                int_column("boxes_ticked_p90", rows, |r| r.taken_p90),
                float_column("karma_spent_mean", rows, |r| r.karma),
                float_column("first_down_round_mean", rows, |r| r.down_round),
                float_column("p_knocked_out", rows, |r| r.knocked),
            ],
        ]
        .concat(),
    )?;
    let chart = BarChart {
        title: tr!(lang, "trinites.skirmish.fate_chart").into(),
        x_label: tr!(lang, "trinites.skirmish.combatant").into(),
        y_label: tr!(lang, "trinites.skirmish.probability_interval").into(),
        categories: rows
            .iter()
            .map(|r| format!("{} ({})", r.name, r.side))
            .collect(),
        series: vec![
            BarSeries::with_intervals(tr!(lang, "trinites.skirmish.down"), rows, |r| r.down),
            BarSeries::with_intervals(tr!(lang, "trinites.skirmish.coma"), rows, |r| r.coma),
        ],
        y_range: Some((0.0, 1.0)),
    };
    let dmg = BarChart {
        title: tr!(lang, "trinites.skirmish.boxes_chart").into(),
        x_label: tr!(lang, "trinites.skirmish.combatant").into(),
        y_label: tr!(lang, "trinites.skirmish.life_boxes").into(),
        categories: rows.iter().map(|r| r.name.clone()).collect(),
        series: vec![
            BarSeries::of(tr!(lang, "trinites.skirmish.dealt"), rows, |r| r.dealt),
            BarSeries::of(tr!(lang, "trinites.skirmish.taken"), rows, |r| r.taken),
        ],
        y_range: None,
    };
    Ok(Output {
        name: "trinites-skirmish-combatants".into(),
        title: tr!(lang, "trinites.skirmish.title_combatants", title = m.title),
        question: tr!(lang, "trinites.skirmish.question_combatants").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Bars(chart), Chart::Bars(dmg)])],
        key_figures: vec![],
        provenance: p,
    })
}

fn exchanges_output(
    lang: Lang,
    m: &Skirmish,
    ex: &[Exchange],
    p: Provenance,
) -> anyhow::Result<Output> {
    let frame = DataFrame::new_infer_height(vec![
        text_column("attacker", ex, |e| e.attacker.as_str()),
        text_column("target", ex, |e| e.target.as_str()),
        text_column("weapon", ex, |e| e.weapon.as_str()),
        int_column("distance", ex, |e| e.distance),
        int_column("attack_modifier", ex, |e| e.attack_modifier),
        int_column("reaction_modifier", ex, |e| e.reaction_modifier),
        float_column("p_attack_fails", ex, |e| e.p_attack_fails),
        float_column("p_stopped", ex, |e| e.p_stopped),
        float_column("p_hit", ex, |e| e.p_hit),
        int_column("damage_per_hit", ex, |e| e.damage_per_hit),
        float_column("expected_damage", ex, |e| e.expected_damage),
        Column::new(
            "hits_to_knock_out".into(),
            ex.iter()
                .map(|e| e.hits_to_knock_out)
                .collect::<Vec<Option<i64>>>(),
        ),
    ])?;
    let chart = BarChart {
        title: tr!(lang, "trinites.skirmish.exchange_chart").into(),
        x_label: tr!(lang, "trinites.skirmish.attacker_target").into(),
        y_label: tr!(lang, "trinites.skirmish.probability_exact").into(),
        categories: ex
            .iter()
            .map(|e| format!("{} → {}", e.attacker, e.target))
            .collect(),
        series: vec![
            BarSeries::of(tr!(lang, "trinites.skirmish.hit"), ex, |e| e.p_hit),
            BarSeries::of(tr!(lang, "trinites.skirmish.stopped"), ex, |e| e.p_stopped),
        ],
        y_range: Some((0.0, 1.0)),
    };
    Ok(Output {
        name: "trinites-skirmish-exchanges".into(),
        title: tr!(lang, "trinites.skirmish.title_exchanges", title = m.title),
        question: tr!(lang, "trinites.skirmish.question_exchanges").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Bars(chart)])],
        key_figures: vec![],
        provenance: p,
    })
}

/// Builds the outputs and summary of a finished run.
pub fn result(
    file: &ScenarioFile,
    m: &Skirmish,
    acc: &SkirmishAcc,
    ex: &[Exchange],
    pairs: Option<(&PairsSpec, &[PairRun])>,
    ctx: &Context,
) -> anyhow::Result<ScenarioResult> {
    let lang = ctx.lang;
    let n = acc.fights;
    let base = prov("trinites-skirmish-sides", m, file, ctx, n);
    let named = |name: &str| Provenance {
        output: name.into(),
        ..base.clone()
    };
    let sides = sides_output(lang, m, acc, base.clone())?;
    let rows = combatant_rows(m, acc);
    let combatants = combatants_output(lang, m, &rows, n, named("trinites-skirmish-combatants"))?;
    let (frame, chart) = end_rounds(
        acc.rounds.iter(),
        n,
        tr!(lang, "trinites.skirmish.rounds_what"),
        lang,
    )?;
    let rounds = Output {
        name: "trinites-skirmish-rounds".into(),
        title: tr!(lang, "trinites.skirmish.title_rounds", title = m.title),
        question: tr!(lang, "trinites.skirmish.question_rounds").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: vec![],
        provenance: named("trinites-skirmish-rounds"),
    };
    let exact = Provenance::exact(
        "trinites-skirmish-exchanges",
        "trinites",
        listed(&ctx.options),
    )
    .with_scenario(file.reference());
    let exchanges = exchanges_output(lang, m, ex, exact)?;
    let mut outputs = vec![sides, combatants, rounds, exchanges];
    let mut pair_key = Vec::new();
    let mut pair_table = String::new();
    if let Some((spec, runs)) = pairs {
        let p = Provenance {
            trials: Some(spec.trials),
            ..named("trinites-skirmish-pairs")
        }
        .with_param("pairs_group", &m.groups[spec.group].name)
        .with_param(
            "reference_pair",
            format!("{}/{}", spec.pairs[0].0.name(), spec.pairs[0].1.name()),
        );
        let (o, k, t) = pairs_output(lang, m, spec, runs, p)?;
        outputs.push(o);
        pair_key = k;
        pair_table = t;
    }

    // The answers, first.
    let labels = outcomes(m);
    let mut key = Vec::new();
    let wins: Vec<String> = (0..labels.len())
        .filter(|&k| k < m.sides.len() || acc.outcomes[k] > 0)
        .map(|k| {
            let Proportion { p, lo, hi, .. } = Proportion::new(acc.outcomes[k], n);
            let what = if k < m.sides.len() {
                tr!(
                    lang,
                    "trinites.skirmish.side_wins",
                    side = crate::report::md_text(&labels[k])
                )
            } else if k == m.sides.len() {
                tr!(lang, "trinites.skirmish.draw").into()
            } else {
                tr!(lang, "trinites.skirmish.undecided").into()
            };
            tr!(
                lang,
                "trinites.skirmish.key_outcome_item",
                what,
                p = pct(lang, p),
                lo = pct(lang, lo),
                hi = pct(lang, hi)
            )
        })
        .collect();
    key.push(tr!(
        lang,
        "trinites.skirmish.key_outcome",
        n,
        list = wins.join(tr!(lang, "trinites.skirmish.list_sep"))
    ));
    let mut m_rounds = Moments::default();
    for b in &acc.rounds_by_outcome {
        m_rounds.merge(*b);
    }
    let mean_rounds = Estimate::mean(&m_rounds);
    key.push(
        tr!(
            lang,
            "trinites.skirmish.key_rounds",
            mean = lang.num(mean_rounds.value, 2),
            lo = lang.num(mean_rounds.lo, 2),
            hi = lang.num(mean_rounds.hi, 2),
            median = acc
                .rounds
                .quantile(0.5)
                .map_or("-".into(), |v| v.to_string())
        ) + lang.no_spread(mean_rounds.lo, mean_rounds.hi),
    );
    for r in &rows {
        let coma = if r.coma.p > 0.0 {
            tr!(
                lang,
                "trinites.skirmish.key_coma",
                p = pct(lang, r.coma.p),
                hours = lang.num(r.coma_hours, 1)
            )
        } else {
            String::new()
        };
        key.push(tr!(
            lang,
            "trinites.skirmish.key_combatant",
            name = crate::report::md_text(&r.name),
            side = crate::report::md_text(&r.side),
            p = pct(lang, r.down.p),
            lo = pct(lang, r.down.lo),
            hi = pct(lang, r.down.hi),
            coma,
            dealt = lang.num(r.dealt, 2),
            taken = lang.num(r.taken, 2)
        ));
    }

    key.extend(pair_key);
    let mut summary = tr!(
        lang,
        "trinites.skirmish.summary_head",
        title = crate::report::md_text(&m.title),
        question = crate::report::md_text(&m.question)
    );
    summary += &answer_list(&key);
    summary += tr!(lang, "trinites.skirmish.summary_exchanges");
    for e in ex {
        summary += &format!(
            "| {} | {} | {} | {} | {:+} | {:+} | {} | {} | {} |\n",
            crate::report::md_text(&e.attacker),
            crate::report::md_text(&e.target),
            crate::report::md_text(&e.weapon),
            e.distance,
            e.attack_modifier,
            e.reaction_modifier,
            lang.num(e.p_hit, 4),
            e.damage_per_hit,
            e.hits_to_knock_out
                .map_or(tr!(lang, "trinites.skirmish.never").into(), |h| h
                    .to_string())
        );
    }
    summary += &pair_table;
    // The commands that replay single skirmishes of this run (issue 27).
    summary += &crate::systems::trace::see_section(
        lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        labels
            .iter()
            .map(String::as_str)
            .zip(acc.outcomes.iter().copied()),
    );
    summary += &tr!(
        lang,
        "trinites.skirmish.summary_files",
        pairs = if pairs.is_some() {
            ", `trinites-skirmish-pairs.csv`"
        } else {
            ""
        },
        provenance = base.summary(file.lang)
    );
    Ok(ScenarioResult::new(
        &m.title,
        &m.question,
        key,
        outputs,
        summary,
    ))
}
