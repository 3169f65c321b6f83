//! `cosmosim trace` for Great Cosmos combat (issue 27): replays trials of a run from their
//! own streams through the batch code, watched (`watch.rs`), and finds trials by how they
//! ended without building any trace for the others.

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::trace::{pick, Cond, TraceRequest, TraceResult};

use super::fight::Fight;
use super::sim::CombatSim;
use super::watch::Steps;
use super::{scenario, CombatRules, DEFAULT_TRIALS};

/// The kind's `trace` entry: the same loading and settings as `run`.
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let (raw, model) = scenario::load_with(file, &req.overrides.options)?;
    let (ctx, trials) = req
        .overrides
        .resolve(file, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
    let sim = CombatSim::new(model, CombatRules::from_options(&ctx.options));
    let (engine, key) = (ctx.engine, &ctx.stream);
    let mut acc = sim.empty_acc();
    let (list, scanned) = {
        let mut rng = engine.trial_stream(key, 0);
        let mut fight = Fight::new(&sim, &mut rng, &mut acc);
        pick(
            &req.which,
            trials,
            |c| Ending::parse(c, &sim, ctx.lang),
            |i, tests: &[Ending]| {
                *fight.rng = engine.trial_stream(key, i);
                fight.combat();
                tests.iter().all(|t| t.holds(&fight))
            },
        )?
    };
    let mut out = Vec::with_capacity(list.len());
    for i in list {
        let mut rng = engine.trial_stream(key, i);
        let mut fight: Fight<'_, '_, Steps> =
            Fight::watched(&sim, &mut rng, &mut acc, Steps::default());
        fight.combat();
        let outcome = fight.last_outcome;
        let steps = std::mem::take(&mut fight.watch.0);
        out.push(super::trace_text::render(
            &sim, i, outcome, &steps, ctx.lang,
        ));
    }
    Ok(TraceResult {
        seed: engine.seed(),
        run_trials: trials,
        scanned,
        trials: out,
    })
}

/// The outcome names of the sides CSV: each side, then `nobody_standing`, `round_cap`.
pub(super) fn outcome_names(sim: &CombatSim) -> Vec<String> {
    let mut v = sim.model.sides.clone();
    v.push("nobody_standing".into());
    v.push("round_cap".into());
    v
}

/// One `--find` condition on how a combat ended.
enum Ending {
    Outcome(usize),
    /// Some combatant (or this one) had an Apocalypse (C-LD-6).
    Apocalypse(Option<usize>),
    Down(usize),
    Standing(usize),
    /// Some combatant (or this one) ended exhausted on a track (C-FAT-4).
    Exhausted(Option<usize>),
    RoundsAtLeast(u32),
}

const CONDITIONS: &str = "outcome=<outcome>, apocalypse, apocalypse=<combatant>, down=<combatant>, standing=<combatant>, exhausted, exhausted=<combatant>, rounds_at_least=<n>";

impl Ending {
    fn parse(c: &Cond, sim: &CombatSim, lang: Lang) -> Result<Ending, UserError> {
        let names: Vec<&str> = sim.model.fighters.iter().map(|f| f.name.as_str()).collect();
        let who = |v: &Option<String>| -> Result<usize, UserError> {
            let v = v.as_deref().unwrap_or("");
            names.iter().position(|n| *n == v).ok_or_else(|| {
                UserError::new(tr!(
                    lang,
                    "trace.find_unknown_value",
                    name = c.name,
                    value = v,
                    allowed = names.join(", ")
                ))
            })
        };
        let maybe_who = |v: &Option<String>| match v {
            None => Ok(None),
            Some(_) => who(v).map(Some),
        };
        Ok(match c.name.as_str() {
            "outcome" => {
                let outcomes = outcome_names(sim);
                let v = c.value.as_deref().unwrap_or("");
                let i = outcomes.iter().position(|o| o == v).ok_or_else(|| {
                    UserError::new(tr!(
                        lang,
                        "trace.find_unknown_value",
                        name = c.name,
                        value = v,
                        allowed = outcomes.join(", ")
                    ))
                })?;
                Ending::Outcome(i)
            }
            "apocalypse" => Ending::Apocalypse(maybe_who(&c.value)?),
            "down" => Ending::Down(who(&c.value)?),
            "standing" => Ending::Standing(who(&c.value)?),
            "exhausted" => Ending::Exhausted(maybe_who(&c.value)?),
            "rounds_at_least" => {
                let v = c.value.as_deref().unwrap_or("");
                Ending::RoundsAtLeast(v.parse().map_err(|_| {
                    UserError::new(tr!(
                        lang,
                        "trace.find_unknown_value",
                        name = c.name,
                        value = v,
                        allowed = "1, 2, 3, ..."
                    ))
                })?)
            }
            other => {
                return Err(UserError::new(tr!(
                    lang,
                    "trace.find_unknown",
                    name = other,
                    allowed = CONDITIONS
                )))
            }
        })
    }

    fn holds<W: super::watch::Watch>(&self, fight: &Fight<'_, '_, W>) -> bool {
        let sim = fight.sim;
        let st = &fight.st[..sim.n];
        // Out of the fight by a scripted event is neither down nor standing.
        let down = |f: usize| st[f].down && st[f].absent == 0;
        let tired = |f: usize| sim.exhausted(st[f].fp) || sim.exhausted(st[f].fm);
        match *self {
            Ending::Outcome(i) => fight.last_outcome == i,
            Ending::Apocalypse(None) => st.iter().any(|s| s.apocalypses > 0),
            Ending::Apocalypse(Some(f)) => st[f].apocalypses > 0,
            Ending::Down(f) => down(f),
            Ending::Standing(f) => !st[f].down,
            Ending::Exhausted(None) => (0..sim.n).any(tired),
            Ending::Exhausted(Some(f)) => tired(f),
            Ending::RoundsAtLeast(r) => fight.round >= r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Progress;
    use crate::lang::Lang;
    use crate::systems::trace::{parse_find, Which};
    use crate::systems::RunOverrides;

    /// A short duel (round caps are common) with Dark points to spend.
    const DUEL: &str = r#"
system = "cosmos"
kind = "combat"
title = "Trace test"
question = "Does a replayed trial end as the batch run counted it?"

[combat]
max_rounds = 5

[attacks.sword]
stat = "force"
damage = "2d10+5"
element = "metal"

[combatants.knight]
side = "heroes"
level = 5
stats = { force = 60, esprit = 35, charisme = 40, agilite = 50, precision = 45, chance = 50 }
hp = 90
pm = 60
mode = "defensive"
attacks = ["sword"]

[combatants.knight.policy]
dark_below_hp = 0.5

[combatants.troll]
side = "monster"
level = 3
stats = { force = 60, esprit = 35, charisme = 40, agilite = 50, precision = 45, chance = 50 }
hp = 110
pm = 60
mode = "offensive"
attacks = ["sword"]
"#;

    fn file() -> ScenarioFile {
        ScenarioFile::from_text("trace-test.toml", DUEL, crate::lang::Lang::En)
    }

    #[test]
    fn replayed_trials_end_as_the_batch_run_counted_them() {
        // Issue 27: tally the outcomes of trials 0..N by replay and compare with an
        // N-trial run of the same file and seed.
        let f = file();
        let (raw, model) = scenario::load_with(&f, &[]).unwrap();
        let o = RunOverrides::default();
        let (ctx, _) = o.resolve(&f, &raw.run, &raw.rules, DEFAULT_TRIALS).unwrap();
        let sim = CombatSim::new(model, CombatRules::from_options(&ctx.options));
        let n = 3000u64;
        let batch = ctx.engine.run(&sim, &ctx.stream, n, &Progress::hidden());
        let names = outcome_names(&sim);
        let req = TraceRequest {
            which: Which::Range(0, n - 1),
            overrides: o,
        };
        let traced = trace(&f, &req).unwrap();
        let mut tally = vec![0u64; names.len()];
        for t in &traced.trials {
            tally[names.iter().position(|x| *x == t.outcome).unwrap()] += 1;
        }
        assert_eq!(tally, batch.outcome);
        assert!(batch.outcome.iter().filter(|&&c| c > 0).count() >= 2);
    }

    #[test]
    fn find_returns_the_first_matching_trials_in_order() {
        let f = file();
        let cap = TraceRequest {
            which: Which::Find(parse_find("outcome=round_cap", Lang::En).unwrap(), 3),
            overrides: RunOverrides::default(),
        };
        let r = trace(&f, &cap).unwrap();
        assert_eq!(r.trials.len(), 3);
        assert!(r.trials.iter().all(|t| t.outcome == "round_cap"));
        assert!(r.trials.windows(2).all(|w| w[0].trial < w[1].trial));
        // No trial before the first found one hit the cap.
        let first = r.trials[0].trial;
        if first > 0 {
            let before = TraceRequest {
                which: Which::Range(0, first - 1),
                overrides: RunOverrides::default(),
            };
            let b = trace(&f, &before).unwrap();
            assert!(b.trials.iter().all(|t| t.outcome != "round_cap"));
        }
        for bad in ["outcome=draw", "down=ogre", "fireball", "rounds_at_least=x"] {
            let req = TraceRequest {
                which: Which::Find(parse_find(bad, Lang::En).unwrap(), 1),
                overrides: RunOverrides::default(),
            };
            let e = trace(&f, &req).err().unwrap().to_string();
            assert!(
                e.contains("knight")
                    || e.contains("round_cap")
                    || e.contains("apocalypse")
                    || e.contains("1, 2"),
                "{e}"
            );
        }
    }
}
