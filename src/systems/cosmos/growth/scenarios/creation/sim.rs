//! The creation simulation: tallies of every created character, in fixed memory.

use crate::engine::{Merge, Moments, Rng64, Simulation, Tally};
use crate::systems::cosmos::growth::creation::{create, CreationPolicy};

/// What the creation simulation keeps, in fixed memory.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CreationAcc {
    /// hp, pm, the six stats, skill points, DNA points.
    pub values: Vec<Tally>,
    pub hp_pm_attempts: Tally,
    pub stat_attempts: Tally,
    pub stat_d100_rolls: u64,
    /// Rolls of all the HP/PM dice and of all the stat dice, summed.
    pub attempts: [u64; 2],
    pub moments: Vec<Moments>,
}

/// The quantities tallied, in order.
pub const QUANTITIES: [&str; 10] = [
    "hp",
    "pm",
    "force",
    "esprit",
    "charisme",
    "agilite",
    "precision",
    "chance",
    "skill_points",
    "dna_points",
];

impl Merge for CreationAcc {
    fn merge(&mut self, o: Self) {
        self.values.merge(o.values);
        self.hp_pm_attempts.merge(o.hp_pm_attempts);
        self.stat_attempts.merge(o.stat_attempts);
        self.stat_d100_rolls += o.stat_d100_rolls;
        self.attempts[0] += o.attempts[0];
        self.attempts[1] += o.attempts[1];
        self.moments.merge(o.moments);
    }
}

/// Creates characters.
pub struct CreationSim(pub CreationPolicy);

impl Simulation for CreationSim {
    type Acc = CreationAcc;

    fn empty(&self) -> CreationAcc {
        let mut values = vec![Tally::new(0, 500), Tally::new(0, 500)];
        values.extend((0..6).map(|_| Tally::new(0, 100)));
        values.push(Tally::new(0, 60));
        values.push(Tally::new(0, 30));
        CreationAcc {
            values,
            hp_pm_attempts: Tally::new(1, 30),
            stat_attempts: Tally::new(1, 30),
            stat_d100_rolls: 0,
            attempts: [0; 2],
            moments: vec![Moments::default(); QUANTITIES.len()],
        }
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut CreationAcc) {
        for _ in 0..trials {
            let c = create(rng, &self.0);
            let ch = c.character;
            let v = [
                ch.hp,
                ch.pm,
                ch.stats[0],
                ch.stats[1],
                ch.stats[2],
                ch.stats[3],
                ch.stats[4],
                ch.stats[5],
                ch.skill_points,
                ch.dna,
            ];
            for (i, x) in v.into_iter().enumerate() {
                acc.values[i].push(x as i64);
                acc.moments[i].push(x as f64);
            }
            acc.hp_pm_attempts.push(c.hp_pm_attempts as i64);
            acc.stat_attempts.push(c.stat_attempts as i64);
            acc.stat_d100_rolls += c.stat_d100_rolls as u64;
            acc.attempts[0] += c.hp_pm_attempts as u64;
            acc.attempts[1] += c.stat_attempts as u64;
        }
    }
}
