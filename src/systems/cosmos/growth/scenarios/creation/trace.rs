//! `cosmosim trace` for Great Cosmos creation files (issue 27): characters of a run
//! replayed from their own streams through the batch code (`creation::create_watched`, the
//! function `create_with` runs quiet), told in the rulebook's terms: the 10d100 of HP and
//! PM and their split (C-CREATE-1), each stat d100 rerolled alone out of its window and the
//! 6d100 again out of the sum window (C-CREATE-2), the conversion's 2d100 (C-CREATE-3),
//! the race/class sheet and the point moves, the skill-point dice (C-LEVEL-3) and the DNA
//! points (C-LEVEL-4).
//!
//! Outcomes: with race/class sheets, the sheet the character ends on or `none` (the `race`
//! column of `creation-races.csv`); without, `accepted_first` (every set of dice kept at
//! its first roll: the 10d100 and the 6d100 sums in their windows) or `rerolled` (a set
//! rolled again for its sum; a single stat die out of its window is not a set).

use serde_json::json;

use crate::error::UserError;
use crate::lang::Lang;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::creation::{
    create_watched, Created, CreationPolicy, HpPmSplit, MovePolicy, SkillDie, StatAssign, Step,
};
use crate::systems::cosmos::growth::races::Races;
use crate::systems::cosmos::growth::stats::Stat;
use crate::systems::trace::{
    trace_trials, Bound, Cond, Quiet, Steps, TraceRequest, TraceResult, Traced,
};

use super::super::common::stats_json;
use super::report::load;
use super::sim::{POINTS, QUANTITIES};
use crate::systems::cosmos::growth::aura::Edition;

/// The outcome names without race/class sheets (see the module's comment).
pub const PLAIN_OUTCOMES: [&str; 2] = ["accepted_first", "rerolled"];

/// The outcome names: the sheets and `none`, or without sheets [`PLAIN_OUTCOMES`].
pub fn outcomes(races: &Races) -> Vec<&str> {
    if races.sheets.is_empty() {
        PLAIN_OUTCOMES.to_vec()
    } else {
        let sheets = races.sheets.iter().map(|s| s.name.as_str());
        sheets.chain(["none"]).collect()
    }
}

/// Whether every set of dice was kept at its first roll (a conversion has no 10d100).
#[inline]
pub fn accepted_first(c: &Created) -> bool {
    c.hp_pm_attempts <= 1 && c.stat_attempts == 1
}

/// The outcome of a created character, as named in the CSVs (sheets) or above (none).
pub fn outcome(races: &Races, c: &Created) -> String {
    if races.sheets.is_empty() {
        PLAIN_OUTCOMES[usize::from(!accepted_first(c))].to_string()
    } else {
        c.race
            .map_or("none", |k| races.sheets[k].name.as_str())
            .to_string()
    }
}

/// The kind's `trace` entry: the same loading and settings as `run`.
pub fn trace(file: &ScenarioFile, req: &TraceRequest) -> anyhow::Result<TraceResult> {
    let l = load(file, &req.overrides)?;
    let (engine, key) = (l.ctx.engine, &l.ctx.stream);
    let (p, races) = (&l.p, &l.races);
    trace_trials(
        &req.which,
        l.trials,
        engine.seed(),
        &mut (),
        |c| Ending::parse(c, races, p),
        |_, i, tests: &[Ending]| {
            let c = create_watched(&mut engine.trial_stream(key, i), p, races, &mut Quiet);
            tests.iter().all(|t| t.holds(races, &c))
        },
        |_, i| {
            let mut steps = Steps(Vec::new());
            let c = create_watched(&mut engine.trial_stream(key, i), p, races, &mut steps);
            render(file.lang, p, races, i, outcome(races, &c), &steps.0)
        },
    )
}

enum Ending {
    Outcome(String),
    HpPmRerolled,
    StatsRerolled,
    RaceRerolled,
    Quantity(Bound),
    D100AtLeast(u32),
}

fn conditions(quantities: &[&str]) -> String {
    format!(
        "outcome=<name>, hp_pm_rerolled, stats_rerolled, race_rerolled, <quantity>_at_least=<n>, <quantity>_at_most=<n> (quantity: {}), d100_rolls_at_least=<n>",
        quantities.join(", ")
    )
}

impl Ending {
    fn parse(c: &Cond, races: &Races, p: &CreationPolicy) -> Result<Ending, UserError> {
        // The previous edition has no skill nor DNA points (C-EDITION): not a quantity.
        let n = if p.edition == Edition::Previous {
            POINTS
        } else {
            QUANTITIES.len()
        };
        let quantities = &QUANTITIES[..n];
        if let Some(b) = c.bound(quantities) {
            return b.map(Ending::Quantity);
        }
        match c.name.as_str() {
            "outcome" => {
                c.one_of(&outcomes(races))?;
                Ok(Ending::Outcome(c.text().to_string()))
            }
            "hp_pm_rerolled" => c.flag(Ending::HpPmRerolled),
            "stats_rerolled" => c.flag(Ending::StatsRerolled),
            "race_rerolled" => c.flag(Ending::RaceRerolled),
            "d100_rolls_at_least" => Ok(Ending::D100AtLeast(c.number("0, 1, 2, ...")?)),
            _ => Err(c.unknown(&conditions(quantities))),
        }
    }

    fn holds(&self, races: &Races, c: &Created) -> bool {
        let ch = &c.character;
        // In the order of `QUANTITIES`.
        let q = |i: usize| -> i64 {
            match i {
                0 => ch.hp,
                1 => ch.pm,
                2..=7 => ch.stats[i - 2],
                8 => ch.skill_points,
                _ => ch.dna,
            }
            .into()
        };
        match self {
            Ending::Outcome(o) => outcome(races, c) == *o,
            Ending::HpPmRerolled => c.hp_pm_attempts > 1,
            // Rolls of the stat dice beyond the first, other than for a race/class reroll.
            Ending::StatsRerolled => c.stat_attempts > 1 + c.race_rerolls,
            Ending::RaceRerolled => c.race_rerolls > 0,
            Ending::Quantity(b) => b.holds(q(b.quantity)),
            Ending::D100AtLeast(n) => c.stat_d100_rolls >= *n,
        }
    }
}

/// Stats as `force 67, esprit 45, ...` (labels in the current language).
fn stats_text(lang: Lang, s: &[i32; 6]) -> String {
    Stat::ALL
        .iter()
        .map(|st| format!("{} {}", st.label(lang), s[*st as usize]))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The stats that changed, `force 67 → 70`; "no change" when none did.
fn changes_text(lang: Lang, before: &[i32; 6], after: &[i32; 6]) -> String {
    let v: Vec<String> = Stat::ALL
        .iter()
        .filter(|st| before[**st as usize] != after[**st as usize])
        .map(|st| {
            format!(
                "{} {} → {}",
                st.label(lang),
                before[*st as usize],
                after[*st as usize]
            )
        })
        .collect();
    if v.is_empty() {
        tr!(lang, "trace_creation.no_change").to_string()
    } else {
        v.join(", ")
    }
}

fn join(v: &[i32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// One character's steps as lines and JSON (current language). The single d100 of a
/// stat set and the skill-point dice are told on the line of their set.
fn render(
    lang: Lang,
    p: &CreationPolicy,
    races: &Races,
    trial: u64,
    outcome: String,
    steps: &[Step],
) -> Traced {
    // The d100 of the set being rolled: (kept value, values rerolled before it).
    let mut d100: Vec<(i32, Vec<i32>)> = Vec::new();
    let mut thrown: Vec<i32> = Vec::new();
    let mut skill: Vec<(SkillDie, u32, i32)> = Vec::new();
    let sheet = |k: Option<usize>| k.map_or("none", |k| races.sheets[k].name.as_str());
    Traced::told(trial, &outcome, steps, |step| {
        Some(match step {
            Step::HpPmRoll {
                attempt,
                dice,
                sum,
                accepted,
            } => {
                let (lo, hi) = p.sums.hp_pm;
                let dice_text = join(&dice);
                (
                    0,
                    tr_fill!(
                        if accepted {
                            tr!(lang, "trace_creation.hp_pm_kept")
                        } else {
                            tr!(lang, "trace_creation.hp_pm_again")
                        },
                        attempt,
                        dice = dice_text,
                        sum,
                        lo,
                        hi
                    ),
                    json!({"step": "hp_pm_roll", "attempt": attempt, "dice": dice, "sum": sum, "accepted": accepted}),
                )
            }
            Step::Split { dice, hp, pm } => {
                let how = match p.split {
                    HpPmSplit::Random => tr!(lang, "trace_creation.split_random"),
                    HpPmSplit::HpFirst => tr!(lang, "trace_creation.split_hp_first"),
                    HpPmSplit::PmFirst => tr!(lang, "trace_creation.split_pm_first"),
                };
                (
                    1,
                    tr!(
                        lang,
                        "trace_creation.split",
                        how,
                        hp_dice = join(&dice[..5]),
                        hp,
                        pm_dice = join(&dice[5..]),
                        pm
                    ),
                    json!({"step": "split", "hp_dice": &dice[..5], "hp": hp, "pm_dice": &dice[5..], "pm": pm}),
                )
            }
            Step::Conversion { level } => (
                0,
                tr!(lang, "trace_creation.conversion", level),
                json!({"step": "conversion", "level": level}),
            ),
            Step::StatD100 { value, kept } => {
                if kept {
                    d100.push((value, std::mem::take(&mut thrown)));
                } else {
                    thrown.push(value);
                }
                return None;
            }
            Step::StatRoll {
                attempt,
                n,
                dice,
                sum,
                accepted,
            } => {
                let (lo, hi) = if p.conversion.is_some() {
                    p.sums.conversion
                } else {
                    p.sums.stats
                };
                let shown: Vec<String> = d100
                    .iter()
                    .map(|(v, before)| {
                        if before.is_empty() {
                            v.to_string()
                        } else {
                            tr!(
                                lang,
                                "trace_creation.die_after",
                                value = v,
                                rerolled = join(before)
                            )
                        }
                    })
                    .collect();
                let j = json!({"step": "stat_roll", "attempt": attempt,
                    "dice": d100.iter().map(|(v, b)| json!({"value": v, "rerolled": b})).collect::<Vec<_>>(),
                    "sum": sum, "accepted": accepted});
                debug_assert_eq!(d100.len(), n as usize);
                debug_assert!(d100.iter().zip(dice).all(|(a, b)| a.0 == b));
                d100.clear();
                let (dice_text, lo_hi) = (shown.join(", "), (p.bounds.die_min, p.bounds.die_max));
                (
                    0,
                    tr_fill!(
                        if accepted {
                            tr!(lang, "trace_creation.stats_kept")
                        } else {
                            tr!(lang, "trace_creation.stats_again")
                        },
                        attempt,
                        n,
                        die_min = lo_hi.0,
                        die_max = lo_hi.1,
                        dice = dice_text,
                        sum,
                        lo,
                        hi
                    ),
                    j,
                )
            }
            Step::Assigned { stats } => (
                1,
                if p.assign == StatAssign::Priority {
                    tr!(
                        lang,
                        "trace_creation.assigned_priority",
                        stats = stats_text(lang, &stats)
                    )
                } else {
                    tr!(
                        lang,
                        "trace_creation.assigned_in_order",
                        stats = stats_text(lang, &stats)
                    )
                },
                json!({"step": "assigned", "stats": stats_json(&stats)}),
            ),
            Step::Race {
                sheet: k,
                before,
                after,
            } => (
                1,
                match k {
                    Some(_) => tr!(
                        lang,
                        "trace_creation.race_met",
                        sheet = sheet(k),
                        changes = changes_text(lang, &before, &after)
                    ),
                    None => tr!(lang, "trace_creation.race_none", points = p.move_points),
                },
                json!({"step": "race", "sheet": sheet(k), "stats": stats_json(&after)}),
            ),
            Step::RaceReroll { n } => (
                1,
                tr!(
                    lang,
                    "trace_creation.race_reroll",
                    sheet = sheet(Some(0)),
                    n
                ),
                json!({"step": "race_reroll", "sheet": sheet(Some(0)), "reroll": n}),
            ),
            Step::Moves {
                points,
                before,
                after,
            } => {
                let how = match p.move_policy {
                    MovePolicy::ToFirst => "to_first",
                    MovePolicy::EvenOut => "even_out",
                    MovePolicy::None => "none",
                };
                (
                    1,
                    tr!(
                        lang,
                        "trace_creation.moves",
                        points,
                        how,
                        changes = changes_text(lang, &before, &after)
                    ),
                    json!({"step": "moves", "points": points, "policy": how, "stats": stats_json(&after)}),
                )
            }
            Step::SkillDie { which, faces, roll } => {
                skill.push((which, faces, roll));
                return None;
            }
            Step::SkillPoints { points } => {
                let shown: Vec<String> = skill
                    .iter()
                    .map(|&(w, f, r)| match w {
                        SkillDie::First => {
                            tr!(lang, "trace_creation.skill_first", faces = f, roll = r)
                        }
                        SkillDie::PerPm => {
                            tr!(lang, "trace_creation.skill_per_pm", faces = f, roll = r)
                        }
                        SkillDie::Bonus => {
                            tr!(lang, "trace_creation.skill_bonus", faces = f, roll = r)
                        }
                    })
                    .collect();
                let j = json!({"step": "skill_points", "points": points,
                    "dice": skill.iter().map(|&(w, f, r)| json!({"die": match w {
                        SkillDie::First => "first", SkillDie::PerPm => "per_pm", SkillDie::Bonus => "bonus" },
                        "faces": f, "roll": r})).collect::<Vec<_>>()});
                skill.clear();
                (
                    0,
                    tr!(
                        lang,
                        "trace_creation.skill",
                        dice = shown.join(", "),
                        points
                    ),
                    j,
                )
            }
            Step::Dna {
                base,
                faces,
                roll,
                total,
            } => (
                0,
                tr!(lang, "trace_creation.dna", base, faces, roll, total),
                json!({"step": "dna", "base": base, "faces": faces, "roll": roll, "total": total}),
            ),
            Step::End { character: c } if p.edition == Edition::Previous => (
                0,
                tr!(
                    lang,
                    "trace_creation.end_previous",
                    hp = c.hp,
                    pm = c.pm,
                    stats = stats_text(lang, &c.stats),
                    outcome
                ),
                json!({"step": "end", "outcome": outcome, "hp": c.hp, "pm": c.pm,
                    "stats": stats_json(&c.stats)}),
            ),
            Step::End { character: c } => (
                0,
                tr!(
                    lang,
                    "trace_creation.end",
                    hp = c.hp,
                    pm = c.pm,
                    stats = stats_text(lang, &c.stats),
                    skill = c.skill_points,
                    dna = c.dna,
                    outcome
                ),
                json!({"step": "end", "outcome": outcome, "hp": c.hp, "pm": c.pm,
                    "stats": stats_json(&c.stats), "skill_points": c.skill_points, "dna_points": c.dna}),
            ),
        })
    })
}
