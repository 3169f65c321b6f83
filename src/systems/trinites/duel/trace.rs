//! `cosmosim trace` for Trinités duels (issue 27): duels of a run replayed from their own
//! streams through the batch code (`fight.rs` `fight_watched`, watched), told in the
//! book's terms (L'ART DE LA GUERRE, LES ACTIONS: Frapper, VIE ET MORT, PRIMES &
//! PÉNALITÉS): the initiative tests and the rounds (T-COMBAT), each turn's free actions,
//! attack and reaction tests as confrontations (T-TEST, T-DUAL, T-CONF), damage and the
//! life lines (T-LIFE), the Adam's Karma regenerations.

use serde_json::{json, Value};

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::trace::{
    trace_trials, Cond, Quiet, Steps, TraceRequest, TraceResult, Traced, Which,
};
use crate::systems::trinites::words::{attack, capital, declares, regen, verdict, LifeStep, Roll};
use crate::systems::trinites::TrinitesRules;

use super::fight::{fight_watched, DuelEnd, FightRecord};
use super::primes::{Penalty, Prime};
use super::sim::DuelSim;
use super::{load, DEFAULT_TRIALS};

/// One step of a duel; fighter 0 is the Adam', 1.. the humans.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// The pair the Adam' attaches to every attack (PRIMES & PÉNALITÉS).
    Pair {
        prime: Prime,
        penalty: Penalty,
    },
    /// L'initiative: the Rapidité test and the score it gives (T-COMBAT).
    Initiative {
        who: u8,
        roll: Roll,
        score: i64,
    },
    /// A regeneration (T-LIFE): one Light or Darkness point, boxes ticked before and
    /// after, points of that Karma left; `archonte` when the Archonte regenerates the
    /// unconscious Adam' at the end of a round.
    Regen {
        light: bool,
        archonte: bool,
        before: i64,
        after: i64,
        left: i64,
    },
    /// Free actions declared and their malus on every test of the turn (T-COMBAT).
    Declares {
        who: u8,
        free: i64,
        malus: i64,
    },
    /// Frapper: the attack test, at one target or (Attaques multiples) every human
    /// standing.
    Attack {
        who: u8,
        target: Option<u8>,
        roll: Roll,
    },
    /// The target's reaction test; the strike hits when the attack succeeds and the
    /// reaction fails or has a lower final (T-CONF: ties go to the reaction).
    Reaction {
        who: u8,
        roll: Roll,
        attack_ok: bool,
        hit: bool,
        /// The reaction won only by equalling the attack's final (T-CONF).
        tie: bool,
    },
    /// An unconscious target is inert: no reaction, the attack test decides.
    Inert {
        who: u8,
        hit: bool,
    },
    /// The standard damage of the blow (sword, prime, pénalité) and the protection.
    Damage {
        to: u8,
        damage: i64,
        protection: i64,
    },
    /// A fighter's life or initiative moves (shared with the skirmish).
    Life(LifeStep),
    End {
        outcome: DuelEnd,
        rounds: u32,
    },
}

/// The outcome names of `trinites-duel-pairs.csv` (p_adam_wins, p_humans_win, p_draw), in
/// [`DuelEnd`] order.
pub const OUTCOMES: [&str; 3] = ["adam_wins", "humans_win", "draw"];

/// The kind's `trace` entry: the same loading and settings as `run`; the reference pair
/// (the first of `pairs`) unless `--find pair=<prime>/<penalty>` names another.
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let duel = load(file)?;
    let (ctx, trials) = req
        .overrides
        .resolve(file, &duel.run, &duel.rules, DEFAULT_TRIALS)?;
    let rules = TrinitesRules::from_options(&ctx.options);
    let mut pair = duel.pairs[0];
    let mut which = req.which.clone();
    if let Which::Find(conds, count) = &req.which {
        let (pairs, rest): (Vec<Cond>, Vec<Cond>) =
            conds.iter().cloned().partition(|c| c.name == "pair");
        for c in &pairs {
            pair = parse_pair(c, &duel.pairs)?;
        }
        which = Which::Find(rest, *count);
    }
    let sim = DuelSim {
        combat: duel.combat,
        pair,
        rules,
    };
    let (engine, key) = (ctx.engine, sim.key(&ctx.stream));
    trace_trials(
        &which,
        trials,
        engine.seed(),
        &mut (),
        Ending::parse,
        |_, i, tests: &[Ending]| {
            let r = fight_watched(
                &sim.combat,
                pair,
                &rules,
                &mut engine.trial_stream(&key, i),
                &mut Quiet,
            );
            tests.iter().all(|t| t.holds(&r))
        },
        |_, i| {
            let mut steps = Steps(vec![Step::Pair {
                prime: pair.0,
                penalty: pair.1,
            }]);
            let r = fight_watched(
                &sim.combat,
                pair,
                &rules,
                &mut engine.trial_stream(&key, i),
                &mut steps,
            );
            render(file.lang, i, &r, &steps.0)
        },
    )
}

fn parse_pair(c: &Cond, pairs: &[(Prime, Penalty)]) -> Result<(Prime, Penalty), UserError> {
    let names: Vec<String> = pairs
        .iter()
        .map(|p| format!("{}/{}", p.0.name(), p.1.name()))
        .collect();
    c.one_of(&names).map(|k| pairs[k])
}

/// A `--find` condition on how a duel ended.
enum Ending {
    Outcome(DuelEnd),
    AdamFell,
    KarmaAtLeast(u32),
    RoundsAtLeast(u32),
}

const CONDITIONS: &str = "outcome=<adam_wins|humans_win|draw>, adam_fell, karma_at_least=<n>, rounds_at_least=<n>, pair=<prime>/<penalty>";

impl Ending {
    fn parse(c: &Cond) -> Result<Ending, UserError> {
        let number = || c.number("0, 1, 2, ...");
        Ok(match c.name.as_str() {
            "outcome" => {
                let ends = [DuelEnd::AdamWins, DuelEnd::HumansWin, DuelEnd::Draw];
                Ending::Outcome(ends[c.one_of(&OUTCOMES)?])
            }
            "adam_fell" => Ending::AdamFell,
            "karma_at_least" => Ending::KarmaAtLeast(number()?),
            "rounds_at_least" => Ending::RoundsAtLeast(number()?),
            _ => return Err(c.unknown(CONDITIONS)),
        })
    }

    fn holds(&self, r: &FightRecord) -> bool {
        match *self {
            Ending::Outcome(e) => r.end == e,
            Ending::AdamFell => r.adam_fell,
            Ending::KarmaAtLeast(k) => r.karma_spent >= k,
            Ending::RoundsAtLeast(n) => r.rounds >= n,
        }
    }
}

/// A fighter's name in the text and in JSON.
fn name(lang: Lang, who: u8) -> (String, String) {
    if who == 0 {
        (tr!(lang, "trace_trinites.adam").to_string(), "adam".into())
    } else {
        (
            tr!(lang, "trace_trinites.human", n = who),
            format!("human_{who}"),
        )
    }
}

/// Trial `trial`'s steps as lines and JSON in `lang`.
fn render(lang: Lang, trial: u64, r: &FightRecord, steps: &[Step]) -> Traced {
    let t = |w: u8| name(lang, w).0;
    let j = |w: u8| name(lang, w).1;
    Traced::told(trial, OUTCOMES[r.end as usize], steps, |step| {
        let (depth, text, v): (u8, String, Value) = match step {
            Step::Pair { prime, penalty } => (
                0,
                if prime == Prime::None {
                    tr!(lang, "trace_trinites.pair_none").to_string()
                } else {
                    tr!(
                        lang,
                        "trace_trinites.pair",
                        prime = prime.name(),
                        penalty = penalty.name()
                    )
                },
                json!({"step": "pair", "prime": prime.name(), "penalty": penalty.name()}),
            ),
            Step::Initiative { who, roll, score } => (
                0,
                tr!(
                    lang,
                    "trace_trinites.initiative",
                    who = t(who),
                    roll = roll.text(lang),
                    score
                ),
                roll.json(json!({"step": "initiative", "who": j(who), "score": score})),
            ),
            Step::Regen {
                light,
                archonte,
                before,
                after,
                left,
            } => regen(
                lang,
                &t(0),
                j(0).into(),
                light,
                archonte,
                [before, after, left],
            ),
            Step::Declares { who, free, malus } => {
                declares(lang, &t(who), j(who).into(), free, malus)
            }
            Step::Attack { who, target, roll } => (
                2,
                attack(lang, &t(who), target.map(t).as_deref(), false, &roll),
                roll.json(json!({"step": "attack", "who": j(who), "target": target.map(j)})),
            ),
            Step::Reaction {
                who,
                roll,
                attack_ok,
                hit,
                tie,
            } => (
                3,
                tr!(
                    lang,
                    "trace_trinites.reaction",
                    who = t(who),
                    roll = roll.text(lang),
                    verdict = verdict(lang, attack_ok, hit, tie)
                ),
                roll.json(json!({"step": "reaction", "who": j(who), "hit": hit, "tie": tie})),
            ),
            Step::Inert { who, hit } => (
                3,
                tr!(
                    lang,
                    "trace_trinites.inert",
                    who = t(who),
                    verdict = verdict(lang, hit, hit, false)
                ),
                json!({"step": "inert", "who": j(who), "hit": hit}),
            ),
            Step::Damage {
                to,
                damage,
                protection,
            } => (
                3,
                tr!(
                    lang,
                    "trace_trinites.damage",
                    who = t(to),
                    damage,
                    protection,
                    net = (damage - protection).max(0)
                ),
                json!({"step": "damage", "to": j(to), "damage": damage, "protection": protection}),
            ),
            Step::Life(l) => l.told(lang, t, |w| Value::from(j(w))),
            Step::End { outcome, rounds } => {
                crate::systems::trinites::words::end(lang, OUTCOMES[outcome as usize], rounds)
            }
        };
        Some((depth, capital(text), v))
    })
}
