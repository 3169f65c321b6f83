//! `cosmosim trace` for campaign files (issue 27): campaigns of a run replayed from their
//! own streams through the batch code (`sim.rs` `CampaignSim::trajectory` and
//! `growth/campaign.rs` `KarmaTrack::step`, watched), told in the rulebook's terms: each
//! test that moved karma (C-KARMA-1), postures entered, refused and left (C-KARMA-2, paid
//! in Light/Dark points), the game master's grants, and the first time karma reached +10
//! or -10.

use serde_json::json;

use super::super::common::karma_text as k;
use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::campaign::{KarmaStep as Step, Mix, Postures};
use crate::systems::cosmos::TestRules;
use crate::systems::trace::{replay_trials, Cond, TraceRequest, TraceResult, Traced, Watch};

use super::model::Campaign;
use super::sim::CampaignSim;
use super::{model, DEFAULT_TRIALS};

/// The outcome names: which extreme karma reached first, as `campaign-extremes.csv` names
/// the events, or `none`.
pub const OUTCOMES: [&str; 3] = ["first_plus_10", "first_minus_10", "none"];

/// The variant a trace replays: the file's postures when it has some (`postures` in the
/// CSVs), else `none`; and its postures.
pub fn traced_variant(c: &Campaign, keep: bool) -> (&'static str, Option<Postures>) {
    match c.model.postures {
        Some((every, length, kind)) => (
            "postures",
            Some(Postures {
                every,
                length,
                kind,
                keep,
            }),
        ),
        None => ("none", None),
    }
}

/// The kind's `trace` entry: the same loading, settings and streams as `run`.
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let (c, rules_map, run, _, _) = model(file)?;
    let (ctx, trials) = req
        .overrides
        .resolve(file, &run, &rules_map, DEFAULT_TRIALS)?;
    let rules = TestRules::from_options(&ctx.options);
    let keep = ctx.options.get("posture_karma_exit") == "keep";
    let mix = Mix::new(c.model.thresholds.clone(), &rules);
    let (variant, postures) = traced_variant(&c, keep);
    let sim = CampaignSim {
        model: &c.model,
        script: &c.script,
        mix: &mix,
        postures,
        rules,
    };
    // `report.rs`'s key for the variant.
    let key = ctx.stream.clone().text("variant", variant);
    let engine = ctx.engine;
    let mut acc = crate::engine::Simulation::empty(&sim);
    replay_trials(
        &req.which,
        trials,
        engine.seed(),
        &mut acc,
        Ending::parse,
        Ends::default,
        Ending::holds,
        |acc, i, w| sim.trajectory(&mut engine.trial_stream(&key, i), acc, w),
        |i, first, steps| render(ctx.lang, &c, rules.karma_bound, i, first, steps),
    )
}

/// What `--find` reads of a campaign. No other step is kept.
#[derive(Default)]
struct Ends {
    outcome: usize,
    plus: bool,
    minus: bool,
    karma: i8,
    postures: u32,
    refused: u32,
}

impl Watch<Step> for Ends {
    const ON: bool = true;
    fn note(&mut self, step: Step) {
        match step {
            Step::Extreme { plus: true, .. } => self.plus = true,
            Step::Extreme { plus: false, .. } => self.minus = true,
            Step::End {
                outcome,
                karma,
                postures,
                refused,
            } => {
                self.outcome = outcome as usize;
                (self.karma, self.postures, self.refused) = (karma, postures, refused);
            }
            _ => {}
        }
    }
}

enum Ending {
    Outcome(usize),
    Reached(bool),
    Refused,
    PosturesAtLeast(u32),
    KarmaAtLeast(i8),
    KarmaAtMost(i8),
}

const CONDITIONS: &str = "outcome=<first_plus_10|first_minus_10|none>, reached=<plus_10|minus_10>, refused, postures_at_least=<n>, final_karma_at_least=<k>, final_karma_at_most=<k>";

impl Ending {
    fn parse(c: &Cond) -> Result<Ending, UserError> {
        let v = c.text();
        let karma = || -> Result<i8, UserError> {
            v.parse::<i8>()
                .ok()
                .filter(|k| (-10..=10).contains(k))
                .ok_or_else(|| c.bad_value("-10..10"))
        };
        Ok(match c.name.as_str() {
            "outcome" => Ending::Outcome(c.one_of(&OUTCOMES)?),
            "reached" => match v {
                "plus_10" => Ending::Reached(true),
                "minus_10" => Ending::Reached(false),
                _ => return Err(c.bad_value("plus_10, minus_10")),
            },
            "refused" => Ending::Refused,
            "postures_at_least" => Ending::PosturesAtLeast(c.number("0, 1, 2, ...")?),
            "final_karma_at_least" => Ending::KarmaAtLeast(karma()?),
            "final_karma_at_most" => Ending::KarmaAtMost(karma()?),
            _ => return Err(c.unknown(CONDITIONS)),
        })
    }

    fn holds(&self, e: &Ends) -> bool {
        match *self {
            Ending::Outcome(o) => e.outcome == o,
            Ending::Reached(true) => e.plus,
            Ending::Reached(false) => e.minus,
            Ending::Refused => e.refused > 0,
            Ending::PosturesAtLeast(n) => e.postures >= n,
            Ending::KarmaAtLeast(k) => e.karma >= k,
            Ending::KarmaAtMost(k) => e.karma <= k,
        }
    }
}

/// Trial `trial`'s steps as lines and JSON (current language). Tests are shown 1-based,
/// with their session when the file has sessions.
fn render(lang: Lang, c: &Campaign, bound: i8, trial: u64, first: usize, steps: &[Step]) -> Traced {
    let per = c.script.tests_per_session;
    let at = |test: u32| match per {
        Some(p) => tr!(
            lang,
            "trace_campaign.at_session",
            test = test + 1,
            session = test / p + 1
        ),
        None => tr!(lang, "trace_campaign.at", test = test + 1),
    };
    let posture = |light: bool| {
        if light {
            tr!(lang, "trace_campaign.illumination")
        } else {
            tr!(lang, "trace_campaign.sepulchral")
        }
    };
    Traced::told(trial, OUTCOMES[first], steps, |step| {
        Some(match step {
            Step::Grant {
                test,
                amount,
                from,
                to,
                light,
                dark,
            } => {
                let mut what = Vec::new();
                if amount != 0 {
                    what.push(tr!(
                        lang,
                        "trace_campaign.grant_karma",
                        amount = k(lang, amount),
                        from = k(lang, from),
                        to = k(lang, to)
                    ));
                }
                if light > 0 {
                    what.push(tr!(lang, "trace_campaign.grant_light", n = light));
                }
                if dark > 0 {
                    what.push(tr!(lang, "trace_campaign.grant_dark", n = dark));
                }
                (
                    0,
                    tr!(
                        lang,
                        "trace_campaign.grant",
                        at = at(test),
                        what = what.join(", ")
                    ),
                    json!({"step": "grant", "test": test + 1, "karma": amount, "from": from,
                           "to": to, "light": light, "dark": dark}),
                )
            }
            Step::Posture {
                test,
                light,
                length,
                points,
            } => (
                0,
                match points {
                    Some((l, d)) => tr!(
                        lang,
                        "trace_campaign.posture_paid",
                        at = at(test),
                        posture = posture(light),
                        length,
                        value = k(lang, if light { bound } else { -bound }),
                        light = l,
                        dark = d
                    ),
                    None => tr!(
                        lang,
                        "trace_campaign.posture",
                        at = at(test),
                        posture = posture(light),
                        length,
                        value = k(lang, if light { bound } else { -bound })
                    ),
                },
                json!({"step": "posture", "test": test + 1,
                       "posture": if light { "illumination" } else { "sepulchral" },
                       "length": length, "points_left": points.map(|(l, d)| [l, d])}),
            ),
            Step::Refused { test } => (
                0,
                tr!(lang, "trace_campaign.refused", at = at(test)),
                json!({"step": "refused", "test": test + 1}),
            ),
            Step::PostureEnd { test, karma } => (
                0,
                tr!(
                    lang,
                    "trace_campaign.posture_end",
                    at = at(test),
                    karma = k(lang, karma)
                ),
                json!({"step": "posture_end", "test": test + 1, "karma": karma}),
            ),
            Step::Test {
                test,
                threshold,
                read,
                outcome,
                from,
                to,
            } => {
                let t = c.model.thresholds[threshold].0;
                (
                    0,
                    tr!(
                        lang,
                        "trace_campaign.test",
                        at = at(test),
                        threshold = t,
                        read = k(lang, read),
                        outcome = outcome.label(lang),
                        from = k(lang, from),
                        to = k(lang, to)
                    ),
                    json!({"step": "test", "test": test + 1, "threshold": t, "karma": read,
                           "outcome": outcome.name(), "from": from, "to": to}),
                )
            }
            Step::Extreme { test, plus } => (
                1,
                tr!(
                    lang,
                    "trace_campaign.extreme",
                    karma = k(lang, if plus { bound } else { -bound }),
                    test = test + 1
                ),
                json!({"step": "extreme", "test": test + 1,
                       "reached": if plus { "plus_10" } else { "minus_10" }}),
            ),
            Step::End {
                outcome,
                karma,
                postures,
                refused,
            } => {
                let o = OUTCOMES[outcome as usize];
                (
                    0,
                    tr!(
                        lang,
                        "trace_campaign.end",
                        tests = c.model.tests,
                        karma = k(lang, karma),
                        postures,
                        refused,
                        outcome = o
                    ),
                    json!({"step": "end", "outcome": o, "karma": karma, "postures": postures,
                           "refused": refused}),
                )
            }
        })
    })
}
