//! Aura and anti-aura in combat (C-AURA, C-EDITION): an enemy spends an aura point on a
//! test before it is rolled; the rules of each face come from `growth::aura`.

use crate::dice::Die;
use crate::systems::cosmos::growth::aura::{face_rule, AuraExchange, AuraMods};
use crate::systems::cosmos::growth::PassiveTest;
use crate::systems::cosmos::{threshold_with_modifier, Outcome};

use super::fight::Fight;
use super::model::{AuraUse, ESPRIT};
use super::plan::Plan;
use super::state::NONE;
use super::watch::Step;

/// Which test an aura may fall on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum TestKind {
    Attack,
    Defence,
}

impl<W: super::watch::Watch, P: Plan> Fight<'_, '_, W, P> {
    /// The first standing enemy of `v` (lowest index) whose policy spends an aura point on
    /// this test.
    fn aura_holder(&self, v: usize, kind: TestKind, threshold: f64) -> Option<usize> {
        let side = self.sim.model.fighters[v].side;
        (0..self.sim.n).find(|&h| {
            let r = &self.sim.model.small[h];
            let s = &self.st[h];
            s.aura_left > 0
                && !s.down
                && self.sim.model.fighters[h].side != side
                && match r.aura_use {
                    AuraUse::EnemyTests => true,
                    AuraUse::EnemyAttacks => kind == TestKind::Attack,
                    AuraUse::EnemyDefences => kind == TestKind::Defence,
                    AuraUse::Never => false,
                }
                && threshold >= r.aura_min_threshold as f64
                && r.aura_target
                    .is_none_or(|(first, count)| (first..first + count).contains(&v))
        })
    }

    /// `v`'s test of `stat` when an enemy spends an aura point on it: None when nobody
    /// does or the victim cancels it (the test is then rolled as usual), else the outcome
    /// under the face rolled. The victim's karma drift is left to the caller.
    pub(super) fn aura_test(&mut self, v: usize, b: usize, kind: TestKind) -> Option<Outcome> {
        let mut malus = self.test_malus(v);
        if kind == TestKind::Attack {
            malus -= self.st[v].action_malus;
        }
        let mut bonus = self.test_bonus(v);
        if P::on(self.sim.any_mods) {
            let (b2, m2) = self.support_mods(v, b);
            bonus += b2;
            malus += m2;
        }
        let def = *self.sim.block(b);
        let m = bonus + malus + def.static_mod;
        let threshold =
            threshold_with_modifier(def.base, m as f64, self.sim.rules.test.percent_mode);
        let h = self.aura_holder(v, kind, threshold)?;
        let mut x = AuraExchange {
            aura: self.st[h].aura_left,
            anti_aura: self.st[v].anti_aura as u32,
        };
        let small = &self.sim.model.small[v];
        let cancels = small.anti_aura_always;
        // Book l. 264: only "les races ne disposant pas de l'aura" gain anti-aura, unless
        // `anti_aura_gain = every_victim`.
        let gains = self.sim.rules.growth.anti_aura_gain.gains(small.has_aura);
        let rolled = x.use_aura(cancels, gains) == Some(true);
        self.st[h].aura_left = x.aura;
        self.st[v].anti_aura = x.anti_aura.min(u8::MAX as u32) as u8;
        self.acc.fighters[h].aura.uses += 1;
        self.acc.fighters[v].aura.suffered += 1;
        if !rolled {
            self.note(|_| Step::Aura {
                who: v as u8,
                holder: h as u8,
                face: 0,
            });
            self.acc.fighters[h].aura.cancelled += 1;
            self.acc.fighters[v].aura.anti_spent += 1;
            return None;
        }
        let face = self.roll(Die::D6);
        self.note(|_| Step::Aura {
            who: v as u8,
            holder: h as u8,
            face,
        });
        self.acc.fighters[h].aura.faces[face as usize - 1] += 1;
        // The aura strips the bonuses (the attack's own positive modifier included, carried
        // in the block's static modifier) and keeps the maluses (C-AURA; cosmos-current
        // l. 260-263 "Retire tous les bonus et renforcements"); `face_rule` is the table's.
        let mods = AuraMods {
            bonus: (bonus + def.bonus) as f64,
            malus: malus as f64,
        };
        let rule = face_rule(self.sim.model.edition, face, mods, &self.sim.rules.growth)
            .expect("a d6 face is 1..6");
        if let Some(keeps_bonus) = rule.esprit_gate {
            // Passive Esprit test, read by the growth option `passive_test` (C-AURA,
            // C-FAT-5): by default the karma die applies and it moves karma before the
            // action (C-KARMA-1); `plain` rolls it at karma 0 and moves nothing.
            let passive = self.sim.rules.growth.passive_test;
            let eb = self.sim.stat_block(v, ESPRIT);
            // The victim's own bonus (not the attack's modifier) under the previous edition's
            // `keep`; its maluses always.
            let m = if keeps_bonus { bonus } else { 0 } + malus;
            let g = match passive {
                PassiveTest::Karma => self.roll_block(v, eb, m),
                PassiveTest::Plain => self
                    .sim
                    .block(eb)
                    .spec(m, 0, &self.sim.rules)
                    .roll(self.rng, &self.sim.rules.test),
            };
            if passive.moves_karma() && self.st[v].posture == NONE {
                let from = self.st[v].karma;
                self.st[v].karma = self.sim.drift(from, g);
                self.note(|me| Step::Karma {
                    who: v as u8,
                    from,
                    to: me.st[v].karma,
                });
            }
            if !g.is_success() {
                self.note(|_| Step::AuraLost { who: v as u8 });
                self.acc.fighters[h].aura.actions_lost += 1;
                // The action (or defence) is lost: a failure that moves no karma.
                return Some(Outcome::Failure);
            }
        }
        // The rule's modifiers are whole; the block adds its static modifier, attack bonus
        // included, so that bonus is taken back out.
        let mut o = self.roll_block(v, b, rule.action as i32 - def.bonus);
        if let Some(kept) = rule.reroll {
            if o == Outcome::Success {
                o = self.roll_block(v, b, kept as i32 - def.bonus);
            }
        }
        self.acc.fighters[h].aura.victim_success += o.is_success() as u64;
        Some(o)
    }
}
