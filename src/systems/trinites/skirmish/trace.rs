//! `cosmosim trace` for Trinités skirmishes (issue 27): fights of a run replayed from their
//! own streams through the batch code (`sim.rs` `fight_watched`, watched), told in the
//! book's terms (L'ART DE LA GUERRE, LES ACTIONS: Frapper, Tirer, Se déplacer, Feinter,
//! Désarmer; VIE ET MORT; PRIMES & PÉNALITÉS): initiative tests and rounds (T-COMBAT),
//! free actions, attack and reaction tests as confrontations (T-TEST, T-DUAL, T-CONF),
//! damage and life lines (T-LIFE), the Adam's Karma regenerations.

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::trace::{trace_trials, Cond, Quiet, Steps, TraceRequest, TraceResult};
use crate::systems::trinites::track::Zone;
use crate::systems::trinites::words::{LifeStep, Roll};
use crate::systems::trinites::TrinitesRules;
use crate::systems::TrialLimits;

use super::model::{load, Skirmish, TRIALS_MAX};
use super::sim::{fight_watched, End, Outcome};
use super::trace_text::render;
use super::{simulation, DEFAULT_TRIALS};

/// Why a target cannot react to a successful attack.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unanswered {
    /// Unconscious: an inert target.
    Inert,
    /// The action right after a successful feint (Feinter).
    Feinted,
    /// An ally's held parry stands instead (`trinites_parry_for = instead`).
    Parried,
}

/// One step of a skirmish; combatants are indices into the file's combatants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// L'initiative: the Rapidité test, the score, and where the die starts (en retrait
    /// when surprised; T-COMBAT).
    Initiative {
        who: u8,
        roll: Roll,
        score: i64,
        zone: Zone,
    },
    /// A regeneration (T-LIFE): one Light or Darkness point, boxes before and after, that
    /// Karma's points left; `archonte` at the end of a round, the Adam' unconscious.
    Regen {
        who: u8,
        light: bool,
        archonte: bool,
        before: i64,
        after: i64,
        left: i64,
    },
    /// A disarmed fighter's turn: the weapon is back in hand, or still away (no action,
    /// or a strike with bare hands).
    Disarmed {
        who: u8,
        back: bool,
        bare_hands: bool,
    },
    /// A successful Désarmer: `who`'s weapon flies.
    LosesWeapon {
        who: u8,
    },
    /// Free actions declared and their malus on every test of the turn (T-COMBAT).
    Declares {
        who: u8,
        free: i64,
        malus: i64,
    },
    /// Feinter or Désarmer against `target`: the test, the reaction (rolled when the test
    /// succeeds; ties to the reaction, T-CONF) and whether it worked.
    Tactic {
        who: u8,
        target: u8,
        feint: bool,
        roll: Roll,
        reaction: Option<Roll>,
        ok: bool,
    },
    /// Se déplacer toward spot `dest` (0 the mêlée, g + 1 group g's post): metres to go,
    /// the Athlétisme test when one is needed, metres still to go when stopped halfway.
    Move {
        who: u8,
        dest: u8,
        metres: i64,
        test: Option<Roll>,
        left: i64,
    },
    /// Frapper or Tirer: the attack test at one target or (Attaques multiples) every foe
    /// in reach.
    Attack {
        who: u8,
        target: Option<u8>,
        ranged: bool,
        roll: Roll,
    },
    /// Attaques multiples: the attack's final against this target (its own circumstances).
    Versus {
        who: u8,
        total: i64,
        success: bool,
    },
    /// The target cannot react: the successful attack hits.
    Unanswered {
        who: u8,
        why: Unanswered,
    },
    /// A reaction test (the target's, or an ally's held parry for it): the strike gets
    /// through when the reaction fails or has a lower final (T-CONF: ties to the reaction).
    Reaction {
        who: u8,
        parries_for: Option<u8>,
        roll: Roll,
        hit: bool,
        /// The reaction won only by equalling the attack's final (T-CONF).
        tie: bool,
    },
    /// Boxes the hit deals after protection (T-COMBAT), or a zone weapon's half damage on
    /// a miss.
    Damage {
        to: u8,
        boxes: i64,
        zone: bool,
    },
    /// Abandon de position avantageuse: the cover is left.
    LeavesCover {
        who: u8,
    },
    /// A parry held for an ally until the next turn (Anticiper un évènement).
    Guards {
        who: u8,
    },
    /// The held parry of `who` is spent by a strike on `ward` that was already stopped
    /// (the attack test failed, or `ward`'s own reaction won): no parry test.
    ParrySpent {
        who: u8,
        ward: u8,
    },
    /// A fighter's life or initiative moves (shared with the duel).
    Life(LifeStep),
    End {
        end: End,
        rounds: u32,
    },
}

/// The outcome names of `trinites-skirmish-sides.csv`: each side, `draw`, `undecided`.
pub(super) fn outcome(m: &Skirmish, end: End) -> &str {
    match end {
        End::Side(k) => &m.sides[k],
        End::Draw => "draw",
        End::Undecided => "undecided",
    }
}

/// The kind's `trace` entry: the same loading and settings as `run` (the file's groups,
/// not the `[pairs]` runs).
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let m = load(file)?;
    let limits = TrialLimits {
        default: DEFAULT_TRIALS,
        max: TRIALS_MAX,
    };
    let (ctx, trials) = req.overrides.resolve(file, &m.run, &m.rules, limits)?;
    let rules = TrinitesRules::from_options(&ctx.options);
    let sim = simulation(&m, rules);
    let (engine, key) = (ctx.engine, &ctx.stream);
    trace_trials(
        &req.which,
        trials,
        engine.seed(),
        &mut (),
        |c| Ending::parse(c, &m),
        |_, i, tests: &[Ending]| {
            let o = fight_watched(
                &sim.setup,
                &rules,
                &mut engine.trial_stream(key, i),
                &mut Quiet,
            );
            tests.iter().all(|t| t.holds(&o))
        },
        |_, i| {
            let mut steps = Steps(Vec::new());
            let o = fight_watched(
                &sim.setup,
                &rules,
                &mut engine.trial_stream(key, i),
                &mut steps,
            );
            render(file.lang, &m, i, &o, &steps.0)
        },
    )
}

/// A `--find` condition on how a skirmish ended.
enum Ending {
    Outcome(End),
    Down(usize),
    Dead(usize),
    RoundsAtLeast(u32),
}

const CONDITIONS: &str =
    "outcome=<side|draw|undecided>, down=<combatant>, dead=<combatant>, rounds_at_least=<n>";

impl Ending {
    fn parse(c: &Cond, m: &Skirmish) -> Result<Ending, UserError> {
        Ok(match c.name.as_str() {
            "outcome" => {
                let mut ends: Vec<End> = (0..m.sides.len()).map(End::Side).collect();
                ends.extend([End::Draw, End::Undecided]);
                let names: Vec<&str> = ends.iter().map(|e| outcome(m, *e)).collect();
                Ending::Outcome(ends[c.one_of(&names)?])
            }
            "down" => Ending::Down(c.one_of(&m.names)?),
            "dead" => Ending::Dead(c.one_of(&m.names)?),
            "rounds_at_least" => Ending::RoundsAtLeast(c.number("1, 2, 3, ...")?),
            _ => return Err(c.unknown(CONDITIONS)),
        })
    }

    /// Down and dead as `trinites-skirmish-combatants.csv` counts them: the state at the
    /// end (unconscious or dead; dead).
    fn holds(&self, o: &Outcome) -> bool {
        match *self {
            Ending::Outcome(e) => o.end == e,
            Ending::Down(i) => o.st[i].ko() || o.st[i].dead(),
            Ending::Dead(i) => o.st[i].dead(),
            Ending::RoundsAtLeast(n) => o.rounds >= n,
        }
    }
}
