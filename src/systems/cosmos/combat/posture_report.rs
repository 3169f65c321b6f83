//! The `combat-postures` table and chart: points spent per combatant and posture, and
//! what each point led to (C-LD-4..7).

use polars::prelude::*;

use crate::lang::Lang;
use crate::report::text_column;
use crate::report::{interval_columns, BarChart, BarSeries, Chart};
use crate::stats::Proportion;

use super::acc::{CombatAcc, END_NAMES, POSTURE_NAMES};
use super::model::CombatModel;

/// The table of every (combatant, posture) that may spend a point, and its chart.
pub(super) fn table(
    m: &CombatModel,
    acc: &CombatAcc,
    lang: Lang,
) -> anyhow::Result<(DataFrame, Vec<Chart>)> {
    let n = acc.combats;
    let mut rows: Vec<(String, usize)> = Vec::new();
    for (f, fighter) in m.fighters.iter().enumerate() {
        if fighter.light_points > 0 && fighter.spends_light() {
            rows.push((fighter.name.clone(), f * 2));
        }
        if fighter.dark_points > 0 && fighter.spends_dark() {
            rows.push((fighter.name.clone(), f * 2 + 1));
        }
    }
    let counts: Vec<_> = rows
        .iter()
        .map(|(_, k)| acc.fighters[k / 2].posture[k % 2])
        .collect();
    let col_u =
        |f: &dyn Fn(&super::acc::PostureCounts) -> u64| counts.iter().map(f).collect::<Vec<u64>>();
    let per_point = |f: &dyn Fn(&super::acc::PostureCounts) -> u64| -> Vec<Proportion> {
        counts
            .iter()
            .map(|c| Proportion::new(f(c), c.entered))
            .collect()
    };
    let ap = per_point(&|c| c.apocalypse);
    let rv = per_point(&|c| c.revive);
    let bl = per_point(&|c| c.backlash);
    let mut cols = vec![
        text_column("combatant", &rows, |r| r.0.as_str()),
        Column::new(
            "posture".into(),
            rows.iter()
                .map(|r| POSTURE_NAMES[r.1 % 2].to_string())
                .collect::<Vec<_>>(),
        ),
        Column::new("combats".into(), vec![n; rows.len()]),
        Column::new("points_spent".into(), col_u(&|c| c.entered)),
        Column::new(
            "points_per_combat".into(),
            counts
                .iter()
                .map(|c| c.entered as f64 / n.max(1) as f64)
                .collect::<Vec<_>>(),
        ),
    ];
    for (name, count, shares) in [
        ("apocalypse", col_u(&|c| c.apocalypse), &ap),
        ("revive", col_u(&|c| c.revive), &rv),
        ("backlash", col_u(&|c| c.backlash), &bl),
    ] {
        cols.push(Column::new(name.into(), count));
        cols.extend(interval_columns(
            &format!("{name}_per_point"),
            shares,
            |&p| p,
        ));
    }
    for (e, name) in END_NAMES.iter().enumerate() {
        cols.push(Column::new(
            format!("end_{name}").into(),
            col_u(&|c| c.ends[e]),
        ));
    }
    let frame = DataFrame::new_infer_height(cols)?;
    // Grouped bars: one group per (combatant, posture) row, one bar per rate.
    let bars = |what: &str, v: &[Proportion]| BarSeries {
        name: what.to_string(),
        values: v.iter().map(|p| p.p).collect(),
        intervals: v.iter().map(|p| (p.lo, p.hi)).collect(),
    };
    let rates = vec![Chart::Bars(BarChart {
        title: tr!(lang, "combat.report.postures_chart").into(),
        x_label: tr!(lang, "combat.report.combatant_and_posture").into(),
        y_label: tr!(lang, "combat.report.share_of_points").into(),
        categories: rows
            .iter()
            .map(|(name, k)| format!("{name} {}", posture_label(k % 2, lang)))
            .collect(),
        series: vec![
            bars("Apocalypse", &ap),
            bars("Revive", &rv),
            bars(tr!(lang, "combat.report.backlash"), &bl),
        ],
        // Fitted: a share per point ends at 1 (report::png never pads past 1).
        y_range: None,
    })];
    Ok((frame, rates))
}

/// A posture as shown in charts and pages (the CSV keeps `POSTURE_NAMES`).
pub(super) fn posture_label(k: usize, lang: Lang) -> &'static str {
    if k == 0 {
        tr!(lang, "combat.report.posture_illumination")
    } else {
        tr!(lang, "combat.report.posture_sepulchral")
    }
}
