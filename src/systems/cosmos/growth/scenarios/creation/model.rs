//! Validation of a `[creation]` table into a [`CreationPolicy`] (C-CREATE-1..3).

use crate::error::UserError;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::creation::{Conversion, CreationPolicy, MovePolicy};
use crate::systems::cosmos::growth::stats::cap_at;

use super::super::parse_priority;
use super::raw::{Raw, RawPolicy};
use super::{MAX_CONVERSION_LEVEL, MAX_POINTS, MAX_POOL};

/// Validates a `[creation]` table into a policy.
pub fn policy(file: &ScenarioFile, raw: &RawPolicy) -> Result<CreationPolicy, UserError> {
    let mut p = CreationPolicy::default();
    if let Some(s) = raw.hp_pm_split {
        p.split = s;
    }
    if let Some(a) = raw.stat_assign {
        p.assign = a;
    }
    if let Some(names) = &raw.priority {
        p.priority = parse_priority(file, &["creation", "priority"], names)?;
    }
    if let Some(c) = &raw.conversion {
        let int = |name: &str, v: i64, lo: i64, hi: i64, why: &str| {
            if (lo..=hi).contains(&v) {
                Ok(v)
            } else {
                Err(file.error_at(
                    &["creation", "conversion", name],
                    &format!("creation.conversion.{name}"),
                    &crate::tr!("growth.valid.out_of_range", value = v),
                    &format!("{lo}..{hi}{why}"),
                ))
            }
        };
        let level = int("level", c.level, 1, MAX_CONVERSION_LEVEL, "")? as u32;
        // The bound after conversion: 80, or 85 from level 3 (C-CREATE-3, C-LEVEL-1),
        // the same cap `creation::convert` moves points within.
        let cap = cap_at(level) as i64;
        let mut kept = [0i32; 4];
        for (i, (name, v)) in [
            ("force", c.force),
            ("esprit", c.esprit),
            ("charisme", c.charisme),
            ("agilite", c.agilite),
        ]
        .into_iter()
        .enumerate()
        {
            kept[i] = int(
                name,
                v,
                20,
                cap,
                &crate::tr!("growth.creation.conversion_why", level = level),
            )? as i32;
        }
        p.conversion = Some(Conversion {
            stats: kept,
            hp: int("hp", c.hp, 1, MAX_POOL, "")? as i32,
            pm: int("pm", c.pm, 0, MAX_POOL, "")? as i32,
            skill_points: int("skill_points", c.skill_points, 0, MAX_POINTS, "")? as i32,
            dna: int("dna_points", c.dna_points, 0, MAX_POINTS, "")? as i32,
            level,
        });
    }
    if let Some(m) = raw.move_policy {
        p.move_policy = m;
    }
    let max_points = if p.conversion.is_some() { 20 } else { 10 };
    let points = raw
        .move_points
        .unwrap_or(if p.move_policy == MovePolicy::None {
            0
        } else {
            max_points
        });
    if !(0..=max_points).contains(&points) {
        return Err(file.error_at(
            &["creation", "move_points"],
            "creation.move_points",
            &crate::tr!("growth.creation.move_points", points = points),
            &crate::tr!("growth.creation.move_points_allowed", max = max_points),
        ));
    }
    p.move_points = points as i32;
    Ok(p)
}

/// Short text of a policy, for provenance and task ids.
pub fn policy_text(p: &CreationPolicy) -> String {
    format!(
        "split={:?} assign={:?} priority={} moves={:?}:{} conversion={:?}",
        p.split,
        p.assign,
        p.priority.map(|s| s.name()).join(","),
        p.move_policy,
        p.move_points,
        p.conversion
    )
}

pub(super) fn parse(file: &ScenarioFile) -> Result<(Raw, CreationPolicy), UserError> {
    let raw: Raw = file.parse_raw()?;
    let p = policy(file, &raw.creation)?;
    Ok((raw, p))
}

/// Validates the file.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (raw, _) = parse(file)?;
    file.rule_options(&raw.rules)?;
    Ok(())
}
