//! One combat: rounds, turn order (C-TURN-1..3) and turns. Attacks live in `action.rs`,
//! Light/Dark postures in `posture.rs`.

use crate::dice::Die;
use crate::engine::Rng64;

use super::acc::{CombatAcc, END_COMBAT_END};
use super::model::{MAX_ACTIONS, MAX_FIGHTERS};
use super::order::Slot;
use super::plan::{Full, Plan};
use super::posture::Moment;
use super::sim::CombatSim;
use super::watch::{Quiet, Skip, Step, Watch};

use super::state::{FState, NONE};

/// The state of one combat, reused for every combat of a batch. `P` is the run's fight
/// plan (`plan.rs`): which optional rules the turn loop checks at all. `repr(C)`: the
/// layout is the same under every plan (the plan is only a `PhantomData`), so a fight
/// may go on under another plan in place (`awake`).
#[repr(C)]
pub(super) struct Fight<'a, 'r, W: Watch = Quiet, P: Plan = Full> {
    pub sim: &'a CombatSim,
    /// Who watches (`watch.rs`): [`Quiet`] in the batch run, steps in a trace.
    pub watch: W,
    /// The last combat's outcome (a side, then nobody standing, then round cap).
    pub last_outcome: usize,
    pub rng: &'r mut Rng64,
    pub acc: &'r mut CombatAcc,
    pub st: [FState; MAX_FIGHTERS],
    /// Bit f: `st[f].down`; bit f of `pending`: `st[f].absent == PENDING`. Kept in step by
    /// [`Fight::fall`] and [`Fight::rise`], the only writers of `down`, so the end-of-combat
    /// check and target choice read one word instead of every combatant.
    down_mask: u32,
    pending_mask: u32,
    /// Bit f: `f`'s HP is under one of its `below_hp` point triggers (`hp_moved`).
    pub(super) hp_low: u32,
    pub(super) slots: [Slot; MAX_FIGHTERS * MAX_ACTIONS as usize],
    pub(super) n_slots: usize,
    /// The order the general path built last (`order.rs`).
    pub(super) last: super::order::LastOrder,
    /// First slot not yet run in the current round.
    pub(super) cursor: usize,
    pub round: u32,
    first_action_done: bool,
    /// 5-round fatigue gains already given (`fatigue.rs`).
    pub fat_rounds: u32,
    /// Support actions and effects per combatant (support.rs), apart from `st` so files
    /// without them copy no more state.
    pub sup: [super::support::SupportState; MAX_FIGHTERS],
    /// FP/FM each combatant starts the next combat from, when carried in from another
    /// scenario (`linked.rs`, issue 25 defect 5); None: the file's.
    pub carry: Option<[(i8, i8); MAX_FIGHTERS]>,
    /// Periodic effects each combatant holds (`periodic.rs`), reset only when a file has
    /// some.
    pub held: [[super::periodic::Held; super::periodic::HELD_SLOTS]; MAX_FIGHTERS],
    plan: std::marker::PhantomData<P>,
    /// Test builds: how often a waking plan woke at the start, at a turn start and after
    /// the action of a slot alone, and at a turn start and after the actions of an
    /// exchange.
    #[cfg(test)]
    pub(super) woke: [u64; 5],
}

impl<'a, 'r, P: Plan> Fight<'a, 'r, Quiet, P> {
    pub fn new(sim: &'a CombatSim, rng: &'r mut Rng64, acc: &'r mut CombatAcc) -> Self {
        Fight::watched(sim, rng, acc, Quiet)
    }
}

impl<'a, 'r, W: Watch, P: Plan> Fight<'a, 'r, W, P> {
    pub fn watched(
        sim: &'a CombatSim,
        rng: &'r mut Rng64,
        acc: &'r mut CombatAcc,
        watch: W,
    ) -> Self {
        Fight {
            sim,
            watch,
            last: super::order::LastOrder::NONE,
            last_outcome: 0,
            rng,
            acc,
            st: [FState::BLANK; MAX_FIGHTERS],
            down_mask: 0,
            pending_mask: 0,
            hp_low: 0,
            slots: [Slot(0); MAX_FIGHTERS * MAX_ACTIONS as usize],
            n_slots: 0,
            cursor: 0,
            round: 0,
            first_action_done: false,
            fat_rounds: 0,
            sup: [super::support::SupportState::BLANK; MAX_FIGHTERS],
            carry: None,
            held: [[super::periodic::Held::BLANK; super::periodic::HELD_SLOTS]; MAX_FIGHTERS],
            plan: std::marker::PhantomData,
            #[cfg(test)]
            woke: [0; 5],
        }
    }

    /// Notes a step for a trace; nothing at all in the batch run (`W::ON` is a constant).
    #[inline(always)]
    pub fn note(&mut self, step: impl FnOnce(&Self) -> Step) {
        if W::ON {
            let s = step(self);
            self.watch.note(s);
        }
    }

    #[inline(always)]
    pub fn roll(&mut self, die: Die) -> u8 {
        die.roll(self.rng) as u8
    }

    fn reset(&mut self) {
        let small = &self.sim.model.small;
        for ((s, f), r) in self.st.iter_mut().zip(&self.sim.model.fighters).zip(small) {
            *s = FState {
                aura_left: r.aura_points,
                anti_aura: r.anti_aura,
                hp: f.start.hp,
                pm: f.start.pm,
                fp: f.start.fp,
                fm: f.start.fm,
                karma: f.karma,
                saved_karma: f.karma,
                mode: f.mode,
                light_left: f.light_points,
                dark_left: f.dark_points,
                ..FState::BLANK
            };
        }
        self.down_mask = 0;
        self.pending_mask = 0;
        for f in 0..self.sim.n {
            self.hp_moved(f);
        }
        if let Some(c) = &self.carry {
            for (s, &(fp, fm)) in self.st.iter_mut().zip(c) {
                (s.fp, s.fm) = (fp, fm);
            }
        }
        if P::on(self.sim.any_support) {
            self.sup = [super::support::SupportState::BLANK; MAX_FIGHTERS];
        }
        if P::on(self.sim.any_periodic) {
            self.periodic_start();
        }
        self.round = 0;
        self.n_slots = 0;
        self.cursor = 0;
        self.first_action_done = false;
    }

    /// This fight, its state as it is, under the plan that goes on from a [`Plan::WAKES`]
    /// plan (`plan.rs`).
    #[inline(always)]
    fn awake(&mut self) -> &mut Fight<'a, 'r, W, P::Awake> {
        const {
            assert!(
                std::mem::size_of::<Fight<'_, '_, W, P>>()
                    == std::mem::size_of::<Fight<'_, '_, W, P::Awake>>()
            )
        };
        // SAFETY: `Fight` is `repr(C)` and its plan is only the `PhantomData` field, a
        // zero-sized type of alignment 1 under every plan: both types have the same
        // fields at the same offsets, and the borrow is `self`'s for its lifetime.
        unsafe { &mut *(self as *mut Self).cast::<Fight<'a, 'r, W, P::Awake>>() }
    }

    /// [`Self::awake`] where the fight wakes, place `at` of `woke` (counted in test builds).
    #[inline(always)]
    fn wakes_at(&mut self, _at: usize) -> &mut Fight<'a, 'r, W, P::Awake> {
        #[cfg(test)]
        {
            self.woke[_at] += 1;
        }
        self.awake()
    }

    /// Runs one whole combat and counts it.
    pub fn combat(&mut self) {
        self.reset();
        let n = self.sim.n;
        if P::on(!self.sim.model.events.is_empty()) {
            self.events_start();
        }
        if P::tired(self.sim.model.fatigue.on) {
            self.fatigue_start();
        }
        if P::WAKES && (0..n).any(|f| self.points_choice(f, Moment::Start) != NONE) {
            return self.wakes_at(0).start_points_and_play();
        }
        if P::POSTURES {
            for f in 0..n {
                self.try_points(f, Moment::Start);
            }
        }
        self.play(None);
    }

    /// The combat from its start points on, under a plan with postures.
    fn start_points_and_play(&mut self) {
        for f in 0..self.sim.n {
            self.try_points(f, Moment::Start);
        }
        self.play(None);
    }

    /// Plays the rounds to the end of the combat and counts it: from the first round, or
    /// (`resume`) from the slot after a group that ran until a point might be spent
    /// under a [`Plan::WAKES`] plan.
    fn play(&mut self, mut resume: Option<usize>) {
        // The ending depends on the down and pending masks alone: after a slot, ask again
        // only when one of them moved.
        let mut seen = u64::MAX;
        let outcome = 'combat: loop {
            let mut s = 0;
            if let Some(e) = resume.take() {
                // Mid-round: the group before `e` has run, and its ending is not asked yet.
                if let Some(w) = self.winner() {
                    break 'combat w;
                }
                s = e;
            } else {
                if self.round == self.sim.model.max_rounds {
                    break 'combat self.sim.model.sides.len() + 1;
                }
                self.round += 1;
                let round = self.round;
                self.note(|_| Step::Round { round });
                if P::on(!self.sim.model.events.is_empty()) {
                    self.scripted_events();
                    if let Some(w) = self.winner() {
                        // The last of a side left.
                        break 'combat w;
                    }
                }
                self.build_slots();
                if W::ON {
                    for j in 0..self.n_slots {
                        let sl = self.slots[j];
                        self.note(|_| Step::Slot {
                            who: sl.f() as u8,
                            action: sl.k(),
                            d20: sl.d20(),
                        });
                    }
                }
                // Round-start ticks come after the order is set (a trace shows the order
                // on the round's line) and before the first action; whoever they down
                // loses its slot.
                if P::on(self.sim.any_periodic) {
                    self.periodic_round_start();
                    if let Some(w) = self.winner() {
                        break 'combat w;
                    }
                }
            }
            while s < self.n_slots {
                let e = self.group_end(s);
                self.cursor = e;
                let woke = if e - s == 1 {
                    // Alone in its slot: `in_group` is already false (cleared after every
                    // exchange) and `group_alive` is read only in an exchange.
                    self.slot_from(s, At::Begin)
                } else {
                    self.exchange_from(s, e, At::Begin)
                };
                if P::WAKES && woke {
                    // The group finished under the awake plan; so does the combat.
                    return self.awake().play(Some(e));
                }
                let now = u64::from(self.down_mask) << 32 | u64::from(self.pending_mask);
                if now != seen {
                    seen = now;
                    if let Some(w) = self.winner() {
                        break 'combat w;
                    }
                }
                s = e;
            }
            if P::tired(self.sim.model.fatigue.on) {
                if let Some(w) = self.fatigue_round_end() {
                    break 'combat w;
                }
            }
        };
        self.finish(outcome);
    }

    /// Puts `f` out of the fight (down, or away as `absent` says).
    #[inline(always)]
    pub(super) fn fall(&mut self, f: usize, absent: u8) {
        self.st[f].down = true;
        self.st[f].absent = absent;
        self.down_mask |= 1 << f;
        if absent == super::events::PENDING {
            self.pending_mask |= 1 << f;
        } else {
            self.pending_mask &= !(1 << f);
        }
    }

    /// Brings `f` (back) into the fight: a reinforcement arriving.
    pub(super) fn rise(&mut self, f: usize) {
        self.st[f].down = false;
        self.st[f].absent = super::events::PRESENT;
        self.down_mask &= !(1 << f);
        self.pending_mask &= !(1 << f);
    }

    /// The mask of combatants down or out of the fight (bit f).
    #[inline(always)]
    pub(super) fn down_mask(&self) -> u32 {
        self.down_mask
    }

    /// The side left standing, the "nobody" index when all are down, or None.
    pub(super) fn winner(&self) -> Option<usize> {
        // Reinforcements on their way keep their side in the fight (`events.rs`).
        let keep = !self.down_mask | self.pending_mask;
        let sides = self.sim.model.sides.len();
        let mut mask = 0u32;
        for (s, &m) in self.sim.side_members[..sides].iter().enumerate() {
            mask |= ((keep & m != 0) as u32) << s;
        }
        #[cfg(test)]
        {
            let mut slow = 0u32;
            for (s, f) in self.st[..self.sim.n].iter().zip(&self.sim.model.fighters) {
                if !s.down || s.absent == super::events::PENDING {
                    slow |= 1 << f.side;
                }
            }
            assert_eq!(mask, slow, "the masks drifted from `down`/`absent`");
        }
        if mask == 0 {
            Some(sides)
        } else if mask & (mask - 1) == 0 {
            // One side left (one bit set).
            Some(mask.trailing_zeros() as usize)
        } else {
            None
        }
    }

    fn finish(&mut self, outcome: usize) {
        let n = self.sim.n;
        if P::POSTURES {
            for f in 0..n {
                if !self.st[f].down && self.st[f].posture != NONE {
                    self.end_posture(f, END_COMBAT_END);
                }
            }
        }
        if P::tired(self.sim.model.fatigue.on) {
            self.fatigue_finish();
        }
        self.last_outcome = outcome;
        let rounds = self.round;
        self.note(|_| Step::End {
            outcome: outcome as u8,
            rounds,
        });
        let acc = &mut *self.acc;
        acc.combats += 1;
        acc.outcome[outcome] += 1;
        acc.rounds[self.round as usize] += 1;
        acc.outcome_rounds[outcome * acc.rounds.len() + self.round as usize] += 1;
        let mut apoc = 0u64;
        let mut dark = 0u64;
        for (f, s) in self.st[..n].iter().enumerate() {
            let fa = &mut acc.fighters[f];
            let [wd, wt, wh] = self.sim.widths[f];
            fa.dealt.add(s.dealt as u64, wd);
            fa.taken.add(s.taken as u64, wt);
            // Out of the fight by an event: not down, HP as it left (or arrives).
            let gone = s.absent != 0;
            fa.hp_end.add(
                if s.down && !gone {
                    0
                } else {
                    s.hp.max(0) as u64
                },
                wh,
            );
            fa.actions += s.actions as u64;
            fa.fp_end[(s.fp + 3) as usize] += 1;
            fa.fm_end[(s.fm + 3) as usize] += 1;
            fa.karma_end[(s.karma + 10) as usize] += 1;
            fa.down += (s.down && !gone) as u64;
            fa.apocalypse_combats += (s.apocalypses > 0) as u64;
            apoc += s.apocalypses as u64;
            dark += (self.sim.model.fighters[f].dark_points - s.dark_left) as u64;
        }
        acc.apocalypse_combats += (apoc > 0) as u64;
        acc.apocalypse_sq += apoc * apoc;
        acc.dark_sq += dark * dark;
    }

    /// A simultaneous exchange (C-TURN-1 "résolution parallèle"): every member's turn
    /// starts (with its turn-start point triggers) before any action, all actions resolve,
    /// then every turn ends, and only then may points be spent (C-LD-2: not between the
    /// two halves of one exchange; reading 10c in docs/rules.md). From `at` on; true when
    /// a point might be spent under a [`Plan::WAKES`] plan, and the rest ran awake.
    fn exchange_from(&mut self, s: usize, e: usize, at: At) -> bool {
        let mut from = s;
        match at {
            At::Begin => {
                for j in s..e {
                    let f = self.slots[j].f();
                    self.st[f].in_group = true;
                    self.st[f].group_alive = !self.st[f].down;
                }
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
    fn slot_from(&mut self, j: usize, at: At) -> bool {
        let (f, k) = (self.slots[j].f(), self.slots[j].k());
        let last = k + 1 == self.st[f].n_act;
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
                if last && !self.st[f].down {
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
        if last && !self.st[f].down {
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
                && self.sim.turn_start >> f & 1 != 0
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
        if self.sim.turn_start >> f & 1 != 0
            && self.may_react(f)
            && self.try_points(f, Moment::TurnStart)
        {
            // Activated before acting: this turn counts (C-LD-3).
            self.st[f].posture_turns = 1;
        }
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
    fn after_action(&mut self) {
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
        self.check_hp_low();
        let mut m = self.sim.reactive_mask & !self.down_mask & (self.hp_low | !self.sim.hp_only);
        let gates = &self.sim.gates;
        if self.down_mask & gates.gated_allies == 0 {
            // No ally of those who react only to an ally down is down (`gate.rs`).
            m &= !gates.down_gated;
            #[cfg(test)]
            for f in crate::systems::mask::bits(self.sim.reactive_mask & gates.down_gated) {
                assert!(!self.would_spend(f), "{f} skipped but would spend");
            }
        }
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
enum At {
    Begin,
    TurnStartPoints(usize),
    AfterAction,
}
