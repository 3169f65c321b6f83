//! Edits of a scenario's TOML by key path, for commands that vary a value (`tune`): the
//! edited text is validated like any file.

use crate::error::UserError;
use crate::lang::Lang;

/// The key path in the file. A first segment that is not a top-level key but names the
/// entry of exactly one top-level table (a combatant `aldric` of `[combatants]`, a
/// fighter, a group) means that entry: `aldric.hp` is `combatants.aldric.hp`. An entry of
/// an array of tables (`[[fighter]]`, `[[group]]`, `[[combatant]]`) is named by its
/// `name` or by its place: `Fencer.initiative`, `fighter.Fencer.initiative`,
/// `fighter.0.initiative` and `fighter[0].initiative` are all `fighter.0.initiative`. A
/// name several tables hold stays as typed, and is refused as an unknown key.
pub fn key_path(root: &toml::Table, key: &str) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    for p in key.split('.') {
        match p.split_once('[') {
            Some((name, rest))
                if rest
                    .strip_suffix(']')
                    .is_some_and(|i| i.parse::<usize>().is_ok()) =>
            {
                parts.push(name.to_string());
                parts.push(rest[..rest.len() - 1].to_string());
            }
            _ => parts.push(p.to_string()),
        }
    }
    if !root.contains_key(&parts[0]) {
        let mut owners: Vec<Vec<String>> = Vec::new();
        for (k, v) in root {
            match v {
                toml::Value::Table(t) if t.contains_key(&parts[0]) => owners.push(vec![k.clone()]),
                toml::Value::Array(a) => {
                    if let Some(i) = named(a, &parts[0]) {
                        owners.push(vec![k.clone(), i.to_string()]);
                    }
                }
                _ => {}
            }
        }
        if let [owner] = &owners[..] {
            let skip = usize::from(owner.len() == 2);
            parts = owner
                .iter()
                .cloned()
                .chain(parts.into_iter().skip(skip))
                .collect();
        }
    }
    // A name after an array of tables is its place in the array.
    let mut at: Option<&toml::Value> = None;
    for part in parts.iter_mut() {
        let here = match at {
            None => root.get(part.as_str()),
            Some(toml::Value::Table(t)) => t.get(part.as_str()),
            Some(toml::Value::Array(a)) => {
                if part.parse::<usize>().is_err() {
                    if let Some(k) = named(a, part) {
                        *part = k.to_string();
                    }
                }
                part.parse::<usize>().ok().and_then(|k| a.get(k))
            }
            Some(_) => None,
        };
        let Some(v) = here else { break };
        at = Some(v);
    }
    parts
}

/// The place of the table of array `a` whose `name` is `name`, if exactly one has it.
fn named(a: &[toml::Value], name: &str) -> Option<usize> {
    let mut found = a.iter().enumerate().filter(|(_, v)| {
        v.as_table()
            .and_then(|t| t.get("name"))
            .and_then(toml::Value::as_str)
            == Some(name)
    });
    match (found.next(), found.next()) {
        (Some((i, _)), None) => Some(i),
        _ => None,
    }
}

/// The names (or places) of the tables of array `a`, for a message.
fn entry_names(a: &[toml::Value]) -> Vec<String> {
    a.iter()
        .enumerate()
        .map(|(i, v)| {
            v.as_table()
                .and_then(|t| t.get("name"))
                .and_then(toml::Value::as_str)
                .map_or_else(|| i.to_string(), |n| format!("{n} ({i})"))
        })
        .collect()
}

/// `text` with the value at `key` replaced (tables on the way are created).
pub fn set_value(
    text: &str,
    key: &str,
    value: toml::Value,
    lang: Lang,
) -> Result<String, UserError> {
    let mut root: toml::Table = toml::from_str(text).map_err(|e| {
        UserError::new(tr!(
            lang,
            "error.edit.not_toml",
            error = super::message::serde_message(e.message(), lang)
        ))
    })?;
    let path = key_path(&root, key);
    insert_at(&mut root, &path, value, key, lang)?;
    toml::to_string(&root)
        .map_err(|e| UserError::new(tr!(lang, "error.edit.cannot_edit", error = e)))
}

/// `value` written at `path` in `root` (`key` as the user typed it, for messages), the
/// tables on the way created: a key the file leaves to its default may be set. A new
/// entry in a table of named entries (`combatants.nobody.hp` where `[combatants]` holds
/// only tables) is refused with the names that exist: it would be a half-written
/// combatant whose error ("missing field `side`") hides the typo.
pub fn insert_at(
    root: &mut toml::Table,
    path: &[String],
    value: toml::Value,
    key: &str,
    lang: Lang,
) -> Result<(), UserError> {
    let mut t = root;
    let mut depth = 0;
    while depth + 1 < path.len() {
        let seg = &path[depth];
        let named_entries = !t.is_empty() && t.values().all(toml::Value::is_table);
        if depth > 0 && named_entries && !t.contains_key(seg) {
            let known: Vec<&str> = t.keys().map(String::as_str).collect();
            return Err(UserError::new(tr!(
                lang,
                "error.edit.no_entry",
                key,
                entry = seg,
                table = path[..depth].join("."),
                known = known.join(", "),
                closest = closest(seg, &known, lang)
            )));
        }
        let next = t
            .entry(seg.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        if let toml::Value::Array(a) = next {
            // An entry of an array of tables, by its place (`key_path` turned a name into
            // it), and the key below it.
            let entry = &path[depth + 1];
            let known = entry_names(a);
            let Some(k) = entry.parse::<usize>().ok().filter(|&k| k < a.len()) else {
                let names: Vec<&str> = a
                    .iter()
                    .filter_map(|v| v.as_table()?.get("name")?.as_str())
                    .collect();
                return Err(UserError::new(tr!(
                    lang,
                    "error.edit.no_entry",
                    key,
                    entry,
                    table = path[..=depth].join("."),
                    known = known.join(", "),
                    closest = closest(entry, &names, lang)
                )));
            };
            depth += 2;
            if depth == path.len() {
                return Err(UserError::new(tr!(
                    lang,
                    "error.edit.not_table",
                    key,
                    segment = entry
                )));
            }
            t = a[k].as_table_mut().ok_or_else(|| {
                UserError::new(tr!(lang, "error.edit.not_table", key, segment = entry))
            })?;
            continue;
        }
        t = next
            .as_table_mut()
            .ok_or_else(|| UserError::new(tr!(lang, "error.edit.not_table", key, segment = seg)))?;
        depth += 1;
    }
    t.insert(path[path.len() - 1].clone(), value);
    Ok(())
}

/// ` (did you mean `x`?)` for the known name closest to a typed one, or nothing.
pub(super) fn closest(typed: &str, known: &[&str], lang: Lang) -> String {
    let lower = typed.to_lowercase();
    known
        .iter()
        .map(|k| (strsim::jaro_winkler(&lower, &k.to_lowercase()), *k))
        .filter(|(score, _)| *score >= 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(a.1)))
        .map(|(_, k)| tr!(lang, "error.edit.did_you_mean", name = k))
        .unwrap_or_default()
}

/// `text` with the value written at `key` replaced in place: every other byte (comments,
/// order, layout) stays as it was (`tune --write`, issue 27). None when the file does not
/// write that key (a default), so there is no place to put it.
pub fn set_in_place(text: &str, key: &str, value: &toml::Value) -> Option<String> {
    use toml::de::{DeTable, DeValue};
    let root: toml::Table = toml::from_str(text).ok()?;
    let path = key_path(&root, key);
    let parsed = DeTable::parse(text).ok()?;
    let mut table = parsed.get_ref();
    let mut span = None;
    let mut i = 0;
    while i < path.len() {
        let (_, mut v) = table
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == path[i].as_str())?;
        if let DeValue::Array(a) = v.get_ref() {
            // An entry of an array of tables, by its place.
            i += 1;
            v = a.get(path.get(i)?.parse::<usize>().ok()?)?;
        }
        if i + 1 == path.len() {
            span = Some(v.span());
        } else {
            table = match v.get_ref() {
                DeValue::Table(t) => t,
                _ => return None,
            };
        }
        i += 1;
    }
    let span = span?;
    let shown = match value {
        // A real number keeps a decimal point so it stays a float.
        toml::Value::Float(x) if x.fract() == 0.0 => format!("{x:.1}"),
        v => v.to_string(),
    };
    Some(format!(
        "{}{shown}{}",
        &text[..span.start],
        &text[span.end..]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_place_edits_keep_comments_and_order() {
        let text = "# my troll\nsystem = \"cosmos\"\n[combatants.troll] # big\nhp = 10 # tuned\nstats = { force = 60, agilite = 40 }\n";
        let out = set_in_place(text, "troll.hp", &toml::Value::Integer(184)).unwrap();
        assert_eq!(out, text.replace("hp = 10 #", "hp = 184 #"));
        let out = set_in_place(text, "troll.stats.agilite", &toml::Value::Integer(55)).unwrap();
        assert!(out.contains("{ force = 60, agilite = 55 }"), "{out}");
        let out = set_in_place(text, "troll.hp", &toml::Value::Float(12.0)).unwrap();
        assert!(out.contains("hp = 12.0 # tuned"), "{out}");
        assert_eq!(
            set_in_place(text, "troll.pm", &toml::Value::Integer(1)),
            None
        );
    }

    #[test]
    fn a_combatant_name_stands_for_its_table() {
        let text = "system = \"cosmos\"\n[combatants.hero]\nhp = 10\n";
        let out = set_value(text, "hero.hp", toml::Value::Integer(50), Lang::En).unwrap();
        let t: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(t["combatants"]["hero"]["hp"].as_integer(), Some(50));
        let out = set_value(text, "run.trials", toml::Value::Integer(7), Lang::En).unwrap();
        let t: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(t["run"]["trials"].as_integer(), Some(7));
        assert!(set_value(text, "system.x", toml::Value::Integer(1), Lang::En).is_err());
    }

    /// `[[fighter]]` (Nephilim), `[[combatant]]` (2d20), `[[group]]` (Trinités): an entry
    /// by its name or its place (audit of 2026-12-08: `--vary Fencer.initiative` said
    /// "unknown field `Fencer`").
    #[test]
    fn an_entry_of_an_array_of_tables_by_name_or_place() {
        let text = "system = \"nephilim\"\n[[fighter]]\nname = \"Fencer\"\ninitiative = 3\n[[fighter]]\nname = \"Brawler\"\ninitiative = 1\n";
        let init = |out: &str, k: usize| {
            let t: toml::Table = toml::from_str(out).unwrap();
            t["fighter"][k]["initiative"].as_integer()
        };
        for key in [
            "Fencer.initiative",
            "fighter.Fencer.initiative",
            "fighter.0.initiative",
            "fighter[0].initiative",
        ] {
            let out = set_value(text, key, toml::Value::Integer(6), Lang::En).unwrap();
            assert_eq!((init(&out, 0), init(&out, 1)), (Some(6), Some(1)), "{key}");
            let kept = set_in_place(text, key, &toml::Value::Integer(6)).unwrap();
            assert_eq!(
                kept,
                text.replacen("initiative = 3", "initiative = 6", 1),
                "{key}"
            );
        }
        let out = set_value(
            text,
            "Brawler.initiative",
            toml::Value::Integer(4),
            Lang::En,
        )
        .unwrap();
        assert_eq!((init(&out, 0), init(&out, 1)), (Some(3), Some(4)));
        // A key the entry leaves to its default is set; a place or name not there is
        // refused with the entries.
        let out = set_value(text, "fighter[1].wounds", toml::Value::Integer(2), Lang::En).unwrap();
        assert!(out.contains("wounds = 2"), "{out}");
        let e = set_value(
            text,
            "fighter.2.initiative",
            toml::Value::Integer(1),
            Lang::En,
        )
        .unwrap_err()
        .0;
        assert!(
            e.contains("`2`") && e.contains("Fencer (0), Brawler (1)"),
            "{e}"
        );
        let e = set_value(
            text,
            "fighter.Fencr.initiative",
            toml::Value::Integer(1),
            Lang::En,
        )
        .unwrap_err()
        .0;
        assert!(e.contains("did you mean `Fencer`"), "{e}");
        assert_eq!(
            set_in_place(text, "fighter.1.wounds", &toml::Value::Integer(2)),
            None
        );
    }

    #[test]
    fn a_new_entry_among_named_entries_is_refused_with_the_names() {
        let text = "system = \"cosmos\"\n[combatants.hero]\nhp = 10\n[combatants.troll]\nhp = 40\n";
        let e = set_value(
            text,
            "combatants.heor.hp",
            toml::Value::Integer(5),
            Lang::En,
        )
        .unwrap_err()
        .0;
        assert!(e.contains("`heor`") && e.contains("hero, troll"), "{e}");
        assert!(e.contains("did you mean `hero`"), "{e}");
        let e = set_value(
            text,
            "combatants.nobody.hp",
            toml::Value::Integer(5),
            Lang::Fr,
        )
        .unwrap_err()
        .0;
        assert!(
            e.contains("hero, troll") && !e.contains("did you mean"),
            "{e}"
        );
        // A key the file leaves to its default is still set, its tables created.
        let out = set_value(text, "hero.policy.target", "first".into(), Lang::En).unwrap();
        let t: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(
            t["combatants"]["hero"]["policy"]["target"].as_str(),
            Some("first")
        );
        let out = set_value(text, "rules.fatigue_turn_order", "yes".into(), Lang::En).unwrap();
        assert!(out.contains("fatigue_turn_order"), "{out}");
    }
}
