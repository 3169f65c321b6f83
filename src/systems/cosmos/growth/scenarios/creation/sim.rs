//! The creation simulation: tallies of every created character, in fixed memory.

use crate::engine::{Draws, Merge, Moments, Simulation, Tally};
use crate::systems::cosmos::growth::creation::{create_with, CreationPolicy};
use crate::systems::cosmos::growth::races::Races;

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
    /// Characters per final race/class sheet, the last entry "none met" (empty without
    /// sheets).
    pub races: Vec<u64>,
    /// Stats per final sheet: `[sheet * 6 + stat]`.
    pub race_stats: Vec<Moments>,
    /// Accepted stat rolls thrown away for missing the intended sheet (reroll reading).
    pub race_rerolls: u64,
    /// Characters whose every set of dice was kept at its first roll (`cosmosim trace`'s
    /// outcome `accepted_first` without sheets, issue 27).
    #[serde(default)]
    pub accepted_first: u64,
}

/// The first of the quantities the previous edition does not have (skill points, DNA
/// points; C-EDITION): tallied at 0, never reported.
pub const POINTS: usize = 8;

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
        for (a, b) in self.races.iter_mut().zip(o.races) {
            *a += b;
        }
        self.race_stats.merge(o.race_stats);
        self.race_rerolls += o.race_rerolls;
        self.accepted_first += o.accepted_first;
    }
}

/// Creates characters, whose stats must meet the race/class sheets (none: the book's
/// creation alone).
pub struct CreationSim(pub CreationPolicy, pub Races);

impl CreationSim {
    /// Sheets plus "none met" (0 without sheets).
    fn slots(&self) -> usize {
        if self.1.sheets.is_empty() {
            0
        } else {
            self.1.sheets.len() + 1
        }
    }
}

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
            races: vec![0; self.slots()],
            race_stats: vec![Moments::default(); self.slots() * 6],
            race_rerolls: 0,
            accepted_first: 0,
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut CreationAcc) {
        for mut rng in draws.trials(trials) {
            let rng = &mut rng;
            let c = create_with(rng, &self.0, &self.1);
            let ch = c.character;
            if !self.1.sheets.is_empty() {
                let k = c.race.unwrap_or(self.1.sheets.len());
                acc.races[k] += 1;
                for (i, v) in ch.stats.iter().enumerate() {
                    acc.race_stats[k * 6 + i].push(*v as f64);
                }
                acc.race_rerolls += c.race_rerolls as u64;
            }
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
            acc.accepted_first += u64::from(super::trace::accepted_first(&c));
        }
    }
}
