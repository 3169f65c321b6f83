//! The words a file gives (titles, questions, names, descriptions) end up in terminals,
//! Markdown and HTML pages, CSVs and JUnit XML. A control character there is never what a
//! designer meant: it is invisible, rewrites a terminal (`ESC [`), cannot be written in
//! XML at all, or — for the bidi overrides — makes the rest of a line read backwards. An
//! empty name leaves a row or a heading unnamed. Both are refused when a file is read,
//! before any typed validation, for every kind of file (issue 24).

use crate::lang::Lang;
use crate::report::is_bidi_control;

/// Keys whose text names one thing and is shown on one line: a heading, a table cell, a
/// JUnit test case. `title` may be `{ en = ..., fr = ... }`; its languages count too.
const NAME_KEYS: &[&str] = &["name", "title", "side"];

/// Keys whose text may run over several lines (line breaks and tabs allowed). Every other
/// text is a word the tool matches or quotes in a message, on one line.
const PROSE_KEYS: &[&str] = &["question", "description"];

/// What a text is, by its key.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Name,
    Prose,
    Word,
}

/// A text refused: where it is (key path segments, array indices as numbers), the key as
/// messages show it, and the message. The file turns it into a located error.
#[derive(Debug, PartialEq)]
pub struct Refused {
    pub path: Vec<String>,
    pub shown: String,
    pub message: String,
    pub allowed: String,
}

/// The first text of a file's table that is refused.
pub fn check_texts(root: &toml::Table, lang: Lang) -> Result<(), Refused> {
    let mut path = Vec::new();
    walk_table(root, &mut path, None, lang)
}

fn walk_table(
    t: &toml::Table,
    path: &mut Vec<String>,
    kind: Option<Kind>,
    lang: Lang,
) -> Result<(), Refused> {
    for (k, v) in t {
        if let Some(c) = k.chars().find(|&c| refused(c, true)) {
            let mut full = path.clone();
            full.push(k.escape_debug().to_string());
            let message = tr!(lang, "safety.text.control_in_key", code = code(c));
            return Err(at(path, &full, &message, tr!(lang, "safety.text.allowed")));
        }
        // The languages of a `title = { en = ..., fr = ... }` are the title itself.
        let kind = match kind {
            Some(n) if matches!(k.as_str(), "en" | "fr") => Some(n),
            _ if NAME_KEYS.contains(&k.as_str()) => Some(Kind::Name),
            _ if PROSE_KEYS.contains(&k.as_str()) => Some(Kind::Prose),
            _ => None,
        };
        path.push(k.clone());
        walk_value(v, path, kind, lang)?;
        path.pop();
    }
    Ok(())
}

fn walk_value(
    v: &toml::Value,
    path: &mut Vec<String>,
    kind: Option<Kind>,
    lang: Lang,
) -> Result<(), Refused> {
    match v {
        toml::Value::String(s) => check_text(path, s, kind.unwrap_or(Kind::Word), lang),
        toml::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                path.push(i.to_string());
                walk_value(x, path, kind, lang)?;
                path.pop();
            }
            Ok(())
        }
        toml::Value::Table(t) => walk_table(t, path, kind, lang),
        _ => Ok(()),
    }
}

fn check_text(path: &[String], s: &str, kind: Kind, lang: Lang) -> Result<(), Refused> {
    let prose = kind == Kind::Prose;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        // A Windows line end in a multi-line text is a line break, not a stray CR.
        let crlf = c == '\r' && chars.peek() == Some(&'\n');
        if refused(c, !prose) && !(crlf && prose) {
            let message = if kind == Kind::Name && matches!(c, '\n' | '\r' | '\t') {
                tr!(lang, "safety.text.break_in_name", code = code(c))
            } else {
                tr!(lang, "safety.text.control", code = code(c))
            };
            return Err(at(path, path, &message, tr!(lang, "safety.text.allowed")));
        }
    }
    if kind == Kind::Name && s.trim().is_empty() {
        return Err(at(
            path,
            path,
            tr!(lang, "safety.text.empty_name"),
            tr!(lang, "safety.text.empty_name_allowed"),
        ));
    }
    Ok(())
}

/// A control character (line breaks and tabs allowed when `!one_line`) or a bidi
/// embedding, override or isolate.
fn refused(c: char, one_line: bool) -> bool {
    let layout = matches!(c, '\n' | '\t');
    (c.is_control() && (one_line || !layout)) || is_bidi_control(c)
}

/// `U+001B`: how a message names a character it must not print.
fn code(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// A refusal at `path`, naming the key `shown_path`.
fn at(path: &[String], shown_path: &[String], message: &str, allowed: &str) -> Refused {
    Refused {
        path: path.to_vec(),
        shown: shown_key(shown_path),
        message: message.to_string(),
        allowed: allowed.to_string(),
    }
}

/// `expect[2].name`, `group.1.dodge` -> `group[1].dodge`: a key path as every message
/// shows it, written once for the scenario layer and the systems' validations.
pub fn shown_key<S: AsRef<str>>(path: &[S]) -> String {
    let mut s = String::new();
    for seg in path.iter().map(AsRef::as_ref) {
        if seg.parse::<usize>().is_ok() && !s.is_empty() {
            s += &format!("[{seg}]");
        } else {
            if !s.is_empty() {
                s.push('.');
            }
            s += seg;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The refused key as messages show it, then the message.
    fn refusal(text: &str) -> Option<String> {
        let root: toml::Table = toml::from_str(text).unwrap();
        check_texts(&root, Lang::En)
            .err()
            .map(|r| format!("key `{}`: {}", r.shown, r.message))
    }

    #[test]
    fn control_characters_are_refused_where_they_are() {
        let root: toml::Table = toml::from_str(
            "system = \"x\"\n[[combatant]]\nname = \"ok\"\n[[combatant]]\nname = \"a\\u001b[31mb\"\n",
        )
        .unwrap();
        let r = check_texts(&root, Lang::En).unwrap_err();
        assert_eq!(
            (r.path.join("/"), r.shown.as_str()),
            ("combatant/1/name".into(), "combatant[1].name")
        );
        let e = r.message;
        assert!(e.contains("U+001B"), "{e}");
        assert!(!e.contains('\u{1b}'), "the message must not carry it: {e}");
        for bad in ["\\u0000", "\\u007f", "\\u0085", "\\u202e", "\\u2066"] {
            let text = format!("question = \"a{bad}b\"\n");
            let e = refusal(&text).unwrap_or_else(|| panic!("{bad} accepted"));
            assert!(e.starts_with("key `question`"), "{e}");
        }
        // A word the tool matches is quoted by the message refusing it: one line.
        let e = refusal("[rules]\nmode = \"\\t\"\n").unwrap();
        assert!(e.contains("U+0009") && e.contains("rules.mode"), "{e}");
        let e = refusal("[sides]\n\"a\\u0007\" = 1\n").unwrap();
        assert!(e.contains("U+0007") && e.contains("sides.a\\u{7}"), "{e}");
    }

    #[test]
    fn names_are_one_line_and_not_empty() {
        for (text, what) in [
            ("name = \"\"\n", "empty"),
            ("name = \"   \"\n", "empty"),
            ("side = \"a\\nb\"\n", "line break"),
            ("title = { en = \"a\\tb\", fr = \"x\" }\n", "line break"),
            ("title = { en = \"a\", fr = \"\" }\n", "empty"),
            ("[[expect]]\nname = \"a\\r\\nb\"\n", "line break"),
        ] {
            let e = refusal(text).unwrap_or_else(|| panic!("{text:?} accepted"));
            assert!(e.contains(what), "{text:?}: {e}");
        }
    }

    #[test]
    fn plain_and_multi_line_texts_pass() {
        for text in [
            "title = { en = \"Duel: <b> & 🙂\", fr = \"Duel : ééé\" }\nname = \"x\"\n",
            "question = \"\"\"\nline one\r\nline\ttwo\n\"\"\"\ndescription = \"\"\n",
            "name = \"\\u200f right-to-left mark\"\n",
        ] {
            assert_eq!(refusal(text), None, "{text}");
        }
    }
}
