//! The statistics of many duels and the simulation that runs them without allocating
//! (one stream per duel: `fight.rs` `fight`, unwatched).

use crate::engine::{Counts, Draws, Merge, Moments, Simulation, Tally};
use crate::systems::trinites::TrinitesRules;

use super::fight::{fight, DuelEnd, FightRecord};
use super::model::Combat;
use super::primes::{Penalty, Prime};

/// Streaming statistics of many duels.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct DuelStats {
    /// [Adam' wins, humans win, draw].
    pub ends: Counts<3>,
    /// Rounds to knock-out when the Adam' wins / when the humans win.
    pub rounds_win: Tally,
    pub rounds_loss: Tally,
    pub rounds_win_m: Moments,
    pub rounds_loss_m: Moments,
    pub karma_spent: Moments,
    /// Duels where the Adam' lost consciousness at least once.
    pub adam_fell: u64,
}

impl DuelStats {
    pub fn new(max_rounds: u32) -> DuelStats {
        DuelStats {
            ends: Counts::default(),
            rounds_win: Tally::new(1, max_rounds as i64),
            rounds_loss: Tally::new(1, max_rounds as i64),
            rounds_win_m: Moments::default(),
            rounds_loss_m: Moments::default(),
            karma_spent: Moments::default(),
            adam_fell: 0,
        }
    }

    pub fn push(&mut self, r: &FightRecord) {
        self.ends.add(r.end as usize);
        match r.end {
            DuelEnd::AdamWins => {
                self.rounds_win.push(r.rounds as i64);
                self.rounds_win_m.push(r.rounds as f64);
            }
            DuelEnd::HumansWin => {
                self.rounds_loss.push(r.rounds as i64);
                self.rounds_loss_m.push(r.rounds as f64);
            }
            DuelEnd::Draw => {}
        }
        self.karma_spent.push(r.karma_spent as f64);
        self.adam_fell += u64::from(r.adam_fell);
    }
}

impl Merge for DuelStats {
    fn merge(&mut self, o: Self) {
        self.ends.merge(o.ends);
        self.rounds_win.merge(o.rounds_win);
        self.rounds_loss.merge(o.rounds_loss);
        self.rounds_win_m.merge(o.rounds_win_m);
        self.rounds_loss_m.merge(o.rounds_loss_m);
        self.karma_spent.merge(o.karma_spent);
        self.adam_fell += o.adam_fell;
    }
}

/// Many duels of one (prime, pénalité) pair.
pub struct DuelSim {
    pub combat: Combat,
    pub pair: (Prime, Penalty),
    pub rules: TrinitesRules,
}

impl DuelSim {
    /// The stream key of this pair: the file's key and the pair's values (not its
    /// position in the list).
    pub fn key(&self, file: &crate::engine::StreamKey) -> crate::engine::StreamKey {
        file.clone()
            .int("prime", self.pair.0 as i64)
            .int("penalty", self.pair.1 as i64)
    }
}

impl Simulation for DuelSim {
    type Acc = DuelStats;

    fn empty(&self) -> DuelStats {
        DuelStats::new(self.combat.max_rounds)
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut DuelStats) {
        for mut rng in draws.trials(trials) {
            let rng = &mut rng;
            let r = fight(&self.combat, self.pair, &self.rules, rng);
            acc.push(&r);
        }
    }
}
