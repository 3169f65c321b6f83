//! What a 2d20 combat run writes: who wins, how long fights last, each combatant's fate
//! and the AP flow of both pools; `summary.md` opens with the answers.

use polars::prelude::*;

use crate::context::Context;
use crate::lang::Lang;
use crate::report::text_column;
use crate::report::{end_rounds, Output, Provenance};
use crate::report::{float_column, interval_columns, BarChart, BarSeries, Chart, Figure};
use crate::scenario::ScenarioFile;
use crate::stats::Proportion;
use crate::systems::fallout::OPTIONS;
use crate::systems::report_parts::{answer_list, mean_round, ratio, share_bars, shares};
use crate::systems::ScenarioResult;

use super::model::{CombatModel, Side};
use super::sim::{CombatAcc, MJ_WINS, PLAYERS_WIN, UNDECIDED};

fn pct(lang: Lang, p: f64) -> String {
    lang.pct(p, 2)
}

fn prov(name: &str, m: &CombatModel, file: &ScenarioFile, ctx: &Context, n: u64) -> Provenance {
    Provenance::monte_carlo(
        name,
        "fallout",
        ctx.options.in_force(OPTIONS),
        ctx.engine.seed(),
        n,
    )
    .with_param("combatants", m.combatants.len())
    .with_param("max_rounds", m.max_rounds)
    .with_param_text("players_policy", m.policies[0].describe(), |l| {
        m.policies[0].describe_text(l)
    })
    .with_param_text("mj_policy", m.policies[1].describe(), |l| {
        m.policies[1].describe_text(l)
    })
    .with_param("injury_at", m.injury_at)
    .with_scenario(file.reference())
}

/// Builds the outputs and summary of a finished run.
pub fn result(
    file: &ScenarioFile,
    m: &CombatModel,
    acc: &CombatAcc,
    ctx: &Context,
    n: u64,
) -> anyhow::Result<ScenarioResult> {
    let lang = ctx.lang;
    let nf = n as f64;
    let ends = super::trace::OUTCOMES;
    let side_rates = shares(&acc.outcomes.counts, n);
    // "after 1 round", not "after 1 rounds" (audit of 2026-12-07, afternoon).
    let after = if m.max_rounds == 1 {
        tr!(lang, "fallout.combat.after_one_round").to_string()
    } else {
        tr!(lang, "fallout.combat.after_rounds", rounds = m.max_rounds)
    };
    let mut sides = vec![Column::new("outcome".into(), ends.to_vec())];
    sides.extend(interval_columns("p", &side_rates, |&r| r));
    let sides = DataFrame::new_infer_height(sides)?;
    let side_chart = share_bars(
        [
            tr!(lang, "fallout.combat.sides_chart").into(),
            tr!(lang, "fallout.combat.outcome").into(),
            tr!(lang, "fallout.combat.probability").into(),
        ],
        vec![
            tr!(lang, "fallout.combat.players_win").into(),
            tr!(lang, "fallout.combat.mj_wins").into(),
            tr!(lang, "fallout.combat.undecided", after = &after),
        ],
        tr!(lang, "fallout.combat.p_interval"),
        &side_rates,
        |r| *r,
    );

    let rounds: Vec<(i64, u64)> = acc
        .rounds
        .iter()
        .filter(|(r, _)| *r <= m.max_rounds as i64)
        .collect();
    let (rounds_frame, rounds_chart) = end_rounds(
        rounds.iter().copied(),
        n,
        tr!(lang, "fallout.combat.rounds_what"),
        lang,
    )?;

    struct Row {
        name: String,
        side: &'static str,
        weapon: String,
        down: Proportion,
        injured: f64,
        injuries: f64,
        attacks: f64,
        hit_rate: f64,
        p_hit_exact: f64,
        damage: f64,
        bonus: f64,
        extra: f64,
        stunned: f64,
        complications: f64,
    }
    let rows: Vec<Row> = m
        .combatants
        .iter()
        .zip(&acc.fighters)
        .map(|(c, f)| {
            let w = &m.weapons[c.weapon];
            Row {
                name: c.name.clone(),
                side: c.side.name(),
                weapon: w.name.clone(),
                down: Proportion::new(f.down, n),
                injured: f.injured as f64 / nf,
                injuries: f.injuries as f64 / nf,
                attacks: f.attacks as f64 / nf,
                hit_rate: ratio(f.hits, f.attacks),
                p_hit_exact: c.p_hit[w.difficulty as usize][0],
                damage: f.damage_dealt as f64 / nf,
                bonus: ratio(f.bonus_dice, f.attacks),
                extra: ratio(f.extra_cd, f.hits),
                stunned: f.stunned_turns as f64 / nf,
                complications: f.complications as f64 / nf,
            }
        })
        .collect();
    let combatants = DataFrame::new_infer_height(
        [
            vec![
                text_column("name", &rows, |r| r.name.as_str()),
                text_column("side", &rows, |r| r.side),
                text_column("weapon", &rows, |r| r.weapon.as_str()),
            ],
            interval_columns("p_down", &rows, |r| r.down).into(),
            vec![
                float_column("p_injured", &rows, |r| r.injured),
                float_column("mean_injuries", &rows, |r| r.injuries),
                float_column("attacks_per_fight", &rows, |r| r.attacks),
                float_column("hit_rate", &rows, |r| r.hit_rate),
                float_column("p_hit_2d20_exact", &rows, |r| r.p_hit_exact),
                float_column("damage_per_fight", &rows, |r| r.damage),
                float_column("bonus_d20_per_attack", &rows, |r| r.bonus),
                float_column("extra_cd_per_hit", &rows, |r| r.extra),
                float_column("turns_lost_to_stun", &rows, |r| r.stunned),
                // Audit of 2026-12-07, afternoon: tallied, shown nowhere.
                float_column("complications_per_fight", &rows, |r| r.complications),
            ],
        ]
        .concat(),
    )?;
    let cats: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    let down_chart = BarChart {
        title: tr!(lang, "fallout.combat.down_chart").into(),
        x_label: tr!(lang, "fallout.combat.combatant").into(),
        y_label: tr!(lang, "fallout.combat.p_down").into(),
        categories: cats.clone(),
        series: vec![BarSeries::with_intervals(
            tr!(lang, "fallout.combat.p_down_interval"),
            &rows,
            |r| r.down,
        )],
        // Fitted (from 0) so the upper legend gets headroom above bars near 1; players
        // come first in the shipped file and are rarely all down, so upper left.
        y_range: None,
    };
    let hit_chart = BarChart {
        title: tr!(lang, "fallout.combat.hit_chart").into(),
        x_label: tr!(lang, "fallout.combat.combatant").into(),
        y_label: tr!(lang, "fallout.combat.p_hit").into(),
        categories: cats,
        series: vec![
            BarSeries::of(tr!(lang, "fallout.combat.hit_in_fight"), &rows, |r| {
                r.hit_rate
            }),
            BarSeries::of(tr!(lang, "fallout.combat.hit_exact"), &rows, |r| {
                r.p_hit_exact
            }),
        ],
        y_range: Some((0.0, 1.0)),
    };

    let pools = &acc.pools;
    // Audit of 2026-12-07, afternoon: the AP of second major and minor actions were
    // spent but shown nowhere, so the flow did not balance; appended, so the columns
    // before them stay where they were.
    let ap_rows: Vec<(&str, [f64; 8])> = [("group", 0usize), ("mj", 1)]
        .iter()
        .map(|&(name, s)| {
            let p = &pools[s];
            (
                name,
                [
                    p.earned,
                    p.lost,
                    p.spent_dice,
                    p.spent_damage,
                    p.gifted,
                    p.end_sum,
                    p.spent_actions,
                    p.spent_minor,
                ]
                .map(|v| v as f64 / nf),
            )
        })
        .collect();
    let ap_cols = [
        "earned",
        "lost_to_cap",
        "spent_on_d20",
        "spent_on_damage",
        "received_from_players",
        "end_pool",
        "spent_on_second_major",
        "spent_on_extra_minor",
    ];
    let mut cols = vec![text_column("pool", &ap_rows, |r| r.0)];
    for (k, c) in ap_cols.iter().enumerate() {
        cols.push(float_column(&format!("mean_{c}"), &ap_rows, |r| r.1[k]));
    }
    let ap_frame = DataFrame::new_infer_height(cols)?;
    let ap_chart = BarChart {
        title: tr!(lang, "fallout.combat.ap_chart").into(),
        x_label: tr!(lang, "fallout.combat.flow").into(),
        y_label: tr!(lang, "fallout.combat.ap_per_fight").into(),
        categories: [
            tr!(lang, "fallout.combat.flow_earned"),
            tr!(lang, "fallout.combat.flow_lost"),
            tr!(lang, "fallout.combat.flow_dice"),
            tr!(lang, "fallout.combat.flow_damage"),
            tr!(lang, "fallout.combat.flow_received"),
            tr!(lang, "fallout.combat.flow_end"),
            tr!(lang, "fallout.combat.flow_major"),
            tr!(lang, "fallout.combat.flow_minor"),
        ]
        .map(String::from)
        .to_vec(),
        series: ap_rows
            .iter()
            .map(|(name, v)| BarSeries {
                name: if *name == "group" {
                    tr!(lang, "fallout.combat.group_pool").into()
                } else {
                    tr!(lang, "fallout.combat.mj_pool").into()
                },
                values: v.to_vec(),
                intervals: vec![],
            })
            .collect(),
        y_range: None,
    };

    let mean_round = mean_round(rounds.iter().copied());
    let median = acc.rounds.quantile(0.5).unwrap_or(0);
    let q90 = acc.rounds.quantile(0.9).unwrap_or(0);
    let [pw, mw, un] = [PLAYERS_WIN, MJ_WINS, UNDECIDED].map(|k| side_rates[k]);
    let mut key = vec![
        tr!(
            lang,
            "fallout.combat.key_sides",
            pw = pct(lang, pw.p),
            pw_lo = pct(lang, pw.lo),
            pw_hi = pct(lang, pw.hi),
            mw = pct(lang, mw.p),
            mw_lo = pct(lang, mw.lo),
            mw_hi = pct(lang, mw.hi),
            after = &after,
            un = pct(lang, un.p)
        ),
        // No decided fight has no mean length (audit of 2026-12-07, afternoon: "NaN").
        if acc.outcomes.counts[UNDECIDED] == n {
            tr!(lang, "fallout.combat.key_none_decided", after = &after)
        } else {
            tr!(
                lang,
                "fallout.combat.key_rounds",
                mean = lang.num(mean_round, 2),
                rest = if q90 <= m.max_rounds as i64 {
                    tr!(lang, "fallout.combat.key_median", median, q90)
                } else {
                    tr!(lang, "fallout.combat.key_undecided", after = &after)
                }
            )
        },
    ];
    let most_at_risk = rows
        .iter()
        .filter(|r| r.side == Side::Players.name())
        .max_by(|a, b| a.down.p.total_cmp(&b.down.p));
    if let Some(r) = most_at_risk {
        key.push(tr!(
            lang,
            "fallout.combat.key_exposed",
            name = crate::report::md_text(&r.name),
            p = pct(lang, r.down.p),
            lo = pct(lang, r.down.lo),
            hi = pct(lang, r.down.hi)
        ));
    }
    let ap = |x: f64| lang.num(x, 2);
    key.push(tr!(
        lang,
        "fallout.combat.key_ap",
        earned = ap(ap_rows[0].1[0]),
        lost = ap(ap_rows[0].1[1]),
        dice = ap(ap_rows[0].1[2]),
        damage = ap(ap_rows[0].1[3]),
        actions = ap(ap_rows[0].1[6] + ap_rows[0].1[7]),
        mj_earned = ap(ap_rows[1].1[0]),
        mj_received = ap(ap_rows[1].1[4]),
        mj_spent = ap(ap_rows[1].1[2] + ap_rows[1].1[3] + ap_rows[1].1[6] + ap_rows[1].1[7])
    ));

    let outputs = vec![
        Output {
            name: "combat-sides".into(),
            title: tr!(lang, "fallout.combat.title_sides", title = m.title),
            question: m.question.clone(),
            frame: sides,
            figures: vec![Figure::new(vec![Chart::Bars(side_chart)])],
            key_figures: key[..1].to_vec(),
            provenance: prov("combat-sides", m, file, ctx, n),
        },
        Output {
            name: "combat-rounds".into(),
            title: tr!(lang, "fallout.combat.title_rounds", title = m.title),
            question: tr!(lang, "fallout.combat.question_rounds").into(),
            frame: rounds_frame,
            figures: vec![Figure::new(vec![Chart::Lines(rounds_chart)])],
            key_figures: key[1..2].to_vec(),
            provenance: prov("combat-rounds", m, file, ctx, n),
        },
        Output {
            name: "combat-combatants".into(),
            title: tr!(lang, "fallout.combat.title_combatants", title = m.title),
            question: tr!(lang, "fallout.combat.question_combatants").into(),
            frame: combatants,
            figures: vec![Figure::new(vec![
                Chart::Bars(down_chart),
                Chart::Bars(hit_chart),
            ])],
            key_figures: vec![],
            provenance: prov("combat-combatants", m, file, ctx, n),
        },
        Output {
            name: "combat-ap".into(),
            title: tr!(lang, "fallout.combat.title_ap", title = m.title),
            question: tr!(lang, "fallout.combat.question_ap").into(),
            frame: ap_frame,
            figures: vec![Figure::new(vec![Chart::Bars(ap_chart)])],
            key_figures: key[key.len() - 1..].to_vec(),
            provenance: prov("combat-ap", m, file, ctx, n),
        },
    ];

    let mut summary = tr!(
        lang,
        "fallout.combat.summary_head",
        title = crate::report::md_text(&m.title),
        question = crate::report::md_text(&m.question),
        n
    );
    summary += &answer_list(&key);
    summary += &tr!(
        lang,
        "fallout.combat.summary_policies",
        players = m.policies[0].describe_text(lang),
        mj = m.policies[1].describe_text(lang)
    );
    summary += tr!(lang, "fallout.combat.summary_table");
    for r in &rows {
        summary += &format!(
            "| {} | {} | {} | {} [{} – {}] | {} | {} | {} | {} |\n",
            crate::report::md_text(&r.name),
            r.side,
            crate::report::md_text(&r.weapon),
            pct(lang, r.down.p),
            pct(lang, r.down.lo),
            pct(lang, r.down.hi),
            pct(lang, r.injured),
            lang.num(r.hit_rate, 3),
            lang.num(r.p_hit_exact, 3),
            lang.num(r.damage, 2)
        );
    }
    summary += &crate::systems::trace::see_section(
        lang,
        &file.path.display().to_string(),
        ctx.engine.seed(),
        super::trace::OUTCOMES.into_iter().zip(acc.outcomes.counts),
    );
    summary += tr!(lang, "fallout.combat.summary_rules");
    summary += &tr!(
        lang,
        "fallout.common.provenance",
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
