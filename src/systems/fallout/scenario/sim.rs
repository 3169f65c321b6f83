//! Monte Carlo of an AP-economy sequence: one trial plays every test in order with a
//! shared group pool (F-AP).

use crate::engine::counts_acc;
use crate::engine::{Draws, Merge, Rng64, Simulation, Tally};
use crate::systems::fallout::{BonusRules, PoolSampler, Shortfall, POOL_MAX};
use crate::systems::trace::{Quiet, Watch};

use super::model::ApEconomy;
use super::trace::Step as Seen;

counts_acc! {
    /// Integer tallies of one test over all trials (merging is exact).
    #[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
    pub struct StepAcc {
        pub pass: u64,
        pub complication: u64,
        pub bonus_dice: u64,
        /// Bonus dice bought at least partly with MJ AP.
        pub mj_dice: u64,
        pub pool_sum: u64,
        pub pool_sq: u64,
        pub mj_sum: u64,
        pub mj_sq: u64,
        /// AP earned above the 6-AP cap.
        pub ap_lost: u64,
    }
}

/// Tallies of a whole run: per test, and the number of tests passed per sequence.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ApAcc {
    pub steps: Vec<StepAcc>,
    pub passes: Tally,
}

impl Merge for ApAcc {
    fn merge(&mut self, o: Self) {
        self.steps.merge(o.steps);
        self.passes.merge(o.passes);
    }
}

/// The simulation of one scenario.
pub struct ApSim<'a> {
    pub model: &'a ApEconomy,
    samplers: Vec<PoolSampler>,
    shortfall: Shortfall,
    /// The group pool's cap (parameter `fallout_ap_pool_max`, F-AP).
    pool_max: u32,
    /// Bonus-dice cap and prices (parameters `fallout_bonus_*`, F-AP).
    bonus: BonusRules,
}

impl<'a> ApSim<'a> {
    pub fn new(model: &'a ApEconomy, shortfall: Shortfall) -> ApSim<'a> {
        ApSim {
            model,
            samplers: model
                .steps
                .iter()
                .map(|s| PoolSampler::new(&s.spec))
                .collect(),
            shortfall,
            pool_max: POOL_MAX,
            bonus: BonusRules::BOOK,
        }
    }

    /// The same simulation with the bonus-dice rules `bonus` (F-AP parameters).
    pub fn with_bonus(self, bonus: BonusRules) -> ApSim<'a> {
        ApSim { bonus, ..self }
    }

    /// The same simulation with the group pool capped at `cap` (F-AP parameter).
    pub fn with_pool_max(self, cap: u32) -> ApSim<'a> {
        ApSim {
            pool_max: cap,
            ..self
        }
    }

    /// One trial: every test of the sequence in order with the shared pools, tallied into
    /// `acc`; returns the tests passed. `w` sees each purchase, die and result (`Quiet` in
    /// the batch, a trace's steps in `cosmosim trace`): the one implementation of the rules.
    #[inline(always)]
    pub(super) fn sequence<W: Watch<Seen>>(
        &self,
        rng: &mut Rng64,
        acc: &mut ApAcc,
        w: &mut W,
    ) -> i64 {
        let m = self.model;
        let (mut pool, mut mj, mut passes) = (m.start_group, m.start_mj, 0i64);
        for (t, ((step, sampler), a)) in m
            .steps
            .iter()
            .zip(&self.samplers)
            .zip(acc.steps.iter_mut())
            .enumerate()
        {
            w.see(|| Seen::Test {
                test: t as u16,
                group: pool,
                mj,
            });
            // F-AP: the k-th bonus d20 costs 1, 2, 3 AP (parameters), at most 3 from all
            // sources; dice the pool cannot pay for give the MJ the AP (policy
            // `give_mj_ap`, reading `fallout_ap_shortfall`).
            let mut k = 0u8;
            while m.policy.wants(k, &step.p_pass) {
                let Some(p) = self.bonus.pay(k, pool, m.policy.give_mj_ap, self.shortfall) else {
                    w.see(|| Seen::NotBought {
                        die: k + 1,
                        price: self.bonus.price_of(k),
                        p_pass: step.p_pass[k as usize],
                    });
                    break;
                };
                pool -= p.from_pool;
                mj += p.to_mj;
                a.mj_dice += u64::from(p.to_mj > 0);
                k += 1;
                w.see(|| Seen::Buy {
                    die: k,
                    p_pass: step.p_pass[k as usize - 1],
                    from_pool: p.from_pool,
                    to_mj: p.to_mj,
                    group: pool,
                    mj,
                });
            }
            // F-TEST: each d20 at or under the TN is a success (2 on a crit face or the tag
            // rank), a face in the complication range a complication.
            let (s, c) = sampler.pool_seen(rng, 2 + k, |face, successes, complication| {
                w.see(|| Seen::Die {
                    face,
                    successes,
                    complication: complication > 0,
                });
            });
            let mut lost = 0;
            if s >= step.difficulty {
                passes += 1;
                a.pass += 1;
                // F-AP: excess successes go to the group pool, capped at 6.
                let total = pool + u32::from(s - step.difficulty);
                lost = total.saturating_sub(self.pool_max);
                a.ap_lost += u64::from(lost);
                pool = total.min(self.pool_max);
            }
            w.see(|| Seen::Result {
                successes: s,
                difficulty: step.difficulty,
                complication: c > 0,
                lost,
                group: pool,
                mj,
            });
            a.complication += u64::from(c);
            a.bonus_dice += u64::from(k);
            a.pool_sum += u64::from(pool);
            a.pool_sq += u64::from(pool * pool);
            a.mj_sum += u64::from(mj);
            a.mj_sq += u64::from(mj) * u64::from(mj);
        }
        acc.passes.push(passes);
        w.see(|| Seen::End {
            passes: passes as u16,
            group: pool,
            mj,
        });
        passes
    }
}

impl Simulation for ApSim<'_> {
    type Acc = ApAcc;

    fn empty(&self) -> ApAcc {
        ApAcc {
            steps: vec![StepAcc::default(); self.model.steps.len()],
            passes: Tally::new(0, self.model.steps.len() as i64),
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut ApAcc) {
        for mut rng in draws.trials(trials) {
            self.sequence(&mut rng, acc, &mut Quiet);
        }
    }
}
