//! `cosmosim trace` for 2d20 firefights (issue 27): trials of a run replayed from their own
//! streams through the batch code (`sim.rs` `CombatSim::fight`, watched), told in the
//! book's terms: attack tests with bonus d20 bought from the pools (F-TEST, F-AP), combat
//! dice with Effects against damage resistance (F-CD), helpers (F-HELP), stuns, aims and
//! Luck (F-LUCK).

use serde_json::json;

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::trace::{
    finished, replay_trials, Cond, TraceRequest, TraceResult, Traced, Watch,
};

use super::sim::CombatSim;
use crate::systems::fallout::BONUS_MAX;

/// Most d20 an attack rolls: 2 and the bonus dice (F-AP).
const DICE_MAX: usize = 2 + BONUS_MAX as usize;

/// An attack's d20 as a trace shows them (the batch keeps only their sums; `sim.rs` fills
/// this only when watched): the faces, and which gave no success, were complications or
/// were rerolled.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Dice {
    faces: [u8; DICE_MAX],
    n: u8,
    /// Bit d: die d gave no success.
    zero: u8,
    /// Bit d: die d is a complication.
    complication: u8,
    /// Bit d: die d was rerolled (F-LUCK: "Chaque dé ne peut être relancé qu'une seule
    /// fois").
    rerolled: u8,
}

impl Dice {
    pub fn add(&mut self, face: u8, successes: u8, complication: u8) {
        let d = self.n as usize;
        if d < DICE_MAX {
            self.faces[d] = face;
            self.zero |= ((successes == 0) as u8) << d;
            self.complication |= (complication & 1) << d;
            self.n += 1;
        }
    }

    /// The faces rolled, in order.
    pub fn faces(&self) -> &[u8] {
        &self.faces[..self.n as usize]
    }

    /// A reroll of `who`'s dice, seen: the engine rerolls the highest die without
    /// success, as the Luck table does ("ce dé (le plus haut) est relancé"), so a
    /// complication first (`Rerollable::reroll`). That die becomes `face` (`successes`
    /// of its own, `total` for the attack, help included); `luck`: the Luck left when a
    /// Luck point paid for it; `help_now`: the attacker's first success, which brings the
    /// helpers' d20 in (F-HELP).
    pub fn reroll(
        &mut self,
        who: usize,
        face: u8,
        successes: u8,
        total: u8,
        luck: Option<u8>,
        help_now: bool,
    ) -> Step {
        let pick = self.zero & !self.rerolled;
        let d = (0..self.n as usize)
            .filter(|&d| pick >> d & 1 == 1)
            .max_by_key(|&d| self.faces[d]);
        let before = d.map_or(0, |d| {
            self.rerolled |= 1 << d;
            std::mem::replace(&mut self.faces[d], face)
        });
        Step::Reroll {
            who: who as u8,
            before,
            complication: d.is_some_and(|d| self.complication >> d & 1 == 1),
            after: face,
            successes,
            total,
            luck,
            help_now,
        }
    }
}

/// One step of a firefight; combatants and weapons are indices into the model.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A round starts; the players' group pool and the MJ's pool.
    Round {
        round: u32,
        pools: [u32; 2],
    },
    /// A stunned combatant loses its turn.
    Stunned {
        who: u8,
    },
    /// Its turn goes to helping an ally's attacks (F-HELP).
    Helps {
        who: u8,
        ally: u8,
    },
    /// A second major action for 2 AP, at +1 difficulty (F-AP).
    SecondMajor {
        who: u8,
    },
    /// A second minor action (aiming again) for 1 AP from the side's pool (`side`: 0 the
    /// group's, 1 the MJ's), `left` AP in it after (F-AP).
    ExtraMinor {
        who: u8,
        side: u8,
        left: u32,
    },
    /// An attack's d20 as rolled (bonus dice included) and their successes, before
    /// helpers and rerolls ([`Step::Attack`] follows with the result).
    Roll {
        who: u8,
        target: u8,
        weapon: u8,
        dice: Dice,
        successes: u8,
    },
    /// A d20 without success rerolled: by aiming (`luck: None`) or for a Luck point (Miss
    /// Fortune, F-LUCK; the Luck left). Its face before and after, its successes, the
    /// attack's successes now (help included). `complication`: the die rerolled was one,
    /// gone with the new result (F-LUCK). `help_now`: it gave the attacker its first
    /// success, so the helpers' d20 now count (F-HELP).
    Reroll {
        who: u8,
        before: u8,
        complication: bool,
        after: u8,
        successes: u8,
        total: u8,
        luck: Option<u8>,
        help_now: bool,
    },
    /// A helper's d20 on its ally's attack (F-HELP): counted only when the ally's own
    /// dice gave a success (`counted`: as rolled, before rerolls, which come after it);
    /// its complication counts either way.
    HelpDie {
        who: u8,
        ally: u8,
        face: u8,
        successes: u8,
        counted: bool,
        complication: bool,
    },
    /// A Luck point on combat dice (Miss Fortune, F-LUCK, key `luck_cd`): blank dice
    /// rerolled, the damage and Effects they now give, the Luck left.
    LuckCd {
        who: u8,
        rerolled: u8,
        damage: u32,
        effects: u32,
        luck: u8,
    },
    /// An attack test's result: difficulty, bonus d20 bought, the attacker's d20 as they
    /// finally show (rerolled ones replaced), successes (rerolls and helpers included), a
    /// complication; the pools after buying.
    Attack {
        who: u8,
        target: u8,
        weapon: u8,
        difficulty: u8,
        bonus: u8,
        dice: Dice,
        successes: u8,
        complication: bool,
        pools: [u32; 2],
    },
    /// Combat dice rolled, their damage (Vicious Effects included) and Effects, the
    /// target's damage resistance after Piercing, HP removed and HP left.
    Damage {
        to: u8,
        dice: u8,
        damage: u32,
        effects: u32,
        dr: u32,
        dealt: u32,
        hp: u32,
    },
    Down {
        who: u8,
    },
    /// An index of `CombatAcc::outcomes` and the rounds fought (`max_rounds` when
    /// undecided, where the tally counts `max_rounds + 1`).
    End {
        outcome: u8,
        rounds: i64,
    },
}

/// The outcome names of `combat-sides.csv`.
pub(super) const OUTCOMES: [&str; 3] = ["players_win", "mj_wins", "undecided"];

/// The kind's `trace` entry: the same loading and settings as `run`.
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let (sim, ctx, trials) = super::setup(file, &req.overrides)?;
    let (engine, key) = (ctx.engine, &ctx.stream);
    let mut acc = crate::engine::Simulation::empty(&sim);
    replay_trials(
        &req.which,
        trials,
        engine.seed(),
        &mut acc,
        |c| Ending::parse(c, &sim),
        Ends::default,
        Ending::holds,
        |acc, i, w| sim.fight(&mut engine.trial_stream(key, i), acc, w),
        |i, outcome, steps| render(file.lang, &sim, i, outcome, steps),
    )
}

/// What `--find` reads of a fight: outcome, length, who went down. No other step is kept.
#[derive(Default)]
struct Ends {
    outcome: usize,
    rounds: i64,
    down: u64,
}

impl Watch<Step> for Ends {
    const ON: bool = true;
    fn note(&mut self, step: Step) {
        match step {
            Step::Down { who } => self.down |= 1 << who,
            Step::End { outcome, rounds } => {
                (self.outcome, self.rounds) = (outcome as usize, rounds)
            }
            _ => {}
        }
    }
}

enum Ending {
    Outcome(usize),
    Down(usize),
    Standing(usize),
    RoundsAtLeast(i64),
}

const CONDITIONS: &str = "outcome=<players_win|mj_wins|undecided>, down=<combatant>, standing=<combatant>, rounds_at_least=<n>";

impl Ending {
    fn parse(c: &Cond, sim: &CombatSim) -> Result<Ending, UserError> {
        let names: Vec<&str> = sim
            .model
            .combatants
            .iter()
            .map(|f| f.name.as_str())
            .collect();
        Ok(match c.name.as_str() {
            "outcome" => Ending::Outcome(c.one_of(&OUTCOMES)?),
            "down" => Ending::Down(c.one_of(&names)?),
            "standing" => Ending::Standing(c.one_of(&names)?),
            "rounds_at_least" => Ending::RoundsAtLeast(c.number("1, 2, 3, ...")?),
            _ => return Err(c.unknown(CONDITIONS)),
        })
    }

    fn holds(&self, e: &Ends) -> bool {
        match *self {
            Ending::Outcome(i) => e.outcome == i,
            Ending::Down(f) => e.down & (1 << f) != 0,
            Ending::Standing(f) => e.down & (1 << f) == 0,
            Ending::RoundsAtLeast(r) => e.rounds >= r,
        }
    }
}

/// Trial `trial`'s steps as lines and JSON in `lang`.
fn render(lang: Lang, sim: &CombatSim, trial: u64, outcome: usize, steps: &[Step]) -> Traced {
    let m = &sim.model;
    let name = |f: u8| m.combatants[f as usize].name.as_str();
    let weapon_name = |w: u8| m.weapons[w as usize].name.as_str();
    let list = |d: &Dice| {
        let f: Vec<String> = d.faces().iter().map(u8::to_string).collect();
        f.join(", ")
    };
    // The attack's dice as first rolled, for its JSON result; and where the account is, since a roll
    // with nothing between it and its result is told on the result's line.
    let mut rolled = Dice::default();
    let mut at = 0usize;
    Traced::told(trial, OUTCOMES[outcome], steps, |step| {
        let (prev, next) = (at.checked_sub(1).map(|p| steps[p]), steps.get(at + 1));
        at += 1;
        Some(match step {
            Step::ExtraMinor { who, side, left } => (
                1,
                tr!(
                    lang,
                    "trace.fallout_extra_minor",
                    who = name(who),
                    pool = if side == 0 {
                        tr!(lang, "trace.fallout_pool_group")
                    } else {
                        tr!(lang, "trace.fallout_pool_mj")
                    },
                    left
                ),
                json!({"step": "extra_minor", "who": name(who),
                    "pool": if side == 0 { "group" } else { "mj" }, "ap": 1, "left": left}),
            ),
            Step::Roll {
                who,
                target,
                weapon,
                dice,
                successes,
            } => {
                rolled = dice;
                if matches!(next, Some(Step::Attack { .. })) {
                    return None;
                }
                (
                    1,
                    tr!(
                        lang,
                        "trace.fallout_roll",
                        who = name(who),
                        target = name(target),
                        weapon = weapon_name(weapon),
                        dice = dice.faces().len(),
                        faces = list(&dice),
                        successes
                    ),
                    json!({"step": "roll", "who": name(who), "target": name(target),
                        "weapon": weapon_name(weapon), "dice": dice.faces(), "successes": successes}),
                )
            }
            Step::Reroll {
                who,
                before,
                complication,
                after,
                successes,
                total,
                luck,
                help_now,
            } => {
                let text = match luck {
                    None => tr!(lang, "trace.fallout_aim_reroll"),
                    Some(_) => tr!(lang, "trace.fallout_luck_reroll"),
                };
                (
                    2,
                    tr_fill!(
                        text,
                        who = name(who),
                        before,
                        after,
                        successes,
                        total,
                        luck = luck.unwrap_or(0)
                    ) + if complication {
                        tr!(lang, "trace.fallout_complication_dropped")
                    } else {
                        ""
                    } + if help_now {
                        tr!(lang, "trace.fallout_help_now_counted")
                    } else {
                        ""
                    },
                    json!({"step": "reroll", "why": if luck.is_some() { "luck" } else { "aim" },
                        "who": name(who), "before": before, "complication_dropped": complication, "after": after,
                        "die_successes": successes, "successes": total, "luck_left": luck,
                        "help_now_counted": help_now}),
                )
            }
            Step::HelpDie {
                who,
                ally,
                face,
                successes,
                counted,
                complication,
            } => {
                let text = tr_fill!(
                    if counted {
                        tr!(lang, "trace.fallout_help_counted")
                    } else {
                        tr!(lang, "trace.fallout_help_not_counted")
                    },
                    who = name(who),
                    ally = name(ally),
                    face,
                    successes
                );
                let text = if complication {
                    text + tr!(lang, "trace.fallout_complication")
                } else {
                    text
                };
                (
                    2,
                    text,
                    json!({"step": "help_die", "who": name(who), "ally": name(ally), "face": face,
                        "successes": successes, "counted": counted, "complication": complication}),
                )
            }
            Step::LuckCd {
                who,
                rerolled,
                damage,
                effects,
                luck,
            } => (
                2,
                tr!(
                    lang,
                    "trace.fallout_luck_cd",
                    who = name(who),
                    rerolled,
                    damage,
                    effects,
                    luck
                ),
                json!({"step": "luck_cd", "who": name(who), "rerolled": rerolled,
                    "damage": damage, "effects": effects, "luck_left": luck}),
            ),
            Step::Round { round, pools } => (
                0,
                tr!(
                    lang,
                    "trace.fallout_round",
                    round,
                    group = pools[0],
                    mj = pools[1]
                ),
                json!({"step": "round", "round": round, "group_ap": pools[0], "mj_ap": pools[1]}),
            ),
            Step::Stunned { who } => (
                1,
                tr!(lang, "trace.fallout_stunned", who = name(who)),
                json!({"step": "stunned", "who": name(who)}),
            ),
            Step::Helps { who, ally } => (
                1,
                tr!(
                    lang,
                    "trace.fallout_helps",
                    who = name(who),
                    ally = name(ally)
                ),
                json!({"step": "helps", "who": name(who), "ally": name(ally)}),
            ),
            Step::SecondMajor { who } => (
                1,
                tr!(lang, "trace.fallout_second_major", who = name(who)),
                json!({"step": "second_major", "who": name(who)}),
            ),
            Step::Attack {
                who,
                target,
                weapon,
                difficulty,
                bonus,
                dice,
                successes,
                complication,
                pools,
            } => {
                let hit = successes >= difficulty;
                let weapon = weapon_name(weapon);
                // Its roll's line when nothing came between (rerolls, helpers), else the
                // result under the roll's line.
                let whole = matches!(prev, Some(Step::Roll { .. }));
                let text = tr_fill!(
                    match (whole, hit) {
                        (true, true) => tr!(lang, "trace.fallout_attack_hits"),
                        (true, false) => tr!(lang, "trace.fallout_attack_misses"),
                        (false, true) => tr!(lang, "trace.fallout_result_hits"),
                        (false, false) => tr!(lang, "trace.fallout_result_misses"),
                    },
                    who = name(who),
                    target = name(target),
                    weapon,
                    dice = 2 + bonus,
                    faces = list(&dice),
                    successes,
                    difficulty
                );
                let text = if complication {
                    text + tr!(lang, "trace.fallout_complication")
                } else {
                    text
                };
                (
                    if whole { 1 } else { 2 },
                    text,
                    // Audit of 2026-12-07, afternoon: `dice` showed the faces before rerolls
                    // beside successes counted after them; now the faces that count, and
                    // those first rolled beside them.
                    json!({"step": "attack", "who": name(who), "target": name(target), "weapon": weapon,
                        "dice": dice.faces(), "dice_as_rolled": rolled.faces(), "difficulty": difficulty, "bonus_d20": bonus, "successes": successes,
                        "hit": hit, "complication": complication, "group_ap": pools[0], "mj_ap": pools[1]}),
                )
            }
            Step::Damage {
                to,
                dice,
                damage,
                effects,
                dr,
                dealt,
                hp,
            } => (
                2,
                tr!(
                    lang,
                    "trace.fallout_damage",
                    to = name(to),
                    dice,
                    damage,
                    effects,
                    dr,
                    dealt,
                    hp
                ),
                json!({"step": "damage", "to": name(to), "combat_dice": dice, "damage": damage,
                    "effects": effects, "dr": dr, "dealt": dealt, "hp": hp}),
            ),
            Step::Down { who } => (
                2,
                tr!(lang, "trace.down", who = name(who)),
                json!({"step": "down", "who": name(who)}),
            ),
            Step::End { outcome, rounds } => finished(lang, OUTCOMES[outcome as usize], rounds),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The die a reroll names: the highest without success, so a complication first,
    /// each die once (F-LUCK), and the faces after it.
    #[test]
    fn a_reroll_names_the_highest_die_without_success_a_complication_first() {
        let mut d = Dice::default();
        // Faces 20 (complication, no success), 3 (success), 15 and 9 (no success).
        for (f, s, c) in [(20, 0, 1), (3, 1, 0), (15, 0, 0), (9, 0, 0)] {
            d.add(f, s, c);
        }
        let before = |s: Step| match s {
            Step::Reroll {
                before,
                complication,
                ..
            } => (before, complication),
            _ => unreachable!(),
        };
        assert_eq!(before(d.reroll(0, 2, 1, 2, None, false)), (20, true));
        assert_eq!(before(d.reroll(0, 18, 0, 2, Some(1), false)), (15, false));
        assert_eq!(before(d.reroll(0, 4, 1, 3, Some(0), false)), (9, false));
        assert_eq!(d.faces(), &[2, 3, 18, 4]);
        // Nothing left to reroll: the engine never asks, and the trace names no die.
        assert_eq!(before(d.reroll(0, 5, 1, 4, None, false)), (0, false));
    }
}
