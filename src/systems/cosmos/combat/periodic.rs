//! Periodic effects (`[periodic.<name>]`): regeneration, bleeding or poison, and damage
//! auras, per round or per turn. A house rule (H-PERIODIC in docs/rules.md): the rulebook
//! has none. HP move through `Fight::damage`, the one path every hit and heal takes, so
//! Revive (C-LD-6), going down, posture ends and "PV perdus" fatigue (C-FAT-2) apply to
//! them as to any damage; armour does not (it stops blows, not poison), and a periodic
//! loss never provokes nor calls a Sépulcrale counter (those answer attacks).

use crate::dice::DiceExpr;

use super::fight::Fight;
use super::watch::Step;

/// Most `[periodic.*]` tables in one scenario, effects one combatant holds from the start,
/// and effects held at once (from the start and placed by hits).
pub const MAX_PERIODIC_DEFS: usize = 16;
pub const MAX_HELD: usize = 4;
pub const HELD_SLOTS: usize = 6;

/// `from` of a periodic loss in `Fight::damage` (after `action::ACTION`, `RIPOSTE`,
/// `SEP_COUNTER`).
pub(super) const PERIODIC: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PeriodicKind {
    /// The holder regains HP, up to its max.
    Regeneration,
    /// The holder loses HP (bleeding, poison); credited to whoever placed it.
    Damage,
    /// Every standing enemy of the holder loses HP.
    Aura,
}

/// The moment of the turn an effect ticks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Each round, after scripted events and before the first action, in name order.
    RoundStart,
    /// At the start of each of the holder's turns (before its action; a turn lost to an
    /// Illumination backlash still ticks).
    TurnStart,
    /// At the end of each of the holder's turns (after its last action of the round).
    TurnEnd,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Periodic {
    pub name: String,
    pub kind: PeriodicKind,
    pub amount: DiceExpr,
    pub at: At,
    /// Only while the holder's HP is strictly below this fraction of its max.
    pub below_hp: Option<f64>,
    /// Held from the start: rounds 1..=rounds (None: all); placed: the `rounds` rounds after
    /// the hit's round (None: 3).
    pub rounds: Option<u16>,
    /// Most HP its ticks total per combat (held) or per placement (None: no cap).
    pub cap: Option<i32>,
}

/// Rounds a placed effect lasts when its definition does not say.
pub const PLACED_ROUNDS: u16 = 3;

/// One effect a combatant holds: definition, who placed it, its first and last round and
/// what its cap lets through still.
#[derive(Clone, Copy, Debug)]
pub(super) struct Held {
    pub def: u8,
    pub from: u8,
    pub start: u16,
    pub until: u16,
    pub left: i32,
}

const FREE: u8 = u8::MAX;

impl Held {
    pub const BLANK: Held = Held {
        def: FREE,
        from: 0,
        start: 0,
        until: 0,
        left: 0,
    };
}

/// Periodic counts of one combatant, summed over combats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PeriodicCounts {
    /// HP its regeneration restored (what max HP let through).
    pub healed: u64,
    /// HP its auras and the effects it placed took from others, and HP it lost to
    /// periodic effects (after Revive is not counted: what the tick removed).
    pub dealt: u64,
    pub taken: u64,
    /// Ticks that moved HP or tried to (condition met, cap not spent).
    pub ticks: u64,
}

impl PeriodicCounts {
    pub fn merge(&mut self, o: &PeriodicCounts) {
        self.healed += o.healed;
        self.dealt += o.dealt;
        self.taken += o.taken;
        self.ticks += o.ticks;
    }
}

impl<W: super::watch::Watch, P: super::plan::Plan> Fight<'_, '_, W, P> {
    /// The effects each combatant holds from the start, at combat start.
    pub(super) fn periodic_start(&mut self) {
        for (f, fighter) in self.sim.model.fighters.iter().enumerate() {
            let mut held = [Held::BLANK; HELD_SLOTS];
            for (slot, &d) in held.iter_mut().zip(&fighter.periodic) {
                let p = &self.sim.model.periodic[d];
                *slot = Held {
                    def: d as u8,
                    from: f as u8,
                    start: 1,
                    until: p.rounds.unwrap_or(u16::MAX),
                    left: p.cap.unwrap_or(i32::MAX),
                };
            }
            self.held[f] = held;
        }
    }

    /// `from` wounded `t` with an attack whose `on_hit` is `d`: `t` holds it for the rounds
    /// after this one. Placed again by the same hand while held, it does not stack: it
    /// goes on ticking and its duration and cap start over. With every slot taken it is
    /// lost.
    pub(super) fn periodic_place(&mut self, from: usize, t: usize, d: usize) {
        if self.st[t].down {
            return;
        }
        let p = &self.sim.model.periodic[d];
        let round = self.round.min(u16::MAX as u32 - 1) as u16;
        let rounds = p.rounds.unwrap_or(PLACED_ROUNDS);
        let new = Held {
            def: d as u8,
            from: from as u8,
            start: round + 1,
            until: round.saturating_add(rounds),
            left: p.cap.unwrap_or(i32::MAX),
        };
        let held = &mut self.held[t];
        let live = |h: &Held| h.def != FREE && h.until as u32 >= self.round;
        let same = held
            .iter()
            .position(|h| live(h) && h.def == d as u8 && h.from == from as u8);
        let slot = same.or_else(|| held.iter().position(|h| !live(h)));
        if let Some(i) = slot {
            let start = if same.is_some() {
                held[i].start
            } else {
                new.start
            };
            held[i] = Held { start, ..new };
            self.note(|_| Step::Placed {
                who: t as u8,
                from: from as u8,
                effect: d as u8,
                until: new.until as u32,
            });
        }
    }

    /// Every effect `f` holds that ticks `at` now: condition, cap, then HP move.
    pub(super) fn periodic_tick(&mut self, f: usize, at: At) {
        let round = self.round;
        for i in 0..HELD_SLOTS {
            let h = self.held[f][i];
            if h.def == FREE || self.st[f].down {
                continue;
            }
            let p = &self.sim.model.periodic[h.def as usize];
            if p.at != at || round < h.start as u32 || round > h.until as u32 || h.left <= 0 {
                continue;
            }
            if let Some(b) = p.below_hp {
                let max = self.sim.model.fighters[f].hp;
                if self.st[f].hp as f64 >= b * max as f64 {
                    continue;
                }
            }
            let x = p.amount.roll(self.rng).max(0).min(h.left);
            self.held[f][i].left -= x;
            let kind = p.kind;
            self.acc.fighters[f].periodic.ticks += 1;
            self.note(|_| Step::Periodic {
                who: f as u8,
                effect: h.def,
                amount: x,
            });
            match kind {
                PeriodicKind::Regeneration => {
                    let before = self.st[f].hp;
                    self.damage(f, f, -x, PERIODIC);
                    self.acc.fighters[f].periodic.healed += (self.st[f].hp - before).max(0) as u64;
                }
                PeriodicKind::Damage => self.periodic_loss(h.from as usize, f, x),
                PeriodicKind::Aura => {
                    let mut m = self.sim.enemy_mask[f];
                    while m != 0 {
                        let g = m.trailing_zeros() as usize;
                        m &= m - 1;
                        if !self.st[g].down {
                            self.periodic_loss(f, g, x);
                        }
                    }
                }
            }
        }
    }

    /// `t` loses `x` HP to an effect of `from` (itself for its own bleeding), counted.
    fn periodic_loss(&mut self, from: usize, t: usize, x: i32) {
        if x <= 0 {
            return;
        }
        let before = self.st[t].hp;
        self.damage(from, t, x, PERIODIC);
        // What the tick removed (a Revive's refill is not a negative loss).
        let lost = x.min(before.max(0)) as u64;
        self.acc.fighters[t].periodic.taken += lost;
        if from != t {
            self.acc.fighters[from].periodic.dealt += lost;
        }
        if self.st[t].down {
            // Down before its part of a simultaneous exchange: it does not act.
            self.st[t].group_alive = false;
            self.st[t].skip_round = true;
        }
    }

    /// Round-start ticks for every standing combatant, in name order.
    pub(super) fn periodic_round_start(&mut self) {
        for f in 0..self.sim.n {
            if !self.st[f].down {
                self.periodic_tick(f, At::RoundStart);
            }
        }
    }
}
