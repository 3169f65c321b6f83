//! An action: mode, target, attack, attack test, defence, damage (C-CMB-1..5, C-ELEM,
//! C-LD-4..6).

use crate::systems::cosmos::{score, KarmaDie, Outcome};

use super::acc::END_FINAL_SKILL;
use super::aura_use::TestKind;
use super::fight::Fight;
use super::model::{AttackCosts, AttackPolicy, Mode, MAX_ATTACKS};
use super::plan::Plan;
use super::sim::NO_ATTACK;
use super::state::{ILLUMINATION, NOBODY, NONE};
use super::test_def::TestDef;
use super::trigger::Pick;
use super::watch::{Skip, Step};

/// Where an attack comes from: an action, a riposte or counter-attack (C-CMB-3), or a
/// Sépulcrale counter (C-LD-6).
pub(super) const ACTION: u8 = 0;
pub(super) const RIPOSTE: u8 = 1;
pub(super) const SEP_COUNTER: u8 = 2;

/// Whether a defence stops an attack (C-CMB-2): its tier must reach the attack's tier
/// (a crit attack needs a crit or super defence, a super attack a super one).
pub fn defence_stops(attack: Outcome, defence: Outcome) -> bool {
    defence.tier() >= 1 && defence.tier() >= attack.tier()
}

impl<W: super::watch::Watch, P: Plan> Fight<'_, '_, W, P> {
    /// Cost multiplier of `f`'s actions now (C-LD-5 advantage 2 "pas de coût PV/PM": 0;
    /// C-LD-6 disadvantage 2 "coût PV/PM doublé": 2).
    #[inline(always)]
    pub(super) fn cost_factor(&self, f: usize) -> i32 {
        let s = &self.st[f];
        if !P::POSTURES {
            1
        } else if s.posture == ILLUMINATION && s.adv == 2 {
            0
        } else if s.disadv == 2 && self.in_sep_backlash(f) {
            2
        } else {
            1
        }
    }

    /// The costs of `attack`, entry `slot` of `f`'s list (`MAX_ATTACKS` for the Final
    /// Skill), from the run's table (`CombatSim::costs`).
    #[inline(always)]
    fn costs(&self, f: usize, slot: usize, _attack: usize) -> AttackCosts {
        let c = self.sim.costs[f][slot];
        #[cfg(test)]
        assert_eq!(
            c,
            self.sim.model.attacks[_attack].costs(),
            "costs of {f}/{slot}"
        );
        c
    }

    /// Whether `f` can use `attack` (entry `slot` of its list; `MAX_ATTACKS` for the Final
    /// Skill) now: PM paid, an HP cost that leaves it standing, uses left, cooldown over,
    /// no Esprit attack under mental exhaustion (C-FAT-4 "no magic").
    #[inline(always)]
    pub(super) fn available(&self, f: usize, slot: usize, attack: usize) -> bool {
        let sim = self.sim;
        let at = self.costs(f, slot, attack);
        let pm = if sim.any_pm_cost {
            at.pm * self.cost_factor(f)
        } else {
            0
        };
        if pm > self.st[f].pm {
            return false;
        }
        if P::on(sim.any_hp_cost) && at.hp * self.cost_factor(f) >= self.st[f].hp {
            return false;
        }
        if P::on(sim.any_limited) && at.limited {
            let s = &self.st[f];
            if u16::from(s.uses[slot]) >= at.uses || self.round < s.ready[slot] as u32 {
                return false;
            }
        }
        !(P::tired(sim.any_fatigue) && at.esprit && sim.exhausted(self.st[f].fm))
    }

    /// Pays for a use of `attack` (entry `slot`): PM, HP, a use, the cooldown.
    #[inline(always)]
    fn pay(&mut self, f: usize, slot: usize, attack: usize) {
        let k = self.cost_factor(f);
        let at = self.costs(f, slot, attack);
        if self.sim.any_pm_cost {
            self.st[f].pm -= at.pm * k;
        }
        if P::on(self.sim.any_hp_cost) {
            self.st[f].hp -= at.hp * k;
            self.hp_moved(f);
        }
        if P::tired(self.sim.model.fatigue.on) {
            self.tire_costs(f, at.pm * k, at.hp * k);
        } else if P::tired(self.sim.carried) {
            // HP paid are HP lost for a linked combat's expedition too (D2).
            self.st[f].hp_lost += at.hp * k;
        }
        if P::on(self.sim.any_limited) && at.limited {
            let s = &mut self.st[f];
            s.uses[slot] = s.uses[slot].saturating_add(1);
            // Cooldown c: not in the next c rounds, again from round r + c + 1.
            s.ready[slot] = (self.round + at.cooldown as u32 + 1).min(u16::MAX as u32) as u16;
        }
    }

    /// Expected damage of `attack` for `f` on `target`: mean dice x element, times the
    /// enemies it hits.
    #[inline(always)]
    fn value(&self, f: usize, attack: usize, target: usize) -> f64 {
        let e = self.sim.expected(attack, target);
        self.sim.model.attacks[attack]
            .targets
            .weigh(e, || self.enemies_standing(f))
    }

    /// The attack `f` uses on `target` and its entry in `f`'s list.
    #[inline]
    fn choose_attack(&self, f: usize, target: usize) -> Option<(usize, usize)> {
        let a = self.sim.only_attack[f];
        if a != NO_ATTACK {
            // One attack: every policy uses it when it can.
            let a = usize::from(a);
            return self.available(f, 0, a).then_some((a, 0));
        }
        self.choose_among_attacks(f, target)
    }

    /// [`Self::choose_attack`] for a combatant with several attacks: the policy's pick.
    #[inline(never)]
    fn choose_among_attacks(&self, f: usize, target: usize) -> Option<(usize, usize)> {
        let prefer = &self.sim.prefer;
        let order = prefer.order(f, target, || self.enemies_standing(f));
        let Some(order) = order else {
            return self.scan_attacks(f, target);
        };
        // The policy's order, fixed per run (`prefer.rs`): the first one it can use.
        let pick = order
            .iter()
            .map(|&i| (prefer.attack(f, i), i as usize))
            .find(|&(a, i)| self.available(f, i, a));
        #[cfg(test)]
        assert_eq!(
            pick,
            self.scan_attacks(f, target),
            "the fixed order of {f} drifted"
        );
        pick
    }

    /// The policy's pick by weighing every usable attack now.
    fn scan_attacks(&self, f: usize, target: usize) -> Option<(usize, usize)> {
        let fighter = &self.sim.model.fighters[f];
        let mut best: Option<(usize, usize, f64)> = None;
        for (i, &a) in fighter.attacks.iter().enumerate() {
            if !self.available(f, i, a) {
                continue;
            }
            if fighter.policy.attack == AttackPolicy::First {
                return Some((a, i));
            }
            let e = self.value(f, a, target);
            if best.is_none_or(|(_, _, b)| e > b) {
                best = Some((a, i, e));
            }
        }
        best.map(|b| (b.0, b.1))
    }

    /// One d100 roll of test block `b` by `f` at its karma now with `m` more percentage
    /// points (the block's own static modifier comes on top), no karma drift.
    #[inline(always)]
    pub(super) fn roll_block(&mut self, f: usize, b: usize, m: i32) -> Outcome {
        let k = self.karma(f);
        let o = self.roll_block_at(f, b, m, k);
        self.note(|me| me.test_step(f, b, m, k, o));
        o
    }

    /// The step a trace shows for a test (never built in the batch run).
    fn test_step(&self, f: usize, b: usize, m: i32, k: i8, o: Outcome) -> Step {
        let sim = self.sim;
        let def = if P::tired(sim.model.fatigue.on) || P::tired(sim.carried) {
            self.fatigued_block(f, b).unwrap_or(*sim.block(b))
        } else {
            *sim.block(b)
        };
        let spec = def.spec(m, k, &sim.rules);
        let die_kind = spec.karma_die(&sim.rules.test);
        let (natural, die) = self.watch.last_faces();
        let die = if die_kind == KarmaDie::None { 0 } else { die };
        Step::Test {
            who: f as u8,
            stat: (b < sim.n * 6).then_some((b % 6) as u8),
            threshold: spec.threshold(),
            karma: k,
            modifier: m,
            natural,
            die,
            die_kind,
            score: score(natural, die, die_kind),
            outcome: o,
        }
    }

    /// [`Self::roll_block_at`] in a trace: the same draws, and the faces they show kept
    /// for the test's step.
    #[inline(never)]
    fn roll_block_seen(&mut self, f: usize, b: usize, m: i32, k: i8) -> Outcome {
        let sim = self.sim;
        let tired = if P::tired(sim.model.fatigue.on) || P::tired(sim.carried) {
            self.fatigued_block(f, b)
        } else {
            None
        };
        let (o, natural, die) = match tired {
            Some(def) => def
                .spec(m, k, &sim.rules)
                .roll_faces(self.rng, &sim.rules.test),
            None if m == 0 => sim.sample_faces(b, k, self.rng),
            None => sim
                .block(b)
                .spec(m, k, &sim.rules)
                .roll_faces(self.rng, &sim.rules.test),
        };
        self.watch.faces(natural, die);
        o
    }

    #[inline(always)]
    fn roll_block_at(&mut self, f: usize, b: usize, m: i32, k: i8) -> Outcome {
        if W::ON {
            return self.roll_block_seen(f, b, m, k);
        }
        if P::tired(self.sim.model.fatigue.on) || P::tired(self.sim.carried) {
            if let Some(def) = self.fatigued_block(f, b) {
                return self.roll_moved(&def, m, k);
            }
        }
        if m == 0 {
            self.sim.sample(b, k, self.rng)
        } else {
            let sim = self.sim;
            self.roll_moved(sim.block(b), m, k)
        }
    }

    /// A test of `def` with `m` more points at karma `k` off the bank's tables: the
    /// per-band tables (`MovedTests`), with `TestSpec::roll`'s draws and outcome, which test
    /// builds check on every call.
    #[inline(always)]
    fn roll_moved(&mut self, def: &TestDef, m: i32, k: i8) -> Outcome {
        let sim = self.sim;
        #[cfg(test)]
        let mut general = self.rng.clone();
        let from = sim.rules.test.crit_fail_from(def.crit_from);
        let o = sim
            .moved
            .roll(def.threshold(m, &sim.rules), from, k, self.rng);
        #[cfg(test)]
        {
            let g = def
                .spec(m, k, &sim.rules)
                .roll(&mut general, &sim.rules.test);
            assert_eq!(o, g, "moved test of {def:?}, {m}, {k}");
            assert!(*self.rng == general, "moved test drew otherwise");
        }
        o
    }

    /// A normal d100 test (block `b`) by `f`, with karma drift outside postures
    /// (C-KARMA-1); an enemy may spend an aura point on it first (C-AURA).
    #[inline(always)]
    pub(super) fn test(
        &mut self,
        f: usize,
        b: usize,
        final_skill: bool,
        kind: TestKind,
    ) -> Outcome {
        let aura = if P::on(self.sim.any_aura) {
            self.aura_test(f, b, kind)
        } else {
            None
        };
        let o = match aura {
            Some(o) => o,
            None => {
                let mut m = self.test_bonus(f) + self.test_malus(f);
                // Only a Sépulcrale backlash sets an action malus (C-LD-6).
                if P::POSTURES && kind == TestKind::Attack {
                    m -= self.st[f].action_malus;
                }
                if P::on(self.sim.any_mods) {
                    let (bonus, malus) = self.support_mods(f, b);
                    m += bonus + malus;
                }
                self.roll_block(f, b, m)
            }
        };
        if !P::POSTURES || self.st[f].posture == NONE {
            let from = self.st[f].karma;
            self.st[f].karma = self.sim.drift(from, o);
            self.note(|me| Step::Karma {
                who: f as u8,
                from,
                to: me.st[f].karma,
            });
        }
        if final_skill && o >= Outcome::CritFailure {
            // C-LD-4: the Final Skill ignores critical failures.
            self.note(|_| Step::CritIgnored {
                who: f as u8,
                rolled: o,
            });
            return Outcome::Failure;
        }
        o
    }

    /// The action of `f` in its slot.
    pub(super) fn take_action(&mut self, f: usize) {
        let sim = self.sim;
        if P::tired(sim.any_fatigue) && sim.exhausted(self.st[f].fp) {
            // C-FAT-4 physical exhaustion: cannot act.
            self.note(|_| Step::Skip {
                who: f as u8,
                why: Skip::Exhausted,
            });
            return;
        }
        // Mode before acting (C-CMB-1): HP fraction compared without a division, against
        // `x * max HP` computed once per run (-inf without a threshold). Without a
        // threshold or a `mode` rule the mode stays the file's, set at the start of the
        // combat (nothing else writes it).
        if sim.mode_switch >> f & 1 != 0 {
            let hp = self.st[f].hp as f64;
            let [offensive, defensive] = sim.mode_hp[f];
            self.st[f].mode = if hp < offensive {
                Mode::Offensive
            } else if hp < defensive {
                Mode::Defensive
            } else {
                sim.model.fighters[f].mode
            };
            if P::on(sim.any_rules) && sim.rule_modes >> f & 1 != 0 {
                // Rules that read the HP alone are thresholds (`gate.rs`).
                let ruled = sim
                    .gates
                    .hp_mode(f, self.st[f].hp)
                    .unwrap_or_else(|()| self.rule_mode(f));
                #[cfg(test)]
                assert_eq!(ruled, self.rule_mode(f), "the HP modes of {f}");
                if let Some(m) = ruled {
                    self.st[f].mode = m;
                }
            }
        }
        let Some(target) = self.choose_target(f, 0) else {
            self.note(|_| Step::Skip {
                who: f as u8,
                why: Skip::NoTarget,
            });
            return;
        };
        // C-LD-4: Final Skill at level 5+, in a posture, from the policy's posture turn
        // (or when a rule says, trigger.rs).
        let fs = if P::POSTURES {
            sim.model.fighters[f]
                .final_skill
                .filter(|&a| self.final_skill_now(f) && self.available(f, MAX_ATTACKS, a))
        } else {
            None
        };
        // Policy rules pick the action (trigger.rs); none matching: the `attack` policy.
        // At or above the HP its `use` rules' gates need, none holds (the boss fight's
        // roar before it enrages).
        // Once the support uses its rules name are spent, none does (the warlord after
        // its roar, `Gates::uses_bound`).
        let may_use = self.ruling >> f & 1 != 0 && (self.st[f].hp as f64) < sim.gates.use_hp[f];
        #[cfg(test)]
        if sim.rule_actions >> f & 1 != 0 && !may_use {
            use super::trigger::Then;
            for u in sim.gates.uses(f) {
                let out = |slot| !self.support_ready(f, slot);
                let spent =
                    self.ruling >> f & 1 == 0 && matches!(u.then, Then::Support(s) if out(s));
                assert!(
                    spent || !self.passes(f, &u.gate),
                    "{f} skipped its use rules"
                );
            }
        }
        let pick = if P::on(sim.any_rules) && fs.is_none() && may_use {
            self.rule_action(f)
        } else {
            None
        };
        if let Some(Pick::Support(slot, t)) = pick {
            return self.support_action(f, slot, t);
        }
        let ruled = match pick {
            Some(Pick::Attack(a, slot)) => Some((a, slot)),
            _ => None,
        };
        let Some((attack, slot)) = fs
            .map(|a| (a, MAX_ATTACKS))
            .or(ruled)
            .or_else(|| self.choose_attack(f, target))
        else {
            self.note(|_| Step::Skip {
                who: f as u8,
                why: Skip::NoAttack,
            });
            return;
        };
        if P::POSTURES && self.st[f].malus_next && self.in_sep_backlash(f) {
            self.st[f].action_malus = 20;
            self.st[f].malus_next = false;
        }
        self.note(|me| Step::Attack {
            who: f as u8,
            attack: attack as u8,
            target: target as u8,
            mode: me.st[f].mode,
            final_skill: fs.is_some(),
            by: ACTION,
            ruled: ruled.is_some() && fs.is_none(),
        });
        self.pay(f, slot, attack);
        self.st[f].provoked_by = NOBODY;
        self.st[f].actions += 1;
        if P::tired(self.sim.model.fatigue.on) {
            self.tire_action(f, attack);
        }
        self.resolve(f, target, attack, fs.is_some(), ACTION);
        if P::POSTURES {
            self.st[f].action_malus = 0;
        }
        if fs.is_some() && self.st[f].posture != NONE && !self.st[f].down {
            // Advantage 6 lasts "pendant toute la durée de celle-ci" (the posture, l. 119)
            // and the Final Skill "met fin prématurément à la posture" (l. 120): its
            // second action goes with it, unless `extra_action_after_final_skill = kept`.
            let extra = self.st[f].posture == ILLUMINATION && self.st[f].adv == 6;
            self.end_posture(f, END_FINAL_SKILL);
            if extra && !sim.rules.fs_keeps_extra_action {
                self.drop_extra_actions(f);
            }
        }
    }

    /// A free attack (riposte, counter-attack, Sépulcrale counter): it triggers no riposte
    /// (C-CMB-3); its damage triggers a Sépulcrale counter unless it is one (reading 10b).
    /// It is aimed at its source alone, whatever the attack's `targets`.
    pub(super) fn free_attack(&mut self, from: usize, on: usize, kind: u8) {
        if self.st[from].down || self.st[on].down {
            return;
        }
        if P::tired(self.sim.any_fatigue) && self.sim.exhausted(self.st[from].fp) {
            return;
        }
        let Some((attack, slot)) = self.choose_attack(from, on) else {
            return;
        };
        self.note(|me| Step::Attack {
            who: from as u8,
            attack: attack as u8,
            target: on as u8,
            mode: me.st[from].mode,
            final_skill: false,
            by: kind,
            ruled: false,
        });
        self.pay(from, slot, attack);
        self.resolve_one(from, on, attack, false, kind);
    }
}
