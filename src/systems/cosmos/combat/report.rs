//! What a combat run writes: `summary.md` (answers first) and four tables with charts
//! and provenance (C-LD-7).

use std::collections::BTreeMap;

use polars::prelude::*;

use crate::context::Context;
use crate::lang::Lang;
use crate::report::{
    interval_columns, BarChart, BarSeries, Chart, Figure, LineChart, LineSeries, Output, Provenance,
};
use crate::scenario::ScenarioFile;
use crate::stats::Proportion;
use crate::systems::ScenarioResult;

use super::acc::{CombatAcc, POSTURE_NAMES};
use super::scenario::{OutputTable, RawScenario};
use super::sim::CombatSim;

use super::headline::{aura_in_play, headline};
pub(super) use super::headline::{pct, rate_text};
use super::posture_report::posture_label;

/// Rule options in force that matter to a combat (test, karma and combat options).
pub fn options_in_force(ctx: &Context) -> BTreeMap<String, String> {
    let mut m = ctx.options.in_force(crate::systems::cosmos::OPTIONS);
    m.extend(super::options::listed(&ctx.options));
    m
}

fn provenance_base(name: &str, file: &ScenarioFile, ctx: &Context, trials: u64) -> Provenance {
    let mut p = Provenance::monte_carlo(
        name,
        "cosmos",
        options_in_force(ctx),
        ctx.engine.seed(),
        trials,
    )
    .with_param("kind", "combat");
    p.scenario = Some(file.reference());
    p
}

pub fn result(
    file: &ScenarioFile,
    raw: &RawScenario,
    sim: &CombatSim,
    acc: &CombatAcc,
    ctx: &Context,
    trials: u64,
) -> anyhow::Result<ScenarioResult> {
    let m = &sim.model;
    let n = acc.combats;
    let h = headline(sim, acc);
    if n > 0 && acc.outcome[m.sides.len() + 1] == n {
        file.warn_at(
            &["combat", "max_rounds"],
            "combat.max_rounds",
            &tr!(
                ctx.lang,
                "combat.report.all_capped",
                n,
                rounds = m.max_rounds
            ),
        );
    }
    let aura_on = aura_in_play(sim);
    // With aura in play the edition and the aura option are part of the provenance.
    let provenance = |name: &str, file: &ScenarioFile, ctx: &Context, trials: u64| {
        let mut p = provenance_base(name, file, ctx, trials);
        if aura_on {
            p.rule_options
                .extend(super::aura_report::options(sim, &ctx.options));
            p = p.with_param("edition", m.edition.name());
        }
        p
    };
    let wanted = raw.outputs.tables.clone().unwrap_or(vec![
        OutputTable::Sides,
        OutputTable::Postures,
        OutputTable::Rounds,
        OutputTable::Karma,
    ]);
    let mut outputs = Vec::new();

    // Per-side outcomes.
    let mut labels: Vec<String> = m.sides.clone();
    labels.push("nobody_standing".into());
    labels.push("round_cap".into());
    let mean_rounds_of: Vec<f64> = (0..labels.len())
        .map(|o| {
            let row = &acc.outcome_rounds[o * acc.rounds.len()..(o + 1) * acc.rounds.len()];
            let c: u64 = row.iter().sum();
            let s: u64 = row.iter().enumerate().map(|(r, x)| r as u64 * x).sum();
            if c == 0 {
                0.0
            } else {
                s as f64 / c as f64
            }
        })
        .collect();
    let mut side_cols = vec![
        Column::new("outcome".into(), labels.clone()),
        Column::new("combats".into(), vec![n; labels.len()]),
        Column::new("count".into(), acc.outcome.clone()),
    ];
    side_cols.extend(interval_columns("share", &acc.outcome, |&c| {
        Proportion::new(c, n)
    }));
    side_cols.push(Column::new("mean_rounds".into(), mean_rounds_of));
    if aura_on {
        side_cols.extend(super::aura_report::side_columns(sim, acc, labels.len()));
    }
    let frame = DataFrame::new_infer_height(side_cols)?;
    let mut by_round = LineChart {
        title: tr!(ctx.lang, "combat.report.by_round_title").into(),
        x_label: tr!(ctx.lang, "combat.report.round_axis").into(),
        y_label: tr!(ctx.lang, "combat.report.cumulative_share").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    for (o, label) in labels.iter().enumerate().take(m.sides.len() + 1) {
        let row = &acc.outcome_rounds[o * acc.rounds.len()..(o + 1) * acc.rounds.len()];
        let mut cum = 0;
        let mut s = LineSeries {
            // `nobody_standing` is a CSV value; the legend says it in words.
            name: if o == m.sides.len() {
                tr!(ctx.lang, "combat.report.nobody_label").to_string()
            } else {
                label.clone()
            },
            ..Default::default()
        };
        for (r, c) in row.iter().enumerate().skip(1) {
            cum += c;
            s.points.push((r as f64, cum as f64 / n.max(1) as f64));
        }
        by_round.series.push(s);
    }
    let side_keys: Vec<String> = h
        .win
        .iter()
        .map(|(s, r)| match s.as_str() {
            "nobody_standing" => tr!(
                ctx.lang,
                "combat.report.nobody_standing",
                p = pct(r.p, ctx.lang),
                lo = pct(r.lo, ctx.lang),
                hi = pct(r.hi, ctx.lang)
            ),
            _ => tr!(
                ctx.lang,
                "combat.report.side_wins",
                side = crate::report::md_text(s),
                p = pct(r.p, ctx.lang),
                lo = pct(r.lo, ctx.lang),
                hi = pct(r.hi, ctx.lang)
            ),
        })
        .collect();
    if wanted.contains(&OutputTable::Sides) {
        outputs.push(Output {
            name: "combat-sides".into(),
            title: tr!(ctx.lang, "combat.report.sides_title").into(),
            question: tr!(ctx.lang, "combat.report.sides_question").into(),
            frame,
            figures: vec![Figure {
                suffix: None,
                panels: vec![Chart::Lines(by_round)],
            }],
            key_figures: side_keys.clone(),
            provenance: provenance("combat-sides", file, ctx, trials),
        });
    }

    if wanted.contains(&OutputTable::Postures) {
        let (frame, rates) = super::posture_report::table(m, acc, ctx.lang)?;
        outputs.push(Output {
            name: "combat-postures".into(),
            title: tr!(ctx.lang, "combat.report.postures_title").into(),
            question: tr!(ctx.lang, "combat.report.postures_question").into(),
            frame,
            figures: vec![Figure {
                suffix: None,
                panels: rates,
            }],
            key_figures: vec![tr!(
                ctx.lang,
                "combat.report.apocalypse_per_dark_key",
                rate = fmt3(h.apocalypse_per_dark, ctx.lang)
            )],
            provenance: provenance("combat-postures", file, ctx, trials),
        });
    }

    // Rounds distribution.
    let rounds: Vec<u32> = (1..acc.rounds.len() as u32).collect();
    let cnt: Vec<u64> = acc.rounds[1..].to_vec();
    let share: Vec<f64> = cnt.iter().map(|&c| c as f64 / n.max(1) as f64).collect();
    let mut cum = 0.0;
    let cumulative: Vec<f64> = share
        .iter()
        .map(|s| {
            cum += s;
            cum
        })
        .collect();
    let hist = BarChart {
        title: tr!(ctx.lang, "combat.report.rounds_chart").into(),
        x_label: tr!(ctx.lang, "combat.report.rounds_axis").into(),
        y_label: tr!(ctx.lang, "combat.report.share_of_combats").into(),
        categories: rounds.iter().map(|r| r.to_string()).collect(),
        series: vec![BarSeries {
            name: String::new(),
            values: share.clone(),
            intervals: vec![],
        }],
        ..Default::default()
    };
    let frame = DataFrame::new_infer_height(vec![
        Column::new("rounds".into(), rounds.clone()),
        Column::new("combats".into(), cnt),
        Column::new("share".into(), share),
        Column::new("cumulative".into(), cumulative),
    ])?;
    let rounds_key = tr!(
        ctx.lang,
        "combat.report.rounds_key",
        mean = ctx.lang.num(h.mean_rounds, 2),
        median = acc.rounds_quantile(0.5),
        p90 = acc.rounds_quantile(0.9),
        cap = m.max_rounds,
        rate = fmt3(h.round_cap, ctx.lang)
    );
    if wanted.contains(&OutputTable::Rounds) {
        outputs.push(Output {
            name: "combat-rounds".into(),
            title: tr!(ctx.lang, "combat.report.rounds_title").into(),
            question: tr!(ctx.lang, "combat.report.rounds_question").into(),
            frame,
            figures: vec![Figure {
                suffix: None,
                panels: vec![Chart::Bars(hist)],
            }],
            key_figures: vec![rounds_key.clone()],
            provenance: provenance("combat-rounds", file, ctx, trials),
        });
    }

    // Karma at combat end.
    let (mut who, mut karma, mut kc, mut ks) = (vec![], vec![], vec![], vec![]);
    let mut kchart = LineChart {
        title: tr!(ctx.lang, "combat.report.karma_title").into(),
        x_label: tr!(ctx.lang, "combat.report.karma_axis").into(),
        y_label: tr!(ctx.lang, "combat.report.share_of_combats").into(),
        ..Default::default()
    };
    let mut karma_means = Vec::new();
    for (f, fighter) in m.fighters.iter().enumerate() {
        let mut s = LineSeries {
            name: fighter.name.clone(),
            ..Default::default()
        };
        let mut sum = 0.0;
        for (i, &c) in acc.fighters[f].karma_end.iter().enumerate() {
            let k = i as i64 - 10;
            let sh = c as f64 / n.max(1) as f64;
            who.push(fighter.name.clone());
            karma.push(k);
            kc.push(c);
            ks.push(sh);
            s.points.push((k as f64, sh));
            sum += k as f64 * sh;
        }
        karma_means.push(tr!(
            ctx.lang,
            "combat.report.karma_mean",
            name = crate::report::md_text(&fighter.name),
            mean = ctx.lang.signed(sum, 2),
            start = format!("{:+}", fighter.karma)
        ));
        kchart.series.push(s);
    }
    let frame = DataFrame::new_infer_height(vec![
        Column::new("combatant".into(), who),
        Column::new("karma".into(), karma),
        Column::new("combats".into(), kc),
        Column::new("share".into(), ks),
    ])?;
    if wanted.contains(&OutputTable::Karma) {
        outputs.push(Output {
            name: "combat-karma".into(),
            title: tr!(ctx.lang, "combat.report.karma_title").into(),
            question: tr!(ctx.lang, "combat.report.karma_question").into(),
            frame,
            figures: vec![Figure {
                suffix: None,
                panels: vec![Chart::Lines(kchart)],
            }],
            key_figures: vec![tr!(
                ctx.lang,
                "combat.report.karma_key",
                means = karma_means.join(", ")
            )],
            provenance: provenance("combat-karma", file, ctx, trials),
        });
    }

    // Every combatant (always written: it adds a file, and changes none).
    let down: Vec<_> = acc
        .fighters
        .iter()
        .map(|a| Proportion::new(a.down, n))
        .collect();
    outputs.push(Output {
        name: "combat-combatants".into(),
        title: tr!(ctx.lang, "combat.report.combatants_title").into(),
        question: tr!(ctx.lang, "combat.report.combatants_question").into(),
        frame: super::combatants::frame(sim, acc)?,
        figures: vec![Figure {
            suffix: None,
            panels: vec![Chart::Bars(BarChart {
                title: tr!(ctx.lang, "combat.report.down_chart").into(),
                x_label: tr!(ctx.lang, "combat.report.combatant_axis").into(),
                y_label: tr!(ctx.lang, "combat.report.share_of_combats").into(),
                categories: m.fighters.iter().map(|f| f.name.clone()).collect(),
                series: vec![BarSeries {
                    name: tr!(ctx.lang, "combat.report.p_down").into(),
                    values: down.iter().map(|p| p.p).collect(),
                    intervals: down.iter().map(|p| (p.lo, p.hi)).collect(),
                }],
                y_range: Some((0.0, 1.0)),
            })],
        }],
        key_figures: vec![super::combatants::answer(sim, acc, ctx.lang)],
        provenance: provenance("combat-combatants", file, ctx, trials),
    });
    if m.fatigue.on {
        outputs.push(super::fatigue_report::output(
            sim,
            acc,
            provenance("combat-fatigue", file, ctx, trials),
            ctx.lang,
        )?);
    }

    // Summary: answers first.
    let sep = acc.sepulcrale();
    let ill = acc.illumination();
    let mut key = side_keys.clone();
    key.push(rounds_key.clone());
    key.push(tr!(
        ctx.lang,
        "combat.report.apocalypse_fired_per_dark",
        rate = rate_text(sep.apocalypse, sep.entered, ctx.lang)
    ));
    let mc = h.apocalypse_per_combat;
    key.push(if sep.entered == 0 {
        // No trial could show a spread, so the interval would bound nothing; what the
        // trials do say is plain (the Apocalypse comes only from a Sépulcrale, C-LD-4).
        tr!(ctx.lang, "combat.report.apocalypse_never", combats = n)
    } else {
        tr!(
            ctx.lang,
            "combat.report.apocalypse_per_combat",
            mean = ctx.lang.num(mc.value, 4),
            lo = ctx.lang.num(mc.lo, 4),
            hi = ctx.lang.num(mc.hi, 4),
            rate = rate_text(acc.apocalypse_combats, n, ctx.lang)
        ) + ctx.lang.no_spread(mc.lo, mc.hi)
    });
    key.push(tr!(
        ctx.lang,
        "combat.report.revive_per_dark",
        rate = rate_text(sep.revive, sep.entered, ctx.lang)
    ));
    key.push(tr!(
        ctx.lang,
        "combat.report.backlash_per_posture",
        sepulchral = rate_text(sep.backlash, sep.entered, ctx.lang),
        illumination = rate_text(ill.backlash, ill.entered, ctx.lang)
    ));
    if aura_on {
        key.push(super::aura_report::answer(sim, acc, ctx.lang));
    }
    if m.fatigue.on {
        key.push(super::fatigue_report::answer(sim, acc, ctx.lang));
    }
    key.push(super::combatants::answer(sim, acc, ctx.lang));
    if !m.support.is_empty() {
        key.push(super::support_report::answer(sim, acc, ctx.lang));
    }
    let mut s = format!(
        "# {}\n\n{}\n\n## {}\n\n",
        crate::report::md_text(&m.title),
        crate::report::md_text(&m.question),
        tr!(ctx.lang, "combat.report.answers", n)
    );
    for k in &key {
        s += &format!("- {k}\n");
    }
    s += tr!(ctx.lang, "combat.report.postures_ended_section");
    for (name, c) in [("Sépulcrale", sep), ("Illumination", ill)] {
        s += &format!("| {name} | {} |", c.entered);
        for e in c.ends {
            let share = if c.entered == 0 {
                f64::NAN
            } else {
                e as f64 / c.entered as f64
            };
            s += &format!(" {} ({e}) |", pct(share, ctx.lang));
        }
        s += "\n";
    }
    s += tr!(ctx.lang, "combat.report.per_combatant_section");
    for (f, fighter) in m.fighters.iter().enumerate() {
        let a = &acc.fighters[f];
        for k in 0..POSTURE_NAMES.len() {
            let name = posture_label(k, ctx.lang);
            let c = a.posture[k];
            let uses = if k == 0 {
                fighter.spends_light()
            } else {
                fighter.spends_dark()
            };
            if c.entered == 0 && !uses {
                continue;
            }
            s += &format!(
                "| {} | {} | {} | {name} | {} | {} | {} | {} | {} |\n",
                crate::report::md_text(&fighter.name),
                crate::report::md_text(&m.sides[fighter.side]),
                fighter.level,
                ctx.lang.num(c.entered as f64 / n.max(1) as f64, 3),
                if k == 1 {
                    rate_text(c.apocalypse, c.entered, ctx.lang)
                } else {
                    "–".into()
                },
                if k == 1 {
                    rate_text(c.revive, c.entered, ctx.lang)
                } else {
                    "–".into()
                },
                rate_text(c.backlash, c.entered, ctx.lang),
                pct(a.down as f64 / n.max(1) as f64, ctx.lang),
            );
        }
    }
    s += &super::combatants::section(sim, acc, ctx.lang);
    if m.fatigue.on {
        s += &super::fatigue_report::section(sim, acc, ctx.lang);
    }
    if !m.support.is_empty() {
        s += &super::support_report::section(sim, acc, ctx.lang);
    }
    if aura_on {
        s += &super::aura_report::table(sim, acc, ctx.lang);
    }
    s += &format!(
        "\n## {}\n\n{}\n",
        tr!(ctx.lang, "combat.report.karma_title"),
        karma_means.join(tr!(ctx.lang, "combat.report.list_sep"))
    );
    s += &see_a_fight(file, ctx.engine.seed(), sim, acc);
    s += &super::settings::summary_section(m, ctx.lang);
    s += tr!(ctx.lang, "combat.report.reading_notes");
    s += &format!(
        "\n## {}\n\n{}\n",
        tr!(ctx.lang, "combat.report.provenance"),
        provenance("summary", file, ctx, trials).summary(ctx.lang)
    );
    Ok(ScenarioResult::new(&m.title, &m.question, key, outputs, s))
}

/// Issue 27: for each outcome that happened (and Apocalypse), the command that replays
/// an example fight of this run.
fn see_a_fight(file: &ScenarioFile, seed: u64, sim: &CombatSim, acc: &CombatAcc) -> String {
    let path = file.path.display().to_string();
    let names = super::trace::outcome_names(sim);
    let mut s = crate::systems::trace::see_section(
        file.lang,
        &path,
        seed,
        names
            .iter()
            .map(String::as_str)
            .zip(acc.outcome.iter().copied()),
    );
    if acc.apocalypse_combats > 0 {
        s += &format!(
            "- {}\n",
            tr!(file.lang, "trace.summary_apocalypse", file = path, seed)
        );
    }
    s
}

fn fmt3(r: Proportion, lang: Lang) -> String {
    format!(
        "{} [{} – {}]",
        pct(r.p, lang),
        pct(r.lo, lang),
        pct(r.hi, lang)
    )
}
