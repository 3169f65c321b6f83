//! Target choice (policy `target`, C-LD-6 provocation), with a mask of enemies already
//! chosen so an attack with several targets (`targets = N | "all"`) picks distinct ones
//! in the policy's order.

use crate::dice::Die;

use super::fight::{Fight, NOBODY};
use super::model::TargetPolicy;

impl Fight<'_, '_> {
    #[inline(always)]
    fn open_enemy(&self, f: usize, g: usize, taken: u32) -> bool {
        self.sim.model.fighters[g].side != self.sim.model.fighters[f].side
            && !self.st[g].down
            && taken & (1 << g) == 0
    }

    /// The next target of `f` among standing enemies not in `taken`.
    pub(super) fn choose_target(&mut self, f: usize, taken: u32) -> Option<usize> {
        let p = self.st[f].provoked_by;
        if p != NOBODY && !self.st[p as usize].down && taken & (1 << p) == 0 {
            // C-LD-6 provocation: the next offensive action goes to the holder.
            return Some(p as usize);
        }
        let n = self.sim.n;
        let by_hp = |high: bool| {
            let mut best: Option<usize> = None;
            for g in (0..n).filter(|&g| self.open_enemy(f, g, taken)) {
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
        match self.sim.model.fighters[f].policy.target {
            TargetPolicy::LowestHp => by_hp(false),
            TargetPolicy::HighestHp => by_hp(true),
            TargetPolicy::First => (0..n).find(|&g| self.open_enemy(f, g, taken)),
            TargetPolicy::Named(first, count) => (first..first + count)
                .find(|&g| !self.st[g].down && taken & (1 << g) == 0)
                .or_else(|| by_hp(false)),
            TargetPolicy::BestElement => {
                let mut best: Option<(usize, f64)> = None;
                for g in (0..n).filter(|&g| self.open_enemy(f, g, taken)) {
                    let e = self.best_expected(f, g);
                    if best.is_none_or(|(_, b)| e > b) {
                        best = Some((g, e));
                    }
                }
                best.map(|b| b.0)
            }
            TargetPolicy::Random => {
                let count = (0..n).filter(|&g| self.open_enemy(f, g, taken)).count();
                if count == 0 {
                    return None;
                }
                let pick = Die::new(count as u64)
                    .map(|d| d.index(self.rng) as usize)
                    .unwrap_or(0);
                (0..n).filter(|&g| self.open_enemy(f, g, taken)).nth(pick)
            }
        }
    }

    /// Standing enemies of `f`.
    pub(super) fn enemies_standing(&self, f: usize) -> usize {
        (0..self.sim.n)
            .filter(|&g| self.open_enemy(f, g, 0))
            .count()
    }
}
