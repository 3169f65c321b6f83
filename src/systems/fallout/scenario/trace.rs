//! `cosmosim trace` for 2d20 ap-economy files (issue 27): trials of a run replayed from
//! their own streams through the batch code (`sim.rs` `ApSim::sequence`, watched), told in
//! the book's terms: each test's bonus d20 bought from the group pool or by giving the MJ
//! AP (F-AP), the d20 rolled and read against the TN (F-TEST), successes against the
//! difficulty, complications, and the excess successes into the group pool (capped, F-AP).
//!
//! A trial is the whole sequence of tests; its outcome is `all_passed` (every test passed)
//! or `some_failed` (at least one failed). The run's CSV has one row per test, not per
//! trial: these two names are the trace's own, and the summary counts them from the run's
//! tally of tests passed per sequence.

use serde_json::json;

use crate::error::UserError;
use crate::lang::Lang;
use crate::systems::fallout::ap::Buy;
use crate::systems::trace::{replay_trials, Cond, TraceRequest, TraceResult, Traced, Watch};

use super::sim::ApSim;
use super::Loaded;

/// One step of a sequence; tests are indices into the model's tests.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A test starts; the group pool and the MJ's pool before any purchase.
    Test { test: u16, group: u32, mj: u32 },
    /// Bonus d20 number `die` (1..3) bought (F-AP): P(pass) with the dice before it (what
    /// the policy read), AP from the group pool and AP given to the MJ; the pools after.
    Buy {
        die: u8,
        p_pass: f64,
        from_pool: u32,
        to_mj: u32,
        group: u32,
        mj: u32,
    },
    /// The policy wanted bonus d20 number `die` but it was not bought: beyond the cap in
    /// force (`price` None), or the pool short and the group does not give the MJ AP.
    NotBought {
        die: u8,
        price: Option<u32>,
        p_pass: f64,
    },
    /// One d20 rolled: its face, successes (0, 1, 2) and whether it is a complication.
    Die {
        face: u8,
        successes: u8,
        complication: bool,
    },
    /// The test's successes against its difficulty; AP lost above the pool's cap; the
    /// pools after the excess went in.
    Result {
        successes: u8,
        difficulty: u8,
        complication: bool,
        lost: u32,
        group: u32,
        mj: u32,
    },
    /// The sequence is over: tests passed, the pools at the end.
    End { passes: u16, group: u32, mj: u32 },
}

/// The trace's outcome names (see the module's comment).
const OUTCOMES: [&str; 2] = ["all_passed", "some_failed"];

fn outcome(sim: &ApSim, passes: i64) -> usize {
    usize::from(passes != sim.model.steps.len() as i64)
}

/// The kind's `trace` entry: the same loading and settings as `run`.
pub(super) fn trace(l: &Loaded, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let sim = l.sim();
    let (engine, key) = (l.ctx.engine, &l.ctx.stream);
    let mut acc = crate::engine::Simulation::empty(&sim);
    replay_trials(
        &req.which,
        l.trials,
        engine.seed(),
        &mut acc,
        |c| Ending::parse(c, &sim),
        || Ends::new(sim.model.steps.len()),
        Ending::holds,
        |acc, i, w| sim.sequence(&mut engine.trial_stream(key, i), acc, w),
        |i, passes, steps| render(l.ctx.lang, &sim, l.cap, i, outcome(&sim, passes), steps),
    )
}

/// What `--find` reads of a sequence: which tests failed, complications, AP given to the
/// MJ or lost above the cap, dice wanted but not bought. No other step is kept.
struct Ends {
    test: usize,
    failed: Vec<bool>,
    passes: i64,
    complication: bool,
    mj_ap: bool,
    ap_lost: bool,
    not_bought: bool,
}

impl Ends {
    fn new(tests: usize) -> Ends {
        Ends {
            test: 0,
            failed: vec![false; tests],
            passes: 0,
            complication: false,
            mj_ap: false,
            ap_lost: false,
            not_bought: false,
        }
    }
}

impl Watch<Step> for Ends {
    const ON: bool = true;
    fn note(&mut self, step: Step) {
        match step {
            Step::Test { test, .. } => self.test = test as usize,
            Step::Buy { to_mj, .. } => self.mj_ap |= to_mj > 0,
            Step::NotBought { .. } => self.not_bought = true,
            Step::Result {
                successes,
                difficulty,
                complication,
                lost,
                ..
            } => {
                self.failed[self.test] = successes < difficulty;
                self.complication |= complication;
                self.ap_lost |= lost > 0;
            }
            Step::End { passes, .. } => self.passes = passes as i64,
            Step::Die { .. } => {}
        }
    }
}

enum Ending {
    Outcome(usize),
    Failed(usize),
    Passed(usize),
    PassesAtMost(i64),
    Complication,
    MjAp,
    ApLost,
    NotBought,
}

const CONDITIONS: &str = "outcome=<all_passed|some_failed>, failed=<test number or name>, passed=<test number or name>, passes_at_most=<n>, complication, mj_ap, ap_lost, not_bought";

impl Ending {
    fn parse(c: &Cond, sim: &ApSim) -> Result<Ending, UserError> {
        let k = sim.model.steps.len();
        let v = c.text();
        // A test by its number in the sequence (1..k, as the CSV's `test` column) or name.
        let test = || -> Result<usize, UserError> {
            match v.parse::<usize>() {
                Ok(n) if (1..=k).contains(&n) => Ok(n - 1),
                _ => sim
                    .model
                    .steps
                    .iter()
                    .position(|s| s.name == v)
                    .ok_or_else(|| {
                        c.bad_value(&format!(
                            "1..{k}, {}",
                            sim.model
                                .steps
                                .iter()
                                .map(|s| format!("\"{}\"", s.name))
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    }),
            }
        };
        match c.name.as_str() {
            "outcome" => c.one_of(&OUTCOMES).map(Ending::Outcome),
            "failed" => Ok(Ending::Failed(test()?)),
            "passed" => Ok(Ending::Passed(test()?)),
            "passes_at_most" => v
                .parse::<i64>()
                .ok()
                .filter(|n| (0..=k as i64).contains(n))
                .map(Ending::PassesAtMost)
                .ok_or_else(|| c.bad_value(&format!("0..{k}"))),
            "complication" => c.flag(Ending::Complication),
            "mj_ap" => c.flag(Ending::MjAp),
            "ap_lost" => c.flag(Ending::ApLost),
            "not_bought" => c.flag(Ending::NotBought),
            _ => Err(c.unknown(CONDITIONS)),
        }
    }

    fn holds(&self, e: &Ends) -> bool {
        let all = e.passes == e.failed.len() as i64;
        match *self {
            Ending::Outcome(o) => o == usize::from(!all),
            Ending::Failed(t) => e.failed[t],
            Ending::Passed(t) => !e.failed[t],
            Ending::PassesAtMost(n) => e.passes <= n,
            Ending::Complication => e.complication,
            Ending::MjAp => e.mj_ap,
            Ending::ApLost => e.ap_lost,
            Ending::NotBought => e.not_bought,
        }
    }
}

/// Trial `trial`'s steps as lines and JSON in `lang`. The d20 of one test make
/// one line and one `roll` step.
fn render(lang: Lang, sim: &ApSim, cap: u32, trial: u64, outcome: usize, steps: &[Step]) -> Traced {
    let m = sim.model;
    let n3 = |x: f64| lang.num(x, 3);
    let mut dice: Vec<(u8, u8, bool)> = Vec::new();
    let mut test = 0usize;
    // The step after the one told.
    let mut after = steps.iter().skip(1);
    Traced::told(trial, OUTCOMES[outcome], steps, |step| {
        let next = after.next();
        Some(match step {
            Step::Test { test: t, group, mj } => {
                test = t as usize;
                let s = &m.steps[test];
                (
                    0,
                    tr!(
                        lang,
                        "trace_ap_economy.test",
                        n = test + 1,
                        k = m.steps.len(),
                        name = s.name,
                        tn = s.spec.tn,
                        difficulty = s.difficulty,
                        tag = s.spec.tag_rank,
                        range = s.spec.complication,
                        group,
                        mj
                    ),
                    json!({"step": "test", "test": test + 1, "name": s.name, "tn": s.spec.tn,
                        "difficulty": s.difficulty, "tag_rank": s.spec.tag_rank,
                        "complication_range": s.spec.complication, "group_ap": group, "mj_ap": mj}),
                )
            }
            Step::Buy {
                die,
                p_pass,
                from_pool,
                to_mj,
                group,
                mj,
            } => {
                let why = match m.policy.buy {
                    Buy::Below(x) => tr!(
                        lang,
                        "trace_ap_economy.why_below",
                        dice = 1 + die,
                        p = n3(p_pass),
                        below = lang.num(x, 2)
                    ),
                    _ => tr!(lang, "trace_ap_economy.why_always").to_string(),
                };
                (
                    1,
                    tr!(
                        lang,
                        "trace_ap_economy.buy",
                        why,
                        die,
                        price = from_pool + to_mj,
                        from_pool,
                        to_mj,
                        group,
                        mj
                    ),
                    json!({"step": "buy", "die": die, "p_pass_before": p_pass, "price": from_pool + to_mj,
                        "from_pool": from_pool, "to_mj": to_mj, "group_ap": group, "mj_ap": mj}),
                )
            }
            Step::NotBought { die, price, p_pass } => (
                1,
                match price {
                    Some(price) => tr!(lang, "trace_ap_economy.not_bought_short", die, price),
                    None => tr!(lang, "trace_ap_economy.not_bought_cap", die),
                },
                json!({"step": "not_bought", "die": die, "price": price, "p_pass_before": p_pass,
                    "why": if price.is_some() { "pool_short" } else { "bonus_cap" }}),
            ),
            Step::Die {
                face,
                successes,
                complication,
            } => {
                dice.push((face, successes, complication));
                if matches!(next, Some(Step::Die { .. })) {
                    return None;
                }
                let shown: Vec<String> = dice
                    .iter()
                    .map(|&(f, s, c)| {
                        let mut t = tr!(lang, "trace_ap_economy.die", face = f, successes = s);
                        if c {
                            t += tr!(lang, "trace_ap_economy.die_complication");
                        }
                        t
                    })
                    .collect();
                let j = json!({"step": "roll", "tn": m.steps[test].spec.tn,
                    "dice": dice.iter().map(|&(f, s, c)| json!({"face": f, "successes": s, "complication": c})).collect::<Vec<_>>()});
                let text = tr!(
                    lang,
                    "trace_ap_economy.roll",
                    n = dice.len(),
                    tn = m.steps[test].spec.tn,
                    dice = shown.join(", ")
                );
                dice.clear();
                (1, text, j)
            }
            Step::Result {
                successes,
                difficulty,
                complication,
                lost,
                group,
                mj,
            } => {
                let passed = successes >= difficulty;
                // `excess` only in the passed text: a failed test earns nothing.
                let mut text = tr_fill!(
                    if passed {
                        tr!(lang, "trace_ap_economy.passed")
                    } else {
                        tr!(lang, "trace_ap_economy.failed")
                    },
                    successes,
                    difficulty,
                    excess = successes.saturating_sub(difficulty),
                    group
                );
                if lost > 0 {
                    text += &tr!(lang, "trace_ap_economy.lost", lost, cap);
                }
                if complication {
                    text += tr!(lang, "trace_ap_economy.complication");
                }
                (
                    1,
                    text,
                    json!({"step": "result", "successes": successes, "difficulty": difficulty,
                        "passed": passed, "complication": complication,
                        "ap_gained": if passed { successes - difficulty } else { 0 },
                        "ap_lost": lost, "group_ap": group, "mj_ap": mj}),
                )
            }
            Step::End { passes, group, mj } => (
                0,
                tr!(
                    lang,
                    "trace_ap_economy.end",
                    passes,
                    k = m.steps.len(),
                    outcome = OUTCOMES[outcome],
                    group,
                    mj
                ),
                json!({"step": "end", "outcome": OUTCOMES[outcome], "passes": passes,
                    "tests": m.steps.len(), "group_ap": group, "mj_ap": mj}),
            ),
        })
    })
}
