//! One duel, round by round (L'ART DE LA GUERRE, LES ACTIONS: Frapper, VIE ET MORT), watched
//! by a [`Watch`]: [`Quiet`] in the batch (`sim.rs`), the steps of `trace.rs` in a trace
//! (issue 27: one implementation of the rules).

use crate::engine::Rng64;
use crate::systems::mask::bits;
use crate::systems::trace::{Quiet, Watch};
use crate::systems::trinites::words::{tie, LifeStep, Roll};
use crate::systems::trinites::{roll_test, RegenAction, RisqueIncident, TrinitesRules};

use crate::systems::trinites::track::{acting_group, initiative, shift, Zone};
use crate::systems::trinites::wound::{self, Track};

use super::model::{Combat, Fighter, RegenAt, HUMAN_LINE, MAX_HUMANS};
use super::primes::{half_up, Penalty, Prime};
use super::trace::Step;

#[derive(Clone, Copy, Debug)]
struct State {
    init: i64,
    zone: Zone,
    /// Life boxes ticked, line after line.
    ticked: i64,
    line: i64,
    /// Reactions still raised by Prudence / lowered by Danger before the next turn.
    prudence: u8,
    danger: u8,
    /// Round the fighter lost consciousness in.
    fell_round: u32,
}

impl State {
    const EMPTY: State = State {
        init: 1,
        zone: Zone::Garde,
        ticked: 0,
        line: HUMAN_LINE,
        prudence: 0,
        danger: 0,
        fell_round: 0,
    };

    /// Inconscient: a box of the third line is ticked (T-LIFE).
    fn ko(&self) -> bool {
        self.ticked > 2 * self.line
    }

    /// A box had to be ticked beyond the third line.
    fn dead(&self) -> bool {
        self.ticked > 3 * self.line
    }

    /// What a wound changes (`wound::tick`).
    fn track(&mut self) -> Track<'_> {
        (&mut self.ticked, &mut self.init, &mut self.zone, self.line)
    }

    /// T-COMBAT wrap-around (shared with the skirmish: `track::shift`).
    fn shift_init(&mut self, delta: i64) {
        shift(&mut self.init, &mut self.zone, delta);
    }
}

/// How a duel ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelEnd {
    /// Every human is unconscious.
    AdamWins = 0,
    /// The Adam' is dead, or unconscious with no Darkness point left to come back.
    HumansWin = 1,
    /// Both sides out at once, or `max_rounds` reached.
    Draw = 2,
}

/// What one duel produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FightRecord {
    pub end: DuelEnd,
    /// The round the duel ended in.
    pub rounds: u32,
    /// Karma points the Adam' spent (regenerations).
    pub karma_spent: u32,
    /// The Adam' lost consciousness at least once.
    pub adam_fell: bool,
    pub humans_ko: u32,
}

struct Fight<'a, W> {
    c: &'a Combat,
    adam: Fighter,
    rules: &'a TrinitesRules,
    st: [State; MAX_HUMANS + 1],
    light: i64,
    dark: i64,
    light_used: bool,
    dark_used: bool,
    spent: u32,
    fell: bool,
    round: u32,
    w: &'a mut W,
    /// Who is unconscious (`State::ko`), one bit each, kept in step with `st` by `sync`;
    /// and the humans (bits 1..n). The turn loop walks these bits (issue 29).
    ko_set: u32,
    humans: u32,
}

impl<W: Watch<Step>> Fight<'_, W> {
    fn profile(&self, i: usize) -> Fighter {
        if i == 0 {
            self.adam
        } else {
            self.c.humans
        }
    }

    /// Recomputes `j`'s bit of the unconscious set from its boxes.
    #[inline(always)]
    fn sync(&mut self, j: usize) {
        let bit = 1u32 << j;
        self.ko_set = (self.ko_set & !bit) | if self.st[j].ko() { bit } else { 0 };
    }

    fn heal(&mut self, j: usize, points: i64) {
        let was_ko = self.st[j].ko();
        self.st[j].ticked = (self.st[j].ticked - points).max(0);
        if was_ko && !self.st[j].ko() {
            // L'inconscience: on waking the die goes back en garde.
            self.st[j].zone = Zone::Garde;
        }
        self.sync(j);
    }

    fn wound(&mut self, j: usize, damage: i64, non_lethal: bool) {
        if damage <= 0 {
            if W::ON {
                let t = self.st[j].ticked;
                self.w.note(Step::Life(LifeStep::Ticks {
                    who: j as u8,
                    before: t,
                    after: t,
                    line: self.st[j].line,
                }));
            }
            return;
        }
        let s = &mut self.st[j];
        let l = s.line;
        let pain = self.rules.pain_initiative;
        let note = |step| self.w.note(Step::Life(step));
        let (before, after) = wound::tick(s.track(), j as u8, damage, non_lethal, pain, note);
        // T-LIFE: a box of the third line ticked, inconscient: the die goes en retrait.
        let s = &mut self.st[j];
        if before <= 2 * l && after > 2 * l {
            s.zone = Zone::Retrait;
            s.fell_round = self.round;
            if j == 0 {
                self.fell = true;
            }
            self.w.see(|| Step::Life(LifeStep::Falls { who: j as u8 }));
        }
        self.sync(j);
    }

    fn damage(&mut self, f: &Fighter, j: usize) {
        let target = self.profile(j);
        // VIE ET MORT, Périr par l'épée: swords deal double standard damage to Trinités;
        // the prime's ±50% before or after (option `trinites_sword_order`).
        let mut d = crate::systems::trinites::skirmish::standard_damage(
            f.damage,
            f.sword && j == 0,
            f.prime,
            self.rules.prime_before_sword,
        );
        if f.penalty == Penalty::BlessureLegere {
            d = half_up(d);
        }
        let prot = if f.prime == Prime::BlessurePrecise {
            half_up(target.protection)
        } else {
            target.protection
        };
        // T-COMBAT: damage = weapon - protection.
        self.w.see(|| Step::Damage {
            to: j as u8,
            damage: d,
            protection: prot,
        });
        self.wound(j, d - prot, f.prime == Prime::BlessureNonLetale);
    }

    /// The humans engaged with the Adam' while human `striker` strikes him: every conscious
    /// one, and the striker even when a groupmate of his tied initiative knocked him out
    /// before his turn (Frapper, l. 560: "Condition(s): Engagé"; audit of 2026-12-06).
    fn engaged_with_adam(&self, striker: usize) -> i64 {
        ((self.humans & !self.ko_set) | (1 << striker)).count_ones() as i64
    }

    /// The Adam's regeneration on his turn (T-LIFE, T-COMBAT): Light while endolori or
    /// blessé, Darkness while endolori, at most one point of each per round, `regen_boxes` boxes each (book 4).
    fn regenerate(&mut self) -> i64 {
        let mut actions = 0;
        loop {
            let t = self.st[0].ticked;
            let wanted = match self.c.regenerate_at {
                RegenAt::Endolori => t > 0,
                RegenAt::Blesse => t > self.st[0].line,
                RegenAt::Never => false,
            };
            if !wanted {
                break;
            }
            let light = if self.light > 0 && !self.light_used {
                self.light -= 1;
                self.light_used = true;
                true
            } else if t <= self.st[0].line && self.dark > 0 && !self.dark_used {
                self.dark -= 1;
                self.dark_used = true;
                false
            } else {
                break;
            };
            self.spent += 1;
            actions += 1;
            self.heal(0, self.rules.regen_boxes);
            self.w.see(|| Step::Regen {
                light,
                archonte: false,
                before: t,
                after: self.st[0].ticked,
                left: if light { self.light } else { self.dark },
            });
        }
        actions
    }

    // Inlined as before the watcher made `Fight` generic: a separate copy per watcher
    // cost the batch a few percent (perf, issue 27).
    #[inline(always)]
    fn take_turn(&mut self, rng: &mut Rng64, i: usize) {
        let keep = self.rules.dual_keep;
        // The success target in force (T-TEST), read once per turn from the typed rules.
        let target = self.rules.target;
        self.st[i].prudence = 0;
        self.st[i].danger = 0;
        let f = self.profile(i);
        self.w.see(|| {
            Step::Life(LifeStep::Turn {
                who: i as u8,
                init: self.st[i].init,
            })
        });
        let mut free = f.attacks_per_turn;
        if i == 0 && !self.st[0].ko() {
            let regen = self.regenerate();
            if self.rules.regen_action == RegenAction::Libre {
                free += regen;
            }
        }
        // Each free action declared after the first: -3 (the parameter in force) to every
        // test of the turn.
        let free_malus = self.rules.free_malus(free);
        if W::ON && free > 1 {
            self.w.note(Step::Declares {
                who: i as u8,
                free,
                malus: free_malus,
            });
        }
        let mut init_delta = 0;
        for _ in 0..f.attacks_per_turn {
            // The fighters aimed at, one bit each.
            let mut targets = 0u32;
            let mut m = f.attack + free_malus;
            if i == 0 {
                let standing = self.humans & !self.ko_set;
                if f.prime == Prime::AttaquesMultiples {
                    targets = standing;
                } else {
                    // Focus the most wounded human still standing (ties: the first).
                    let mut best: Option<usize> = None;
                    for j in bits(standing) {
                        if best.is_none_or(|b| self.st[j].ticked > self.st[b].ticked) {
                            best = Some(j);
                        }
                    }
                    if let Some(j) = best {
                        targets = 1 << j;
                    }
                }
            } else if !self.st[0].dead() && (!self.st[0].ko() || self.c.strike_unconscious) {
                targets = 1;
                if self.st[0].ko() {
                    m += 3; // Frapper: cible inerte +3.
                }
            }
            if targets == 0 {
                break;
            }
            if f.prime == Prime::Efficacite {
                m += 3;
            }
            if f.penalty == Penalty::Difficulte {
                m -= 3;
            }
            // T-TEST, T-DUAL: the Adam' rolls the Deva's and the Archonte's dice.
            let roll = roll_test(rng, i == 0, m, keep, target);
            let attack_ok = roll.succeeds(m, target);
            let attack_final = roll.natural + m;
            if W::ON {
                let mut aimed = bits(targets);
                let first = aimed.next();
                self.w.note(Step::Attack {
                    who: i as u8,
                    target: if aimed.next().is_none() && f.prime != Prime::AttaquesMultiples {
                        first.map(|j| j as u8)
                    } else {
                        None
                    },
                    roll: Roll::new(roll, i == 0, m, target),
                });
            }
            let mut success = false;
            for j in bits(targets) {
                let hit = if self.st[j].ko() {
                    self.w.see(|| Step::Inert {
                        who: j as u8,
                        hit: attack_ok,
                    });
                    attack_ok
                } else {
                    // Frapper (l. 563): the target reacts at -1 per foe engaged with it,
                    // "y compris le premier", so never at -0.
                    let engaged = if j == 0 { self.engaged_with_adam(i) } else { 1 };
                    let mut rm = self.profile(j).reaction - engaged;
                    if self.st[j].prudence > 0 {
                        rm += 3;
                        self.st[j].prudence -= 1;
                    }
                    if self.st[j].danger > 0 {
                        rm -= 3;
                        self.st[j].danger -= 1;
                    }
                    if f.prime == Prime::Debordement {
                        rm -= 3;
                    }
                    if f.penalty == Penalty::Facilite {
                        rm += 3;
                    }
                    let r = roll_test(rng, j == 0, rm, keep, target);
                    // T-CONF: the reacting side wins ties.
                    let hit =
                        attack_ok && (!r.succeeds(rm, target) || attack_final > r.natural + rm);
                    self.w.see(|| Step::Reaction {
                        who: j as u8,
                        roll: Roll::new(r, j == 0, rm, target),
                        attack_ok,
                        hit,
                        tie: attack_ok && tie(hit, r, rm, attack_final, target),
                    });
                    hit
                };
                if hit {
                    success = true;
                    self.damage(&f, j);
                }
            }
            if success && f.prime == Prime::Acceleration {
                init_delta += 3;
            }
            match f.penalty {
                Penalty::Ralentissement => init_delta -= 3,
                Penalty::Danger => self.st[i].danger += 1,
                _ => {}
            }
            if f.prime == Prime::Prudence {
                self.st[i].prudence += 1;
            }
            // Risque (l. 762): "Si l'action échoue, un incident survient"; what a failed
            // action is: option `trinites_risque_failure`.
            if f.penalty == Penalty::Risque
                && self.rules.risque == RisqueIncident::LoseTurn
                && self.rules.risque_failure.failed(attack_ok, success)
            {
                self.w.see(|| Step::Life(LifeStep::Risque { who: i as u8 }));
                break;
            }
        }
        if !self.st[i].ko() {
            self.st[i].shift_init(init_delta);
            if W::ON && init_delta != 0 {
                self.w.note(Step::Life(LifeStep::Shift {
                    who: i as u8,
                    delta: init_delta,
                    init: self.st[i].init,
                    zone: self.st[i].zone,
                }));
            }
        }
    }

    fn ended(&self) -> Option<DuelEnd> {
        let humans_out = self.humans & !self.ko_set == 0;
        let adam_out = self.st[0].dead() || (self.st[0].ko() && self.dark == 0);
        match (humans_out, adam_out) {
            (true, true) => Some(DuelEnd::Draw),
            (true, false) => Some(DuelEnd::AdamWins),
            (false, true) => Some(DuelEnd::HumansWin),
            _ => None,
        }
    }

    fn record(&mut self, end: DuelEnd) -> FightRecord {
        self.w.see(|| Step::End {
            outcome: end,
            rounds: self.round,
        });
        FightRecord {
            end,
            rounds: self.round,
            karma_spent: self.spent,
            adam_fell: self.fell,
            humans_ko: (self.humans & self.ko_set).count_ones(),
        }
    }
}

/// Turns per round beyond which a round is cut (only a long chain of Accélération
/// wrap-arounds could get there).
const MAX_TURNS_PER_ROUND: u32 = 200;

/// Fights one duel with the Adam' using `pair` on every attack (the batch: unwatched).
pub fn fight(
    c: &Combat,
    pair: (Prime, Penalty),
    rules: &TrinitesRules,
    rng: &mut Rng64,
) -> FightRecord {
    fight_watched(c, pair, rules, rng, &mut Quiet)
}

/// [`fight`], every step noted to `w` (a trace) or none ([`Quiet`], the batch).
#[inline(always)]
pub fn fight_watched<W: Watch<Step>>(
    c: &Combat,
    pair: (Prime, Penalty),
    rules: &TrinitesRules,
    rng: &mut Rng64,
    w: &mut W,
) -> FightRecord {
    let mut adam = c.adam;
    (adam.prime, adam.penalty) = pair;
    let n = c.count + 1;
    let mut st = [State::EMPTY; MAX_HUMANS + 1];
    for (i, s) in st.iter_mut().enumerate().take(n) {
        let f = if i == 0 { adam } else { c.humans };
        // L'initiative: ceil(final Rapidité test / 2 (the divisor in force)), at most 12 (and at least 1: a die).
        let m = f.rapidite + f.initiative_difficulty;
        let r = roll_test(rng, i == 0, m, rules.dual_keep, rules.target);
        s.init = initiative(r.natural, m, rules.initiative_divisor);
        w.see(|| Step::Initiative {
            who: i as u8,
            roll: Roll::new(r, i == 0, m, rules.target),
            score: s.init,
        });
        // T-LIFE: the Adam' and the humans' line lengths in force.
        s.line = rules.line(i == 0);
    }
    let mut fight = Fight {
        c,
        adam,
        rules,
        st,
        light: c.light,
        dark: c.dark,
        light_used: false,
        dark_used: false,
        spent: 0,
        fell: false,
        round: 0,
        w,
        // Nobody is down at the start.
        ko_set: 0,
        humans: ((1u32 << n) - 1) & !1,
    };
    for round in 1..=c.max_rounds {
        fight.round = round;
        fight.w.see(|| Step::Life(LifeStep::Round { round }));
        fight.light_used = false;
        fight.dark_used = false;
        for s in fight.st.iter_mut().take(n).filter(|s| !s.ko()) {
            s.zone = s.zone.at_round_start();
        }
        let mut turns = 0;
        loop {
            let group = acting_group(((1u32 << n) - 1) & !fight.ko_set, |i| {
                (fight.st[i].zone, fight.st[i].init)
            });
            if group == 0 {
                break;
            }
            turns += 1;
            if turns > MAX_TURNS_PER_ROUND {
                break;
            }
            // Equal scores act simultaneously: everyone in the group acts, even if a
            // groupmate knocks them out first.
            for i in bits(group) {
                fight.st[i].zone = Zone::Garde;
            }
            for i in bits(group) {
                fight.take_turn(rng, i);
            }
            if let Some(end) = fight.ended() {
                return fight.record(end);
            }
        }
        // The Archonte regenerates the unconscious Adam' at the end of the round after
        // the one he fell in (option trinites_unconscious_regen).
        let s = fight.st[0];
        if s.ko()
            && !s.dead()
            && fight.dark > 0
            && !fight.dark_used
            && rules.unconscious_regen.due(round, s.fell_round)
        {
            fight.dark -= 1;
            fight.dark_used = true;
            fight.spent += 1;
            fight.heal(0, rules.regen_boxes);
            if W::ON {
                let after = fight.st[0].ticked;
                fight.w.note(Step::Regen {
                    light: false,
                    archonte: true,
                    before: s.ticked,
                    after,
                    left: fight.dark,
                });
            }
        }
        if let Some(end) = fight.ended() {
            return fight.record(end);
        }
    }
    fight.record(DuelEnd::Draw)
}

#[cfg(test)]
#[path = "fight_tests.rs"]
mod tests;
