//! `cosmosim trace` for leveling (issue 27): trials of a run replayed from their own
//! streams through the batch code (`sim.rs` `LevelingSim::trial` and `leveling::level_up`,
//! watched): the character as created (one step: the creation code's result), then each
//! level-up's rolls and choices (C-LEVEL-1..4, C-LD-1, C-KARMA-1) and what each DNA or
//! skill policy has at that level.

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::cosmos::Outcome;
use crate::systems::trace::{trace_trials, Bound, Cond, Quiet, Steps, TraceRequest, TraceResult};

use super::model::LevelingModel;
use super::sim::{reported, LevelingSim};
use super::trace_text::render;

/// One step of a character's levels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// The character the creation code made (`create_with`; its own account is
    /// `cosmosim trace` of a creation file), with the sheet it ended on.
    Created {
        stats: [i32; 6],
        hp: i32,
        pm: i32,
        skill_points: i32,
        dna: i32,
        race: Option<u8>,
        karma: i8,
    },
    /// Normal tests since the last level (C-KARMA-1): karma before and after.
    Campaign {
        tests: u32,
        before: i8,
        after: i8,
    },
    /// A level reached, with the stat cap in force (C-LEVEL-1).
    Level {
        level: u32,
        cap: i32,
    },
    /// A stat gain: the die, its roll, the stat before and after (the cap keeps the rest).
    Stat {
        stat: u8,
        die: u32,
        roll: i32,
        before: i32,
        after: i32,
    },
    /// HP or PM gained: the die (0: the Chance bonus dice), the roll, the pool after.
    Pool {
        hp: bool,
        die: u32,
        roll: i32,
        after: i32,
    },
    /// Level 5: points moved between stats (the creation's move policy), Light and Dark
    /// points after the grant (C-LD-1).
    Moves {
        before: [i32; 6],
        after: [i32; 6],
        light: u32,
        dark: u32,
    },
    /// The Chance test (C-LEVEL-2): threshold, karma, outcome, karma after.
    Chance {
        threshold: i32,
        karma: i8,
        outcome: Outcome,
        karma_after: i8,
    },
    /// Skill points (C-LEVEL-3): the die's roll, the +2 carry, the gain and the total.
    Skill {
        roll: i32,
        carry: bool,
        gain: i32,
        total: i32,
    },
    /// DNA points at levels 3, 6, 9 (C-LEVEL-4).
    Dna {
        die: u32,
        roll: i32,
        total: i32,
    },
    /// A DNA (`dna = true`) or skill policy at this level: points unspent, genes fully
    /// active or skills unlocked, wishes met of all.
    Policy {
        dna: bool,
        policy: u8,
        unspent: u32,
        have: u32,
        met: u32,
        wishes: u32,
    },
    /// A stat build's stats at the last level (the same rolls, aimed by its weights).
    Build {
        build: u8,
        stats: [i32; 6],
    },
    End {
        outcome: u8,
        level: u32,
    },
}

/// The outcome names: the last level's Chance test gave its bonus or not
/// (`leveling-chance.csv` `p_chance_bonus` at the last level).
pub const OUTCOMES: [&str; 2] = ["bonus", "no_bonus"];

/// How a trial ended, what `--find` reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Ending {
    pub outcome: u8,
    /// Chance bonus won at level l: bit l.
    pub bonus: u32,
    /// The quantities of `QUANTITIES` at the last level.
    pub last: [i64; 12],
    /// DNA policies then skill policies with every wish met at the last level (a bit
    /// each).
    pub all_met: u16,
}

/// The kind's `trace` entry: the same loading and settings as `run` (`report::setup`).
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let (m, ctx, trials, ..) = super::report::setup(file, &req.overrides)?;
    let rules = crate::systems::cosmos::TestRules::from_options(&ctx.options);
    let sim = LevelingSim::new(m, rules);
    let (engine, key) = (ctx.engine, &ctx.stream);
    let acc = crate::engine::Simulation::empty(&sim);
    let sc = sim.scratch();
    trace_trials(
        &req.which,
        trials,
        engine.seed(),
        &mut (acc, sc),
        |c| Find::parse(c, &sim.model),
        |(acc, sc), i, tests: &[Find]| {
            let end = sim.trial(&mut engine.trial_stream(key, i), acc, sc, &mut Quiet);
            tests.iter().all(|t| t.holds(&end))
        },
        |(acc, sc), i| {
            let mut steps = Steps(Vec::new());
            let end = sim.trial(&mut engine.trial_stream(key, i), acc, sc, &mut steps);
            render(ctx.lang, &sim.model, i, end.outcome, &steps.0)
        },
    )
}

enum Find {
    Outcome(u8),
    BonusAt(u32),
    BonusesAtLeast(u32),
    Quantity(Bound),
    AllMet(usize),
}

impl Find {
    fn parse(c: &Cond, m: &LevelingModel) -> Result<Find, UserError> {
        let policies: Vec<&str> = m
            .dna
            .iter()
            .flat_map(|d| d.policies.iter().map(|(n, _)| n.as_str()))
            .chain(
                m.skills
                    .iter()
                    .flat_map(|s| s.policies.iter().map(|(n, _)| n.as_str())),
            )
            .collect();
        // The previous edition has no skill nor DNA points (C-EDITION): not a quantity.
        let shown = reported(m.creation.edition);
        let names: Vec<&str> = shown.iter().map(|q| q.1).collect();
        if let Some(b) = c.bound(&names) {
            return b.map(|b| {
                Find::Quantity(Bound {
                    quantity: shown[b.quantity].0,
                    ..b
                })
            });
        }
        Ok(match c.name.as_str() {
            "outcome" => Find::Outcome(c.one_of(&OUTCOMES)? as u8),
            "bonus_at" => Find::BonusAt(
                c.text()
                    .parse::<u32>()
                    .ok()
                    .filter(|l| (2..=m.max_level).contains(l))
                    .ok_or_else(|| c.bad_value(&format!("2..{}", m.max_level)))?,
            ),
            "bonuses_at_least" => {
                Find::BonusesAtLeast(c.number::<i64>("0, 1, 2, ...")?.max(0) as u32)
            }
            "wishes_met" if !policies.is_empty() => Find::AllMet(c.one_of(&policies)?),
            _ => {
                let mut allowed = format!(
                    "outcome=<bonus|no_bonus>, bonus_at=<level>, bonuses_at_least=<n>, <quantity>_at_least=<n>, <quantity>_at_most=<n> (quantity: {}, at the last level)",
                    names.join(", ")
                );
                if !policies.is_empty() {
                    allowed += ", wishes_met=<policy>";
                }
                return Err(c.unknown(&allowed));
            }
        })
    }

    fn holds(&self, e: &Ending) -> bool {
        match *self {
            Find::Outcome(o) => e.outcome == o,
            Find::BonusAt(l) => e.bonus & (1 << l) != 0,
            Find::BonusesAtLeast(n) => e.bonus.count_ones() >= n,
            Find::Quantity(b) => b.holds(e.last[b.quantity]),
            Find::AllMet(p) => e.all_met & (1 << p) != 0,
        }
    }
}

/// A stat's name as the file writes it.
pub fn stat_name(i: u8) -> &'static str {
    Stat::ALL[i as usize].name()
}
