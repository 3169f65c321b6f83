//! Target choice (policy `target`, C-LD-6 provocation), with a mask of enemies already
//! chosen so an attack with several targets (`targets = N | "all"`) picks distinct ones
//! in the policy's order.

use crate::dice::Die;
use crate::systems::mask::bits;

use super::fight::Fight;
use super::model::{TargetPolicy, MAX_FIGHTERS};
use super::state::NOBODY;

impl<W: super::watch::Watch, P: super::plan::Plan> Fight<'_, '_, W, P> {
    /// Standing enemies of `f` not in `taken`, as a mask (bit g).
    #[inline(always)]
    fn open_enemies(&self, f: usize, taken: u32) -> u32 {
        self.sim.enemy_mask[f] & !taken & !self.down_mask()
    }

    /// The next target of `f` among standing enemies not in `taken`.
    #[inline]
    pub(super) fn choose_target(&mut self, f: usize, taken: u32) -> Option<usize> {
        let p = self.st[f].provoked_by;
        if P::POSTURES && p != NOBODY && !self.st[p as usize].down && taken & (1 << p) == 0 {
            // C-LD-6 provocation: the next offensive action goes to the holder.
            return Some(p as usize);
        }
        // The candidates, once per choice (nothing below changes them).
        let open = self.open_enemies(f, taken);
        if open & open.wrapping_sub(1) == 0 && self.sim.picks_alone[f] {
            // One enemy left to choose from (a duel, a party against one beast):
            // `lowest_hp`, `highest_hp`, `first` and `best_element` all pick it, so skip
            // the comparison. `random` still draws, `named` reads its list.
            let lone = (open != 0).then(|| open.trailing_zeros() as usize);
            // These policies draw nothing, so the test build may ask the long way too.
            #[cfg(test)]
            assert_eq!(
                lone,
                self.choose_by_policy(f, taken, open),
                "lone pick of {f}"
            );
            return lone;
        }
        self.choose_by_policy(f, taken, open)
    }

    /// The target policy's choice among `open` (standing enemies not in `taken`).
    #[inline(never)]
    fn choose_by_policy(&mut self, f: usize, taken: u32, open: u32) -> Option<usize> {
        let policy = self.sim.model.fighters[f].policy.target;
        let by_hp = |high: bool| {
            let mut best: Option<usize> = None;
            for g in bits(open) {
                let better = match best {
                    None => true,
                    Some(b) if high => self.st[g].hp > self.st[b].hp,
                    Some(b) => self.st[g].hp < self.st[b].hp,
                };
                if better {
                    best = Some(g);
                }
            }
            best
        };
        match policy {
            TargetPolicy::LowestHp => by_hp(false),
            TargetPolicy::HighestHp => by_hp(true),
            TargetPolicy::First => bits(open).next(),
            TargetPolicy::Named(first, count) => (first..first + count)
                .find(|&g| !self.st[g].down && taken & (1 << g) == 0)
                .or_else(|| by_hp(false)),
            TargetPolicy::BestElement => {
                // Which attacks `f` can use does not depend on the target: once per choice.
                let fighter = &self.sim.model.fighters[f];
                let mut usable = 0usize;
                for (i, &a) in fighter.attacks.iter().enumerate() {
                    if self.available(f, i, a) {
                        usable |= 1 << i;
                    }
                }
                let Some(rank) = self.sim.prefer.ranking(f, usable) else {
                    return self.best_element_scan(f, usable, open);
                };
                // The run's fixed order (`prefer.rs`): the first one still open.
                let pick = rank
                    .iter()
                    .map(|&g| g as usize)
                    .find(|&g| open >> g & 1 != 0);
                #[cfg(test)]
                assert_eq!(pick, self.best_element_scan(f, usable, open), "rank of {f}");
                pick
            }
            TargetPolicy::Random => {
                let count = open.count_ones();
                if count == 0 {
                    return None;
                }
                let pick = Die::new(count as u64)
                    .map(|d| d.index(self.rng) as usize)
                    .unwrap_or(0);
                bits(open).nth(pick)
            }
        }
    }

    /// `best_element` by weighing every target in `open`: the highest expected damage of
    /// an attack in `usable` (entries of `f`'s list), the first of equals.
    fn best_element_scan(&self, f: usize, usable: usize, open: u32) -> Option<usize> {
        let list = &self.sim.model.fighters[f].attacks;
        let mut best: Option<(usize, f64)> = None;
        for g in bits(open) {
            // As `best_expected`: the highest expected damage of a usable attack.
            let e = (0..list.len())
                .filter(|i| usable >> i & 1 != 0)
                .map(|i| self.sim.expected(list[i], g))
                .fold(f64::NEG_INFINITY, f64::max);
            if best.is_none_or(|(_, b)| e > b) {
                best = Some((g, e));
            }
        }
        best.map(|b| b.0)
    }

    /// The further targets of an attack of `f` on `list[0]` that hits `want` enemies:
    /// the policy's picks with those before set aside, in order; returns how many
    /// targets `list` holds.
    #[inline(always)]
    pub(super) fn more_targets(
        &mut self,
        f: usize,
        want: usize,
        list: &mut [u8; MAX_FIGHTERS],
    ) -> usize {
        let mut len = 1;
        let mut taken = 1u32 << list[0];
        let sign = match self.sim.model.fighters[f].policy.target {
            TargetPolicy::LowestHp => 1,
            TargetPolicy::HighestHp => -1,
            TargetPolicy::First => 0,
            _ => {
                while len < want {
                    let Some(g) = self.choose_target(f, taken) else {
                        break;
                    };
                    taken |= 1 << g;
                    list[len] = g as u8;
                    len += 1;
                }
                return len;
            }
        };
        // These policies read only HP and index, and nothing moves between the picks
        // (the provocation was spent on the first one, `take_action`): each next pick is
        // the next of the others sorted by (HP the policy's way, index), one pass instead
        // of one comparison of them all per pick (the warlord's quake, four targets).
        let open = self.open_enemies(f, taken);
        let mut keys = [0i32; MAX_FIGHTERS];
        for g in bits(open) {
            let k = sign * self.st[g].hp;
            let mut i = len;
            // After every equal key: the lower index first, as the strict comparisons.
            while i > 1 && keys[i - 1] > k {
                keys[i] = keys[i - 1];
                list[i] = list[i - 1];
                i -= 1;
            }
            keys[i] = k;
            list[i] = g as u8;
            len += 1;
        }
        let len = len.min(want);
        #[cfg(test)]
        {
            let mut slow = [list[0]; MAX_FIGHTERS];
            let mut n = 1;
            while n < want {
                let Some(g) = self.choose_target(f, taken) else {
                    break;
                };
                taken |= 1 << g;
                slow[n] = g as u8;
                n += 1;
            }
            assert_eq!(list[..len], slow[..n], "the targets of {f} in one pass");
        }
        len
    }

    /// Standing enemies of `f`.
    pub(super) fn enemies_standing(&self, f: usize) -> usize {
        self.open_enemies(f, 0).count_ones() as usize
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Draws, StreamKey};
    use crate::scenario::ScenarioFile;

    use super::super::options::CombatRules;
    use super::super::plan::{Full, Plan, PlanWork};
    use super::super::{scenario, sim::Batch, sim::CombatSim};

    const BOSS: &str = include_str!("../../../../scenarios/cosmos/boss-fight.toml");

    /// `trials` combats of `text` under plan `P`: test builds compare each area
    /// attack's targets in one pass (`more_targets`) with the policy's picks one by one.
    fn fights<P: Plan>(text: &str, trials: u64) -> super::super::acc::CombatAcc {
        let file = ScenarioFile::from_text("target-test.toml", text, crate::lang::Lang::En);
        let (_, model) = scenario::load(&file).unwrap();
        let sim = CombatSim::new(model, CombatRules::default());
        let draws = Draws::new(7, &StreamKey::new("target-test"), 0);
        let mut acc = sim.empty_acc();
        Batch {
            sim: &sim,
            draws: &draws,
            trials,
            acc: &mut acc,
        }
        .run::<P>();
        acc
    }

    #[test]
    fn area_targets_in_one_pass_are_the_picks_one_by_one() {
        // The warlord's quake hits every standing party member; the same with each
        // sorting policy, and a quake of two targets (the pass cut short).
        for policy in ["lowest_hp", "highest_hp", "first"] {
            let file = BOSS.replace("\"lowest_hp\"", &format!("\"{policy}\""));
            assert!(file.contains(&format!("target = \"{policy}\"")));
            fights::<Full>(&file, 1500);
            let two = file.replace("targets = \"all\"", "targets = 2");
            assert_ne!(two, file);
            fights::<Full>(&two, 1500);
        }
    }
}
