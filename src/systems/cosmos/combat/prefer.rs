//! What a combatant's policy picks, where it does not depend on the state of the fight:
//! fixed once per run (issue 29), so the turn loop reads a table instead of weighing
//! every attack or the defence stats on each action.
//!
//! - The order `attack` tries its attacks on each target: `first` in list order; `best`
//!   by expected damage (dice mean x element coefficient), highest first, the earlier
//!   entry first among equals, as the scan in `action.rs` picks. An attack with several
//!   targets weighs the enemies standing, which changes during the fight: a combatant
//!   with one has an order for each count of enemies standing.
//! - The defence each attack meets (C-CMB-2): dodge (Agilité) or parry (Force) by the
//!   target's `defence` policy and what the attack allows.
//! - The order `target = "best_element"` tries the combatants for each set of attacks
//!   the chooser can use: highest expected damage of those attacks first, the lower index
//!   first among equals, as the scan in `target.rs` picks.

use super::model::{
    AttackPolicy, CombatModel, DefencePolicy, TargetPolicy, Targets, AGILITE, FORCE, MAX_ATTACKS,
    MAX_FIGHTERS,
};

/// The run's fixed picks.
pub(super) struct Prefer {
    n: usize,
    attacks: usize,
    /// Per combatant: whether `order` holds its attack policy's choice.
    ordered: [bool; MAX_FIGHTERS],
    /// Orders per combatant and target: one, or one per count of enemies standing (0 to
    /// `n`) when some `best` combatant has an attack with several targets.
    levels: usize,
    /// Per combatant: whether its orders differ by the count of enemies standing (`best`
    /// with an attack of several targets); the others read the first level's row.
    by_standing: [bool; MAX_FIGHTERS],
    /// Per combatant: its attack list (attack indices) and its length, so the turn loop
    /// reads an entry's attack here rather than through the combatant.
    list: [[u32; MAX_ATTACKS]; MAX_FIGHTERS],
    len: [u8; MAX_FIGHTERS],
    /// `order[(f * n + target) * levels + standing]`: entries of `f`'s attack list in
    /// the order its policy tries them on `target`.
    order: Vec<[u8; MAX_ATTACKS]>,
    /// `defence[t * attacks + attack]`: the stat `t` defends with against `attack`, or
    /// `NO_DEFENCE`.
    defence: Vec<u8>,
    /// Per `best_element` combatant with every expected damage finite: where its rows
    /// start in `ranks`, one row per set of usable entries of its attack list (bit i:
    /// entry i), each row every combatant in the order the policy tries them.
    rank_base: [Option<usize>; MAX_FIGHTERS],
    ranks: Vec<[u8; MAX_FIGHTERS]>,
}

const NO_DEFENCE: u8 = u8::MAX;

/// The stat a `policy` defends with against an attack it may `dodge` and `parry`
/// (C-CMB-2): `best` dodges when Agilité is at least Force, else parries; a policy whose
/// defence the attack forbids takes the other one if `best`, none otherwise.
fn defence_stat(policy: DefencePolicy, dodge: bool, parry: bool, agile: bool) -> Option<usize> {
    match policy {
        DefencePolicy::Best if dodge && parry => Some(if agile { AGILITE } else { FORCE }),
        DefencePolicy::Best | DefencePolicy::Dodge if dodge => Some(AGILITE),
        DefencePolicy::Best | DefencePolicy::Parry if parry => Some(FORCE),
        _ => None,
    }
}

impl Prefer {
    /// `expected(attack, target)` and `agility(f)` as the turn loop reads them.
    pub(super) fn new(
        model: &CombatModel,
        expected: impl Fn(usize, usize) -> f64,
        agility: impl Fn(usize) -> i32,
    ) -> Prefer {
        let n = model.fighters.len();
        let attacks = model.attacks.len();
        let mut ordered = [false; MAX_FIGHTERS];
        let several = |f: &super::model::Fighter| {
            f.attacks
                .iter()
                .any(|&a| model.attacks[a].targets != Targets::Count(1))
        };
        let levels = if model
            .fighters
            .iter()
            .any(|f| f.policy.attack == AttackPolicy::Best && several(f))
        {
            n + 1
        } else {
            1
        };
        let mut by_standing = [false; MAX_FIGHTERS];
        let mut list = [[0u32; MAX_ATTACKS]; MAX_FIGHTERS];
        let mut len = [0u8; MAX_FIGHTERS];
        for (f, fighter) in model.fighters.iter().enumerate() {
            by_standing[f] = fighter.policy.attack == AttackPolicy::Best && several(fighter);
            // At most `MAX_ATTACKS` entries (`scenario_fighter.rs`).
            for (e, &a) in list[f].iter_mut().zip(&fighter.attacks) {
                *e = a as u32;
            }
            len[f] = fighter.attacks.len().min(MAX_ATTACKS) as u8;
        }
        let mut order = vec![[0u8; MAX_ATTACKS]; n * n * levels];
        for (f, fighter) in model.fighters.iter().enumerate() {
            let list = &fighter.attacks;
            ordered[f] = match fighter.policy.attack {
                AttackPolicy::First => true,
                AttackPolicy::Best => {
                    (0..n).all(|t| list.iter().all(|&a| expected(a, t).is_finite()))
                }
            };
            if !ordered[f] {
                continue;
            }
            for t in 0..n {
                for standing in 0..levels {
                    // What the scan weighs (`Fight::value`), so the same ties.
                    let value = |i: usize| {
                        let targets = model.attacks[list[i]].targets;
                        targets.weigh(expected(list[i], t), || standing)
                    };
                    let mut entries: Vec<usize> = (0..list.len()).collect();
                    if fighter.policy.attack == AttackPolicy::Best {
                        // A stable sort: equal values keep list order, as the scan's strict
                        // `>` keeps the first of them. `partial_cmp`, not `total_cmp`: the
                        // scan holds -0.0 and 0.0 equal (all values are finite here).
                        entries.sort_by(|&i, &j| {
                            value(j)
                                .partial_cmp(&value(i))
                                .unwrap_or(std::cmp::Ordering::Equal)
                        });
                    }
                    let row = &mut order[(f * n + t) * levels + standing];
                    for (slot, &i) in row.iter_mut().zip(&entries) {
                        *slot = i as u8;
                    }
                }
            }
        }
        let mut defence = vec![NO_DEFENCE; n * attacks];
        for (t, fighter) in model.fighters.iter().enumerate() {
            for (a, at) in model.attacks.iter().enumerate() {
                let stat = defence_stat(
                    fighter.policy.defence,
                    !at.undodgeable,
                    !at.unparryable,
                    agility(t) >= fighter.stats[FORCE],
                );
                defence[t * attacks + a] = stat.map_or(NO_DEFENCE, |s| s as u8);
            }
        }
        let mut rank_base = [None; MAX_FIGHTERS];
        let mut ranks = Vec::new();
        for (f, fighter) in model.fighters.iter().enumerate() {
            let list = &fighter.attacks;
            let finite = (0..n).all(|t| list.iter().all(|&a| expected(a, t).is_finite()));
            if fighter.policy.target != TargetPolicy::BestElement || !finite {
                continue;
            }
            rank_base[f] = Some(ranks.len());
            for usable in 0..1usize << list.len() {
                // What the scan weighs: the best usable attack on each target (-inf with
                // none, so all tie).
                let value = |g: usize| {
                    (0..list.len())
                        .filter(|i| usable >> i & 1 != 0)
                        .map(|i| expected(list[i], g))
                        .fold(f64::NEG_INFINITY, f64::max)
                };
                let mut who: Vec<usize> = (0..n).collect();
                // Stable, `partial_cmp`: as the scan's strict `>` keeps the first of equals.
                who.sort_by(|&g, &h| {
                    value(h)
                        .partial_cmp(&value(g))
                        .unwrap_or(std::cmp::Ordering::Equal)
                });
                let mut row = [0u8; MAX_FIGHTERS];
                for (slot, &g) in row.iter_mut().zip(&who) {
                    *slot = g as u8;
                }
                ranks.push(row);
            }
        }
        Prefer {
            n,
            attacks,
            ordered,
            levels,
            by_standing,
            list,
            len,
            order,
            defence,
            rank_base,
            ranks,
        }
    }

    /// The combatants in the order `f`'s `best_element` policy tries them when it can use
    /// the entries of its attack list in `usable` (bit i: entry i), or None when the run
    /// cannot fix that order.
    #[inline(always)]
    pub(super) fn ranking(&self, f: usize, usable: usize) -> Option<&[u8]> {
        self.rank_base[f].map(|b| &self.ranks[b + usable][..self.n])
    }

    /// `f`'s attack list entries in the order its policy tries them on `target` with
    /// `standing()` enemies standing (read only when some attack has several targets), or
    /// None when the run cannot fix its choice.
    #[inline(always)]
    pub(super) fn order(
        &self,
        f: usize,
        target: usize,
        standing: impl FnOnce() -> usize,
    ) -> Option<&[u8]> {
        if !self.ordered[f] {
            return None;
        }
        let level = if self.by_standing[f] { standing() } else { 0 };
        Some(&self.order[(f * self.n + target) * self.levels + level][..self.len[f] as usize])
    }

    /// The attack of entry `entry` of `f`'s list.
    #[inline(always)]
    pub(super) fn attack(&self, f: usize, entry: u8) -> usize {
        self.list[f][usize::from(entry)] as usize
    }

    /// The stat `t` defends with against `attack`, None if it cannot defend.
    #[inline(always)]
    pub(super) fn defence(&self, t: usize, attack: usize) -> Option<usize> {
        let s = self.defence[t * self.attacks + attack];
        (s != NO_DEFENCE).then_some(s as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::ScenarioFile;

    use super::super::options::CombatRules;
    use super::super::{scenario, sim::CombatSim};

    #[test]
    fn defences_by_policy_and_attack() {
        use DefencePolicy::{Best, Dodge, Parry};
        // C-CMB-2: `best` dodges with Agilité >= Force, else parries; an attack that
        // forbids one leaves `best` the other and the policy that wanted it nothing.
        let cases = [
            ((Best, true, true, true), Some(AGILITE)),
            ((Best, true, true, false), Some(FORCE)),
            ((Best, false, true, true), Some(FORCE)),
            ((Best, true, false, false), Some(AGILITE)),
            ((Best, false, false, true), None),
            ((Dodge, true, true, false), Some(AGILITE)),
            ((Dodge, false, true, true), None),
            ((Parry, true, true, true), Some(FORCE)),
            ((Parry, true, false, true), None),
        ];
        for ((p, dodge, parry, agile), want) in cases {
            assert_eq!(
                defence_stat(p, dodge, parry, agile),
                want,
                "{p:?} {dodge} {parry}"
            );
        }
    }

    const TRIO: &str = r#"
system = "cosmos"
kind = "combat"
[attacks.jab]
stat = "force"
damage = "1d6"
[attacks.cut]
stat = "force"
damage = "2d10+5"
[attacks.slash]
stat = "force"
damage = "2d10+5"
[attacks.sweep]
stat = "force"
damage = "3d10"
targets = 2
[combatants.ana]
side = "a"
level = 3
stats = { force = 60, esprit = 35, charisme = 40, agilite = 50, precision = 45, chance = 50 }
hp = 100
attacks = ["jab", "cut", "slash"]
[combatants.bo]
side = "b"
level = 3
stats = { force = 40, esprit = 35, charisme = 40, agilite = 50, precision = 45, chance = 50 }
hp = 100
attacks = ["jab", "sweep"]
"#;

    fn prefer(text: &str) -> Prefer {
        let file = ScenarioFile::from_text("prefer-test.toml", text, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        CombatSim::new(model, CombatRules::default()).prefer
    }

    #[test]
    fn entries_read_the_attacks_of_the_combatants_lists() {
        let file = ScenarioFile::from_text("prefer-test.toml", TRIO, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        let sim = CombatSim::new(model, CombatRules::default());
        for (f, fighter) in sim.model.fighters.iter().enumerate() {
            for (i, &a) in fighter.attacks.iter().enumerate() {
                assert_eq!(sim.prefer.attack(f, i as u8), a, "entry {i} of {f}");
            }
        }
    }

    #[test]
    fn best_tries_the_highest_expected_damage_first_and_the_earlier_of_equals() {
        let p = prefer(TRIO);
        // cut and slash deal the same (16 on average), jab 3.5: cut (entry 1) first.
        assert_eq!(p.order(0, 1, || 1), Some(&[1u8, 2, 0][..]));
        // An attack with two targets weighs the enemies standing: sweep (16.5 a target)
        // over jab (3.5) with one standing, jab first with none (0 x 16.5).
        assert_eq!(p.order(1, 0, || 1), Some(&[1u8, 0][..]));
        assert_eq!(p.order(1, 0, || 0), Some(&[0u8, 1][..]));
        // Ana has no attack with several targets: her order never asks who stands.
        assert_eq!(p.order(0, 1, || unreachable!()), Some(&[1u8, 2, 0][..]));
        // Ana (Agilité 50 < Force 60) parries, Bo (50 >= 40) dodges.
        assert_eq!(
            (p.defence(0, 1), p.defence(1, 1)),
            (Some(FORCE), Some(AGILITE))
        );
        let first = TRIO.replace(
            "attacks = [\"jab\", \"cut\", \"slash\"]",
            "attacks = [\"jab\", \"cut\", \"slash\"]\npolicy = { attack = \"first\" }",
        );
        let p = prefer(&first);
        assert_eq!(p.order(0, 1, || 1), Some(&[0u8, 1, 2][..]));
    }

    #[test]
    fn minus_zero_ties_with_zero_as_in_the_scan() {
        // An attack whose mean is negative against an immune target weighs -0.0; the
        // scan's `>` holds it equal to another's 0.0, so list order decides.
        let file = ScenarioFile::from_text("prefer-test.toml", TRIO, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        let jab = model.fighters[0].attacks[0];
        let p = Prefer::new(&model, |a, _| if a == jab { -0.0 } else { 0.0 }, |_| 50);
        assert_eq!(p.order(0, 1, || 1), Some(&[0u8, 1, 2][..]));
    }

    #[test]
    fn fights_pick_as_the_scan_does() {
        // PM costs make the best attack unaffordable now and then: the test build asserts
        // on every choice that the fixed order picks what the scan would.
        let text = TRIO
            .replace(
                "damage = \"2d10+5\"\n",
                "damage = \"2d10+5\"\npm_cost = 15\n",
            )
            .replace("hp = 100\n", "hp = 100\npm = 40\n");
        let file = ScenarioFile::from_text("prefer-test.toml", &text, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        let sim = CombatSim::new(model, CombatRules::default());
        let acc = super::super::plan::full_run(&sim, "prefer-test", 3, 2000);
        assert_eq!(acc.combats, 2000);
    }

    #[test]
    fn best_element_tries_the_targets_fire_hurts_most_first() {
        const DRAKE: &str = include_str!("../../../../scenarios/cosmos/party-vs-boss.toml");
        let file = ScenarioFile::from_text("party-vs-boss.toml", DRAKE, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        let sim = CombatSim::new(model, CombatRules::default());
        let who = |n: &str| sim.model.fighters.iter().position(|f| f.name == n).unwrap();
        let drake = who("drake");
        let names = |usable: usize| {
            let rank = sim.prefer.ranking(drake, usable).unwrap();
            rank.iter()
                .map(|&g| sim.model.fighters[g as usize].name.as_str())
                .collect::<Vec<_>>()
        };
        // Fire on (C-ELEM column Feu): glace 2, light and no element 1, terre 0.75; the
        // file's combatants come in name order, which breaks the ties (the drake itself
        // is never its own target).
        for usable in 1..4 {
            let want = ["ice_mage", "archer", "drake", "rogue", "lancer"];
            assert_eq!(names(usable), want);
        }
        // No usable attack: every target weighs -inf, so the first standing one.
        let want = ["archer", "drake", "ice_mage", "lancer", "rogue"];
        assert_eq!(names(0), want);
        assert_eq!(sim.prefer.ranking(who("rogue"), 1), None);
        // Whole fights: the test build asserts on every pick that the order picks what
        // the scan would, PM running out and targets falling included.
        let acc = super::super::plan::full_run(&sim, "prefer-test", 5, 300);
        assert_eq!(acc.combats, 300);
    }
}
