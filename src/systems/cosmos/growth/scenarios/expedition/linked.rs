//! `[expedition.encounter] combat = "file.toml"`: each encounter plays one Great Cosmos
//! combat from a combat scenario file (issue 10 item 9), validated by the combat kind's own
//! `load`, with its travellers mapped to combatants by name.

use crate::lang::Lang;
use std::path::Path;

use crate::error::UserError;
use crate::rules::RuleOptions;
use crate::scenario::ScenarioFile;
use crate::systems::cosmos::combat::{self, CombatModel, CombatRules};

use super::super::common::bad;
use super::members::Member;
use super::raw::RawEncounter;

/// The linked combat of an expedition.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkedCombat {
    /// The path as written (relative to the expedition file's folder).
    pub path: String,
    /// The combat file as read (its path beside the expedition file's, its SHA-256), for
    /// provenance: a run rests on its bytes too.
    pub file: crate::report::ScenarioRef,
    pub model: CombatModel,
    /// The rules the combat is played under: the combat file's own `[rules]`, then what
    /// the expedition run sets (see [`LinkedCombat::under`]).
    pub rules: CombatRules,
    /// The combat file's own `[rules]`, as options.
    pub options: RuleOptions,
    /// Per traveller (party order): the combatant index that is them.
    pub combatant: Vec<usize>,
}

impl LinkedCombat {
    /// The combat's rules under the expedition run's options: what the expedition sets
    /// (its `[rules]`, `--option`, a variant) wins over the combat file's `[rules]`, as a
    /// run's `--option` wins over a file, so one `--option fatigue_point_relief=4` or
    /// `element_cells=...` reaches the abstract and the played fights alike.
    pub fn under(&self, run: &RuleOptions, lang: Lang) -> Result<RuleOptions, UserError> {
        let mut o = self.options.clone();
        for (k, v) in run.explicitly_set() {
            o.set(&k, &v, lang)?;
        }
        o.check_together(lang)?;
        Ok(o)
    }
}

/// Validates `combat` and `party` of the encounter against the travellers (None: no
/// `combat` key).
pub fn linked(
    file: &ScenarioFile,
    r: &RawEncounter,
    members: Option<&[Member]>,
) -> Result<Option<LinkedCombat>, UserError> {
    let at = ["expedition", "encounter"];
    let Some(path) = &r.combat else {
        if r.party.is_some() {
            return Err(bad(
                file,
                &[&at[..], &["party"]].concat(),
                tr!(file.lang, "growth.linked.party_without_combat"),
                tr!(file.lang, "growth.linked.party_without_combat_allowed"),
            ));
        }
        return Ok(None);
    };
    let combat_at = [&at[..], &["combat"]].concat();
    // The abstract keys describe the fight the file now plays: refuse both at once.
    for (k, given) in [
        ("rounds", r.rounds.is_some()),
        ("hp_lost", r.hp_lost.is_some()),
        ("pm_spent", r.pm_spent.is_some()),
        ("psychic_attacks", r.psychic_attacks.is_some()),
        ("extra_physical_actions", r.extra_physical_actions.is_some()),
        ("extra_magical_actions", r.extra_magical_actions.is_some()),
        ("knockout", r.knockout.is_some()),
        ("light_points", r.light_points.is_some()),
        ("dark_points", r.dark_points.is_some()),
        ("light_backlashes", r.light_backlashes.is_some()),
        ("dark_backlashes", r.dark_backlashes.is_some()),
    ] {
        if given {
            return Err(bad(
                file,
                &[&at[..], &[k]].concat(),
                tr!(file.lang, "growth.linked.abstract_key", key = k),
                tr!(file.lang, "growth.linked.abstract_key_allowed"),
            ));
        }
    }
    let Some(members) = members else {
        return Err(bad(
            file,
            &combat_at,
            tr!(file.lang, "growth.linked.single_traveller"),
            tr!(file.lang, "growth.linked.single_traveller_allowed"),
        ));
    };
    let cannot_read = |error: String| {
        bad(
            file,
            &combat_at,
            tr!(
                file.lang,
                "growth.linked.cannot_read",
                path = crate::limits::clip(path, file.lang),
                error
            ),
            tr!(file.lang, "growth.linked.cannot_read_allowed"),
        )
    };
    // The combat file must lie in the expedition file's folder (symlinks resolved): a
    // scenario from elsewhere cannot make the tool read, and echo, any file of the machine.
    let real =
        crate::input::beside(&file.path, path).map_err(|e| cannot_read(e.text(file.lang)))?;
    let mut cfile = ScenarioFile::read(&real, file.lang).map_err(|e| cannot_read(e.0))?;
    // Messages about the combat file name it as the expedition file does.
    cfile.path = file.path.parent().unwrap_or(Path::new(".")).join(path);
    let header = cfile.header()?;
    if header.system != "cosmos" || header.kind.as_deref() != Some("combat") {
        return Err(bad(
            file,
            &combat_at,
            tr!(file.lang, "growth.linked.not_combat", path),
            tr!(file.lang, "growth.linked.not_combat_allowed"),
        ));
    }
    // The combat kind's own validation (its errors name the combat file).
    let (raw, model) = combat::load(&cfile)?;
    let options = cfile.rule_options(&raw.rules)?;
    let rules = CombatRules::from_options(&options);
    let names: Vec<&str> = model.fighters.iter().map(|f| f.name.as_str()).collect();
    let allowed = names.join(", ");
    let party_at = [&at[..], &["party"]].concat();
    if let Some(map) = &r.party {
        for k in map.keys() {
            if !members.iter().any(|m| m.name == *k) {
                return Err(bad(
                    file,
                    &[&party_at[..], &[k.as_str()]].concat(),
                    tr!(file.lang, "growth.linked.no_traveller", name = k),
                    &members
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                ));
            }
        }
    }
    let mut combatant: Vec<usize> = Vec::with_capacity(members.len());
    for m in members {
        let want = r
            .party
            .as_ref()
            .and_then(|p| p.get(&m.name))
            .map(String::as_str)
            .unwrap_or(m.name.as_str());
        let Some(i) = names.iter().position(|n| *n == want) else {
            let key = if r.party.as_ref().is_some_and(|p| p.contains_key(&m.name)) {
                vec!["expedition", "encounter", "party", m.name.as_str()]
            } else {
                combat_at.clone()
            };
            return Err(bad(
                file,
                &key,
                tr!(
                    file.lang,
                    "growth.linked.no_combatant",
                    traveller = m.name,
                    combatant = want,
                    path
                ),
                &tr!(
                    file.lang,
                    "growth.linked.no_combatant_allowed",
                    names = allowed
                ),
            ));
        };
        if combatant.contains(&i) {
            return Err(bad(
                file,
                &party_at,
                tr!(file.lang, "growth.linked.same_combatant", combatant = want),
                tr!(file.lang, "growth.linked.same_combatant_allowed"),
            ));
        }
        combatant.push(i);
    }
    Ok(Some(LinkedCombat {
        path: path.clone(),
        file: cfile.reference(),
        model,
        rules,
        options,
        combatant,
    }))
}

/// The linked combat file an expedition file names (`[expedition.encounter] combat`),
/// beside it, or None: the inputs a shard records and `merge` compares, found without
/// validating the file (validation is the run's).
pub fn linked_path(file: &Path) -> Option<std::path::PathBuf> {
    let text = crate::input::read_file(file, crate::input::MAX_TEXT_BYTES).ok()?;
    let root: toml::Table = toml::from_str(std::str::from_utf8(&text).ok()?).ok()?;
    if root.get("system")?.as_str()? != "cosmos" || root.get("kind")?.as_str()? != "expedition" {
        return None;
    }
    let rel = root
        .get("expedition")?
        .get("encounter")?
        .get("combat")?
        .as_str()?;
    Some(file.parent().unwrap_or(Path::new(".")).join(rel))
}
