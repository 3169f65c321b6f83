//! Support actions (`[support.<name>]`): heal and buff/debuff are house actions (the
//! rulebook names "Soin", "Renforcement" and "Entravant" as skill effect types,
//! cosmos-current.fr.txt "Son ou ses type(s) d'effet(s)", but gives them no numbers);
//! concentrate is the rulebook's action (C-FAT-5, "Règle de l'endurance": "un joueur
//! peut utiliser une action pour se concentrer"). Used only through policy rules
//! (`use = "<name>"`, trigger.rs).

use crate::dice::DiceExpr;
use crate::systems::cosmos::growth::fatigue::FatigueState;
use crate::systems::cosmos::growth::PassiveTest;

use super::aura_use::TestKind;
use super::fight::Fight;
use super::model::ESPRIT;
use super::plan::Plan;
use super::state::NONE;
use super::trigger::Then;
use super::watch::Step;
use crate::systems::mask::bits;

/// Most support actions in one combatant's list, and active effects on one combatant.
pub const MAX_SUPPORT: usize = 4;
pub const MAX_EFFECTS: usize = 4;
/// Most `[support.*]` tables in one scenario.
pub const MAX_SUPPORT_DEFS: usize = 16;

/// Who a support action goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SupportTarget {
    /// The user itself.
    Own,
    /// The standing side member (itself included) with the fewest HP / the lowest HP
    /// fraction; a heal only goes to one below max HP.
    LowestHp,
    LowestFraction,
    /// The first standing ally (itself excluded, name order) without this effect.
    Ally,
    /// The enemy the user's `target` policy picks, among those without this effect.
    Enemy,
}

#[derive(Clone, Debug, PartialEq)]
pub enum SupportKind {
    /// HP restored, up to max (house action).
    Heal(DiceExpr),
    /// For the rest of this round and the next `rounds`: `modifier` percentage points on
    /// every test of the holder and its damage dealt x `damage_mult` (house action).
    Buff {
        modifier: i32,
        damage_mult: f64,
        rounds: u8,
    },
    /// C-FAT-5: next round, light fatigue maluses are ignored and moderate and extreme
    /// ones halved (extreme: after a passive Esprit test); not under mental exhaustion.
    Concentrate,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SupportAction {
    pub name: String,
    pub kind: SupportKind,
    pub target: SupportTarget,
    /// A test of this stat by the user decides whether it lands (None: it always does).
    pub stat: Option<usize>,
    pub pm_cost: i32,
    pub uses: Option<u8>,
    pub cooldown: u8,
}

/// What a combatant's support actions left in this combat: uses, readiness, the effects it
/// holds (support index, last round) and the round its concentration covers.
#[derive(Clone, Copy, Debug)]
pub(super) struct SupportState {
    pub uses: [u8; MAX_SUPPORT],
    pub ready: [u16; MAX_SUPPORT],
    pub fx: [(u8, u16); MAX_EFFECTS],
    /// The last round of any effect placed in `fx` this combat: past it, none is live and
    /// the effect sums skip the walk.
    pub fx_until: u16,
    pub focus: u16,
    /// The passive Esprit test let the concentration halve extreme fatigue too.
    pub focus_extreme: bool,
}

const NO_FX: u8 = u8::MAX;

impl SupportState {
    pub const BLANK: SupportState = SupportState {
        uses: [0; MAX_SUPPORT],
        ready: [0; MAX_SUPPORT],
        fx: [(NO_FX, 0); MAX_EFFECTS],
        fx_until: 0,
        focus: 0,
        focus_extreme: false,
    };
}

/// Support counts of one combatant, summed over combats.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SupportCounts {
    /// Support actions taken, of which failed their test.
    pub used: u64,
    pub failed: u64,
    /// HP its heals restored (what max HP let through), and heals made.
    pub healed: u64,
    pub heals: u64,
    /// Effects it placed, concentrations that took effect.
    pub effects: u64,
    pub focused: u64,
}

impl SupportCounts {
    pub fn merge(&mut self, o: &SupportCounts) {
        self.used += o.used;
        self.failed += o.failed;
        self.healed += o.healed;
        self.heals += o.heals;
        self.effects += o.effects;
        self.focused += o.focused;
    }
}

impl<W: super::watch::Watch, P: Plan> Fight<'_, '_, W, P> {
    /// The definition behind entry `slot` of `f`'s support list.
    #[inline(always)]
    fn def(&self, f: usize, slot: usize) -> &SupportAction {
        let m = &self.sim.model;
        &m.support[m.fighters[f].support[slot]]
    }

    /// Whether `f` can use entry `slot` now: PM, uses, cooldown; no concentration under
    /// mental exhaustion (C-FAT-5).
    pub(super) fn support_ready(&self, f: usize, slot: usize) -> bool {
        let d = self.def(f, slot);
        let s = &self.st[f];
        if d.pm_cost > 0 && d.pm_cost * self.cost_factor(f) > s.pm {
            return false;
        }
        if d.uses.is_some_and(|u| self.sup[f].uses[slot] >= u)
            || self.round < self.sup[f].ready[slot] as u32
        {
            return false;
        }
        !(d.kind == SupportKind::Concentrate && self.sim.exhausted(s.fm))
    }

    /// Whether `g` holds effect `idx` (a support index) now, and a free effect slot.
    fn has_effect(&self, g: usize, idx: usize) -> (bool, bool) {
        let round = self.round.min(u16::MAX as u32) as u16;
        if self.no_live_effect(g, round) {
            // Every slot lapsed: none holds it, all are free.
            return (false, true);
        }
        let mut has = false;
        let mut free = false;
        for &(i, until) in &self.sup[g].fx {
            let live = i != NO_FX && until >= round;
            has |= live && i as usize == idx;
            free |= !live;
        }
        (has, free)
    }

    /// Takes `f` out of `ruling` once no support action its `use` rules name has a use
    /// left: `support_ready` refuses each of them for the rest of the combat.
    #[cold]
    fn uses_spent(&mut self, f: usize) {
        let spent = self.sim.gates.uses(f).iter().all(|u| match u.then {
            Then::Support(slot) => self
                .def(f, slot)
                .uses
                .is_some_and(|n| self.sup[f].uses[slot] >= n),
            _ => false,
        });
        if spent {
            self.ruling &= !(1 << f);
        }
    }

    /// The target of entry `slot` of `f` now, or None if nobody fits. Candidates come
    /// from the run's side masks in index order, as a walk over every combatant would.
    pub(super) fn support_target(&mut self, f: usize, slot: usize) -> Option<usize> {
        let sim = self.sim;
        let idx = sim.model.fighters[f].support[slot];
        let d = &sim.model.support[idx];
        let fighters = &sim.model.fighters;
        let heal = matches!(d.kind, SupportKind::Heal(_));
        let open = |me: &Self, g: usize| {
            if me.st[g].down {
                return false;
            }
            if heal {
                me.st[g].hp < fighters[g].hp
            } else if d.kind == SupportKind::Concentrate {
                true
            } else {
                let (has, free) = me.has_effect(g, idx);
                !has && free
            }
        };
        let standing = !self.down_mask();
        match d.target {
            SupportTarget::Own => open(self, f).then_some(f),
            SupportTarget::LowestHp | SupportTarget::LowestFraction => {
                let frac = d.target == SupportTarget::LowestFraction;
                let mut best: Option<usize> = None;
                for g in bits((sim.ally_mask[f] | 1 << f) & standing) {
                    if !open(self, g) {
                        continue;
                    }
                    let better = match best {
                        None => true,
                        // hp_g / max_g < hp_b / max_b without a division.
                        Some(b) if frac => {
                            (self.st[g].hp as i64) * (fighters[b].hp as i64)
                                < (self.st[b].hp as i64) * (fighters[g].hp as i64)
                        }
                        Some(b) => self.st[g].hp < self.st[b].hp,
                    };
                    if better {
                        best = Some(g);
                    }
                }
                best
            }
            SupportTarget::Ally => bits(sim.ally_mask[f] & standing).find(|&g| open(self, g)),
            SupportTarget::Enemy => {
                let mut taken = 0u32;
                for g in bits(sim.enemy_mask[f]) {
                    if !open(self, g) {
                        taken |= 1 << g;
                    }
                }
                self.choose_target(f, taken)
            }
        }
    }

    /// `f` uses entry `slot` of its support list on `t`: pays, rolls its test if any, then
    /// heals, places the effect or concentrates. The action is spent either way.
    #[inline(never)]
    pub(super) fn support_action(&mut self, f: usize, slot: usize, t: usize) {
        let idx = self.sim.model.fighters[f].support[slot];
        let d = &self.sim.model.support[idx];
        let k = self.cost_factor(f);
        self.st[f].pm -= d.pm_cost * k;
        // C-FAT-2 "Tous les 100 PM consommés +1 FM": every PM spent counts, a heal's, a
        // buff's or a concentration's as an attack's (issue 25, defect 1).
        if P::tired(self.sim.model.fatigue.on) && d.pm_cost > 0 {
            self.tire_costs(f, d.pm_cost * k, 0);
        }
        self.st[f].actions += 1;
        let s = &mut self.sup[f];
        s.uses[slot] = s.uses[slot].saturating_add(1);
        s.ready[slot] = (self.round + d.cooldown as u32 + 1).min(u16::MAX as u32) as u16;
        if self.sim.gates.uses_bound >> f & 1 != 0 {
            self.uses_spent(f);
        }
        self.acc.fighters[f].support.used += 1;
        let landed = match d.stat {
            None => true,
            Some(stat) => {
                // C-LD-6 disadvantage 3 ("la prochaine action") takes this action's test.
                if self.st[f].malus_next && self.in_sep_backlash(f) {
                    self.st[f].action_malus = 20;
                    self.st[f].malus_next = false;
                }
                let b = self.sim.stat_block(f, stat);
                let o = self.test(f, b, false, TestKind::Attack);
                self.st[f].action_malus = 0;
                o.is_success()
            }
        };
        self.note(|_| Step::Support {
            who: f as u8,
            action: idx as u8,
            target: t as u8,
            landed,
        });
        if !landed {
            self.acc.fighters[f].support.failed += 1;
            return;
        }
        match &d.kind {
            SupportKind::Heal(dice) => {
                let before = self.st[t].hp;
                let h = dice.roll(self.rng).max(0);
                self.damage(f, t, -h, super::action::ACTION);
                let a = &mut self.acc.fighters[f].support;
                a.heals += 1;
                a.healed += (self.st[t].hp - before).max(0) as u64;
            }
            SupportKind::Buff { rounds, .. } => {
                let until = (self.round + *rounds as u32).min(u16::MAX as u32) as u16;
                let round = self.round.min(u16::MAX as u32) as u16;
                if let Some(e) = self.sup[t]
                    .fx
                    .iter_mut()
                    .find(|(i, u)| *i == NO_FX || *u < round)
                {
                    *e = (idx as u8, until);
                    let s = &mut self.sup[t];
                    s.fx_until = s.fx_until.max(until);
                    self.acc.fighters[f].support.effects += 1;
                }
            }
            SupportKind::Concentrate => {
                let extreme = self.concentrates(f);
                let s = &mut self.sup[f];
                s.focus = (self.round + 1).min(u16::MAX as u32) as u16;
                s.focus_extreme = extreme;
                self.acc.fighters[f].support.focused += 1;
            }
        }
    }

    /// C-FAT-5: halving an extreme track (8-9) needs a passive Esprit test, rolled when
    /// either track is extreme, as the aura's (growth option `passive_test`; the Esprit
    /// block carries the FM malus and crit band). Light and moderate relief need none.
    fn concentrates(&mut self, f: usize) -> bool {
        let levels = self.sim.rules.test.fatigue;
        let extreme = |v: i8| levels.state(v as i32) == FatigueState::Extreme;
        if !(extreme(self.st[f].fp) || extreme(self.st[f].fm)) {
            return true;
        }
        // A passive test drops bonuses and keeps maluses (C-AURA reading, as face 6).
        let passive = self.sim.rules.growth.passive_test;
        let b = self.sim.stat_block(f, ESPRIT);
        let m = self.test_malus(f) + self.support_mods(f, b).1;
        let g = match passive {
            PassiveTest::Karma => self.roll_block(f, b, m),
            PassiveTest::Plain => self
                .sim
                .block(b)
                .spec(m, 0, &self.sim.rules)
                .roll(self.rng, &self.sim.rules.test),
        };
        if passive.moves_karma() && self.st[f].posture == NONE {
            self.st[f].karma = self.sim.drift(self.st[f].karma, g);
        }
        g.is_success()
    }

    /// Whether every effect on `f` has lapsed by `round` (`fx_until`), so the effect sums
    /// need not walk `fx`.
    #[inline(always)]
    fn no_live_effect(&self, f: usize, round: u16) -> bool {
        let lapsed = self.sup[f].fx_until < round;
        #[cfg(test)]
        assert!(!lapsed || self.sup[f].fx.iter().all(|&(i, u)| i == NO_FX || u < round));
        lapsed
    }

    /// Percentage points the effects on `f` add to its tests now (a positive sum is a
    /// bonus, which an aura strips; a negative one a malus).
    #[inline]
    pub(super) fn effect_modifier(&self, f: usize) -> i32 {
        let round = self.round.min(u16::MAX as u32) as u16;
        if self.no_live_effect(f, round) {
            return 0;
        }
        let mut m = 0;
        for &(i, until) in &self.sup[f].fx {
            if i != NO_FX && until >= round {
                if let SupportKind::Buff { modifier, .. } = self.sim.model.support[i as usize].kind
                {
                    m += modifier;
                }
            }
        }
        m
    }

    /// The multiplier the effects on `f` put on the damage it deals now.
    #[inline]
    pub(super) fn effect_damage_mult(&self, f: usize) -> f64 {
        let round = self.round.min(u16::MAX as u32) as u16;
        if self.no_live_effect(f, round) {
            return 1.0;
        }
        let mut x = 1.0;
        for &(i, until) in &self.sup[f].fx {
            if i != NO_FX && until >= round {
                if let SupportKind::Buff { damage_mult, .. } =
                    self.sim.model.support[i as usize].kind
                {
                    x *= damage_mult;
                }
            }
        }
        x
    }

    /// The support part of `f`'s test modifier on block `b`: (bonus, malus). Effects'
    /// positive sum is a bonus (an aura strips it, C-AURA), a negative one a malus; the
    /// concentration relief (C-FAT-5) eases a malus, so it counts with the maluses.
    #[inline(always)]
    pub(super) fn support_mods(&self, f: usize, b: usize) -> (i32, i32) {
        // Most tests meet no live effect and no concentration: two comparisons here,
        // and the sums out of line.
        let round = self.round.min(u16::MAX as u32) as u16;
        let effects = P::on(self.sim.any_effects) && !self.no_live_effect(f, round);
        if !effects && !P::on(self.sim.any_focus) {
            return (0, 0);
        }
        self.support_mods_now(f, b)
    }

    #[inline(never)]
    fn support_mods_now(&self, f: usize, b: usize) -> (i32, i32) {
        let e = if P::on(self.sim.any_effects) {
            self.effect_modifier(f)
        } else {
            0
        };
        let r = if P::on(self.sim.any_focus) {
            self.focus_relief(f, b)
        } else {
            0
        };
        (e.max(0), e.min(0) + r)
    }

    /// Points a concentration gives back on test block `b` of `f` this round (C-FAT-5):
    /// the track's malus minus the concentrated one; exhaustion is never eased.
    #[inline]
    pub(super) fn focus_relief(&self, f: usize, b: usize) -> i32 {
        let (s, sup) = (&self.st[f], &self.sup[f]);
        if sup.focus as u32 != self.round || sup.focus == 0 {
            return 0;
        }
        let track = match self.sim.block(b).track {
            1 => s.fp,
            2 => s.fm,
            _ => return 0,
        };
        let levels = &self.sim.rules.test.fatigue;
        let st = levels.state(track as i32);
        if st == FatigueState::Exhausted || (st == FatigueState::Extreme && !sup.focus_extreme) {
            return 0;
        }
        (levels.concentrated_malus(st) - levels.test_malus(st)) as i32
    }
}

/// Whether some combatant has rules, may place a buff, may concentrate (sim flags).
pub(super) fn flags(model: &super::model::CombatModel) -> (bool, bool, bool) {
    let uses = |p: fn(&SupportKind) -> bool| {
        model
            .fighters
            .iter()
            .any(|f| f.support.iter().any(|&s| p(&model.support[s].kind)))
    };
    (
        model.fighters.iter().any(|f| !f.rules.is_empty()),
        uses(|k| matches!(k, SupportKind::Buff { .. })),
        uses(|k| *k == SupportKind::Concentrate),
    )
}
