//! The shipped starter of every kind of scenario file (`cosmosim init scenario`), and
//! what a key error learns from it: where a key belongs and how it is written (audit of
//! 2026-12-07, evening: "1:1: missing field `attacks`" and "expected struct RawStats" said
//! neither). One mechanism for every kind of every system: a kind's starter passes
//! `check`, so it writes each required key, and the example is its own line.

use serde::de::DeserializeOwned;

use crate::lang::Lang;

/// A starter entry: `scenarios/<file>` named once for its path and its embedded text.
macro_rules! starter {
    ($system:literal, $kind:literal, $file:literal) => {
        (
            $system,
            $kind,
            concat!("scenarios/", $file),
            include_str!(concat!("../../scenarios/", $file)),
        )
    };
}

/// One starter per kind of scenario file: (system, kind, the shipped scenario it copies,
/// its text). Each is a commented, shipped file the test suite runs.
pub const STARTERS: &[(&str, &str, &str, &str)] = &[
    starter!("cosmos", "combat", "cosmos/duel.toml"),
    starter!("cosmos", "creation", "cosmos/creation.toml"),
    starter!("cosmos", "leveling", "cosmos/leveling.toml"),
    starter!("cosmos", "mutation", "cosmos/mutation.toml"),
    starter!("cosmos", "expedition", "cosmos/expedition.toml"),
    starter!("cosmos", "campaign", "cosmos/campaign.toml"),
    starter!("fallout", "combat", "fallout/firefight.toml"),
    starter!("fallout", "economy", "fallout/ap-economy.toml"),
    starter!("nephilim", "duel", "nephilim/duel.toml"),
    starter!("trinites", "duel", "trinites/duel.toml"),
    starter!("trinites", "skirmish", "trinites/skirmish.toml"),
];

/// Other shipped files of a kind, read after its starter to learn how a key the starter
/// leaves out is written (an abstract encounter's `knockout`, a support action's `heal`;
/// audit of 2026-12-07, night: `knockout = 1` was not told to quote its dice).
const REFERENCES: &[(&str, &str, &str, &str)] = &[
    starter!("cosmos", "combat", "cosmos/boss-fight.toml"),
    starter!("cosmos", "combat", "cosmos/party-vs-boss.toml"),
    starter!("cosmos", "combat", "cosmos/wounded-ambush.toml"),
    starter!("cosmos", "expedition", "cosmos/party-expedition-quick.toml"),
    starter!("cosmos", "mutation", "cosmos/mutation-events.toml"),
];

/// A step of a serde key path: a key, or a place in an array.
#[derive(Clone, Debug, PartialEq)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// serde_path_to_error's path (`a.b[0].c`, `.` for the top) as steps.
pub fn segments(path: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    if path == "." || path.is_empty() {
        return out;
    }
    for part in path.split('.') {
        let (key, mut rest) = part.split_once('[').map_or((part, ""), |(k, r)| (k, r));
        if !key.is_empty() {
            out.push(Seg::Key(key.to_string()));
        }
        while let Some((i, r)) = rest.split_once(']') {
            if let Ok(i) = i.parse() {
                out.push(Seg::Index(i));
            }
            rest = r.strip_prefix('[').unwrap_or(r);
        }
    }
    out
}

/// A file's word at key `k` (its `system`, its `kind`).
fn word(t: &toml::Table, k: &str) -> Option<String> {
    t.get(k).and_then(|v| v.as_str()).map(str::to_string)
}

/// The starter of the file's own system and kind (its `system` and `kind` keys, compared
/// with the starter's own): its text and its values.
fn starter_of(root: &toml::Table) -> Option<(&'static str, toml::Value)> {
    let system = word(root, "system")?;
    let kind = word(root, "kind");
    // The exact kind, else the system's starter that writes none: its default kind
    // (fallout `kind = "ap-economy"` had no example, audit of 2026-12-07, night).
    let with = |kind: Option<&str>| {
        STARTERS.iter().find_map(|s| {
            let t = toml::from_str::<toml::Table>(s.3).ok()?;
            let same = word(&t, "system").as_deref() == Some(system.as_str())
                && word(&t, "kind").as_deref() == kind;
            same.then_some((s.3, toml::Value::Table(t)))
        })
    };
    with(kind.as_deref()).or_else(|| with(None))
}

/// The first entry of a table of named entries (`[combatants.<name>]`): a table whose
/// values are all tables.
fn first_named(t: &toml::Table) -> Option<&toml::Value> {
    let named = !t.is_empty() && t.values().all(toml::Value::is_table);
    named.then(|| t.values().next()).flatten()
}

/// The starter's value at the user's path, and its path in the starter: a name the
/// starter lacks in a table of named entries is its first entry (the user's
/// `[combatants.bob]` is the starter's `[combatants.aldric]`), a place in an array its
/// first element.
fn follow<'a>(mut v: &'a toml::Value, segs: &[Seg]) -> Option<(&'a toml::Value, Vec<String>)> {
    let mut at = Vec::new();
    for s in segs {
        v = match (v, s) {
            (toml::Value::Table(t), Seg::Key(k)) => match t.get(k) {
                Some(x) => {
                    at.push(k.clone());
                    x
                }
                None => {
                    let (name, x) = t.iter().next().filter(|_| first_named(t).is_some())?;
                    at.push(name.clone());
                    x
                }
            },
            (toml::Value::Array(a), Seg::Index(_)) => {
                at.push("0".to_string());
                a.first()?
            }
            _ => return None,
        };
    }
    Some((v, at))
}

/// The value cut to one entry of each table of named entries and one element of each
/// array of tables: an example, not the whole starter.
fn minimal(v: &toml::Value) -> toml::Value {
    match v {
        toml::Value::Table(t) => {
            let keep = if first_named(t).is_some() { 1 } else { t.len() };
            let t: toml::Table = t
                .iter()
                .take(keep)
                .map(|(k, x)| (k.clone(), minimal(x)))
                .collect();
            toml::Value::Table(t)
        }
        toml::Value::Array(a) if a.first().is_some_and(toml::Value::is_table) => {
            toml::Value::Array(a.iter().take(1).map(minimal).collect())
        }
        other => other.clone(),
    }
}

/// A key as TOML writes it: bare when it can be.
fn key(k: &str) -> String {
    let bare = !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    match bare {
        true => k.to_string(),
        false => toml::Value::String(k.to_string()).to_string(),
    }
}

/// The table header of the user's path (`[combatants.aldric]`, `[[group]]`), none at the
/// top of the file.
fn header(segs: &[Seg]) -> Option<String> {
    let keys: Vec<String> = segs
        .iter()
        .filter_map(|s| match s {
            Seg::Key(k) => Some(key(k)),
            Seg::Index(_) => None,
        })
        .collect();
    if keys.is_empty() {
        return None;
    }
    Some(match segs.last() {
        Some(Seg::Index(_)) => format!("[[{}]]", keys.join(".")),
        _ => format!("[{}]", keys.join(".")),
    })
}

/// Longest table written on its key's line; a longer one, or one holding tables, gets
/// its own header.
const INLINE_MAX: usize = 90;

/// Writes a starter's values in the starter's own order (its keys by their place in its
/// text: `toml::Table` sorts them).
struct Writer {
    text: &'static str,
}

impl Writer {
    /// The entries of the table at `path`, in the starter's order.
    fn entries<'a>(
        &self,
        path: &[String],
        t: &'a toml::Table,
    ) -> Vec<(&'a String, &'a toml::Value)> {
        let mut all: Vec<_> = t.iter().collect();
        all.sort_by_key(|(k, _)| {
            let full: Vec<&str> = path
                .iter()
                .map(String::as_str)
                .chain([k.as_str()])
                .collect();
            super::locate(self.text, &full).unwrap_or(usize::MAX)
        });
        all
    }

    /// `v` on one line, as TOML writes an inline value.
    fn inline(&self, path: &mut Vec<String>, v: &toml::Value) -> String {
        match v {
            toml::Value::Table(t) => {
                let parts = self.lines(path, t);
                match parts.is_empty() {
                    true => "{}".to_string(),
                    false => format!("{{ {} }}", parts.join(", ")),
                }
            }
            toml::Value::Array(a) => {
                let parts: Vec<String> = a
                    .iter()
                    .enumerate()
                    .map(|(i, x)| {
                        path.push(i.to_string());
                        let one = self.inline(path, x);
                        path.pop();
                        one
                    })
                    .collect();
                format!("[{}]", parts.join(", "))
            }
            other => other.to_string(),
        }
    }

    /// The `key = value` lines of the table `t` at `path`.
    fn lines(&self, path: &mut Vec<String>, t: &toml::Table) -> Vec<String> {
        self.entries(path, t)
            .into_iter()
            .map(|(k, x)| {
                path.push(k.clone());
                let one = format!("{} = {}", key(k), self.inline(path, x));
                path.pop();
                one
            })
            .collect()
    }

    /// `field` with the example value `v` (at `at` in the starter), in the user's table at
    /// `segs`, as lines of TOML.
    fn render(
        &self,
        segs: &[Seg],
        at: &mut Vec<String>,
        field: &str,
        v: &toml::Value,
    ) -> Vec<String> {
        at.push(field.to_string());
        let inline = self.inline(at, v);
        // A table or an array of tables at the top of the file gets its header, as the
        // docs write them.
        let top = segs.is_empty();
        let holds_tables = |t: &toml::Table| t.values().any(toml::Value::is_table);
        let mut below: Vec<Seg> = segs.to_vec();
        below.push(Seg::Key(field.to_string()));
        let mut lines: Vec<String> = Vec::new();
        match v {
            toml::Value::Table(t) if top || inline.len() > INLINE_MAX || holds_tables(t) => {
                match first_named(t) {
                    Some(toml::Value::Table(sub)) => {
                        let name = t.keys().next().cloned().unwrap_or_default();
                        below.push(Seg::Key(name.clone()));
                        at.push(name);
                        lines.extend(header(&below));
                        lines.extend(self.lines(at, sub));
                    }
                    _ => {
                        lines.extend(header(&below));
                        lines.extend(self.lines(at, t));
                    }
                }
            }
            toml::Value::Array(a)
                if (top || inline.len() > INLINE_MAX)
                    && a.first().is_some_and(toml::Value::is_table) =>
            {
                if let Some(toml::Value::Table(sub)) = a.first() {
                    below.push(Seg::Index(0));
                    at.push("0".to_string());
                    lines.extend(header(&below));
                    lines.extend(self.lines(at, sub));
                }
            }
            _ => {
                lines.extend(header(segs));
                lines.push(format!("{} = {inline}", key(field)));
            }
        }
        lines
    }
}

/// What the starter of the file's kind writes for `field` of the table at `segs`, as an
/// example to end a message with (`None`: no starter, or it does not write that key).
/// For a missing table (`missing`, and the starter's value a table or an array of
/// tables), only the keys `T` requires are shown, with the command that writes a full
/// file (audit of 2026-12-07, night: a missing `[expedition]` printed the starter's whole
/// table, eight lines of which one was required).
pub fn example<T: DeserializeOwned>(
    text: &str,
    segs: &[Seg],
    field: &str,
    lang: Lang,
    missing: bool,
) -> Option<String> {
    let root: toml::Table = toml::from_str(text).ok()?;
    let (starter_text, starter) = starter_of(&root)?;
    let (table, mut at) = follow(&starter, segs)?;
    let v = table.as_table()?.get(field)?;
    let w = Writer { text: starter_text };
    let is_table = |x: &toml::Value| x.is_table();
    let tables = v.is_table() || v.as_array().and_then(|a| a.first()).is_some_and(is_table);
    let mut shown_v = minimal(v);
    let mut full = None;
    if missing && tables {
        let mut path = at.clone();
        path.push(field.to_string());
        if let Some(r) = Required::<T>::new(&starter) {
            shown_v = r.only(&mut path, &shown_v);
            full = init_command(starter_text);
        }
    }
    let lines = w.render(segs, &mut at, field, &shown_v);
    let shown: Vec<String> = lines.iter().map(|l| format!("    {l}")).collect();
    let intro = match segs.is_empty() {
        true => tr!(lang, "error.hint.example_top"),
        false => tr!(lang, "error.hint.example"),
    };
    let mut out = format!("{intro}\n{}", shown.join("\n"));
    if let Some(command) = full {
        out.push('\n');
        out.push_str(&tr!(lang, "error.hint.full_file", command = command));
    }
    Some(out)
}

/// The command that prints the starter whose text is `text`.
fn init_command(text: &str) -> Option<String> {
    let (system, kind, _, _) = STARTERS.iter().find(|s| s.3 == text)?;
    Some(format!(
        "cosmosim init scenario --system {system} --kind {kind}"
    ))
}

/// Which keys of the starter a kind's shape `T` requires: the starter is read again
/// without the key, and serde says "missing field" (a key with a default, or an
/// `Option`, reads without it).
struct Required<'a, T> {
    starter: &'a toml::Value,
    shape: std::marker::PhantomData<T>,
}

impl<'a, T: DeserializeOwned> Required<'a, T> {
    /// `None` when `T` does not read the starter as it is (nothing to compare with).
    fn new(starter: &'a toml::Value) -> Option<Self> {
        T::deserialize(starter.clone()).ok()?;
        Some(Required {
            starter,
            shape: std::marker::PhantomData,
        })
    }

    /// Whether the starter without `key` in the table at `path` is refused for it.
    fn requires(&self, path: &[String], key: &str) -> bool {
        let mut root = self.starter.clone();
        let mut at = &mut root;
        for p in path {
            at = match at {
                toml::Value::Table(t) => match t.get_mut(p) {
                    Some(x) => x,
                    None => return false,
                },
                toml::Value::Array(a) => match p.parse::<usize>().ok().and_then(|i| a.get_mut(i)) {
                    Some(x) => x,
                    None => return false,
                },
                _ => return false,
            };
        }
        let Some(t) = at.as_table_mut() else {
            return false;
        };
        t.remove(key);
        T::deserialize(root)
            .err()
            .is_some_and(|e| e.message().trim() == format!("missing field `{key}`"))
    }

    /// Key `k` of the table at `path`, its value `x` cut by [`Self::only`].
    fn only_at(&self, path: &mut Vec<String>, k: &str, x: &toml::Value) -> (String, toml::Value) {
        path.push(k.to_string());
        let one = self.only(path, x);
        path.pop();
        (k.to_string(), one)
    }

    /// `v` (at `path` in the starter) cut to its required keys, in every table it holds;
    /// a table none of whose keys is required keeps its first one, an example of its shape.
    fn only(&self, path: &mut Vec<String>, v: &toml::Value) -> toml::Value {
        match v {
            toml::Value::Table(t) if first_named(t).is_some() => {
                toml::Value::Table(t.iter().map(|(k, x)| self.only_at(path, k, x)).collect())
            }
            toml::Value::Table(t) => {
                let required: Vec<_> = t.iter().filter(|(k, _)| self.requires(path, k)).collect();
                let mut kept: toml::Table = required
                    .into_iter()
                    .map(|(k, x)| self.only_at(path, k, x))
                    .collect();
                if kept.is_empty() {
                    kept.extend(t.iter().take(1).map(|(k, x)| (k.clone(), x.clone())));
                }
                toml::Value::Table(kept)
            }
            toml::Value::Array(a) if a.first().is_some_and(toml::Value::is_table) => {
                path.push("0".to_string());
                let first = a.first().map(|x| self.only(path, x));
                path.pop();
                toml::Value::Array(first.into_iter().collect())
            }
            other => other.clone(),
        }
    }
}

/// The starter's value at `segs` + `field` (or, where the starter lacks the key, a
/// [`REFERENCES`] file's) when it is a dice expression ("2d10+5", "12"): a number
/// written there is that expression's constant, to be quoted.
pub fn is_dice_key(text: &str, segs: &[Seg], field: &str) -> bool {
    let Ok(root) = toml::from_str::<toml::Table>(text) else {
        return false;
    };
    let Some((_, starter)) = starter_of(&root) else {
        return false;
    };
    let (system, kind) = (word(&root, "system"), word(&root, "kind"));
    let references = REFERENCES.iter().filter_map(|r| {
        let same = system.as_deref() == Some(r.0) && kind.as_deref() == Some(r.1);
        same.then(|| {
            toml::from_str::<toml::Table>(r.3)
                .ok()
                .map(toml::Value::Table)
        })
        .flatten()
    });
    std::iter::once(starter).chain(references).any(|doc| {
        follow(&doc, segs)
            .and_then(|(t, _)| {
                t.get(field)
                    .and_then(toml::Value::as_str)
                    .map(str::to_string)
            })
            .is_some_and(|s| crate::dice::DiceExpr::parse(&s).is_ok())
    })
}

/// The words an enumerated key allows, when it was given another type (`mode = 1`: toml
/// says "wanted string or table"): the file is read again with a word no list holds at
/// that key, and serde's "unknown variant" names them. `None` when the key is not a word
/// of a list (a free text), or the file does not get that far. A missing key (`missing`:
/// its name, `segs` its table) is written with that word too (audit of 2026-12-07,
/// night: "missing field `defence_kind`" did not say `parry` or `dodge`).
pub fn enum_words<T: DeserializeOwned>(
    text: &str,
    segs: &[Seg],
    missing: Option<&str>,
) -> Option<String> {
    const PROBE: &str = "?";
    let mut root = toml::Value::Table(toml::from_str::<toml::Table>(text).ok()?);
    let mut at = &mut root;
    for s in segs {
        at = match (at, s) {
            (toml::Value::Table(t), Seg::Key(k)) => t.get_mut(k)?,
            (toml::Value::Array(a), Seg::Index(i)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    let probe = toml::Value::String(PROBE.to_string());
    let mut full: Vec<Seg> = segs.to_vec();
    match missing {
        Some(k) => {
            at.as_table_mut()?.insert(k.to_string(), probe);
            full.push(Seg::Key(k.to_string()));
        }
        None => *at = probe,
    }
    let err = serde_path_to_error::deserialize::<_, T>(root).err()?;
    if segments(&err.path().to_string()) != full {
        return None;
    }
    let msg = err.inner().message().to_string();
    let rest = msg.strip_prefix(&format!("unknown variant `{PROBE}`, expected "))?;
    Some(rest.strip_prefix("one of ").unwrap_or(rest).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serde_paths_become_steps() {
        assert_eq!(segments("."), vec![]);
        assert_eq!(
            segments("group[0].weapons[2]"),
            vec![
                Seg::Key("group".into()),
                Seg::Index(0),
                Seg::Key("weapons".into()),
                Seg::Index(2)
            ]
        );
    }

    #[test]
    fn a_missing_table_is_shown_as_the_starter_writes_it() {
        let text = "system = \"cosmos\"\nkind = \"combat\"\n";
        let e = example::<toml::Table>(text, &[], "attacks", Lang::En, false).unwrap();
        assert_eq!(
            e,
            "for example (at the top of the file, before any [table]):\n    [attacks.sword]\n    stat = \"force\"\n    damage = \"2d10+5\"\n    element = \"metal\""
        );
        let bob = [Seg::Key("combatants".into()), Seg::Key("bob".into())];
        let e = example::<toml::Table>(text, &bob, "stats", Lang::En, false).unwrap();
        assert!(e.ends_with("\n    [combatants.bob]\n    stats = { force = 60, esprit = 35, charisme = 40, agilite = 50, precision = 45, chance = 50 }"), "{e}");
        assert!(is_dice_key(
            text,
            &[Seg::Key("attacks".into()), Seg::Key("axe".into())],
            "damage"
        ));
        assert!(!is_dice_key(
            text,
            &[Seg::Key("attacks".into()), Seg::Key("axe".into())],
            "element"
        ));
    }

    #[test]
    fn keys_the_starter_leaves_out_are_read_in_the_other_shipped_files() {
        let text = "system = \"cosmos\"\nkind = \"expedition\"\n";
        let encounter = [Seg::Key("expedition".into()), Seg::Key("encounter".into())];
        for key in ["knockout", "light_points", "extra_physical_actions"] {
            assert!(is_dice_key(text, &encounter, key), "{key}");
        }
        assert!(!is_dice_key(text, &encounter, "combat"));
        // Each reference is the kind it is listed under.
        for r in REFERENCES {
            let t: toml::Table = toml::from_str(r.3).unwrap();
            assert_eq!(
                t.get("system").and_then(|v| v.as_str()),
                Some(r.0),
                "{}",
                r.2
            );
            assert_eq!(t.get("kind").and_then(|v| v.as_str()), Some(r.1), "{}", r.2);
        }
    }
}
