//! Building a [`CombatSim`]: the read-only tables of a run, computed once from the model
//! and the rules (`sim.rs` holds the struct and the hot path that reads them).

use crate::systems::cosmos::growth::inventory;
use crate::systems::cosmos::MovedTests;
use crate::systems::cosmos::{Outcome, TestBank, TestSpec, KARMA_MAX, KARMA_MIN};
use crate::systems::mask;

use super::model::{AttackCosts, AuraUse, CombatModel, AGILITE, FORCE, MAX_ATTACKS, MAX_FIGHTERS};
use super::options::CombatRules;
use super::order::RunOrder;
use super::sim::{CombatSim, KARMAS, NO_ATTACK};
use super::state::{ILLUMINATION, SEPULCRALE};
use super::test_def::{start_fatigue, TestDef};

impl CombatSim {
    pub fn new(mut model: CombatModel, rules: CombatRules) -> CombatSim {
        // C-EDITION: the previous edition's parameter set brings its aura table.
        if rules.previous_edition {
            model.edition = crate::systems::cosmos::growth::aura::Edition::Previous;
        }
        // C-LD-1: points left to the rules take the level-5 grant in force, once per run.
        for f in &mut model.fighters {
            if let Some(l5) = f.level5 {
                (f.light_points, f.dark_points) = l5.resolve(rules.level5_points);
            }
        }
        let n = model.fighters.len();
        // C-INV: -5 Agilité per slot over 4 x floor(Force / 10).
        let agility_malus: Vec<i32> = model
            .fighters
            .iter()
            .zip(&model.small)
            .map(|(f, s)| match s.inventory_slots_used {
                Some(load) => inventory::agility_malus(f.stats[FORCE], load as i32) as i32,
                None => 0,
            })
            .collect();
        let mut blocks = Vec::with_capacity(n * 6);
        for (f, malus) in model.fighters.iter().zip(&agility_malus) {
            for (i, &stat) in f.stats.iter().enumerate() {
                let m = if i == AGILITE { *malus } else { 0 };
                let (fat, crit_from) = start_fatigue(f, i, &rules.test.fatigue);
                blocks.push(TestDef {
                    base: stat as f64,
                    static_mod: m + fat,
                    crit_from,
                    track: super::fatigue::track_of(i),
                    fat,
                    bonus: 0,
                });
            }
        }
        let na = model.attacks.len();
        let mut attack_block = vec![0u32; n * na];
        for (fi, (f, malus)) in model.fighters.iter().zip(&agility_malus).enumerate() {
            for a in 0..na {
                let at = &model.attacks[a];
                attack_block[fi * na + a] = (fi * 6 + at.stat) as u32;
                let used = f.attacks.contains(&a) || f.final_skill == Some(a);
                if at.plain_test() || !used {
                    continue;
                }
                // C-TEST-1: the mean of several stats kept as a real number, or a fixed
                // threshold; the modifier in percentage points. Fatigue and overload
                // come from the attack's first stat.
                let base = match (at.threshold, at.stats.is_empty()) {
                    (Some(t), _) => t as f64,
                    (None, false) => {
                        at.stats.iter().map(|&s| f.stats[s] as f64).sum::<f64>()
                            / at.stats.len() as f64
                    }
                    (None, true) => f.stats[at.stat] as f64,
                };
                let inv = if at.stat == AGILITE { *malus } else { 0 };
                let (fat, crit_from) = start_fatigue(f, at.stat, &rules.test.fatigue);
                attack_block[fi * na + a] = blocks.len() as u32;
                blocks.push(TestDef {
                    base,
                    static_mod: at.modifier + inv + fat,
                    crit_from,
                    track: super::fatigue::track_of(at.stat),
                    fat,
                    bonus: at.modifier.max(0),
                });
            }
        }
        let specs: Vec<TestSpec> = blocks
            .iter()
            .flat_map(|b| (KARMA_MIN..=KARMA_MAX).map(|k| b.spec(0, k, &rules)))
            .collect();
        let tests = TestBank::new(&specs, &rules.test);
        let moved = MovedTests::new(&rules.test);
        let any_fatigue = model.fatigue.on
            || model
                .fighters
                .iter()
                .any(|f| f.start.fp != 0 || f.start.fm != 0);
        let widths = model
            .fighters
            .iter()
            .map(|f| {
                let enemies: i64 = model
                    .fighters
                    .iter()
                    .filter(|o| o.side != f.side)
                    .map(|o| o.hp as i64)
                    .sum();
                let (d, t, h) = super::acc::widths(f.hp as i64, enemies);
                [d, t, h].map(super::acc::Width::new)
            })
            .collect();
        let any_limited = model.attacks.iter().any(|a| a.limited());
        let any_hp_cost = model.attacks.iter().any(|a| a.hp_cost > 0);
        let any_armour = model
            .fighters
            .iter()
            .any(|f| f.armour != super::model::Armour::default());
        let any_aura = model
            .small
            .iter()
            .any(|s| s.aura_points > 0 && s.aura_use != AuraUse::Never);
        let mut coef = Vec::with_capacity(model.attacks.len() * n);
        let mut expected = Vec::with_capacity(model.attacks.len() * n);
        for a in &model.attacks {
            let mean = a.dice.mean();
            for (fi, f) in model.fighters.iter().enumerate() {
                let aff = &model.affinity[fi];
                let c = super::affinity::coefficient_in(
                    &a.elements,
                    f.element,
                    aff,
                    rules.dual,
                    &rules.elements,
                );
                coef.push(c);
                expected.push(mean * c);
            }
        }
        let damage_tables = model.attacks.iter().map(|a| a.dice.table(4096)).collect();
        let reactive: Vec<bool> = model
            .fighters
            .iter()
            .map(|f| {
                let r = |t: &super::model::PointTriggers| t.below_hp.is_some() || t.when_ally_down;
                (f.dark_points > 0 && r(&f.policy.dark))
                    || (f.light_points > 0 && r(&f.policy.light))
                    || f.rules.points
            })
            .collect();
        let any_reactive = reactive.iter().any(|&r| r);
        let reactive_mask = mask::of(n, |f| reactive[f]);
        let mut point_hp = [[f64::NEG_INFINITY; 2]; MAX_FIGHTERS];
        let mut point_other = [false; MAX_FIGHTERS];
        let mut point_rules = [false; MAX_FIGHTERS];
        let mut spend_kinds = [[0u8; 2]; MAX_FIGHTERS];
        let mut mode_hp = [[f64::NEG_INFINITY; 2]; MAX_FIGHTERS];
        for (f, a) in model.fighters.iter().enumerate() {
            point_rules[f] = a.rules.points;
            for (k, (t, kind)) in [
                (&a.policy.dark, SEPULCRALE),
                (&a.policy.light, ILLUMINATION),
            ]
            .into_iter()
            .enumerate()
            {
                if t.any() || a.rules.spends(kind) {
                    spend_kinds[f][k] = u8::MAX;
                }
                if let Some(x) = t.below_hp {
                    point_hp[f][k] = x * a.hp as f64;
                }
                point_other[f] |= t.when_ally_down || t.on_turn_start;
            }
            let below = [a.policy.offensive_below_hp, a.policy.defensive_below_hp];
            for (k, x) in below.into_iter().enumerate() {
                if let Some(x) = x {
                    mode_hp[f][k] = x * a.hp as f64;
                }
            }
        }
        let mut side_members = [0u32; MAX_FIGHTERS];
        let mut enemy_mask = [0u32; MAX_FIGHTERS];
        let mut ally_mask = [0u32; MAX_FIGHTERS];
        let mut max_hp = [0.0; MAX_FIGHTERS];
        let mut armour = [(None, 0); MAX_FIGHTERS];
        let mut picks_alone = [false; MAX_FIGHTERS];
        let mut only_attack = [NO_ATTACK; MAX_FIGHTERS];
        for (f, a) in model.fighters.iter().enumerate() {
            use super::model::TargetPolicy as T;
            picks_alone[f] = matches!(
                a.policy.target,
                T::LowestHp | T::HighestHp | T::First | T::BestElement
            );
            if let [one] = a.attacks[..] {
                // An index past a byte takes the general path (`choose_among_attacks`).
                only_attack[f] = u8::try_from(one).unwrap_or(NO_ATTACK);
            }
            side_members[a.side] |= 1 << f;
            max_hp[f] = a.hp as f64;
            let ar = a.armour;
            armour[f] = (
                (ar.percent > 0.0).then(|| 1.0 - ar.percent / 100.0),
                ar.flat,
            );
            for (g, b) in model.fighters.iter().enumerate() {
                enemy_mask[f] |= ((b.side != a.side) as u32) << g;
                ally_mask[f] |= ((b.side == a.side && g != f) as u32) << g;
            }
        }
        let gates = super::gate::Gates::new(
            &model,
            &max_hp,
            &point_hp,
            reactive_mask,
            [&ally_mask, &enemy_mask],
        );
        let turn_start = mask::of(n, |i| {
            let f = &model.fighters[i];
            reactive[i]
                || (f.dark_points > 0 && f.policy.dark.on_turn_start)
                || (f.light_points > 0 && f.policy.light.on_turn_start)
        });
        let any_posture = model.fighters.iter().any(|f| {
            (f.light_points > 0 && (f.policy.light.any() || f.rules.points))
                || (f.dark_points > 0 && (f.policy.dark.any() || f.rules.points))
        });
        let (any_rules, any_effects, any_focus) = super::support::flags(&model);
        let any_support = model.fighters.iter().any(|f| !f.support.is_empty());
        let mut karma_next = [[0i8; 6]; KARMAS];
        for (k, row) in (KARMA_MIN..=KARMA_MAX).zip(karma_next.iter_mut()) {
            for o in Outcome::ALL {
                row[o as usize] = crate::systems::cosmos::drift(k, o, &rules.test);
            }
        }
        let prefer = super::prefer::Prefer::new(
            &model,
            |a, t| expected[a * n + t],
            |f| model.fighters[f].stats[AGILITE] + agility_malus[f],
        );
        let mut costs = [[AttackCosts::default(); MAX_ATTACKS + 1]; MAX_FIGHTERS];
        for (row, f) in costs.iter_mut().zip(&model.fighters) {
            for (c, &a) in row.iter_mut().zip(&f.attacks) {
                *c = model.attacks[a].costs();
            }
            if let Some(a) = f.final_skill {
                row[MAX_ATTACKS] = model.attacks[a].costs();
            }
        }
        let mut sim = CombatSim {
            prefer,
            by_track: super::fatigue::by_track(&rules.test.fatigue),
            karma_next,
            any_periodic: model.fighters.iter().any(|f| !f.periodic.is_empty())
                || model.attacks.iter().any(|a| a.on_hit.is_some()),
            any_mods: any_effects || any_focus,
            any_support,
            side_members,
            enemy_mask,
            ally_mask,
            max_hp,
            armour,
            picks_alone,
            only_attack,
            reactive_mask,
            gates,
            hp_only: mask::of(n, |f| {
                reactive_mask >> f & 1 != 0 && !point_other[f] && !point_rules[f]
            }),
            point_hp,
            point_other,
            point_rules,
            spend_kinds,
            any_multi: model
                .attacks
                .iter()
                .any(|a| a.targets != super::model::Targets::Count(1)),
            any_pm_cost: model.attacks.iter().any(|a| a.pm_cost != 0),
            mode_switch: mask::of(n, |f| {
                mode_hp[f] != [f64::NEG_INFINITY; 2] || model.fighters[f].rules.mode
            }),
            mode_hp,
            rule_modes: mask::of(n, |f| model.fighters[f].rules.mode),
            rule_actions: mask::of(n, |f| model.fighters[f].rules.action),
            any_rules,
            any_effects,
            any_focus,
            blocks,
            attack_block,
            any_limited,
            any_hp_cost,
            any_armour,
            any_fatigue,
            carried: false,
            widths,
            any_aura,
            agility_malus,
            damage_tables,
            any_reactive,
            any_posture,
            tier_mult: [1.0, 1.0, rules.crit_mult, rules.super_mult],
            turn_start,
            model,
            rules,
            tests,
            moved,
            coef,
            expected,
            n,
            run_order: RunOrder::NONE,
            fatigue_order: false,
            costs,
        };
        sim.fatigue_order = sim.rules.fatigue_turn_order && sim.plan().1;
        sim.run_order = RunOrder::new(&sim);
        sim
    }
}
