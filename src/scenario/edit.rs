//! Edits of a scenario's TOML by key path, for commands that vary a value (`tune`): the
//! edited text is validated like any file.

use crate::error::UserError;
use crate::lang::Lang;

/// The key path in the file: a first segment that is not a top-level key but names an
/// entry of a top-level table (a combatant, a traveller...) is looked up inside it, so
/// `hero.hp` means `combatants.hero.hp`.
pub fn key_path(root: &toml::Table, key: &str) -> Vec<String> {
    let parts: Vec<String> = key.split('.').map(str::to_string).collect();
    if root.contains_key(&parts[0]) {
        return parts;
    }
    for (name, v) in root {
        if let toml::Value::Table(t) = v {
            if t.contains_key(&parts[0]) {
                return std::iter::once(name.clone()).chain(parts).collect();
            }
        }
    }
    parts
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
    insert_at(&mut root, &path, value, |seg| {
        UserError::new(tr!(lang, "error.edit.not_table", key, segment = seg))
    })?;
    toml::to_string(&root)
        .map_err(|e| UserError::new(tr!(lang, "error.edit.cannot_edit", error = e)))
}

/// `value` written at `path` in `root`, the tables on the way created; `not_table` is the
/// error (in the caller's words) for a segment on the way that holds a value.
pub fn insert_at(
    root: &mut toml::Table,
    path: &[String],
    value: toml::Value,
    not_table: impl Fn(&str) -> UserError,
) -> Result<(), UserError> {
    let mut t = root;
    for seg in &path[..path.len() - 1] {
        let next = t
            .entry(seg.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = next.as_table_mut().ok_or_else(|| not_table(seg))?;
    }
    t.insert(path[path.len() - 1].clone(), value);
    Ok(())
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
}
