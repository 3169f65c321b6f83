//! The combat as an engine `Simulation`: read-only tables built once per run.

use crate::dice::Die;
use crate::engine::{Draws, Rng64, Simulation};
use crate::systems::cosmos::growth::inventory;
use crate::systems::cosmos::{
    CritBand, MovedTests, Outcome, TestBank, TestSpec, KARMA_MAX, KARMA_MIN,
};
use crate::systems::mask;

use super::acc::CombatAcc;
use super::fight::Fight;
use super::model::{AttackCosts, AuraUse, CombatModel, AGILITE, FORCE, MAX_ATTACKS, MAX_FIGHTERS};
use super::options::CombatRules;
use super::order::RunOrder;
use super::plan::{Plan, PlanWork};
use super::state::{ILLUMINATION, SEPULCRALE};
use super::test_def::{start_fatigue, TestDef};

const KARMAS: usize = (KARMA_MAX - KARMA_MIN + 1) as usize;

/// `CombatSim::only_attack` of a combatant with several attacks (or none).
pub(super) const NO_ATTACK: u8 = u8::MAX;

/// A validated combat with its rules and lookup tables.
pub struct CombatSim {
    pub model: CombatModel,
    pub rules: CombatRules,
    /// Karma after a test, by karma before (from `KARMA_MIN`) and outcome: `drift` under
    /// the run's rules (C-KARMA-1), read once per test in the turn loop.
    karma_next: [[i8; 6]; KARMAS],
    /// The d100 tests per (test block, karma) at modifier 0, keyed
    /// `block * 21 + karma + 10` (C-TEST via `TestBank`: equal tables kept once, issue 29); tests with a bonus
    /// or malus fall back to `TestSpec::roll`. Blocks `f * 6 + stat` are the plain stat
    /// tests; attacks with a mean of stats, a fixed threshold or a modifier get a block of
    /// their own per combatant that has them.
    tests: TestBank,
    /// Tests with a modifier or under fatigue (`test_moved.rs`): `TestSpec::roll`'s draws
    /// and outcomes from per-karma-band tables.
    pub(super) moved: MovedTests,
    /// The static part of each block's test.
    blocks: Vec<TestDef>,
    /// `attack_block[f * attacks + a]`: the block of attack `a`'s test by `f`.
    attack_block: Vec<u32>,
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
    coef: Vec<f64>,
    /// `expected[attack * n + target]`: mean dice x coefficient, for attack choice.
    expected: Vec<f64>,
    pub n: usize,
    /// Per attack: a one-draw damage table when the dice are small enough.
    damage_tables: Vec<Option<(Die, Vec<i32>)>>,
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
    pub fn new(mut model: CombatModel, rules: CombatRules) -> CombatSim {
        // C-EDITION: the previous edition's parameter set brings its aura table.
        if rules.previous_edition {
            model.edition = crate::systems::cosmos::growth::aura::Edition::Previous;
        }
        // C-LD-1: points left to the rules take the level-5 grant in force, once per run.
        for f in &mut model.fighters {
            if let Some(l5) = f.level5 {
                (f.light_points, f.dark_points) = l5.resolve(rules.level5_points);
            }
        }
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
        let mut blocks = Vec::with_capacity(n * 6);
        for (f, malus) in model.fighters.iter().zip(&agility_malus) {
            for (i, &stat) in f.stats.iter().enumerate() {
                let m = if i == AGILITE { *malus } else { 0 };
                let (fat, crit_from) = start_fatigue(f, i, &rules.test.fatigue);
                blocks.push(TestDef {
                    base: stat as f64,
                    static_mod: m + fat,
                    crit_from,
                    track: super::fatigue::track_of(i),
                    fat,
                    bonus: 0,
                });
            }
        }
        let na = model.attacks.len();
        let mut attack_block = vec![0u32; n * na];
        for (fi, (f, malus)) in model.fighters.iter().zip(&agility_malus).enumerate() {
            for a in 0..na {
                let at = &model.attacks[a];
                attack_block[fi * na + a] = (fi * 6 + at.stat) as u32;
                let used = f.attacks.contains(&a) || f.final_skill == Some(a);
                if at.plain_test() || !used {
                    continue;
                }
                // C-TEST-1: the mean of several stats kept as a real number, or a fixed
                // threshold; the modifier in percentage points. Fatigue and overload
                // come from the attack's first stat.
                let base = match (at.threshold, at.stats.is_empty()) {
                    (Some(t), _) => t as f64,
                    (None, false) => {
                        at.stats.iter().map(|&s| f.stats[s] as f64).sum::<f64>()
                            / at.stats.len() as f64
                    }
                    (None, true) => f.stats[at.stat] as f64,
                };
                let inv = if at.stat == AGILITE { *malus } else { 0 };
                let (fat, crit_from) = start_fatigue(f, at.stat, &rules.test.fatigue);
                attack_block[fi * na + a] = blocks.len() as u32;
                blocks.push(TestDef {
                    base,
                    static_mod: at.modifier + inv + fat,
                    crit_from,
                    track: super::fatigue::track_of(at.stat),
                    fat,
                    bonus: at.modifier.max(0),
                });
            }
        }
        let specs: Vec<TestSpec> = blocks
            .iter()
            .flat_map(|b| (KARMA_MIN..=KARMA_MAX).map(|k| b.spec(0, k, &rules)))
            .collect();
        let tests = TestBank::new(&specs, &rules.test);
        let moved = MovedTests::new(&rules.test);
        let any_fatigue = model.fatigue.on
            || model
                .fighters
                .iter()
                .any(|f| f.start.fp != 0 || f.start.fm != 0);
        let widths = model
            .fighters
            .iter()
            .map(|f| {
                let enemies: i64 = model
                    .fighters
                    .iter()
                    .filter(|o| o.side != f.side)
                    .map(|o| o.hp as i64)
                    .sum();
                let (d, t, h) = super::acc::widths(f.hp as i64, enemies);
                [d, t, h].map(super::acc::Width::new)
            })
            .collect();
        let any_limited = model.attacks.iter().any(|a| a.limited());
        let any_hp_cost = model.attacks.iter().any(|a| a.hp_cost > 0);
        let any_armour = model
            .fighters
            .iter()
            .any(|f| f.armour != super::model::Armour::default());
        let any_aura = model
            .small
            .iter()
            .any(|s| s.aura_points > 0 && s.aura_use != AuraUse::Never);
        let mut coef = Vec::with_capacity(model.attacks.len() * n);
        let mut expected = Vec::with_capacity(model.attacks.len() * n);
        for a in &model.attacks {
            let mean = a.dice.mean();
            for (fi, f) in model.fighters.iter().enumerate() {
                let aff = &model.affinity[fi];
                let c = super::affinity::coefficient_in(
                    &a.elements,
                    f.element,
                    aff,
                    rules.dual,
                    &rules.elements,
                );
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
                    || f.rules.points
            })
            .collect();
        let any_reactive = reactive.iter().any(|&r| r);
        let reactive_mask = mask::of(n, |f| reactive[f]);
        let mut point_hp = [[f64::NEG_INFINITY; 2]; MAX_FIGHTERS];
        let mut point_other = [false; MAX_FIGHTERS];
        let mut point_rules = [false; MAX_FIGHTERS];
        let mut spend_kinds = [[0u8; 2]; MAX_FIGHTERS];
        let mut mode_hp = [[f64::NEG_INFINITY; 2]; MAX_FIGHTERS];
        for (f, a) in model.fighters.iter().enumerate() {
            point_rules[f] = a.rules.points;
            for (k, (t, kind)) in [
                (&a.policy.dark, SEPULCRALE),
                (&a.policy.light, ILLUMINATION),
            ]
            .into_iter()
            .enumerate()
            {
                if t.any() || a.rules.spends(kind) {
                    spend_kinds[f][k] = u8::MAX;
                }
                if let Some(x) = t.below_hp {
                    point_hp[f][k] = x * a.hp as f64;
                }
                point_other[f] |= t.when_ally_down || t.on_turn_start;
            }
            let below = [a.policy.offensive_below_hp, a.policy.defensive_below_hp];
            for (k, x) in below.into_iter().enumerate() {
                if let Some(x) = x {
                    mode_hp[f][k] = x * a.hp as f64;
                }
            }
        }
        let mut side_members = [0u32; MAX_FIGHTERS];
        let mut enemy_mask = [0u32; MAX_FIGHTERS];
        let mut ally_mask = [0u32; MAX_FIGHTERS];
        let mut max_hp = [0.0; MAX_FIGHTERS];
        let mut armour = [(None, 0); MAX_FIGHTERS];
        let mut picks_alone = [false; MAX_FIGHTERS];
        let mut only_attack = [NO_ATTACK; MAX_FIGHTERS];
        for (f, a) in model.fighters.iter().enumerate() {
            use super::model::TargetPolicy as T;
            picks_alone[f] = matches!(
                a.policy.target,
                T::LowestHp | T::HighestHp | T::First | T::BestElement
            );
            if let [one] = a.attacks[..] {
                // An index past a byte takes the general path (`choose_among_attacks`).
                only_attack[f] = u8::try_from(one).unwrap_or(NO_ATTACK);
            }
            side_members[a.side] |= 1 << f;
            max_hp[f] = a.hp as f64;
            let ar = a.armour;
            armour[f] = (
                (ar.percent > 0.0).then(|| 1.0 - ar.percent / 100.0),
                ar.flat,
            );
            for (g, b) in model.fighters.iter().enumerate() {
                enemy_mask[f] |= ((b.side != a.side) as u32) << g;
                ally_mask[f] |= ((b.side == a.side && g != f) as u32) << g;
            }
        }
        let gates = super::gate::Gates::new(
            &model,
            &max_hp,
            &point_hp,
            reactive_mask,
            [&ally_mask, &enemy_mask],
        );
        let turn_start = mask::of(n, |i| {
            let f = &model.fighters[i];
            reactive[i]
                || (f.dark_points > 0 && f.policy.dark.on_turn_start)
                || (f.light_points > 0 && f.policy.light.on_turn_start)
        });
        let any_posture = model.fighters.iter().any(|f| {
            (f.light_points > 0 && (f.policy.light.any() || f.rules.points))
                || (f.dark_points > 0 && (f.policy.dark.any() || f.rules.points))
        });
        let (any_rules, any_effects, any_focus) = super::support::flags(&model);
        let any_support = model.fighters.iter().any(|f| !f.support.is_empty());
        let mut karma_next = [[0i8; 6]; KARMAS];
        for (k, row) in (KARMA_MIN..=KARMA_MAX).zip(karma_next.iter_mut()) {
            for o in Outcome::ALL {
                row[o as usize] = crate::systems::cosmos::drift(k, o, &rules.test);
            }
        }
        let prefer = super::prefer::Prefer::new(
            &model,
            |a, t| expected[a * n + t],
            |f| model.fighters[f].stats[AGILITE] + agility_malus[f],
        );
        let mut costs = [[AttackCosts::default(); MAX_ATTACKS + 1]; MAX_FIGHTERS];
        for (row, f) in costs.iter_mut().zip(&model.fighters) {
            for (c, &a) in row.iter_mut().zip(&f.attacks) {
                *c = model.attacks[a].costs();
            }
            if let Some(a) = f.final_skill {
                row[MAX_ATTACKS] = model.attacks[a].costs();
            }
        }
        let mut sim = CombatSim {
            prefer,
            by_track: super::fatigue::by_track(&rules.test.fatigue),
            karma_next,
            any_periodic: model.fighters.iter().any(|f| !f.periodic.is_empty())
                || model.attacks.iter().any(|a| a.on_hit.is_some()),
            any_mods: any_effects || any_focus,
            any_support,
            side_members,
            enemy_mask,
            ally_mask,
            max_hp,
            armour,
            picks_alone,
            only_attack,
            reactive_mask,
            gates,
            hp_only: mask::of(n, |f| {
                reactive_mask >> f & 1 != 0 && !point_other[f] && !point_rules[f]
            }),
            point_hp,
            point_other,
            point_rules,
            spend_kinds,
            any_multi: model
                .attacks
                .iter()
                .any(|a| a.targets != super::model::Targets::Count(1)),
            any_pm_cost: model.attacks.iter().any(|a| a.pm_cost != 0),
            mode_switch: mask::of(n, |f| {
                mode_hp[f] != [f64::NEG_INFINITY; 2] || model.fighters[f].rules.mode
            }),
            mode_hp,
            rule_modes: mask::of(n, |f| model.fighters[f].rules.mode),
            rule_actions: mask::of(n, |f| model.fighters[f].rules.action),
            any_rules,
            any_effects,
            any_focus,
            blocks,
            attack_block,
            any_limited,
            any_hp_cost,
            any_armour,
            any_fatigue,
            carried: false,
            widths,
            any_aura,
            agility_malus,
            damage_tables,
            any_reactive,
            any_posture,
            tier_mult: [1.0, 1.0, rules.crit_mult, rules.super_mult],
            turn_start,
            model,
            rules,
            tests,
            moved,
            coef,
            expected,
            n,
            run_order: RunOrder::NONE,
            fatigue_order: false,
            costs,
        };
        sim.fatigue_order = sim.rules.fatigue_turn_order && sim.plan().1;
        sim.run_order = RunOrder::new(&sim);
        sim
    }

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
mod tests {
    use super::*;
    use crate::systems::cosmos::combat::options::CombatRules;
    use crate::systems::cosmos::{drift, KarmaOverflow};

    #[test]
    fn the_drift_table_is_drift() {
        let text = include_str!("../../../../scenarios/cosmos/duel.toml");
        let file =
            crate::scenario::ScenarioFile::from_text("duel.toml", text, crate::lang::Lang::En);
        let (_, model) = super::super::scenario::load(&file).unwrap();
        for (bound, overflow) in [
            (10, KarmaOverflow::Clamp),
            (10, KarmaOverflow::Cancel),
            (6, KarmaOverflow::Clamp),
            (6, KarmaOverflow::Cancel),
        ] {
            let mut rules = CombatRules::default();
            rules.test.karma_bound = bound;
            rules.test.karma_overflow = overflow;
            let sim = CombatSim::new(model.clone(), rules);
            let mut moved = 0;
            for k in -bound..=bound {
                for o in Outcome::ALL {
                    assert_eq!(sim.drift(k, o), drift(k, o, &rules.test), "{k} {o:?}");
                    moved += (sim.drift(k, o) != k) as u32;
                }
            }
            assert!(moved > 0);
        }
    }
}
