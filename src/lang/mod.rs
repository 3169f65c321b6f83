//! Human-facing text in the designer's language. Every sentence, title, axis label and
//! error message the tool writes comes from one catalogue per language (`en.toml`,
//! `fr.toml`, embedded in the binary), looked up by key with [`tr!`]. CSV column names,
//! file names and figure names are not text: they stay the same in every language because
//! scripts read them.
//!
//! The language is passed, never global: a command chooses it once (`--lang`, else the
//! file's `lang = "fr"`, `commands::language::choose`) and hands it down in its
//! `Session`, the run's `Context` and the `ScenarioFile`, so `tr!(lang, "key")` always
//! names it. Two runs in one process can write in two languages at once (`tests/lang.rs`).
//! Code that runs before any language is chosen (clap's value parsers) returns [`Words`],
//! worded when shown. Numbers in text go through [`Lang::num`], [`Lang::pct`] and friends
//! so French text reads `0,5` (CSVs keep the dot: they never use these).

mod columns;
pub mod help;
mod number;

pub use columns::{untranslated as untranslated_column_words, words as column_words};
pub use number::int;

use std::collections::BTreeMap;
use std::sync::OnceLock;

/// A language the tool writes.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, clap::ValueEnum, serde::Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English.
    En,
    /// Français (les termes des livres de règles).
    Fr,
}

/// Every language, in catalogue order.
pub const ALL: [Lang; 2] = [Lang::En, Lang::Fr];

impl Lang {
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Fr => "fr",
        }
    }

    /// `"en"` / `"fr"`; anything else is `None` (the caller names the allowed values).
    pub fn parse(s: &str) -> Option<Lang> {
        match s {
            "en" => Some(Lang::En),
            "fr" => Some(Lang::Fr),
            _ => None,
        }
    }

    /// Whether a count of `n` takes the singular: English says "1 round" and "0 rounds",
    /// French "0 manche" and "1 manche" (audit of 2026-12-07 afternoon: "1 rounds",
    /// "1 outputs added"). Pick between two catalogue keys with it:
    /// `tr_fill!(if lang.singular(n) { tr!(lang, "k_one") } else { tr!(lang, "k") }, n)`.
    pub fn singular(self, n: u64) -> bool {
        match self {
            Lang::En => n == 1,
            Lang::Fr => n <= 1,
        }
    }

    fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("en.toml"),
            Lang::Fr => include_str!("fr.toml"),
        }
    }

    /// The catalogue: dotted key -> text.
    pub fn catalogue(self) -> &'static BTreeMap<String, String> {
        static EN: OnceLock<BTreeMap<String, String>> = OnceLock::new();
        static FR: OnceLock<BTreeMap<String, String>> = OnceLock::new();
        let cell = match self {
            Lang::En => &EN,
            Lang::Fr => &FR,
        };
        // The catalogues are part of the binary and a unit test parses both, so a broken
        // one cannot ship; should it happen anyway, keys show instead of a panic.
        cell.get_or_init(|| parse_catalogue(self.source()).unwrap_or_default())
    }

    /// A value shown in a message: at most 40 characters, so a pasted blob does not flood
    /// the terminal.
    pub fn clip(self, s: &str) -> String {
        const MAX: usize = 40;
        if s.chars().count() <= MAX {
            s.to_string()
        } else {
            let head: String = s.chars().take(MAX).collect();
            crate::tr!(self, "error.clipped", head, count = s.chars().count())
        }
    }

    /// The text of `key` in this language; a missing key (which the catalogue test
    /// forbids) falls back to English, then to the key itself.
    pub fn text(self, key: &str) -> &'static str {
        if let Some(t) = self.catalogue().get(key) {
            return t.as_str();
        }
        if let Some(t) = Lang::En.catalogue().get(key) {
            return t.as_str();
        }
        // Not reachable for a literal key (tests/lang.rs scans every `tr!`); leak-free:
        // the key is returned as the text through a static copy.
        missing(key)
    }
}

fn missing(key: &str) -> &'static str {
    static MISSING: OnceLock<std::sync::Mutex<BTreeMap<String, &'static str>>> = OnceLock::new();
    let map = MISSING.get_or_init(Default::default);
    let mut map = map.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(s) = map.get(key) {
        return s;
    }
    let s: &'static str = Box::leak(key.to_string().into_boxed_str());
    map.insert(key.to_string(), s);
    s
}

/// Flattens a catalogue's TOML tables into dotted keys.
pub fn parse_catalogue(source: &str) -> Result<BTreeMap<String, String>, String> {
    let table: toml::Table = source.parse().map_err(|e| format!("{e}"))?;
    let mut out = BTreeMap::new();
    flatten("", &table, &mut out)?;
    Ok(out)
}

fn flatten(
    prefix: &str,
    t: &toml::Table,
    out: &mut BTreeMap<String, String>,
) -> Result<(), String> {
    for (k, v) in t {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::String(s) => {
                out.insert(key, s.clone());
            }
            toml::Value::Table(inner) => flatten(&key, inner, out)?,
            _ => return Err(format!("{key}: catalogue values are strings")),
        }
    }
    Ok(())
}

/// `template` with each `{name}` replaced by its value. Unknown names stay as written.
pub fn fill(template: &str, args: &[(&str, &dyn std::fmt::Display)]) -> String {
    let mut out = String::with_capacity(template.len() + 16);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                let name = &after[..close];
                match args.iter().find(|(n, _)| *n == name) {
                    Some((_, v)) => out.push_str(&v.to_string()),
                    None => {
                        out.push('{');
                        out.push_str(name);
                        out.push('}');
                    }
                }
                rest = &after[close + 1..];
            }
            None => {
                out.push_str(&rest[open..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// The names `{name}` a template uses, in order of first use.
pub fn placeholders(template: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        let name = &after[..close];
        if !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !names.iter().any(|n| n == name)
        {
            names.push(name.to_string());
        }
        rest = &after[close + 1..];
    }
    names
}

/// Text from the catalogue. `tr!(lang, "key")` is a `&'static str`; `tr!(lang, "key",
/// name = value, ...)` fills the `{name}` placeholders and is a `String`; a bare `name`
/// stands for `name = name`, as in `format!`. Keys are literals so the catalogue test
/// (`tests/lang.rs`) can check every key used exists in every language.
#[macro_export]
macro_rules! tr {
    ($lang:expr, $key:literal) => {
        $crate::lang::Lang::text($lang, $key)
    };
    ($lang:expr, $key:literal, $($name:ident $(= $value:expr)?),+ $(,)?) => {
        $crate::tr_fill!($crate::lang::Lang::text($lang, $key), $($name $(= $value)?),+)
    };
}

/// `tr!`'s filling of `{name}` placeholders, for a text chosen between keys that take the
/// same values: `tr_fill!(if hit { tr!("a") } else { tr!("b") }, who = w)`, the values
/// written once and each key still a literal `tr!` for the catalogue test.
#[macro_export]
macro_rules! tr_fill {
    ($text:expr, $($name:ident $(= $value:expr)?),+ $(,)?) => {
        $crate::lang::fill(
            $text,
            &[$((
                stringify!($name),
                &$crate::tr_value!($name $(= $value)?) as &dyn ::std::fmt::Display,
            )),+],
        )
    };
}

/// A `tr!` value: the expression given, or the variable of the placeholder's name.
#[doc(hidden)]
#[macro_export]
macro_rules! tr_value {
    ($name:ident) => {
        $name
    };
    ($name:ident = $value:expr) => {
        $value
    };
}

/// A message worded later, in the language of whoever shows it: for code that runs before
/// any command has chosen its language (clap's value parsers). `Display` words it in
/// English; [`Words::text`] in any language. A value written `Clip(v)` is shown at most 40
/// characters ([`Lang::clip`]); a value that is itself [`Words`] is worded in the same
/// language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Words {
    key: &'static str,
    values: Vec<(&'static str, Value)>,
}

/// A value in [`Words`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Text(String),
    /// Shown at most 40 characters ([`Lang::clip`]): a value the user typed.
    Clipped(String),
    Words(Box<Words>),
}

impl Words {
    pub fn new(key: &'static str, values: Vec<(&'static str, Value)>) -> Words {
        Words { key, values }
    }

    /// The message's key in the language files (`syntax.not_dice`): what a caller may
    /// word its own way.
    pub fn key(&self) -> &'static str {
        self.key
    }

    /// A text that reads the same in every language (a TOML error, a name).
    pub fn same(text: String) -> Words {
        Words::new("", vec![("", Value::Text(text))])
    }

    pub fn text(&self, lang: Lang) -> String {
        let shown = |v: &Value| match v {
            Value::Text(t) => t.clone(),
            Value::Clipped(t) => lang.clip(t),
            Value::Words(w) => w.text(lang),
        };
        if let ("", [(_, Value::Text(t))]) = (self.key, self.values.as_slice()) {
            return t.clone();
        }
        let values: Vec<(&str, String)> = self.values.iter().map(|(n, v)| (*n, shown(v))).collect();
        let values: Vec<(&str, &dyn std::fmt::Display)> = values
            .iter()
            .map(|(n, v)| (*n, v as &dyn std::fmt::Display))
            .collect();
        fill(lang.text(self.key), &values)
    }
}

/// A value the user typed, shown at most 40 characters in [`Words`]: `value = Clip(s)`.
pub struct Clip<'a>(pub &'a str);

/// What a `words!` value can be: any displayable value as it reads, or a [`Clip`].
pub trait IntoValue {
    fn into_value(self) -> Value;
}

impl<T: std::fmt::Display> IntoValue for T {
    fn into_value(self) -> Value {
        Value::Text(self.to_string())
    }
}

impl IntoValue for Clip<'_> {
    fn into_value(self) -> Value {
        Value::Clipped(self.0.to_string())
    }
}

impl std::fmt::Display for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text(Lang::En))
    }
}

impl std::error::Error for Words {}

impl From<String> for Words {
    fn from(text: String) -> Words {
        Words::same(text)
    }
}

/// [`Words`] for a literal catalogue key: `words!("cli.bad", value = Clip(v), n = 3,
/// error => inner)` (`Clip(..)` for a value the user typed, `=>` for a value that is
/// itself [`Words`]).
#[macro_export]
macro_rules! words {
    ($key:literal $(, $name:ident $op:tt $value:expr)* $(,)?) => {
        $crate::lang::Words::new(
            $key,
            vec![$((stringify!($name), $crate::words_value!($op $value))),*],
        )
    };
}

#[doc(hidden)]
#[macro_export]
macro_rules! words_value {
    (= $v:expr) => {
        $crate::lang::IntoValue::into_value($v)
    };
    (=> $v:expr) => {
        $crate::lang::Value::Words(Box::new($v))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_catalogues_parse() {
        for l in ALL {
            parse_catalogue(l.source()).unwrap();
        }
    }

    /// `tr!(lang, "key", name)` is `tr!(lang, "key", name = name)`, mixed with `name = value`.
    #[test]
    fn a_bare_name_fills_its_own_placeholder() {
        let (who, rounds) = ("Brune", 3);
        let bare = tr!(Lang::En, "trace.finished", outcome = who, rounds);
        let named = tr!(Lang::En, "trace.finished", outcome = "Brune", rounds = 3);
        assert_eq!(bare, named);
        assert!(bare.contains("Brune") && bare.contains('3'), "{bare}");
    }

    #[test]
    fn fill_replaces_named_values_and_keeps_unknown_ones() {
        assert_eq!(
            fill("{a} et {b} {c}", &[("a", &1), ("b", &"x")]),
            "1 et x {c}"
        );
        assert_eq!(fill("no braces", &[]), "no braces");
        assert_eq!(fill("open { only", &[]), "open { only");
        assert_eq!(placeholders("{a} {b} {a} {}"), vec!["a", "b"]);
    }

    #[test]
    fn the_language_is_the_first_argument() {
        let fr = tr!(Lang::Fr, "nephilim.duel.fighter");
        assert_eq!(fr, Lang::Fr.text("nephilim.duel.fighter"));
        assert_ne!(fr, tr!(Lang::En, "nephilim.duel.fighter"));
        assert_eq!(
            tr!(Lang::Fr, "nephilim.duel.wins", name = "Ka"),
            fill(Lang::Fr.text("nephilim.duel.wins"), &[("name", &"Ka")])
        );
    }

    #[test]
    fn words_are_worded_when_shown_in_the_language_asked() {
        let inner = words!("cli.step_not_positive", step = 0);
        let w = words!("shard.count", error => inner.clone());
        assert_eq!(
            w.text(Lang::Fr),
            fill(
                Lang::Fr.text("shard.count"),
                &[("error", &inner.text(Lang::Fr))]
            )
        );
        assert_ne!(w.text(Lang::Fr), w.text(Lang::En));
        assert_eq!(w.to_string(), w.text(Lang::En));
        let long = "x".repeat(300);
        let clipped = words!("cli.list_not_whole_number", value = Clip(&long));
        assert!(clipped.text(Lang::Fr).contains("300 caractères"));
        assert_eq!(Words::same("a b".into()).text(Lang::Fr), "a b");
        // A whole message given as it reads is never clipped.
        assert_eq!(Words::same(long.clone()).text(Lang::Fr), long);
    }

    #[test]
    fn the_key_shows_when_missing() {
        assert_eq!(Lang::Fr.text("no.such.key"), "no.such.key");
    }
}
