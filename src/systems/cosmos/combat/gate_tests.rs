//! Unit tests of `gate.rs`: a gate is a necessary condition of its rule (exact where it
//! says so), and fights spend the same points behind the gates.

use super::super::model::Mode;
use super::super::state::NONE;
use super::super::trigger::Rule;
use super::*;

const BOSS: &str = include_str!("../../../../scenarios/cosmos/boss-fight.toml");

fn boss(text: &str) -> super::super::sim::CombatSim {
    let file =
        crate::scenario::ScenarioFile::from_text("boss-fight.toml", text, crate::lang::Lang::En);
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
