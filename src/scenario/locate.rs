use toml::de::{DeTable, DeValue};

/// Byte offset of the value at `path` in a TOML text (array indices given as numbers), or
/// of the deepest existing ancestor; `None` if the text does not parse.
pub fn locate(text: &str, path: &[&str]) -> Option<usize> {
    let root = DeTable::parse(text).ok()?;
    let mut best = 0usize;
    let mut table: Option<&DeTable> = Some(root.get_ref());
    let mut value: Option<&DeValue> = None;
    for seg in path {
        let next = if let Some(t) = table {
            t.iter().find(|(k, _)| k.get_ref().as_ref() == *seg).map(|(_, v)| v)
        } else if let Some(DeValue::Array(a)) = value {
            seg.parse::<usize>().ok().and_then(|i| a.get(i))
        } else {
            None
        };
        let Some(v) = next else { break };
        best = v.span().start;
        value = Some(v.get_ref());
        table = match v.get_ref() {
            DeValue::Table(t) => Some(t),
            _ => None,
        };
    }
    Some(best)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_nested_values_and_array_items() {
        let t = "a = 1\n[b]\nc = [10, 20]\n[[d]]\ne = 5\n[[d]]\ne = 6\n";
        assert_eq!(locate(t, &["a"]), Some(4));
        assert_eq!(&t[locate(t, &["b", "c", "1"]).unwrap()..][..2], "20");
        assert_eq!(&t[locate(t, &["d", "1", "e"]).unwrap()..][..1], "6");
        assert_eq!(locate(t, &["zz"]), Some(0));
    }
}
