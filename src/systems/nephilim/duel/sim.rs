//! Monte Carlo of a Nephilim duel: initiative segments with multiple actions, delaying and
//! simultaneity inside a segment (N-INIT), attack against parry/dodge as opposed tests
//! (N-TEST, N-OPP), wound and fatigue counters with their maluses and the per-round
//! incapacity and exhaustion checks (N-HEALTH). No allocation per trial.

use crate::engine::{Counts, Draws, Rng64, Simulation, Tally};
use crate::systems::nephilim::health::TOP_MAX;
use crate::systems::nephilim::{DSampler, NephilimRules};
use crate::systems::trace::{Quiet, Watch};

use super::acc::{DuelAcc, FighterAcc, A_WINS, BOTH_OUT, B_WINS, UNDECIDED};
use super::model::{
    DefenceKind, Delay, DuelModel, ACTIONS_MAX, DELAY_ROUND_BONUS, MAGIC_ACTIONS_MAX,
};
use super::trace::{Out, Step};

/// The segment of an action `behind` initiative points after the highest (N-INIT), by the
/// gap `GAP`. `behind` is never negative, so the division is an unsigned one by the
/// constant: `div_euclid`'s quotient in fewer instructions.
#[inline(always)]
fn segment<const GAP: i64>(behind: i64) -> i64 {
    #[cfg(test)]
    assert!(
        behind >= 0,
        "an action before the highest initiative: {behind}"
    );
    (behind as u64 / GAP as u64) as i64
}

/// Puts fighter `i` out of the duel for `why`: counted in its accumulator and noted.
#[inline]
fn put_out<W: Watch<Step>>(w: &mut W, out: &mut [bool; 2], a: &mut FighterAcc, i: usize, why: Out) {
    out[i] = true;
    match why {
        Out::Dead => a.dead += 1,
        Out::Coma => a.coma += 1,
        Out::Unconscious => a.unconscious += 1,
    }
    w.see(|| Step::Out { who: i as u8, why });
}

/// The simulation of a duel; `actions` overrides each fighter's declared actions (the
/// actions grid of the report).
pub struct DuelSim {
    pub model: DuelModel,
    pub actions: [u8; 2],
    d: DSampler,
    /// Initiative gap that puts an action in a later segment (option `init_segment`): 5
    /// or 6, a constant of each compiled duel (`duel`).
    segment: crate::systems::nephilim::options::InitSegment,
    /// Initiative step between a fighter's actions (`nephilim_extra_action_step`, 6).
    step: i64,
    /// Malus per extra action (`nephilim_extra_action_malus`, 4).
    malus: i64,
    /// N-HEALTH malus of each counter level (`nephilim_health_malus_step` per state of
    /// `nephilim_health_boxes_per_state` boxes; book 0, 1-2 -> 1, 3-4 -> 2, 5-6 -> 3, 7-8
    /// -> 4), looked up rather than divided in the hot loop.
    health_malus: [i64; TOP_MAX as usize + 1],
    /// First and last level of the fourth state, with the round checks (book 7, 8).
    check_from: u8,
    check_to: u8,
    /// Level at which a fighter is out, dead or fainted (book 9).
    out_level: u8,
    /// Highest box of a counter (book 10).
    top: u8,
    /// Fatigue boxes per extra action (the file's, else by `nephilim_extra_action_cost`).
    fatigue_per_extra: u8,
    /// Duel readings of `NephilimRules` (issue 25).
    margin_over_higher: bool,
    extra_malus_on_defence: bool,
    fatigue_on_initiative: bool,
    /// Read by the report's first answer (`nephilim_wounds_on_initiative`).
    pub(super) wounds_on_initiative: bool,
    fatigue_on_checks: bool,
    survivor_check: bool,
}

impl DuelSim {
    pub fn new(model: DuelModel, rules: &NephilimRules, actions: [u8; 2]) -> DuelSim {
        let counters = rules.counters();
        DuelSim {
            d: rules.die.sampler(),
            segment: rules.init_segment,
            step: rules.action_step,
            malus: rules.action_malus,
            health_malus: counters.malus_table(),
            check_from: 3 * counters.boxes_per_state + 1,
            check_to: 4 * counters.boxes_per_state,
            out_level: counters.out_level(),
            top: counters.top(),
            fatigue_per_extra: model
                .fatigue_per_extra_action
                .unwrap_or(rules.extra_action_fatigue),
            margin_over_higher: rules.margin_over_higher,
            extra_malus_on_defence: rules.extra_malus_on_defence,
            fatigue_on_initiative: rules.fatigue_on_initiative,
            wounds_on_initiative: rules.wounds_on_initiative,
            fatigue_on_checks: rules.fatigue_on_checks,
            survivor_check: rules.survivor_check,
            actions,
            model,
        }
    }

    /// N-HEALTH malus of a counter level (levels never pass `top` <= TOP_MAX).
    #[inline(always)]
    fn malus(&self, level: u8) -> i64 {
        self.health_malus[usize::from(level)]
    }

    /// Fighter `i`'s initiative before its +1D-1D (N-INIT) at `wounds` and `fatigue` boxes
    /// after `bonus` from delayed rounds (l. 502). One function for the duel and for
    /// [`Self::round1_initiatives`], so the report's exact N-INIT figure takes every
    /// modifier the duel does (audit of 2026-12-06: it ignored the starting fatigue).
    #[inline(always)]
    fn initiative_base(&self, i: usize, wounds: u8, fatigue: u8, bonus: i64) -> i64 {
        // The fatigue malus applies to "toutes les actions" (N-HEALTH), the initiative
        // test included (option `nephilim_fatigue_on_initiative`, default yes); the wound
        // malus "uniquement à la Force et à l'Agilité" (l. 86), on initiative only when
        // Agilité reads as Rapidité (`nephilim_wounds_on_initiative`, default no).
        let tired = self.malus(fatigue) * i64::from(self.fatigue_on_initiative);
        let hurt = self.malus(wounds) * i64::from(self.wounds_on_initiative);
        self.model.fighters[i].initiative - tired - hurt + bonus
    }

    /// Each fighter's round-1 initiative before its roll: the one the duel rolls with,
    /// starting wounds and fatigue and options in force (no delay bonus yet in round 1).
    pub fn round1_initiatives(&self) -> [i64; 2] {
        [0, 1].map(|i| {
            let f = &self.model.fighters[i];
            self.initiative_base(i, f.wounds, f.fatigue, 0)
        })
    }

    /// An N-HEALTH check of fighter `i` (incapacity, else exhaustion): `base` (the
    /// characteristic less the malus) + 1D - 1D, failed below 0; noted as rolled.
    #[inline]
    fn check_fails<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        w: &mut W,
        i: usize,
        incapacity: bool,
        base: i64,
    ) -> bool {
        let score = base + self.d.roll(rng);
        w.see(|| Step::Check {
            who: i as u8,
            incapacity,
            score,
        });
        score < 0
    }

    /// One duel, counted; its outcome (an index of `DuelAcc::outcomes`). `w` sees each step
    /// (`trace.rs`); the batch run passes [`Quiet`], which compiles the notes away.
    pub(super) fn duel<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut DuelAcc,
        w: &mut W,
    ) -> usize {
        use crate::systems::nephilim::options::InitSegment;
        // The segment gap as a constant: each segment is a division by it, which a
        // constant turns into a multiplication (issue 29: the duel ran slower than the
        // code the issue was filed on). Both readings are held against the exact N-INIT
        // segment odds by tests/nephilim_duel.rs
        // (`round1_earlier_segment_matches_exact_n_init_under_both_readings`, which fails
        // when the two gaps are swapped).
        match self.segment {
            InitSegment::Five => self.duel_by::<W, 5>(rng, acc, w),
            InitSegment::Six => self.duel_by::<W, 6>(rng, acc, w),
        }
    }

    /// [`Self::duel`] with the segment gap `GAP` (`InitSegment::gap`).
    #[inline(always)]
    fn duel_by<W: Watch<Step>, const GAP: i64>(
        &self,
        rng: &mut Rng64,
        acc: &mut DuelAcc,
        w: &mut W,
    ) -> usize {
        let m = &self.model;
        let f = &m.fighters;
        let mut wounds = [f[0].wounds, f[1].wounds];
        let mut fatigue = [f[0].fatigue, f[1].fatigue];
        let mut out = [false; 2];
        let mut end_round = m.max_rounds as i64 + 1;
        // Initiative bonus of an action delayed from the rounds before (l. 502).
        let mut delay_bonus = [0i64; 2];
        for round in 1..=m.max_rounds {
            // N-INIT: initiative = Rapidité + Réaction + 1D - 1D; the first segment runs
            // from the highest initiative down `gap - 1`; action k at init - 6k (the step
            // in force).
            let init = [
                self.initiative_base(0, wounds[0], fatigue[0], delay_bonus[0]) + self.d.roll(rng),
                self.initiative_base(1, wounds[1], fatigue[1], delay_bonus[1]) + self.d.roll(rng),
            ];
            w.see(|| Step::Round {
                round,
                init,
                actions: [0, 1].map(|i| self.actions[i] + f[i].magic_actions),
            });
            let high = init[0].max(init[1]);
            let seg0 = [0, 1].map(|i| segment::<GAP>(high - init[i]));
            // Segments of each action; a delaying fighter shifts its whole round to the
            // opponent's first segment (no bonus modelled: anticipation only orders
            // declarations, and actions in a segment are simultaneous).
            // Magic-granted actions (nephilim-v3 l. 496) follow the declared ones at
            // init - 6k: "à son initiative maximale ou à cette initiative diminuée d'un
            // quelconque multiple de 6" (the example's +5, -1, -7, -13).
            // nephilim-v3 l. 502 "Lorsque le dernier segment arrive, il est encore possible
            // de retarder son action. Elle est alors repoussée au round suivant, pour lequel
            // il bénéficie d'un bonus de 6 à son initiative, ce bonus étant cumulatif chaque
            // round" (issue 25): with `delay = "next_round"` a fighter whose first action
            // falls in a later segment than the opponent's does not act (nor parry) this
            // round; its next round's initiative is +6 per round delayed in a row. The
            // delayed action replaces that round's action, it does not add to it.
            let skip = [0, 1].map(|i| f[i].delay == Delay::NextRound && seg0[i] > seg0[1 - i]);
            for i in 0..2 {
                if skip[i] {
                    delay_bonus[i] += DELAY_ROUND_BONUS;
                    acc.fighters[i].delayed_rounds += 1;
                    w.see(|| Step::Delays {
                        who: i as u8,
                        bonus: delay_bonus[i],
                    });
                } else {
                    delay_bonus[i] = 0;
                }
            }
            // Each fighter's segments in action order, `n[i]` of them. The step is at least
            // 1 (option range), so they never decrease: the last is the latest, and a
            // cursor walking them meets each segment in turn (several actions may share
            // one when the step is below the gap: the fighter acts once in it).
            let mut segs = [[0i64; (ACTIONS_MAX + MAGIC_ACTIONS_MAX) as usize]; 2];
            let mut n = [0usize; 2];
            for i in 0..2 {
                if skip[i] {
                    continue;
                }
                let shift = match f[i].delay {
                    Delay::ToMeet => (seg0[1 - i] - seg0[i]).max(0),
                    Delay::Never | Delay::NextRound => 0,
                };
                n[i] = (self.actions[i] + f[i].magic_actions) as usize;
                // Indexed: both iterator forms of this loop cost the duel 5-12% more
                // instructions per trial (callgrind, duel.toml).
                #[allow(clippy::needless_range_loop)]
                for k in 0..n[i] {
                    let x = init[i] - self.step * k as i64;
                    segs[i][k] = segment::<GAP>(high - x) + shift;
                }
            }
            if round == 1 {
                // Who acts first once the delays are made: a fighter delaying `to_meet`
                // waits for the opponent's segment, one delaying into round 2 does not act.
                let first = [0, 1].map(|i| if n[i] > 0 { segs[i][0] } else { i64::MAX });
                for i in 0..2 {
                    acc.fighters[i].earlier_round1 += (first[i] < first[1 - i]) as u64;
                }
            }
            let [last0, last1] = [0, 1].map(|i| n[i].checked_sub(1).map_or(0, |k| segs[i][k]));
            let last = last0.max(last1);
            let mut next = [0usize; 2];
            // N-INIT: each action at -4 (the malus in force) per extra action declared.
            let action_malus = [0, 1].map(|i| self.malus * (self.actions[i] as i64 - 1));
            // On parries and dodges too by default ("chacune de ses actions"; option
            // `nephilim_extra_action_malus_on`).
            let defence_malus = if self.extra_malus_on_defence {
                action_malus
            } else {
                [0, 0]
            };
            for s in 0..=last {
                let acting = [0, 1].map(|i| {
                    let here = next[i] < n[i] && segs[i][next[i]] == s;
                    #[cfg(test)]
                    assert_eq!(here, segs[i][..n[i]].contains(&s), "segment {s} of {i}");
                    while next[i] < n[i] && segs[i][next[i]] == s {
                        next[i] += 1;
                    }
                    !out[i] && here
                });
                let mut pending = [0u8; 2];
                for i in 0..2 {
                    if !acting[i] {
                        continue;
                    }
                    let o = 1 - i;
                    // N-HEALTH: wound malus on Agilité (attack, parry, dodge), fatigue
                    // malus on every action.
                    let att = f[i].attack + self.d.roll(rng)
                        - action_malus[i]
                        - self.malus(wounds[i])
                        - self.malus(fatigue[i]);
                    acc.fighters[i].attacks += 1;
                    w.see(|| Step::Attack {
                        who: i as u8,
                        segment: s,
                        score: att,
                        difficulty: m.attack_difficulty,
                    });
                    if att < m.attack_difficulty {
                        continue;
                    }
                    let mut margin = att - m.attack_difficulty;
                    // A parry or dodge only against a blow of the same segment (N-INIT).
                    if acting[o] && f[o].defence_kind != DefenceKind::None {
                        acc.fighters[o].defences += 1;
                        let def = f[o].defence + self.d.roll(rng)
                            - defence_malus[o]
                            - self.malus(wounds[o])
                            - self.malus(fatigue[o]);
                        w.see(|| Step::Defence {
                            who: o as u8,
                            score: def,
                            stopped: def >= att,
                        });
                        // N-OPP: the higher final wins; a tie goes to the defender.
                        if def >= att {
                            acc.fighters[o].defended += 1;
                            continue;
                        }
                        // Over the higher of the difficulty and the defence (option
                        // `nephilim_damage_margin`; `defence`: N-OPP's difference).
                        margin = if self.margin_over_higher {
                            margin.min(att - def)
                        } else {
                            att - def
                        };
                    }
                    acc.fighters[i].hits += 1;
                    let dmg =
                        f[i].weapon + if m.margin_damage { margin } else { 0 } - f[o].protection;
                    pending[o] = pending[o].saturating_add(dmg.clamp(0, self.top as i64) as u8);
                    w.see(|| Step::Blow {
                        to: o as u8,
                        weapon: f[i].weapon,
                        margin: if m.margin_damage { margin } else { 0 },
                        protection: f[o].protection,
                    });
                }
                if pending == [0, 0] {
                    // No blow landed: no counter moved, and none was at the out level
                    // before (starting wounds lie below it, `model.rs`), so nobody goes out.
                    #[cfg(test)]
                    assert!((0..2).all(|i| out[i] || wounds[i] < self.out_level));
                    continue;
                }
                // Simultaneity: blows of one segment land together.
                for i in 0..2 {
                    let before = wounds[i];
                    wounds[i] = wounds[i].saturating_add(pending[i]).min(self.top);
                    if W::ON && wounds[i] != before {
                        w.note(Step::Wounds {
                            who: i as u8,
                            before,
                            after: wounds[i],
                        });
                    }
                    if !out[i] && wounds[i] >= self.out_level {
                        put_out(w, &mut out, &mut acc.fighters[i], i, Out::Dead);
                    }
                }
                if out[0] || out[1] {
                    break;
                }
            }
            // End of round: fatigue of extra actions, then the N-HEALTH checks in the
            // fourth state (book 7-8). The book is silent on the survivor of a round whose
            // opponent went out to blows: by default it still makes its checks (and may
            // fall too, `both_out`); option `nephilim_survivor_check = no` ends the duel
            // there (audit of 2026-12-06).
            let ended = !self.survivor_check && (out[0] || out[1]);
            for i in 0..2 {
                if out[i] || ended {
                    continue;
                }
                if !skip[i] {
                    let before = fatigue[i];
                    fatigue[i] =
                        (fatigue[i] + self.fatigue_per_extra * (self.actions[i] - 1)).min(self.top);
                    if W::ON && fatigue[i] != before {
                        w.note(Step::Fatigue {
                            who: i as u8,
                            before,
                            after: fatigue[i],
                        });
                    }
                }
                let checks = self.check_from..=self.check_to;
                // Option `nephilim_check_malus` (default none: "en plus de son malus").
                let cm = if self.fatigue_on_checks {
                    self.malus(fatigue[i])
                } else {
                    0
                };
                // The checks' scores, noted as rolled (the rolls are drawn in the same
                // order as without a watcher).
                let coma = checks.contains(&wounds[i])
                    && self.check_fails(rng, w, i, true, 2 * f[i].constitution - cm);
                if coma {
                    // Coma: every fatigue box ticked.
                    fatigue[i] = self.top;
                    put_out(w, &mut out, &mut acc.fighters[i], i, Out::Coma);
                } else if fatigue[i] >= self.out_level
                    || (checks.contains(&fatigue[i])
                        && self.check_fails(rng, w, i, false, f[i].ka - cm))
                {
                    fatigue[i] = self.top;
                    put_out(w, &mut out, &mut acc.fighters[i], i, Out::Unconscious);
                }
            }
            if out[0] || out[1] {
                end_round = round as i64;
                break;
            }
        }
        let outcome = match out {
            [false, true] => A_WINS,
            [true, false] => B_WINS,
            [true, true] => BOTH_OUT,
            [false, false] => UNDECIDED,
        };
        acc.outcomes.add(outcome);
        acc.rounds.push(end_round);
        for i in 0..2 {
            acc.fighters[i].wounds_end += wounds[i] as u64;
            acc.fighters[i].fatigue_end += fatigue[i] as u64;
        }
        // The tally's `max_rounds + 1` marks an undecided duel; the rounds fought stop at
        // the cap (audit of 2026-12-07: the trace and `--find` counted one round too many).
        w.see(|| Step::End {
            outcome: outcome as u8,
            rounds: end_round.min(m.max_rounds as i64),
        });
        outcome
    }
}

impl Simulation for DuelSim {
    type Acc = DuelAcc;

    fn empty(&self) -> DuelAcc {
        DuelAcc {
            outcomes: Counts::default(),
            rounds: Tally::new(1, self.model.max_rounds as i64 + 1),
            fighters: [FighterAcc::default(); 2],
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut DuelAcc) {
        for mut rng in draws.trials(trials) {
            let rng = &mut rng;
            self.duel(rng, acc, &mut Quiet);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleOptions;

    fn sim(boxes: &str, step: &str) -> DuelSim {
        let mut o = RuleOptions::default();
        o.set(
            "nephilim_health_boxes_per_state",
            boxes,
            crate::lang::Lang::En,
        )
        .unwrap();
        o.set("nephilim_health_malus_step", step, crate::lang::Lang::En)
            .unwrap();
        let text = include_str!("../../../../scenarios/nephilim/duel.toml");
        let (_, model) = super::super::load(&crate::scenario::ScenarioFile::from_text(
            "duel.toml",
            text,
            crate::lang::Lang::En,
        ))
        .unwrap();
        DuelSim::new(model, &NephilimRules::from_options(&o), [1, 1])
    }

    // N-HEALTH: malus 1/2/3/4 for levels 1-2/3-4/5-6/7-8, round checks at 7-8, out at 9.
    #[test]
    fn malus_by_level() {
        let want = [0, 1, 1, 2, 2, 3, 3, 4, 4];
        let (book, two, none) = (sim("2", "1"), sim("2", "2"), sim("2", "0"));
        for (l, w) in want.iter().enumerate() {
            assert_eq!(book.malus(l as u8), *w);
            // A step of 2 doubles every state's malus; 0 removes them.
            assert_eq!(two.malus(l as u8), 2 * *w);
            assert_eq!(none.malus(l as u8), 0);
        }
        assert_eq!(
            (book.check_from, book.check_to, book.out_level, book.top),
            (7, 8, 9, 10)
        );
        // One box per state: malus = level up to 4, checks at 4, out at 5, 5 boxes.
        let one = sim("1", "1");
        assert_eq!(
            (0..5).map(|l| one.malus(l)).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4]
        );
        assert_eq!(
            (one.check_from, one.check_to, one.out_level, one.top),
            (4, 4, 5, 5)
        );
        let four = sim("4", "1");
        assert_eq!(
            (four.check_from, four.check_to, four.out_level, four.top),
            (13, 16, 17, 20)
        );
    }

    /// Duels under steps below, at and above the segment gap, both gaps, every delay and
    /// magic actions, so the test-build checks of `duel_by` (the segment cursor against
    /// `contains`; nobody at the out level after a segment where no blow landed) meet
    /// shared, empty and delayed segments. Every fighter acts and some duels end.
    #[test]
    fn segment_cursor_holds_for_every_step_gap_and_delay() {
        let text = include_str!("../../../../scenarios/nephilim/duel.toml");
        for delay in ["never", "to_meet", "next_round"] {
            let text = text
                .replace("delay = \"to_meet\"", &format!("delay = \"{delay}\""))
                .replacen("actions = 1\n", "actions = 1\nmagic_actions = 2\n", 1);
            let (_, model) = super::super::load(&crate::scenario::ScenarioFile::from_text(
                "duel.toml",
                &text,
                crate::lang::Lang::En,
            ))
            .unwrap();
            for (step, gap) in [("1", "six"), ("3", "five"), ("6", "six"), ("12", "five")] {
                let mut o = RuleOptions::default();
                o.set("nephilim_extra_action_step", step, crate::lang::Lang::En)
                    .unwrap();
                o.set("init_segment", gap, crate::lang::Lang::En).unwrap();
                let sim = DuelSim::new(model.clone(), &NephilimRules::from_options(&o), [3, 2]);
                let draws = Draws::new(5, &crate::engine::StreamKey::new("cursor"), 0);
                let mut acc = sim.empty();
                sim.run_batch(&draws, 3000, &mut acc);
                assert!(acc.fighters.iter().all(|f| f.attacks > 0), "{delay} {step}");
                assert!(acc.outcomes.counts[UNDECIDED] < 3000, "{delay} {step}");
            }
        }
    }
}
