//! The previous edition's skill sheet (C-EDITION, C-LEVEL-3): cosmos-previous.fr.txt
//! "Fiche compétences" (l. 385-404) has one model, the current book's "modèle standard",
//! and no skill points (no "modèle progressif") nor DNA points (no genetics). It grants
//! active skills by level, the Final Skill at 5 and a cap on passive skills, all fixed:
//! the figures are exact. From level 11 "l'évolution dépend des volontés du MJ": nothing
//! is reported there rather than a number of neither book.

use polars::prelude::*;

use crate::lang::Lang;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance};
use crate::rules::RuleOptions;

use super::aura::Edition;

/// The edition in force (`edition` option, C-EDITION).
pub fn edition(o: &RuleOptions) -> Edition {
    if o.get("edition") == "previous" {
        Edition::Previous
    } else {
        Edition::Current
    }
}

/// The last level the sheet fixes (l. 399: "Niveau 11 : à partir de ce niveau,
/// l'évolution dépend des volontés du MJ").
pub const SHEET_LEVELS: u32 = 10;

/// Active skills granted at levels 1..10 (l. 389-398: 3, 2, 3, "1 compétence active à
/// 100 PM", "Le Final Skill", "Aucune", 3, 2, 3, 1 à 100 PM). The Final Skill is counted
/// on its own, not as an active skill.
const ACTIVE: [u32; 10] = [3, 2, 3, 1, 0, 0, 3, 2, 3, 1];
/// The levels whose one active skill is "à 100 PM" (l. 392, 398).
const AT_100_PM: [u32; 2] = [4, 10];
/// The level that grants the Final Skill (l. 393; usable from level 5, l. 116).
const FINAL_SKILL_LEVEL: u32 = 5;

/// The sheet at one level: what it gains there and holds in all.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SheetLevel {
    pub active_gained: u32,
    /// Active skills held, the Final Skill apart.
    pub active: u32,
    /// Of which "à 100 PM".
    pub active_100pm: u32,
    pub final_skill: bool,
    /// Most passive skills the character may have (l. 403-404: 5 at levels 1-6, 8 at
    /// 7-10).
    pub max_passives: u32,
}

/// The sheet at `level` (1..=10); `None` past level 10, where the game master decides.
pub fn at(level: u32) -> Option<SheetLevel> {
    if !(1..=SHEET_LEVELS).contains(&level) {
        return None;
    }
    let upto = &ACTIVE[..level as usize];
    Some(SheetLevel {
        active_gained: ACTIVE[level as usize - 1],
        active: upto.iter().sum(),
        active_100pm: AT_100_PM.iter().filter(|l| **l <= level).count() as u32,
        final_skill: level >= FINAL_SKILL_LEVEL,
        max_passives: if level <= 6 { 5 } else { 8 },
    })
}

/// One line of text for the sheet at `level` (a key figure, a trace line).
pub fn text(lang: Lang, level: u32) -> Option<String> {
    let s = at(level)?;
    Some(tr!(
        lang,
        "growth.sheet.key",
        level,
        active = s.active,
        pm100 = s.active_100pm,
        final_skill = if s.final_skill {
            tr!(lang, "growth.sheet.with_final")
        } else {
            ""
        },
        passives = s.max_passives
    ))
}

/// The `<kind>-skill-sheet` output at levels 1..=min(`max_level`, 10): exact figures, so
/// its provenance says `exact` (no seed, no trials).
pub fn output(lang: Lang, kind: &str, max_level: u32, prov: &Provenance) -> anyhow::Result<Output> {
    let name = format!("{kind}-skill-sheet");
    let rows: Vec<(u32, SheetLevel)> = (1..=max_level.min(SHEET_LEVELS))
        .filter_map(|l| at(l).map(|s| (l, s)))
        .collect();
    let col =
        |f: fn(&SheetLevel) -> u32| -> Vec<i64> { rows.iter().map(|(_, s)| f(s) as i64).collect() };
    let frame = DataFrame::new_infer_height(vec![
        Column::new(
            "level".into(),
            rows.iter().map(|(l, _)| *l as i64).collect::<Vec<_>>(),
        ),
        Column::new("active_skills_gained".into(), col(|s| s.active_gained)),
        Column::new("active_skills".into(), col(|s| s.active)),
        Column::new("active_skills_100pm".into(), col(|s| s.active_100pm)),
        Column::new("final_skill".into(), col(|s| u32::from(s.final_skill))),
        Column::new("max_passive_skills".into(), col(|s| s.max_passives)),
    ])?;
    let series = |label: &str, f: fn(&SheetLevel) -> u32| LineSeries {
        name: label.into(),
        points: rows.iter().map(|(l, s)| (*l as f64, f(s) as f64)).collect(),
        band: vec![],
    };
    let chart = LineChart {
        title: tr!(lang, "growth.sheet.chart_title").into(),
        x_label: tr!(lang, "growth.leveling.x_level").into(),
        y_label: tr!(lang, "growth.sheet.y_skills").into(),
        series: vec![
            series(tr!(lang, "growth.sheet.active"), |s| s.active),
            series(tr!(lang, "growth.sheet.passives"), |s| s.max_passives),
        ],
        ..Default::default()
    };
    let last = rows.last().map_or(1, |r| r.0);
    let mut p = prov.for_output(&name);
    (p.method, p.seed, p.trials, p.batch_size, p.rng) = ("exact".into(), None, None, None, None);
    Ok(Output {
        name,
        title: tr!(lang, "growth.sheet.title").into(),
        question: tr!(lang, "growth.sheet.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: text(lang, last).into_iter().collect(),
        provenance: p,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The book's list read level by level (cosmos-previous.fr.txt l. 389-404).
    #[test]
    fn the_previous_sheet_by_hand() {
        let a = |l| at(l).unwrap();
        assert_eq!(a(1).active, 3);
        assert_eq!(a(3).active, 8);
        assert_eq!((a(4).active, a(4).active_100pm), (9, 1));
        assert!(!a(4).final_skill && a(5).final_skill);
        assert_eq!((a(6).active_gained, a(6).active), (0, 9));
        assert_eq!((a(6).max_passives, a(7).max_passives), (5, 8));
        assert_eq!((a(10).active, a(10).active_100pm), (18, 2));
        assert_eq!(at(11), None);
        assert_eq!(at(0), None);
    }
}
