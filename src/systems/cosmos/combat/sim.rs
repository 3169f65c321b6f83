//! The combat as an engine `Simulation`: read-only tables built once per run.

use crate::dice::Die;
use crate::engine::{Rng64, Simulation};
use crate::systems::cosmos::{TestSampler, TestSpec, KARMA_MAX, KARMA_MIN};

use super::acc::CombatAcc;
use super::element::coefficient;
use super::fight::Fight;
use super::model::CombatModel;
use super::options::CombatRules;

const KARMAS: usize = (KARMA_MAX - KARMA_MIN + 1) as usize;

/// A validated combat with its rules and lookup tables.
pub struct CombatSim {
    pub model: CombatModel,
    pub rules: CombatRules,
    /// One d100 sampler per (combatant, stat, karma) at modifier 0 (C-TEST via
    /// `TestSampler`); tests with a bonus or malus fall back to `TestSpec::roll`.
    samplers: Vec<TestSampler>,
    /// `coef[attack * n + target]`: element coefficient of an attack on a combatant.
    coef: Vec<f64>,
    /// `expected[attack * n + target]`: mean dice x coefficient, for attack choice.
    expected: Vec<f64>,
    pub n: usize,
    /// Per attack: a one-draw damage table when the dice are small enough.
    damage_tables: Vec<Option<(Die, Vec<i32>)>>,
    /// Per combatant: whether its point policy reacts between actions (HP or ally down).
    pub(super) reactive: Vec<bool>,
    pub(super) any_reactive: bool,
    /// Per combatant: whether its point policy is checked at the start of its turns.
    pub(super) turn_start: Vec<bool>,
}

impl CombatSim {
    pub fn new(model: CombatModel, rules: CombatRules) -> CombatSim {
        let n = model.fighters.len();
        let mut samplers = Vec::with_capacity(n * 6 * KARMAS);
        for f in &model.fighters {
            for &stat in &f.stats {
                for k in KARMA_MIN..=KARMA_MAX {
                    let spec = TestSpec::new(stat as f64, k).expect("stats and karma validated");
                    samplers.push(TestSampler::new(&spec, &rules.test));
                }
            }
        }
        let mut coef = Vec::with_capacity(model.attacks.len() * n);
        let mut expected = Vec::with_capacity(model.attacks.len() * n);
        for a in &model.attacks {
            let mean = a.dice.mean();
            for f in &model.fighters {
                let c = coefficient(&a.elements, f.element, rules.dual);
                coef.push(c);
                expected.push(mean * c);
            }
        }
        let damage_tables = model.attacks.iter().map(|a| a.dice.table(4096)).collect();
        let reactive: Vec<bool> = model
            .fighters
            .iter()
            .map(|f| {
                let r = |t: &super::model::PointTriggers| t.below_hp.is_some() || t.when_ally_down;
                (f.dark_points > 0 && r(&f.policy.dark))
                    || (f.light_points > 0 && r(&f.policy.light))
            })
            .collect();
        let any_reactive = reactive.iter().any(|&r| r);
        let turn_start = model
            .fighters
            .iter()
            .zip(&reactive)
            .map(|(f, &r)| {
                r || (f.dark_points > 0 && f.policy.dark.on_turn_start)
                    || (f.light_points > 0 && f.policy.light.on_turn_start)
            })
            .collect();
        CombatSim {
            damage_tables,
            reactive,
            any_reactive,
            turn_start,
            model,
            rules,
            samplers,
            coef,
            expected,
            n,
        }
    }

    #[inline(always)]
    pub(super) fn sampler(&self, fighter: usize, stat: usize, karma: i8) -> &TestSampler {
        &self.samplers[(fighter * 6 + stat) * KARMAS + (karma - KARMA_MIN) as usize]
    }

    /// One roll of an attack's damage dice.
    #[inline(always)]
    pub(super) fn damage_roll(&self, attack: usize, rng: &mut Rng64) -> i32 {
        match &self.damage_tables[attack] {
            Some((die, totals)) => totals[die.index(rng) as usize],
            None => self.model.attacks[attack].dice.roll(rng),
        }
    }

    #[inline(always)]
    pub(super) fn coef(&self, attack: usize, target: usize) -> f64 {
        self.coef[attack * self.n + target]
    }

    #[inline(always)]
    pub(super) fn expected(&self, attack: usize, target: usize) -> f64 {
        self.expected[attack * self.n + target]
    }

    pub fn empty_acc(&self) -> CombatAcc {
        CombatAcc::new(self.model.sides.len(), self.model.max_rounds, self.n)
    }
}

impl Simulation for CombatSim {
    type Acc = CombatAcc;

    fn empty(&self) -> CombatAcc {
        self.empty_acc()
    }

    fn run_batch(&self, rng: &mut Rng64, trials: u64, acc: &mut CombatAcc) {
        // One fight state per batch, reset per combat: no allocation per combat.
        let mut fight = Fight::new(self, rng, acc);
        for _ in 0..trials {
            fight.combat();
        }
    }
}
