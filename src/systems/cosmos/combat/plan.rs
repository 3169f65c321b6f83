//! The fight plan (issue 29): which optional rules a run's fights use, fixed once per run.
//! The turn loop is compiled once per plan. A plan that leaves a group out turns every
//! check of that group into a constant `false` the compiler removes, so a fight pays
//! nothing for what it does not use. Three groups: fatigue (C-FAT tracks, exhaustion,
//! fatigue carried in from an expedition), every other optional feature (policy rules,
//! support actions and their effects, aura, periodic effects, events, armour, HP costs,
//! limited uses), and the Light/Dark postures (out when no combatant may ever spend a
//! point: its states and multipliers stay neutral, so the checks of every turn, test and
//! hit go; points that react between actions belong here, since only a posture spends
//! them). A plan only removes work: a fight draws and counts the same under any plan that
//! keeps what it uses (tests below).

use super::sim::CombatSim;

pub(super) trait Plan {
    /// Whether the optional features other than fatigue are checked at all.
    const FEATURES: bool;
    /// Whether fatigue is checked at all.
    const FATIGUE: bool;
    /// Whether a Light/Dark posture may ever begin (C-LD-2..6).
    const POSTURES: bool;
    /// Whether a turn may be lost (an Illumination backlash, a periodic effect): only
    /// then is `skip_round` ever set.
    const SKIPS: bool = Self::POSTURES || Self::FEATURES;
    /// Whether this plan plays the start of a fight where points may be spent but none
    /// has been yet ([`Waking`]): the postures group is out, and the loop hands the fight
    /// to [`Plan::Awake`] at the first moment a point might be spent.
    const WAKES: bool = false;
    /// The plan that goes on from where a [`Plan::WAKES`] plan stops; itself otherwise.
    type Awake: Plan;

    /// A run flag of the features group as this plan sees it.
    #[inline(always)]
    fn on(flag: bool) -> bool {
        Self::FEATURES && flag
    }

    /// A run flag of the fatigue group as this plan sees it.
    #[inline(always)]
    fn tired(flag: bool) -> bool {
        Self::FATIGUE && flag
    }
}

/// The plan with the groups `FEATURES`, `FATIGUE` and `POSTURES` in.
pub(super) enum Flags<const FEATURES: bool, const FATIGUE: bool, const POSTURES: bool = true> {}

impl<const FEATURES: bool, const FATIGUE: bool, const POSTURES: bool> Plan
    for Flags<FEATURES, FATIGUE, POSTURES>
{
    const FEATURES: bool = FEATURES;
    const FATIGUE: bool = FATIGUE;
    const POSTURES: bool = POSTURES;
    type Awake = Self;
}

/// The plan of a run whose combatants may spend points, for the start of each fight:
/// until a point might be spent every posture state is neutral, so the turn loop runs
/// without the postures group, and at that moment (the checks `try_points` would make,
/// before it makes them) the fight goes on under `Flags<FEATURES, FATIGUE>` with the
/// same state (`Fight::awake`). A boss fight's first ally down, an HP trigger's first
/// crossing: most fights spend half their actions or more before either.
pub(super) enum Waking<const FEATURES: bool, const FATIGUE: bool> {}

impl<const FEATURES: bool, const FATIGUE: bool> Plan for Waking<FEATURES, FATIGUE> {
    const FEATURES: bool = FEATURES;
    const FATIGUE: bool = FATIGUE;
    const POSTURES: bool = false;
    const WAKES: bool = true;
    type Awake = Flags<FEATURES, FATIGUE>;
}

/// Nothing optional but postures.
pub(super) type Plain = Flags<false, false>;
/// Nothing optional at all: the duel.
pub(super) type Bare = Flags<false, false, false>;
/// Everything read from the run's flags: any fight, and what a trace uses.
pub(super) type Full = Flags<true, true>;

impl CombatSim {
    /// Whether the run uses some optional feature other than fatigue, and fatigue.
    pub(super) fn plan(&self) -> (bool, bool) {
        let m = &self.model;
        let features = self.any_limited
            || self.any_hp_cost
            || self.any_armour
            || self.any_aura
            || self.any_rules
            || self.any_effects
            || self.any_focus
            || self.any_mods
            || self.any_support
            || self.any_periodic
            || !m.events.is_empty();
        let fatigue = self.any_fatigue || self.carried || m.fatigue.on;
        (features, fatigue)
    }

    /// Runs `work` under this run's plan: the one place a plan is chosen.
    pub(super) fn in_plan<T: PlanWork>(&self, work: T) -> T::Out {
        // Scripted arrivals spend points in the middle of a round's events: such runs
        // keep the postures group from the start rather than wake there.
        let waking = self.any_posture && self.model.events.is_empty();
        match (self.plan(), self.any_posture, waking) {
            ((false, false), _, true) => work.run::<Waking<false, false>>(),
            ((true, false), _, true) => work.run::<Waking<true, false>>(),
            ((false, true), _, true) => work.run::<Waking<false, true>>(),
            ((true, true), _, true) => work.run::<Waking<true, true>>(),
            ((false, false), false, _) => work.run::<Bare>(),
            ((false, false), true, _) => work.run::<Plain>(),
            ((true, false), false, _) => work.run::<Flags<true, false, false>>(),
            ((true, false), true, _) => work.run::<Flags<true, false>>(),
            ((false, true), false, _) => work.run::<Flags<false, true, false>>(),
            ((false, true), true, _) => work.run::<Flags<false, true>>(),
            ((true, true), false, _) => work.run::<Flags<true, true, false>>(),
            ((true, true), true, _) => work.run::<Full>(),
        }
    }
}

/// Work generic over the plan (a batch of combats, one linked combat): a closure cannot be
/// generic, so the callers of [`CombatSim::in_plan`] name their work as a type.
pub(super) trait PlanWork {
    type Out;
    fn run<P: Plan>(self) -> Self::Out;
}

/// Test builds: `trials` combats of `sim` from the stream of `key` and `seed`, under the
/// full plan (every check of the test build on), counted.
#[cfg(test)]
pub(super) fn full_run(
    sim: &super::sim::CombatSim,
    key: &str,
    seed: u64,
    trials: u64,
) -> super::acc::CombatAcc {
    let draws = crate::engine::Draws::new(seed, &crate::engine::StreamKey::new(key), 0);
    let mut acc = sim.empty_acc();
    let batch = super::sim::Batch {
        sim,
        draws: &draws,
        trials,
        acc: &mut acc,
    };
    batch.run::<Full>();
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Draws, StreamKey};
    use crate::scenario::ScenarioFile;

    use super::super::options::CombatRules;
    use super::super::{scenario, sim::Batch};

    /// Postures (points at the start and on turn starts, so none reacts between actions),
    /// a Final Skill, PM costs, two attacks each, four combatants and every target policy
    /// but `named`: all of it runs under the plain plan.
    const BAND: &str = r#"
system = "cosmos"
kind = "combat"
[combat]
max_rounds = 30
[attacks.greatsword]
stat = "force"
damage = "2d10+8"
element = "metal"
[attacks.shadow_bolt]
stat = "esprit"
damage = "3d8+2"
element = "dark"
pm_cost = 20
[attacks.requiem]
stat = "esprit"
damage = "6d10+20"
element = "dark"
pm_cost = 40
unparryable = true
[attacks.axe]
stat = "force"
damage = "2d8+4"
element = "metal"
[combatants.hero]
side = "party"
level = 5
level5_dark = 3
stats = { force = 70, esprit = 55, charisme = 40, agilite = 60, precision = 50, chance = 50 }
hp = 200
pm = 160
mode = "defensive"
element = "dark"
attacks = ["greatsword", "shadow_bolt"]
final_skill = "requiem"
[combatants.hero.policy]
dark_on_turn_start = true
final_skill = "second_turn"
target = "lowest_hp"
[combatants.mira]
side = "party"
level = 3
stats = { force = 40, esprit = 65, charisme = 50, agilite = 60, precision = 62, chance = 45 }
hp = 130
pm = 60
mode = "offensive"
attacks = ["shadow_bolt", "axe"]
[combatants.mira.policy]
light_at_start = true
target = "best_element"
[combatants.warlord]
side = "raiders"
level = 4
stats = { force = 75, esprit = 30, charisme = 55, agilite = 60, precision = 50, chance = 40 }
hp = 170
mode = "offensive"
element = "terre"
attacks = ["greatsword"]
[combatants.warlord.policy]
target = "highest_hp"
[combatants.raider]
side = "raiders"
count = 2
level = 2
stats = { force = 55, esprit = 30, charisme = 35, agilite = 52, precision = 45, chance = 45 }
hp = 70
mode = "defensive"
attacks = ["axe"]
[combatants.raider.policy]
target = "random"
"#;

    fn sim(text: &str) -> CombatSim {
        let file = ScenarioFile::from_text("plan-test.toml", text, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        CombatSim::new(model, CombatRules::default())
    }

    fn counted<P: Plan>(sim: &CombatSim, trials: u64) -> super::super::acc::CombatAcc {
        let draws = Draws::new(7, &StreamKey::new("plan-test"), 0);
        let mut acc = sim.empty_acc();
        Batch {
            sim,
            draws: &draws,
            trials,
            acc: &mut acc,
        }
        .run::<P>();
        acc
    }

    #[test]
    fn every_plan_counts_a_plain_fight_as_the_full_one_does() {
        let band = sim(BAND);
        assert_eq!(band.plan(), (false, false));
        let full = counted::<Full>(&band, 4000);
        assert_eq!(counted::<Plain>(&band, 4000), full);
        assert_eq!(counted::<Flags<true, false>>(&band, 4000), full);
        assert_eq!(counted::<Flags<false, true>>(&band, 4000), full);
        // The fights did use what the plan keeps: postures, and more than one ending.
        let points: u64 = full
            .fighters
            .iter()
            .map(|f| f.posture[0].entered + f.posture[1].entered)
            .sum();
        assert!(points > 0 && full.outcome.iter().filter(|&&c| c > 0).count() >= 2);
    }

    #[test]
    fn a_fight_where_no_point_can_be_spent_counts_the_same_without_postures() {
        // The shipped duel: a point of each kind (C-LD-1, below level 5), no trigger.
        let duel = sim(include_str!("../../../../scenarios/cosmos/duel.toml"));
        assert_eq!((duel.plan(), duel.any_posture), ((false, false), false));
        let full = counted::<Full>(&duel, 4000);
        assert_eq!(counted::<Bare>(&duel, 4000), full);
        // With the features and fatigue groups in too (a policy rule, fatigue).
        let ruled = BAND
            .replace("dark_on_turn_start = true\n", "")
            .replace("light_at_start = true\n", "")
            .replace("final_skill = \"second_turn\"\n", "")
            .replacen("max_rounds = 30\n", "max_rounds = 30\nfatigue = true\n", 1)
            .replacen(
                "target = \"random\"\n",
                "target = \"random\"\n[[combatants.raider.policy.rules]]\n\
                 when = { round_at_least = 3 }\nmode = \"offensive\"\n",
                1,
            );
        let ruled = sim(&ruled);
        assert_eq!((ruled.plan(), ruled.any_posture), ((true, true), false));
        assert_eq!(
            counted::<Flags<true, true, false>>(&ruled, 3000),
            counted::<Full>(&ruled, 3000)
        );
        // A trigger that can spend a point brings the postures back, and they matter.
        let lit = sim(
            &include_str!("../../../../scenarios/cosmos/duel.toml").replacen(
                "attacks = [\"sword\"]\n",
                "attacks = [\"sword\"]\npolicy = { light_at_start = true }\n",
                1,
            ),
        );
        assert!(lit.any_posture && sim(BAND).any_posture);
        let lit = counted::<Full>(&lit, 4000);
        assert!(lit.fighters[0].posture[0].entered > 0 && lit != full);
    }

    #[test]
    fn points_that_react_between_actions_need_only_the_postures_group() {
        // party-vs-boss.toml: the lancer's Light point below half HP and the rogue's Dark
        // one below 30% (C-LD-2, spent between actions), and no other optional feature.
        let s = sim(include_str!(
            "../../../../scenarios/cosmos/party-vs-boss.toml"
        ));
        assert!(s.any_reactive && s.any_posture);
        assert_eq!(s.plan(), (false, false));
        let full = counted::<Full>(&s, 3000);
        assert_eq!(counted::<Plain>(&s, 3000), full);
        let spent: u64 = full
            .fighters
            .iter()
            .map(|f| f.posture[0].entered + f.posture[1].entered)
            .sum();
        assert!(spent > 1000, "points were spent: {spent}");
    }

    #[test]
    fn a_fixed_turn_order_counts_as_the_order_built_each_round() {
        // No posture: the order before the d20s is fixed for the run when everyone acts
        // once (ties of three at Agilité 60 and two at 52, combatants going down), and
        // built each round when one acts twice (C-TURN-1, C-TURN-2).
        let calm = BAND
            .replace("dark_on_turn_start = true\n", "")
            .replace("light_at_start = true\n", "")
            .replace("final_skill = \"second_turn\"\n", "");
        let twice = calm.replacen("hp = 170\n", "hp = 170\nactions = 2\n", 1);
        for (text, fixed) in [(&calm, true), (&twice, false)] {
            let s = sim(text);
            assert_eq!((s.plan(), s.any_posture), ((false, false), false));
            assert_eq!(s.run_order.fixed, fixed);
            let full = counted::<Full>(&s, 3000);
            assert_eq!(counted::<Bare>(&s, 3000), full);
            let downs: u64 = full.fighters.iter().map(|f| f.down).sum();
            assert!(downs > 3000, "combatants fall during the fights");
        }
    }

    #[test]
    fn a_plan_that_keeps_the_features_in_use_counts_as_the_full_one() {
        // Armour, a limited attack: the features group; fatigue: its own. An HP trigger
        // (reacts between actions) is the postures group's.
        let features = |text: &str| {
            let s = sim(text);
            assert_eq!(s.plan(), (true, false));
            assert_eq!(
                counted::<Flags<true, false>>(&s, 2000),
                counted::<Full>(&s, 2000)
            );
        };
        for (from, to) in [
            ("hp = 170\n", "hp = 170\narmour = { flat = 3 }\n"),
            ("pm_cost = 40\n", "pm_cost = 40\nuses = 1\n"),
        ] {
            assert!(BAND.contains(from));
            features(&BAND.replacen(from, to, 1));
        }
        let reacts = sim(&BAND.replacen("dark_on_turn_start = true", "dark_below_hp = 0.5", 1));
        assert_eq!(reacts.plan(), (false, false));
        assert_eq!(
            counted::<Plain>(&reacts, 2000),
            counted::<Full>(&reacts, 2000)
        );
        let tired =
            sim(&BAND.replacen("max_rounds = 30\n", "max_rounds = 30\nfatigue = true\n", 1));
        assert_eq!(tired.plan(), (false, true));
        let full = counted::<Full>(&tired, 2000);
        assert_eq!(counted::<Flags<false, true>>(&tired, 2000), full);
        // Dropping fatigue where it is used does change the count: the plan matters.
        assert_ne!(counted::<Plain>(&tired, 2000), full);
    }
    #[test]
    fn an_order_that_reads_the_fp_tracks_counts_the_same_under_its_plan() {
        // `fatigue_turn_order = yes` (C-TURN-1, C-FAT-4): the warlord starts at FP 5
        // (light, -5: 55, no longer tied with the two at 60) and every track moves, so the
        // order is built each round from the tracks; the plan with fatigue counts as the
        // full one, and the option moves the counts.
        let text = BAND
            .replacen("max_rounds = 30\n", "max_rounds = 30\nfatigue = true\n", 1)
            .replacen("hp = 170\n", "hp = 170\nfp_start = 5\n", 1);
        let file = ScenarioFile::from_text("plan-test.toml", &text, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        let rules = CombatRules {
            fatigue_turn_order: true,
            ..CombatRules::default()
        };
        let on = CombatSim::new(model, rules);
        let off = sim(&text);
        assert_eq!(on.plan(), (false, true));
        assert!(on.fatigue_order && !on.run_order.fixed && !off.fatigue_order);
        let full = counted::<Full>(&on, 2000);
        assert_eq!(counted::<Flags<false, true>>(&on, 2000), full);
        assert_ne!(counted::<Full>(&off, 2000), full);
    }

    /// `trials` combats of `sim` under `Waking<F, T>` (as `counted`), and how often the
    /// fights woke at each place (`Fight::woke`).
    fn waking<const F: bool, const T: bool>(
        sim: &CombatSim,
        trials: u64,
    ) -> (super::super::acc::CombatAcc, [u64; 5]) {
        let draws = Draws::new(7, &StreamKey::new("plan-test"), 0);
        let mut acc = sim.empty_acc();
        let mut rng = draws.trial(0);
        let mut fight: super::super::fight::Fight<'_, '_, _, Waking<F, T>> =
            super::super::fight::Fight::new(sim, &mut rng, &mut acc);
        for j in 0..trials {
            *fight.rng = draws.trial(j);
            fight.combat();
        }
        let woke = fight.woke;
        (acc, woke)
    }

    #[test]
    fn a_waking_plan_counts_as_the_full_one_wherever_it_wakes() {
        // Each file wakes where its first point may be spent: at the start (BAND's
        // `light_at_start`), at a turn start (`dark_on_turn_start`; ties at Agilité 60
        // and 52 make exchanges), between actions (HP triggers, an ally down, spend
        // rules), alone in a slot or after an exchange; the test build's checks (HP
        // mask, gates, kept orders) run throughout.
        let on_turn = BAND.replace("light_at_start = true\n", "");
        let ally_down = on_turn.replace("dark_on_turn_start = true", "dark_when_ally_down = true");
        let hp = on_turn.replace("dark_on_turn_start = true", "dark_below_hp = 0.6");
        let boss = include_str!("../../../../scenarios/cosmos/boss-fight.toml");
        let drake = include_str!("../../../../scenarios/cosmos/party-vs-boss.toml");
        let tired = drake.replacen("[combat]\n", "[combat]\nfatigue = true\n", 1);
        let ambush = include_str!("../../../../scenarios/cosmos/wounded-ambush.toml");
        let apocalypse = include_str!("../../../../scenarios/cosmos/apocalypse.toml");
        let mut woke = [0u64; 5];
        let cases: [(&str, &str, [bool; 5]); 8] = [
            ("band", BAND, [true, false, false, false, false]),
            ("on turn start", &on_turn, [false, true, false, true, false]),
            ("ally down", &ally_down, [false, false, true, false, false]),
            ("hp", &hp, [false, false, true, false, false]),
            ("boss-fight", boss, [false, false, true, false, false]),
            (
                "party-vs-boss, tired",
                &tired,
                [false, false, true, false, false],
            ),
            ("wounded-ambush", ambush, [false, false, true, false, false]),
            ("apocalypse", apocalypse, [false, false, true, false, false]),
        ];
        for (name, text, wakes) in cases {
            let s = sim(text);
            assert!(s.any_posture && s.model.events.is_empty(), "{name}");
            let trials = 1500;
            let ((acc, w), full) = match s.plan() {
                (false, false) => (
                    waking::<false, false>(&s, trials),
                    counted::<Plain>(&s, trials),
                ),
                (true, false) => (
                    waking::<true, false>(&s, trials),
                    counted::<Flags<true, false>>(&s, trials),
                ),
                (false, true) => (
                    waking::<false, true>(&s, trials),
                    counted::<Flags<false, true>>(&s, trials),
                ),
                (true, true) => (
                    waking::<true, true>(&s, trials),
                    counted::<Full>(&s, trials),
                ),
            };
            assert!(acc == full, "{name}: the waking plan counted otherwise");
            for (i, &want) in wakes.iter().enumerate() {
                if want {
                    assert!(w[i] > 0, "{name} never woke at {i}: {w:?}");
                }
                woke[i] += w[i];
            }
            // Points were spent, and each fight woke once at most.
            let spent = acc
                .fighters
                .iter()
                .map(|f| f.posture[0].entered + f.posture[1].entered)
                .sum::<u64>();
            let n_woke: u64 = w.iter().sum();
            assert!(spent > 0 && n_woke <= trials, "{name}: {w:?}");
            if wakes[2] {
                // Woken between actions: some fights never spent a point at all.
                assert!(n_woke < trials, "{name} woke in every fight: {w:?}");
            }
        }
        assert!(
            woke.iter().all(|&c| c > 0),
            "every place to wake is tried: {woke:?}"
        );
    }
}
