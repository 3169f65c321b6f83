//! Policy rules (`[[combatants.<name>.policy.rules]]`): an ordered list of "when <condition>,
//! do <one thing>" read first match wins, for four decisions: spending a Light/Dark point
//! (C-LD-2 moments), using the Final Skill (C-LD-4), the mode before acting (C-CMB-1) and
//! the action (an attack or a support action). When no rule of a decision matches, the
//! flat policy keys decide as before (their defaults are documented in docs/scenarios.md),
//! so files without rules keep their numbers.

use super::fight::Fight;
use super::model::Mode;
use super::plan::Plan;
use super::state::{ILLUMINATION, NONE, SEPULCRALE};
use crate::lang::Lang;
use crate::systems::mask::bits;

/// Most rules per combatant, most items in an `all`/`any` list and nesting depth.
pub const MAX_RULES: usize = 16;
pub const MAX_COND_ITEMS: usize = 8;
pub const MAX_COND_DEPTH: usize = 4;

/// A condition on the fight as `f` sees it. HP fractions compare without a division.
#[derive(Clone, Debug, PartialEq)]
pub enum Cond {
    /// Round number (0 at the combat-start check) at least / exactly.
    RoundAtLeast(u32),
    Round(u32),
    /// Own HP strictly below this fraction of max.
    OwnHpBelow(f64),
    /// Some standing ally (not itself) below this fraction of its max HP.
    AllyHpBelow(f64),
    /// Some standing enemy below this fraction of its max HP.
    EnemyHpBelow(f64),
    /// Some standing enemy / ally (not itself) in one of these postures (bit 1
    /// Illumination, bit 2 Sépulcrale).
    EnemyPosture(u8),
    AllyPosture(u8),
    /// Some ally (not itself) is down.
    AllyDown,
    /// Own fatigue tracks at least this (C-FAT-1), as the combat state holds them.
    OwnFpAtLeast(i8),
    OwnFmAtLeast(i8),
    /// Every / some item holds (an empty `All` always holds: a rule without `when`).
    All(Vec<Cond>),
    Any(Vec<Cond>),
}

impl Cond {
    /// The always-true condition of a rule written without `when`.
    pub fn always() -> Cond {
        Cond::All(Vec::new())
    }
}

/// What a rule does. Each decision reads only the rules of its own kind.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Then {
    /// Spend a point: `ILLUMINATION` (Light), `SEPULCRALE` (Dark) or `NONE` (hold).
    Spend(u8),
    /// Use the Final Skill now (in a posture, level 5+, affordable) or not.
    FinalSkill(bool),
    Mode(Mode),
    /// Use an attack: (attack index, entry in the combatant's attack list).
    Attack(usize, usize),
    /// Use a support action: entry in the combatant's `support` list.
    Support(usize),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub when: Cond,
    pub then: Then,
}

/// A combatant's rules, with which decisions they touch (so the hot path skips the rest).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rules {
    pub list: Vec<Rule>,
    pub points: bool,
    pub final_skill: bool,
    pub mode: bool,
    pub action: bool,
}

impl Rules {
    pub fn new(list: Vec<Rule>) -> Rules {
        let has = |p: fn(&Then) -> bool| list.iter().any(|r| p(&r.then));
        Rules {
            points: has(|t| matches!(t, Then::Spend(_))),
            final_skill: has(|t| matches!(t, Then::FinalSkill(_))),
            mode: has(|t| matches!(t, Then::Mode(_))),
            action: has(|t| matches!(t, Then::Attack(..) | Then::Support(_))),
            list,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Whether some rule spends a point of `posture` (`ILLUMINATION` or `SEPULCRALE`).
    pub fn spends(&self, posture: u8) -> bool {
        self.list.iter().any(|r| r.then == Then::Spend(posture))
    }
}

/// A posture as a condition bit.
#[inline(always)]
fn posture_bit(p: u8) -> u8 {
    match p {
        ILLUMINATION => 1,
        SEPULCRALE => 2,
        _ => 0,
    }
}

/// An action a rule picked: a support action on its target, or an attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pick {
    Support(usize, usize),
    Attack(usize, usize),
}

impl<W: super::watch::Watch, P: Plan> Fight<'_, '_, W, P> {
    /// Whether `c` holds for `f` now. Allies and enemies come as masks of the run
    /// (`CombatSim::ally_mask`, `enemy_mask`): the conditions are pure, so the order in
    /// which they are looked at changes nothing.
    pub(super) fn holds(&self, f: usize, c: &Cond) -> bool {
        let sim = self.sim;
        let below = |g: usize, x: f64| (self.st[g].hp as f64) < x * sim.max_hp[g];
        let (allies, enemies) = (sim.ally_mask[f], sim.enemy_mask[f]);
        let down = self.down_mask();
        let standing = |g: usize| down & (1 << g) == 0;
        match c {
            Cond::RoundAtLeast(r) => self.round >= *r,
            Cond::Round(r) => self.round == *r,
            Cond::OwnHpBelow(x) => below(f, *x),
            Cond::AllyHpBelow(x) => bits(allies).any(|g| standing(g) && below(g, *x)),
            Cond::EnemyHpBelow(x) => bits(enemies).any(|g| standing(g) && below(g, *x)),
            Cond::EnemyPosture(m) => {
                bits(enemies).any(|g| standing(g) && posture_bit(self.st[g].posture) & m != 0)
            }
            Cond::AllyPosture(m) => {
                bits(allies).any(|g| standing(g) && posture_bit(self.st[g].posture) & m != 0)
            }
            Cond::AllyDown => allies & down != 0,
            Cond::OwnFpAtLeast(x) => self.st[f].fp >= *x,
            Cond::OwnFmAtLeast(x) => self.st[f].fm >= *x,
            Cond::All(v) => v.iter().all(|c| self.holds(f, c)),
            Cond::Any(v) => v.iter().any(|c| self.holds(f, c)),
        }
    }

    /// The point `f`'s rules spend now: Some(kind) from the first matching `spend` rule
    /// whose point it still holds (`NONE`: hold), None when no rule matches (the flat
    /// `dark_*`/`light_*` keys decide).
    #[inline(never)]
    pub(super) fn rule_points(&self, f: usize) -> Option<u8> {
        let rules = &self.sim.model.fighters[f].rules;
        if !rules.points {
            return None;
        }
        let s = &self.st[f];
        for (r, g) in rules.list.iter().zip(self.sim.gates.of(f)) {
            let Then::Spend(kind) = r.then else { continue };
            let held = match kind {
                ILLUMINATION => s.light_left > 0,
                SEPULCRALE => s.dark_left > 0,
                _ => true,
            };
            if held && self.meets(f, &r.when, g) {
                return Some(kind);
            }
        }
        None
    }

    /// The mode of the first matching `mode` rule, if any.
    #[inline(never)]
    pub(super) fn rule_mode(&self, f: usize) -> Option<Mode> {
        let on = self.sim.model.fighters[f].rules.mode;
        self.first_rule(f, on, |t| match *t {
            Then::Mode(m) => Some(m),
            _ => None,
        })
    }

    /// Whether the first matching `final_skill` rule uses the Final Skill, if any.
    #[inline(never)]
    pub(super) fn rule_final_skill(&self, f: usize) -> Option<bool> {
        let on = self.sim.model.fighters[f].rules.final_skill;
        self.first_rule(f, on, |t| match *t {
            Then::FinalSkill(b) => Some(b),
            _ => None,
        })
    }

    /// What `pick` reads from the first of `f`'s rules it reads something from and whose
    /// condition holds (None when `on`, the rules' flag for that kind, is off). `meets` is
    /// pure, so testing it only on the rules `pick` reads changes nothing but the cost.
    #[inline(always)]
    fn first_rule<T>(&self, f: usize, on: bool, pick: impl Fn(&Then) -> Option<T>) -> Option<T> {
        if !on {
            return None;
        }
        let gates = self.sim.gates.of(f);
        self.sim.model.fighters[f]
            .rules
            .list
            .iter()
            .zip(gates)
            .find_map(|(r, g)| pick(&r.then).filter(|_| self.meets(f, &r.when, g)))
    }

    /// The first matching `use` rule whose attack or support action can be used now (paid,
    /// uses left, cooldown over, a target for it); None: the `attack` policy decides.
    #[inline(never)]
    pub(super) fn rule_action(&mut self, f: usize) -> Option<Pick> {
        let sim = self.sim;
        let rules = &sim.model.fighters[f].rules;
        if !rules.action {
            return None;
        }
        // The `use` rules alone (`Gates::uses`): the others pick nothing here.
        for u in sim.gates.uses(f) {
            let when = || &rules.list[u.rule].when;
            match u.then {
                Then::Attack(a, slot)
                    if self.available(f, slot, a) && self.use_holds(f, u, when) =>
                {
                    return Some(Pick::Attack(a, slot));
                }
                Then::Support(slot)
                    if self.support_ready(f, slot) && self.use_holds(f, u, when) =>
                {
                    if let Some(t) = self.support_target(f, slot) {
                        return Some(Pick::Support(slot, t));
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Whether `f` may use its Final Skill now by its rules, else by `final_skill_turn`.
    #[inline]
    pub(super) fn final_skill_now(&self, f: usize) -> bool {
        let fighter = &self.sim.model.fighters[f];
        let s = &self.st[f];
        if s.posture == NONE {
            return false;
        }
        let turn = fighter.policy.final_skill_turn;
        let by_turn = turn > 0 && s.posture_turns >= turn;
        if !(P::on(self.sim.any_rules) && fighter.rules.final_skill) {
            return by_turn;
        }
        // C-LD-4: level 5 or more, whatever the rules say.
        fighter.level >= 5 && self.rule_final_skill(f).unwrap_or(by_turn)
    }
}

/// A condition as the summary and `check` print it.
fn cond_text(c: &Cond, lang: Lang) -> String {
    let pct = |x: f64| lang.pct(x, 0);
    let posture = |m: u8| match m {
        1 => "Illumination",
        2 => "Sépulcrale",
        _ => tr!(lang, "combat.cond.a_posture"),
    };
    match c {
        Cond::RoundAtLeast(r) => tr!(lang, "combat.cond.round_at_least", round = r),
        Cond::Round(r) => tr!(lang, "combat.cond.round", round = r),
        Cond::OwnHpBelow(x) => tr!(lang, "combat.cond.own_hp_below", pct = pct(*x)),
        Cond::AllyHpBelow(x) => tr!(lang, "combat.cond.ally_hp_below", pct = pct(*x)),
        Cond::EnemyHpBelow(x) => tr!(lang, "combat.cond.enemy_hp_below", pct = pct(*x)),
        Cond::EnemyPosture(m) => {
            tr!(lang, "combat.cond.enemy_posture", posture = posture(*m))
        }
        Cond::AllyPosture(m) => tr!(lang, "combat.cond.ally_posture", posture = posture(*m)),
        Cond::AllyDown => tr!(lang, "combat.cond.ally_down").into(),
        Cond::OwnFpAtLeast(x) => tr!(lang, "combat.cond.own_fp_at_least", n = x),
        Cond::OwnFmAtLeast(x) => tr!(lang, "combat.cond.own_fm_at_least", n = x),
        Cond::All(v) if v.is_empty() => tr!(lang, "combat.cond.always").into(),
        Cond::All(v) => format!(
            "({})",
            v.iter()
                .map(|c| cond_text(c, lang))
                .collect::<Vec<_>>()
                .join(tr!(lang, "combat.cond.and"))
        ),
        Cond::Any(v) => format!(
            "({})",
            v.iter()
                .map(|c| cond_text(c, lang))
                .collect::<Vec<_>>()
                .join(tr!(lang, "combat.cond.or"))
        ),
    }
}

/// The policy-rule lines of one combatant for the `## Policies in force` table: one per
/// rule (written in the file, so never a default `check` lists).
pub fn settings(
    who: &str,
    f: &super::model::Fighter,
    model: &super::model::CombatModel,
    lang: Lang,
) -> Vec<super::settings::Setting> {
    let mut out = Vec::new();
    for (i, r) in f.rules.list.iter().enumerate() {
        let (what, meaning) = match r.then {
            Then::Spend(ILLUMINATION) => (
                "spend light".to_string(),
                tr!(lang, "combat.settings.rule_light"),
            ),
            Then::Spend(SEPULCRALE) => (
                "spend dark".to_string(),
                tr!(lang, "combat.settings.rule_dark"),
            ),
            Then::Spend(_) => (
                "spend none".to_string(),
                tr!(lang, "combat.settings.rule_hold"),
            ),
            Then::FinalSkill(b) => (
                format!("final_skill {b}"),
                tr!(lang, "combat.settings.rule_final_skill"),
            ),
            Then::Mode(Mode::Offensive) => (
                "mode offensive".to_string(),
                tr!(lang, "combat.settings.rule_mode"),
            ),
            Then::Mode(Mode::Defensive) => (
                "mode defensive".to_string(),
                tr!(lang, "combat.settings.rule_mode"),
            ),
            Then::Attack(a, _) => (
                format!("use {}", model.attacks[a].name),
                tr!(lang, "combat.settings.rule_attack"),
            ),
            Then::Support(s) => (
                format!("use {}", model.support[f.support[s]].name),
                tr!(lang, "combat.settings.rule_support"),
            ),
        };
        out.push(super::settings::Setting {
            who: who.to_string(),
            key: format!("policy.rules[{i}]"),
            value: tr!(
                lang,
                "combat.cond.when",
                cond = cond_text(&r.when, lang),
                what
            ),
            defaulted: false,
            meaning: tr!(lang, "combat.settings.rule_meaning", what = meaning),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_know_which_decisions_they_touch() {
        let r = Rules::new(vec![
            Rule {
                when: Cond::always(),
                then: Then::Mode(Mode::Offensive),
            },
            Rule {
                when: Cond::AllyDown,
                then: Then::Spend(SEPULCRALE),
            },
        ]);
        assert!(r.mode && r.points && !r.final_skill && !r.action);
        assert!(Rules::default().is_empty());
        assert_eq!(posture_bit(ILLUMINATION) | posture_bit(SEPULCRALE), 3);
        assert_eq!(posture_bit(NONE), 0);
    }
}
