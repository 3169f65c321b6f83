//! Gates of the policy rules (issue 29): what a rule's condition (`trigger.rs`) needs at
//! least, read in three comparisons, so the turn loop walks a condition only when it may
//! hold, and not at all when the gate alone says whether it holds. Built once per run
//! (`CombatSim::new`); a gate never changes what a rule decides, only what it costs.

use crate::systems::mask::bits;

use super::fight::Fight;
use super::hp_any::HpAny;
use super::model::{CombatModel, Mode, MAX_FIGHTERS};
use super::plan::Plan;
use super::state::{ILLUMINATION, SEPULCRALE};
use super::trigger::{Cond, Rules, Then};

/// A necessary condition of a `Cond`: a round reached, an ally down, own HP under a
/// threshold (the product `x * max HP` that `holds` compares with; +inf: none). `holds`
/// true implies [`Fight::passes`] true; with `exact`, the converse too.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gate {
    pub round: u32,
    pub ally_down: bool,
    pub own_hp: f64,
    pub exact: bool,
}

impl Gate {
    /// The gate of `all []` (always holds) and of `any []` (never holds).
    pub const ALWAYS: Gate = Gate {
        round: 0,
        ally_down: false,
        own_hp: f64::INFINITY,
        exact: true,
    };
    pub const NEVER: Gate = Gate {
        round: u32::MAX,
        ally_down: true,
        own_hp: f64::NEG_INFINITY,
        exact: true,
    };
    /// A condition the gate cannot read (postures, others' HP, fatigue): walk it.
    const UNREAD: Gate = Gate {
        exact: false,
        ..Gate::ALWAYS
    };

    /// Never passes (no i32 HP is below -inf), so never holds either.
    fn never(&self) -> bool {
        self.own_hp == f64::NEG_INFINITY
    }

    /// Both hold: each need stands (hp < a and hp < b is hp < min(a, b)), exactly when
    /// both gates are exact.
    fn and(self, o: Gate) -> Gate {
        Gate {
            round: self.round.max(o.round),
            ally_down: self.ally_down || o.ally_down,
            own_hp: self.own_hp.min(o.own_hp),
            exact: self.exact && o.exact,
        }
    }

    /// One of them holds: only what both need stands; an item that never holds drops out.
    fn or(self, o: Gate) -> Gate {
        if self.never() {
            return o;
        }
        if o.never() {
            return self;
        }
        Gate {
            round: self.round.min(o.round),
            ally_down: self.ally_down && o.ally_down,
            own_hp: self.own_hp.max(o.own_hp),
            exact: false,
        }
    }

    /// The gate of `c` for a combatant of `max_hp` (`CombatSim::max_hp`).
    pub fn of(c: &Cond, max_hp: f64) -> Gate {
        match c {
            Cond::RoundAtLeast(r) => Gate {
                round: *r,
                ..Gate::ALWAYS
            },
            Cond::Round(r) => Gate {
                round: *r,
                ..Gate::UNREAD
            },
            Cond::OwnHpBelow(x) => Gate {
                own_hp: x * max_hp,
                ..Gate::ALWAYS
            },
            Cond::AllyDown => Gate {
                ally_down: true,
                ..Gate::ALWAYS
            },
            Cond::All(v) => v
                .iter()
                .fold(Gate::ALWAYS, |g, c| g.and(Gate::of(c, max_hp))),
            Cond::Any(v) => v.iter().fold(Gate::NEVER, |g, c| g.or(Gate::of(c, max_hp))),
            _ => Gate::UNREAD,
        }
    }

    /// What a point of `kind` spent by `rules` needs: one of its `spend` rules of that
    /// kind holds (a `spend none` rule that holds spends nothing).
    pub fn of_spending(rules: &Rules, kind: u8, max_hp: f64) -> Gate {
        rules
            .list
            .iter()
            .filter(|r| r.then == Then::Spend(kind))
            .fold(Gate::NEVER, |g, r| g.or(Gate::of(&r.when, max_hp)))
    }
}

/// One `use` rule as `rule_action` reads it: what it uses, its gate, the index of its
/// rule (for the condition, walked only when the gate is not exact), and its condition
/// as HP comparisons when it has that form.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct UseRule {
    pub then: Then,
    pub gate: Gate,
    pub rule: usize,
    pub hp: Option<HpAny>,
}

/// The gates of a run.
pub(super) struct Gates {
    /// Every combatant's rules in order, from `base[f]`.
    rules: Vec<Gate>,
    base: [usize; MAX_FIGHTERS],
    /// Per combatant, its `use` rules in order: the action choice walks these alone, not
    /// the mode and spend rules between them.
    uses: Vec<Box<[UseRule]>>,
    /// Per combatant, the HP under which one of its `use` rules may hold (the highest
    /// of their gates' `own_hp`; -inf: none): at or above it, none does.
    pub use_hp: [f64; MAX_FIGHTERS],
    /// The combatants whose every `use` rule names a support action with `uses`: once
    /// those are spent, no rule of theirs picks an action for the rest of the combat
    /// (`Fight::ruling`; the boss fight's warlord after its roar).
    pub uses_bound: u32,
    /// Per combatant, Dark then Light: what one of its `spend` rules of that kind needs.
    pub spend: [[Gate; 2]; MAX_FIGHTERS],
    /// The combatants whose every reaction between actions needs an ally down (no
    /// `below_hp` trigger; `when_ally_down` or spend rules that need one), and all their
    /// allies: while none of those is down, `after_action` skips them at once.
    pub down_gated: u32,
    pub gated_allies: u32,
    /// Per combatant whose `mode` rules all read its own HP alone (exact gates, no round,
    /// no ally down): their HP thresholds and modes in rule order, so the mode before
    /// acting is a comparison or two (`hp_mode`).
    hp_modes: [Option<HpModes>; MAX_FIGHTERS],
}

/// One combatant's HP thresholds with the mode each one sets, and how many are used.
type HpModes = ([(f64, Mode); HP_MODES], u8);

/// Most `mode` rules read as HP thresholds; a combatant with more walks its rules.
const HP_MODES: usize = 4;

impl Gates {
    /// `point_hp`, `reactive_mask`, `ally_mask`, `enemy_mask`, `max_hp`: as `CombatSim`
    /// holds them.
    pub fn new(
        model: &CombatModel,
        max_hp: &[f64; MAX_FIGHTERS],
        point_hp: &[[f64; 2]; MAX_FIGHTERS],
        reactive_mask: u32,
        [ally_mask, enemy_mask]: [&[u32; MAX_FIGHTERS]; 2],
    ) -> Gates {
        let mut g = Gates {
            rules: Vec::new(),
            base: [0; MAX_FIGHTERS],
            uses: Vec::new(),
            spend: [[Gate::NEVER; 2]; MAX_FIGHTERS],
            down_gated: 0,
            gated_allies: 0,
            hp_modes: [None; MAX_FIGHTERS],
            use_hp: [f64::NEG_INFINITY; MAX_FIGHTERS],
            uses_bound: 0,
        };
        for (f, a) in model.fighters.iter().enumerate() {
            let hp = max_hp[f];
            g.base[f] = g.rules.len();
            g.rules
                .extend(a.rules.list.iter().map(|r| Gate::of(&r.when, hp)));
            let gates = &g.rules[g.base[f]..];
            let uses = a.rules.list.iter().zip(gates).enumerate();
            let uses =
                uses.filter(|(_, (r, _))| matches!(r.then, Then::Attack(..) | Then::Support(_)));
            let masks = [ally_mask[f], enemy_mask[f]];
            let uses = uses.map(|(rule, (r, &gate))| UseRule {
                then: r.then,
                gate,
                rule,
                hp: HpAny::of(&r.when, f, max_hp, masks).filter(|_| !gate.exact),
            });
            let uses: Box<[UseRule]> = uses.collect();
            g.use_hp[f] = uses
                .iter()
                .fold(f64::NEG_INFINITY, |m, u| m.max(u.gate.own_hp));
            let bound = |u: &UseRule| match u.then {
                Then::Support(slot) => model.support[a.support[slot]].uses.is_some(),
                _ => false,
            };
            if !uses.is_empty() && uses.iter().all(bound) {
                g.uses_bound |= 1 << f;
            }
            g.uses.push(uses);
            g.spend[f] = [SEPULCRALE, ILLUMINATION].map(|k| Gate::of_spending(&a.rules, k, hp));
            let no_hp = point_hp[f] == [f64::NEG_INFINITY; 2];
            let rules_need = !a.rules.points || g.spend[f].iter().all(|s| s.ally_down);
            let modes: Vec<(f64, Mode)> = a
                .rules
                .list
                .iter()
                .filter_map(|r| match r.then {
                    Then::Mode(m) => Some((Gate::of(&r.when, hp), m)),
                    _ => None,
                })
                .take_while(|(g, _)| g.exact && g.round == 0 && !g.ally_down)
                .map(|(g, m)| (g.own_hp, m))
                .collect();
            let all = a
                .rules
                .list
                .iter()
                .filter(|r| matches!(r.then, Then::Mode(_)));
            if modes.len() == all.count() && modes.len() <= HP_MODES {
                let mut row = [(f64::NEG_INFINITY, Mode::Defensive); HP_MODES];
                row[..modes.len()].copy_from_slice(&modes);
                g.hp_modes[f] = Some((row, modes.len() as u8));
            }
            if reactive_mask & (1 << f) != 0 && no_hp && rules_need {
                g.down_gated |= 1 << f;
                g.gated_allies |= ally_mask[f];
            }
        }
        g
    }

    /// The mode `f`'s `mode` rules give at `hp` before it acts (C-CMB-1; None: none
    /// matches), when they read its HP alone; otherwise `Err(())`, and the rules are walked.
    #[inline(always)]
    pub fn hp_mode(&self, f: usize, hp: i32) -> Result<Option<Mode>, ()> {
        let Some((row, len)) = &self.hp_modes[f] else {
            return Err(());
        };
        let hp = hp as f64;
        Ok(row[..*len as usize]
            .iter()
            .find(|(x, _)| hp < *x)
            .map(|&(_, m)| m))
    }

    /// The gates of `f`'s rules, in rule order.
    #[inline(always)]
    pub fn of(&self, f: usize) -> &[Gate] {
        &self.rules[self.base[f]..]
    }

    /// `f`'s `use` rules, in rule order.
    #[inline(always)]
    pub fn uses(&self, f: usize) -> &[UseRule] {
        &self.uses[f]
    }
}

impl<W: super::watch::Watch, P: Plan> Fight<'_, '_, W, P> {
    /// Whether `f` passes `g` now (the comparisons of `holds`).
    #[inline(always)]
    pub(super) fn passes(&self, f: usize, g: &Gate) -> bool {
        (self.st[f].hp as f64) < g.own_hp
            && self.round >= g.round
            && (!g.ally_down || self.sim.ally_mask[f] & self.down_mask() != 0)
    }

    /// Whether `c` holds for `f`, its gate `g` read first.
    #[inline(always)]
    pub(super) fn meets(&self, f: usize, c: &Cond, g: &Gate) -> bool {
        self.meets_by(f, g, || c)
    }

    /// Whether `f`'s `use` rule `u` holds: its HP comparisons when it has that form,
    /// else its gate and, when that is not exact, its condition `c`.
    #[inline(always)]
    pub(super) fn use_holds<'c>(&self, f: usize, u: &UseRule, c: impl Fn() -> &'c Cond) -> bool {
        let Some(h) = &u.hp else {
            return self.meets_by(f, &u.gate, c);
        };
        let hp = |g: usize| self.st[g].hp as f64;
        let m =
            hp(f) < h.below[f] || bits(h.others & !self.down_mask()).any(|g| hp(g) < h.below[g]);
        #[cfg(test)]
        assert_eq!(
            m,
            self.holds(f, c()),
            "the HP form {h:?} of {:?} for {f}",
            c()
        );
        m
    }

    /// [`Self::meets`] with the condition looked up only when the gate is not exact.
    #[inline(always)]
    pub(super) fn meets_by<'c>(&self, f: usize, g: &Gate, c: impl Fn() -> &'c Cond) -> bool {
        let m = self.passes(f, g) && (g.exact || self.holds(f, c()));
        #[cfg(test)]
        assert_eq!(m, self.holds(f, c()), "the gate {g:?} of {:?} for {f}", c());
        m
    }
}

#[cfg(test)]
#[path = "gate_tests.rs"]
mod tests;
