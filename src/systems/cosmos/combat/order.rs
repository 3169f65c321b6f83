//! Turn order (C-TURN-1..3): a round's action slots, sorted by class, Agilité and the
//! tie-break d20, and the order fixed for a run when nothing can move it.

use crate::dice::Die;

use super::fight::Fight;
use super::model::{AGILITE, MAX_ACTIONS, MAX_FIGHTERS};
use super::plan::Plan;
use super::sim::CombatSim;
use super::state::ILLUMINATION;
use super::watch::{Skip, Step, Watch};

/// One action slot of a round, packed in a u64 whose order is the turn order
/// (C-TURN-1..3): class (0 Illumination first, 1 normal, 2 Sépulcrale backlash last),
/// then position high first, then the tie-break d20 low first (0 when not tied), then
/// combatant index and action number. One word per slot keeps sorting cheap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Slot(pub(super) u64);

/// Positions are stored as `POS_BIAS - pos`, so higher Agilité sorts first.
const POS_BIAS: i64 = 1 << 20;

impl Slot {
    pub fn new(class: u8, pos: i32, d20: u8, f: usize, k: u8) -> Slot {
        Slot(
            (class as u64) << 56
                | ((POS_BIAS - pos as i64) as u64) << 32
                | (d20 as u64) << 24
                | (f as u64) << 8
                | k as u64,
        )
    }

    #[inline(always)]
    pub fn f(self) -> usize {
        ((self.0 >> 8) & 0xff) as usize
    }

    #[inline(always)]
    pub fn k(self) -> u8 {
        self.0 as u8
    }

    /// Class and position: equal means tied on effective Agilité.
    #[inline(always)]
    pub(super) fn place(self) -> u64 {
        self.0 >> 32
    }

    /// Class, position and d20: equal means still tied, so simultaneous.
    #[inline(always)]
    pub(super) fn exchange(self) -> u64 {
        self.0 >> 24
    }

    #[inline(always)]
    pub(super) fn d20(self) -> u8 {
        (self.0 >> 24) as u8
    }

    #[inline(always)]
    pub(super) fn with_d20(self, d20: u8) -> Slot {
        Slot(self.0 & !(0xff << 24) | (d20 as u64) << 24)
    }
}

/// What decides a standing combatant's slots in a round, packed (0 is a combatant down):
/// its class, actions and spacing d6, and from bit [`FATIGUE_SHIFT`] the Agilité its FP
/// takes off under `fatigue_turn_order = yes` (0 otherwise).
#[inline(always)]
fn order_key(class: u8, n_act: u8, d6: u8) -> u16 {
    1 | u16::from(class) << 1 | u16::from(n_act) << 3 | u16::from(d6) << 6
}

/// Where an order key keeps its fatigue points, and the most it keeps (the fatigue
/// maluses are at most 100, `fatigue_*_malus`).
const FATIGUE_SHIFT: u16 = 9;
const FATIGUE_KEY_MAX: i32 = (u16::MAX >> FATIGUE_SHIFT) as i32;

/// The last order built on the general path (postures, several actions) and the keys it
/// was built from, reused while no key moves.
#[derive(Clone)]
pub(super) struct LastOrder {
    keys: [u16; MAX_FIGHTERS],
    slots: [Slot; MAX_FIGHTERS * MAX_ACTIONS as usize],
    m: usize,
    ties: u64,
    /// The round the keys were read in, and who was down then.
    round: u32,
    down: u32,
}

impl LastOrder {
    /// No order yet: every key differs from any real one.
    pub(super) const NONE: LastOrder = LastOrder {
        keys: [u16::MAX; MAX_FIGHTERS],
        slots: [Slot(0); MAX_FIGHTERS * MAX_ACTIONS as usize],
        m: 0,
        ties: 0,
        round: 0,
        // No down mask is all ones (at most `MAX_FIGHTERS` bits): no keys read yet.
        down: u32::MAX,
    };

    /// The kept order less the slots of those whose key is now 0 (down): what `build`
    /// would give, since the others' slots and their sort keys are unchanged.
    fn drop_fallen(&mut self) {
        let mut m = 0;
        for i in 0..self.m {
            let sl = self.slots[i];
            if self.keys[sl.f()] != 0 {
                self.slots[m] = sl;
                m += 1;
            }
        }
        self.m = m;
        self.ties = tie_mask(&self.slots[..m]);
    }

    /// The slots of the standing combatants from their keys, sorted, and their ties.
    fn build(&mut self, sim: &CombatSim) {
        let mut m = 0;
        for f in 0..sim.n {
            let key = self.keys[f];
            if key == 0 {
                continue;
            }
            let (class, n_act, d6) = ((key >> 1 & 3) as u8, (key >> 3 & 7) as u8, key >> 6 & 7);
            let agi = sim.agility(f) - i32::from(key >> FATIGUE_SHIFT);
            for k in 0..n_act {
                let pos = agi - (4 + i32::from(d6)) * i32::from(k);
                // Reading 10e: Illumination's first action comes before everyone, its
                // extra ones at Agilité - (4+d6) x n in the normal order (C-TURN-2), unless
                // `illumination_extra_action = first`.
                let c = if class == 0 && k > 0 && !sim.rules.illumination_all_first {
                    1
                } else {
                    class
                };
                self.slots[m] = Slot::new(c, pos, 0, f, k);
                m += 1;
            }
        }
        insertion_sort(&mut self.slots[..m]);
        self.m = m;
        self.ties = tie_mask(&self.slots[..m]);
    }
}

/// The run's order before the d20s with everyone standing, and whether it is the order
/// of every round (no posture to change a class or add an action, Agilité fixed for the
/// run, one action each): set once per run (`CombatSim::new`), not per combat.
pub(super) struct RunOrder {
    pub(super) fixed: bool,
    pub(super) order: [Slot; MAX_FIGHTERS],
    /// `tie_mask` of `order`.
    pub(super) ties: u64,
}

impl RunOrder {
    pub(super) const NONE: RunOrder = RunOrder {
        fixed: false,
        order: [Slot(0); MAX_FIGHTERS],
        ties: 0,
    };

    pub(super) fn new(sim: &CombatSim) -> RunOrder {
        let mut order = [Slot(0); MAX_FIGHTERS];
        for (f, o) in order.iter_mut().enumerate().take(sim.n) {
            *o = Slot::new(1, sim.agility(f), 0, f, 0);
        }
        insertion_sort(&mut order[..sim.n]);
        RunOrder {
            // The FP malus in the order (`fatigue_turn_order = yes`) moves with the track.
            fixed: sim.model.fighters.iter().all(|f| f.actions == 1) && !sim.fatigue_order,
            order,
            ties: tie_mask(&order[..sim.n]),
        }
    }
}

impl<W: Watch, P: Plan> Fight<'_, '_, W, P> {
    /// Action slots of the round, in order (C-TURN-1..3).
    pub(super) fn build_slots(&mut self) {
        let n = self.sim.n;
        let run = &self.sim.run_order;
        if !P::POSTURES && run.fixed && self.down_mask() == 0 {
            // Everyone standing: the run's order, and its ties known (`RunOrder`).
            // Each slot written whole, with its d20 when tied: a d20 stored alone (one
            // byte) and read back whole by the sort stalls the round.
            for t in 0..n {
                let o = run.order[t];
                self.slots[t] = if run.ties >> t & 1 != 0 {
                    o.with_d20(Die::D20.roll(self.rng) as u8)
                } else {
                    o
                };
            }
            self.n_slots = n;
            if run.ties != 0 {
                insertion_sort(&mut self.slots[..n]);
            }
            return;
        }
        let (m, ties) = if !P::POSTURES && run.fixed {
            // No posture and one action each: the order before the d20s is the run's
            // own (`RunOrder`), less whoever is down.
            let mut m = 0;
            for &sl in &run.order[..n] {
                if self.down_mask() >> sl.f() & 1 == 0 {
                    self.slots[m] = sl;
                    m += 1;
                }
            }
            (m, tie_mask(&self.slots[..m]))
        } else {
            self.order_slots()
        };
        self.n_slots = m;
        if ties != 0 {
            self.roll_ties(m, ties);
        }
    }

    /// Equal effective Agilité: each rolls a d20, lowest first (C-TURN-1). `ties` has bit
    /// `i` set when slot `i` is tied with another, so these roll in slot order.
    fn roll_ties(&mut self, m: usize, mut ties: u64) {
        while ties != 0 {
            let t = ties.trailing_zeros() as usize;
            ties &= ties - 1;
            let d20 = Die::D20.roll(self.rng) as u8;
            self.slots[t] = self.slots[t].with_d20(d20);
        }
        insertion_sort(&mut self.slots[..m]);
    }

    /// The round's slots in order before the d20s, from every combatant's state, and
    /// their ties. The order depends only on who stands, each one's class, actions and
    /// spacing d6 (Agilité is fixed for the run): when none of these moved since the last
    /// round, that round's order is copied rather than built and sorted again.
    fn order_slots(&mut self) -> (usize, u64) {
        let per_round = self.sim.rules.d6_per_round;
        // Without postures a key moves only when someone falls or rises: the class and
        // actions are the file's, and the spacing d6 is rolled in the first round (unless
        // `d6_per_round`) and the FP track, when it counts, moves without anyone falling.
        // Keys read last round with the same combatants down still hold.
        let (round, down) = (self.round, self.down_mask());
        let tired = P::tired(self.sim.fatigue_order);
        if !P::POSTURES
            && !per_round
            && !tired
            && round == self.last.round + 1
            && down == self.last.down
        {
            #[cfg(test)]
            for f in 0..self.sim.n {
                let s = self.st[f];
                let n_act = self.sim.model.fighters[f].actions;
                let key = order_key(1, n_act, s.d6);
                assert!(
                    s.down
                        || s.n_act == n_act && (n_act < 2 || s.d6 != 0) && self.last.keys[f] == key
                );
            }
            self.last.round = round;
            let m = self.last.m;
            self.slots[..m].copy_from_slice(&self.last.slots[..m]);
            return (m, self.last.ties);
        }
        (self.last.round, self.last.down) = (round, down);
        let mut same = true;
        // Only falls since the last order: its slots less the fallen ones are the order.
        let mut falls_only = true;
        for f in 0..self.sim.n {
            let key = if self.st[f].down {
                0
            } else {
                let s = self.st[f];
                let class = if !P::POSTURES {
                    1
                } else if s.posture == ILLUMINATION {
                    0
                } else if s.sep_backlash > 0 {
                    2
                } else {
                    1
                };
                let mut n_act = self.sim.model.fighters[f].actions;
                if P::POSTURES && s.posture == ILLUMINATION && s.adv == 6 && n_act < 2 {
                    n_act = 2;
                }
                if n_act > 1 && (s.d6 == 0 || per_round) {
                    self.st[f].d6 = self.roll(Die::D6);
                }
                self.st[f].n_act = n_act;
                let key = order_key(class, n_act, self.st[f].d6);
                if tired {
                    key | self.order_fatigue(f) << FATIGUE_SHIFT
                } else {
                    key
                }
            };
            if self.last.keys[f] != key {
                falls_only &= key == 0;
                self.last.keys[f] = key;
                same = false;
            }
        }
        if !same {
            if falls_only {
                self.last.drop_fallen();
            } else {
                self.last.build(self.sim);
            }
        }
        #[cfg(test)]
        {
            let mut fresh = self.last.clone();
            fresh.build(self.sim);
            assert_eq!(
                (fresh.m, fresh.ties, &fresh.slots[..fresh.m]),
                (self.last.m, self.last.ties, &self.last.slots[..self.last.m]),
                "the kept order drifted from the combatants' state"
            );
        }
        let m = self.last.m;
        self.slots[..m].copy_from_slice(&self.last.slots[..m]);
        (m, self.last.ties)
    }

    /// The Agilité points `f`'s FP takes off its place in this round's order under
    /// `fatigue_turn_order = yes`: the FP malus an Agilité test would take now (C-FAT-4),
    /// eased as that test is by a concentration covering this round (C-FAT-5).
    fn order_fatigue(&self, f: usize) -> u16 {
        let mut malus = self.sim.by_track[self.st[f].fp as u8 as usize].0;
        if P::on(self.sim.any_focus) {
            malus += self.focus_relief(f, self.sim.stat_block(f, AGILITE));
        }
        (-malus).clamp(0, FATIGUE_KEY_MAX) as u16
    }

    /// Moves the first slot of `f` not yet run this round to right after the current
    /// action (`illumination_mid_round = next`, reading 10e); no-op if it has acted.
    pub(super) fn act_next(&mut self, f: usize) {
        let start = self.cursor.min(self.n_slots);
        if let Some(i) = (start..self.n_slots).find(|&i| self.slots[i].f() == f) {
            let sl = self.slots[i];
            self.slots.copy_within(start..i, start + 1);
            // Class 0 and no d20: it forms its own group (never simultaneous).
            self.slots[start] = Slot::new(0, 0, 0, f, sl.k());
        }
    }

    /// Takes out of the round the slots of `f` not yet run that only Illumination
    /// advantage 6 gave it (action numbers from its own `actions` on), once a Final Skill
    /// has ended that Illumination (`extra_action_after_final_skill = lost`). Its turn
    /// then ends after the current action (`n_act`, read by `slot_from`/`exchange_from`
    /// after the action). The next round's order is built afresh: its key moved.
    pub(super) fn drop_extra_actions(&mut self, f: usize) {
        let own = self.sim.model.fighters[f].actions;
        if self.st[f].n_act <= own {
            // The advantage came mid-round: this round gave no extra action.
            return;
        }
        let start = self.cursor.min(self.n_slots);
        let mut m = start;
        for i in start..self.n_slots {
            let sl = self.slots[i];
            if sl.f() == f && sl.k() >= own {
                continue;
            }
            self.slots[m] = sl;
            m += 1;
        }
        if m < self.n_slots {
            self.n_slots = m;
            self.st[f].n_act = own;
            self.note(|_| Step::Skip {
                who: f as u8,
                why: Skip::ExtraActionLost,
            });
        }
    }

    /// End of the group of simultaneous slots starting at `s` (same class, position and
    /// d20: still tied, C-TURN-1).
    pub(super) fn group_end(&self, s: usize) -> usize {
        let a = self.slots[s];
        let mut e = s + 1;
        if a.d20() == 0 {
            return e;
        }
        while e < self.n_slots && self.slots[e].exchange() == a.exchange() {
            e += 1;
        }
        e
    }
}

/// The slots (sorted) tied with a neighbour on class and position, as a mask (bit i).
fn tie_mask(v: &[Slot]) -> u64 {
    let mut m = 0u64;
    for (i, w) in v.windows(2).enumerate() {
        if w[0].place() == w[1].place() {
            m |= 0b11 << i;
        }
    }
    m
}

/// A handful of slots: insertion sort, no allocation.
fn insertion_sort(v: &mut [Slot]) {
    for i in 1..v.len() {
        let x = v[i];
        let mut j = i;
        while j > 0 && v[j - 1] > x {
            v[j] = v[j - 1];
            j -= 1;
        }
        v[j] = x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slot(f: usize, class: u8, pos: i32, d20: u8) -> Slot {
        Slot::new(class, pos, d20, f, 0)
    }

    #[test]
    fn order_is_class_then_agilite_then_lowest_d20() {
        // C-TURN-1/3: Illumination (class 0) first whatever its Agilité, backlash (2) last.
        let mut v = [
            slot(0, 1, 50, 0),
            slot(1, 2, 90, 0),
            slot(2, 1, 70, 0),
            slot(3, 0, 20, 0),
            slot(4, 1, 50, 3),
            slot(5, 1, 50, 1),
        ];
        insertion_sort(&mut v);
        let order: Vec<usize> = v.iter().map(|s| s.f()).collect();
        assert_eq!((v[3].d20(), v[3].with_d20(7).d20(), v[3].k()), (1, 7, 0));
        assert_eq!(order, vec![3, 2, 0, 5, 4, 1]);
    }
}
