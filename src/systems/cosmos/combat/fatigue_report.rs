//! What in-combat fatigue reports (only with `[combat] fatigue = true`, so other
//! scenarios keep their files): `combat-fatigue.csv` (per combatant and track, the share of
//! combats ending in each C-FAT-4 state) with a chart, and a `## Fatigue at combat end`
//! section of `summary.md`.

use polars::prelude::*;

use crate::lang::Lang;
use crate::report::{BarChart, BarSeries, Chart, Figure, Output, Provenance};

use crate::systems::cosmos::growth::fatigue::FatigueLevels;

use super::acc::CombatAcc;
use super::headline::{pct, track_mean};
use super::sim::CombatSim;
use crate::stats::Proportion;

/// C-FAT-4 states, in the order of [`FatigueState`]; the track values (-3..10, histogram
/// index value + 3) in each follow the thresholds in force (`fatigue_*_from`,
/// `fatigue_exhausted_at`).
const STATES: [&str; 5] = ["fresh", "light", "moderate", "extreme", "exhausted"];
/// Index of the exhausted state in [`STATES`].
const EXHAUSTED: usize = 4;

/// A state as shown in charts (the CSV keeps the `p_<state>` columns).
fn state_label(i: usize, lang: Lang) -> &'static str {
    match i {
        0 => tr!(lang, "combat.fatigue.state_fresh"),
        1 => tr!(lang, "combat.fatigue.state_light"),
        2 => tr!(lang, "combat.fatigue.state_moderate"),
        3 => tr!(lang, "combat.fatigue.state_extreme"),
        _ => tr!(lang, "combat.fatigue.state_exhausted"),
    }
}

/// Combats ending in `state` under the fatigue levels in force.
fn count(h: &[u64; 14], state: usize, levels: &FatigueLevels) -> u64 {
    h.iter()
        .enumerate()
        .filter(|(i, _)| levels.state(*i as i32 - 3) as usize == state)
        .map(|(_, c)| c)
        .sum()
}

/// The `combat-fatigue` table and chart.
pub fn output(
    sim: &CombatSim,
    acc: &CombatAcc,
    provenance: Provenance,
    lang: Lang,
) -> PolarsResult<Output> {
    let m = &sim.model;
    let n = acc.combats;
    let levels = &sim.rules.test.fatigue;
    let (mut who, mut side, mut track, mut means) = (vec![], vec![], vec![], vec![]);
    let mut shares: Vec<Vec<f64>> = vec![Vec::new(); STATES.len()];
    let mut exhausted_lo = Vec::new();
    let mut exhausted_hi = Vec::new();
    let mut panels = Vec::new();
    for (t, name) in ["fp", "fm"].iter().enumerate() {
        let mut chart = BarChart {
            title: tr!(
                lang,
                "combat.fatigue.chart_title",
                track = name.to_uppercase()
            ),
            x_label: tr!(lang, "combat.report.combatant_axis").into(),
            y_label: tr!(lang, "combat.report.share_of_combats").into(),
            categories: m.fighters.iter().map(|f| f.name.clone()).collect(),
            series: STATES
                .iter()
                .enumerate()
                .map(|(i, _)| BarSeries {
                    name: state_label(i, lang).to_string(),
                    ..Default::default()
                })
                .collect(),
            y_range: Some((0.0, 1.0)),
        };
        for (f, a) in m.fighters.iter().zip(&acc.fighters) {
            let h = if t == 0 { &a.fp_end } else { &a.fm_end };
            who.push(f.name.clone());
            side.push(m.sides[f.side].clone());
            track.push(name.to_string());
            means.push(track_mean(h, n));
            for (s, col) in shares.iter_mut().enumerate() {
                let r = Proportion::new(count(h, s, levels), n).p;
                col.push(r);
                chart.series[s].values.push(r);
            }
            let r = Proportion::new(count(h, EXHAUSTED, levels), n);
            exhausted_lo.push(r.lo);
            exhausted_hi.push(r.hi);
        }
        panels.push(Chart::Bars(chart));
    }
    let mut cols = vec![
        Column::new("combatant".into(), who),
        Column::new("side".into(), side),
        Column::new("track".into(), track),
        Column::new("combats".into(), vec![n; means.len()]),
        Column::new("end_mean".into(), means),
    ];
    for (s, col) in STATES.iter().zip(shares) {
        cols.push(Column::new(format!("p_{s}").into(), col));
    }
    cols.push(Column::new("p_exhausted_lo".into(), exhausted_lo));
    cols.push(Column::new("p_exhausted_hi".into(), exhausted_hi));
    Ok(Output {
        name: "combat-fatigue".into(),
        title: tr!(lang, "combat.fatigue.title").into(),
        question: tr!(lang, "combat.fatigue.question").into(),
        frame: DataFrame::new_infer_height(cols)?,
        figures: vec![Figure {
            suffix: None,
            panels,
        }],
        key_figures: vec![answer(sim, acc, lang)],
        provenance,
    })
}

/// The key figure: who ends exhausted most often.
pub fn answer(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let levels = &sim.rules.test.fatigue;
    let ex = |h: &[u64; 14]| count(h, EXHAUSTED, levels);
    let (i, a) = acc
        .fighters
        .iter()
        .enumerate()
        .max_by_key(|(i, a)| (ex(&a.fp_end).max(ex(&a.fm_end)), std::cmp::Reverse(*i)))
        .expect("at least two combatants");
    let (track, c) = if ex(&a.fp_end) >= ex(&a.fm_end) {
        ("FP", ex(&a.fp_end))
    } else {
        ("FM", ex(&a.fm_end))
    };
    tr!(
        lang,
        "combat.fatigue.answer",
        name = crate::report::md_text(&sim.model.fighters[i].name),
        track,
        rate = super::headline::rate_text(c, acc.combats, lang)
    )
}

/// The `## Fatigue at combat end` section of `summary.md`.
pub fn section(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let n = acc.combats;
    let mut s = String::from(tr!(lang, "combat.fatigue.section"));
    let levels = &sim.rules.test.fatigue;
    let states = |h: &[u64; 14]| {
        (0..STATES.len())
            .map(|st| pct(Proportion::new(count(h, st, levels), n).p, lang))
            .collect::<Vec<_>>()
            .join(" / ")
    };
    for (f, a) in sim.model.fighters.iter().zip(&acc.fighters) {
        s += &format!(
            "| {} | {} | {} | {} | {} |\n",
            crate::report::md_text(&f.name),
            tr!(
                lang,
                "combat.fatigue.mean_started",
                mean = lang.signed(track_mean(&a.fp_end, n), 2),
                start = format!("{:+}", f.start.fp)
            ),
            states(&a.fp_end),
            tr!(
                lang,
                "combat.fatigue.mean_started",
                mean = lang.signed(track_mean(&a.fm_end, n), 2),
                start = format!("{:+}", f.start.fm)
            ),
            states(&a.fm_end),
        );
    }
    s += &format!("\n- {}\n", answer(sim, acc, lang));
    s
}
