//! A character's levels as lines to read and JSON (issue 27): the creation's result, then
//! each level-up's rolls and choices (C-LEVEL-1..4, C-LD-1, C-KARMA-1), in the current
//! language.

use serde_json::json;

use crate::lang::Lang;
use crate::systems::cosmos::growth::aura::Edition;
use crate::systems::cosmos::growth::skill_sheet;
use crate::systems::trace::Traced;

use super::super::common::stats_json;
use super::model::LevelingModel;
use super::trace::{stat_name, Step, OUTCOMES};

fn stats_text(s: &[i32; 6]) -> String {
    (0..6u8)
        .map(|i| format!("{} {}", stat_name(i), s[i as usize]))
        .collect::<Vec<_>>()
        .join(", ")
}

fn pool_name(lang: Lang, hp: bool) -> &'static str {
    if hp {
        tr!(lang, "trace_leveling.hp")
    } else {
        tr!(lang, "trace_leveling.pm")
    }
}

/// Trial `trial`'s steps as lines and JSON (current language).
pub fn render(lang: Lang, m: &LevelingModel, trial: u64, outcome: u8, steps: &[Step]) -> Traced {
    let previous = m.creation.edition == Edition::Previous;
    Traced::told(trial, OUTCOMES[outcome as usize], steps, |step| {
        Some(match step {
            Step::Created {
                stats,
                hp,
                pm,
                skill_points,
                dna,
                race,
                karma,
            } => {
                let race = race.map(|r| m.races.sheets[r as usize].name.clone());
                let mut text = if previous {
                    tr!(
                        lang,
                        "trace_leveling.created_previous",
                        stats = stats_text(&stats),
                        hp,
                        pm,
                        sheet = skill_sheet::text(lang, 1).unwrap_or_default(),
                        karma
                    )
                } else {
                    tr!(
                        lang,
                        "trace_leveling.created",
                        stats = stats_text(&stats),
                        hp,
                        pm,
                        skill_points,
                        dna,
                        karma
                    )
                };
                if let Some(r) = &race {
                    text += &tr!(lang, "trace_leveling.race", race = r);
                }
                let mut j = json!({"step": "created", "stats": stats_json(&stats), "hp": hp, "pm": pm, "skill_points": skill_points, "dna_points": dna, "race": race, "karma": karma});
                if previous {
                    let o = j.as_object_mut().expect("an object");
                    o.remove("skill_points");
                    o.remove("dna_points");
                }
                (0, text, j)
            }
            Step::Campaign {
                tests,
                before,
                after,
            } => (
                1,
                tr!(lang, "trace_leveling.campaign", tests, before, after),
                json!({"step": "campaign", "tests": tests, "karma_before": before, "karma_after": after}),
            ),
            Step::Level { level, cap } => {
                let mut text = tr!(lang, "trace_leveling.level", level, cap);
                let mut j = json!({"step": "level", "level": level, "cap": cap});
                // The previous edition's skill sheet at this level (C-EDITION), fixed by
                // the book up to level 10.
                if let Some(s) = skill_sheet::at(level).filter(|_| previous) {
                    text += &tr!(
                        lang,
                        "trace_leveling.sheet",
                        sheet = skill_sheet::text(lang, level).unwrap_or_default()
                    );
                    j["active_skills"] = s.active.into();
                    j["final_skill"] = s.final_skill.into();
                    j["max_passive_skills"] = s.max_passives.into();
                }
                (0, text, j)
            }
            Step::Stat {
                stat,
                die,
                roll,
                before,
                after,
            } => {
                let mut text = tr!(
                    lang,
                    "trace_leveling.stat",
                    stat = stat_name(stat),
                    die,
                    roll,
                    before,
                    after
                );
                if after - before < roll {
                    text += &tr!(
                        lang,
                        "trace_leveling.capped",
                        lost = roll - (after - before)
                    );
                }
                (
                    1,
                    text,
                    json!({"step": "stat", "stat": stat_name(stat), "die": die, "roll": roll, "before": before, "after": after}),
                )
            }
            Step::Pool {
                hp,
                die,
                roll,
                after,
            } => (
                1,
                if die == 0 {
                    tr!(
                        lang,
                        "trace_leveling.bonus",
                        pool = pool_name(lang, hp),
                        roll,
                        after
                    )
                } else {
                    tr!(
                        lang,
                        "trace_leveling.pool",
                        pool = pool_name(lang, hp),
                        die,
                        roll,
                        after
                    )
                },
                json!({"step": if die == 0 { "chance_bonus" } else { "pool" }, "pool": if hp { "hp" } else { "pm" }, "die": die, "roll": roll, "after": after}),
            ),
            Step::Moves {
                before,
                after,
                light,
                dark,
            } => (
                1,
                tr!(
                    lang,
                    "trace_leveling.moves",
                    before = stats_text(&before),
                    after = stats_text(&after),
                    light,
                    dark
                ),
                json!({"step": "moves", "before": stats_json(&before), "after": stats_json(&after), "light_points": light, "dark_points": dark}),
            ),
            Step::Chance {
                threshold,
                karma,
                outcome,
                karma_after,
            } => (
                1,
                tr!(
                    lang,
                    "trace_leveling.chance",
                    threshold,
                    karma,
                    outcome = outcome.name(),
                    after = karma_after
                ),
                json!({"step": "chance", "threshold": threshold, "karma": karma, "outcome": outcome.name(), "bonus": outcome.is_success(), "karma_after": karma_after}),
            ),
            Step::Skill {
                roll,
                carry,
                gain,
                total,
            } => {
                let mut text = tr!(lang, "trace_leveling.skill", roll, gain, total);
                if carry {
                    text += tr!(lang, "trace_leveling.carry");
                }
                (
                    1,
                    text,
                    json!({"step": "skill_points", "roll": roll, "carry": carry, "gain": gain, "total": total}),
                )
            }
            Step::Dna { die, roll, total } => (
                1,
                tr!(lang, "trace_leveling.dna", die, roll, total),
                json!({"step": "dna_points", "die": die, "roll": roll, "total": total}),
            ),
            Step::Policy {
                dna,
                policy,
                unspent,
                have,
                met,
                wishes,
            } => {
                let name = if dna {
                    m.dna
                        .as_ref()
                        .map(|d| d.policies[policy as usize].0.clone())
                } else {
                    m.skills
                        .as_ref()
                        .map(|s| s.policies[policy as usize].0.clone())
                }
                .unwrap_or_default();
                let key = tr_fill!(
                    if dna {
                        tr!(lang, "trace_leveling.dna_policy")
                    } else {
                        tr!(lang, "trace_leveling.skill_policy")
                    },
                    policy = name,
                    unspent,
                    have,
                    met,
                    wishes
                );
                (
                    1,
                    key,
                    json!({"step": if dna { "dna_policy" } else { "skill_policy" }, "policy": name, "unspent": unspent, if dna { "genes_full" } else { "skills_unlocked" }: have, "wishes_met": met, "wishes": wishes}),
                )
            }
            Step::Build { build, stats } => {
                let name = m.builds[build as usize].0.clone();
                (
                    1,
                    tr!(
                        lang,
                        "trace_leveling.build",
                        build = name,
                        level = m.max_level,
                        stats = stats_text(&stats)
                    ),
                    json!({"step": "build", "build": name, "level": m.max_level, "stats": stats_json(&stats)}),
                )
            }
            Step::End { outcome, level } => {
                let o = OUTCOMES[outcome as usize];
                (
                    0,
                    tr!(lang, "trace_leveling.end", outcome = o, level),
                    json!({"step": "end", "outcome": o, "level": level}),
                )
            }
        })
    })
}
