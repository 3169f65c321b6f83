//! `cosmosim trace` for expeditions (issue 27): trials of a run replayed from their own
//! streams through the batch code (`sim.rs` `ExpeditionSim::trial`, `party.rs`
//! `PartySim::trial`, and the `Trek` they drive, watched), told day by day in the
//! rulebook's terms: the daily gain and the march, each fight's rolls, meals, pauses,
//! fasting, potions and the night (C-FAT-1..4), with FP/FM before and after each.

use crate::engine::{Rng64, Simulation};
use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::fatigue::Fatigue;
use crate::systems::cosmos::growth::GrowthRules;
use crate::systems::cosmos::TestRules;
use crate::systems::trace::{trace_trials, Cond, Quiet, Steps, TraceRequest, TraceResult, Watch};

pub use crate::systems::cosmos::growth::fatigue::expedition::{TrekStep, Who};

use super::model::{model, MAX_TRAVELLERS};
use super::party::PartySim;
use super::sim::ExpeditionSim;
use super::trace_text::render;
use super::trace_view::View;
use super::{DEFAULT_TRIALS, NEEDS};

/// One step of an expedition; travellers are numbered in the file's order (0 alone).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// FP/FM at the start (C-FAT-1).
    Start {
        who: u8,
        f: Fatigue,
    },
    Day {
        day: u32,
    },
    /// The march leg: grid units expected at the morning's FP (C-FAT-4, C-MOVE).
    March {
        fp: i32,
        units: f64,
    },
    /// Encounters rolled for the day.
    Encounters {
        count: i32,
    },
    /// A played combat (issue 10 item 9), as one step: its rounds and who was down at the
    /// end (a bit per combatant); its account is `cosmosim trace` of the combat file.
    Combat {
        rounds: u32,
        down: u32,
    },
    /// Shared rations left after the day's meals are served.
    Rations {
        left: u32,
    },
    /// A traveller's event.
    Of {
        who: u8,
        step: TrekStep,
    },
    /// The day's worst point and end (what the CSVs record), with the reference test's
    /// success there.
    Evening {
        who: u8,
        worst: Fatigue,
        end: Fatigue,
        exhausted: bool,
        p_worst: f64,
        p_end: f64,
    },
    /// After the night: who cannot set off (a bit per traveller), exhausted or knocked
    /// out.
    SetOff {
        exhausted: u16,
        knocked: u16,
    },
    /// The outcome, the first day of exhaustion (days + 1: never) and, for a party, the
    /// first day it could not go on.
    End {
        outcome: u8,
        party: bool,
        first: i64,
        stop: i64,
    },
}

impl<W: Watch<Step>> Watch<TrekStep> for Who<'_, W> {
    const ON: bool = W::ON;
    #[inline(always)]
    fn note(&mut self, step: TrekStep) {
        if W::ON {
            self.1.note(Step::Of { who: self.0, step });
        }
    }
}

/// The outcome names: a traveller alone as `expedition-exhaustion.csv` counts it
/// (`p_by_end`: exhausted on some day), a party as `party-days.csv` does
/// (`p_party_stopped_by_day`: some morning it could not go on).
pub const OUTCOMES: [&str; 4] = ["exhausted", "not_exhausted", "stopped", "went_on"];
pub const EXHAUSTED: u8 = 0;
pub const NOT_EXHAUSTED: u8 = 1;
pub const STOPPED: u8 = 2;
pub const WENT_ON: u8 = 3;

/// How a trial ended, what `--find` reads (returned by the trial; no step kept).
#[derive(Clone, Copy, Debug)]
pub struct Ending {
    pub outcome: u8,
    /// Each traveller's first day of exhaustion (days + 1: never).
    pub first: [i64; MAX_TRAVELLERS],
    /// The first day the party could not go on (days + 1: never).
    pub stop: i64,
    /// Travellers knocked out in a played combat (a bit each).
    pub knocked: u16,
    /// Potions drunk.
    pub potions: u32,
}

impl Ending {
    pub fn new(days: i64) -> Ending {
        Ending {
            outcome: 0,
            first: [days + 1; MAX_TRAVELLERS],
            stop: days + 1,
            knocked: 0,
            potions: 0,
        }
    }
}

/// A simulation whose trials can be replayed.
trait Replay: Simulation {
    type Scratch;
    fn scratch(&self) -> Self::Scratch;
    fn replay<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut Self::Acc,
        sc: &mut Self::Scratch,
        w: &mut W,
    ) -> Ending;
}

impl Replay for ExpeditionSim {
    type Scratch = ();
    fn scratch(&self) {}
    fn replay<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut Self::Acc,
        _: &mut (),
        w: &mut W,
    ) -> Ending {
        self.trial(rng, acc, w)
    }
}

impl Replay for PartySim {
    type Scratch = super::party::Scratch;
    fn scratch(&self) -> Self::Scratch {
        PartySim::scratch(self)
    }
    fn replay<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut Self::Acc,
        sc: &mut Self::Scratch,
        w: &mut W,
    ) -> Ending {
        self.trial(rng, acc, sc, w)
    }
}

/// The kind's `trace` entry: the same loading and settings as `run` (`report.rs`,
/// `party_report.rs`).
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let (mut m, rules_map, run, ..) = model(file)?;
    let (ctx, trials) =
        req.overrides
            .resolve_needing(file, &run, &rules_map, DEFAULT_TRIALS, NEEDS)?;
    let rules = TestRules::from_options(&ctx.options);
    let growth = GrowthRules::from_options(&ctx.options);
    let (engine, key) = (ctx.engine, &ctx.stream);
    let stream = |i| engine.trial_stream(key, i);
    let seed = engine.seed();
    if m.party.is_none() {
        let sim = ExpeditionSim::with_growth(m, &rules, &growth).map_err(|e| e.user(ctx.lang))?;
        let view = View::new(ctx.lang, &sim.model, growth.trek);
        return replay_all(&sim, &view, req, trials, seed, stream);
    }
    if let Some(l) = m.linked.as_mut() {
        let o = l.under(&ctx.options, ctx.lang)?;
        l.rules = crate::systems::cosmos::combat::CombatRules::from_options(&o);
    }
    let sim = PartySim::with_growth(m, &rules, &growth).map_err(|e| e.user(ctx.lang))?;
    let view = View::new(ctx.lang, &sim.model, growth.trek);
    replay_all(&sim, &view, req, trials, seed, stream)
}

fn replay_all<S: Replay>(
    sim: &S,
    view: &View,
    req: &TraceRequest,
    trials: u64,
    seed: u64,
    stream: impl Fn(u64) -> Rng64,
) -> anyhow::Result<TraceResult> {
    let acc = sim.empty();
    let sc = sim.scratch();
    trace_trials(
        &req.which,
        trials,
        seed,
        &mut (acc, sc),
        |c| Find::parse(c, view),
        |(acc, sc), i, tests: &[Find]| {
            let end = sim.replay(&mut stream(i), acc, sc, &mut Quiet);
            tests.iter().all(|t| t.holds(&end, view.days))
        },
        |(acc, sc), i| {
            let mut steps = Steps(Vec::new());
            let end = sim.replay(&mut stream(i), acc, sc, &mut steps);
            render(view, i, end.outcome, &steps.0)
        },
    )
}

/// One `--find` condition.
enum Find {
    Outcome(u8),
    /// Someone (or this traveller) reached exhaustion, on or before this day.
    Exhausted(Option<usize>, i64),
    StoppedBy(i64),
    Knocked(Option<usize>),
    PotionsAtLeast(u32),
}

impl Find {
    fn parse(c: &Cond, v: &View) -> Result<Find, UserError> {
        let party = v.names.is_some();
        let names = v.names.clone().unwrap_or_default();
        let outcomes = if party {
            &OUTCOMES[2..]
        } else {
            &OUTCOMES[..2]
        };
        let day = || -> Result<i64, UserError> {
            c.text()
                .parse::<i64>()
                .ok()
                .filter(|d| (1..=v.days).contains(d))
                .ok_or_else(|| c.bad_value(&format!("1..{}", v.days)))
        };
        Ok(match c.name.as_str() {
            "outcome" => {
                let i = c.one_of(outcomes)?;
                Find::Outcome(i as u8 + if party { STOPPED } else { EXHAUSTED })
            }
            "exhausted" if party => Find::Exhausted(c.maybe_one_of(&names)?, v.days),
            "exhausted" => match c.value {
                None => Find::Exhausted(None, v.days),
                Some(_) => return Err(c.bad_value(tr!(v.lang, "trace_expedition.no_value"))),
            },
            "exhausted_by" => Find::Exhausted(None, day()?),
            "stopped_by" if party => Find::StoppedBy(day()?),
            "knocked_out" if party => Find::Knocked(c.maybe_one_of(&names)?),
            "potions_at_least" => Find::PotionsAtLeast(c.number("0, 1, 2, ...")?),
            _ => {
                let allowed = if party {
                    "outcome=<stopped|went_on>, exhausted[=<traveller>], exhausted_by=<day>, stopped_by=<day>, knocked_out[=<traveller>], potions_at_least=<n>"
                } else {
                    "outcome=<exhausted|not_exhausted>, exhausted, exhausted_by=<day>, potions_at_least=<n>"
                };
                return Err(c.unknown(allowed));
            }
        })
    }

    fn holds(&self, e: &Ending, days: i64) -> bool {
        match *self {
            Find::Outcome(o) => e.outcome == o,
            Find::Exhausted(Some(i), by) => e.first[i] <= by.min(days),
            Find::Exhausted(None, by) => e.first.iter().any(|&f| f <= by.min(days)),
            Find::StoppedBy(d) => e.stop <= d,
            Find::Knocked(Some(i)) => e.knocked & (1 << i) != 0,
            Find::Knocked(None) => e.knocked != 0,
            Find::PotionsAtLeast(n) => e.potions >= n,
        }
    }
}
