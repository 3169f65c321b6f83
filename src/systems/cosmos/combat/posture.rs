//! Light & Dark points and the Illumination / Sépulcrale postures (C-LD-1..7, C-KARMA-2).

use crate::dice::Die;

use super::acc::{END_COMBAT_END, END_EXPIRY, END_FINAL_SKILL, END_HOLDER_DOWN};
use super::fight::Fight;
use super::model::PointTriggers;
use super::plan::Plan;
use super::state::{ILLUMINATION, NONE, SEPULCRALE};
use super::watch::Step;

/// When the policy triggers are checked (C-LD-2: never inside an action).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Moment {
    Start,
    TurnStart,
    AfterAction,
}

impl<W: super::watch::Watch, P: Plan> Fight<'_, '_, W, P> {
    fn triggered(&self, f: usize, t: &PointTriggers, moment: Moment) -> bool {
        match moment {
            Moment::Start => t.at_start,
            Moment::TurnStart | Moment::AfterAction => {
                if moment == Moment::TurnStart && t.on_turn_start {
                    return true;
                }
                if let Some(x) = t.below_hp {
                    if (self.st[f].hp as f64) < x * self.sim.max_hp[f] {
                        return true;
                    }
                }
                // Out of the fight by an event is not down (`events.rs`).
                t.when_ally_down
                    && crate::systems::mask::bits(self.sim.ally_mask[f])
                        .any(|g| self.st[g].down && self.st[g].absent == 0)
            }
        }
    }

    /// Whether `f` holds a point of a kind it may spend (a flat trigger or a `spend` rule
    /// of that kind, `CombatSim::spend_kinds`). Without one `points_choice` is `NONE` at
    /// every moment: the flat triggers and the `spend` rules each need a point of their
    /// kind left. Kept for the turn loop in [`Fight::holding`].
    #[inline(always)]
    pub(super) fn holds_points(&self, f: usize) -> bool {
        let s = &self.st[f];
        let [dark, light] = self.sim.spend_kinds[f];
        (s.dark_left & dark | s.light_left & light) != 0
    }

    /// Whether `try_points(f, Moment::AfterAction | Moment::TurnStart)` may spend a point
    /// now. False only when it surely would not: no ally-down or turn-start trigger, HP
    /// not under the `below_hp` threshold of a kind with points left (the same comparison
    /// as `triggered`), and no `spend` rule of a kind with points left whose gate passes
    /// (`gate.rs`: a rule that holds spends, none holding leaves the choice to the flat
    /// triggers, which cannot fire), so the turn loop may skip the call and change nothing
    /// (`try_points` has no side effect when it spends nothing).
    #[inline(always)]
    pub(super) fn may_react(&self, f: usize) -> bool {
        if self.sim.point_other[f] {
            return true;
        }
        let s = &self.st[f];
        let hp = s.hp as f64;
        let [dark, light] = self.sim.point_hp[f];
        if (s.dark_left > 0 && hp < dark) || (s.light_left > 0 && hp < light) {
            return true;
        }
        // Out of line: those without spend rules keep the short path above.
        let may = P::on(self.sim.point_rules[f]) && self.rules_may_spend(f);
        #[cfg(test)]
        assert!(may || !self.would_spend(f), "a gate of {f} refused a spend");
        may
    }

    /// Notes `f`'s HP after it moved: whether it is under a `below_hp` point trigger (C-LD-2; kept
    /// for the combatants that react to their HP alone, `CombatSim::hp_only`).
    #[inline(always)]
    pub(super) fn hp_moved(&mut self, f: usize) {
        // Without postures nobody spends a point, so nobody reacts (`plan.rs`); a
        // waking plan reads the mask to know when a point might be spent.
        if (P::POSTURES || P::WAKES) && self.sim.hp_only >> f & 1 != 0 {
            self.hp_low_of(f);
        }
    }

    #[inline(never)]
    fn hp_low_of(&mut self, f: usize) {
        let [dark, light] = self.sim.point_hp[f];
        let hp = self.st[f].hp as f64;
        let low = (hp < dark || hp < light) as u32;
        self.hp_low = self.hp_low & !(1 << f) | low << f;
        self.refresh_waking();
    }

    /// Test builds: `hp_low` says what the HP of those who react to it alone say now.
    #[cfg(test)]
    pub(super) fn check_hp_low(&self) {
        for f in crate::systems::mask::bits(self.sim.hp_only) {
            let [dark, light] = self.sim.point_hp[f];
            let hp = self.st[f].hp as f64;
            let low = hp < dark || hp < light;
            assert_eq!(self.hp_low >> f & 1 != 0, low, "the HP mask of {f} drifted");
        }
    }

    /// Whether a `spend` rule of `f` of a kind with points left passes its gate.
    #[inline(never)]
    fn rules_may_spend(&self, f: usize) -> bool {
        let s = &self.st[f];
        let [dark, light] = &self.sim.gates.spend[f];
        (s.dark_left > 0 && self.passes(f, dark)) || (s.light_left > 0 && self.passes(f, light))
    }

    /// What `try_points(f, Moment::AfterAction)` decides past its state checks: whether
    /// it spends (the test build checks the turn loop's shortcuts against it).
    #[cfg(test)]
    pub(super) fn would_spend(&self, f: usize) -> bool {
        self.policy_choice(f, Moment::AfterAction) != NONE
    }

    /// Spends a Light or Dark point if the policy says so and the rules allow; true if a
    /// posture began.
    pub(super) fn try_points(&mut self, f: usize, moment: Moment) -> bool {
        let kind = self.points_choice(f, moment);
        if kind != NONE {
            self.enter_posture(f, kind);
        }
        kind != NONE
    }

    /// The posture `try_points(f, moment)` would begin now, or `NONE`: what it decides,
    /// without a side effect (a waking plan asks it before the postures group is in).
    pub(super) fn points_choice(&self, f: usize, moment: Moment) -> u8 {
        let s = &self.st[f];
        if s.down || s.posture != NONE || s.cooldown > 0 || s.blocked_turn {
            return NONE;
        }
        // Reading 10a: a backlash longer than the lock (disadvantage 6) also holds points
        // back, unless the option lets a new posture end it.
        if P::tired(self.sim.any_fatigue) && (self.sim.exhausted(s.fp) || self.sim.exhausted(s.fm))
        {
            // C-FAT-4: an exhausted combatant can no longer use Light or Dark points.
            return NONE;
        }
        let in_backlash = s.illum_backlash > 0 || s.sep_backlash > 0 || s.sep_turn;
        if in_backlash && !self.sim.rules.posture_ends_backlash {
            return NONE;
        }
        self.policy_choice(f, moment)
    }

    /// What `f`'s rules, else its flat triggers, pick at `moment` with the points it
    /// holds: `points_choice` past the state that holds points back.
    #[inline(always)]
    fn policy_choice(&self, f: usize, moment: Moment) -> u8 {
        let s = &self.st[f];
        let policy = &self.sim.model.fighters[f].policy;
        // Policy rules first (trigger.rs); none matching: the flat triggers below.
        if P::on(self.sim.any_rules) {
            if let Some(kind) = self.rule_points(f) {
                return kind;
            }
        }
        let dark = s.dark_left > 0 && self.triggered(f, &policy.dark, moment);
        let light = s.light_left > 0 && self.triggered(f, &policy.light, moment);
        match (dark, light) {
            (true, true) if policy.prefer_dark => SEPULCRALE,
            (true, true) => ILLUMINATION,
            (true, false) => SEPULCRALE,
            (false, true) => ILLUMINATION,
            (false, false) => NONE,
        }
    }

    fn enter_posture(&mut self, f: usize, kind: u8) {
        // `CombatSim::any_posture` said no point could be spent.
        #[cfg(test)]
        assert!(
            P::POSTURES,
            "{f} entered a posture under a plan without postures"
        );
        let adv = if kind == ILLUMINATION {
            self.roll(Die::D6)
        } else {
            0
        };
        let s = &mut self.st[f];
        if kind == ILLUMINATION {
            s.light_left -= 1;
        } else {
            s.dark_left -= 1;
        }
        // With `points_during_backlash = ends_backlash` the new posture clears the old one's
        // backlash, so its rules never mix with the new posture's (reading 10a).
        s.illum_backlash = 0;
        s.sep_backlash = 0;
        s.sep_turn = false;
        s.disadv = 0;
        s.malus_next = false;
        s.saved_karma = s.karma;
        s.posture = kind;
        s.posture_turns = 0;
        s.revive_used = false;
        s.apocalypse_in_posture = false;
        s.adv = adv;
        if !self.holds_points(f) {
            // Its last point of a kind it may spend: the point checks skip it from now on.
            self.holding &= !(1 << f);
            self.refresh_waking();
        }
        self.note(|_| Step::Posture {
            who: f as u8,
            posture: kind,
            face: adv,
        });
        self.acc.fighters[f].posture[(kind - 1) as usize].entered += 1;
        if kind == ILLUMINATION {
            self.acc.fighters[f].adv_faces[adv as usize - 1] += 1;
        }
        if P::tired(self.sim.model.fatigue.on) {
            self.tire_point(f);
        }
        if kind == ILLUMINATION && self.sim.rules.illumination_acts_next {
            self.act_next(f);
        }
    }

    /// Ends the posture of `f` for `reason` (C-LD-3): Apocalypse (C-LD-6), karma back
    /// (C-KARMA-2), backlash iff the last posture turn (`posture_turns`, 3) began, then
    /// `points_lock_turns` (2) turns without points.
    pub(super) fn end_posture(&mut self, f: usize, reason: usize) {
        let rules = &self.sim.rules;
        let max_hp = self.sim.model.fighters[f].hp;
        let s = self.st[f];
        let kind = s.posture;
        let backlash = s.posture_turns >= rules.posture_turns;
        let apocalypse = kind == SEPULCRALE
            && !s.revive_used
            && match reason {
                END_EXPIRY => rules.apocalypse_on_expiry,
                END_FINAL_SKILL => rules.apocalypse_on_final_skill,
                END_COMBAT_END => rules.apocalypse_on_combat_end,
                _ => false,
            };
        let pc = &mut self.acc.fighters[f].posture[(kind - 1) as usize];
        pc.ends[reason] += 1;
        pc.backlash += backlash as u64;
        pc.apocalypse += apocalypse as u64;
        pc.revive_and_apocalypse += (apocalypse && s.revive_used) as u64;
        let restore = rules.karma_restore;
        let lasting = backlash && reason != END_COMBAT_END && reason != END_HOLDER_DOWN;
        let disadv = if lasting && kind == SEPULCRALE {
            self.roll(Die::D6)
        } else {
            0
        };
        if disadv > 0 {
            self.acc.fighters[f].disadv_faces[disadv as usize - 1] += 1;
        }
        self.note(|_| Step::PostureEnd {
            who: f as u8,
            posture: kind,
            reason: reason as u8,
            apocalypse,
            backlash: lasting,
            disadvantage: disadv,
        });
        let s = &mut self.st[f];
        if apocalypse {
            // The holder dies and at once returns at half max HP (may lower HP).
            s.hp = (max_hp + 1) / 2;
            s.apocalypses += 1;
        }
        s.karma = match (restore, kind) {
            (true, _) => s.saved_karma,
            (false, ILLUMINATION) => self.sim.rules.test.karma_bound,
            (false, _) => -self.sim.rules.test.karma_bound,
        };
        s.posture = NONE;
        s.posture_turns = 0;
        s.adv = 0;
        s.cooldown = rules.points_lock_turns;
        if lasting {
            if kind == ILLUMINATION {
                s.illum_backlash = rules.illum_backlash_turns;
            } else {
                s.disadv = disadv;
                // Disadvantage 6: "la durée du contre-coup est doublée" (C-LD-6).
                s.sep_backlash = if disadv == 6 {
                    2 * rules.sep_backlash_turns
                } else {
                    rules.sep_backlash_turns
                };
                s.malus_next = disadv == 3;
            }
        }
        if apocalypse {
            self.hp_moved(f);
        }
        if backlash && P::tired(self.sim.model.fatigue.on) {
            self.tire_backlash(f, kind == ILLUMINATION);
        }
    }

    /// Karma as tests read it: locked at +10 / -10 in posture (C-KARMA-2; the bound is the
    /// parameter `karma_bound`).
    #[inline(always)]
    pub(super) fn karma(&self, f: usize) -> i8 {
        if !P::POSTURES {
            return self.st[f].karma;
        }
        match self.st[f].posture {
            ILLUMINATION => self.sim.rules.test.karma_bound,
            SEPULCRALE => -self.sim.rules.test.karma_bound,
            _ => self.st[f].karma,
        }
    }

    /// The bonus part of the modifier (C-LD-5 advantages 4/5): what an aura strips (C-AURA).
    #[inline(always)]
    pub(super) fn test_bonus(&self, f: usize) -> i32 {
        let s = &self.st[f];
        if P::POSTURES && s.posture == ILLUMINATION {
            // +10% / +20% in the book (parameters illumination_bonus_4/5).
            match s.adv {
                4 => self.sim.rules.illumination_bonus[0],
                5 => self.sim.rules.illumination_bonus[1],
                _ => 0,
            }
        } else {
            0
        }
    }

    /// The malus part (C-LD-6 disadvantages 4/5), kept under an aura. Disadvantage 3
    /// ("la prochaine action") is `action_malus`, added to the attack test of that action
    /// only, never to the holder's defences (reading 10d).
    #[inline(always)]
    pub(super) fn test_malus(&self, f: usize) -> i32 {
        let s = &self.st[f];
        let mut m = 0;
        if P::POSTURES && (s.sep_turn || s.sep_backlash > 0) {
            // -10% / -20% in the book (parameters sepulchral_malus_4/5).
            m -= match s.disadv {
                4 => self.sim.rules.sepulchral_malus[0],
                5 => self.sim.rules.sepulchral_malus[1],
                _ => 0,
            };
        }
        m
    }

    /// Whether `f` is in its Sépulcrale backlash now.
    #[inline(always)]
    pub(super) fn in_sep_backlash(&self, f: usize) -> bool {
        P::POSTURES && (self.st[f].sep_turn || self.st[f].sep_backlash > 0)
    }
}
