//! Aura lines of a combat report (C-AURA): columns of `combat-sides.csv`, an answer line
//! and a per-combatant table in `summary.md`.

use polars::prelude::Column;

use std::collections::BTreeMap;

use super::acc::{AuraCounts, CombatAcc};
use super::headline::rate_text;
use super::model::AuraUse;
use super::sim::CombatSim;
use crate::lang::Lang;
use crate::report::interval_columns;
use crate::rules::RuleOptions;
use crate::stats::Proportion;

/// The aura options a combat with aura in play lists in its provenance:
/// `previous_aura_esprit_bonus` always; `anti_aura_gain` (C-AURA, book l. 264) where it can
/// change the run (a combatant whose race has the aura faces an enemy holding points) or
/// when set off its default, so runs it cannot move keep their bytes.
pub fn options(sim: &CombatSim, o: &RuleOptions) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = o
        .in_force(crate::systems::cosmos::growth::OPTIONS)
        .into_iter()
        .filter(|(k, _)| k == "previous_aura_esprit_bonus")
        .collect();
    let m = &sim.model;
    let matters = m.fighters.iter().zip(&m.small).any(|(v, sv)| {
        sv.has_aura
            && m.fighters.iter().zip(&m.small).any(|(h, sh)| {
                h.side != v.side && sh.aura_points > 0 && sh.aura_use != AuraUse::Never
            })
    });
    let specs = crate::rules::growth::AURA_OPTIONS;
    if matters || specs.iter().any(|s| o.get(s.key) != s.default) {
        out.extend(o.in_force(specs));
    }
    out
}

/// Aura counts of the combatants of each side; the non-side rows (nobody standing,
/// round cap) get zeros.
fn by_side(sim: &CombatSim, acc: &CombatAcc, rows: usize) -> Vec<AuraCounts> {
    let mut v = vec![AuraCounts::default(); rows];
    for (f, fighter) in sim.model.fighters.iter().enumerate() {
        let a = acc.fighters[f].aura;
        let t = &mut v[fighter.side];
        t.uses += a.uses;
        t.cancelled += a.cancelled;
        for (x, y) in t.faces.iter_mut().zip(a.faces) {
            *x += y;
        }
        t.victim_success += a.victim_success;
        t.actions_lost += a.actions_lost;
    }
    v
}

/// `aura_uses,aura_uses_per_combat,aura_cancelled,aura_rolled,aura_victim_success_share,
/// aura_victim_success_share_lo,aura_victim_success_share_hi,aura_actions_lost`: aura
/// points the side spent on enemy tests.
pub fn side_columns(sim: &CombatSim, acc: &CombatAcc, rows: usize) -> Vec<Column> {
    let t = by_side(sim, acc, rows);
    let n = acc.combats.max(1) as f64;
    vec![
        Column::new(
            "aura_uses".into(),
            t.iter().map(|c| c.uses).collect::<Vec<_>>(),
        ),
        Column::new(
            "aura_uses_per_combat".into(),
            t.iter().map(|c| c.uses as f64 / n).collect::<Vec<_>>(),
        ),
        Column::new(
            "aura_cancelled".into(),
            t.iter().map(|c| c.cancelled).collect::<Vec<_>>(),
        ),
        Column::new(
            "aura_rolled".into(),
            t.iter().map(|c| c.rolled()).collect::<Vec<_>>(),
        ),
    ]
    .into_iter()
    .chain(interval_columns("aura_victim_success_share", &t, |c| {
        Proportion::new(c.victim_success, c.rolled())
    }))
    .chain([Column::new(
        "aura_actions_lost".into(),
        t.iter().map(|c| c.actions_lost).collect::<Vec<_>>(),
    )])
    .collect()
}

/// The answer line: uses per combat, cancellations and what the rolled ones did.
pub fn answer(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let a = acc.aura();
    let n = acc.combats.max(1) as f64;
    tr!(
        lang,
        "combat.aura.answer",
        edition = sim.model.edition.name(),
        uses = lang.num(a.uses as f64 / n, 3),
        cancelled = rate_text(a.cancelled, a.uses, lang),
        success = rate_text(a.victim_success, a.rolled(), lang),
        lost = rate_text(a.actions_lost, a.rolled(), lang)
    )
}

/// `## Aura` table: one row per combatant with aura or anti-aura.
pub fn table(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let n = acc.combats.max(1) as f64;
    let mut s = String::from(tr!(lang, "combat.aura.section"));
    for (f, fighter) in sim.model.fighters.iter().enumerate() {
        let r = &sim.model.small[f];
        let a = &acc.fighters[f].aura;
        if r.aura_points == 0 && r.anti_aura == 0 && a.suffered == 0 {
            continue;
        }
        let faces: Vec<String> = a.faces.iter().map(|c| c.to_string()).collect();
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            crate::report::md_text(&fighter.name),
            r.aura_points,
            r.anti_aura,
            lang.num(a.uses as f64 / n, 3),
            rate_text(a.cancelled, a.uses, lang),
            faces.join(" / "),
            rate_text(a.victim_success, a.rolled(), lang),
            rate_text(a.actions_lost, a.rolled(), lang),
            lang.num(a.suffered as f64 / n, 3),
            lang.num(a.anti_spent as f64 / n, 3),
        );
    }
    s
}
