//! `fallout-damage`: exact damage and Effects of combat dice by weapon dice and AP spent
//! on extra dice (F-CD, F-AP).

use polars::prelude::*;

use crate::context::Context;
use crate::dice::Dist;
use crate::lang::Lang;
use crate::report::{float_column, int_column, Chart, Figure, LineChart, LineSeries};
use crate::report::{Output, Provenance};
use crate::systems::fallout::{cd_dist, CdRoll, CD_MAX, EXTRA_CD_MAX, OPTIONS};

use super::range_text;

/// The grid of the `fallout-damage` table: weapon combat dice and AP spent (each AP buys
/// one extra combat die, F-CD).
#[derive(Clone, Debug, PartialEq)]
pub struct DamageGrid {
    pub cd: Vec<u8>,
    pub ap: Vec<u8>,
}

impl DamageGrid {
    /// Weapon dice 1..8, AP 0..3.
    pub fn full() -> DamageGrid {
        DamageGrid {
            cd: (1..=8).collect(),
            ap: (0..=EXTRA_CD_MAX).collect(),
        }
    }
}

/// One row: the probabilities of the value `value` for one (cd, ap) cell.
pub struct DamageRow {
    pub cd: u8,
    pub ap: u8,
    pub value: i64,
    /// P(damage = value).
    pub p_damage: f64,
    /// P(damage >= value).
    pub p_damage_at_least: f64,
    /// P(Effects = value).
    pub p_effects: f64,
    /// P(damage + Effects = value): the damage of a Vicious weapon.
    pub p_damage_vicious: f64,
    pub mean_damage: f64,
    pub mean_effects: f64,
}

/// The rows of the table: every value 0..2*(cd+ap) of every cell (exact); a die gives
/// at most 2 damage, 1 Effect, and 2 damage + Effects.
pub fn damage_rows(g: &DamageGrid) -> Vec<DamageRow> {
    let mut out = Vec::new();
    for &cd in &g.cd {
        for &ap in &g.ap {
            let n = cd + ap;
            let joint: Dist<CdRoll> = cd_dist(n);
            let dmg = joint.map(|r| r.damage);
            let eff = joint.map(|r| r.effects);
            let vic = joint.map(|r| r.damage + r.effects);
            let (md, me) = (dmg.mean(), eff.mean());
            for value in 0..=2 * n as i64 {
                out.push(DamageRow {
                    cd,
                    ap,
                    value,
                    p_damage: dmg.prob(&value),
                    p_damage_at_least: 1.0 - dmg.cdf(value - 1),
                    p_effects: eff.prob(&value),
                    p_damage_vicious: vic.prob(&value),
                    mean_damage: md,
                    mean_effects: me,
                });
            }
        }
    }
    out
}

/// Checks a grid against the caps (weapon dice 1..CD_MAX-3, AP 0..3).
pub fn check_grid(lang: Lang, g: &DamageGrid) -> Result<(), crate::error::UserError> {
    if let Some(&c) = g.cd.iter().find(|&&c| c == 0 || c > CD_MAX - EXTRA_CD_MAX) {
        return Err(crate::error::UserError::new(tr!(
            lang,
            "fallout.damage.cd_range",
            c,
            max = CD_MAX - EXTRA_CD_MAX
        )));
    }
    if let Some(&a) = g.ap.iter().find(|&&a| a > EXTRA_CD_MAX) {
        return Err(crate::error::UserError::new(tr!(
            lang,
            "fallout.damage.ap_range",
            a,
            max = EXTRA_CD_MAX
        )));
    }
    Ok(())
}

/// The `fallout-damage` output (exact).
pub fn damage_output(g: &DamageGrid, ctx: &Context) -> anyhow::Result<Output> {
    check_grid(ctx.lang, g)?;
    let rows = damage_rows(g);
    let frame = DataFrame::new_infer_height(vec![
        int_column("cd", &rows, |r| r.cd as i64),
        int_column("ap", &rows, |r| r.ap as i64),
        int_column("dice", &rows, |r| (r.cd + r.ap) as i64),
        int_column("value", &rows, |r| r.value),
        float_column("p_damage", &rows, |r| r.p_damage),
        float_column("p_damage_at_least", &rows, |r| r.p_damage_at_least),
        float_column("p_effects", &rows, |r| r.p_effects),
        float_column("p_damage_vicious", &rows, |r| r.p_damage_vicious),
        float_column("mean_damage", &rows, |r| r.mean_damage),
        float_column("mean_effects", &rows, |r| r.mean_effects),
    ])?;

    // Integer damage values: points joined by thin lines; one curve per AP spent so the
    // value of each AP reads as the shift between curves.
    let cd0 = if g.cd.contains(&4) { 4 } else { g.cd[0] };
    let mut at_least = LineChart {
        title: tr!(ctx.lang, "fallout.damage.chart_at_least", cd = cd0),
        x_label: tr!(ctx.lang, "fallout.damage.x_axis").into(),
        y_label: tr!(ctx.lang, "fallout.damage.y_at_least").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    for &ap in &g.ap {
        at_least.series.push(LineSeries {
            name: tr!(ctx.lang, "fallout.damage.ap_cd", ap, cd = cd0 + ap),
            points: rows
                .iter()
                .filter(|r| r.cd == cd0 && r.ap == ap)
                .map(|r| (r.value as f64, r.p_damage_at_least))
                .collect(),
            band: vec![],
        });
    }
    let mut means = LineChart {
        title: tr!(ctx.lang, "fallout.damage.chart_mean").into(),
        x_label: tr!(ctx.lang, "fallout.damage.weapon_cd").into(),
        y_label: tr!(ctx.lang, "fallout.damage.mean_damage").into(),
        ..Default::default()
    };
    for &ap in &g.ap {
        means.series.push(LineSeries {
            name: tr!(ctx.lang, "fallout.damage.plus_ap", ap),
            points: rows
                .iter()
                .filter(|r| r.ap == ap && r.value == 0)
                .map(|r| (r.cd as f64, r.mean_damage))
                .collect(),
            band: vec![],
        });
    }

    let mut key = Vec::new();
    let find = |cd: u8, ap: u8, v: i64| rows.iter().find(|r| (r.cd, r.ap, r.value) == (cd, ap, v));
    for (cd, ap) in [(3, 0), (3, 3), (5, 0)] {
        if let Some(r) = find(cd, ap, 0) {
            key.push(tr!(
                ctx.lang,
                "fallout.damage.key_mean",
                cd,
                ap,
                damage = ctx.lang.num(r.mean_damage, 3),
                effects = ctx.lang.num(r.mean_effects, 3),
                none = ctx.lang.num(r.p_damage, 4)
            ));
        }
    }
    key.push(tr!(ctx.lang, "fallout.damage.key_each_ap").into());

    let prov = Provenance::exact("fallout-damage", "fallout", ctx.options.in_force(OPTIONS))
        .with_param("cd", range_text(&g.cd))
        .with_param("ap", range_text(&g.ap))
        .with_param_text(
            "combat_die",
            tr!(crate::lang::Lang::En, "params.combat_die"),
            |l| tr!(l, "params.combat_die").to_string(),
        );
    Ok(Output {
        name: "fallout-damage".into(),
        title: tr!(ctx.lang, "fallout.damage.title").into(),
        question: tr!(ctx.lang, "fallout.damage.question").into(),
        frame,
        figures: vec![Figure::new(vec![
            Chart::Lines(at_least),
            Chart::Lines(means),
        ])],
        key_figures: key,
        provenance: prov,
    })
}
