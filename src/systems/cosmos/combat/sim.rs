//! The combat as an engine `Simulation`: read-only tables built once per run.

use crate::dice::Die;
use crate::engine::{Rng64, Simulation};
use crate::systems::cosmos::growth::inventory;
use crate::systems::cosmos::{TestSampler, TestSpec, KARMA_MAX, KARMA_MIN};

use super::acc::CombatAcc;
use super::element::coefficient;
use super::fight::Fight;
use super::model::{AuraUse, CombatModel, AGILITE, FORCE};
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
    /// Whether some combatant may spend aura points (C-AURA).
    pub(super) any_aura: bool,
    /// Per combatant: the overload malus on Agilité, in points (C-INV), 0 if not given.
    pub(super) agility_malus: Vec<i32>,
}

impl CombatSim {
    pub fn new(model: CombatModel, rules: CombatRules) -> CombatSim {
        let n = model.fighters.len();
        // C-INV: -5 Agilité per slot over 4 x floor(Force / 10).
        let agility_malus: Vec<i32> = model
            .fighters
            .iter()
            .zip(&model.small)
            .map(|(f, s)| match s.inventory_slots_used {
                Some(load) => inventory::agility_malus(f.stats[FORCE], load as i32) as i32,
                None => 0,
            })
            .collect();
        let mut samplers = Vec::with_capacity(n * 6 * KARMAS);
        for (f, malus) in model.fighters.iter().zip(&agility_malus) {
            for (i, &stat) in f.stats.iter().enumerate() {
                let m = if i == AGILITE { *malus } else { 0 };
                for k in KARMA_MIN..=KARMA_MAX {
                    let spec = TestSpec::new(stat as f64, k).expect("stats and karma validated");
                    let spec = if m == 0 {
                        spec
                    } else {
                        spec.with_modifier(m as f64, rules.test.percent_mode)
                    };
                    samplers.push(TestSampler::new(&spec, &rules.test));
                }
            }
        }
        let any_aura = model
            .small
            .iter()
            .any(|s| s.aura_points > 0 && s.aura_use != AuraUse::Never);
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
            any_aura,
            agility_malus,
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

    /// Agilité of `f` for turn order and the dodge-or-parry choice (C-INV overload).
    #[inline(always)]
    pub(super) fn agility(&self, f: usize) -> i32 {
        self.model.fighters[f].stats[AGILITE] + self.agility_malus[f]
    }

    /// Test modifier a stat carries for the whole combat (C-INV overload on Agilité).
    #[inline(always)]
    pub(super) fn stat_modifier(&self, f: usize, stat: usize) -> i32 {
        if stat == AGILITE {
            self.agility_malus[f]
        } else {
            0
        }
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
