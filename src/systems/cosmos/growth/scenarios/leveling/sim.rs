//! Characters created and levelled (C-LEVEL-1..4, C-LD-1), tallied per level.

use super::model::LevelingModel;
use crate::engine::{Counts, Merge, Moments, Rng64, Simulation, Tally};
use crate::systems::cosmos::growth::creation::create;
use crate::systems::cosmos::growth::leveling::{campaign_samplers, level_up, Hero};
use crate::systems::cosmos::{TestRules, TestSampler};

/// Quantities tallied per level.
pub const QUANTITIES: [&str; 12] = [
    "force",
    "esprit",
    "charisme",
    "agilite",
    "precision",
    "chance",
    "hp",
    "pm",
    "skill_points",
    "skill_points_gained",
    "dna_points",
    "karma",
];

/// Per-level tallies: `values[level_index * 12 + q]`, Chance-bonus counts per level.
#[derive(Clone, Debug)]
pub struct LevelAcc {
    pub values: Vec<Tally>,
    pub moments: Vec<Moments>,
    pub bonus: Vec<Counts<2>>,
}

impl Merge for LevelAcc {
    fn merge(&mut self, o: Self) {
        self.values.merge(o.values);
        self.moments.merge(o.moments);
        self.bonus.merge(o.bonus);
    }
}

/// Creates characters and takes each to `max_level`.
pub struct LevelingSim {
    pub model: LevelingModel,
    pub rules: TestRules,
    campaign: Vec<TestSampler>,
}

impl LevelingSim {
    pub fn new(model: LevelingModel, rules: TestRules) -> LevelingSim {
        let campaign = if model.levels.campaign.tests_per_level > 0 {
            campaign_samplers(&model.levels.campaign, &rules)
        } else {
            vec![]
        };
        LevelingSim {
            model,
            rules,
            campaign,
        }
    }

    fn record(&self, h: &Hero, acc: &mut LevelAcc) {
        let i = (h.level - 1) as usize * QUANTITIES.len();
        let c = &h.c;
        let v = [
            c.stats[0],
            c.stats[1],
            c.stats[2],
            c.stats[3],
            c.stats[4],
            c.stats[5],
            c.hp,
            c.pm,
            c.skill_points,
            h.skill_gained,
            c.dna,
            h.karma as i32,
        ];
        for (q, x) in v.into_iter().enumerate() {
            acc.values[i + q].push(x as i64);
            acc.moments[i + q].push(x as f64);
        }
    }
}

impl Simulation for LevelingSim {
    type Acc = LevelAcc;

    fn empty(&self) -> LevelAcc {
        let n = self.model.max_level as usize;
        let mut values = Vec::with_capacity(n * QUANTITIES.len());
        for _ in 0..n {
            for q in QUANTITIES {
                values.push(match q {
                    "hp" | "pm" => Tally::new(0, 6000),
                    "karma" => Tally::new(-10, 10),
                    _ => Tally::new(0, 200),
                });
            }
        }
        LevelAcc {
            values,
            moments: vec![Moments::default(); n * QUANTITIES.len()],
            bonus: vec![Counts::default(); n],
        }
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut LevelAcc) {
        let m = &self.model;
        for _ in 0..trials {
            let mut h = Hero::new(create(rng, &m.creation).character, m.levels.start_karma);
            self.record(&h, acc);
            for _ in 2..=m.max_level {
                let o = level_up(
                    &mut h,
                    rng,
                    &m.levels,
                    &m.creation.priority,
                    &self.rules,
                    &self.campaign,
                );
                acc.bonus[(h.level - 1) as usize].add(usize::from(o.is_success()));
                self.record(&h, acc);
            }
        }
    }
}
