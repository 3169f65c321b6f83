//! Edits of a scenario's TOML by key path, for commands that vary a value (`tune`): the
//! edited text is validated like any file.

use crate::error::UserError;

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
pub fn set_value(text: &str, key: &str, value: toml::Value) -> Result<String, UserError> {
    let mut root: toml::Table = toml::from_str(text).map_err(|e| {
        UserError::new(crate::tr!(
            "error.edit.not_toml",
            error = super::message::serde_message(e.message())
        ))
    })?;
    let path = key_path(&root, key);
    let mut t = &mut root;
    for seg in &path[..path.len() - 1] {
        let next = t
            .entry(seg.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = next.as_table_mut().ok_or_else(|| {
            UserError::new(crate::tr!("error.edit.not_table", key = key, segment = seg))
        })?;
    }
    t.insert(path[path.len() - 1].clone(), value);
    toml::to_string(&root)
        .map_err(|e| UserError::new(crate::tr!("error.edit.cannot_edit", error = e)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_combatant_name_stands_for_its_table() {
        let text = "system = \"cosmos\"\n[combatants.hero]\nhp = 10\n";
        let out = set_value(text, "hero.hp", toml::Value::Integer(50)).unwrap();
        let t: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(t["combatants"]["hero"]["hp"].as_integer(), Some(50));
        let out = set_value(text, "run.trials", toml::Value::Integer(7)).unwrap();
        let t: toml::Table = toml::from_str(&out).unwrap();
        assert_eq!(t["run"]["trials"].as_integer(), Some(7));
        assert!(set_value(text, "system.x", toml::Value::Integer(1)).is_err());
    }
}
