//! One combat: rounds and turn order (C-TURN-1..3); turns in `turn.rs`, attacks in `action.rs`,
//! Light/Dark postures in `posture.rs`.

use crate::dice::Die;
use crate::engine::Rng64;

use super::acc::{CombatAcc, END_COMBAT_END};
use super::model::{MAX_ACTIONS, MAX_FIGHTERS};
use super::order::Slot;
use super::plan::{Full, Plan};
use super::posture::Moment;
use super::sim::CombatSim;
use super::turn::At;
use super::watch::{Quiet, Step, Watch};

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
    /// Bit f: `f` may spend a point between actions as far as the masks tell (down,
    /// `hp_low`, allies down; `turn.rs` `refresh_waking`), kept by the writers of those
    /// masks under plans with postures or waking ones, so the check after an action reads
    /// one word.
    pub(super) waking: u32,
    /// Bit f: `f` holds a point of a kind it may spend (`CombatSim::spend_kinds`): without
    /// one, `points_choice` refuses it at every moment, so the point checks skip it (set
    /// at the start of the combat, cleared by `enter_posture` when the last one goes).
    pub(super) holding: u32,
    /// Bit f: `f`'s `use` rules may still pick an action this combat (`CombatSim::
    /// rule_actions` at the start; cleared once the support uses they name are spent,
    /// `Gates::uses_bound`).
    pub(super) ruling: u32,
    pub(super) slots: [Slot; MAX_FIGHTERS * MAX_ACTIONS as usize],
    pub(super) n_slots: usize,
    /// The order the general path built last (`order.rs`).
    pub(super) last: super::order::LastOrder,
    /// First slot not yet run in the current round.
    pub(super) cursor: usize,
    pub round: u32,
    pub(super) first_action_done: bool,
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
            waking: 0,
            holding: 0,
            ruling: 0,
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
        self.holding = 0;
        for f in 0..self.sim.n {
            self.holding |= (self.holds_points(f) as u32) << f;
        }
        for f in 0..self.sim.n {
            self.hp_moved(f);
        }
        self.refresh_waking();
        self.ruling = self.sim.rule_actions;
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
    pub(super) fn awake(&mut self) -> &mut Fight<'a, 'r, W, P::Awake> {
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
    pub(super) fn wakes_at(&mut self, _at: usize) -> &mut Fight<'a, 'r, W, P::Awake> {
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
        } else if P::tired(self.sim.carried) {
            self.fat_rounds = 0;
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
            } else if P::tired(self.sim.carried) {
                self.stood_round_end();
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
        self.refresh_waking();
    }

    /// Brings `f` (back) into the fight: a reinforcement arriving.
    pub(super) fn rise(&mut self, f: usize) {
        self.st[f].down = false;
        self.st[f].absent = super::events::PRESENT;
        self.down_mask &= !(1 << f);
        self.pending_mask &= !(1 << f);
        self.refresh_waking();
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
        } else if P::tired(self.sim.carried) {
            self.stood_finish();
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
}
