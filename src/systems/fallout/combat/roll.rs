//! One attack's d20 (F-TEST): the attacker's pool, its helpers' d20 (F-HELP), then the
//! aim and Miss Fortune rerolls (F-LUCK), decided on the attack as it stands with its
//! help counted (audit of 2026-12-07, afternoon: they were decided on the attacker's
//! own dice, so a Luck point went on attacks the help had already made hits).

use crate::engine::Rng64;
use crate::systems::trace::Watch;

use super::super::model::COMBATANTS_MAX;
use super::super::trace::{Dice, Step};
use super::{CombatSim, FighterAcc};

/// What one attack rolls with.
pub(super) struct Throw {
    pub who: usize,
    pub target: usize,
    /// d20 of the attacker: 2 and the bonus dice bought.
    pub dice: u8,
    pub difficulty: usize,
    /// Rerolls aiming gives (0..=2).
    pub aims: u8,
}

/// Who may help, as the turn stands (F-HELP: a helper down or stunned adds no d20).
pub(super) struct Helpers<'a> {
    pub down: &'a [bool; COMBATANTS_MAX],
    pub stunned: &'a [bool; COMBATANTS_MAX],
    /// d20 each combatant rolled into an ally's attack this fight.
    pub rolls: &'a mut [u32; COMBATANTS_MAX],
}

impl CombatSim {
    /// The attack's successes and complication (0/1), and its d20 as they finally show
    /// (for a trace; `Dice::default()` unwatched). Draws: the pool, each helper's d20 in
    /// combatant order, then the rerolls, so a fight where no combatant with Luck or aim
    /// is helped draws as before the audit.
    #[inline(always)]
    pub(super) fn attack_dice<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        t: &Throw,
        luck: &mut u8,
        f: &mut FighterAcc,
        help: &mut Helpers,
        watch: &mut W,
    ) -> (u8, u8, Dice) {
        let i = t.who;
        let c = &self.model.combatants[i];
        let mut dice = Dice::default();
        let roll = |dice: Dice, successes| Step::Roll {
            who: i as u8,
            target: t.target as u8,
            weapon: c.weapon as u8,
            dice,
            successes,
        };
        let see = |dice: &mut Dice, face, a, b| {
            if W::ON {
                dice.add(face, a, b)
            }
        };
        if *luck == 0 && t.aims == 0 {
            let (s, comp) =
                self.samplers[i].pool_seen(rng, t.dice, |face, a, b| see(&mut dice, face, a, b));
            watch.see(|| roll(dice, s));
            let (hs, hc) = self.help_dice(rng, i, s > 0, help, watch);
            return (s + if s > 0 { hs } else { 0 }, comp | hc, dice);
        }
        let mut r =
            self.samplers[i].pool_zeros_seen(rng, t.dice, |face, a, b| see(&mut dice, face, a, b));
        watch.see(|| roll(dice, r.successes));
        let (hs, hc) = self.help_dice(rng, i, r.successes > 0, help, watch);
        // F-HELP (l.56): "ajoutez les réussites que vous récoltez à celles que génère votre
        // camarade, s'il en obtient au moins une" — so a reroll that gives the attacker its
        // first success also brings the help in.
        let total = |s: u8| s + if s > 0 { hs } else { 0 };
        // Aiming (scenario data, issue 25): a no-success d20 rerolled while the attack,
        // help included, misses; at most `aims`, each die once.
        for _ in 0..t.aims {
            if total(r.successes) as usize >= t.difficulty || r.zeros == 0 {
                break;
            }
            f.aim_rerolls += 1;
            let was = r.successes;
            let (face, a, b) = self.samplers[i].die_face(rng);
            r.reroll(a, b);
            let now = was == 0 && r.successes > 0 && hs > 0;
            watch.see(|| dice.reroll(i, face, a, total(r.successes), None, now));
        }
        // F-LUCK Miss Fortune (l.119 "Relancer 1d20 ... Vous devez accepter ce nouveau
        // résultat"), the `luck_odds` policy (docs/systems/fallout.md 3c): one point when
        // the attack, help included, misses and some d20 of the attacker gave no success.
        if *luck > 0 && (total(r.successes) as usize) < t.difficulty && r.zeros > 0 {
            *luck -= 1;
            f.luck_spent += 1;
            let was = r.successes;
            let (face, a, b) = self.samplers[i].die_face(rng);
            r.reroll(a, b);
            let now = was == 0 && r.successes > 0 && hs > 0;
            let left = *luck;
            watch.see(|| dice.reroll(i, face, a, total(r.successes), Some(left), now));
        }
        (total(r.successes), r.complication() | hc, dice)
    }

    /// The d20 of every standing, unstunned helper of `i` (F-HELP), in combatant order:
    /// their successes (all of them; the caller counts them when `i`'s own dice score) and
    /// 1 if one shows a complication (it counts either way). `counted`: whether `i`'s
    /// dice score as rolled, for the trace.
    #[inline(always)]
    fn help_dice<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        i: usize,
        counted: bool,
        help: &mut Helpers,
        watch: &mut W,
    ) -> (u8, u8) {
        let (mut s, mut c) = (0u8, 0u8);
        if !self.any_help {
            return (s, c);
        }
        for (h, ch) in self.model.combatants.iter().enumerate() {
            if ch.helps == Some(i) && !help.down[h] && !help.stunned[h] {
                let (face, a, b) = self.samplers[h].die_face(rng);
                s += a;
                c |= b;
                help.rolls[h] += 1;
                watch.see(|| Step::HelpDie {
                    who: h as u8,
                    ally: i as u8,
                    face,
                    successes: a,
                    counted,
                    complication: b > 0,
                });
            }
        }
        (s, c)
    }
}
