//! The combat as an engine `Simulation`: read-only tables built once per run
//! (`sim_build.rs`), read on the hot path.

use crate::dice::Die;
use crate::engine::{Draws, Rng64, Simulation};
use crate::systems::cosmos::{CritBand, MovedTests, Outcome, TestBank, KARMA_MAX, KARMA_MIN};

use super::acc::CombatAcc;
use super::fight::Fight;
use super::model::{AttackCosts, CombatModel, AGILITE, MAX_ATTACKS, MAX_FIGHTERS};
use super::options::CombatRules;
use super::order::RunOrder;
use super::plan::{Plan, PlanWork};
use super::test_def::TestDef;

pub(super) const KARMAS: usize = (KARMA_MAX - KARMA_MIN + 1) as usize;

/// `CombatSim::only_attack` of a combatant with several attacks (or none).
pub(super) const NO_ATTACK: u8 = u8::MAX;

/// A validated combat with its rules and lookup tables.
pub struct CombatSim {
    pub model: CombatModel,
    pub rules: CombatRules,
    /// Karma after a test, by karma before (from `KARMA_MIN`) and outcome: `drift` under
    /// the run's rules (C-KARMA-1), read once per test in the turn loop.
    pub(super) karma_next: [[i8; 6]; KARMAS],
    /// The d100 tests per (test block, karma) at modifier 0, keyed
    /// `block * 21 + karma + 10` (C-TEST via `TestBank`: equal tables kept once, issue 29); tests with a bonus
    /// or malus fall back to `TestSpec::roll`. Blocks `f * 6 + stat` are the plain stat
    /// tests; attacks with a mean of stats, a fixed threshold or a modifier get a block of
    /// their own per combatant that has them.
    pub(super) tests: TestBank,
    /// Tests with a modifier or under fatigue (`test_moved.rs`): `TestSpec::roll`'s draws
    /// and outcomes from per-karma-band tables.
    pub(super) moved: MovedTests,
    /// The static part of each block's test.
    pub(super) blocks: Vec<TestDef>,
    /// `attack_block[f * attacks + a]`: the block of attack `a`'s test by `f`.
    pub(super) attack_block: Vec<u32>,
    /// Whether some attack has uses or a cooldown, HP costs, several targets; some
    /// combatant armour (the hot path skips what no one uses).
    pub(super) any_limited: bool,
    /// Whether some attack has several targets, or costs PM.
    pub(super) any_multi: bool,
    pub(super) any_pm_cost: bool,
    pub(super) any_hp_cost: bool,
    pub(super) any_armour: bool,
    /// Whether some combatant is fatigued (C-FAT-4 exhaustion checks).
    pub(super) any_fatigue: bool,
    /// Fights start from FP/FM given per fight (a linked expedition's travellers, see
    /// [`CombatSim::carrying_fatigue`]): the test blocks take their fatigue from the
    /// tracks, not from the file's starting values.
    pub(super) carried: bool,
    /// Per combatant: histogram bucket widths (dealt, taken, HP at end), as divisors for
    /// the end of each combat.
    pub(super) widths: Vec<[super::acc::Width; 3]>,
    /// `coef[attack * n + target]`: element coefficient of an attack on a combatant.
    pub(super) coef: Vec<f64>,
    /// `expected[attack * n + target]`: mean dice x coefficient, for attack choice.
    pub(super) expected: Vec<f64>,
    pub n: usize,
    /// Per attack: a one-draw damage table when the dice are small enough.
    pub(super) damage_tables: Vec<Option<(Die, Vec<i32>)>>,
    /// Whether some combatant's point policy reacts between actions (HP or ally down).
    pub(super) any_reactive: bool,
    /// The damage multiplier of each attack tier (C-CMB-4): 1 for a plain success, the
    /// critical and super-critical ones (parameters `crit_mult`, `super_mult`).
    pub(super) tier_mult: [f64; 4],
    /// Whether some combatant may ever enter a posture: it holds a point of a kind its
    /// triggers or `spend` rules may spend (C-LD-2). Without one the plan leaves the
    /// postures out (`plan.rs`).
    pub(super) any_posture: bool,
    /// Bit f: whether `f`'s point policy is checked at the start of its turns.
    pub(super) turn_start: u32,
    /// Whether some combatant may spend aura points (C-AURA).
    pub(super) any_aura: bool,
    /// Per combatant: the overload malus on Agilité, in points (C-INV), 0 if not given.
    pub(super) agility_malus: Vec<i32>,
    /// Whether some combatant has policy rules, may place a buff, may concentrate
    /// (trigger.rs, support.rs): the hot path tests these flags only.
    pub(super) any_rules: bool,
    pub(super) any_effects: bool,
    pub(super) any_focus: bool,
    /// `any_effects || any_focus`: one test of the test path.
    pub(super) any_mods: bool,
    /// Whether some combatant has a support action (its state is reset per combat).
    pub(super) any_support: bool,
    /// Whether some combatant holds or some attack places a periodic effect.
    pub(super) any_periodic: bool,
    /// Per combatant: the mask of the combatants on another side (bit g): the turn loop
    /// tests enemies by mask rather than through `Fighter`.
    pub(super) enemy_mask: [u32; MAX_FIGHTERS],
    /// Per side: the mask of its combatants (bit g), for the end-of-combat check.
    pub(super) side_members: [u32; MAX_FIGHTERS],
    /// Per combatant: the mask of the others on its side, and its max HP as the rule
    /// conditions compare with it (`trigger.rs`, `posture.rs`).
    pub(super) ally_mask: [u32; MAX_FIGHTERS],
    pub(super) max_hp: [f64; MAX_FIGHTERS],
    /// Per combatant: the share of a hit its armour keeps (`1 - percent / 100`, None
    /// without a percentage) and its flat points.
    pub(super) armour: [(Option<f64>, i32); MAX_FIGHTERS],
    /// Per combatant: whether its target policy takes a lone enemy without looking
    /// (`lowest_hp`, `highest_hp`, `first`, `best_element`; `target.rs`).
    pub(super) picks_alone: [bool; MAX_FIGHTERS],
    /// Per combatant: its attack when it has exactly one (`action.rs`), else `NO_ATTACK`.
    pub(super) only_attack: [u8; MAX_FIGHTERS],
    /// Bit f: `f` has a `mode` rule, a `use` rule (`trigger.rs`): one word the turn loop
    /// reads instead of the combatant's rules.
    pub(super) rule_modes: u32,
    pub(super) rule_actions: u32,
    /// Per combatant (bit f): whether its point policy reacts between actions.
    pub(super) reactive_mask: u32,
    /// Per combatant, Dark then Light: the HP its `below_hp` trigger compares with (the
    /// same product `x * max HP` as `posture.rs`), -inf without one; and whether a trigger
    /// of either kind fires when an ally is down or at the start of its turns. They let the
    /// turn loop skip the point check when nothing can fire.
    pub(super) point_hp: [[f64; 2]; MAX_FIGHTERS],
    pub(super) point_other: [bool; MAX_FIGHTERS],
    /// Bit f: `f` reacts between actions through its `below_hp` triggers alone (no other
    /// trigger, no `spend` rule), so only its HP under one of them lets it spend.
    pub(super) hp_only: u32,
    /// Per combatant: whether a policy rule of its own may spend a point (`spend`): only
    /// those combatants need `rule_points` between actions.
    pub(super) point_rules: [bool; MAX_FIGHTERS],
    /// Per combatant, Dark then Light: `u8::MAX` when a trigger or a `spend` rule of that
    /// kind may spend it, else 0; the points held of a kind nothing spends never wake
    /// the check between actions (a knight holding only Light points with Dark rules).
    pub(super) spend_kinds: [[u8; 2]; MAX_FIGHTERS],
    /// What each rule's condition needs (`gate.rs`), so the turn loop walks it only when
    /// it may hold.
    pub(super) gates: super::gate::Gates,
    /// Per combatant: the HP under which it turns Offensive, then Defensive, before acting
    /// (`x * max HP`, the product `take_action` compared with), -inf without one.
    pub(super) mode_hp: [[f64; 2]; MAX_FIGHTERS],
    /// Bit f: `f` has a mode threshold (`mode_hp` not -inf) or a `mode` rule; the
    /// others keep the file's mode all combat.
    pub(super) mode_switch: u32,
    /// The attack orders and defences the policies fix for the whole run (`prefer.rs`).
    pub(super) prefer: super::prefer::Prefer,
    /// A fatigue track's test malus and crit band by its value (`fatigue.rs`).
    pub(super) by_track: [(i32, CritBand); 256],
    /// The turn order before the d20s with everyone standing (`order.rs`).
    pub(super) run_order: RunOrder,
    /// `fatigue_turn_order = yes` in a run where some FP track may be off fresh: the
    /// order reads each combatant's FP malus on Agilité round by round (`order.rs`). Only
    /// where the plan keeps fatigue (`plan.rs`), so a run without it never reads this.
    pub(super) fatigue_order: bool,
    /// `costs[f][slot]`: the costs of entry `slot` of `f`'s attack list (`MAX_ATTACKS`:
    /// its Final Skill), as `available` and `pay` read them (`action.rs`).
    pub(super) costs: [[AttackCosts; MAX_ATTACKS + 1]; MAX_FIGHTERS],
}

impl CombatSim {
    /// One test of `block` at `karma` with no modifier beyond the block's.
    #[inline(always)]
    pub(super) fn sample(&self, block: usize, karma: i8, rng: &mut Rng64) -> Outcome {
        self.tests
            .sample(block * KARMAS + (karma - KARMA_MIN) as usize, rng)
    }

    /// [`Self::sample`] with the natural d100 and karma die it drew, for a trace.
    pub(super) fn sample_faces(
        &self,
        block: usize,
        karma: i8,
        rng: &mut Rng64,
    ) -> (Outcome, u8, u8) {
        self.tests
            .sample_faces(block * KARMAS + (karma - KARMA_MIN) as usize, rng)
    }

    /// Karma after a test of outcome `o` at `karma` (C-KARMA-1): `drift`, from a table.
    #[inline(always)]
    pub(super) fn drift(&self, karma: i8, o: Outcome) -> i8 {
        self.karma_next[(karma - KARMA_MIN) as usize][o as usize]
    }

    /// The test block of `f`'s plain `stat` test.
    #[inline(always)]
    pub(super) fn stat_block(&self, f: usize, stat: usize) -> usize {
        f * 6 + stat
    }

    /// The test block of attack `a` made by `f`.
    #[inline(always)]
    pub(super) fn attack_block(&self, f: usize, a: usize) -> usize {
        self.attack_block[f * self.model.attacks.len() + a] as usize
    }

    /// Whether a track value is exhaustion (C-FAT-4; parameter `fatigue_exhausted_at`,
    /// the book's 10).
    #[inline(always)]
    pub(super) fn exhausted(&self, v: i8) -> bool {
        i32::from(v) >= self.rules.test.fatigue.exhausted
    }

    #[inline(always)]
    pub(super) fn block(&self, b: usize) -> &TestDef {
        &self.blocks[b]
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

    /// The same simulation for fights that start from FP/FM given per fight
    /// ([`super::linked::play_from`], issue 25 defect 5).
    pub fn carrying_fatigue(mut self) -> CombatSim {
        self.carried = true;
        self.any_fatigue = true;
        self.fatigue_order = self.rules.fatigue_turn_order;
        self.run_order = RunOrder::new(&self);
        self
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

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut CombatAcc) {
        // One fight state per batch, reset per combat: no allocation per combat. Each
        // combat draws from its own stream (a trial replays alone).
        self.in_plan(Batch {
            sim: self,
            draws,
            trials,
            acc,
        })
    }
}

/// One batch of combats, run under the run's plan (`plan.rs`), chosen once per batch.
pub(super) struct Batch<'a> {
    pub sim: &'a CombatSim,
    pub draws: &'a Draws,
    pub trials: u64,
    pub acc: &'a mut CombatAcc,
}

impl PlanWork for Batch<'_> {
    type Out = ();

    fn run<P: Plan>(self) {
        let mut rng = self.draws.trial(0);
        let mut fight: Fight<'_, '_, _, P> = Fight::new(self.sim, &mut rng, self.acc);
        for j in 0..self.trials {
            *fight.rng = self.draws.trial(j);
            fight.combat();
        }
    }
}

#[cfg(test)]
#[path = "sim_tests.rs"]
mod tests;
