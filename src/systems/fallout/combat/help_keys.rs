//! The `help` keys of a firefight file (F-HELP): each helper names an ally of its side
//! who attacks. Part of [`super::load`], so `check` and `run` refuse the same files.

use crate::error::UserError;
use crate::scenario::ScenarioFile;

use super::model::Combatant;
use super::raw::RawCombat;

/// Sets `helps` on the combatants (in turn order) from the file's `help` keys.
pub(super) fn resolve(
    file: &ScenarioFile,
    raw: &RawCombat,
    combatants: &mut [Combatant],
) -> Result<(), UserError> {
    let lang = file.lang;
    // F-HELP: `help = "<name>"` names a standing ally on the same side (after `count`,
    // "Name 1", "Name 2"...); a combatant written with `count` helps as each of its copies.
    for (i, c) in raw.combatant.iter().enumerate() {
        let Some(name) = &c.help else { continue };
        let idx = i.to_string();
        let helpers: Vec<usize> = combatants
            .iter()
            .enumerate()
            .filter(|(_, x)| {
                x.name == c.name
                    || x.name
                        .strip_prefix(&format!("{} ", c.name))
                        .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()))
            })
            .map(|(k, _)| k)
            .collect();
        let target = combatants.iter().position(|x| x.name == *name);
        let ok = target.filter(|&t| {
            helpers
                .iter()
                .all(|&h| h != t && combatants[h].side == combatants[t].side)
        });
        let Some(t) = ok else {
            return Err(file.error_at(
                &["combatant", &idx, "help"],
                &format!("combatant[{i}].help"),
                &tr!(lang, "audit25.bad_help", value = name),
                tr!(lang, "audit25.bad_help_allowed"),
            ));
        };
        for h in helpers {
            combatants[h].helps = Some(t);
        }
    }
    // F-HELP (l.56, "Jetez ensuite 1d20 et ajoutez les réussites que vous récoltez à
    // celles que génère votre camarade"): a helper rolls into its ally's tests, and a
    // helper rolls none of its own while that ally stands, so a die given to a helper
    // joins no attack (a chain), and two combatants helping each other never attack (a
    // loop). Both refused (audit of 2026-12-07, afternoon: accepted, the dice lost).
    for (i, c) in raw.combatant.iter().enumerate() {
        let Some(name) = &c.help else { continue };
        let Some(t) = combatants.iter().position(|x| x.name == *name) else {
            continue;
        };
        if let Some(u) = combatants[t].helps {
            let idx = i.to_string();
            return Err(file.error_at(
                &["combatant", &idx, "help"],
                &format!("combatant[{i}].help"),
                &tr!(
                    lang,
                    "audit25.help_of_helper",
                    value = name,
                    ally = combatants[u].name
                ),
                tr!(lang, "audit25.help_of_helper_allowed"),
            ));
        }
    }
    Ok(())
}
