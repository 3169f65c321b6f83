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
mod tests {
    use super::super::model::Mode;
    use super::super::state::NONE;
    use super::super::trigger::Rule;
    use super::*;

    const BOSS: &str = include_str!("../../../../scenarios/cosmos/boss-fight.toml");

    fn boss(text: &str) -> super::super::sim::CombatSim {
        let file = crate::scenario::ScenarioFile::from_text(
            "boss-fight.toml",
            text,
            crate::lang::Lang::En,
        );
        let (_, model) = super::super::scenario::load(&file).unwrap();
        super::super::sim::CombatSim::new(model, Default::default())
    }

    /// Postures entered by everyone over a run: the points spent.
    fn points_spent(acc: &super::super::acc::CombatAcc) -> u64 {
        acc.fighters
            .iter()
            .map(|f| f.posture[0].entered + f.posture[1].entered)
            .sum()
    }

    /// xorshift: reproducible picks without the run's streams.
    struct Pick(u64);

    impl Pick {
        fn next(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0 % n
        }

        fn frac(&mut self) -> f64 {
            [0.0, 0.1, 0.35, 0.5, 0.999, 1.0, 1.2][self.next(7) as usize]
        }

        fn cond(&mut self, depth: u32) -> Cond {
            let k = self.next(if depth < 3 { 10 } else { 7 });
            match k {
                0 => Cond::RoundAtLeast(self.next(6) as u32),
                1 => Cond::Round(self.next(6) as u32),
                2 | 3 => Cond::OwnHpBelow(self.frac()),
                4 => Cond::AllyHpBelow(self.frac()),
                5 => Cond::EnemyHpBelow(self.frac()),
                6 => Cond::AllyDown,
                _ => {
                    let v = (0..self.next(4)).map(|_| self.cond(depth + 1)).collect();
                    if k == 9 {
                        Cond::Any(v)
                    } else {
                        Cond::All(v)
                    }
                }
            }
        }
    }

    #[test]
    fn a_condition_that_holds_passes_its_gate_and_an_exact_gate_is_the_condition() {
        let sim = boss(BOSS);
        let mut rng = crate::engine::trial_stream(1, 2, 3);
        let mut acc = sim.empty_acc();
        let mut fight: Fight<'_, '_> = Fight::new(&sim, &mut rng, &mut acc);
        let mut pick = Pick(0x9e37_79b9_7f4a_7c15);
        let (mut held, mut refused, mut exact, mut by_hp) = (0, 0, 0, 0);
        for _ in 0..20_000 {
            let c = pick.cond(0);
            fight.round = pick.next(7) as u32;
            for g in 0..sim.n {
                fight.rise(g);
                if pick.next(3) == 0 {
                    fight.fall(g, super::super::events::PRESENT);
                }
                // Around 0 and max HP, negatives included.
                let max = sim.model.fighters[g].hp as i64;
                fight.st[g].hp = (pick.next((max + 40) as u64) as i64 - 20) as i32;
            }
            for f in 0..sim.n {
                let gate = Gate::of(&c, sim.max_hp[f]);
                let (holds, passes) = (fight.holds(f, &c), fight.passes(f, &gate));
                assert!(!holds || passes, "{c:?} holds for {f}, gate {gate:?}");
                if gate.exact {
                    assert_eq!(holds, passes, "{c:?} for {f}, exact gate {gate:?}");
                    exact += 1;
                }
                held += holds as u32;
                refused += !passes as u32;
                let masks = [sim.ally_mask[f], sim.enemy_mask[f]];
                if let Some(h) = HpAny::of(&c, f, &sim.max_hp, masks) {
                    let u = UseRule {
                        then: Then::Support(0),
                        gate,
                        rule: 0,
                        hp: Some(h),
                    };
                    assert_eq!(fight.use_holds(f, &u, || &c), holds, "{c:?} for {f}, {h:?}");
                    by_hp += 1;
                }
            }
        }
        assert!(by_hp > 5_000, "{by_hp} conditions read as HP comparisons");
        // Every way was tried: conditions that hold, gates that refuse, exact gates.
        assert!(
            held > 10_000 && refused > 10_000 && exact > 10_000,
            "{held} {refused} {exact}"
        );
        assert!(!fight.passes(0, &Gate::NEVER));
        assert_eq!(Gate::of(&Cond::Any(vec![]), 1.0), Gate::NEVER);
        assert_eq!(Gate::of(&Cond::always(), 1.0), Gate::ALWAYS);
    }

    #[test]
    fn a_spend_gate_reads_only_the_rules_that_spend_its_kind() {
        let spend = |when: Cond, kind: u8| Rule {
            when,
            then: Then::Spend(kind),
        };
        let down_at = |r| Cond::All(vec![Cond::AllyDown, Cond::RoundAtLeast(r)]);
        let rules = Rules::new(vec![
            spend(Cond::OwnHpBelow(0.5), NONE),
            spend(down_at(3), SEPULCRALE),
            spend(down_at(2), SEPULCRALE),
            spend(Cond::OwnHpBelow(0.5), ILLUMINATION),
            Rule {
                when: Cond::always(),
                then: Then::Mode(Mode::Offensive),
            },
        ]);
        let dark = Gate::of_spending(&rules, SEPULCRALE, 100.0);
        let want = Gate {
            round: 2,
            ally_down: true,
            own_hp: f64::INFINITY,
            exact: false,
        };
        assert_eq!(dark, want);
        let light = Gate::of_spending(&rules, ILLUMINATION, 100.0);
        assert_eq!((light.own_hp, light.exact), (50.0, true));
        let none = Gate::of_spending(&Rules::default(), SEPULCRALE, 100.0);
        assert_eq!(none, Gate::NEVER);
    }

    /// The boss fight and variants whose spend rules read HP and rounds, under the test
    /// build's checks (`meets`, `may_react`, `after_action`) that a gate never changes a
    /// decision.
    #[test]
    fn fights_skip_no_spend_behind_the_gates() {
        let knight = "when = { all = [{ ally_down = true }, { round_at_least = 3 }] }";
        assert!(BOSS.contains(knight));
        let hurt = "when = { any = [{ ally_down = true }, { own_hp_below = 0.6 }] }";
        let early = "when = { all = [{ round = 2 }, { own_hp_below = 0.9 }] }";
        for text in [
            BOSS.to_string(),
            BOSS.replacen(knight, hurt, 1),
            BOSS.replacen(knight, early, 1),
        ] {
            let sim = boss(&text);
            let acc = super::super::plan::full_run(&sim, "gate", 3, 600);
            assert!(points_spent(&acc) > 0);
        }
        // Only the knight and the cleric spend, and only when an ally is down.
        let sim = boss(BOSS);
        let named = |n: &str| sim.model.fighters.iter().position(|f| f.name == n).unwrap();
        let want = 1 << named("knight") | 1 << named("cleric");
        assert_eq!(sim.gates.down_gated, want);
        // The knight's rule spends Dark, the cleric's Light: the other kind they hold
        // never wakes the check between actions; with a Light trigger the knight's does.
        let (all, none) = (u8::MAX, 0);
        assert_eq!(sim.spend_kinds[named("knight")], [all, none]);
        assert_eq!(sim.spend_kinds[named("cleric")], [none, all]);
        assert_eq!(sim.spend_kinds[named("warlord")], [none, none]);
        let lit = boss(&BOSS.replacen(
            "defence = \"parry\"",
            "defence = \"parry\"\nlight_below_hp = 0.4",
            1,
        ));
        assert_eq!(lit.spend_kinds[named("knight")], [all, all]);
    }

    /// Those who react to their HP alone are skipped between actions while above their
    /// thresholds (`after_action`): the test build checks the HP mask behind that skip
    /// after every action, here through heals (the cleric's cure), HP costs, Revive and
    /// Apocalypse.
    #[test]
    fn the_hp_mask_follows_heals_costs_and_revives() {
        let knight =
            "[[combatants.knight.policy.rules]]   # a Dark point when an ally falls, from round 3
when = { all = [{ ally_down = true }, { round_at_least = 3 }] }
spend = \"dark\"";
        assert!(BOSS.contains(knight));
        let flat = BOSS
            .replace(knight, "")
            .replace(
                "defence = \"parry\"",
                "defence = \"parry\"\nlight_below_hp = 0.4\ndark_below_hp = 0.25",
            )
            .replace("damage = \"2d10+6\"", "damage = \"2d10+6\"\nhp_cost = 3");
        const APOCALYPSE: &str = include_str!("../../../../scenarios/cosmos/apocalypse.toml");
        for (text, want) in [(flat, "knight"), (APOCALYPSE.to_string(), "hero")] {
            let sim = boss(&text);
            let who = sim.model.fighters.iter().position(|f| f.name == want);
            assert!(
                sim.hp_only >> who.unwrap() & 1 != 0,
                "{want} reacts to its HP alone"
            );
            let acc = super::super::plan::full_run(&sim, "hp-mask", 4, 600);
            assert!(points_spent(&acc) > 0, "{want}: points spent");
        }
    }

    #[test]
    fn mode_rules_on_own_hp_alone_read_as_thresholds() {
        let sim = boss(BOSS);
        let who = |n: &str| sim.model.fighters.iter().position(|f| f.name == n).unwrap();
        let (warlord, rogue) = (who("warlord"), who("rogue"));
        // Warlord: Offensive under half of 420 HP; rogue: Defensive under 35% of 170 (59.5).
        assert_eq!(sim.gates.hp_mode(warlord, 209), Ok(Some(Mode::Offensive)));
        assert_eq!(sim.gates.hp_mode(warlord, 210), Ok(None));
        assert_eq!(sim.gates.hp_mode(rogue, 59), Ok(Some(Mode::Defensive)));
        assert_eq!(sim.gates.hp_mode(rogue, 60), Ok(None));
        // A mode rule reading the round is walked.
        let rule = "[[combatants.rogue.policy.rules]]    # back to Defensive when hurt
when = { own_hp_below = 0.35 }";
        assert!(BOSS.contains(rule));
        let late = "[[combatants.rogue.policy.rules]]
when = { round_at_least = 4 }
mode = \"offensive\"

"
        .to_string()
            + rule;
        let sim = boss(&BOSS.replace(rule, &late));
        assert_eq!(sim.gates.hp_mode(rogue, 59), Err(()));
    }

    #[test]
    fn the_action_choice_reads_the_use_rules_alone_in_rule_order() {
        let sim = boss(BOSS);
        let who = |n: &str| sim.model.fighters.iter().position(|f| f.name == n).unwrap();
        let rules = |f: usize| {
            sim.gates
                .uses(f)
                .iter()
                .map(|u| (u.rule, u.then))
                .collect::<Vec<_>>()
        };
        // Cleric: cure (rule 0) and bless (rule 1), not its spend rule (2); warlord: roar
        // (rule 1), not its mode rule (0); knight and rogue: spend and mode rules only.
        assert_eq!(
            rules(who("cleric")),
            vec![(0, Then::Support(0)), (1, Then::Support(1))]
        );
        assert_eq!(rules(who("warlord")), vec![(1, Then::Support(0))]);
        assert!(rules(who("knight")).is_empty() && rules(who("rogue")).is_empty());
        // Each carries its rule's gate: the cleric's `any` is walked, the warlord's own
        // HP under half of 420 is exact.
        let cleric = sim.gates.uses(who("cleric"));
        assert!(!cleric[0].gate.exact && cleric[1].gate.exact && cleric[1].gate.round == 1);
        // The cure's "an ally or itself below half" reads as HP comparisons: half of
        // every party member's max HP, the others counted while standing.
        let party = ["knight", "rogue", "mage", "cleric"].map(who);
        let h = cleric[0].hp.expect("the cure reads HP alone");
        for g in party {
            assert_eq!(h.below[g], sim.max_hp[g] / 2.0);
        }
        assert_eq!(h.below[who("warlord")], f64::NEG_INFINITY);
        assert_eq!(h.others, sim.ally_mask[who("cleric")]);
        assert!(cleric[1].hp.is_none());
        let roar = sim.gates.uses(who("warlord"))[0].gate;
        assert!(roar.exact && roar.own_hp == 210.0);
        // The HP at or above which no `use` rule holds: the warlord's roar under 210, the
        // cleric's any HP (its bless reads the round alone), none for the knight.
        let use_hp = |n: &str| sim.gates.use_hp[who(n)];
        assert_eq!(use_hp("warlord"), 210.0);
        assert_eq!(use_hp("cleric"), f64::INFINITY);
        assert_eq!(use_hp("knight"), f64::NEG_INFINITY);
    }
}
