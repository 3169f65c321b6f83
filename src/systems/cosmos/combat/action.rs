//! An action: mode, target, attack, attack test, defence, damage (C-CMB-1..5, C-ELEM,
//! C-LD-4..6).

use crate::dice::Die;
use crate::systems::cosmos::{drift, threshold_with_modifier, Outcome, TestSpec};

use super::acc::{END_FINAL_SKILL, END_HOLDER_DOWN};
use super::aura_use::TestKind;
use super::fight::{Fight, ILLUMINATION, NOBODY, NONE, SEPULCRALE};
use super::model::{AttackPolicy, DefencePolicy, Mode, TargetPolicy, AGILITE, FORCE};

/// Whether a defence stops an attack (C-CMB-2): its tier must reach the attack's tier
/// (a crit attack needs a crit or super defence, a super attack a super one).
pub fn defence_stops(attack: Outcome, defence: Outcome) -> bool {
    defence.tier() >= 1 && defence.tier() >= attack.tier()
}

impl Fight<'_, '_> {
    /// PM cost of an attack for `f` now: none under Illumination advantage 2, doubled
    /// under Sépulcrale disadvantage 2.
    #[inline(always)]
    fn cost(&self, f: usize, attack: usize) -> i32 {
        let base = self.sim.model.attacks[attack].pm_cost;
        let s = &self.st[f];
        if s.posture == ILLUMINATION && s.adv == 2 {
            0
        } else if s.disadv == 2 && self.in_sep_backlash(f) {
            base * 2
        } else {
            base
        }
    }

    fn choose_attack(&self, f: usize, target: usize) -> Option<usize> {
        let fighter = &self.sim.model.fighters[f];
        let mut best: Option<(usize, f64)> = None;
        for &a in &fighter.attacks {
            if self.cost(f, a) > self.st[f].pm {
                continue;
            }
            if fighter.policy.attack == AttackPolicy::First {
                return Some(a);
            }
            let e = self.sim.expected(a, target);
            if best.is_none_or(|(_, b)| e > b) {
                best = Some((a, e));
            }
        }
        best.map(|b| b.0)
    }

    fn best_expected(&self, f: usize, target: usize) -> f64 {
        self.sim.model.fighters[f]
            .attacks
            .iter()
            .filter(|&&a| self.cost(f, a) <= self.st[f].pm)
            .map(|&a| self.sim.expected(a, target))
            .fold(f64::NEG_INFINITY, f64::max)
    }

    fn choose_target(&mut self, f: usize) -> Option<usize> {
        let side = self.sim.model.fighters[f].side;
        let p = self.st[f].provoked_by;
        if p != NOBODY && !self.st[p as usize].down {
            // C-LD-6 provocation: the next offensive action goes to the holder.
            return Some(p as usize);
        }
        let n = self.sim.n;
        let enemies =
            (0..n).filter(|&g| self.sim.model.fighters[g].side != side && !self.st[g].down);
        let by_hp = |high: bool| {
            let mut best: Option<usize> = None;
            for g in (0..n).filter(|&g| self.sim.model.fighters[g].side != side && !self.st[g].down)
            {
                let better = match best {
                    None => true,
                    Some(b) if high => self.st[g].hp > self.st[b].hp,
                    Some(b) => self.st[g].hp < self.st[b].hp,
                };
                if better {
                    best = Some(g);
                }
            }
            best
        };
        match self.sim.model.fighters[f].policy.target {
            TargetPolicy::LowestHp => by_hp(false),
            TargetPolicy::HighestHp => by_hp(true),
            TargetPolicy::First => enemies.into_iter().next(),
            TargetPolicy::Named(first, count) => (first..first + count)
                .find(|&g| !self.st[g].down)
                .or_else(|| by_hp(false)),
            TargetPolicy::BestElement => {
                let mut best: Option<(usize, f64)> = None;
                for g in enemies {
                    let e = self.best_expected(f, g);
                    if best.is_none_or(|(_, b)| e > b) {
                        best = Some((g, e));
                    }
                }
                best.map(|b| b.0)
            }
            TargetPolicy::Random => {
                let count = enemies.count();
                if count == 0 {
                    return None;
                }
                let pick = Die::new(count as u64)
                    .map(|d| d.index(self.rng) as usize)
                    .unwrap_or(0);
                (0..n)
                    .filter(|&g| self.sim.model.fighters[g].side != side && !self.st[g].down)
                    .nth(pick)
            }
        }
    }

    /// One d100 roll of `stat` by `f` at its karma now with modifier `m` (the stat's
    /// own overload malus, C-INV, comes on top), no karma drift.
    #[inline(always)]
    pub(super) fn roll_test(&mut self, f: usize, stat: usize, m: i32) -> Outcome {
        let k = self.karma(f);
        if m == 0 {
            self.sim.sampler(f, stat, k).sample(self.rng)
        } else {
            let base = self.sim.model.fighters[f].stats[stat] as f64;
            let m = m + self.sim.stat_modifier(f, stat);
            let t = threshold_with_modifier(base, m as f64, self.sim.rules.test.percent_mode);
            TestSpec::new(t, k)
                .expect("karma in range")
                .roll(self.rng, &self.sim.rules.test)
        }
    }

    /// A normal d100 test of `stat` by `f`, with karma drift outside postures (C-KARMA-1);
    /// an enemy may spend an aura point on it first (C-AURA).
    #[inline(always)]
    fn test(&mut self, f: usize, stat: usize, final_skill: bool, kind: TestKind) -> Outcome {
        let aura = if self.sim.any_aura {
            self.aura_test(f, stat, kind)
        } else {
            None
        };
        let o = match aura {
            Some(o) => o,
            None => {
                let m = self.test_modifier(f);
                self.roll_test(f, stat, m)
            }
        };
        if self.st[f].posture == NONE {
            self.st[f].karma = drift(self.st[f].karma, o, self.sim.rules.test.karma_overflow);
        }
        if final_skill && o >= Outcome::CritFailure {
            // C-LD-4: the Final Skill ignores critical failures.
            return Outcome::Failure;
        }
        o
    }

    /// The action of `f` in its slot.
    pub(super) fn take_action(&mut self, f: usize) {
        let sim = self.sim;
        let fighter = &sim.model.fighters[f];
        let policy = &fighter.policy;
        // Mode before acting (C-CMB-1): HP fraction compared without a division.
        let (hp, max) = (self.st[f].hp as f64, fighter.hp as f64);
        self.st[f].mode = if policy.offensive_below_hp.is_some_and(|x| hp < x * max) {
            Mode::Offensive
        } else if policy.defensive_below_hp.is_some_and(|x| hp < x * max) {
            Mode::Defensive
        } else {
            fighter.mode
        };
        let Some(target) = self.choose_target(f) else {
            return;
        };
        let s = &self.st[f];
        // C-LD-4: Final Skill at level 5+, in a posture, from the policy's posture turn.
        let fs = fighter.final_skill.filter(|&a| {
            s.posture != NONE
                && policy.final_skill_turn > 0
                && s.posture_turns >= policy.final_skill_turn
                && self.cost(f, a) <= s.pm
        });
        let Some(attack) = fs.or_else(|| self.choose_attack(f, target)) else {
            return;
        };
        if self.st[f].malus_next && self.in_sep_backlash(f) {
            self.st[f].action_malus = 20;
            self.st[f].malus_next = false;
        }
        self.st[f].pm -= self.cost(f, attack);
        self.st[f].provoked_by = NOBODY;
        self.resolve(f, target, attack, fs.is_some(), false);
        self.st[f].action_malus = 0;
        if fs.is_some() && self.st[f].posture != NONE && !self.st[f].down {
            self.end_posture(f, END_FINAL_SKILL);
        }
    }

    /// A free attack (riposte, counter-attack, Sépulcrale counter): it triggers nothing
    /// further (C-CMB-3).
    fn free_attack(&mut self, from: usize, on: usize) {
        if self.st[from].down || self.st[on].down {
            return;
        }
        let Some(attack) = self.choose_attack(from, on) else {
            return;
        };
        self.st[from].pm -= self.cost(from, attack);
        self.resolve(from, on, attack, false, true);
    }

    fn defence_stat(&self, t: usize, attack: usize) -> Option<usize> {
        let a = &self.sim.model.attacks[attack];
        let (dodge, parry) = (!a.undodgeable, !a.unparryable);
        let stats = &self.sim.model.fighters[t].stats;
        match self.sim.model.fighters[t].policy.defence {
            DefencePolicy::Best if dodge && parry => Some(if self.sim.agility(t) >= stats[FORCE] {
                AGILITE
            } else {
                FORCE
            }),
            DefencePolicy::Best | DefencePolicy::Dodge if dodge => Some(AGILITE),
            DefencePolicy::Best | DefencePolicy::Parry if parry => Some(FORCE),
            _ => None,
        }
    }

    /// Attack test, defence, damage.
    fn resolve(&mut self, a: usize, t: usize, attack: usize, final_skill: bool, free: bool) {
        let stat = self.sim.model.attacks[attack].stat;
        let o = self.test(a, stat, final_skill, TestKind::Attack);
        let tier = o.tier();
        if tier == 0 {
            return;
        }
        let mut riposte = false;
        // Simultaneous exchange: no dodge or parry between the two (C-TURN-1).
        let simultaneous = !free && self.st[a].in_group && self.st[t].in_group;
        let ts = &self.st[t];
        let no_defence = ts.down || ts.illum_backlash > 0 || ts.skip_round || simultaneous;
        if !no_defence {
            let mut may_defend = ts.mode == Mode::Defensive;
            if ts.posture == ILLUMINATION {
                let at = &self.sim.model.attacks[attack];
                if o != Outcome::SuperSuccess && !at.undodgeable && !at.unparryable {
                    // C-LD-5: automatic evade on d10 <= 7.
                    if self.roll(Die::D10) <= self.sim.rules.illumination_evade {
                        return;
                    }
                }
                may_defend = true;
            }
            if may_defend {
                if let Some(dstat) = self.defence_stat(t, attack) {
                    let d = self.test(t, dstat, false, TestKind::Defence);
                    let stopped = defence_stops(o, d);
                    riposte =
                        !free && d.tier() >= 2 && (stopped || !self.sim.rules.riposte_needs_stop);
                    if stopped {
                        if riposte {
                            self.free_attack(t, a);
                        }
                        return;
                    }
                }
            }
        }
        let rules = &self.sim.rules;
        let s = &self.st[a];
        let tier_mult = match tier {
            3 => rules.super_mult,
            2 => rules.crit_mult,
            _ => 1.0,
        };
        let mode_mult = if s.posture == SEPULCRALE {
            rules.sepulchral_mult
        } else if s.mode == Mode::Offensive {
            rules.offensive_mult
        } else {
            1.0
        };
        let backlash = if self.in_sep_backlash(a) {
            rules.backlash_mult
        } else {
            1.0
        };
        let fs_bonus = if final_skill && s.posture == ILLUMINATION && s.adv == 3 {
            rules.fs_bonus_mult
        } else {
            1.0
        };
        let raw = self.sim.damage_roll(attack, self.rng) as f64;
        let x = raw * tier_mult * mode_mult * self.sim.coef(attack, t) * backlash * fs_bonus;
        // Floored (C-CMB-4); truncation is the floor for x >= 0.
        let dmg = if x >= 0.0 { x as i32 } else { x.floor() as i32 };
        self.damage(a, t, dmg, free);
        if riposte {
            self.free_attack(t, a);
        }
    }

    /// Applies damage (negative heals, up to max HP): Revive, down, provocation,
    /// Sépulcrale counter (C-CMB-5, C-LD-6).
    fn damage(&mut self, a: usize, t: usize, dmg: i32, free: bool) {
        let max_hp = self.sim.model.fighters[t].hp;
        if dmg <= 0 {
            if dmg < 0 && !self.st[t].down {
                self.st[t].hp = self.st[t].hp.saturating_sub(dmg).min(max_hp);
            }
            return;
        }
        let s = &mut self.st[t];
        if s.posture == SEPULCRALE && !s.revive_used && s.hp.saturating_sub(dmg) <= 0 {
            s.hp = (max_hp + 1) / 2;
            s.revive_used = true;
            self.acc.fighters[t].posture[1].revive += 1;
        } else {
            s.hp = s.hp.saturating_sub(dmg);
            if s.hp <= 0 && !s.down {
                s.down = true;
                if s.posture != NONE {
                    self.end_posture(t, END_HOLDER_DOWN);
                }
            }
        }
        if self.st[a].posture == SEPULCRALE {
            self.st[t].provoked_by = a as u8;
        }
        if !free && self.st[t].posture == SEPULCRALE {
            self.free_attack(t, a);
        }
    }
}
