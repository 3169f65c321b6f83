//! Streaming statistics of many skirmishes (per side and per combatant) and the
//! simulation that fills them: fixed-size per batch, nothing allocated per fight.

use serde::{Deserialize, Serialize};

use crate::engine::{Draws, Merge, Moments, Simulation, Tally};
use crate::systems::trinites::TrinitesRules;

use super::sim::{fight, End, Outcome, Setup};

/// One combatant's streaming statistics.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FighterAcc {
    /// Unconscious or dead at the end of the fight (docs: the state at the end; an Adam'
    /// with Darkness left counts too, issue 25 defect 4).
    pub down: u64,
    /// Knocked out (unconscious or dead) at some point of the fight, back up or not.
    #[serde(default)]
    pub knocked: u64,
    /// Unconscious at the end, alive, and losing a box an hour (T-LIFE coma).
    pub coma: u64,
    pub dead: u64,
    /// Hours a comatose combatant has before death without care.
    pub coma_hours: Moments,
    pub dealt: Moments,
    pub taken: Moments,
    /// Boxes ticked at the end, 0..=3×line+1.
    pub ticked: Tally,
    pub karma_spent: Moments,
    /// Round of the first knock-out, among fights where it happened.
    pub down_round: Moments,
}

impl FighterAcc {
    fn new(line: i64) -> FighterAcc {
        FighterAcc {
            down: 0,
            knocked: 0,
            coma: 0,
            dead: 0,
            coma_hours: Moments::default(),
            dealt: Moments::default(),
            taken: Moments::default(),
            ticked: Tally::new(0, 3 * line + 1),
            karma_spent: Moments::default(),
            down_round: Moments::default(),
        }
    }
}

impl Merge for FighterAcc {
    fn merge(&mut self, o: Self) {
        self.down += o.down;
        self.knocked += o.knocked;
        self.coma += o.coma;
        self.dead += o.dead;
        self.coma_hours.merge(o.coma_hours);
        self.dealt.merge(o.dealt);
        self.taken.merge(o.taken);
        self.ticked.merge(o.ticked);
        self.karma_spent.merge(o.karma_spent);
        self.down_round.merge(o.down_round);
    }
}

/// Streaming statistics of many skirmishes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SkirmishAcc {
    pub fights: u64,
    /// Fights won by each side, then draws, then undecided.
    pub outcomes: Vec<u64>,
    /// Round each fight ended in (undecided ones at `max_rounds`).
    pub rounds: Tally,
    /// Rounds of the fights with each outcome (same order as `outcomes`).
    pub rounds_by_outcome: Vec<Moments>,
    pub fighters: Vec<FighterAcc>,
}

impl SkirmishAcc {
    pub fn push(&mut self, s: &Setup, o: &Outcome) {
        self.fights += 1;
        let k = match o.end {
            End::Side(x) => x,
            End::Draw => s.sides,
            End::Undecided => s.sides + 1,
        };
        self.outcomes[k] += 1;
        self.rounds.push(o.rounds as i64);
        self.rounds_by_outcome[k].push(o.rounds as f64);
        for (i, a) in self.fighters.iter_mut().enumerate() {
            let t = &o.st[i];
            let trinite = s.prof[i].trinite;
            // Down: the state at the end, as documented (unconscious or dead).
            a.down += u64::from(t.dead() || t.ko());
            a.knocked += u64::from(t.down_round > 0 || t.dead() || t.ko());
            a.dead += u64::from(t.dead());
            // Coma (T-LIFE, a box an hour): not an Adam' with Darkness left, whom his
            // Archonte regenerates.
            let lasting = t.ko() && (!trinite || t.dark == 0);
            if lasting && !t.dead() && !t.nonlethal {
                a.coma += 1;
                // LES LIGNES DE VIE: 1 box an hour; death when a box is due and none is left.
                a.coma_hours.push((3 * t.line - t.ticked + 1) as f64);
            }
            a.dealt.push(t.dealt as f64);
            a.taken.push(t.taken as f64);
            a.ticked.push(t.ticked);
            a.karma_spent.push(t.spent as f64);
            if t.down_round > 0 {
                a.down_round.push(t.down_round as f64);
            }
        }
    }
}

impl Merge for SkirmishAcc {
    fn merge(&mut self, o: Self) {
        self.fights += o.fights;
        for (a, b) in self.outcomes.iter_mut().zip(o.outcomes) {
            *a += b;
        }
        self.rounds.merge(o.rounds);
        self.rounds_by_outcome.merge(o.rounds_by_outcome);
        self.fighters.merge(o.fighters);
    }
}

/// Many skirmishes of one validated file under the options in force.
pub struct SkirmishSim {
    pub setup: Setup,
    pub rules: TrinitesRules,
}

impl Simulation for SkirmishSim {
    type Acc = SkirmishAcc;

    fn empty(&self) -> SkirmishAcc {
        let s = &self.setup;
        SkirmishAcc {
            fights: 0,
            outcomes: vec![0; s.sides + 2],
            rounds: Tally::new(1, s.max_rounds as i64),
            rounds_by_outcome: vec![Moments::default(); s.sides + 2],
            fighters: (0..s.n)
                .map(|i| FighterAcc::new(self.rules.line(s.prof[i].trinite)))
                .collect(),
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut SkirmishAcc) {
        for mut rng in draws.trials(trials) {
            let rng = &mut rng;
            let o = fight(&self.setup, &self.rules, rng);
            acc.push(&self.setup, &o);
        }
    }
}
