//! `cosmosim trace` for 2d20 firefights (issue 27): trials of a run replayed from their own
//! streams through the batch code (`sim.rs` `CombatSim::fight`, watched), told in the
//! book's terms: attack tests with bonus d20 bought from the pools (F-TEST, F-AP), combat
//! dice with Effects against damage resistance (F-CD), helpers (F-HELP), stuns.

use serde_json::json;

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::trace::{
    finished, replay_trials, Cond, TraceRequest, TraceResult, Traced, Watch,
};

use super::sim::CombatSim;

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
    /// An attack test: difficulty, bonus d20 bought, successes (rerolls and helpers
    /// included), a complication; the pools after buying.
    Attack {
        who: u8,
        target: u8,
        weapon: u8,
        difficulty: u8,
        bonus: u8,
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
    /// An index of `CombatAcc::outcomes`; `max_rounds + 1` rounds when undecided.
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
    Traced::told(trial, OUTCOMES[outcome], steps, |step| {
        Some(match step {
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
                successes,
                complication,
                pools,
            } => {
                let hit = successes >= difficulty;
                let weapon = m.weapons[weapon as usize].name.as_str();
                let text = tr_fill!(
                    if hit {
                        tr!(lang, "trace.fallout_attack_hits")
                    } else {
                        tr!(lang, "trace.fallout_attack_misses")
                    },
                    who = name(who),
                    target = name(target),
                    weapon,
                    dice = 2 + bonus,
                    successes,
                    difficulty
                );
                let text = if complication {
                    text + tr!(lang, "trace.fallout_complication")
                } else {
                    text
                };
                (
                    1,
                    text,
                    json!({"step": "attack", "who": name(who), "target": name(target), "weapon": weapon,
                        "difficulty": difficulty, "bonus_d20": bonus, "successes": successes,
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
            Step::End { outcome, rounds } => finished(
                lang,
                OUTCOMES[outcome as usize],
                rounds.min(m.max_rounds as i64),
                rounds,
            ),
        })
    })
}
