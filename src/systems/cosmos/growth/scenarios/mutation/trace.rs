//! `cosmosim trace` for mutation files (issue 27): characters of a run replayed from their
//! own streams through the batch code (`sim.rs` `MutationSim::character` and
//! `genetics/mutate.rs`, watched), told in the rulebook's terms: the Pµ gauge and its
//! mutations (C-GENE-2), the Chance test of each (C-GENE-3, its karma drift C-KARMA-1),
//! minors, escalation and chains (C-GENE-4), majors and ultimates (C-GENE-5), therapy,
//! events, levels and the other tests' karma.

use serde_json::{json, Value};

use super::super::common::karma_text as k;
use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::genetics::{
    MajorCause, MutationRules, MutationStep as Step, Mutations, Ultimate,
};
use crate::systems::cosmos::TestRules;
use crate::systems::trace::{replay_trials, Cond, TraceRequest, TraceResult, Traced, Watch};

use super::model::MutationModel;
use super::sim::{MutationAcc, MutationSim};
use super::{model, DEFAULT_TRIALS, NEEDS};

/// The outcome names: the first ultimate as `mutation-ultimates.csv` names it, or `none`.
const OUTCOMES: [&str; 5] = ["abomination", "fatal", "zombie", "half_hp", "none"];

fn outcome_name(u: Option<Ultimate>) -> &'static str {
    u.map_or("none", Ultimate::name)
}

/// The kind's `trace` entry: the run's main cell (the file's Chance and karma, not the
/// sweep), with the same loading, settings and streams as `run`.
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let (m, rules_map, run, _, _) = model(file)?;
    let (ctx, trials) =
        req.overrides
            .resolve_needing(file, &run, &rules_map, DEFAULT_TRIALS, NEEDS)?;
    let rules = MutationRules::from_options(&ctx.options);
    let test = TestRules::from_options(&ctx.options);
    let sim = MutationSim::new(&m, rules, &test, m.chance, m.karma);
    // `sim.rs` `run_cell`'s key for the file's own cell.
    let key = ctx
        .stream
        .clone()
        .int("chance", m.chance)
        .int("karma", m.karma.into());
    let engine = ctx.engine;
    let acc = crate::engine::Simulation::empty(&sim);
    let st = Mutations::new(&m.tree, &sim.rules);
    replay_trials(
        &req.which,
        trials,
        engine.seed(),
        &mut (st, acc),
        |c| Ending::parse(c, &m),
        Ends::default,
        Ending::holds,
        |(st, acc), i, w| replay(&sim, st, &mut engine.trial_stream(&key, i), acc, w),
        |i, first, steps| render(ctx.lang, &m, i, first, steps),
    )
}

/// One character through the same copy of the day loop as the batch.
fn replay<W: Watch<Step>>(
    sim: &MutationSim<'_>,
    st: &mut Mutations<'_>,
    rng: &mut crate::engine::Rng64,
    acc: &mut MutationAcc,
    w: &mut W,
) -> Option<Ultimate> {
    if sim.plain() {
        sim.character::<false, W>(st, rng, acc, w)
    } else {
        sim.character::<true, W>(st, rng, acc, w)
    }
}

/// What `--find` reads of a character. No other step is kept.
#[derive(Default)]
struct Ends {
    first: Option<Ultimate>,
    last: Option<Ultimate>,
    /// Day of the first ultimate.
    day: Option<u32>,
    /// The current day (steps without one happen on it).
    today: u32,
    majors: u32,
    positive_major: bool,
    chain: bool,
    /// Bit i: event i happened.
    events: u64,
}

impl Watch<Step> for Ends {
    const ON: bool = true;
    fn note(&mut self, step: Step) {
        match step {
            Step::Exposure { day, .. }
            | Step::Karma { day, .. }
            | Step::Level { day, .. }
            | Step::Therapy { day, .. } => self.today = day,
            Step::Event { day, event } => {
                self.today = day;
                self.events |= 1 << event;
            }
            Step::Major {
                positive,
                cause,
                majors,
                ..
            } => {
                self.majors = majors;
                self.positive_major |= positive;
                self.chain |= cause == MajorCause::Chain;
            }
            Step::Ultimate { ultimate, last } => {
                if self.first.is_none() {
                    (self.first, self.day) = (Some(ultimate), Some(self.today));
                }
                if last {
                    self.last = Some(ultimate);
                }
            }
            _ => {}
        }
    }
}

enum Ending {
    Outcome(Option<Ultimate>),
    Final(Option<Ultimate>),
    UltimateBy(u32),
    MajorsAtLeast(u32),
    PositiveMajor,
    Chain,
    Event(usize),
}

const CONDITIONS: &str = "outcome=<abomination|fatal|zombie|half_hp|none>, final=<abomination|fatal|zombie|none>, ultimate_by=<day>, majors_at_least=<n>, positive_major, chain, event=<name>";

impl Ending {
    fn parse(c: &Cond, m: &MutationModel) -> Result<Ending, UserError> {
        let ultimate = |names: &[&str]| -> Result<Option<Ultimate>, UserError> {
            c.one_of(names)?;
            Ok(Ultimate::ALL.into_iter().find(|u| u.name() == c.text()))
        };
        let number = || c.number(&format!("1, 2, 3, ... ({})", c.name));
        Ok(match c.name.as_str() {
            "outcome" => Ending::Outcome(ultimate(&OUTCOMES)?),
            "final" => Ending::Final(ultimate(&["abomination", "fatal", "zombie", "none"])?),
            "ultimate_by" => Ending::UltimateBy(number()?),
            "majors_at_least" => Ending::MajorsAtLeast(number()?),
            "positive_major" => Ending::PositiveMajor,
            "chain" => Ending::Chain,
            "event" => {
                let names: Vec<&str> = m.events.iter().map(|e| e.name.as_str()).collect();
                Ending::Event(c.one_of(&names)?)
            }
            _ => return Err(c.unknown(CONDITIONS)),
        })
    }

    fn holds(&self, e: &Ends) -> bool {
        match *self {
            Ending::Outcome(u) => e.first == u,
            Ending::Final(u) => e.last == u,
            Ending::UltimateBy(d) => e.day.is_some_and(|x| x <= d),
            Ending::MajorsAtLeast(n) => e.majors >= n,
            Ending::PositiveMajor => e.positive_major,
            Ending::Chain => e.chain,
            Ending::Event(i) => e.events & (1 << i) != 0,
        }
    }
}

fn ultimate_label(lang: Lang, u: Ultimate) -> &'static str {
    match u {
        Ultimate::Abomination => tr!(lang, "trace_mutation.abomination"),
        Ultimate::Fatal => tr!(lang, "trace_mutation.fatal"),
        Ultimate::Zombie => tr!(lang, "trace_mutation.zombie"),
        Ultimate::HalfHp => tr!(lang, "trace_mutation.half_hp"),
    }
}

fn sign(lang: Lang, positive: bool) -> &'static str {
    if positive {
        tr!(lang, "trace_mutation.positive")
    } else {
        tr!(lang, "trace_mutation.negative")
    }
}

/// Trial `trial`'s steps as lines and JSON (current language); each JSON step carries its
/// day.
fn render(
    lang: Lang,
    m: &MutationModel,
    trial: u64,
    first: Option<Ultimate>,
    steps: &[Step],
) -> Traced {
    let gene = |g: usize| m.tree.genes[g].name.as_str();
    // The Chance in force (a level changes it) and the day.
    let mut chance = m.chance;
    let mut today = 0;
    // The ultimate goes at its major's depth.
    let mut depth_major = 2;
    Traced::told(trial, outcome_name(first), steps, |step| {
        let (depth, text, mut j): (u8, String, Value) = match step {
            Step::Exposure { day, pmu, from, to } => {
                today = day;
                (
                    0,
                    tr!(lang, "trace_mutation.exposure", day, pmu, from, to),
                    json!({"step": "exposure", "pmu": pmu, "gauge_from": from, "gauge_to": to}),
                )
            }
            Step::Karma {
                day,
                tests,
                from,
                to,
            } => {
                today = day;
                (
                    0,
                    tr!(
                        lang,
                        "trace_mutation.karma",
                        day,
                        tests,
                        from = k(lang, from),
                        to = k(lang, to)
                    ),
                    json!({"step": "karma", "tests": tests, "from": from, "to": to}),
                )
            }
            Step::Level {
                day,
                level,
                chance: c,
            } => {
                (today, chance) = (day, c);
                (
                    0,
                    tr!(lang, "trace_mutation.level", day, level, chance = c),
                    json!({"step": "level", "level": level, "chance": c}),
                )
            }
            Step::Event { day, event } => {
                today = day;
                let name = m.events[event].name.as_str();
                (
                    0,
                    tr!(lang, "trace_mutation.event", day, name),
                    json!({"step": "event", "event": name}),
                )
            }
            Step::EventPmu { pmu, from, to } => (
                1,
                tr!(lang, "trace_mutation.event_pmu", pmu, from, to),
                json!({"step": "event_pmu", "pmu": pmu, "gauge_from": from, "gauge_to": to}),
            ),
            Step::Gauge { left } => (
                1,
                tr!(lang, "trace_mutation.gauge", left),
                json!({"step": "gauge", "left": left}),
            ),
            Step::Roll {
                gene: g,
                outcome,
                karma,
                karma_after,
            } => (
                1,
                tr!(
                    lang,
                    "trace_mutation.roll",
                    gene = gene(g),
                    chance,
                    karma = k(lang, karma),
                    outcome = outcome.label(lang),
                    after = k(lang, karma_after)
                ),
                json!({"step": "roll", "gene": gene(g), "chance": chance, "karma": karma,
                       "outcome": outcome.name(), "karma_after": karma_after}),
            ),
            Step::Minor {
                gene: g,
                positive,
                count,
                irreversible,
            } => (
                2,
                tr_fill!(
                    if irreversible {
                        tr!(lang, "trace_mutation.minor_irreversible")
                    } else {
                        tr!(lang, "trace_mutation.minor")
                    },
                    sign = sign(lang, positive),
                    gene = gene(g),
                    count
                ),
                json!({"step": "minor", "gene": gene(g), "positive": positive, "count": count,
                       "irreversible": irreversible}),
            ),
            Step::Major {
                positive,
                cause,
                gene: g,
                majors,
            } => {
                depth_major = if cause == MajorCause::Event { 1 } else { 2 };
                let why = match (cause, g) {
                    (MajorCause::Escalation, Some(g)) => {
                        tr!(lang, "trace_mutation.cause_escalation", gene = gene(g))
                    }
                    (MajorCause::Chain, Some(g)) => {
                        tr!(lang, "trace_mutation.cause_chain", gene = gene(g))
                    }
                    (MajorCause::Event, _) => tr!(lang, "trace_mutation.cause_event").into(),
                    (_, Some(g)) => tr!(lang, "trace_mutation.cause_roll", gene = gene(g)),
                    (_, None) => tr!(lang, "trace_mutation.cause_event").into(),
                };
                (
                    // An event's major comes straight under the event.
                    depth_major,
                    tr!(
                        lang,
                        "trace_mutation.major",
                        sign = sign(lang, positive),
                        why,
                        majors
                    ),
                    json!({"step": "major", "positive": positive, "cause": cause.name(),
                           "gene": g.map(gene), "majors": majors}),
                )
            }
            Step::Ultimate { ultimate, last } => (
                depth_major,
                if last {
                    tr!(
                        lang,
                        "trace_mutation.ultimate_last",
                        ultimate = ultimate_label(lang, ultimate)
                    )
                } else {
                    tr!(
                        lang,
                        "trace_mutation.ultimate_more",
                        ultimate = ultimate_label(lang, ultimate)
                    )
                },
                json!({"step": "ultimate", "ultimate": ultimate.name(), "last": last}),
            ),
            Step::Therapy { day, cured } => {
                today = day;
                (
                    0,
                    tr!(lang, "trace_mutation.therapy", day, cured),
                    json!({"step": "therapy", "cured": cured}),
                )
            }
            Step::End { day, first } => {
                today = day;
                let o = outcome_name(first);
                (
                    0,
                    tr!(lang, "trace_mutation.end", day, outcome = o),
                    json!({"step": "end", "outcome": o}),
                )
            }
        };
        if let Value::Object(map) = &mut j {
            map.insert("day".into(), today.into());
        }
        Some((depth, text, j))
    })
}
