//! Edits of a scenario's TOML by key path, for commands that vary a value (`tune`): the
//! edited text is validated like any file.

use crate::error::UserError;
use crate::lang::Lang;

/// The key path in the file. A first segment that is not a top-level key but names the
/// entry of exactly one top-level table (a combatant `aldric` of `[combatants]`, a
/// fighter, a group) means that entry: `aldric.hp` is `combatants.aldric.hp`. A name
/// several tables hold stays as typed, and is refused as an unknown key.
pub fn key_path(root: &toml::Table, key: &str) -> Vec<String> {
    let parts: Vec<String> = key.split('.').map(str::to_string).collect();
    if root.contains_key(&parts[0]) {
        return parts;
    }
    let owners: Vec<&String> = root
        .iter()
        .filter(|(_, v)| v.as_table().is_some_and(|t| t.contains_key(&parts[0])))
        .map(|(k, _)| k)
        .collect();
    match owners[..] {
        [owner] => std::iter::once(owner.clone()).chain(parts).collect(),
        _ => parts,
    }
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
    for (depth, seg) in path[..path.len() - 1].iter().enumerate() {
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
        t = next
            .as_table_mut()
            .ok_or_else(|| UserError::new(tr!(lang, "error.edit.not_table", key, segment = seg)))?;
    }
    t.insert(path[path.len() - 1].clone(), value);
    Ok(())
}

/// ` (did you mean `x`?)` for the known name closest to a typed one, or nothing.
fn closest(typed: &str, known: &[&str], lang: Lang) -> String {
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
    for (i, seg) in path.iter().enumerate() {
        let (_, v) = table
            .iter()
            .find(|(k, _)| k.get_ref().as_ref() == seg.as_str())?;
        if i + 1 == path.len() {
            span = Some(v.span());
        } else {
            table = match v.get_ref() {
                DeValue::Table(t) => t,
                _ => return None,
            };
        }
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
