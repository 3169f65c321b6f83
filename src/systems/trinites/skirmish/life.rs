//! A skirmish fighter's moves, wounds and regeneration (LES ACTIONS: Se déplacer; LES
//! LIGNES DE VIE; VIE ET MORT; T-LIFE, T-COMBAT), each step told to the fight's watcher.

use crate::engine::Rng64;
use crate::systems::trace::Watch;
use crate::systems::trinites::roll_test;
use crate::systems::trinites::track::Zone;
use crate::systems::trinites::words::{LifeStep, Roll};
use crate::systems::trinites::wound;

use super::model::{Cover, RegenAt};
use super::sim::Fight;
use super::trace::Step;

impl<W: Watch<Step>> Fight<'_, W> {
    /// Se déplacer (a free action): the first move of a turn over 10 m or less succeeds;
    /// a longer one is an Athlétisme test (+3 up to 10 m, -3 from 20 m); on a failure the
    /// mover stops halfway. Leaving one's post leaves its cover.
    #[inline]
    pub(super) fn step(
        &mut self,
        rng: &mut Rng64,
        i: usize,
        dest: u8,
        free: i64,
        first_move: bool,
    ) {
        let s = self.st[i];
        let travel = if s.travel > 0 && s.dest == dest {
            s.travel
        } else {
            self.s.dist(s.spot, dest)
        };
        let mut test = None;
        let arrived = if first_move && travel <= 10 {
            true
        } else {
            let diff = if travel <= 10 {
                3
            } else if travel >= 20 {
                -3
            } else {
                0
            };
            let m = self.s.prof[i].athletics + self.rules.free_malus(free) + diff;
            let r = roll_test(
                rng,
                self.s.prof[i].trinite,
                m,
                self.rules.dual_keep,
                self.rules.target,
            );
            if W::ON {
                test = Some(Roll::new(r, self.s.prof[i].trinite, m, self.rules.target));
            }
            r.succeeds(m, self.rules.target)
        };
        let s = &mut self.st[i];
        s.cover = Cover::None;
        if arrived {
            self.at_spot[s.spot as usize] &= !(1 << i);
            self.at_spot[dest as usize] |= 1 << i;
            s.spot = dest;
            s.travel = 0;
        } else {
            s.dest = dest;
            s.travel = travel - travel / 2;
        }
        if W::ON {
            let left = s.travel;
            self.w.note(Step::Move {
                who: i as u8,
                dest,
                metres: travel,
                test,
                left,
            });
        }
    }

    #[inline]
    pub(super) fn heal(&mut self, j: usize, points: i64) {
        let was_ko = self.st[j].ko();
        self.st[j].ticked = (self.st[j].ticked - points).max(0);
        if was_ko && !self.st[j].ko() {
            // L'inconscience: on waking the die goes back en garde.
            self.st[j].zone = Zone::Garde;
            self.st[j].nonlethal = false;
        }
        // Boxes (and any Darkness point spent just before) change who is down.
        self.sync(j);
    }

    /// Ticks `damage` boxes of `j` (T-LIFE) and returns how many were ticked.
    #[inline]
    pub(super) fn wound(&mut self, j: usize, damage: i64, non_lethal: bool) -> i64 {
        if damage <= 0 {
            return 0;
        }
        let round = self.round;
        let s = &mut self.st[j];
        let l = s.line;
        let pain = self.rules.pain_initiative;
        let note = |step| self.w.note(Step::Life(step));
        let (before, after) = wound::tick(s.track(), j as u8, damage, non_lethal, pain, note);
        if before <= 2 * l && after > 2 * l {
            self.w.see(|| Step::Life(LifeStep::Falls { who: j as u8 }));
            // L'inconscience: the die goes en retrait.
            s.zone = Zone::Retrait;
            s.fell_round = round;
            s.nonlethal = non_lethal;
            if s.down_round == 0 {
                s.down_round = round;
            }
        } else if after > before && s.ko() && !non_lethal {
            s.nonlethal = false;
        }
        s.taken += after - before;
        self.sync(j);
        after - before
    }

    /// The Adam's regeneration on his turn (T-LIFE, T-COMBAT): Light while endolori or
    /// blessé, Darkness while endolori, at most one point of each per round, `regen_boxes` boxes each (book 4).
    #[inline]
    pub(super) fn regenerate(&mut self, i: usize) -> i64 {
        let at = self.s.prof[i].regenerate_at;
        let line = self.st[i].line;
        let mut actions = 0;
        loop {
            let s = self.st[i];
            let wanted = match at {
                RegenAt::Endolori => s.ticked > 0,
                RegenAt::Blesse => s.ticked > line,
                RegenAt::Never => false,
            };
            if !wanted {
                break;
            }
            let s = &mut self.st[i];
            let before = s.ticked;
            let light = if s.light > 0 && !s.light_used {
                s.light -= 1;
                s.light_used = true;
                true
            } else if s.ticked <= line && s.dark > 0 && !s.dark_used {
                s.dark -= 1;
                s.dark_used = true;
                false
            } else {
                break;
            };
            s.spent += 1;
            actions += 1;
            self.heal(i, self.rules.regen_boxes);
            if W::ON {
                let s = &self.st[i];
                self.w.note(Step::Regen {
                    who: i as u8,
                    light,
                    archonte: false,
                    before,
                    after: s.ticked,
                    left: if light { s.light } else { s.dark },
                });
            }
        }
        actions
    }
}
