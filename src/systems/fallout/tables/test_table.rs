use polars::prelude::*;

use crate::context::{Context, Method};
use crate::engine::counts_acc;
use crate::engine::{Draws, Merge, Rng64, Simulation};
use crate::error::UserError;
use crate::lang::Lang;
use crate::report::{float_column, interval_columns, Chart, Figure, Output, Provenance};
use crate::stats::mean_ci;
use crate::stats::{wilson, Estimate, Proportion};
use crate::systems::fallout::{
    odds, pool_dist, BonusRules, DieSpec, PoolSampler, TestOdds, OPTIONS,
};
// Not re-exported by the system: only the tables roll pools as codes.
use crate::systems::fallout::test::{PoolCodes, POOL_CODES};

use super::chart::{chart_difficulty, push_series, tn_chart};
use super::range_text;

/// The grid of the `fallout-test` table.
#[derive(Clone, Debug, PartialEq)]
pub struct TestGrid {
    pub tns: Vec<u8>,
    pub difficulties: Vec<u8>,
    pub dice: Vec<u8>,
    /// 0 = not a tag skill; ranks above the TN are skipped.
    pub tag_ranks: Vec<u8>,
    /// Complication range 1..5, the same for every cell.
    pub complication: u8,
}

impl TestGrid {
    /// The full default grid: TN 2..20, difficulty 0..5, 2..5 dice, tag rank 0..6.
    pub fn full(complication: u8) -> TestGrid {
        TestGrid {
            tns: (2..=20).collect(),
            difficulties: (0..=5).collect(),
            dice: (2..=5).collect(),
            tag_ranks: (0..=6).collect(),
            complication,
        }
    }

    /// Cells in CSV order (TN, difficulty, dice, tag rank), tag ranks above the TN skipped.
    pub fn cells(&self) -> Vec<TestCell> {
        let mut v = Vec::new();
        for &tn in &self.tns {
            for &difficulty in &self.difficulties {
                for &dice in &self.dice {
                    for &tag_rank in self.tag_ranks.iter().filter(|&&t| t <= tn) {
                        v.push(TestCell {
                            tn,
                            difficulty,
                            dice,
                            tag_rank,
                            complication: self.complication,
                            crit_face: crate::systems::fallout::CRIT_FACE,
                            complication_from: crate::systems::fallout::COMPLICATION_FROM,
                        });
                    }
                }
            }
        }
        v
    }
}

/// One cell of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TestCell {
    pub tn: u8,
    pub difficulty: u8,
    pub dice: u8,
    pub tag_rank: u8,
    pub complication: u8,
    /// Faces up to this count two successes (parameter `fallout_crit_face`, F-TEST; book 1).
    pub crit_face: u8,
    /// Lowest complication face at range 1 (parameter `fallout_complication_from`,
    /// F-TEST; book 20).
    pub complication_from: u8,
}

impl TestCell {
    pub fn spec(&self, lang: Lang) -> Result<DieSpec, UserError> {
        Ok(
            DieSpec::new(lang, self.tn, self.tag_rank, self.complication)?
                .with_faces(self.crit_face, self.complication_from),
        )
    }

    /// Exact odds of the cell.
    pub fn exact(&self, lang: Lang) -> Result<TestOdds, UserError> {
        Ok(odds(
            &pool_dist(&self.spec(lang)?, self.dice),
            self.difficulty,
        ))
    }
}

/// The stream key of a cell's pool: its values but the difficulty. The difficulty only
/// reads the roll, so the cells of one pool at every difficulty share its dice (issue 28:
/// the report's cross-check rolls each pool once, not once per difficulty), and a cell
/// gives the same numbers whatever grid it is part of.
pub fn cell_key(c: &TestCell) -> crate::engine::StreamKey {
    crate::engine::StreamKey::new("fallout.test.pool")
        .int("tn", c.tn.into())
        .int("dice", c.dice.into())
        .int("tag_rank", c.tag_rank.into())
        .int("complication", c.complication.into())
}

counts_acc! {
    /// Monte Carlo tallies of one cell; AP sums are integers, so merging is exact.
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct TestAcc {
        pub trials: u64,
        pub pass: u64,
        pub complication: u64,
        pub ap_sum: u64,
        pub ap_sq: u64,
    }
}

impl TestAcc {
    pub fn p_pass(&self) -> f64 {
        self.pass as f64 / self.trials as f64
    }
    pub fn p_complication(&self) -> f64 {
        self.complication as f64 / self.trials as f64
    }
    pub fn mean_ap(&self) -> f64 {
        self.ap_sum as f64 / self.trials as f64
    }
    /// 95% interval of the mean AP (Student t on the per-trial AP).
    pub fn mean_ap_interval(&self) -> (f64, f64) {
        let (_, lo, hi) = mean_ci(self.ap_sum, self.ap_sq, self.trials);
        (lo, hi)
    }
}

/// Most dice a Monte Carlo pool may hold: two successes a die at most, so the success
/// histogram has `2 * MAX_MC_DICE + 1` bins (the tables allow 2..5).
pub const MAX_MC_DICE: u8 = 15;

/// Monte Carlo tallies of one pool: how many rolls gave each success count, and how many
/// had a complication. Every difficulty's pass count and AP sums follow from the
/// histogram exactly, so a pool is rolled once for all of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PoolAcc {
    pub trials: u64,
    pub complication: u64,
    pub successes: [u64; 2 * MAX_MC_DICE as usize + 2],
}

impl Merge for PoolAcc {
    fn merge(&mut self, o: Self) {
        self.trials += o.trials;
        self.complication += o.complication;
        for (a, b) in self.successes.iter_mut().zip(o.successes) {
            *a += b;
        }
    }
}

impl PoolAcc {
    /// The tallies of the cell that reads this pool at `difficulty`.
    pub fn at(&self, difficulty: u8) -> TestAcc {
        let mut a = TestAcc {
            trials: self.trials,
            complication: self.complication,
            ..TestAcc::default()
        };
        for (s, &n) in self.successes.iter().enumerate() {
            if s >= difficulty as usize {
                let ap = (s - difficulty as usize) as u64;
                a.pass += n;
                a.ap_sum += ap * n;
                a.ap_sq += ap * ap * n;
            }
        }
        a
    }
}

struct PoolSim {
    sampler: PoolSampler,
    codes: PoolCodes,
    dice: u8,
}

impl PoolSim {
    /// The pools of the tables (at most
    /// [`POOL_CODE_DICE`](crate::systems::fallout::test::POOL_CODE_DICE) dice): each roll is one code,
    /// counted in a small local array and read into the histogram once per batch.
    #[inline(always)]
    fn tally<const DICE: u8>(&self, rng: &mut Rng64, trials: u64, a: &mut PoolAcc) {
        let mut n = [0u64; POOL_CODES];
        let mut roll = |rng: &mut Rng64| {
            n[usize::from(self.codes.pool::<DICE>(rng)) & (POOL_CODES - 1)] += 1;
        };
        // Two pools to a turn of the loop: its count and test are a share of a trial.
        for _ in 0..trials / 2 {
            roll(rng);
            roll(rng);
        }
        if trials % 2 == 1 {
            roll(rng);
        }
        for (code, &k) in n.iter().enumerate() {
            let (s, c) = PoolCodes::read(code);
            a.successes[s] += k;
            a.complication += c * k;
        }
    }
}

impl Simulation for PoolSim {
    type Acc = PoolAcc;

    fn empty(&self) -> PoolAcc {
        PoolAcc::default()
    }

    #[inline(never)]
    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut PoolAcc) {
        let rng = &mut draws.batch();
        let mut a = PoolAcc {
            trials,
            ..Default::default()
        };
        match self.dice {
            1 => self.tally::<1>(rng, trials, &mut a),
            2 => self.tally::<2>(rng, trials, &mut a),
            3 => self.tally::<3>(rng, trials, &mut a),
            4 => self.tally::<4>(rng, trials, &mut a),
            5 => self.tally::<5>(rng, trials, &mut a),
            _ => {
                for _ in 0..trials {
                    let (s, c) = self.sampler.pool_paired(rng, self.dice);
                    a.successes[s as usize] += 1;
                    a.complication += u64::from(c);
                }
            }
        }
        acc.merge(a);
    }
}

/// Monte Carlo tallies per cell, `trials` per cell. Cells that differ only by difficulty
/// read the same rolls of their pool ([`cell_key`]); each pool runs once, in the order
/// its first cell comes.
pub fn test_grid_mc(
    cells: &[TestCell],
    ctx: &Context,
    trials: u64,
) -> Result<Vec<TestAcc>, UserError> {
    let pool_of = |c: &TestCell| TestCell {
        difficulty: 0,
        ..*c
    };
    let mut pools: Vec<TestCell> = Vec::new();
    let mut index = Vec::with_capacity(cells.len());
    for c in cells {
        if c.dice > MAX_MC_DICE {
            return Err(UserError::new(tr!(
                ctx.lang,
                "fallout.test.too_many_dice",
                dice = c.dice,
                max = MAX_MC_DICE
            )));
        }
        let p = pool_of(c);
        let i = match pools.iter().position(|q| *q == p) {
            Some(i) => i,
            None => {
                pools.push(p);
                pools.len() - 1
            }
        };
        index.push(i);
    }
    let progress = ctx.progress(trials * pools.len() as u64, "fallout-test");
    let out: Vec<PoolAcc> = ctx
        .engine
        .map_cells(&pools, |c| {
            let sampler = PoolSampler::new(&c.spec(ctx.lang)?);
            let sim = PoolSim {
                codes: PoolCodes::new(&sampler),
                sampler,
                dice: c.dice,
            };
            Ok(ctx.engine.run(&sim, &cell_key(c), trials, &progress))
        })
        .into_iter()
        .collect::<Result<_, UserError>>()?;
    progress.finish();
    Ok(cells
        .iter()
        .zip(index)
        .map(|(c, i)| out[i].at(c.difficulty))
        .collect())
}

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
            (a.mean_ap(), lo, hi).into()
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
