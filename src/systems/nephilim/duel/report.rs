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

use super::acc::{DuelAcc, A_WINS, BOTH_OUT, B_WINS, UNDECIDED};
use super::model::{Delay, DuelModel, ACTIONS_MAX};
use super::sim::DuelSim;

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

/// Round 1 of each fighter by N-INIT, exact: the odds its initiative roll puts it in an
/// earlier segment than the opponent's, at the initiatives the duel rolls with (starting
/// fatigue and options in force, [`DuelSim::round1_initiatives`]), and the odds it acts
/// first once the delays are made, the duel's `earlier_round1`, when the roll's odds are
/// those. They are not for a fighter delaying `to_meet` that can roll earlier: it then
/// waits for its opponent's segment (never `None` otherwise: delaying into round 2 is only
/// done from a later segment, and a `to_meet` opponent only delays from an earlier one).
pub(super) fn round1_exact(sim: &DuelSim, rules: &NephilimRules) -> [(f64, Option<f64>); 2] {
    let init = sim.round1_initiatives();
    [0, 1].map(|i| {
        let roll = p_earlier_segment(init[i] - init[1 - i], rules);
        let waits = sim.model.fighters[i].delay == Delay::ToMeet && roll > 0.0;
        (roll, (!waits).then_some(roll))
    })
}

/// The `[duel]` settings that change the numbers, off the book: the difficulty, the
/// margin switched off, and fatigue boxes per extra action whenever the file gives them
/// (they win over the option `nephilim_extra_action_cost`, which the options list shows).
/// At the book's values nothing is added, so those runs keep their bytes (audit of
/// 2026-12-07).
fn duel_settings(mut p: Provenance, m: &DuelModel) -> Provenance {
    if m.attack_difficulty != 0 {
        p = p.with_param("attack_difficulty", m.attack_difficulty);
    }
    if !m.margin_damage {
        p = p.with_param("margin_damage", false);
    }
    if let Some(x) = m.fatigue_per_extra_action {
        p = p.with_param("fatigue_per_extra_action", x);
    }
    p
}

/// `A vs B` (`A contre B`): the fighters or their actions, as provenance shows them.
fn vs(lang: Lang, a: impl std::fmt::Display, b: impl std::fmt::Display) -> String {
    tr!(lang, "params.versus", a, b)
}

#[allow(clippy::too_many_arguments)]
pub fn result(
    file: &ScenarioFile,
    sim: &DuelSim,
    rules: &NephilimRules,
    acc: &DuelAcc,
    grid: &[GridCell],
    ctx: &Context,
    n: u64,
    grid_trials: u64,
) -> anyhow::Result<ScenarioResult> {
    let lang = ctx.lang;
    let m: &DuelModel = &sim.model;
    let nf = n as f64;
    let names = [m.fighters[0].name.clone(), m.fighters[1].name.clone()];
    // The names as Markdown text, for the key figures and `summary.md` (the CSVs, charts
    // and provenance keep them as typed).
    let md = names.each_ref().map(|n| crate::report::md_text(n));
    let prov = |name: &str, trials: u64| {
        let p = Provenance::monte_carlo(
            name,
            "nephilim",
            crate::systems::nephilim::in_force_duel(&ctx.options),
            ctx.engine.seed(),
            trials,
        )
        .with_param_text("fighters", vs(Lang::En, &names[0], &names[1]), |l| {
            vs(l, &names[0], &names[1])
        })
        .with_param_text(
            "actions",
            vs(Lang::En, m.fighters[0].actions, m.fighters[1].actions),
            |l| vs(l, m.fighters[0].actions, m.fighters[1].actions),
        )
        .with_param("max_rounds", m.max_rounds)
        .with_scenario(file.reference());
        duel_settings(p, m)
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
        /// The N-INIT odds of the initiative roll, and the exact `earlier` when they are it.
        earlier_roll: f64,
        earlier_exact: Option<f64>,
        hit_rate: f64,
        defended: f64,
        wounds: f64,
        fatigue: f64,
        dead: f64,
        coma: f64,
        unconscious: f64,
    }
    let exact = round1_exact(sim, rules);
    let frows: Vec<FRow> = (0..2)
        .map(|i| {
            let f = &m.fighters[i];
            let a = &acc.fighters[i];
            FRow {
                name: f.name.clone(),
                initiative: f.initiative,
                actions: f.actions as i64,
                earlier: Proportion::new(a.earlier_round1, n),
                earlier_roll: exact[i].0,
                earlier_exact: exact[i].1,
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
                // Empty where no exact value is the figure (NaN, `undefined_as_empty`).
                float_column("p_earlier_segment_exact", &frows, |r| {
                    r.earlier_exact.unwrap_or(f64::NAN)
                }),
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

    // The answers: the faster fighter by the round-1 initiatives the duel rolls with (the
    // scores after the starting fatigue and, under `nephilim_wounds_on_initiative`, wound
    // maluses); "equally fast" on a tie (audit of 2026-12-08: by the scores it named A
    // faster at +1 against +1 when A rolled at -2 against +0).
    let init = sim.round1_initiatives();
    let scores = [m.fighters[0].initiative, m.fighters[1].initiative];
    let fast = usize::from(init[1] > init[0]);
    let slow = 1 - fast;
    let win_idx = [A_WINS, B_WINS];
    let fr = rates[win_idx[fast]];
    let after = if init == scores {
        String::new()
    } else {
        tr_fill!(
            if sim.wounds_on_initiative {
                tr!(lang, "nephilim.duel.key_after_maluses")
            } else {
                tr!(lang, "nephilim.duel.key_after_fatigue")
            },
            score_fast = format!("{:+}", scores[fast]),
            score_slow = format!("{:+}", scores[slow])
        )
    };
    let mut key = vec![tr_fill!(
        if init[0] == init[1] {
            tr!(lang, "nephilim.duel.key_equal")
        } else {
            tr!(lang, "nephilim.duel.key_fast")
        },
        fast = md[fast],
        init_fast = format!("{:+}", init[fast]),
        init_slow = format!("{:+}", init[slow]),
        after = after,
        p = pct(lang, fr.p),
        lo = pct(lang, fr.lo),
        hi = pct(lang, fr.hi),
        slow = md[slow],
        p_slow = pct(lang, rates[win_idx[slow]].p),
        both = pct(lang, rates[BOTH_OUT].p),
        undecided = pct(lang, rates[UNDECIDED].p)
    )];
    let ff = &frows[fast];
    let mut earlier = match ff.earlier_exact {
        Some(x) => tr!(
            lang,
            "nephilim.duel.key_earlier",
            fast = md[fast],
            slow = md[slow],
            p = pct(lang, ff.earlier.p),
            lo = pct(lang, ff.earlier.lo),
            hi = pct(lang, ff.earlier.hi),
            exact = pct(lang, x)
        ),
        None => tr!(
            lang,
            "nephilim.duel.key_earlier_waits",
            fast = md[fast],
            slow = md[slow],
            p = pct(lang, ff.earlier.p),
            lo = pct(lang, ff.earlier.lo),
            hi = pct(lang, ff.earlier.hi),
            roll = pct(lang, ff.earlier_roll)
        ),
    };
    // The initiatives the exact value is taken at, said when they are not the scores.
    if init != scores {
        earlier += &tr_fill!(
            if sim.wounds_on_initiative {
                tr!(lang, "nephilim.duel.key_earlier_maluses")
            } else {
                tr!(lang, "nephilim.duel.key_earlier_fatigue")
            },
            fast = md[fast],
            slow = md[slow],
            init_fast = format!("{:+}", init[fast]),
            init_slow = format!("{:+}", init[slow])
        );
    }
    key.push(earlier);
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
            r.earlier_exact.map_or_else(
                || tr!(lang, "nephilim.duel.no_exact").into(),
                |x| pct(lang, x)
            ),
            lang.num(r.hit_rate, 3),
            lang.num(r.defended, 3),
            pct(lang, r.dead),
            pct(lang, r.coma),
            pct(lang, r.unconscious)
        );
    }
    for r in frows.iter().filter(|r| r.earlier_exact.is_none()) {
        summary += &tr!(
            lang,
            "nephilim.duel.summary_waits",
            name = crate::report::md_text(&r.name),
            roll = pct(lang, r.earlier_roll)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ScenarioFile;

    /// N-INIT at the initiatives the duel rolls with (audit of 2026-12-06): the shipped
    /// Fencer (+4) at fatigue 3 (N-HEALTH malus 2) against the Brawler (+0) is earlier iff
    /// the two rolls' difference W >= 4, 116/1296 by hand, the Brawler iff W >= 8, 1/1296.
    /// The Brawler delays to meet the Fencer: its roll's odds are not who acts first.
    #[test]
    fn round1_exact_at_the_rolled_initiatives() {
        let text = include_str!("../../../../scenarios/nephilim/duel.toml").replacen(
            "ka = 1\n",
            "ka = 1\nfatigue = 3\n",
            1,
        );
        let file = ScenarioFile::from_text("duel.toml", &text, Lang::En);
        let (_, model) = super::super::load(&file).unwrap();
        let rules = NephilimRules::default();
        let sim = DuelSim::new(model, &rules, [1, 1]);
        assert_eq!(sim.round1_initiatives(), [2, 0]);
        let [(f, f_exact), (b, b_exact)] = round1_exact(&sim, &rules);
        assert!(
            (f - 116.0 / 1296.0).abs() < 1e-15 && f_exact == Some(f),
            "{f}"
        );
        assert!((b - 1.0 / 1296.0).abs() < 1e-15 && b_exact.is_none(), "{b}");
    }
}
