//! Turns and actions within a round: a slot alone or a simultaneous exchange, a turn's
//! start and end (C-TURN-1..3, C-LD-3), and the points spent between actions (C-LD-2).

use crate::dice::Die;

use super::fight::Fight;
use super::plan::Plan;
use super::posture::Moment;
use super::state::NONE;
use super::watch::{Skip, Step, Watch};

impl<W: Watch, P: Plan> Fight<'_, '_, W, P> {
    /// A simultaneous exchange (C-TURN-1 "résolution parallèle"): every member's turn
    /// starts (with its turn-start point triggers) before any action, all actions resolve,
    /// then every turn ends, and only then may points be spent (C-LD-2: not between the
    /// two halves of one exchange; reading 10c in docs/rules.md). From `at` on; true when
    /// a point might be spent under a [`Plan::WAKES`] plan, and the rest ran awake.
    pub(super) fn exchange_from(&mut self, s: usize, e: usize, at: At) -> bool {
        let mut from = s;
        match at {
            At::Begin => {
                for j in s..e {
                    let f = self.slots[j].f();
                    self.st[f].in_group = true;
                    self.st[f].group_alive = !self.st[f].down;
                }
                self.note(|me| Step::Simultaneous {
                    who: (s..e).fold(0, |m, j| m | 1 << me.slots[j].f()),
                });
            }
            At::TurnStartPoints(j) => {
                self.turn_start_points(self.slots[j].f());
                from = j + 1;
            }
            At::AfterAction => {}
        }
        if at != At::AfterAction {
            for j in from..e {
                let (f, k) = (self.slots[j].f(), self.slots[j].k());
                if k == 0 && !self.st[f].down && self.start_turn(f) {
                    self.wakes_at(3).exchange_from(s, e, At::TurnStartPoints(j));
                    return true;
                }
            }
            if !self.first_action_done {
                self.first_of_exchange(s, e);
            }
            for j in s..e {
                let f = self.slots[j].f();
                let st = self.st[f];
                if (st.down && !st.group_alive) || (P::SKIPS && st.skip_round) {
                    continue;
                }
                self.note_first_actor(f);
                self.st[f].act_k = self.slots[j].k();
                self.take_action(f);
            }
            for j in s..e {
                let (f, k) = (self.slots[j].f(), self.slots[j].k());
                if k + 1 == self.st[f].n_act && !self.st[f].down {
                    self.end_turn(f);
                }
            }
        }
        if P::WAKES && self.wakes_after_action() {
            self.wakes_at(4).exchange_from(s, e, At::AfterAction);
            return true;
        }
        self.after_action();
        for j in s..e {
            self.st[self.slots[j].f()].in_group = false;
        }
        false
    }

    /// The first action of the combat is a simultaneous exchange (still tied after the d20,
    /// C-TURN-1): the members act at once, so the "first actor" credit goes to one of
    /// those who act, drawn at random (issue 25: it went to the first in name order).
    #[inline(never)]
    fn first_of_exchange(&mut self, s: usize, e: usize) {
        let acts = |me: &Self, j: usize| {
            let st = me.st[me.slots[j].f()];
            !((st.down && !st.group_alive) || (P::SKIPS && st.skip_round))
        };
        let c = (s..e).filter(|&j| acts(self, j)).count() as u64;
        if c == 0 {
            return;
        }
        let k = if c == 1 {
            0
        } else {
            Die::known(c).index(self.rng) as usize
        };
        if let Some(j) = (s..e).filter(|&j| acts(self, j)).nth(k) {
            self.note_first_actor(self.slots[j].f());
        }
    }

    #[inline(always)]
    fn note_first_actor(&mut self, f: usize) {
        if !self.first_action_done {
            self.first_action_done = true;
            self.acc.fighters[f].first_actor += 1;
        }
    }

    /// The action slot `j` from `at` on; true when a point might be spent under a
    /// [`Plan::WAKES`] plan, and the rest of the slot ran awake.
    pub(super) fn slot_from(&mut self, j: usize, at: At) -> bool {
        let (f, k) = (self.slots[j].f(), self.slots[j].k());
        let mut act = true;
        match at {
            At::Begin => {
                if self.st[f].down {
                    return false;
                }
                if k == 0 && self.start_turn(f) {
                    self.wakes_at(1).slot_from(j, At::TurnStartPoints(j));
                    return true;
                }
            }
            At::TurnStartPoints(_) => self.turn_start_points(f),
            At::AfterAction => act = false,
        }
        if act {
            if P::SKIPS && self.st[f].skip_round {
                if k + 1 == self.st[f].n_act && !self.st[f].down {
                    self.end_turn(f);
                }
                return false;
            }
            self.note_first_actor(f);
            self.st[f].act_k = k;
            self.take_action(f);
            if P::WAKES && self.wakes_after_action() {
                self.wakes_at(2).slot_from(j, At::AfterAction);
                return true;
            }
        }
        self.after_action();
        // Read after the action: a Final Skill may have taken the holder's later actions
        // of the round away (`drop_extra_actions`).
        if k + 1 == self.st[f].n_act && !self.st[f].down {
            self.end_turn(f);
        }
        false
    }

    /// The start of `f`'s turn; true when, under a [`Plan::WAKES`] plan, its turn-start
    /// points might be spent (the rest of the turn start is then
    /// [`Self::turn_start_points`] under the awake plan: every posture state is neutral,
    /// so what comes before it changes nothing).
    fn start_turn(&mut self, f: usize) -> bool {
        if P::SKIPS {
            self.st[f].skip_round = false;
        }
        if P::on(self.sim.any_periodic) {
            self.periodic_tick(f, super::periodic::At::TurnStart);
            if self.st[f].down {
                return false;
            }
        }
        if !P::POSTURES {
            // No lock, backlash or posture turn; a point spent only once awake.
            return P::WAKES
                && self.turn_start_may(f)
                && self.may_react(f)
                && self.points_choice(f, Moment::TurnStart) != NONE;
        }
        let s = &mut self.st[f];
        if s.cooldown > 0 {
            s.blocked_turn = true;
            s.cooldown -= 1;
        }
        if s.illum_backlash > 0 {
            // C-LD-5 backlash: the turn passes with no action.
            s.illum_backlash -= 1;
            s.skip_round = true;
            self.note(|_| Step::Skip {
                who: f as u8,
                why: Skip::IlluminationBacklash,
            });
            return false;
        }
        if s.sep_backlash > 0 {
            s.sep_backlash -= 1;
            s.sep_turn = true;
        }
        if s.posture != NONE {
            // C-LD-3: a posture turn is counted at the start of each own turn in posture.
            s.posture_turns += 1;
        }
        self.turn_start_points(f);
        false
    }

    /// The turn-start point triggers of `f`.
    fn turn_start_points(&mut self, f: usize) {
        if self.turn_start_may(f) && self.may_react(f) && self.try_points(f, Moment::TurnStart) {
            // Activated before acting: this turn counts (C-LD-3).
            self.st[f].posture_turns = 1;
        }
    }

    /// Whether `f` has a turn-start point trigger and still holds a point it may spend
    /// (`holding`; without one `points_choice` refuses it, so skipping changes nothing).
    #[inline(always)]
    fn turn_start_may(&self, f: usize) -> bool {
        let may = (self.sim.turn_start & self.holding) >> f & 1 != 0;
        #[cfg(test)]
        {
            assert_eq!(
                self.holding >> f & 1 != 0,
                self.holds_points(f),
                "holding of {f}"
            );
            assert!(
                may || self.sim.turn_start >> f & 1 == 0
                    || self.points_choice(f, Moment::TurnStart) == NONE,
                "{f} skipped at its turn start but would spend"
            );
        }
        may
    }

    fn end_turn(&mut self, f: usize) {
        if P::on(self.sim.any_periodic) {
            self.periodic_tick(f, super::periodic::At::TurnEnd);
        }
        if P::POSTURES {
            if self.st[f].posture != NONE
                && self.st[f].posture_turns >= self.sim.rules.posture_turns
            {
                self.end_posture(f, super::acc::END_EXPIRY);
            }
            let s = &mut self.st[f];
            if s.sep_turn && s.sep_backlash == 0 {
                // The backlash is over: an unused "next action -20" (disadvantage 3)
                // lapses with it rather than reach a later backlash (reading 10d).
                s.malus_next = false;
            }
            s.sep_turn = false;
            s.blocked_turn = false;
        }
        if P::SKIPS {
            self.st[f].skip_round = false;
        }
    }

    /// Points may be used between actions (C-LD-2): check every combatant's triggers.
    pub(super) fn after_action(&mut self) {
        // Points that react between actions belong to the postures group: without a
        // posture nobody spends one (`plan.rs`).
        if P::POSTURES {
            self.points_between_actions::<true>();
        }
    }

    /// Under a [`Plan::WAKES`] plan: whether [`Self::after_action`] would offer someone
    /// a point now (`try_points`), so the fight must go on awake first.
    #[inline(always)]
    fn wakes_after_action(&mut self) -> bool {
        self.points_between_actions::<false>()
    }

    /// Keeps [`Fight::waking`] after `down_mask` or `hp_low` moved (a constant nothing
    /// under plans that never check points between actions).
    #[inline(always)]
    pub(super) fn refresh_waking(&mut self) {
        if P::POSTURES || P::WAKES {
            self.waking = self.waking_now();
        }
    }

    /// Those who may spend a point between actions as far as the masks tell: standing,
    /// not reacting to their HP alone while above its thresholds (`may_react`), and not
    /// reacting only to an ally down while no ally of theirs is down (`gate.rs`).
    #[inline(always)]
    fn waking_now(&self) -> u32 {
        let down = self.down_mask();
        // Those with no point left they may spend are refused by `points_choice`.
        let mut m =
            self.sim.reactive_mask & self.holding & !down & (self.hp_low | !self.sim.hp_only);
        let gates = &self.sim.gates;
        if down & gates.gated_allies == 0 {
            m &= !gates.down_gated;
        }
        m
    }

    /// Walks those who may spend a point between actions; `SPEND`: offers each one the
    /// point (`try_points`), else returns true at the first it would be offered to.
    #[inline(always)]
    fn points_between_actions<const SPEND: bool>(&mut self) -> bool {
        if !self.sim.any_reactive {
            return false;
        }
        // Whoever is down spends nothing (`try_points`), nor one that reacts to its HP
        // alone while above its thresholds (`may_react`).
        #[cfg(test)]
        {
            self.check_hp_low();
            assert_eq!(self.waking, self.waking_now(), "the waking mask drifted");
            for f in 0..self.sim.n {
                let holds = self.holds_points(f);
                assert_eq!(self.holding >> f & 1 != 0, holds, "holding of {f} drifted");
                assert!(
                    holds || self.points_choice(f, Moment::AfterAction) == NONE,
                    "{f} holds no point but would spend"
                );
            }
            let gates = &self.sim.gates;
            if self.down_mask() & gates.gated_allies == 0 {
                for f in crate::systems::mask::bits(self.sim.reactive_mask & gates.down_gated) {
                    assert!(!self.would_spend(f), "{f} skipped but would spend");
                }
            }
        }
        let mut m = self.waking;
        while m != 0 {
            let f = m.trailing_zeros() as usize;
            m &= m - 1;
            // `may_react` and the state refusals of `try_points` are pure, so their order
            // changes nothing: with `spend` rules `may_react` walks gates, so the state
            // (a holder in a posture or its lock) is asked first; without, `may_react` is
            // one HP comparison that refuses most often.
            let [dark, light] = self.sim.spend_kinds[f];
            let idle = |me: &Self| {
                let s = &me.st[f];
                (s.dark_left & dark | s.light_left & light) != 0
                    && s.posture == NONE
                    && s.cooldown == 0
                    && !s.blocked_turn
            };
            let state_first = self.sim.point_rules[f];
            if state_first && !idle(self) || !self.may_react(f) || !state_first && !idle(self) {
                #[cfg(test)]
                assert!(
                    self.points_choice(f, Moment::AfterAction) == NONE,
                    "{f} skipped between actions but would spend"
                );
                continue;
            }
            if !SPEND {
                if self.points_choice(f, Moment::AfterAction) != NONE {
                    return true;
                }
                continue;
            }
            self.try_points(f, Moment::AfterAction);
        }
        false
    }
}

/// Where a slot or an exchange goes on from: its start, its turn-start points (slot `j`
/// of the round), or the points between actions after it acted.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum At {
    Begin,
    TurnStartPoints(usize),
    AfterAction,
}
