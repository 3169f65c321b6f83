//! The support-action part of `summary.md` (written only when a scenario defines
//! `[support.*]` tables, so other scenarios keep their files byte for byte).

use crate::lang::Lang;

use super::acc::CombatAcc;
use super::sim::CombatSim;

/// The key figure line: healing and effects per combat of every combatant with support
/// actions.
pub fn answer(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let n = acc.combats.max(1) as f64;
    let parts: Vec<String> = sim
        .model
        .fighters
        .iter()
        .zip(&acc.fighters)
        .filter(|(f, _)| !f.support.is_empty())
        .map(|(f, a)| {
            let c = &a.support;
            tr!(
                lang,
                "combat.support.answer_part",
                name = crate::report::md_text(&f.name),
                used = lang.num(c.used as f64 / n, 2),
                healed = lang.num(c.healed as f64 / n, 1),
                effects = lang.num(c.effects as f64 / n, 2),
                focused = lang.num(c.focused as f64 / n, 2)
            )
        })
        .collect();
    tr!(
        lang,
        "combat.support.answer",
        parts = parts.join(tr!(lang, "combat.report.list_sep"))
    )
}

/// The `## Support actions` table.
pub fn section(sim: &CombatSim, acc: &CombatAcc, lang: Lang) -> String {
    let n = acc.combats.max(1) as f64;
    let mut s = String::from(tr!(lang, "combat.support.section"));
    for (f, a) in sim.model.fighters.iter().zip(&acc.fighters) {
        if f.support.is_empty() {
            continue;
        }
        let c = &a.support;
        s += &format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            crate::report::md_text(&f.name),
            lang.num(c.used as f64 / n, 3),
            lang.num(c.failed as f64 / n, 3),
            lang.num(c.heals as f64 / n, 3),
            lang.num(c.healed as f64 / n, 2),
            if c.heals == 0 {
                "–".to_string()
            } else {
                lang.num(c.healed as f64 / c.heals as f64, 2)
            },
            lang.num(c.effects as f64 / n, 3),
            lang.num(c.focused as f64 / n, 3),
        );
    }
    s
}
