//! Resolving an attack: one attack test, then for each target the Illumination evade, the
//! defence, the damage with armour, Revive, down, provocation and the Sépulcrale counter
//! (C-CMB-2..5, C-ELEM, C-LD-5, C-LD-6).

use crate::dice::Die;
use crate::systems::cosmos::Outcome;

use super::acc::END_HOLDER_DOWN;
use super::action::{defence_stops, ACTION, RIPOSTE, SEP_COUNTER};
use super::aura_use::TestKind;
use super::fight::Fight;
use super::model::{Mode, Targets, MAX_FIGHTERS};
use super::plan::Plan;
use super::state::{ILLUMINATION, NONE, SEPULCRALE};
use super::watch::Step;

impl<W: super::watch::Watch, P: Plan> Fight<'_, '_, W, P> {
    /// An action's attack on `t` and, for an attack with several targets, on further
    /// enemies picked by the attacker's target policy (announced before the roll).
    pub(super) fn resolve(&mut self, a: usize, t: usize, attack: usize, fs: bool, from: u8) {
        if !self.sim.any_multi {
            return self.resolve_one(a, t, attack, fs, from);
        }
        let want = match self.sim.model.attacks[attack].targets {
            Targets::Count(1) => return self.resolve_one(a, t, attack, fs, from),
            Targets::Count(k) => k as usize,
            Targets::All => MAX_FIGHTERS,
        };
        let mut list = [0u8; MAX_FIGHTERS];
        list[0] = t as u8;
        let len = self.more_targets(a, want, &mut list);
        // Reading: one attack test and one damage roll for all targets; each target
        // evades or defends on its own, with its own element coefficient and armour.
        let b = self.sim.attack_block(a, attack);
        let o = self.test(a, b, fs, TestKind::Attack);
        if o.tier() == 0 {
            return;
        }
        let mut raw = None;
        for &g in &list[..len] {
            self.hit(a, g as usize, attack, o, fs, from, &mut raw);
        }
    }

    /// Attack test, defence, damage on one target. This, `hit` and `damage` are inlined
    /// into their callers, which criterion found faster on every combat bench (issue 29,
    /// figures in docs/systems/cosmos-combat.md); `free_attack` stays a call, so ripostes
    /// do not recurse.
    #[inline(always)]
    pub(super) fn resolve_one(&mut self, a: usize, t: usize, attack: usize, fs: bool, from: u8) {
        let b = self.sim.attack_block(a, attack);
        let o = self.test(a, b, fs, TestKind::Attack);
        if o.tier() == 0 {
            return;
        }
        self.hit(a, t, attack, o, fs, from, &mut None);
    }

    /// A successful attack test `o` against `t`: evade, defence, damage, riposte. `raw`
    /// is the damage dice total, rolled at the first hit and shared by later targets.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn hit(
        &mut self,
        a: usize,
        t: usize,
        attack: usize,
        o: Outcome,
        fs: bool,
        from: u8,
        raw: &mut Option<i32>,
    ) {
        let free = from != ACTION;
        let tier = o.tier();
        let mut riposte = false;
        // Simultaneous exchange: no dodge or parry between the two (C-TURN-1).
        let simultaneous = !free && self.st[a].in_group && self.st[t].in_group;
        let ts = &self.st[t];
        let exhausted = P::tired(self.sim.any_fatigue) && self.sim.exhausted(ts.fp);
        let no_defence = ts.down
            || (P::POSTURES && ts.illum_backlash > 0)
            || (P::SKIPS && ts.skip_round)
            || simultaneous
            || exhausted;
        if !no_defence {
            let mut may_defend = ts.mode == Mode::Defensive;
            if P::POSTURES && ts.posture == ILLUMINATION {
                let at = &self.sim.model.attacks[attack];
                if o != Outcome::SuperSuccess && !at.undodgeable && !at.unparryable {
                    // C-LD-5: automatic evade on d10 <= 7.
                    let roll = self.roll(Die::D10);
                    let evaded = roll <= self.sim.rules.illumination_evade;
                    self.note(|_| Step::Evade {
                        who: t as u8,
                        roll,
                        evaded,
                    });
                    if evaded {
                        return;
                    }
                }
                may_defend = true;
            }
            if may_defend {
                if let Some(dstat) = self.sim.prefer.defence(t, attack) {
                    let b = self.sim.stat_block(t, dstat);
                    self.note(|_| Step::Defends { who: t as u8 });
                    let d = self.test(t, b, false, TestKind::Defence);
                    let stopped = defence_stops(o, d);
                    riposte =
                        !free && d.tier() >= 2 && (stopped || !self.sim.rules.riposte_needs_stop);
                    if stopped {
                        self.note(|_| Step::Stopped {
                            who: t as u8,
                            riposte,
                        });
                        if riposte {
                            self.free_attack(t, a, RIPOSTE);
                        }
                        return;
                    }
                }
            }
        }
        let rules = &self.sim.rules;
        let s = &self.st[a];
        // By tier from a table: the tier of a random outcome is no branch to predict.
        let tier_mult = self.sim.tier_mult[usize::from(tier & 3)];
        let mode_mult = if P::POSTURES && s.posture == SEPULCRALE {
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
        let fs_bonus = if P::POSTURES && fs && s.posture == ILLUMINATION && s.adv == 3 {
            rules.fs_bonus_mult
        } else {
            1.0
        };
        let r = match *raw {
            Some(r) => r,
            None => {
                let r = self.sim.damage_roll(attack, self.rng);
                *raw = Some(r);
                r
            }
        };
        let x = r as f64 * tier_mult * mode_mult * self.sim.coef(attack, t) * backlash * fs_bonus;
        // A buff or debuff on the attacker's damage (support.rs), before armour.
        let x = if P::on(self.sim.any_effects) {
            x * self.effect_damage_mult(a)
        } else {
            x
        };
        // Floored (C-CMB-4); truncation is the floor for x >= 0.
        let mut dmg = if x >= 0.0 { x as i32 } else { x.floor() as i32 };
        if P::on(self.sim.any_armour) && dmg > 0 {
            // Armour (house rule): after every multiplier, the percentage (floored) then
            // the flat points, never below 0; it never touches healing.
            let (keep, flat) = self.sim.armour[t];
            let y = match keep {
                // Truncation is the floor for a product >= 0 (libm's floor is a call).
                Some(k) if x * k >= 0.0 => (x * k) as i32,
                Some(k) => (x * k).floor() as i32,
                None => dmg,
            };
            dmg = (y - flat).max(0);
        }
        self.note(|me| Step::Damage {
            from: a as u8,
            to: t as u8,
            dice: r,
            multiplier: tier_mult
                * mode_mult
                * backlash
                * fs_bonus
                * if P::on(me.sim.any_effects) {
                    me.effect_damage_mult(a)
                } else {
                    1.0
                },
            element: me.sim.coef(attack, t),
            unfloored: x,
            before_armour: if x >= 0.0 { x as i32 } else { x.floor() as i32 },
            after_armour: dmg,
        });
        if P::tired(self.sim.model.fatigue.on) {
            self.tire_psychic(t, attack);
        }
        self.damage(a, t, dmg, from);
        if dmg > 0 && P::on(self.sim.any_periodic) {
            if let Some(d) = self.sim.model.attacks[attack].on_hit {
                self.periodic_place(a, t, d);
            }
        }
        if riposte {
            self.free_attack(t, a, RIPOSTE);
        }
    }

    /// `t` falls (C-CMB-5): a few times a combat, so out of line, off the hot path of
    /// every hit.
    #[cold]
    #[inline(never)]
    fn goes_down(&mut self, t: usize) {
        self.fall(t, self.st[t].absent);
        self.note(|_| Step::Down { who: t as u8 });
        if P::POSTURES && self.st[t].posture != NONE {
            self.end_posture(t, END_HOLDER_DOWN);
        }
    }

    /// Applies damage (negative heals, up to max HP): Revive, down, provocation,
    /// Sépulcrale counter (C-CMB-5, C-LD-6).
    #[inline(always)]
    pub(super) fn damage(&mut self, a: usize, t: usize, dmg: i32, from: u8) {
        let max_hp = self.sim.model.fighters[t].hp;
        if dmg <= 0 {
            if dmg < 0 && !self.st[t].down {
                let before = self.st[t].hp;
                self.st[t].hp = before.saturating_sub(dmg).min(max_hp);
                self.hp_moved(t);
                self.note(|me| Step::Hp {
                    who: t as u8,
                    before,
                    after: me.st[t].hp,
                });
            }
            return;
        }
        if a != t {
            self.st[a].dealt += dmg as i64;
        }
        self.st[t].taken += dmg as i64;
        let (was_down, hp_before) = (self.st[t].down, self.st[t].hp);
        let s = &mut self.st[t];
        if P::POSTURES && s.posture == SEPULCRALE && !s.revive_used && s.hp.saturating_sub(dmg) <= 0
        {
            s.hp = (max_hp + 1) / 2;
            s.revive_used = true;
            self.hp_moved(t);
            self.acc.fighters[t].posture[1].revive += 1;
            self.note(|me| Step::Revive {
                who: t as u8,
                hp: me.st[t].hp,
            });
        } else {
            s.hp = s.hp.saturating_sub(dmg);
            self.hp_moved(t);
            self.note(|me| Step::Hp {
                who: t as u8,
                before: hp_before,
                after: me.st[t].hp,
            });
            if self.st[t].hp <= 0 && !self.st[t].down {
                self.goes_down(t);
            }
        }
        if P::tired(self.sim.model.fatigue.on) {
            // HP lost: what the hit removes, at most the HP it had (C-FAT-2 "PV perdus").
            self.tire_hit(t, dmg.min(hp_before.max(0)), !was_down && self.st[t].down);
        } else if P::tired(self.sim.carried) {
            // A linked combat without in-combat fatigue counts the same HP lost for the
            // expedition (audit of 2026-12-07, D2).
            self.st[t].hp_lost += dmg.min(hp_before.max(0));
        }
        if !P::POSTURES {
            // No Sépulcrale holder: no provocation, no counter.
            return;
        }
        if self.st[a].posture == SEPULCRALE && from != super::periodic::PERIODIC {
            self.st[t].provoked_by = a as u8;
        }
        // C-LD-6 "lorsqu'il subit des dégâts, de n'importe quel type": ripostes count too
        // (option `sepulchral_counter_on`); a counter never answers a counter.
        let counters = match from {
            ACTION => true,
            RIPOSTE => self.sim.rules.counter_on_free_damage,
            _ => false,
        };
        if counters && self.st[t].posture == SEPULCRALE {
            self.free_attack(t, a, SEP_COUNTER);
        }
    }
}
