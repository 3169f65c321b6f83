//! What a 2d20 combat run writes: who wins, how long fights last, each combatant's fate
//! and the AP flow of both pools; `summary.md` opens with the answers.

use polars::prelude::*;

use crate::context::Context;
use crate::report::{end_rounds, Output, Provenance};
use crate::report::{float_column, BarChart, BarSeries, Chart, Figure};
use crate::scenario::ScenarioFile;
use crate::stats::wilson;
use crate::systems::fallout::OPTIONS;
use crate::systems::ScenarioResult;

use super::model::{CombatModel, Side};
use super::sim::{CombatAcc, MJ_WINS, PLAYERS_WIN, UNDECIDED};

fn pct(p: f64) -> String {
    format!("{:.2}%", 100.0 * p)
}

fn rate(hits: u64, n: u64) -> (f64, f64, f64) {
    let (lo, hi) = wilson(hits, n);
    (hits as f64 / n as f64, lo, hi)
}

fn prov(name: &str, m: &CombatModel, file: &ScenarioFile, ctx: &Context, n: u64) -> Provenance {
    let mut p = Provenance::monte_carlo(
        name,
        "fallout",
        ctx.options.in_force(OPTIONS),
        ctx.engine.seed(),
        n,
    )
    .with_param("combatants", m.combatants.len())
    .with_param("max_rounds", m.max_rounds)
    .with_param("players_policy", m.policies[0].describe())
    .with_param("mj_policy", m.policies[1].describe())
    .with_param("injury_at", m.injury_at);
    p.scenario = Some(file.reference());
    p
}

/// Builds the outputs and summary of a finished run.
pub fn result(
    file: &ScenarioFile,
    m: &CombatModel,
    acc: &CombatAcc,
    ctx: &Context,
    n: u64,
) -> anyhow::Result<ScenarioResult> {
    let nf = n as f64;
    let ends = ["players_win", "mj_wins", "undecided"];
    let side_rates: Vec<(f64, f64, f64)> =
        (0..3).map(|k| rate(acc.outcomes.counts[k], n)).collect();
    let sides = DataFrame::new_infer_height(vec![
        Column::new("outcome".into(), ends.to_vec()),
        float_column("p", &side_rates, |r| r.0),
        float_column("p_lo", &side_rates, |r| r.1),
        float_column("p_hi", &side_rates, |r| r.2),
    ])?;
    let side_chart = BarChart {
        title: "How the firefight ends".into(),
        x_label: "outcome".into(),
        y_label: "probability".into(),
        categories: vec![
            "players win".into(),
            "MJ's side wins".into(),
            format!("undecided after {} rounds", m.max_rounds),
        ],
        series: vec![BarSeries {
            name: "P (95% interval)".into(),
            values: side_rates.iter().map(|r| r.0).collect(),
            intervals: side_rates.iter().map(|r| (r.1, r.2)).collect(),
        }],
        y_range: Some((0.0, 1.0)),
    };

    let rounds: Vec<(i64, u64)> = acc
        .rounds
        .iter()
        .filter(|(r, _)| *r <= m.max_rounds as i64)
        .collect();
    let (rounds_frame, rounds_chart) = end_rounds(rounds.iter().copied(), n, "fight")?;

    struct Row {
        name: String,
        side: &'static str,
        weapon: String,
        down: (f64, f64, f64),
        injured: f64,
        injuries: f64,
        attacks: f64,
        hit_rate: f64,
        p_hit_exact: f64,
        damage: f64,
        bonus: f64,
        extra: f64,
        stunned: f64,
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
                down: rate(f.down, n),
                injured: f.injured as f64 / nf,
                injuries: f.injuries as f64 / nf,
                attacks: f.attacks as f64 / nf,
                hit_rate: if f.attacks > 0 {
                    f.hits as f64 / f.attacks as f64
                } else {
                    0.0
                },
                p_hit_exact: c.p_hit[w.difficulty as usize][0],
                damage: f.damage_dealt as f64 / nf,
                bonus: if f.attacks > 0 {
                    f.bonus_dice as f64 / f.attacks as f64
                } else {
                    0.0
                },
                extra: if f.hits > 0 {
                    f.extra_cd as f64 / f.hits as f64
                } else {
                    0.0
                },
                stunned: f.stunned_turns as f64 / nf,
            }
        })
        .collect();
    let combatants = DataFrame::new_infer_height(vec![
        Column::new(
            "name".into(),
            rows.iter().map(|r| r.name.clone()).collect::<Vec<_>>(),
        ),
        Column::new(
            "side".into(),
            rows.iter().map(|r| r.side).collect::<Vec<_>>(),
        ),
        Column::new(
            "weapon".into(),
            rows.iter().map(|r| r.weapon.clone()).collect::<Vec<_>>(),
        ),
        float_column("p_down", &rows, |r| r.down.0),
        float_column("p_down_lo", &rows, |r| r.down.1),
        float_column("p_down_hi", &rows, |r| r.down.2),
        float_column("p_injured", &rows, |r| r.injured),
        float_column("mean_injuries", &rows, |r| r.injuries),
        float_column("attacks_per_fight", &rows, |r| r.attacks),
        float_column("hit_rate", &rows, |r| r.hit_rate),
        float_column("p_hit_2d20_exact", &rows, |r| r.p_hit_exact),
        float_column("damage_per_fight", &rows, |r| r.damage),
        float_column("bonus_d20_per_attack", &rows, |r| r.bonus),
        float_column("extra_cd_per_hit", &rows, |r| r.extra),
        float_column("turns_lost_to_stun", &rows, |r| r.stunned),
    ])?;
    let cats: Vec<String> = rows.iter().map(|r| r.name.clone()).collect();
    let down_chart = BarChart {
        title: "P(out of the fight) by combatant".into(),
        x_label: "combatant".into(),
        y_label: "P(down)".into(),
        categories: cats.clone(),
        series: vec![BarSeries {
            name: "P(down) (95% interval)".into(),
            values: rows.iter().map(|r| r.down.0).collect(),
            intervals: rows.iter().map(|r| (r.down.1, r.down.2)).collect(),
        }],
        // Fitted (from 0) so the upper legend gets headroom above bars near 1; players
        // come first in the shipped file and are rarely all down, so upper left.
        y_range: None,
    };
    let hit_chart = BarChart {
        title: "Hit rate per attack: in the fight vs 2d20 at base difficulty (exact)".into(),
        x_label: "combatant".into(),
        y_label: "P(hit)".into(),
        categories: cats,
        series: vec![
            BarSeries {
                name: "in the fight (bonus d20, injuries)".into(),
                values: rows.iter().map(|r| r.hit_rate).collect(),
                intervals: vec![],
            },
            BarSeries {
                name: "2d20, no injury (exact)".into(),
                values: rows.iter().map(|r| r.p_hit_exact).collect(),
                intervals: vec![],
            },
        ],
        y_range: Some((0.0, 1.0)),
    };

    let pools = &acc.pools;
    let ap_rows: Vec<(&str, [f64; 6])> = [("group", 0usize), ("mj", 1)]
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
    ];
    let mut cols = vec![Column::new(
        "pool".into(),
        ap_rows.iter().map(|r| r.0).collect::<Vec<_>>(),
    )];
    for (k, c) in ap_cols.iter().enumerate() {
        cols.push(float_column(&format!("mean_{c}"), &ap_rows, |r| r.1[k]));
    }
    let ap_frame = DataFrame::new_infer_height(cols)?;
    let ap_chart = BarChart {
        title: "AP flow per fight (means)".into(),
        x_label: "flow".into(),
        y_label: "AP per fight".into(),
        categories: ap_cols.iter().map(|c| c.replace('_', " ")).collect(),
        series: ap_rows
            .iter()
            .map(|(name, v)| BarSeries {
                name: format!("{name} pool"),
                values: v.to_vec(),
                intervals: vec![],
            })
            .collect(),
        y_range: None,
    };

    let mean_round = {
        let (s, c) = rounds
            .iter()
            .fold((0u64, 0u64), |(s, c), &(r, k)| (s + r as u64 * k, c + k));
        if c > 0 {
            s as f64 / c as f64
        } else {
            f64::NAN
        }
    };
    let median = acc.rounds.quantile(0.5).unwrap_or(0);
    let q90 = acc.rounds.quantile(0.9).unwrap_or(0);
    let [pw, mw, un] = [PLAYERS_WIN, MJ_WINS, UNDECIDED].map(|k| side_rates[k]);
    let mut key = vec![
        format!("the players win {} [{} – {}]; the MJ's side wins {} [{} – {}]; undecided after {} rounds {}", pct(pw.0), pct(pw.1), pct(pw.2), pct(mw.0), pct(mw.1), pct(mw.2), m.max_rounds, pct(un.0)),
        format!(
            "decided fights last {mean_round:.2} rounds on average; {}",
            if q90 <= m.max_rounds as i64 {
                format!("median {median}, 90% of fights end by round {q90}")
            } else {
                format!("more than 10% of fights are still undecided after {} rounds", m.max_rounds)
            }
        ),
    ];
    let most_at_risk = rows
        .iter()
        .filter(|r| r.side == Side::Players.name())
        .max_by(|a, b| a.down.0.total_cmp(&b.down.0));
    if let Some(r) = most_at_risk {
        key.push(format!(
            "most exposed player: {} goes down in {} [{} – {}] of fights",
            r.name,
            pct(r.down.0),
            pct(r.down.1),
            pct(r.down.2)
        ));
    }
    key.push(format!(
        "AP per fight: the group earns {:.2} (loses {:.2} to the cap of 6), spends {:.2} on d20 and {:.2} on extra damage; the MJ earns {:.2}, receives {:.2} from players and spends {:.2}",
        ap_rows[0].1[0], ap_rows[0].1[1], ap_rows[0].1[2], ap_rows[0].1[3], ap_rows[1].1[0], ap_rows[1].1[4], ap_rows[1].1[2] + ap_rows[1].1[3]
    ));

    let outputs = vec![
        Output {
            name: "combat-sides".into(),
            title: format!("{}: how it ends", m.title),
            question: m.question.clone(),
            frame: sides,
            figures: vec![Figure {
                suffix: None,
                panels: vec![Chart::Bars(side_chart)],
            }],
            key_figures: key[..1].to_vec(),
            provenance: prov("combat-sides", m, file, ctx, n),
        },
        Output {
            name: "combat-rounds".into(),
            title: format!("{}: rounds", m.title),
            question: "In which round does the fight end?".into(),
            frame: rounds_frame,
            figures: vec![Figure {
                suffix: None,
                panels: vec![Chart::Lines(rounds_chart)],
            }],
            key_figures: key[1..2].to_vec(),
            provenance: prov("combat-rounds", m, file, ctx, n),
        },
        Output {
            name: "combat-combatants".into(),
            title: format!("{}: combatants", m.title),
            question: "Who goes down, who is injured, how often does each hit?".into(),
            frame: combatants,
            figures: vec![Figure {
                suffix: None,
                panels: vec![Chart::Bars(down_chart), Chart::Bars(hit_chart)],
            }],
            key_figures: vec![],
            provenance: prov("combat-combatants", m, file, ctx, n),
        },
        Output {
            name: "combat-ap".into(),
            title: format!("{}: AP flow", m.title),
            question: "How do the group's and the MJ's AP pools flow during a fight?".into(),
            frame: ap_frame,
            figures: vec![Figure {
                suffix: None,
                panels: vec![Chart::Bars(ap_chart)],
            }],
            key_figures: key[key.len() - 1..].to_vec(),
            provenance: prov("combat-ap", m, file, ctx, n),
        },
    ];

    let mut summary = format!(
        "# {}\n\n**Question:** {}\n\n## Answers ({n} fights, 95% intervals)\n\n",
        m.title, m.question
    );
    for k in &key {
        summary += &format!("- {k}\n");
    }
    summary += &format!(
        "\nPolicies — players: {}; MJ: {}.\n\n## Combatants (turn order)\n\n| combatant | side | weapon | P(down) [95%] | P(injured) | hit rate | P(hit) 2d20 exact | damage dealt / fight |\n|---|---|---|---|---|---|---|---|\n",
        m.policies[0].describe(),
        m.policies[1].describe()
    );
    for r in &rows {
        summary += &format!(
            "| {} | {} | {} | {} [{} – {}] | {} | {:.3} | {:.3} | {:.2} |\n",
            r.name,
            r.side,
            r.weapon,
            pct(r.down.0),
            pct(r.down.1),
            pct(r.down.2),
            pct(r.injured),
            r.hit_rate,
            r.p_hit_exact,
            r.damage
        );
    }
    summary += "\nRules: F-TEST (attack test), F-AP (bonus d20, pools), F-CD (combat dice, extra damage). Files: `combat-sides`, `combat-rounds`, `combat-combatants`, `combat-ap` (.csv, .png, .meta.json).\n\n";
    summary += &format!("Provenance: {}\n", outputs[0].provenance.summary());
    Ok(ScenarioResult {
        title: m.title.clone(),
        question: m.question.clone(),
        key_figures: key,
        outputs,
        summary,
    })
}
