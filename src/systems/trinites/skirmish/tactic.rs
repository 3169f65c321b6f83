//! The skirmish's actions beside attacks and moves (issue 25; T-COMBAT, T-CONF): Feinter
//! (trinites.fr.txt l. 551-557), Désarmer un adversaire (l. 507-512) and the parry an ally
//! holds for another (Anticiper un évènement, l. 469-474; several reactions to one
//! action, l. 428). None of them draws a number when the scenario does not use it.

use crate::engine::Rng64;
use crate::systems::mask::bits;
use crate::systems::trace::Watch;
use crate::systems::trinites::duel::{Penalty, Prime};
use crate::systems::trinites::words::{LifeStep, Roll};
use crate::systems::trinites::{roll_test, succeeds, DisarmWeapon, ParryFor, RisqueIncident};

use super::keys::Tactic;
use super::model::Cover;
use super::sim::Fight;
use super::strike::{attack_modifier, react, reaction_modifier};
use super::trace::Step;

impl<W: Watch<Step>> Fight<'_, W> {
    /// The target of the tactic `i` declares this turn, if it can: the foe it is about to
    /// attack, conscious; for a disarm, engaged with it (same spot) and armed.
    #[inline]
    pub(super) fn plan(&self, i: usize) -> Option<usize> {
        let tactic = self.s.prof[i].tactic;
        if tactic == Tactic::None {
            return None;
        }
        let (j, _, _) = self.pick(i)?;
        let t = &self.st[j];
        if self.is_ko(j) {
            return None;
        }
        match tactic {
            Tactic::Feint => Some(j),
            Tactic::Disarm => (t.spot == self.st[i].spot && !t.disarmed).then_some(j),
            Tactic::None => None,
        }
    }

    /// `j`'s reaction modifier to an action of `i` with `skill`, spending a pending Prudence
    /// / Danger (PRIMES & PÉNALITÉS: "sa prochaine réaction").
    #[inline]
    fn react(&mut self, j: usize, skill: i64, engaged: i64, prime: Prime, pen: Penalty) -> i64 {
        let t = &mut self.st[j];
        let (pru, dan) = (t.prudence > 0, t.danger > 0);
        t.prudence = t.prudence.saturating_sub(1);
        t.danger = t.danger.saturating_sub(1);
        reaction_modifier(skill, engaged, pru, dan, prime, pen)
    }

    /// Plays `i`'s tactic against `j` (a free action, `free` declared this turn):
    /// `Some(true)` when it succeeds, `Some(false)` when it fails, `None` when it fails
    /// with Risque and the rest of the turn is lost (option `trinites_risque_incident`).
    #[inline]
    pub(super) fn tactic(
        &mut self,
        rng: &mut Rng64,
        i: usize,
        j: usize,
        free: i64,
        init_delta: &mut i64,
    ) -> Option<bool> {
        let (keep, target) = (self.rules.dual_keep, self.rules.target);
        let p = self.s.prof[i];
        let q = self.s.prof[j];
        let free_malus = self.rules.free_malus(free);
        if p.tactic == Tactic::Feint {
            // Feinter: "Compétence: Subterfuge ... Réaction: Tactique" (l. 552-555), a
            // confrontation (T-CONF: ties to the target). No prime: the group's pair is
            // its attacks'.
            let m = p.subterfuge + free_malus;
            let a = roll_test(rng, p.trinite, m, keep, target);
            let rm = self.react(j, q.tactics, 0, Prime::None, Penalty::None);
            let ok = self.contest(rng, (i, j), (a, m), (rm, q.trinite), true);
            return Some(ok);
        }
        // Désarmer: "Compétence: Mêlée ... Type d'action: Libre, avancée ... Réaction:
        // Mêlée" (l. 508-511); avancée (l. 420): a pénalité without a prime.
        let pen = p.disarm_penalty;
        let m = attack_modifier(p.attack, free_malus, Prime::None, pen, 0);
        let a = roll_test(rng, p.trinite, m, keep, target);
        let rm = self.react(j, q.reaction, 0, Prime::None, pen);
        let ok = self.contest(rng, (i, j), (a, m), (rm, q.trinite), false);
        if W::ON && ok {
            self.w.note(Step::LosesWeapon { who: j as u8 });
        }
        if ok {
            // "L'arme voltige dans les airs pendant un round puis se trouve à terre."
            let t = &mut self.st[j];
            t.disarmed = true;
            t.guard = false;
            t.weapon_back = match self.rules.disarm_weapon {
                DisarmWeapon::Ground => self.round + 2,
                DisarmWeapon::Lost => u32::MAX,
            };
        }
        match pen {
            Penalty::Ralentissement => *init_delta -= 3,
            Penalty::Danger => self.st[i].danger += 1,
            Penalty::AbandonPosition => self.st[i].cover = Cover::None,
            _ => {}
        }
        // Risque (l. 762), option `trinites_risque_failure`: a disarm that hit nobody, or
        // whose test itself failed.
        let failed = self
            .rules
            .risque_failure
            .failed(succeeds(a.natural, m, target), ok);
        let lose =
            failed && pen == Penalty::Risque && self.rules.risque == RisqueIncident::LoseTurn;
        if W::ON && lose {
            self.w.note(Step::Life(LifeStep::Risque { who: i as u8 }));
        }
        (!lose).then_some(ok)
    }

    /// A tactic's confrontation (T-CONF): `i`'s test `a` at `m` against `j`'s reaction at
    /// `rm`, rolled only when the test succeeds; ties go to the reaction.
    #[inline]
    fn contest(
        &mut self,
        rng: &mut Rng64,
        (i, j): (usize, usize),
        (a, m): (crate::systems::trinites::TestRoll, i64),
        (rm, dual): (i64, bool),
        feint: bool,
    ) -> bool {
        let (keep, target) = (self.rules.dual_keep, self.rules.target);
        let reaction = succeeds(a.natural, m, target)
            .then(|| react(rng, a.natural + m, rm, dual, keep, target));
        let ok = reaction.is_some_and(|r| r.0);
        self.w.see(|| Step::Tactic {
            who: i as u8,
            target: j as u8,
            feint,
            roll: Roll::new(a, self.s.prof[i].trinite, m, target),
            reaction: reaction.map(|r| Roll::new(r.1, dual, rm, target)),
            ok,
        });
        ok
    }

    /// A disarmed fighter's turn: `true` when the weapon is on the ground and he picks it
    /// up (the caller counts the free action), `false` while it flies or is lost.
    #[inline]
    pub(super) fn take_weapon_back(&mut self, i: usize) -> bool {
        let t = &mut self.st[i];
        let back = self.round >= t.weapon_back;
        if back {
            t.disarmed = false;
        }
        let bare_hands = !back && self.s.bare_hands >> i & 1 != 0;
        self.w.see(|| Step::Disarmed {
            who: i as u8,
            back,
            bare_hands,
        });
        back
    }

    /// The ally of `j` holding a parry for `j`'s group (l. 472) against a strike of `i`: in
    /// `j`'s spot, conscious and armed (first in file order).
    #[inline]
    fn protector(&self, i: usize, j: usize) -> Option<usize> {
        let ward = self.s.group_of[j];
        // Only a combatant with a `parries_for` can hold a parry: most runs have none.
        bits(self.s.parriers & self.s.foes[i]).find(|&k| {
            let t = &self.st[k];
            k != j
                && t.guard
                && self.s.prof[k].parries_for == Some(ward)
                && t.spot == self.st[j].spot
                && !self.is_ko(k)
                && !t.disarmed
        })
    }

    /// The reactions an attack of `i` on `j` meets: `j`'s own (`None`: it cannot react,
    /// being unconscious or feinted, `unanswered`) and an ally's held parry (modifier, the
    /// ally's dual dice). Frapper: the attacker's skill (Mêlée, not once disarmed; Corps
    /// à corps against bare hands) or Esquive, whichever is better, -1 per engaged foe;
    /// Tirer: Esquive, and no parry.
    #[inline(always)]
    pub(super) fn reactions(
        &mut self,
        i: usize,
        j: usize,
        prime: Prime,
        penalty: Penalty,
        unanswered: bool,
    ) -> (Option<i64>, Option<(i64, bool, usize)>) {
        let setup = self.s;
        let p = &setup.prof[i];
        let guard = if p.ranged() {
            None
        } else {
            self.protector(i, j)
        };
        let instead = guard.is_some() && self.rules.parry_for == ParryFor::Instead;
        let reaction = if self.is_ko(j) || unanswered || instead {
            None
        } else {
            let q = &setup.prof[j];
            let (skill, engaged) = if p.ranged() {
                (q.dodge, 0)
            } else if setup.bare_hands >> i & 1 != 0 && self.st[i].disarmed {
                // A disarmed attacker strikes with bare hands (`sim.rs`): "la même
                // compétence utilisé par l'auteur de l'attaque" is Corps à corps, the
                // target's `bare_hands` (else its `reaction`, Mêlée / Corps à corps), which
                // needs no weapon; or Esquive.
                let cac = if setup.bare_hands >> j & 1 != 0 {
                    setup.bare_prof[j].attack
                } else {
                    q.reaction
                };
                (cac.max(q.dodge), self.engaged(j, i))
            } else if self.st[j].disarmed {
                (q.dodge, self.engaged(j, i))
            } else {
                (q.reaction.max(q.dodge), self.engaged(j, i))
            };
            Some(self.react(j, skill, engaged, prime, penalty))
        };
        // The held action is spent by the event it waited for (l. 470), with the malus of
        // the turn that declared it (l. 412) and the Frapper -1 per foe engaged with the
        // ally; a parry is Mêlée.
        let parry = guard.map(|k| {
            self.st[k].guard = false;
            let (skill, engaged) = (self.s.prof[k].reaction, self.engaged(k, i));
            let rm = self.react(k, skill, engaged, prime, penalty) + self.st[k].guard_malus;
            (rm, self.s.prof[k].trinite, k)
        });
        (reaction, parry)
    }
}

#[cfg(test)]
mod tests {
    use super::super::sim::Setup;
    use super::*;
    use crate::systems::trinites::skirmish::model::load_text;
    use crate::systems::trinites::TrinitesRules;

    /// B (Mêlée 5) and C (Mêlée 6, holding a parry for B) against the two A (0 and 1:
    /// indices 2 and 3), all in the mêlée.
    const FILE: &str = "system = \"trinites\"\nkind = \"skirmish\"\n\
        [[weapons]]\nname = \"w\"\ndamage = 3\n\
        [[group]]\nname = \"B\"\nside = \"b\"\nrapidite = 0\nattack = 0\nreaction = 5\nweapon = \"w\"\n\
        [[group]]\nname = \"C\"\nside = \"b\"\nrapidite = 0\nattack = 0\nreaction = 6\nweapon = \"w\"\nparries_for = \"B\"\n\
        [[group]]\nname = \"A\"\nside = \"a\"\ncount = 2\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"w\"\n";

    /// Frapper (trinites.fr.txt l. 560 "Condition(s): Engagé", l. 563 "il subit un malus
    /// de 1 à son test de réaction par adversaire avec qui il est engagé, y compris le
    /// premier"; T-COMBAT): A 0, knocked out by a groupmate of his tied initiative, still
    /// strikes B (reading 5) and is engaged while he does: B's reaction and C's parry count
    /// him beside the conscious A 1 (-2 each; it was -1). A knocked-out foe who is not
    /// striking does not count (audit of 2026-12-06).
    #[test]
    fn a_knocked_out_striker_counts_among_the_engaged_foes() {
        let m = load_text("t.toml", FILE);
        let s = Setup::new(&m);
        assert_eq!(s.n, 4);
        let rules = TrinitesRules::default();
        // (knocked out, striker, B's and C's reaction modifiers)
        for (down, striker, want) in [
            (0b0100, 2, (5 - 2, 6 - 2)),
            (0b1100, 2, (5 - 1, 6 - 1)),
            (0b1000, 2, (5 - 1, 6 - 1)),
            (0b0000, 3, (5 - 2, 6 - 2)),
        ] {
            let mut f = Fight::melee(&s, &rules, 1);
            for j in 0..s.n {
                f.st[j].line = rules.line(false);
                f.sync(j);
            }
            for j in bits(down) {
                f.wound(j, 3 * f.st[j].line, false);
                assert!(f.is_ko(j));
            }
            f.st[1].guard = true;
            let (reaction, parry) = f.reactions(striker, 0, Prime::None, Penalty::None, false);
            let parry = parry.map(|(rm, _, k)| (rm, k));
            assert_eq!(
                (reaction, parry),
                (Some(want.0), Some((want.1, 1))),
                "down {down:b}, striker {striker}"
            );
        }
    }
}
