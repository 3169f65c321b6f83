//! `cosmosim trace` for Nephilim duels (issue 27): trials of a run replayed from their own
//! streams through the batch code (`sim.rs` `DuelSim::duel`, watched), told in the
//! rulebook's terms: initiative and segments (N-INIT), attack and parry or dodge as opposed
//! tests (N-TEST, N-OPP), wounds and fatigue and the fourth-state checks (N-HEALTH).

use serde_json::json;

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::trace::{
    finished, replay_trials, Cond, TraceRequest, TraceResult, Traced, Watch,
};

use super::acc::{A_WINS, BOTH_OUT, B_WINS, UNDECIDED};
use super::sim::DuelSim;

/// How a fighter went out (N-HEALTH).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Out {
    /// The wound counter reached the out level.
    Dead,
    /// A failed incapacity check (2 x Constitution + 1D - 1D).
    Coma,
    /// A failed exhaustion check (Ka + 1D - 1D), or fatigue at the out level.
    Unconscious,
}

/// One step of a duel; fighters are 0 (A) and 1 (B).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// Initiatives rolled (after maluses and delay bonuses) and actions this round.
    Round {
        round: u32,
        init: [i64; 2],
        actions: [u8; 2],
    },
    /// `delay = "next_round"`: no action this round, this bonus on the next initiative.
    Delays {
        who: u8,
        bonus: i64,
    },
    /// An attack's final score against the difficulty.
    Attack {
        who: u8,
        segment: i64,
        score: i64,
        difficulty: i64,
    },
    /// A parry or dodge's final score; a tie stops the blow (N-OPP).
    Defence {
        who: u8,
        score: i64,
        stopped: bool,
    },
    /// A blow on `to`: weapon + margin - protection boxes of wounds.
    Blow {
        to: u8,
        weapon: i64,
        margin: i64,
        protection: i64,
    },
    Wounds {
        who: u8,
        before: u8,
        after: u8,
    },
    Fatigue {
        who: u8,
        before: u8,
        after: u8,
    },
    /// A fourth-state check's score: incapacity (Constitution) or exhaustion (Ka); below 0
    /// fails.
    Check {
        who: u8,
        incapacity: bool,
        score: i64,
    },
    Out {
        who: u8,
        why: Out,
    },
    /// An index of `DuelAcc::outcomes` and the rounds fought (`max_rounds` when
    /// undecided, where the tally counts `max_rounds + 1`).
    End {
        outcome: u8,
        rounds: i64,
    },
}

/// The outcome names of `duel-outcome.csv`.
pub(super) const OUTCOMES: [&str; 4] = ["a_wins", "b_wins", "both_out", "undecided"];

/// The kind's `trace` entry: the same loading and settings as `run`.
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let (sim, _, ctx, trials) = super::setup(file, &req.overrides)?;
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
        |acc, i, w| sim.duel(&mut engine.trial_stream(key, i), acc, w),
        |i, outcome, steps| render(file.lang, &sim, i, outcome, steps),
    )
}

/// What `--find` reads of a duel: its outcome, length and who went out how. No other step
/// is kept.
#[derive(Default)]
struct Ends {
    outcome: usize,
    rounds: i64,
    out: [Option<Out>; 2],
}

impl Watch<Step> for Ends {
    const ON: bool = true;
    fn note(&mut self, step: Step) {
        match step {
            Step::Out { who, why } => self.out[who as usize] = Some(why),
            Step::End { outcome, rounds } => {
                (self.outcome, self.rounds) = (outcome as usize, rounds)
            }
            _ => {}
        }
    }
}

enum Ending {
    Outcome(usize),
    Out(Option<usize>, Option<Out>),
    RoundsAtLeast(i64),
}

const CONDITIONS: &str = "outcome=<a_wins|b_wins|both_out|undecided>, out=<fighter>, dead[=<fighter>], coma[=<fighter>], unconscious[=<fighter>], rounds_at_least=<n>";

impl Ending {
    fn parse(c: &Cond, sim: &DuelSim) -> Result<Ending, UserError> {
        let names: Vec<&str> = sim.model.fighters.iter().map(|f| f.name.as_str()).collect();
        let who = || c.maybe_one_of(&names);
        Ok(match c.name.as_str() {
            "outcome" => Ending::Outcome(c.one_of(&OUTCOMES)?),
            "out" => Ending::Out(Some(c.one_of(&names)?), None),
            "dead" => Ending::Out(who()?, Some(Out::Dead)),
            "coma" => Ending::Out(who()?, Some(Out::Coma)),
            "unconscious" => Ending::Out(who()?, Some(Out::Unconscious)),
            "rounds_at_least" => Ending::RoundsAtLeast(c.number("1, 2, 3, ...")?),
            _ => return Err(c.unknown(CONDITIONS)),
        })
    }

    fn holds(&self, e: &Ends) -> bool {
        let matches = |o: Option<Out>, why: Option<Out>| o.is_some() && (why.is_none() || o == why);
        match *self {
            Ending::Outcome(i) => e.outcome == i,
            Ending::Out(Some(f), why) => matches(e.out[f], why),
            Ending::Out(None, why) => e.out.iter().any(|&o| matches(o, why)),
            Ending::RoundsAtLeast(r) => e.rounds >= r,
        }
    }
}

/// Trial `trial`'s steps as lines and JSON in `lang`.
fn render(lang: Lang, sim: &DuelSim, trial: u64, outcome: usize, steps: &[Step]) -> Traced {
    let name = |f: u8| sim.model.fighters[f as usize].name.as_str();
    debug_assert!(matches!(outcome, A_WINS | B_WINS | BOTH_OUT | UNDECIDED));
    Traced::told(trial, OUTCOMES[outcome], steps, |step| {
        Some(match step {
            Step::Round {
                round,
                init,
                actions,
            } => (
                0,
                tr!(
                    lang,
                    "trace.nephilim_round",
                    round,
                    a = name(0),
                    init_a = init[0],
                    actions_a = actions[0],
                    b = name(1),
                    init_b = init[1],
                    actions_b = actions[1]
                ),
                json!({"step": "round", "round": round, "initiative": init, "actions": actions}),
            ),
            Step::Delays { who, bonus } => (
                1,
                tr!(lang, "trace.nephilim_delays", who = name(who), bonus),
                json!({"step": "delays", "who": name(who), "bonus": bonus}),
            ),
            Step::Attack {
                who,
                segment,
                score,
                difficulty,
            } => (
                1,
                tr_fill!(
                    if score >= difficulty {
                        tr!(lang, "trace.nephilim_attack_hits")
                    } else {
                        tr!(lang, "trace.nephilim_attack_misses")
                    },
                    who = name(who),
                    segment = segment + 1,
                    score,
                    difficulty
                ),
                json!({"step": "attack", "who": name(who), "segment": segment + 1, "score": score, "difficulty": difficulty}),
            ),
            Step::Defence {
                who,
                score,
                stopped,
            } => (
                2,
                tr_fill!(
                    if stopped {
                        tr!(lang, "trace.nephilim_defence_stops")
                    } else {
                        tr!(lang, "trace.nephilim_defence_fails")
                    },
                    who = name(who),
                    score
                ),
                json!({"step": "defence", "who": name(who), "score": score, "stopped": stopped}),
            ),
            Step::Blow {
                to,
                weapon,
                margin,
                protection,
            } => (
                2,
                tr!(
                    lang,
                    "trace.nephilim_blow",
                    to = name(to),
                    weapon,
                    margin,
                    protection,
                    boxes = (weapon + margin - protection).max(0)
                ),
                json!({"step": "blow", "to": name(to), "weapon": weapon, "margin": margin, "protection": protection}),
            ),
            Step::Wounds { who, before, after } | Step::Fatigue { who, before, after } => {
                let (key, text) = if matches!(step, Step::Wounds { .. }) {
                    ("wounds", tr!(lang, "trace.nephilim_wounds"))
                } else {
                    ("fatigue", tr!(lang, "trace.nephilim_fatigue"))
                };
                (
                    1,
                    tr_fill!(text, who = name(who), before, after),
                    json!({"step": key, "who": name(who), "before": before, "after": after}),
                )
            }
            Step::Check {
                who,
                incapacity,
                score,
            } => (
                1,
                tr_fill!(
                    if incapacity {
                        tr!(lang, "trace.nephilim_incapacity")
                    } else {
                        tr!(lang, "trace.nephilim_exhaustion")
                    },
                    who = name(who),
                    score
                ),
                json!({"step": "check", "who": name(who), "check": if incapacity { "incapacity" } else { "exhaustion" }, "score": score, "passed": score >= 0}),
            ),
            Step::Out { who, why } => {
                let (key, text) = match why {
                    Out::Dead => ("dead", tr!(lang, "trace.nephilim_dead")),
                    Out::Coma => ("coma", tr!(lang, "trace.nephilim_coma")),
                    Out::Unconscious => ("unconscious", tr!(lang, "trace.nephilim_unconscious")),
                };
                (
                    1,
                    tr_fill!(text, who = name(who)),
                    json!({"step": "out", "who": name(who), "why": key}),
                )
            }
            Step::End { outcome, rounds } => finished(lang, OUTCOMES[outcome as usize], rounds),
        })
    })
}
