//! The `fallout-test` table by Monte Carlo: each pool rolled once, its success histogram
//! read at every difficulty.

use crate::context::Context;
use crate::engine::{Draws, Merge, Rng64, Simulation};
use crate::error::UserError;
use crate::systems::fallout::PoolSampler;
// Not re-exported by the system: only the tables roll pools as codes.
use crate::systems::fallout::sampler::{PoolCodes, POOL_CODES};

use super::test_cells::{cell_key, TestAcc, TestCell};

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
    /// [`POOL_CODE_DICE`](crate::systems::fallout::sampler::POOL_CODE_DICE) dice): each roll is one code,
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
