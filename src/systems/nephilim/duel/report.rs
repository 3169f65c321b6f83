//! What a Nephilim duel run writes: who wins (the faster fighter first), rounds, each
//! fighter's fate with the exact N-INIT check, and the actions grid; `summary.md` opens
//! with the answers.

use polars::prelude::*;

use crate::context::Context;
use crate::lang::Lang;
use crate::report::text_column;
use crate::report::{end_rounds, Output, Provenance};
use crate::report::{
    float_column, int_column, interval_columns, BarChart, BarSeries, Chart, Figure, Heatmap,
};
use crate::scenario::ScenarioFile;
use crate::stats::Proportion;
use crate::systems::nephilim::{p_earlier_segment, NephilimRules};
use crate::systems::report_parts::{answer_list, mean_round, ratio, share_bars, shares};
use crate::systems::ScenarioResult;

use super::model::{DuelModel, ACTIONS_MAX};
use super::sim::{DuelAcc, A_WINS, BOTH_OUT, B_WINS, UNDECIDED};

fn pct(lang: Lang, p: f64) -> String {
    lang.pct(p, 2)
}

/// One cell of the actions grid.
pub struct GridCell {
    pub actions: [u8; 2],
    pub acc: DuelAcc,
    pub trials: u64,
}

impl GridCell {
    /// The share of the cell's duels A won.
    fn p_a_wins(&self) -> f64 {
        self.acc.outcomes.counts[A_WINS] as f64 / self.trials as f64
    }
}

fn mean_rounds(acc: &DuelAcc, max: u32) -> f64 {
    mean_round(acc.rounds.iter().filter(|(r, _)| *r <= max as i64))
}

#[allow(clippy::too_many_arguments)]
pub fn result(
    file: &ScenarioFile,
    m: &DuelModel,
    rules: &NephilimRules,
    acc: &DuelAcc,
    grid: &[GridCell],
    ctx: &Context,
    n: u64,
    grid_trials: u64,
) -> anyhow::Result<ScenarioResult> {
    let lang = ctx.lang;
    let nf = n as f64;
    let names = [m.fighters[0].name.clone(), m.fighters[1].name.clone()];
    // The names as Markdown text, for the key figures and `summary.md` (the CSVs, charts
    // and provenance keep them as typed).
    let md = names.each_ref().map(|n| crate::report::md_text(n));
    let prov = |name: &str, trials: u64| {
        Provenance::monte_carlo(
            name,
            "nephilim",
            crate::systems::nephilim::in_force(&ctx.options),
            ctx.engine.seed(),
            trials,
        )
        .with_param("fighters", format!("{} vs {}", names[0], names[1]))
        .with_param(
            "actions",
            format!("{} vs {}", m.fighters[0].actions, m.fighters[1].actions),
        )
        .with_param("max_rounds", m.max_rounds)
        .with_scenario(file.reference())
    };

    let labels = [
        tr!(lang, "nephilim.duel.wins", name = names[0]),
        tr!(lang, "nephilim.duel.wins", name = names[1]),
        tr!(lang, "nephilim.duel.both_out").to_string(),
        tr!(lang, "nephilim.duel.undecided", rounds = m.max_rounds),
    ];
    let rates = shares(&acc.outcomes.counts, n);
    let mut outcome_cols = vec![
        Column::new("outcome".into(), super::trace::OUTCOMES.to_vec()),
        Column::new(
            "fighter".into(),
            vec![names[0].as_str(), names[1].as_str(), "", ""],
        ),
    ];
    outcome_cols.extend(interval_columns("p", &rates, |&r| r));
    let outcome_frame = DataFrame::new_infer_height(outcome_cols)?;
    let outcome_chart = share_bars(
        [
            tr!(lang, "nephilim.duel.outcome_chart").into(),
            tr!(lang, "nephilim.duel.outcome").into(),
            tr!(lang, "nephilim.duel.probability").into(),
        ],
        labels.to_vec(),
        tr!(lang, "nephilim.duel.p_interval"),
        &rates,
        |r| *r,
    );

    let (rounds_frame, rounds_chart) = end_rounds(
        acc.rounds.iter().filter(|(r, _)| *r <= m.max_rounds as i64),
        n,
        tr!(lang, "nephilim.duel.rounds_what"),
        lang,
    )?;

    struct FRow {
        name: String,
        initiative: i64,
        actions: i64,
        earlier: Proportion,
        earlier_exact: f64,
        hit_rate: f64,
        defended: f64,
        wounds: f64,
        fatigue: f64,
        dead: f64,
        coma: f64,
        unconscious: f64,
    }
    let frows: Vec<FRow> = (0..2)
        .map(|i| {
            let f = &m.fighters[i];
            let a = &acc.fighters[i];
            FRow {
                name: f.name.clone(),
                initiative: f.initiative,
                actions: f.actions as i64,
                earlier: Proportion::new(a.earlier_round1, n),
                earlier_exact: p_earlier_segment(
                    f.initiative - m.fighters[1 - i].initiative,
                    rules,
                )
                .max(0.0),
                hit_rate: ratio(a.hits, a.attacks),
                defended: ratio(a.defended, a.defences),
                wounds: a.wounds_end as f64 / nf,
                fatigue: a.fatigue_end as f64 / nf,
                dead: a.dead as f64 / nf,
                coma: a.coma as f64 / nf,
                unconscious: a.unconscious as f64 / nf,
            }
        })
        .collect();
    let fighters_frame = DataFrame::new_infer_height(
        [
            vec![
                text_column("name", &frows, |r| r.name.as_str()),
                int_column("initiative_score", &frows, |r| r.initiative),
                int_column("actions", &frows, |r| r.actions),
            ],
            interval_columns("p_earlier_segment_round1", &frows, |r| r.earlier).into(),
            vec![
                float_column("p_earlier_segment_exact", &frows, |r| r.earlier_exact),
                float_column("hit_rate", &frows, |r| r.hit_rate),
                float_column("defence_rate", &frows, |r| r.defended),
                float_column("mean_wounds_end", &frows, |r| r.wounds),
                float_column("mean_fatigue_end", &frows, |r| r.fatigue),
                float_column("p_dead", &frows, |r| r.dead),
                float_column("p_coma", &frows, |r| r.coma),
                float_column("p_unconscious", &frows, |r| r.unconscious),
            ],
        ]
        .concat(),
    )?;
    let fate_chart = BarChart {
        title: tr!(lang, "nephilim.duel.fate_chart").into(),
        x_label: tr!(lang, "nephilim.duel.fighter").into(),
        y_label: tr!(lang, "nephilim.duel.probability").into(),
        categories: names.to_vec(),
        series: vec![
            BarSeries::of(
                tr!(
                    lang,
                    "nephilim.duel.dead",
                    level = rules.counters().out_level()
                ),
                &frows,
                |r| r.dead,
            ),
            BarSeries::of(tr!(lang, "nephilim.duel.coma"), &frows, |r| r.coma),
            BarSeries::of(tr!(lang, "nephilim.duel.unconscious"), &frows, |r| {
                r.unconscious
            }),
        ],
        y_range: Some((0.0, 1.0)),
    };

    let side = ACTIONS_MAX as usize;
    let cell = |a: u8, b: u8| grid.iter().find(|c| c.actions == [a, b]);
    let grid_frame = DataFrame::new_infer_height(
        [
            vec![
                int_column("a_actions", grid, |c| c.actions[0] as i64),
                int_column("b_actions", grid, |c| c.actions[1] as i64),
            ],
            interval_columns("p_a_wins", grid, |c| {
                Proportion::new(c.acc.outcomes.counts[A_WINS], c.trials)
            })
            .into(),
            vec![
                float_column("p_b_wins", grid, |c| {
                    c.acc.outcomes.counts[B_WINS] as f64 / c.trials as f64
                }),
                float_column("mean_rounds", grid, |c| mean_rounds(&c.acc, m.max_rounds)),
            ],
        ]
        .concat(),
    )?;
    let values: Vec<Vec<f64>> = (1..=side as u8)
        .map(|b| {
            (1..=side as u8)
                .map(|a| cell(a, b).map_or(0.0, GridCell::p_a_wins))
                .collect()
        })
        .collect();
    let heat = Heatmap {
        title: tr!(lang, "nephilim.duel.heat_title", name = names[0]),
        x_label: tr!(lang, "nephilim.duel.actions_of", name = names[0]),
        y_label: tr!(lang, "nephilim.duel.actions_of", name = names[1]),
        columns: Heatmap::labels(&(1..=side).collect::<Vec<_>>()),
        rows: Heatmap::labels(&(1..=side).collect::<Vec<_>>()),
        values,
        range: (0.0, 1.0),
    };

    // The answers: the faster fighter by initiative score.
    let fast = if m.fighters[0].initiative >= m.fighters[1].initiative {
        0
    } else {
        1
    };
    let slow = 1 - fast;
    let win_idx = [A_WINS, B_WINS];
    let fr = rates[win_idx[fast]];
    let mut key = vec![tr!(
        lang,
        "nephilim.duel.key_fast",
        fast = md[fast],
        init_fast = format!("{:+}", m.fighters[fast].initiative),
        init_slow = format!("{:+}", m.fighters[slow].initiative),
        p = pct(lang, fr.p),
        lo = pct(lang, fr.lo),
        hi = pct(lang, fr.hi),
        slow = md[slow],
        p_slow = pct(lang, rates[win_idx[slow]].p),
        both = pct(lang, rates[BOTH_OUT].p),
        undecided = pct(lang, rates[UNDECIDED].p)
    )];
    key.push(tr!(
        lang,
        "nephilim.duel.key_earlier",
        fast = md[fast],
        slow = md[slow],
        p = pct(lang, frows[fast].earlier.p),
        lo = pct(lang, frows[fast].earlier.lo),
        hi = pct(lang, frows[fast].earlier.hi),
        exact = pct(lang, frows[fast].earlier_exact)
    ));
    let base_b = m.fighters[1].actions;
    let line: Vec<String> = (1..=side as u8)
        .filter_map(|a| {
            cell(a, base_b).map(|c| {
                tr!(
                    lang,
                    "nephilim.duel.line_item",
                    a,
                    p = pct(lang, c.p_a_wins())
                )
            })
        })
        .collect();
    key.push(tr!(
        lang,
        "nephilim.duel.key_extra",
        malus = rules.action_malus,
        fatigue = m
            .fatigue_per_extra_action
            .unwrap_or(rules.extra_action_fatigue),
        a = md[0],
        b_actions = base_b,
        line = line.join(", ")
    ));
    let n2 = |x: f64| lang.num(x, 2);
    key.push(tr!(
        lang,
        "nephilim.duel.key_rounds",
        mean = n2(mean_rounds(acc, m.max_rounds)),
        a = md[0],
        a_wounds = n2(frows[0].wounds),
        a_fatigue = n2(frows[0].fatigue),
        b = md[1],
        b_wounds = n2(frows[1].wounds),
        b_fatigue = n2(frows[1].fatigue)
    ));

    let outputs = vec![
        Output {
            name: "duel-outcome".into(),
            title: tr!(lang, "nephilim.duel.title_outcome", title = m.title),
            question: m.question.clone(),
            frame: outcome_frame,
            figures: vec![Figure::new(vec![Chart::Bars(outcome_chart)])],
            key_figures: key[..1].to_vec(),
            provenance: prov("duel-outcome", n),
        },
        Output {
            name: "duel-rounds".into(),
            title: tr!(lang, "nephilim.duel.title_rounds", title = m.title),
            question: tr!(lang, "nephilim.duel.question_rounds").into(),
            frame: rounds_frame,
            figures: vec![Figure::new(vec![Chart::Lines(rounds_chart)])],
            key_figures: key[3..].to_vec(),
            provenance: prov("duel-rounds", n),
        },
        Output {
            name: "duel-fighters".into(),
            title: tr!(lang, "nephilim.duel.title_fighters", title = m.title),
            question: tr!(lang, "nephilim.duel.question_fighters").into(),
            frame: fighters_frame,
            figures: vec![Figure::new(vec![Chart::Bars(fate_chart)])],
            key_figures: key[1..2].to_vec(),
            provenance: prov("duel-fighters", n),
        },
        Output {
            name: "duel-actions".into(),
            title: tr!(lang, "nephilim.duel.title_actions", title = m.title),
            question: tr!(lang, "nephilim.duel.question_actions").into(),
            frame: grid_frame,
            figures: vec![Figure::new(vec![Chart::Heatmap(heat)])],
            key_figures: key[2..3].to_vec(),
            provenance: prov("duel-actions", grid_trials).with_param("grid", "actions 1..3 x 1..3"),
        },
    ];

    let mut summary = tr!(
        lang,
        "nephilim.duel.summary_head",
        title = crate::report::md_text(&m.title),
        question = crate::report::md_text(&m.question),
        n
    );
    summary += &answer_list(&key);
    summary += tr!(lang, "nephilim.duel.summary_fighters");
    for r in &frows {
        summary += &format!(
            "| {} | {:+} | {} | {} ({}) | {} | {} | {} | {} | {} |\n",
            crate::report::md_text(&r.name),
            r.initiative,
            r.actions,
            pct(lang, r.earlier.p),
            pct(lang, r.earlier_exact),
            lang.num(r.hit_rate, 3),
            lang.num(r.defended, 3),
            pct(lang, r.dead),
            pct(lang, r.coma),
            pct(lang, r.unconscious)
        );
    }
    summary += &tr!(
        lang,
        "nephilim.duel.summary_grid",
        n = grid_trials,
        a = md[0],
        b = md[1]
    );
    for a in 1..=side as u8 {
        let cells: Vec<String> = (1..=side as u8)
            .map(|b| cell(a, b).map_or("-".into(), |c| pct(lang, c.p_a_wins())))
            .collect();
        summary += &format!("| {a} | {} |\n", cells.join(" | "));
    }
    summary += &crate::systems::trace::see_section(
        lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        super::trace::OUTCOMES.into_iter().zip(acc.outcomes.counts),
    );
    summary += tr!(lang, "nephilim.duel.summary_rules");
    summary += &tr!(
        lang,
        "nephilim.duel.provenance",
        provenance = outputs[0].provenance.summary(file.lang)
    );
    Ok(ScenarioResult::new(
        &m.title,
        &m.question,
        key,
        outputs,
        summary,
    ))
}
