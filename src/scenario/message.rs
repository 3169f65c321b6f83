//! The messages the TOML reader and serde give about a scenario file, in the designer's
//! language. Their English wording comes from the crates; each known shape is parsed and
//! rebuilt from the catalogue, whose English templates are the crates' own wording, so the
//! English text comes out unchanged. Shapes not known here pass through as written.

use crate::lang::Lang;

/// `msg` (a toml or serde message) in the current language.
pub fn serde_message(msg: &str, lang: Lang) -> String {
    // A syntax message may carry more lines (what was expected): translate the first,
    // keep the rest.
    let (first, rest) = match msg.split_once('\n') {
        Some((f, r)) => (f, Some(r)),
        None => (msg, None),
    };
    let first = shape(first, lang).unwrap_or_else(|| first.to_string());
    match rest {
        Some(r) => format!("{first}\n{r}"),
        None => first,
    }
}

/// The translated message if `msg` has a shape the catalogue knows.
fn shape(msg: &str, lang: Lang) -> Option<String> {
    if let Some(rest) = msg.strip_prefix("unknown field `") {
        let (field, tail) = rest.split_once('`')?;
        if let Some(expected) = tail.strip_prefix(", expected one of ") {
            return Some(tr!(
                lang,
                "error.toml.unknown_field_one_of",
                field,
                expected
            ));
        }
        if let Some(expected) = tail.strip_prefix(", expected ") {
            return Some(tr!(
                lang,
                "error.toml.unknown_field_expected",
                field,
                expected = or_list(expected, lang)
            ));
        }
        if tail == ", there are no fields" {
            return Some(tr!(lang, "error.toml.unknown_field_none", field));
        }
        return None;
    }
    if let Some(rest) = msg.strip_prefix("unknown variant `") {
        let (variant, tail) = rest.split_once('`')?;
        if let Some(expected) = tail.strip_prefix(", expected one of ") {
            return Some(tr!(
                lang,
                "error.toml.unknown_variant_one_of",
                variant,
                expected
            ));
        }
        if let Some(expected) = tail.strip_prefix(", expected ") {
            return Some(tr!(
                lang,
                "error.toml.unknown_variant_expected",
                variant,
                expected = or_list(expected, lang)
            ));
        }
        return None;
    }
    // `title` / `question` (`scenario::text::Text`): serde's `expecting` is a literal.
    if msg == "a string, or a table of languages such as { en = \"...\", fr = \"...\" }" {
        return Some(tr!(lang, "error.toml.text_or_languages").to_string());
    }
    if let Some(rest) = msg.strip_prefix("missing field `") {
        let field = rest.strip_suffix('`')?;
        return Some(tr!(lang, "error.toml.missing_field", field));
    }
    if let Some(rest) = msg.strip_prefix("invalid type: ") {
        let (found, expected) = rest.rsplit_once(", expected ")?;
        let text = tr!(
            lang,
            "error.toml.invalid_type",
            found = unexpected(found, lang),
            expected = expected_kind(expected, lang)
        );
        return Some(match whole_float(found, expected) {
            Some(whole) => format!("{text}{}", tr!(lang, "error.toml.write_whole", whole)),
            None => text,
        });
    }
    if let Some(rest) = msg.strip_prefix("invalid value: ") {
        let (found, expected) = rest.rsplit_once(", expected ")?;
        return Some(tr!(
            lang,
            "error.toml.invalid_value",
            found = unexpected(found, lang),
            expected = expected_kind(expected, lang)
        ));
    }
    if let Some(rest) = msg.strip_prefix("invalid length ") {
        let (n, expected) = rest.split_once(", expected ")?;
        return Some(tr!(
            lang,
            "error.toml.invalid_length",
            length = n,
            expected = expected_kind(expected, lang)
        ));
    }
    // toml's syntax messages may end with what it expected: `<message>, expected <what>`.
    if let Some((head, expected)) = msg.split_once(", expected ") {
        let head = syntax(head, lang)?;
        return Some(tr!(
            lang,
            "error.toml.syntax_expected",
            message = head,
            expected
        ));
    }
    syntax(msg, lang).map(str::to_string)
}

/// The whole number a real number written where a whole one was expected stands for
/// (`trials = 1e12`, `hp = 40.0`: TOML reads both as reals), to print as the probable
/// meaning.
fn whole_float(found: &str, expected: &str) -> Option<String> {
    let integer = matches!(
        expected,
        "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize"
    );
    let x: f64 = found
        .strip_prefix("floating point `")?
        .strip_suffix('`')?
        .parse()
        .ok()?;
    (integer && x.is_finite() && x.fract() == 0.0 && x.abs() < 1e19).then(|| format!("{x:.0}"))
}

/// A known toml syntax message, translated.
fn syntax(msg: &str, lang: Lang) -> Option<&'static str> {
    let text = match msg {
        "string values must be quoted" => tr!(lang, "error.toml.syntax.unquoted_string"),
        "missing value for key" | "key with no value" => {
            tr!(lang, "error.toml.syntax.missing_value")
        }
        "invalid unquoted key" => tr!(lang, "error.toml.syntax.invalid_key"),
        "unclosed table" => tr!(lang, "error.toml.syntax.unclosed_table"),
        "unclosed array" => tr!(lang, "error.toml.syntax.unclosed_array"),
        "unclosed inline table" => tr!(lang, "error.toml.syntax.unclosed_inline_table"),
        "invalid basic string" => tr!(lang, "error.toml.syntax.invalid_string"),
        "missing assignment between key-value pairs" => {
            tr!(lang, "error.toml.syntax.missing_assignment")
        }
        "missing comma between array elements" => {
            tr!(lang, "error.toml.syntax.missing_comma")
        }
        "extra comma in array" => tr!(lang, "error.toml.syntax.extra_comma"),
        "unexpected content" => tr!(lang, "error.toml.syntax.unexpected_content"),
        "invalid value" => tr!(lang, "error.toml.syntax.invalid_value"),
        "duplicate key" => tr!(lang, "error.toml.syntax.duplicate_key"),
        _ => return None,
    };
    Some(text)
}

/// serde's "`a` or `b`" as the language's "or".
fn or_list(list: &str, lang: Lang) -> String {
    match list.split_once("` or `") {
        Some((a, b)) => tr!(
            lang,
            "error.toml.or",
            a = format!("{a}`"),
            b = format!("`{b}")
        ),
        None => list.to_string(),
    }
}

/// What serde found: `string "high"`, `integer `3``, `boolean `true``...
fn unexpected(found: &str, lang: Lang) -> String {
    let kinds: [(&str, &str); 6] = [
        ("string", tr!(lang, "error.toml.kind.string")),
        ("integer", tr!(lang, "error.toml.kind.integer")),
        ("floating point", tr!(lang, "error.toml.kind.float")),
        ("boolean", tr!(lang, "error.toml.kind.boolean")),
        ("map", tr!(lang, "error.toml.kind.map")),
        ("sequence", tr!(lang, "error.toml.kind.sequence")),
    ];
    for (word, text) in kinds {
        if found == word {
            return text.to_string();
        }
        if let Some(value) = found.strip_prefix(word).and_then(|r| r.strip_prefix(' ')) {
            return format!("{text} {value}");
        }
    }
    found.to_string()
}

/// What serde expected: a Rust type (`u32`, `i64`, `f64`), a phrase or a struct name.
fn expected_kind(expected: &str, lang: Lang) -> String {
    let template = match expected {
        "u8" | "u16" | "u32" | "u64" | "usize" => tr!(lang, "error.toml.expected.unsigned"),
        "i8" | "i16" | "i32" | "i64" | "isize" => tr!(lang, "error.toml.expected.integer"),
        "f32" | "f64" => tr!(lang, "error.toml.expected.number"),
        "a boolean" => tr!(lang, "error.toml.expected.boolean"),
        "a string" => tr!(lang, "error.toml.expected.string"),
        "a sequence" => tr!(lang, "error.toml.expected.sequence"),
        "a map" => tr!(lang, "error.toml.expected.map"),
        _ => {
            if let Some(name) = expected.strip_prefix("struct ") {
                return tr!(lang, "error.toml.expected.table", name);
            }
            return or_list(expected, lang);
        }
    };
    crate::lang::fill(template, &[("type", &expected)])
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLES: &[&str] = &[
        "unknown field `forse`, expected one of `system`, `run`, `stats`",
        "unknown field `x`, expected `force`",
        "unknown field `x`, expected `a` or `b`",
        "unknown field `x`, there are no fields",
        "unknown variant `both`, expected one of `natural`, `score`",
        "unknown variant `z`, expected `a` or `b`",
        "missing field `force`",
        "invalid type: string \"high\", expected u32",
        "invalid type: integer `3`, expected a string",
        "invalid type: floating point `0.5`, expected i64",
        "invalid type: map, expected a sequence",
        "invalid type: sequence, expected struct Stats",
        "invalid value: integer `-1`, expected u32",
        "invalid length 3, expected 2 elements",
        "string values must be quoted\nexpected `true`, `false`",
        "string values must be quoted, expected literal string",
        "duplicate key",
        "something the catalogue does not know",
    ];

    // Unit tests run in English (the default; they never set the language): French is
    // tested through the binary (tests/lang_errors.rs).
    #[test]
    fn english_comes_out_unchanged() {
        for s in SAMPLES {
            assert_eq!(serde_message(s, Lang::En), *s);
        }
    }

    #[test]
    fn a_whole_real_where_a_whole_number_belongs_says_how_to_write_it() {
        let m = serde_message(
            "invalid type: floating point `1000000000000.0`, expected u64",
            Lang::En,
        );
        assert!(m.ends_with("write a whole number: 1000000000000 (TOML reads `1e12` or `40.0` as a real number)"), "{m}");
        let m = serde_message(
            "invalid type: floating point `40.0`, expected i32",
            Lang::Fr,
        );
        assert!(m.contains("écrivez un nombre entier : 40 "), "{m}");
        let m = serde_message(
            "invalid type: floating point `40.0`, expected a string",
            Lang::En,
        );
        assert!(!m.contains("whole number"), "{m}");
    }
}
