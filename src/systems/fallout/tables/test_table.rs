//! The `fallout-test` output: exact odds per cell, the Monte Carlo cross-check beside them
//! with `--method mc`, charts and provenance.

use polars::prelude::*;

use crate::context::{Context, Method};
use crate::error::UserError;
use crate::report::{float_column, interval_columns, Chart, Figure, Output, Provenance};
use crate::stats::{wilson, Estimate, Proportion};
use crate::systems::fallout::{BonusRules, TestOdds, OPTIONS};

use super::chart::{chart_difficulty, push_series, tn_chart};
use super::range_text;

use super::test_cells::{TestAcc, TestCell, TestGrid};
use super::test_mc::test_grid_mc;
#[cfg(test)]
use super::test_mc::{PoolAcc, MAX_MC_DICE};

struct Row {
    cell: TestCell,
    odds: TestOdds,
    mc: Option<TestAcc>,
}

/// The `fallout-test` output: CSV `tn,difficulty,dice,tag_rank,p_pass,mean_ap,
/// p_complication` (+ `trials` and `_lo/_hi` 95% bounds with `--method mc`), charts,
/// provenance.
pub fn test_output(
    grid: &TestGrid,
    ctx: &Context,
    method: Method,
    trials: u64,
) -> anyhow::Result<Output> {
    let lang = ctx.lang;
    // The crit face in force, resolved once for the run (F-TEST); the cell's task does not
    // include it, so a variant is compared with the book on the same streams.
    let crit = crate::systems::fallout::crit_face(&ctx.options);
    let from = crate::systems::fallout::complication_from(&ctx.options);
    // The prices of bonus dice in force (F-AP) label the pool sizes of the chart.
    let bonus = BonusRules::from_options(&ctx.options);
    let cells: Vec<TestCell> = grid
        .cells()
        .into_iter()
        .map(|c| TestCell {
            crit_face: crit,
            complication_from: from,
            ..c
        })
        .collect();
    if cells.is_empty() {
        return Err(UserError::new(tr!(lang, "fallout.test.no_cell")).into());
    }
    let rows: Vec<Row> = match method {
        Method::Exact => cells
            .iter()
            .map(|c| {
                Ok(Row {
                    cell: *c,
                    odds: c.exact(lang)?,
                    mc: None,
                })
            })
            .collect::<Result<_, UserError>>()?,
        Method::Mc => test_grid_mc(&cells, ctx, trials)?
            .into_iter()
            .zip(&cells)
            .map(|(a, c)| Row {
                cell: *c,
                odds: TestOdds {
                    p_pass: a.p_pass(),
                    mean_ap: a.mean_ap(),
                    p_complication: a.p_complication(),
                },
                mc: Some(a),
            })
            .collect(),
    };

    let u = |f: fn(&TestCell) -> u8| rows.iter().map(|r| f(&r.cell) as i64).collect::<Vec<_>>();
    let mut cols = vec![
        Column::new("tn".into(), u(|c| c.tn)),
        Column::new("difficulty".into(), u(|c| c.difficulty)),
        Column::new("dice".into(), u(|c| c.dice)),
        Column::new("tag_rank".into(), u(|c| c.tag_rank)),
        float_column("p_pass", &rows, |r| r.odds.p_pass),
        float_column("mean_ap", &rows, |r| r.odds.mean_ap),
        float_column("p_complication", &rows, |r| r.odds.p_complication),
    ];
    if method == Method::Mc {
        let acc = |r: &Row| r.mc.unwrap_or_default();
        cols.push(Column::new("trials".into(), vec![trials; rows.len()]));
        // Each figure's bounds, after the figures (which lead as in the exact table).
        let bounds = |name: &str, e: &dyn Fn(&TestAcc) -> Estimate| {
            let [_, lo, hi] = interval_columns(name, &rows, |r| e(&acc(r)));
            [lo, hi]
        };
        cols.extend(bounds("p_pass", &|a| {
            Proportion::new(a.pass, trials).into()
        }));
        cols.extend(bounds("mean_ap", &|a| {
            let (lo, hi) = a.mean_ap_interval();
            Estimate::new(a.mean_ap(), lo, hi)
        }));
        cols.extend(bounds("p_complication", &|a| {
            Proportion::new(a.complication, trials).into()
        }));
    }
    let frame = DataFrame::new_infer_height(cols)?;

    let band = |r: &Row| r.mc.map(|a| wilson(a.pass, trials));
    let xy = |r: &Row| (r.cell.tn as f64, r.odds.p_pass);
    let base_dice = grid.dice.first().copied().unwrap_or(2);
    let mid = chart_difficulty(&grid.difficulties);
    let by_diff = {
        let mut ch = tn_chart(
            lang,
            &tr!(lang, "fallout.test.chart_diff", dice = base_dice),
            tr!(lang, "fallout.test.p_pass"),
            Some((0.0, 1.0)),
        );
        for &d in grid.difficulties.iter().filter(|&&d| d > 0) {
            let pick = |r: &Row| {
                r.cell.difficulty == d && r.cell.dice == base_dice && r.cell.tag_rank == 0
            };
            push_series(
                &mut ch,
                tr!(lang, "fallout.test.difficulty", d),
                &rows,
                pick,
                xy,
                band,
            );
        }
        ch
    };
    let by_dice = {
        let mut ch = tn_chart(
            lang,
            &tr!(lang, "fallout.test.chart_dice", mid),
            tr!(lang, "fallout.test.p_pass"),
            Some((0.0, 1.0)),
        );
        for &n in &grid.dice {
            let pick =
                |r: &Row| r.cell.difficulty == mid && r.cell.dice == n && r.cell.tag_rank == 0;
            push_series(
                &mut ch,
                tr!(
                    lang,
                    "fallout.test.pool_cost",
                    n,
                    cost = bonus.cumulative_cost(n.saturating_sub(2))
                ),
                &rows,
                pick,
                xy,
                band,
            );
        }
        ch
    };
    let by_tag = {
        let mut ch = tn_chart(
            lang,
            &tr!(lang, "fallout.test.chart_tag", mid, dice = base_dice),
            tr!(lang, "fallout.test.p_pass"),
            Some((0.0, 1.0)),
        );
        for &t in grid.tag_ranks.iter().filter(|t| [0, 2, 4, 6].contains(*t)) {
            let pick = |r: &Row| {
                r.cell.difficulty == mid && r.cell.dice == base_dice && r.cell.tag_rank == t
            };
            let name = if t == 0 {
                tr!(lang, "fallout.test.no_tag").to_string()
            } else {
                tr!(lang, "fallout.test.tag_rank", t)
            };
            push_series(&mut ch, name, &rows, pick, xy, band);
        }
        ch
    };
    let ap = {
        let d = *grid
            .difficulties
            .iter()
            .find(|&&d| d >= 1)
            .unwrap_or(&grid.difficulties[0]);
        let mut ch = tn_chart(
            lang,
            &tr!(lang, "fallout.test.chart_ap", d),
            tr!(lang, "fallout.test.e_ap"),
            None,
        );
        for &n in &grid.dice {
            let pick = |r: &Row| r.cell.difficulty == d && r.cell.dice == n && r.cell.tag_rank == 0;
            push_series(
                &mut ch,
                format!("{n}d20"),
                &rows,
                pick,
                |r| (r.cell.tn as f64, r.odds.mean_ap),
                |_| None,
            );
        }
        ch
    };

    let find = |tn: u8, d: u8, n: u8, tag: u8| {
        rows.iter()
            .find(|r| {
                (r.cell.tn, r.cell.difficulty, r.cell.dice, r.cell.tag_rank) == (tn, d, n, tag)
            })
            .map(|r| r.odds)
    };
    let mut key = Vec::new();
    if let Some(o) = find(10, 1, 2, 0) {
        key.push(tr!(
            lang,
            "fallout.test.key_base",
            p = lang.num(o.p_pass, 4),
            ap = lang.num(o.mean_ap, 3),
            c = lang.num(o.p_complication, 4),
            range = grid.complication
        ));
    }
    let pd: Vec<String> = (2..=5)
        .filter_map(|n| find(10, 2, n, 0).map(|o| format!("{n}d20 {}", lang.num(o.p_pass, 3))))
        .collect();
    if !pd.is_empty() {
        key.push(tr!(lang, "fallout.test.key_pool", pools = pd.join(", ")));
    }
    if let (Some(a), Some(b)) = (find(10, 3, 2, 0), find(10, 3, 2, 4)) {
        key.push(tr!(
            lang,
            "fallout.test.key_tag",
            from = lang.num(a.p_pass, 3),
            to = lang.num(b.p_pass, 3)
        ));
    }

    let mut prov = Provenance::for_method(
        method,
        "fallout-test",
        "fallout",
        ctx.options.in_force(OPTIONS),
        ctx.engine.seed(),
        trials,
    );
    prov = prov
        .with_param("tn", range_text(&grid.tns))
        .with_param("difficulty", range_text(&grid.difficulties))
        .with_param("dice", range_text(&grid.dice))
        .with_param("tag_rank", range_text(&grid.tag_ranks))
        .with_param("complication_range", grid.complication);

    Ok(Output {
        name: "fallout-test".into(),
        title: tr!(lang, "fallout.test.title").into(),
        question: tr!(lang, "fallout.test.question").into(),
        frame,
        figures: vec![
            Figure::new(vec![Chart::Lines(by_diff), Chart::Lines(by_dice)]),
            Figure {
                suffix: Some("tag-ap".into()),
                panels: vec![Chart::Lines(by_tag), Chart::Lines(ap)],
            },
        ],
        key_figures: key,
        provenance: prov,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pool's histogram read at each difficulty, by hand: six rolls gave 0, 0, 1, 1, 1
    /// and 2 successes, one of them with a complication.
    #[test]
    fn a_pool_histogram_gives_each_difficulty_its_tallies() {
        let mut p = PoolAcc {
            trials: 6,
            complication: 1,
            ..PoolAcc::default()
        };
        p.successes[..3].copy_from_slice(&[2, 3, 1]);
        let at = |d| {
            let a = p.at(d);
            (a.trials, a.pass, a.complication, a.ap_sum, a.ap_sq)
        };
        // Difficulty 0: every roll passes, AP 0,0,1,1,1,2.
        assert_eq!(at(0), (6, 6, 1, 5, 7));
        // Difficulty 1: four pass, AP 0,0,0,1.
        assert_eq!(at(1), (6, 4, 1, 1, 1));
        assert_eq!(at(2), (6, 1, 1, 0, 0));
        assert_eq!(at(3), (6, 0, 1, 0, 0));
    }

    fn cell(difficulty: u8, dice: u8) -> TestCell {
        TestCell {
            tn: 9,
            difficulty,
            dice,
            tag_rank: 2,
            complication: 2,
            crit_face: 1,
            complication_from: 20,
        }
    }

    /// Every difficulty of a pool reads the same rolls: alone or in a grid, a cell has
    /// the same tallies, passes never rise with the difficulty, and difficulty 0 passes
    /// every roll.
    #[test]
    fn the_difficulties_of_a_pool_share_its_rolls() {
        let ctx = Context::new(
            5,
            2,
            crate::rules::RuleOptions::default(),
            true,
            crate::lang::Lang::En,
        )
        .unwrap();
        let n = 50_000;
        let grid: Vec<TestCell> = (0..=5).map(|d| cell(d, 3)).collect();
        let all = test_grid_mc(&grid, &ctx, n).unwrap();
        let alone = test_grid_mc(&[cell(2, 3)], &ctx, n).unwrap();
        assert_eq!(alone[0], all[2]);
        assert_eq!(all[0].pass, n);
        assert!(all.windows(2).all(|w| w[1].pass <= w[0].pass));
        assert!(all.iter().all(|a| a.complication == all[0].complication));
        assert!(all[1].pass > all[2].pass && all[2].pass > 0);
    }

    #[test]
    fn a_pool_above_the_histogram_is_refused() {
        let ctx = Context::new(
            5,
            1,
            crate::rules::RuleOptions::default(),
            true,
            crate::lang::Lang::En,
        )
        .unwrap();
        let e = test_grid_mc(&[cell(1, MAX_MC_DICE + 1)], &ctx, 10).unwrap_err();
        assert!(e.to_string().contains("16"), "{e}");
        assert_eq!(
            test_grid_mc(&[cell(1, MAX_MC_DICE)], &ctx, 10).unwrap()[0].trials,
            10
        );
    }
}
