use polars::prelude::*;

use crate::context::Context;
use crate::error::UserError;
use crate::lang::Lang;
use crate::report::{float_column, int_column, Chart, Figure, Heatmap, Output, Provenance};
use crate::systems::fallout::{helped_dist, odds, pool_dist, DieSpec, TestOdds, OPTIONS};

use super::chart::{chart_difficulty, push_series, tn_chart};
use super::range_text;

/// The grid of the `fallout-help` table (leader and helper without tag skill).
#[derive(Clone, Debug, PartialEq)]
pub struct HelpGrid {
    pub tns: Vec<u8>,
    pub helper_tns: Vec<u8>,
    pub difficulties: Vec<u8>,
    pub dice: Vec<u8>,
    pub complication: u8,
}

impl HelpGrid {
    /// TN and helper TN 2..20, difficulty 0..5, 2..5 dice.
    pub fn full(complication: u8) -> HelpGrid {
        HelpGrid {
            tns: (2..=20).collect(),
            helper_tns: (2..=20).collect(),
            difficulties: (0..=5).collect(),
            dice: (2..=5).collect(),
            complication,
        }
    }
}

struct Row {
    tn: u8,
    helper_tn: u8,
    difficulty: u8,
    dice: u8,
    alone: TestOdds,
    helped: TestOdds,
}

/// `crit`, `from`: the crit face and Normale complication face in force (parameters
/// `fallout_crit_face`, `fallout_complication_from`, F-TEST).
fn rows(lang: Lang, g: &HelpGrid, crit: u8, from: u8) -> Result<Vec<Row>, UserError> {
    let mut out = Vec::new();
    for &tn in &g.tns {
        let leader = DieSpec::new(lang, tn, 0, g.complication)?.with_faces(crit, from);
        for &helper_tn in &g.helper_tns {
            let helper = DieSpec::new(lang, helper_tn, 0, g.complication)?.with_faces(crit, from);
            for &difficulty in &g.difficulties {
                for &dice in &g.dice {
                    out.push(Row {
                        tn,
                        helper_tn,
                        difficulty,
                        dice,
                        alone: odds(&pool_dist(&leader, dice), difficulty),
                        helped: odds(&helped_dist(&leader, dice, &helper), difficulty),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// The `fallout-help` output (exact): value of one helper (F-HELP).
pub fn help_output(g: &HelpGrid, ctx: &Context) -> anyhow::Result<Output> {
    let rows = rows(
        ctx.lang,
        g,
        crate::systems::fallout::crit_face(&ctx.options),
        crate::systems::fallout::complication_from(&ctx.options),
    )?;
    let frame = DataFrame::new_infer_height(vec![
        int_column("tn", &rows, |r| r.tn as i64),
        int_column("helper_tn", &rows, |r| r.helper_tn as i64),
        int_column("difficulty", &rows, |r| r.difficulty as i64),
        int_column("dice", &rows, |r| r.dice as i64),
        float_column("p_pass_alone", &rows, |r| r.alone.p_pass),
        float_column("p_pass_helped", &rows, |r| r.helped.p_pass),
        float_column("gain", &rows, |r| r.helped.p_pass - r.alone.p_pass),
        float_column("mean_ap_alone", &rows, |r| r.alone.mean_ap),
        float_column("mean_ap_helped", &rows, |r| r.helped.mean_ap),
        float_column("p_complication_alone", &rows, |r| r.alone.p_complication),
        float_column("p_complication_helped", &rows, |r| r.helped.p_complication),
    ])?;

    let n0 = g.dice.first().copied().unwrap_or(2);
    let d = chart_difficulty(&g.difficulties);
    let mut lines = tn_chart(
        ctx.lang,
        &tr!(ctx.lang, "fallout.help.chart_gain", d, dice = n0),
        tr!(ctx.lang, "fallout.help.gain_axis"),
        None,
    );
    for &h in g.helper_tns.iter().filter(|h| [6, 10, 14, 18].contains(*h)) {
        let pick = |r: &Row| r.helper_tn == h && r.difficulty == d && r.dice == n0;
        push_series(
            &mut lines,
            tr!(ctx.lang, "fallout.help.helper_tn", h),
            &rows,
            pick,
            |r| (r.tn as f64, r.helped.p_pass - r.alone.p_pass),
            |_| None,
        );
    }
    let find = |tn: u8, h: u8, d: u8, n: u8| {
        rows.iter()
            .find(|r| (r.tn, r.helper_tn, r.difficulty, r.dice) == (tn, h, d, n))
    };
    let values: Vec<Vec<f64>> = g
        .helper_tns
        .iter()
        .map(|&h| {
            g.tns
                .iter()
                .map(|&t| find(t, h, d, n0).map_or(0.0, |r| r.helped.p_pass - r.alone.p_pass))
                .collect()
        })
        .collect();
    let top = values
        .iter()
        .flatten()
        .fold(0.0f64, |a, &b| a.max(b))
        .max(1e-9);
    let heat = Heatmap {
        title: tr!(ctx.lang, "fallout.help.heat_title", d, dice = n0),
        x_label: tr!(ctx.lang, "fallout.help.leader_axis").into(),
        y_label: tr!(ctx.lang, "fallout.help.helper_axis").into(),
        columns: Heatmap::labels(&g.tns),
        rows: Heatmap::labels(&g.helper_tns),
        values,
        range: (0.0, top),
    };

    let mut key = Vec::new();
    for (tn, h, dd) in [(10, 10, 2), (10, 10, 3), (8, 12, 4)] {
        if let Some(r) = find(tn, h, dd, 2) {
            key.push(tr!(
                ctx.lang,
                "fallout.help.key_gain",
                tn,
                h,
                d = dd,
                alone = ctx.lang.num(r.alone.p_pass, 3),
                helped = ctx.lang.num(r.helped.p_pass, 3),
                points = ctx
                    .lang
                    .signed(100.0 * (r.helped.p_pass - r.alone.p_pass), 1)
            ));
        }
    }
    if let (Some(h), Some(b)) = (find(10, 10, 2, 2), find(10, 10, 2, 3)) {
        key.push(tr!(
            ctx.lang,
            "fallout.help.key_vs_d20",
            helped = ctx.lang.num(h.helped.p_pass, 3),
            bought = ctx.lang.num(b.alone.p_pass, 3)
        ));
    }

    let prov = Provenance::exact("fallout-help", "fallout", ctx.options.in_force(OPTIONS))
        .with_param("tn", range_text(&g.tns))
        .with_param("helper_tn", range_text(&g.helper_tns))
        .with_param("difficulty", range_text(&g.difficulties))
        .with_param("dice", range_text(&g.dice))
        .with_param("complication_range", g.complication)
        .with_param_text(
            "tag_rank",
            tr!(crate::lang::Lang::En, "params.help_tag_rank"),
            |l| tr!(l, "params.help_tag_rank").to_string(),
        );
    Ok(Output {
        name: "fallout-help".into(),
        title: tr!(ctx.lang, "fallout.help.title").into(),
        question: tr!(ctx.lang, "fallout.help.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(lines), Chart::Heatmap(heat)])],
        key_figures: key,
        provenance: prov,
    })
}
