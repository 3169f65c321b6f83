//! Who stands and who can be reached in a skirmish (LES ACTIONS: Frapper, Tirer; T-LIFE):
//! the knocked-out and out-of-the-fight sets kept as bit masks beside the states, the reach
//! of an attack and the target a combatant picks. The masks are recomputed from the state
//! whenever a wound, a heal or a Karma point changes it (`sync`), so every test of them
//! reads the same as the state's own `ko()` / `dead()` (issue 29: the fight walks the set
//! bits instead of testing every index).

use crate::systems::mask::bits;
use crate::systems::trace::Watch;

use super::model::Targeting;
use super::sim::{End, Fight};
use super::strike::{range_difficulty, POINT_BLANK};
use super::trace::Step;

/// Frapper: cible inerte +3; Tirer: cible immobile +3 (an unconscious target).
const INERT_TARGET: i64 = 3;

impl<W: Watch<Step>> Fight<'_, W> {
    /// Recomputes `j`'s bits of the knocked-out and out sets from its state; called after
    /// every change of its boxes or Darkness points.
    #[inline(always)]
    pub(super) fn sync(&mut self, j: usize) {
        let s = &self.st[j];
        let bit = 1u32 << j;
        let ko = s.ko();
        // Out of the fight: dead, or unconscious with no Archonte to bring him back.
        let out = s.dead() || (ko && (!self.s.prof[j].trinite || s.dark == 0));
        self.ko_set = (self.ko_set & !bit) | if ko { bit } else { 0 };
        self.out_set = (self.out_set & !bit) | if out { bit } else { 0 };
    }

    /// Out of the fight: dead, or unconscious without Darkness to come back (T-LIFE).
    #[inline(always)]
    pub(super) fn out(&self, j: usize) -> bool {
        self.out_set & (1 << j) != 0
    }

    /// Inconscient (T-LIFE): `State::ko`, read from the set.
    #[inline(always)]
    pub(super) fn is_ko(&self, j: usize) -> bool {
        self.ko_set & (1 << j) != 0
    }

    /// The foes engaged with `j` while `striker` strikes in its spot: the conscious foes
    /// there, and the striker even when a groupmate of his tied initiative knocked him out
    /// before his turn (Frapper, l. 560: "Condition(s): Engagé"; audit of 2026-12-06), so
    /// never fewer than one ("y compris le premier", l. 563).
    #[inline(always)]
    pub(super) fn engaged(&self, j: usize, striker: usize) -> i64 {
        let here = self.at_spot[self.st[j].spot as usize];
        let standing = !self.ko_set | (1 << striker);
        (self.s.foes[j] & standing & here).count_ones() as i64
    }

    /// The circumstance difficulty of `i` attacking `j` (range, cover, inert target), or
    /// `None` when `i` cannot attack `j` now; with the preference tier (lower first).
    // Inlined as before the watcher made `Fight` generic: a separate copy per watcher
    // cost the batch 8% (perf, issue 27).
    #[inline(always)]
    pub(super) fn reach(&self, i: usize, j: usize) -> Option<(u8, i64)> {
        let (a, t) = (&self.st[i], &self.st[j]);
        let p = &self.s.prof[i];
        let inert = self.is_ko(j);
        if inert && !self.s.strike_unconscious {
            return None;
        }
        // Frapper: cible inerte +3; Tirer: cible immobile +3.
        // With the group's stated circumstances (issue 25).
        let inert_bonus = if inert { INERT_TARGET } else { 0 } + p.circumstance;
        let same = a.spot == t.spot;
        let tier = |engaged: u8| if inert { 2 } else { engaged };
        if !p.ranged() {
            return same.then_some((tier(0), inert_bonus));
        }
        let d = if same {
            POINT_BLANK
        } else {
            self.s.dist(a.spot, t.spot)
        };
        let r = range_difficulty(d, p.range)?;
        // Cover only helps against shots from outside one's spot.
        let cover = if same { 0 } else { t.cover.difficulty() };
        Some((tier(if same { 0 } else { 1 }), r + cover + inert_bonus))
    }

    /// The target the policy picks among the foes of the best tier in reach (foes still in
    /// the fight, in index order), with its tier and circumstance difficulty (`reach`).
    // Inlined as before the watcher made `Fight` generic: a separate copy per watcher
    // cost the batch 8% (perf, issue 27).
    #[inline(always)]
    pub(super) fn pick(&self, i: usize) -> Option<(usize, u8, i64)> {
        let most_wounded = self.s.prof[i].target == Targeting::MostWounded;
        if !self.s.prof[i].ranged() {
            let p = self.pick_strike(i, most_wounded);
            // Test builds check the masks' answer against the walk over `reach`.
            #[cfg(test)]
            {
                assert_eq!(p, self.pick_scan(i, most_wounded));
                self.check_spots();
            }
            return p;
        }
        self.pick_scan(i, most_wounded)
    }

    /// `pick` by walking every foe still in the fight through `reach`.
    #[inline(always)]
    fn pick_scan(&self, i: usize, most_wounded: bool) -> Option<(usize, u8, i64)> {
        let mut best: Option<(usize, u8, i64)> = None;
        for j in bits(self.s.foes[i] & !self.out_set) {
            let Some((tier, circ)) = self.reach(i, j) else {
                continue;
            };
            best = match best {
                None => Some((j, tier, circ)),
                Some((_, bt, _)) if tier < bt => Some((j, tier, circ)),
                Some((b, bt, _))
                    if tier == bt && most_wounded && self.st[j].ticked > self.st[b].ticked =>
                {
                    Some((j, tier, circ))
                }
                keep => keep,
            };
        }
        best
    }

    /// `pick` for a fighter who strikes, read from the masks: only the foes in its spot are
    /// in reach (`reach`), the conscious (tier 0) before the inert (tier 2, +3, when they
    /// may be struck); in a tier the first in index order, or the first of the most
    /// wounded. The same choice as the loop over `reach`, without reading every foe.
    #[inline(always)]
    fn pick_strike(&self, i: usize, most_wounded: bool) -> Option<(usize, u8, i64)> {
        let circ = self.s.prof[i].circumstance;
        let here = self.at_spot[self.st[i].spot as usize] & self.s.foes[i] & !self.out_set;
        let standing = here & !self.ko_set;
        let (set, tier, circ) = if standing != 0 {
            (standing, 0, circ)
        } else if self.s.strike_unconscious && here != 0 {
            // Frapper: cible inerte +3.
            (here, 2, INERT_TARGET + circ)
        } else {
            return None;
        };
        let mut best = set.trailing_zeros() as usize;
        if most_wounded {
            for j in bits(set & (set - 1)) {
                if self.st[j].ticked > self.st[best].ticked {
                    best = j;
                }
            }
        }
        Some((best, tier, circ))
    }

    /// Test builds: `at_spot` holds exactly who stands where.
    #[cfg(test)]
    fn check_spots(&self) {
        for (spot, &m) in self.at_spot.iter().enumerate() {
            let want = (0..self.s.n)
                .filter(|&k| self.st[k].spot as usize == spot)
                .fold(0u32, |m, k| m | 1 << k);
            assert_eq!(m, want, "spot {spot}");
        }
    }

    /// The spot with a conscious foe nearest to `i` (ties: lower spot).
    #[inline]
    pub(super) fn nearest_foe_spot(&self, i: usize) -> Option<u8> {
        let here = self.st[i].spot;
        bits(self.s.foes[i] & !self.ko_set)
            .map(|j| self.st[j].spot)
            .min_by_key(|&s| (self.s.dist(here, s), s))
    }

    /// The fight's end once at most one side has anyone left in it.
    #[inline]
    pub(super) fn ended(&self) -> Option<End> {
        // Sides still in it, one bit each (at most COMBATANTS_MAX sides).
        let mut alive = 0u32;
        for j in bits(self.all & !self.out_set) {
            alive |= 1 << self.s.prof[j].side;
        }
        match alive.count_ones() {
            0 => Some(End::Draw),
            1 => Some(End::Side(alive.trailing_zeros() as usize)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::sim::Setup;
    use super::*;
    use crate::systems::trinites::skirmish::model::load_text;
    use crate::systems::trinites::TrinitesRules;

    const FILE: &str = "system = \"trinites\"\nkind = \"skirmish\"\n\
        [[weapons]]\nname = \"w\"\ndamage = 3\n\
        [[group]]\nname = \"a\"\nside = \"x\"\ntrinite = true\narchonte_karma = 2\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"w\"\n\
        [[group]]\nname = \"b\"\nside = \"y\"\ncount = 2\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"w\"\n\
        [[group]]\nname = \"c\"\nside = \"z\"\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"w\"\n";

    /// The shipped skirmish (copied from `scenarios/`), as is and with its variants for
    /// the targeting rules: every strike's pick read from the spot masks equals the walk
    /// over `reach`, and the masks hold who stands where (both asserted inside `pick` in
    /// test builds), over fights where fighters close in, fall and are finished.
    #[test]
    fn strike_picks_from_the_masks_equal_the_walk() {
        use rand::SeedableRng;
        const SHIPPED: &str = include_str!("../../../../scenarios/trinites/skirmish.toml");
        let no_finish =
            SHIPPED.replacen("strike_unconscious = true", "strike_unconscious = false", 1);
        let wounded = SHIPPED.replace(
            "weapon = \"epee\"",
            "weapon = \"epee\"\ntarget = \"most_wounded\"",
        );
        assert_ne!(no_finish, SHIPPED);
        assert_ne!(wounded, SHIPPED);
        for text in [SHIPPED, &no_finish, &wounded] {
            let m = load_text("skirmish.toml", text);
            let s = Setup::new(&m);
            let rules = TrinitesRules::default();
            let mut rng = crate::engine::Rng64::seed_from_u64(28);
            for _ in 0..3000 {
                super::super::sim::fight(&s, &rules, &mut rng);
            }
        }
    }

    /// The foe masks are the side comparison, and the knocked-out and out sets follow
    /// every wound, heal and Darkness point the way `State::ko` / `dead` read them.
    #[test]
    fn masks_follow_the_states() {
        let m = load_text("t.toml", FILE);
        let s = Setup::new(&m);
        assert_eq!(s.n, 4);
        for i in 0..s.n {
            for j in 0..s.n {
                let foe = s.prof[i].side != s.prof[j].side;
                assert_eq!(s.foes[i] & (1 << j) != 0, foe, "{i} {j}");
            }
        }
        assert_eq!(s.parriers, 0);
        let rules = TrinitesRules::default();
        let mut f = Fight::melee(&s, &rules, 1);
        for j in 0..s.n {
            f.st[j].line = rules.line(s.prof[j].trinite);
            f.st[j].dark = s.prof[j].dark;
            f.sync(j);
        }
        assert!(f.st[0].dark > 0);
        let mut x = 12345u64;
        for step in 0..2000 {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let j = (x >> 33) as usize % s.n;
            let amount = (x >> 40) as i64 % 7;
            match (x >> 50) % 4 {
                0 | 1 => {
                    f.wound(j, amount, (x >> 55) & 1 == 1);
                }
                2 => f.heal(j, amount),
                _ => {
                    // A Darkness point spent, then the heal that goes with it.
                    if f.st[j].dark > 0 {
                        f.st[j].dark -= 1;
                    }
                    f.heal(j, 1);
                }
            }
            for k in 0..s.n {
                let t = &f.st[k];
                let out = t.dead() || (t.ko() && (!s.prof[k].trinite || t.dark == 0));
                assert_eq!(f.is_ko(k), t.ko(), "step {step}, {k}");
                assert_eq!(f.out(k), out, "step {step}, {k}");
            }
        }
        assert!(f.ko_set != 0 && f.out_set != 0);
    }
}
