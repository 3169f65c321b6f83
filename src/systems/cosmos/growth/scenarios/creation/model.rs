//! Validation of a `[creation]` table into a [`CreationPolicy`] (C-CREATE-1..3).

use crate::error::UserError;
use crate::report::param_text;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::growth::aura::Edition;
use crate::systems::cosmos::growth::creation::{Conversion, CreationPolicy, MovePolicy};
use crate::systems::cosmos::growth::races::{Races, Sheet, MAX_SHEETS};
use crate::systems::cosmos::growth::stats::{Stat, StatBounds, STAT_CAP_HIGH, STAT_MIN};

use super::super::common::{bad, in_range, unique_name};
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
            in_range(file, &["creation", "conversion", name], v, lo, hi, why)
        };
        let level = int("level", c.level, 1, MAX_CONVERSION_LEVEL, "")? as u32;
        // The bound after conversion (C-CREATE-3, C-LEVEL-1: 20..80, or 85 from level 3)
        // takes the parameters in force: checked by `moves_within` (check and run), here
        // within the widest the parameters allow.
        let mut kept = [0i32; 4];
        for (i, (name, v)) in KEPT.into_iter().zip(kept_of(c)).enumerate() {
            kept[i] = int(name, v, 1, 100, "")? as i32;
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
    // The book's ceilings (C-CREATE-2: 10, C-CREATE-3: 20) are the parameters
    // `creation_move_points` and `conversion_move_points`: checked against the values in
    // force by `moves_within` (check and run), here against their registry's largest.
    p.move_given = raw.move_points;
    moves_up_to(file, &mut p, MOVE_LIMIT, "")?;
    if p.move_given.is_none() {
        // The book's default until `moves_within` applies the values in force.
        move_ceiling(file, &mut p, &crate::rules::RuleOptions::default())?;
    }
    Ok(p)
}

/// The largest `creation_move_points` and `conversion_move_points` (their registry
/// range): the file's own bound.
const MOVE_LIMIT: i64 = 100;

/// The four stats a conversion keeps (C-CREATE-3), in rulebook order.
const KEPT: [&str; 4] = ["force", "esprit", "charisme", "agilite"];

fn kept_of(c: &super::raw::RawConversion) -> [i64; 4] {
    [c.force, c.esprit, c.charisme, c.agilite]
}

/// The creation numbers checked against the values in force (`options`: the file's
/// `[rules]` in `check`, with `--option` in `run`, one validation): the stat bounds of a
/// conversion's kept stats ([`kept_within`]), the move points ([`move_ceiling`]) and the
/// edition ([`edition_within`]).
pub fn moves_within(
    file: &ScenarioFile,
    p: &mut CreationPolicy,
    options: &crate::rules::RuleOptions,
) -> Result<(), UserError> {
    p.bounds = StatBounds::from_options(options);
    kept_within(file, p)?;
    edition_within(file, p, options)?;
    move_ceiling(file, p, options)
}

/// C-EDITION: the previous book has no skill points nor DNA points, so its creation rolls
/// none, and a converted character that keeps some is refused at its key rather than
/// carried as a number of neither book (audit of 2026-12-07).
fn edition_within(
    file: &ScenarioFile,
    p: &mut CreationPolicy,
    options: &crate::rules::RuleOptions,
) -> Result<(), UserError> {
    p.edition = crate::systems::cosmos::growth::skill_sheet::edition(options);
    let Some(c) = p.conversion.filter(|_| p.edition == Edition::Previous) else {
        return Ok(());
    };
    for (name, v, what) in [
        (
            "skill_points",
            c.skill_points,
            tr!(file.lang, "growth.sheet.no_skill_points"),
        ),
        (
            "dna_points",
            c.dna,
            tr!(file.lang, "growth.sheet.no_dna_points"),
        ),
    ] {
        if v != 0 {
            return Err(bad(
                file,
                &["creation", "conversion", name],
                tr!(file.lang, "growth.sheet.conversion_points", value = v, what),
                tr!(file.lang, "growth.sheet.conversion_points_allowed"),
            ));
        }
    }
    Ok(())
}

/// C-CREATE-2 "jusqu'à 10 points", C-CREATE-3 "jusqu'à 20 points": the move points under
/// the parameter `creation_move_points` (or `conversion_move_points`) in force: a value
/// written above it is refused, an unwritten one with a move policy is the maximum.
fn move_ceiling(
    file: &ScenarioFile,
    p: &mut CreationPolicy,
    options: &crate::rules::RuleOptions,
) -> Result<(), UserError> {
    let (key, book) = if p.conversion.is_some() {
        ("conversion_move_points", 20)
    } else {
        ("creation_move_points", 10)
    };
    let max_points = options.integer(key);
    let key = if max_points == book { "" } else { key };
    moves_up_to(file, p, max_points, key)
}

/// C-CREATE-3 "les limites de 20 et de 80 (ou 85 en fonction de son niveau)" (l. 205): a
/// conversion's four kept stats within the stat bounds in force at its level
/// (`stat_cap_low`/`stat_cap_high`, widened by `create_die_min`/`create_die_max`), the
/// bounds `creation::create_with` moves points within.
fn kept_within(file: &ScenarioFile, p: &CreationPolicy) -> Result<(), UserError> {
    let Some(c) = &p.conversion else {
        return Ok(());
    };
    let b = &p.bounds;
    let (lo, hi) = (b.floor(), b.ceiling(c.level));
    for (name, v) in KEPT.into_iter().zip(c.stats) {
        if !(lo..=hi).contains(&v) {
            let why = if b.book_at(c.level) {
                tr!(file.lang, "growth.creation.conversion_why", level = c.level)
            } else {
                tr!(
                    file.lang,
                    "growth.creation.conversion_why_params",
                    level = c.level
                )
            };
            return Err(bad(
                file,
                &["creation", "conversion", name],
                tr!(file.lang, "growth.valid.out_of_range", value = v),
                &format!("{lo}..{hi}{why}"),
            ));
        }
    }
    Ok(())
}

/// The move points within 0..=`max_points` (`key`: the parameter named in the error, ""
/// for the book's ceiling and its usual message).
fn moves_up_to(
    file: &ScenarioFile,
    p: &mut CreationPolicy,
    max_points: i64,
    key: &str,
) -> Result<(), UserError> {
    let points = p
        .move_given
        .unwrap_or(if p.move_policy == MovePolicy::None {
            0
        } else {
            max_points
        });
    if !(0..=max_points).contains(&points) {
        let allowed = if key.is_empty() {
            tr!(
                file.lang,
                "growth.creation.move_points_allowed",
                max = max_points
            )
            .to_string()
        } else {
            format!("0..{max_points} ({key})")
        };
        return Err(bad(
            file,
            &["creation", "move_points"],
            tr!(file.lang, "growth.creation.move_points", points),
            &allowed,
        ));
    }
    p.move_points = points as i32;
    Ok(())
}

/// Validates `[[creation.races]]` into sheets (0..MAX_SHEETS; names unique, 1..32
/// characters; limits by stat name within 20..85, min <= max).
pub fn sheets(file: &ScenarioFile, raw: &RawPolicy) -> Result<Vec<Sheet>, UserError> {
    let list = raw.races.as_deref().unwrap_or(&[]);
    if list.len() > MAX_SHEETS {
        return Err(bad(
            file,
            &["creation", "races"],
            tr!(file.lang, "growth.races.count", count = list.len()),
            &tr!(file.lang, "growth.races.count_allowed", max = MAX_SHEETS),
        ));
    }
    let mut out: Vec<Sheet> = Vec::new();
    for (i, r) in list.iter().enumerate() {
        let is = i.to_string();
        let at = ["creation", "races", is.as_str()];
        let name = unique_name(file, &[&at[..], &["name"]].concat(), &r.name, |x| {
            out.iter().any(|s| s.name == x)
        })?;
        let mut sheet = Sheet {
            name,
            min: [0; 6],
            max: [100; 6],
        };
        for (which, map) in [("min", &r.min), ("max", &r.max)] {
            for (stat, v) in map {
                let path = [&at[..], &[which, stat.as_str()]].concat();
                let Some(st) = Stat::parse(stat) else {
                    return Err(bad(
                        file,
                        &path,
                        tr!(file.lang, "growth.lvalid.not_stat", name = stat),
                        &Stat::names(),
                    ));
                };
                if !(STAT_MIN as i64..=STAT_CAP_HIGH as i64).contains(v) {
                    return Err(bad(
                        file,
                        &path,
                        tr!(file.lang, "growth.valid.out_of_range", value = v),
                        tr!(file.lang, "growth.races.limit_allowed"),
                    ));
                }
                match which {
                    "min" => sheet.min[st as usize] = *v as i32,
                    _ => sheet.max[st as usize] = *v as i32,
                }
            }
        }
        if let Some(st) = (0..6).find(|&k| sheet.min[k] > sheet.max[k]) {
            let stat = Stat::ALL[st].name();
            return Err(bad(
                file,
                &[&at[..], &["min", stat]].concat(),
                tr!(
                    file.lang,
                    "growth.races.min_over_max",
                    min = sheet.min[st],
                    max = sheet.max[st]
                ),
                tr!(file.lang, "growth.races.min_over_max_allowed"),
            ));
        }
        out.push(sheet);
    }
    Ok(out)
}

/// The sheets' text for provenance (empty without sheets).
pub fn races_text(r: &Races) -> String {
    if r.sheets.is_empty() {
        return String::new();
    }
    let s: Vec<String> = r
        .sheets
        .iter()
        .map(|s| format!("{}:{}-{}", s.name, param_text(&s.min), param_text(&s.max)))
        .collect();
    format!(
        " races={} conflict={}",
        s.join(";"),
        param_text(&r.conflict)
    )
}

/// Short text of a policy, for provenance.
pub fn policy_text(p: &CreationPolicy) -> String {
    format!(
        "split={} assign={} priority={} moves={}:{} conversion={}",
        param_text(&p.split),
        param_text(&p.assign),
        p.priority.map(|s| s.name()).join(","),
        param_text(&p.move_policy),
        p.move_points,
        param_text(&p.conversion)
    )
}

pub(super) fn parse(file: &ScenarioFile) -> Result<(Raw, CreationPolicy, Vec<Sheet>), UserError> {
    let raw: Raw = file.parse_raw()?;
    let p = policy(file, &raw.creation)?;
    let s = sheets(file, &raw.creation)?;
    Ok((raw, p, s))
}

/// Validates the file.
pub fn check(file: &ScenarioFile) -> Result<(), UserError> {
    let (raw, mut p, _) = parse(file)?;
    let options = file.rule_options(&raw.rules)?;
    moves_within(file, &mut p, &options)?;
    Ok(())
}
