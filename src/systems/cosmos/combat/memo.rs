//! The last target a `lowest_hp` or `highest_hp` chooser took with no enemy set aside
//! (issue 29): kept until an input of that choice moves, so the turn loop does not
//! compare every enemy's HP again on each action (the warlord of `boss-fight.toml` picks
//! the same party member on most of its actions).
//!
//! The choice reads the open enemies (standing, C-CMB-5) and their HP: the first of the
//! lowest (or highest) HP in index order (`target.rs`). It still holds while the open set
//! is the same, no other enemy's HP moved, and the pick's own HP moved only further the
//! policy's way (lower for `lowest_hp`, higher for `highest_hp`): it then stands strictly
//! apart from every other enemy or where it stood. Every HP write of the fight goes
//! through `Fight::hp_moved`, which drops the memos that read the HP that moved; the open
//! set and the pick's HP are compared on each read. Test builds compare every memo read
//! with the full comparison (`target.rs`).

use crate::systems::mask::bits;

use super::model::{CombatModel, TargetPolicy, MAX_FIGHTERS};

/// One chooser's last pick: the open enemies it chose among, the target, its HP then.
#[derive(Clone, Copy)]
struct Pick {
    open: u32,
    hp: i32,
    target: u8,
}

/// The memos of one fight.
#[derive(Clone, Copy)]
pub(super) struct TargetMemo {
    /// Whether some chooser reads HP at all (else HP writes skip the memo).
    any: bool,
    /// Bit f: `pick[f]` holds as far as the HP writes tell.
    ok: u32,
    /// Bit f: `f` takes the highest HP (else the lowest).
    high: u32,
    /// Per combatant g: the choosers whose choice reads g's HP (`lowest_hp` or
    /// `highest_hp` with g an enemy), fixed for the run.
    watch: [u32; MAX_FIGHTERS],
    /// Per combatant g: the choosers whose last pick is g.
    on: [u32; MAX_FIGHTERS],
    pick: [Pick; MAX_FIGHTERS],
    /// Test builds: how many choices the memo answered.
    #[cfg(test)]
    pub(super) hits: u64,
}

impl TargetMemo {
    /// For the combatants of `model`, whose enemies are `enemy_mask` (bit g).
    pub(super) fn new(model: &CombatModel, enemy_mask: &[u32; MAX_FIGHTERS]) -> TargetMemo {
        let mut watch = [0u32; MAX_FIGHTERS];
        let mut high = 0u32;
        for (f, fighter) in model.fighters.iter().enumerate() {
            let policy = fighter.policy.target;
            if !matches!(policy, TargetPolicy::LowestHp | TargetPolicy::HighestHp) {
                continue;
            }
            // One enemy or none: the open set alone decides (the read compares it), and
            // the lone pick in `target.rs` asks the memo only in test builds.
            let enemies = enemy_mask[f];
            if enemies & enemies.wrapping_sub(1) == 0 {
                continue;
            }
            high |= u32::from(policy == TargetPolicy::HighestHp) << f;
            for g in bits(enemies) {
                watch[g] |= 1 << f;
            }
        }
        TargetMemo {
            any: watch.iter().any(|&w| w != 0),
            ok: 0,
            high,
            watch,
            on: [0; MAX_FIGHTERS],
            pick: [Pick {
                open: 0,
                hp: 0,
                target: 0,
            }; MAX_FIGHTERS],
            #[cfg(test)]
            hits: 0,
        }
    }

    /// A new combat: no pick holds (HP are set without `hp_moved`).
    #[inline(always)]
    pub(super) fn clear(&mut self) {
        self.ok = 0;
    }

    /// `g`'s HP moved: every memo that reads it drops, but those that picked `g` (their
    /// read compares its HP).
    #[inline(always)]
    pub(super) fn moved(&mut self, g: usize) {
        if self.any {
            self.ok &= !(self.watch[g] & !self.on[g]);
        }
    }

    /// `f`'s pick among `open` when its memo still holds; `hp(g)` is g's HP now.
    #[inline(always)]
    pub(super) fn get(&self, f: usize, open: u32, hp: impl Fn(usize) -> i32) -> Option<usize> {
        if self.ok >> f & 1 == 0 {
            return None;
        }
        let p = &self.pick[f];
        if p.open != open {
            return None;
        }
        let t = usize::from(p.target);
        let now = hp(t);
        let holds = if self.high >> f & 1 != 0 {
            now >= p.hp
        } else {
            now <= p.hp
        };
        holds.then_some(t)
    }

    /// `f` took `target` among `open`, whose HP is `hp`.
    #[inline(always)]
    pub(super) fn put(&mut self, f: usize, open: u32, target: usize, hp: i32) {
        let old = usize::from(self.pick[f].target);
        self.on[old] &= !(1 << f);
        self.on[target] |= 1 << f;
        self.pick[f] = Pick {
            open,
            hp,
            target: target as u8,
        };
        self.ok |= 1 << f;
    }

    /// Test builds: drop `g` from the HP writes watched, as a writer that forgot
    /// `hp_moved` would (the memo tests must then fail).
    #[cfg(test)]
    pub(super) fn forget(&mut self, g: usize) {
        self.watch[g] = 0;
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Draws, StreamKey};
    use crate::scenario::ScenarioFile;

    use super::super::fight::Fight;
    use super::super::options::CombatRules;
    use super::super::plan::Full;
    use super::super::{scenario, sim::CombatSim};

    const BOSS: &str = include_str!("../../../../scenarios/cosmos/boss-fight.toml");

    fn sim(text: &str) -> CombatSim {
        let file = ScenarioFile::from_text("memo-test.toml", text, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        CombatSim::new(model, CombatRules::default())
    }

    /// `trials` combats of `text` under the full plan, `forget` applied to the memo
    /// first; how many choices the memo answered. Test builds compare every answer with
    /// the full comparison (`target.rs`), and an area attack's one pass with the picks
    /// one by one.
    fn hits(text: &str, trials: u64, forget: &[usize]) -> u64 {
        let sim = sim(text);
        let draws = Draws::new(7, &StreamKey::new("memo-test"), 0);
        let mut acc = sim.empty_acc();
        let mut rng = draws.trial(0);
        let mut fight: Fight<'_, '_, _, Full> = Fight::new(&sim, &mut rng, &mut acc);
        for &g in forget {
            fight.memo.forget(g);
        }
        for j in 0..trials {
            *fight.rng = draws.trial(j);
            fight.combat();
        }
        fight.memo.hits
    }

    #[test]
    fn kept_targets_are_the_targets_the_comparison_takes() {
        // The warlord takes the lowest HP of four with a quake on all of them; then the
        // highest HP, and `first` (the area attack's one pass alone).
        assert!(hits(BOSS, 1500, &[]) > 10_000);
        for policy in ["highest_hp", "first"] {
            let file = BOSS.replace("\"lowest_hp\"", &format!("\"{policy}\""));
            assert_ne!(file, BOSS);
            hits(&file, 1500, &[]);
        }
        for file in [
            include_str!("../../../../scenarios/cosmos/apocalypse.toml"),
            include_str!("../../../../scenarios/cosmos/party-vs-boss.toml"),
            include_str!("../../../../scenarios/cosmos/wounded-ambush.toml"),
        ] {
            hits(file, 1000, &[]);
        }
    }

    #[test]
    #[should_panic(expected = "is stale")]
    fn a_memo_that_misses_an_hp_write_is_caught() {
        // The party's HP writes no longer drop the warlord's memo, as if a writer of HP
        // skipped `hp_moved`: a read goes stale within a few fights.
        hits(BOSS, 1500, &[0, 1, 2, 3]);
    }
}
