//! The support-action part of `summary.md` (written only when a scenario defines
//! `[support.*]` tables, so other scenarios keep their files byte for byte).

use super::acc::CombatAcc;
use super::sim::CombatSim;

/// The key figure line: healing and effects per combat of every combatant with support
/// actions.
pub fn answer(sim: &CombatSim, acc: &CombatAcc) -> String {
    let n = acc.combats.max(1) as f64;
    let parts: Vec<String> = sim
        .model
        .fighters
        .iter()
        .zip(&acc.fighters)
        .filter(|(f, _)| !f.support.is_empty())
        .map(|(f, a)| {
            let c = &a.support;
            format!(
                "{} {:.2} actions/combat ({:.1} HP healed, {:.2} effects placed, {:.2} concentrations)",
                f.name,
                c.used as f64 / n,
                c.healed as f64 / n,
                c.effects as f64 / n,
                c.focused as f64 / n
            )
        })
        .collect();
    format!("support actions: {}", parts.join("; "))
}

/// The `## Support actions` table.
pub fn section(sim: &CombatSim, acc: &CombatAcc) -> String {
    let n = acc.combats.max(1) as f64;
    let mut s = String::from(
        "\n## Support actions\n\nHeal and buff/debuff are house actions (the rulebook names the effect types \"Soin\", \"Renforcement\", \"Entravant\" without numbers); concentrate is the rulebook's (C-FAT-5). HP healed counts what max HP let through.\n\n| combatant | support actions/combat | failed their test | heals/combat | HP healed/combat | HP per heal | effects placed/combat | concentrations/combat |\n|---|---|---|---|---|---|---|---|\n",
    );
    for (f, a) in sim.model.fighters.iter().zip(&acc.fighters) {
        if f.support.is_empty() {
            continue;
        }
        let c = &a.support;
        s += &format!(
            "| {} | {:.3} | {:.3} | {:.3} | {:.2} | {} | {:.3} | {:.3} |\n",
            f.name,
            c.used as f64 / n,
            c.failed as f64 / n,
            c.heals as f64 / n,
            c.healed as f64 / n,
            if c.heals == 0 {
                "–".to_string()
            } else {
                format!("{:.2}", c.healed as f64 / c.heals as f64)
            },
            c.effects as f64 / n,
            c.focused as f64 / n,
        );
    }
    s
}
