//! One skirmish, round by round (L'ART DE LA GUERRE, LES ACTIONS: Frapper, Tirer, Se
//! déplacer; LES LIGNES DE VIE; VIE ET MORT), and the simulation that runs many without
//! allocating: every state is a fixed array of [`COMBATANTS_MAX`]. A [`Watch`] sees every
//! step: [`Quiet`] in the batch, the steps of `trace.rs` in a trace (issue 27: one
//! implementation of the rules). Moves, wounds and regeneration: `life.rs`.

use crate::engine::Rng64;
use crate::systems::mask::bits;
use crate::systems::trace::{Quiet, Watch};
use crate::systems::trinites::duel::{Penalty, Prime};
use crate::systems::trinites::track::{acting_group, initiative, shift, Zone};
use crate::systems::trinites::words::{tie, LifeStep, Roll};
use crate::systems::trinites::{
    roll_test, succeeds, FeintScope, RegenAction, RisqueIncident, TrinitesRules,
};

use super::keys::Tactic;
use super::model::{Cover, COMBATANTS_MAX};
pub use super::state::Setup;
pub(super) use super::state::State;
use super::state::SPOTS;
use super::strike::{attack_modifier, hit_damage_in, react};
use super::trace::{Step, Unanswered};

/// Turns per round beyond which a round is cut (only a long chain of Accélération
/// wrap-arounds could get there).
const MAX_TURNS_PER_ROUND: u32 = 400;

/// How a fight ended: a side index, or one of these past the sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    Side(usize),
    /// Every side out at once.
    Draw,
    /// `max_rounds` reached.
    Undecided,
}

pub(super) struct Fight<'a, W> {
    pub(super) s: &'a Setup,
    pub(super) rules: &'a TrinitesRules,
    pub(super) st: [State; COMBATANTS_MAX],
    pub(super) round: u32,
    pub(super) w: &'a mut W,
    /// Who is unconscious (`State::ko`) and who is out of the fight, one bit each, kept in
    /// step with `st` by `sync` (`target.rs`).
    pub(super) ko_set: u32,
    pub(super) out_set: u32,
    /// Every combatant of the fight, one bit each.
    pub(super) all: u32,
    /// Who stands in each spot, one bit each, kept in step with `State::spot` by `step`
    /// (`life.rs`), the only move: a strike's reach and the foes engaged with a fighter
    /// are read from these instead of comparing spots over every foe (issue 29).
    pub(super) at_spot: [u32; SPOTS],
}

impl<W: Watch<Step>> Fight<'_, W> {
    // Inlined as before the watcher made `Fight` generic: a separate copy per watcher
    // cost the batch 8% (perf, issue 27).
    #[inline(always)]
    fn take_turn(&mut self, rng: &mut Rng64, i: usize) {
        let keep = self.rules.dual_keep;
        // The success target in force (T-TEST), read once per turn from the typed rules.
        let target = self.rules.target;
        self.st[i].prudence = 0;
        self.st[i].danger = 0;
        // Anticiper un évènement (l. 474): a parry still held from the last turn is lost.
        self.st[i].guard = false;
        // The run's profiles outlive the fight: borrowed, not copied, while `self` changes.
        let setup = self.s;
        let p = &setup.prof[i];
        self.w.see(|| {
            Step::Life(LifeStep::Turn {
                who: i as u8,
                init: self.st[i].init,
            })
        });
        let mut free = p.attacks_per_turn;
        if p.trinite {
            let regen = self.regenerate(i);
            if self.rules.regen_action == RegenAction::Libre {
                free += regen;
            }
        }
        // Désarmer (l. 512): no attack, feint or parry until the weapon is back; picking it
        // up is one more free action of the turn.
        // A group with `bare_hands` strikes with them meanwhile (Frapper, l. 563: "avec une
        // arme -Mêlée- ou à mains nues -Corps à corps"), with no tactic and no parry
        // (`Setup::bare_prof`).
        let p = if self.st[i].disarmed {
            if self.take_weapon_back(i) {
                free += 1;
                p
            } else if setup.bare_hands >> i & 1 != 0 {
                &setup.bare_prof[i]
            } else {
                return;
            }
        } else {
            p
        };
        // The tactic (Feinter, Désarmer) and the held parry (Anticiper un évènement) are free
        // actions declared with the attacks (l. 412: each beyond the first -3 to the turn).
        let plan = if p.tactic == Tactic::None {
            None
        } else {
            self.plan(i)
        };
        free += i64::from(plan.is_some()) + i64::from(p.parries_for.is_some());
        // The turn's free-action malus, fixed once the free actions are declared.
        let malus = self.rules.free_malus(free);
        if W::ON && free > 1 {
            self.w.note(Step::Declares {
                who: i as u8,
                free,
                malus,
            });
        }
        let mut init_delta = 0;
        let mut moved = false;
        let (mut feinted, mut lost) = (None, false);
        if let Some(j) = plan {
            match self.tactic(rng, i, j, free, &mut init_delta) {
                // Only a feint leaves the next action unanswered; a disarm's effect is
                // the weapon (`State::disarmed`).
                Some(true) if p.tactic == Tactic::Feint => feinted = Some(j),
                Some(_) => {}
                // Risque on a failed disarm: the rest of the turn is lost.
                None => lost = true,
            }
        }
        for _ in 0..if lost { 0 } else { p.attacks_per_turn } {
            // Feinter (l. 557): only the action after the feint, unless
            // `trinites_feint_scope = turn`.
            let unanswered = feinted;
            if self.rules.feint_scope == FeintScope::NextAction {
                feinted = None;
            }
            let Some((first, tier, circ)) = self.pick(i) else {
                // Nobody in reach: move toward the nearest foe (Se déplacer).
                match self.nearest_foe_spot(i) {
                    Some(dest) if dest != self.st[i].spot => {
                        self.step(rng, i, dest, free, !moved);
                        moved = true;
                        continue;
                    }
                    _ => break,
                }
            };
            // Abandon de position avantageuse needs the position: once the cover is left,
            // the group's prime can no longer be bought with it.
            let (prime, penalty) =
                if p.penalty == Penalty::AbandonPosition && self.st[i].cover == Cover::None {
                    (Prime::None, Penalty::None)
                } else {
                    (p.prime, p.penalty)
                };
            let m = attack_modifier(p.attack, malus, prime, penalty, circ);
            // T-TEST, T-DUAL: a Trinité rolls the Deva's and the Archonte's dice.
            let a = roll_test(rng, p.trinite, m, keep, target);
            self.w.see(|| Step::Attack {
                who: i as u8,
                target: (prime != Prime::AttaquesMultiples).then_some(first as u8),
                ranged: p.ranged(),
                roll: Roll::new(a, p.trinite, m, target),
            });
            let (mut success, mut test_ok) = (false, false);
            let multiple = prime == Prime::AttaquesMultiples;
            // Attaques multiples: every foe still in the fight and in reach at the picked
            // tier, in index order; otherwise the picked foe alone, whose circumstance
            // `pick` has just read.
            let aimed = if multiple { setup.foes[i] } else { 1 << first };
            for j in bits(aimed) {
                let cj = if multiple {
                    if self.out(j) {
                        continue;
                    }
                    match self.reach(i, j) {
                        Some((t, cj)) if t == tier => cj,
                        _ => continue,
                    }
                } else {
                    circ
                };
                let mj = m - circ + cj;
                let feinted = unanswered == Some(j);
                let (reaction, parry) = self.reactions(i, j, prime, penalty, feinted);
                let attack_ok = succeeds(a.natural, mj, target);
                test_ok |= attack_ok;
                if W::ON && prime == Prime::AttaquesMultiples {
                    self.w.note(Step::Versus {
                        who: j as u8,
                        total: a.natural + mj,
                        success: attack_ok,
                    });
                }
                // T-CONF: the target's reaction, rolled once the attack succeeds.
                let mut hit = attack_ok;
                if hit {
                    hit = match reaction {
                        None => {
                            if W::ON {
                                let why = if self.is_ko(j) {
                                    Unanswered::Inert
                                } else if feinted {
                                    Unanswered::Feinted
                                } else {
                                    Unanswered::Parried
                                };
                                self.w.note(Step::Unanswered { who: j as u8, why });
                            }
                            true
                        }
                        Some(rm) => {
                            let dual = setup.prof[j].trinite;
                            let (h, r) = react(rng, a.natural + mj, rm, dual, keep, target);
                            self.w.see(|| Step::Reaction {
                                who: j as u8,
                                parries_for: None,
                                roll: Roll::new(r, dual, rm, target),
                                hit: h,
                                tie: tie(h, r, rm, a.natural + mj, target),
                            });
                            h
                        }
                    };
                }
                // An ally's parry (l. 472): the strike must beat it too. A strike already
                // stopped (its test failed, or the ward's reaction won) still spends the
                // held parry (l. 470, docs/rules.md): the trace says so.
                if let (false, Some((_, _, k))) = (hit, parry) {
                    self.w.see(|| Step::ParrySpent {
                        who: k as u8,
                        ward: j as u8,
                    });
                }
                if let (true, Some((rm, dual, k))) = (hit, parry) {
                    let (h, r) = react(rng, a.natural + mj, rm, dual, keep, target);
                    self.w.see(|| Step::Reaction {
                        who: k as u8,
                        parries_for: Some(j as u8),
                        roll: Roll::new(r, dual, rm, target),
                        hit: h,
                        tie: tie(h, r, rm, a.natural + mj, target),
                    });
                    hit = h;
                }
                if hit {
                    success = true;
                    let q = &setup.prof[j];
                    let d = hit_damage_in(
                        p.damage,
                        p.sword && q.trinite,
                        prime,
                        penalty,
                        q.protection,
                        self.rules.prime_before_sword,
                    );
                    // T-COMBAT: damage = weapon - protection (sword double on a Trinité).
                    self.w.see(|| Step::Damage {
                        to: j as u8,
                        boxes: d,
                        zone: false,
                    });
                    let ticked = self.wound(j, d, prime == Prime::BlessureNonLetale);
                    self.st[i].dealt += ticked;
                } else if p.zone {
                    // Tirer: "Si l'attaque est un échec et que le tireur utilise une arme
                    // de zone, la cible, et elle seule, perd néanmoins ... les dégâts de
                    // l'arme divisés par deux et arrondis à l'entier supérieur, auxquels on
                    // retranche la protection" (issue 25; a dodged shot is a miss too).
                    let d = crate::systems::trinites::duel::half_up(p.damage)
                        - setup.prof[j].protection;
                    self.w.see(|| Step::Damage {
                        to: j as u8,
                        boxes: d.max(0),
                        zone: true,
                    });
                    if d > 0 {
                        let ticked = self.wound(j, d, prime == Prime::BlessureNonLetale);
                        self.st[i].dealt += ticked;
                    }
                }
            }
            if penalty == Penalty::AbandonPosition {
                if W::ON && self.st[i].cover != Cover::None {
                    self.w.note(Step::LeavesCover { who: i as u8 });
                }
                self.st[i].cover = Cover::None;
            }
            if success && prime == Prime::Acceleration {
                init_delta += 3;
            }
            match penalty {
                Penalty::Ralentissement => init_delta -= 3,
                Penalty::Danger => self.st[i].danger += 1,
                _ => {}
            }
            if prime == Prime::Prudence {
                self.st[i].prudence += 1;
            }
            // Risque (l. 762): "Si l'action échoue, un incident survient"; what a failed
            // action is: option `trinites_risque_failure` (the test failed against every
            // foe aimed at, for `test_failed`).
            if penalty == Penalty::Risque
                && self.rules.risque == RisqueIncident::LoseTurn
                && self.rules.risque_failure.failed(test_ok, success)
            {
                self.w.see(|| Step::Life(LifeStep::Risque { who: i as u8 }));
                lost = true;
                break;
            }
        }
        // The parry held for an ally until the next turn, with this turn's malus.
        if p.parries_for.is_some() && !lost && !self.st[i].disarmed {
            self.st[i].guard = true;
            self.st[i].guard_malus = malus;
            self.w.see(|| Step::Guards { who: i as u8 });
        }
        let s = &mut self.st[i];
        if !s.ko() {
            shift(&mut s.init, &mut s.zone, init_delta);
            if W::ON && init_delta != 0 {
                let (init, zone) = (s.init, s.zone);
                self.w.note(Step::Life(LifeStep::Shift {
                    who: i as u8,
                    delta: init_delta,
                    init,
                    zone,
                }));
            }
        }
    }

    fn finish(&mut self, end: End, rounds: u32) -> Outcome {
        self.w.see(|| Step::End { end, rounds });
        Outcome {
            end,
            rounds,
            st: self.st,
        }
    }
}

/// What one fight leaves for the statistics.
pub struct Outcome {
    pub end: End,
    pub rounds: u32,
    pub(super) st: [State; COMBATANTS_MAX],
}

/// Fights one skirmish (the batch: unwatched).
pub fn fight(s: &Setup, rules: &TrinitesRules, rng: &mut Rng64) -> Outcome {
    fight_watched(s, rules, rng, &mut Quiet)
}

/// [`fight`], every step noted to `w` (a trace) or none ([`Quiet`], the batch).
#[inline(always)]
pub(super) fn fight_watched<W: Watch<Step>>(
    s: &Setup,
    rules: &TrinitesRules,
    rng: &mut Rng64,
    w: &mut W,
) -> Outcome {
    let mut st = [State::EMPTY; COMBATANTS_MAX];
    let mut at_spot = [0u32; SPOTS];
    for (i, t) in st.iter_mut().enumerate().take(s.n) {
        let p = &s.prof[i];
        // L'initiative: a Rapidité test, ceil(final / 2 (the divisor in force)) in 1..12; a surprised fighter's
        // die starts en retrait.
        let m = p.rapidite + p.initiative_difficulty;
        let r = roll_test(rng, p.trinite, m, rules.dual_keep, rules.target);
        t.init = initiative(r.natural, m, rules.initiative_divisor);
        t.zone = if p.surprised {
            Zone::Retrait
        } else {
            Zone::Garde
        };
        w.see(|| Step::Initiative {
            who: i as u8,
            roll: Roll::new(r, p.trinite, m, rules.target),
            score: t.init,
            zone: t.zone,
        });
        // T-LIFE: line lengths in force.
        t.line = rules.line(p.trinite);
        t.light = p.light;
        t.dark = p.dark;
        t.spot = s.home[i];
        at_spot[t.spot as usize] |= 1 << i;
        t.cover = p.cover;
    }
    let mut f = Fight {
        s,
        rules,
        st,
        round: 0,
        w,
        ko_set: 0,
        out_set: 0,
        all: (1u32 << s.n) - 1,
        at_spot,
    };
    let n = s.n;
    for i in 0..n {
        f.sync(i);
    }
    // The end depends on the out set alone, which few turns change: it is read again only
    // once the set differs from the last one found undecided (issue 29). No set of at most
    // COMBATANTS_MAX bits is all ones, so the first check always reads it.
    let mut undecided = u32::MAX;
    for round in 1..=s.max_rounds {
        f.round = round;
        f.w.see(|| Step::Life(LifeStep::Round { round }));
        for t in f.st.iter_mut().take(n) {
            t.light_used = false;
            t.dark_used = false;
            if !t.ko() {
                t.zone = t.zone.at_round_start();
            }
        }
        let mut turns = 0;
        loop {
            let group = acting_group(f.all & !f.ko_set, |i| (f.st[i].zone, f.st[i].init));
            if group == 0 {
                break;
            }
            turns += 1;
            if turns > MAX_TURNS_PER_ROUND {
                break;
            }
            // Equal scores act simultaneously: everyone in the tied group acts, even one a
            // groupmate knocks out first (as in the duel), in index order.
            for g in bits(group) {
                f.st[g].zone = Zone::Garde;
            }
            for g in bits(group) {
                f.take_turn(rng, g);
            }
            if f.out_set != undecided {
                if let Some(end) = f.ended() {
                    return f.finish(end, round);
                }
                undecided = f.out_set;
            }
        }
        // The Archonte regenerates an unconscious Adam' at the end of the round after the
        // one he fell in (option trinites_unconscious_regen; T-LIFE).
        // (Only the unconscious: a heal here changes no one else's state.)
        for i in bits(f.ko_set).filter(|&i| s.prof[i].trinite) {
            let t = f.st[i];
            if !t.dead()
                && t.dark > 0
                && !t.dark_used
                && rules.unconscious_regen.due(round, t.fell_round)
            {
                let t = &mut f.st[i];
                t.dark -= 1;
                t.dark_used = true;
                t.spent += 1;
                let before = t.ticked;
                f.heal(i, rules.regen_boxes);
                if W::ON {
                    let (after, left) = (f.st[i].ticked, f.st[i].dark);
                    f.w.note(Step::Regen {
                        who: i as u8,
                        light: false,
                        archonte: true,
                        before,
                        after,
                        left,
                    });
                }
            }
        }
        if f.out_set != undecided {
            if let Some(end) = f.ended() {
                return f.finish(end, round);
            }
            undecided = f.out_set;
        }
    }
    f.finish(End::Undecided, s.max_rounds)
}

#[cfg(test)]
impl<'a> Fight<'a, Quiet> {
    /// Everyone in the mêlée, as `State::EMPTY` stands.
    pub(super) fn melee(s: &'a Setup, rules: &'a TrinitesRules, round: u32) -> Self {
        let all = (1u32 << s.n) - 1;
        let mut at_spot = [0; SPOTS];
        at_spot[0] = all;
        Fight {
            s,
            rules,
            st: [State::EMPTY; COMBATANTS_MAX],
            round,
            // A unit struct: leaking it frees a test from keeping one alive.
            w: Box::leak(Box::new(Quiet)),
            ko_set: 0,
            out_set: 0,
            all,
            at_spot,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::trinites::skirmish::model::load_text;

    const FILE: &str = "system = \"trinites\"\nkind = \"skirmish\"\n\
        [[weapons]]\nname = \"w\"\ndamage = 3\n\
        [[group]]\nname = \"a\"\nside = \"x\"\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"w\"\n\
        [[group]]\nname = \"b\"\nside = \"y\"\nrapidite = 0\nattack = 0\nreaction = 0\nweapon = \"w\"\n";

    fn with_fight(check: impl FnOnce(&mut Fight<Quiet>)) {
        let m = load_text("t.toml", FILE);
        let s = Setup::new(&m);
        let rules = TrinitesRules::default();
        let mut f = Fight::melee(&s, &rules, 2);
        (f.st[1].init, f.st[1].zone) = (5, Zone::Garde);
        check(&mut f);
    }

    #[test]
    fn pain_then_unconscious_then_dead() {
        with_fight(|f| {
            // Endolori: no pain.
            assert_eq!(f.wound(1, 3, false), 3);
            assert_eq!(f.st[1].init, 5);
            // T-COMBAT pain: a wound ticking the blessé line (boxes 5..8): -3 initiative.
            f.wound(1, 2, false);
            assert_eq!(f.st[1].init, 2);
            // Again for every such wound; below 1 it wraps: +12, en garde -> en retrait.
            f.wound(1, 1, false);
            assert_eq!((f.st[1].init, f.st[1].zone), (11, Zone::Retrait));
            // T-LIFE: the first box of the third line: unconscious, in a coma.
            f.wound(1, 3, false);
            assert!(f.st[1].ko() && !f.st[1].dead());
            assert_eq!((f.st[1].down_round, f.st[1].nonlethal), (2, false));
            // A box beyond the third line: dead; boxes count up to 3×4+1 only.
            assert_eq!(f.wound(1, 10, false), 4);
            assert!(f.st[1].dead());
            assert_eq!(f.st[1].taken, 13);
        });
    }

    #[test]
    fn non_lethal_blows_leave_the_last_box() {
        with_fight(|f| {
            // Blessure non létale: the last box of the Inconscient line stays unticked and
            // the victim does not lose a box an hour.
            f.wound(1, 30, true);
            assert_eq!(f.st[1].ticked, 11);
            assert!(f.st[1].ko() && !f.st[1].dead() && f.st[1].nonlethal);
            // A lethal blow afterwards puts him back on the coma clock.
            f.wound(1, 1, false);
            assert_eq!(f.st[1].ticked, 12);
            assert!(!f.st[1].nonlethal);
        });
    }
}

#[cfg(test)]
#[path = "sim_risque_tests.rs"]
mod risque_tests;
