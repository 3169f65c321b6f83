use polars::prelude::*;

use crate::context::Context;
use crate::error::UserError;
use crate::lang::Lang;
use crate::report::{float_column, int_column, Chart, Figure, Output, Provenance};
use crate::systems::fallout::{luck_odds, odds, pool_dist, DieSpec, LuckOdds, TestOdds, OPTIONS};

use super::chart::{chart_difficulty, push_series, tn_chart};
use super::range_text;

/// The grid of the `fallout-luck` table.
#[derive(Clone, Debug, PartialEq)]
pub struct LuckGrid {
    pub tns: Vec<u8>,
    pub difficulties: Vec<u8>,
    pub dice: Vec<u8>,
    /// 0 = not a tag skill; ranks above the TN are skipped.
    pub tag_ranks: Vec<u8>,
}

impl LuckGrid {
    /// TN 2..20, difficulty 0..5, 2..5 dice, tag rank 0..6.
    pub fn full() -> LuckGrid {
        LuckGrid {
            tns: (2..=20).collect(),
            difficulties: (0..=5).collect(),
            dice: (2..=5).collect(),
            tag_ranks: (0..=6).collect(),
        }
    }
}

struct Row {
    tn: u8,
    difficulty: u8,
    dice: u8,
    tag_rank: u8,
    base: TestOdds,
    luck: LuckOdds,
}

/// `crit`: the crit face in force (parameter `fallout_crit_face`, F-TEST).
fn rows(lang: Lang, g: &LuckGrid, crit: u8) -> Result<Vec<Row>, UserError> {
    let mut out = Vec::new();
    for &tn in &g.tns {
        for &difficulty in &g.difficulties {
            for &dice in &g.dice {
                for &tag_rank in g.tag_ranks.iter().filter(|&&t| t <= tn) {
                    // Complications do not change successes; the range is irrelevant here.
                    let spec = DieSpec::new(lang, tn, tag_rank, 1)?.with_crit_face(crit);
                    out.push(Row {
                        tn,
                        difficulty,
                        dice,
                        tag_rank,
                        base: odds(&pool_dist(&spec, dice), difficulty),
                        luck: luck_odds(&spec, dice, difficulty),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Reroll policy, stated in every output.
pub const LUCK_POLICY: &str = "one Luck point per test, spent only when the test failed and a die gave no success; that die (the highest) is rerolled and the new result stands";

/// The `fallout-luck` output (exact): value of one Miss Fortune reroll (F-LUCK).
pub fn luck_output(g: &LuckGrid, ctx: &Context) -> anyhow::Result<Output> {
    let lang = ctx.lang;
    let rows = rows(lang, g, crate::systems::fallout::crit_face(&ctx.options))?;
    if rows.is_empty() {
        return Err(UserError::new(tr!(lang, "fallout.test.no_cell")).into());
    }
    let frame = DataFrame::new_infer_height(vec![
        int_column("tn", &rows, |r| r.tn as i64),
        int_column("difficulty", &rows, |r| r.difficulty as i64),
        int_column("dice", &rows, |r| r.dice as i64),
        int_column("tag_rank", &rows, |r| r.tag_rank as i64),
        float_column("p_pass", &rows, |r| r.base.p_pass),
        float_column("p_pass_luck", &rows, |r| r.luck.p_pass),
        float_column("gain", &rows, |r| r.luck.p_pass - r.base.p_pass),
        float_column("mean_ap", &rows, |r| r.base.mean_ap),
        float_column("mean_ap_luck", &rows, |r| r.luck.mean_ap),
        float_column("p_spent", &rows, |r| r.luck.p_spent),
        float_column("p_saved_if_spent", &rows, |r| {
            if r.luck.p_spent > 0.0 {
                (r.luck.p_pass - r.base.p_pass) / r.luck.p_spent
            } else {
                0.0
            }
        }),
    ])?;

    let n0 = g.dice.first().copied().unwrap_or(2);
    let mut gain = tn_chart(
        lang,
        &tr!(lang, "fallout.luck.chart_gain", dice = n0),
        tr!(lang, "fallout.luck.gain_axis"),
        None,
    );
    for &d in g.difficulties.iter().filter(|&&d| d > 0) {
        let pick = |r: &Row| r.difficulty == d && r.dice == n0 && r.tag_rank == 0;
        push_series(
            &mut gain,
            tr!(lang, "fallout.test.difficulty", d),
            &rows,
            pick,
            |r| (r.tn as f64, r.luck.p_pass - r.base.p_pass),
            |_| None,
        );
    }
    let d = chart_difficulty(&g.difficulties);
    let mut cmp = tn_chart(
        lang,
        &tr!(lang, "fallout.luck.chart_cmp", d),
        tr!(lang, "fallout.test.p_pass"),
        Some((0.0, 1.0)),
    );
    let pick_n = |n: u8| move |r: &Row| r.difficulty == d && r.dice == n && r.tag_rank == 0;
    push_series(
        &mut cmp,
        format!("{n0}d20"),
        &rows,
        pick_n(n0),
        |r| (r.tn as f64, r.base.p_pass),
        |_| None,
    );
    // Drawn before the luck curve: at difficulty <= 2 with 2d20 the two coincide exactly
    // (a failure always has a zero die to reroll), and the luck curve must stay visible.
    push_series(
        &mut cmp,
        tr!(lang, "fallout.luck.bought", n = n0 + 1),
        &rows,
        pick_n(n0 + 1),
        |r| (r.tn as f64, r.base.p_pass),
        |_| None,
    );
    push_series(
        &mut cmp,
        tr!(lang, "fallout.luck.with_reroll", n = n0),
        &rows,
        pick_n(n0),
        |r| (r.tn as f64, r.luck.p_pass),
        |_| None,
    );

    let find = |tn: u8, d: u8, n: u8| {
        rows.iter()
            .find(|r| (r.tn, r.difficulty, r.dice, r.tag_rank) == (tn, d, n, 0))
    };
    let mut key = vec![tr!(lang, "fallout.luck.key_policy").to_string()];
    for (tn, dd) in [(10, 2), (12, 3)] {
        if let Some(r) = find(tn, dd, 2) {
            key.push(tr!(
                lang,
                "fallout.luck.key_gain",
                tn,
                d = dd,
                base = lang.num(r.base.p_pass, 3),
                luck = lang.num(r.luck.p_pass, 3),
                spent = lang.pct(r.luck.p_spent, 1)
            ));
        }
    }
    if let (Some(l), Some(b)) = (find(10, 2, 2), find(10, 2, 3)) {
        key.push(tr!(
            lang,
            "fallout.luck.key_vs_d20",
            luck = lang.num(l.luck.p_pass, 3),
            bought = lang.num(b.base.p_pass, 3)
        ));
    }

    let prov = Provenance::exact("fallout-luck", "fallout", ctx.options.in_force(OPTIONS))
        .with_param("tn", range_text(&g.tns))
        .with_param("difficulty", range_text(&g.difficulties))
        .with_param("dice", range_text(&g.dice))
        .with_param("tag_rank", range_text(&g.tag_ranks))
        .with_param_text("reroll_policy", LUCK_POLICY, |l| {
            tr!(l, "params.luck_policy").to_string()
        });
    Ok(Output {
        name: "fallout-luck".into(),
        title: tr!(lang, "fallout.luck.title").into(),
        question: tr!(lang, "fallout.luck.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(gain), Chart::Lines(cmp)])],
        key_figures: key,
        provenance: prov,
    })
}
