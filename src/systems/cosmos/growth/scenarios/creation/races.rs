//! The race/class part of the creation report (issue 10 item 11, C-CREATE-2/3): which
//! sheet characters end on, the intended one's chance exactly, stats on each sheet.

use polars::prelude::*;

use crate::lang::Lang;
use crate::report::{interval_columns, BarChart, BarSeries, Chart, Figure, Output, Provenance};
use crate::stats::Proportion;
use crate::systems::cosmos::growth::creation::{CreationPolicy, StatAssign};
use crate::systems::cosmos::growth::race_odds as exact;
use crate::systems::cosmos::growth::races::{Conflict, Races, MAX_REROLLS};
use crate::systems::cosmos::growth::stats::Stat;

use super::sim::CreationAcc;

/// P(the intended sheet — the first — can be met after the dice and the point moves),
/// exact (C-CREATE-2; a conversion enumerates its two dice, C-CREATE-3).
pub fn p_intended(p: &CreationPolicy, races: &Races) -> f64 {
    let sheet = &races.sheets[0];
    // Each die's window and the stat bounds in force (C-CREATE-2/3, C-LEVEL-1).
    let b = &p.bounds;
    let die = (b.die_min, b.die_max);
    match &p.conversion {
        Some(c) => {
            let (lo, hi) = sheet.bounds((b.floor(), b.ceiling(c.level)));
            let prec = p.priority.iter().position(|s| *s == Stat::Precision);
            let chance = p.priority.iter().position(|s| *s == Stat::Chance);
            let order = match p.assign {
                StatAssign::InOrder => None,
                StatAssign::Priority => Some(prec < chance),
            };
            exact::p_met_conversion(
                &c.stats,
                order,
                &lo,
                &hi,
                p.move_points,
                p.sums.conversion,
                die,
            )
        }
        None => {
            let (lo, hi) = sheet.bounds((b.floor(), b.ceiling(1)));
            exact::p_met_creation(
                p.assign,
                &p.priority,
                &lo,
                &hi,
                p.move_points,
                p.sums.stats,
                die,
            )
        }
    }
}

/// Expected rerolls per character under `reroll`: E[min(G, cap)] for G the failures
/// before the first success, = sum_{k=1..cap} (1-p)^k.
pub fn expected_rerolls(p: f64) -> f64 {
    let q = 1.0 - p;
    if p <= 0.0 {
        return MAX_REROLLS as f64;
    }
    q * (1.0 - q.powi(MAX_REROLLS as i32)) / p
}

/// The `creation-races` output and its key figures (first in `summary.md`).
pub fn races_output(
    lang: Lang,
    p: &CreationPolicy,
    races: &Races,
    acc: &CreationAcc,
    trials: u64,
    prov: &Provenance,
) -> anyhow::Result<(Output, Vec<String>)> {
    let p_met = p_intended(p, races);
    // The intended sheet is kept when it can be met (change), or once a reroll meets it
    // within the cap (reroll).
    let p_kept = match races.conflict {
        Conflict::Change => p_met,
        Conflict::Reroll => 1.0 - (1.0 - p_met).powi(MAX_REROLLS as i32 + 1),
    };
    let n = races.sheets.len();
    let mut names: Vec<String> = races.sheets.iter().map(|s| s.name.clone()).collect();
    names.push("none".into());
    // As Markdown text for the key figures (the CSV and chart keep them as typed).
    let md: Vec<String> = names.iter().map(|n| crate::report::md_text(n)).collect();
    let (mut share, mut ex) = (vec![], vec![]);
    let mut means: Vec<Vec<Option<f64>>> = vec![vec![]; 6];
    let mut bars = BarSeries {
        name: tr!(lang, "growth.races.share").into(),
        ..Default::default()
    };
    for k in 0..=n {
        let sh = Proportion::new(acc.races[k], trials);
        share.push(sh);
        ex.push((k == 0).then_some(p_kept));
        bars.values.push(sh.p);
        bars.intervals.push((sh.lo, sh.hi));
        for (i, m) in means.iter_mut().enumerate() {
            let mo = &acc.race_stats[k * 6 + i];
            m.push((mo.n > 0).then_some(mo.mean));
        }
    }
    let mut cols = vec![Column::new("race".into(), names.clone())];
    cols.extend(interval_columns("p_final", &share, |&p| p));
    cols.push(Column::new("p_final_exact".into(), ex));
    for (s, m) in Stat::ALL.iter().zip(means) {
        cols.push(Column::new(format!("{}_mean", s.name()).into(), m));
    }
    let frame = DataFrame::new_infer_height(cols)?;
    let mut key = vec![tr!(
        lang,
        "growth.races.key_kept",
        name = crate::report::md_code(&names[0]),
        exact = lang.num(p_kept, 4),
        simulated = lang.num(share[0].p, 4),
        lo = lang.num(share[0].lo, 4),
        hi = lang.num(share[0].hi, 4)
    )];
    let shares: Vec<String> = md
        .iter()
        .zip(&share)
        .map(|(name, s)| format!("{name} {}", lang.pct(s.p, 1)))
        .collect();
    key.push(tr!(
        lang,
        "growth.races.key_final",
        shares = shares.join(", ")
    ));
    if races.conflict == Conflict::Reroll {
        let mo = acc.race_rerolls as f64 / trials as f64;
        key.push(tr!(
            lang,
            "growth.races.key_rerolls",
            exact = lang.num(expected_rerolls(p_met), 4),
            simulated = lang.num(mo, 4)
        ));
    }
    // The intended sheet's stats, as the designer asks what such a character looks like.
    if acc.races[0] > 0 {
        let stats: Vec<String> = Stat::ALL
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {}", s.label(lang), lang.num(acc.race_stats[i].mean, 1)))
            .collect();
        key.push(tr!(
            lang,
            "growth.races.key_stats",
            name = crate::report::md_code(&names[0]),
            stats = stats.join(", ")
        ));
    }
    let chart = BarChart {
        title: tr!(lang, "growth.races.chart_title").into(),
        x_label: tr!(lang, "growth.races.x_sheet").into(),
        y_label: tr!(lang, "growth.expedition.y_probability").into(),
        categories: names,
        series: vec![bars],
        y_range: Some((0.0, 1.0)),
    };
    Ok((
        Output {
            name: "creation-races".into(),
            title: tr!(lang, "growth.races.title").into(),
            question: tr!(lang, "growth.races.question").into(),
            frame,
            figures: vec![Figure::new(vec![Chart::Bars(chart)])],
            key_figures: key.clone(),
            provenance: prov.for_output("creation-races"),
        },
        key,
    ))
}
