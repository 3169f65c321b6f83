//! The messages the TOML reader and serde give about a scenario file, in the designer's
//! language. Their English wording comes from the crates; each known shape is parsed and
//! rebuilt from the catalogue, whose English templates are the crates' own wording, so the
//! English text comes out unchanged, but for the Rust type names (`i64`, `u32`, `f64`...)
//! a designer cannot be expected to read: those become "a whole number" (with its range
//! where the type is narrow) or "a number", and a real number or a quoted number written
//! where a whole one belongs gets its probable meaning (audit of 2026-12-08). Shapes not
//! known here pass through as written.

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
        Some(r) => {
            let r = r
                .lines()
                .map(|l| match l.strip_prefix("expected ") {
                    Some(what) => tr!(
                        lang,
                        "error.toml.expected_line",
                        what = expected_list(what, lang)
                    ),
                    None => l.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n");
            format!("{first}\n{r}")
        }
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
    // The combat keys that take a whole number or a word or a fraction
    // (`systems::cosmos::combat::raw`, `RawTargets`, `RawAmount`): literals too.
    if msg == "a whole number or \"all\"" {
        return Some(tr!(lang, "error.toml.count_or_all").to_string());
    }
    if msg == "a whole number of points, or a fraction of the maximum from 0 to 1" {
        return Some(tr!(lang, "error.toml.points_or_fraction").to_string());
    }
    // An enum key (a policy, a mode...) given a number or an array: toml's own words.
    if msg == "wanted string or table" {
        return Some(tr!(lang, "error.toml.string_or_table").to_string());
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
        return Some(format!("{text}{}", hint(found, expected, lang)));
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
            expected = expected_list(expected, lang)
        ));
    }
    syntax(msg, lang).map(str::to_string)
}

/// The range of values of an integer type serde names (`u8`..`i64`, `usize`, `isize`):
/// `None` for any other type; an unbounded end is `None`.
fn integer_range(expected: &str) -> Option<(Option<i128>, Option<i128>)> {
    let bits = |b: u32| Some(1i128 << b);
    Some(match expected {
        "u8" | "u16" | "u32" => (Some(0), bits(expected[1..].parse().ok()?).map(|m| m - 1)),
        "u64" | "usize" => (Some(0), None),
        "i8" | "i16" | "i32" => {
            let m = 1i128 << (expected[1..].parse::<u32>().ok()? - 1);
            (Some(-m), Some(m - 1))
        }
        "i64" | "isize" => (None, None),
        // `[run] trials` (`ScenarioFile::toml_error` names it so): its u64 allows 0, the
        // run does not (audit of 2026-12-07, evening).
        "trials" => (Some(1), Some(i128::from(crate::limits::MAX_TRIALS))),
        _ => return None,
    })
}

/// Whether `x` is a value of the integer range `r`.
fn in_range(x: i128, r: (Option<i128>, Option<i128>)) -> bool {
    r.0.is_none_or(|lo| x >= lo) && r.1.is_none_or(|hi| x <= hi)
}

/// The probable meaning of what was `found` where a whole number or a number was
/// `expected`, to append to the message (empty if none): `trials = 1e12` or `hp = 40.0`
/// (TOML reads both as reals) is the whole number 1000000000000 or 40; `turns = 10.5` is
/// 10 or 11; `hp = "40"` is 40 without its quotes.
fn hint(found: &str, expected: &str, lang: Lang) -> String {
    let range = integer_range(expected);
    let number = range.is_some() || matches!(expected, "f32" | "f64");
    if let Some(q) = found
        .strip_prefix("string \"")
        .and_then(|r| r.strip_suffix('"'))
        .filter(|_| number)
    {
        let ok = match range {
            Some(r) => q.trim().parse::<i128>().is_ok_and(|x| in_range(x, r)),
            None => q.trim().parse::<f64>().is_ok_and(f64::is_finite),
        };
        return match ok {
            true => tr!(lang, "error.toml.unquote", value = q.trim()),
            false => String::new(),
        };
    }
    let (Some(r), Some(x)) = (range, real(found)) else {
        return String::new();
    };
    if !x.is_finite() || x.abs() >= 1e19 {
        return String::new();
    }
    if x.fract() == 0.0 {
        return match in_range(x as i128, r) {
            true => tr!(lang, "error.toml.write_whole", whole = format!("{x:.0}")),
            false => String::new(),
        };
    }
    let near: Vec<i128> = [x.floor() as i128, x.ceil() as i128]
        .into_iter()
        .filter(|n| in_range(*n, r))
        .collect();
    match near[..] {
        [a, b] => tr!(lang, "error.toml.write_whole_near", a, b),
        [a] => tr!(lang, "error.toml.write_whole_near_one", a),
        _ => String::new(),
    }
}

/// The real number of serde's `floating point `10.5``.
fn real(found: &str) -> Option<f64> {
    found
        .strip_prefix("floating point `")?
        .strip_suffix('`')?
        .parse()
        .ok()
}

/// A known toml syntax message, translated.
fn syntax(msg: &str, lang: Lang) -> Option<&'static str> {
    // Every message toml's parser writes (toml_parser 1.1, toml 1.2), so none reaches a
    // French designer in English (audit of 2026-12-07, evening).
    let text = match msg {
        "string values must be quoted" => tr!(lang, "error.toml.syntax.unquoted_string"),
        "missing value for key" => tr!(lang, "error.toml.syntax.missing_value"),
        "key with no value" => tr!(lang, "error.toml.syntax.missing_value"),
        "invalid unquoted key" => tr!(lang, "error.toml.syntax.invalid_key"),
        "unclosed table" => tr!(lang, "error.toml.syntax.unclosed_table"),
        "unclosed array" => tr!(lang, "error.toml.syntax.unclosed_array"),
        "unclosed inline table" => tr!(lang, "error.toml.syntax.unclosed_inline_table"),
        "invalid basic string" => tr!(lang, "error.toml.syntax.invalid_string"),
        "missing assignment between key-value pairs" => {
            tr!(lang, "error.toml.syntax.missing_assignment")
        }
        "missing comma between array elements" => tr!(lang, "error.toml.syntax.missing_comma"),
        "extra comma in array" => tr!(lang, "error.toml.syntax.extra_comma"),
        "unexpected content" => tr!(lang, "error.toml.syntax.unexpected_content"),
        "invalid value" => tr!(lang, "error.toml.syntax.invalid_value"),
        "duplicate key" => tr!(lang, "error.toml.syntax.duplicate_key"),
        "`_` may only go between digits" => tr!(lang, "error.toml.syntax.underscore"),
        "cannot recurse further; max recursion depth met" => {
            tr!(lang, "error.toml.syntax.recursion")
        }
        "recursion limit" => tr!(lang, "error.toml.syntax.recursion_limit"),
        "carriage return must be followed by newline" => {
            tr!(lang, "error.toml.syntax.carriage_return")
        }
        "datetime key not found" => tr!(lang, "error.toml.syntax.datetime_key"),
        "expected empty array" => tr!(lang, "error.toml.syntax.empty_array"),
        "expected empty table" => tr!(lang, "error.toml.syntax.empty_table"),
        "extra `=`" => tr!(lang, "error.toml.syntax.extra_equals"),
        "extra assignment between key-value pairs" => {
            tr!(lang, "error.toml.syntax.extra_assignment")
        }
        "extra comma in inline table" => tr!(lang, "error.toml.syntax.extra_comma_inline"),
        "floating-point number overflowed" => tr!(lang, "error.toml.syntax.float_overflow"),
        "integer number overflowed" => tr!(lang, "error.toml.syntax.integer_overflow"),
        "integers with a radix cannot be signed" => tr!(lang, "error.toml.syntax.radix_signed"),
        "invalid comment character" => tr!(lang, "error.toml.syntax.comment_char"),
        "invalid inline table element" => tr!(lang, "error.toml.syntax.inline_element"),
        "invalid key-value pair" => tr!(lang, "error.toml.syntax.invalid_pair"),
        "keys cannot be multi-line basic strings" => {
            tr!(lang, "error.toml.syntax.key_multiline_basic")
        }
        "keys cannot be multi-line literal strings" => {
            tr!(lang, "error.toml.syntax.key_multiline_literal")
        }
        "missing array opening" => tr!(lang, "error.toml.syntax.array_opening"),
        "missing comma between key-value pairs" => {
            tr!(lang, "error.toml.syntax.missing_comma_pairs")
        }
        "missing comment start" => tr!(lang, "error.toml.syntax.comment_start"),
        "missing escaped value" => tr!(lang, "error.toml.syntax.escaped_value"),
        "missing inline table opening" => tr!(lang, "error.toml.syntax.inline_opening"),
        "missing key for inline table element" => tr!(lang, "error.toml.syntax.inline_key"),
        "missing opening quote" => tr!(lang, "error.toml.syntax.opening_quote"),
        "missing table open" => tr!(lang, "error.toml.syntax.table_open"),
        "missing value" => tr!(lang, "error.toml.syntax.missing_value_alone"),
        "radix must be lowercase" => tr!(lang, "error.toml.syntax.radix_lowercase"),
        "redundant integer number prefix" => tr!(lang, "error.toml.syntax.redundant_prefix"),
        "redundant numeric sign" => tr!(lang, "error.toml.syntax.redundant_sign"),
        "too few unicode value digits" => tr!(lang, "error.toml.syntax.unicode_digits"),
        "unclosed array table" => tr!(lang, "error.toml.syntax.unclosed_array_table"),
        "unexpected `=` in array" => tr!(lang, "error.toml.syntax.equals_in_array"),
        "unexpected content between comment and newline" => {
            tr!(lang, "error.toml.syntax.after_comment")
        }
        "unexpected key or value" => tr!(lang, "error.toml.syntax.unexpected_key_or_value"),
        "unexpected leading zero" => tr!(lang, "error.toml.syntax.leading_zero"),
        "unexpected sign" => tr!(lang, "error.toml.syntax.unexpected_sign"),
        "unquoted keys cannot be empty" => tr!(lang, "error.toml.syntax.empty_key"),
        "value is missing a span" => tr!(lang, "error.toml.syntax.no_span"),
        _ => return None,
    };
    Some(text)
}

/// What toml's parser expected (`, expected `=`, basic string`): literals as written,
/// its words in the language.
fn expected_list(list: &str, lang: Lang) -> String {
    list.split(", ")
        .map(|item| match item {
            "basic string" => tr!(lang, "error.toml.expected_word.basic_string"),
            "literal string" => tr!(lang, "error.toml.expected_word.literal_string"),
            "multi-line basic string" => tr!(lang, "error.toml.expected_word.multiline_basic"),
            "characters" => tr!(lang, "error.toml.expected_word.characters"),
            "digits" => tr!(lang, "error.toml.expected_word.digits"),
            "key" => tr!(lang, "error.toml.expected_word.key"),
            "letters" => tr!(lang, "error.toml.expected_word.letters"),
            "non-double-quote visible characters" => {
                tr!(lang, "error.toml.expected_word.non_double_quote")
            }
            "non-single-quote characters" => tr!(lang, "error.toml.expected_word.non_single_quote"),
            "non-single-quote visible characters" => {
                tr!(lang, "error.toml.expected_word.non_single_quote_visible")
            }
            "numbers" => tr!(lang, "error.toml.expected_word.numbers"),
            "printable characters" => tr!(lang, "error.toml.expected_word.printable"),
            "unicode hexadecimal value" => tr!(lang, "error.toml.expected_word.unicode_hex"),
            "value" => tr!(lang, "error.toml.expected_word.value"),
            "nothing" => tr!(lang, "error.toml.expected_word.nothing"),
            "etc" => tr!(lang, "error.toml.expected_word.etc"),
            _ => item,
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// serde's "`a` or `b`" as the language's "or".
pub(super) fn or_list(list: &str, lang: Lang) -> String {
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
    // serde's words for a whole number past 64 bits: "integer `N` as i128".
    if let Some(value) = found
        .strip_prefix("integer ")
        .and_then(|v| v.strip_suffix(" as i128"))
    {
        return tr!(lang, "error.toml.big_integer", value);
    }
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

/// What serde expected: a Rust type (`u32`, `i64`, `f64`), a phrase or a struct name. An
/// integer type is said in words with its range, never by its Rust name.
fn expected_kind(expected: &str, lang: Lang) -> String {
    if let Some(r) = integer_range(expected) {
        return match r {
            (Some(min), Some(max)) => tr!(lang, "error.toml.expected.whole_range", min, max),
            (Some(min), None) => tr!(lang, "error.toml.expected.whole_from", min),
            _ => tr!(lang, "error.toml.expected.whole").to_string(),
        };
    }
    let template = match expected {
        "f32" | "f64" => tr!(lang, "error.toml.expected.number"),
        "a boolean" => tr!(lang, "error.toml.expected.boolean"),
        "a string" => tr!(lang, "error.toml.expected.string"),
        "a sequence" => tr!(lang, "error.toml.expected.sequence"),
        "a map" => tr!(lang, "error.toml.expected.map"),
        _ => {
            // A Rust type name (`struct RawStats`, `enum RawMode`) says nothing to a
            // designer: the table or the word is said, and the key's example follows
            // (`hints.rs`; audit of 2026-12-07, evening).
            if expected.starts_with("struct ") || expected.starts_with("map ") {
                return tr!(lang, "error.toml.expected.table").to_string();
            }
            if expected.starts_with("enum ") {
                return tr!(lang, "error.toml.expected.word").to_string();
            }
            // serde's lengths (`[u32; 2]`, a tuple; audit of 2026-12-07, night, "French":
            // "attendu : an array of length 2" in a French message).
            if let Some(n) = ["an array of length ", "a tuple of size "]
                .iter()
                .find_map(|p| expected.strip_prefix(p))
            {
                return tr!(lang, "error.toml.expected.array_of", n);
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
        "invalid type: integer `3`, expected a string",
        "invalid type: map, expected a sequence",
        "invalid length 3, expected 2 elements",
        "invalid length 1, expected an array of length 2",
        "string values must be quoted\nexpected `true`, `false`",
        "string values must be quoted, expected literal string",
        "duplicate key",
        "something the catalogue does not know",
        "wanted string or table",
        "cannot recurse further; max recursion depth met",
        "invalid key-value pair, expected `=`, basic string",
        "missing value\nexpected value",
    ];

    // Unit tests run in English (the default; they never set the language): French is
    // tested through the binary (tests/lang_errors.rs).
    #[test]
    fn english_comes_out_unchanged() {
        for s in SAMPLES {
            assert_eq!(serde_message(s, Lang::En), *s);
        }
    }

    /// Audit of 2026-12-07, night: serde's length phrases were left in English in French
    /// messages ("longueur invalide 1, attendu : an array of length 2").
    #[test]
    fn lengths_are_said_in_french() {
        let fr = |m: &str| serde_message(m, Lang::Fr);
        assert_eq!(
            fr("invalid length 1, expected an array of length 2"),
            "longueur invalide 1, attendu : un tableau de 2 valeurs"
        );
        assert_eq!(
            fr("invalid length 3, expected a tuple of size 2"),
            "longueur invalide 3, attendu : un tableau de 2 valeurs"
        );
    }

    /// Audit of 2026-12-07, night: serde's "as i128" for a number past 64 bits named a
    /// Rust type.
    #[test]
    fn a_number_past_64_bits_is_too_large() {
        assert_eq!(
            serde_message(
                "invalid type: integer `99999999999999999999` as i128, expected a string",
                Lang::En
            ),
            "invalid type: integer `99999999999999999999` (too large), expected a string"
        );
    }

    /// Audit of 2026-12-08: "expected i64" for `turns_per_day = 10.5` named a Rust type
    /// a designer does not know. Every integer type is said in words, with its range where
    /// it is narrow, and the probable meaning of what was written follows.
    #[test]
    fn integer_types_are_said_in_words_with_the_probable_meaning() {
        let en = |m: &str| serde_message(m, Lang::En);
        assert_eq!(
            en("invalid type: floating point `10.5`, expected i64"),
            "invalid type: floating point `10.5`, expected a whole number; write a whole number such as 10 or 11"
        );
        assert_eq!(
            en("invalid type: floating point `-0.5`, expected u32"),
            "invalid type: floating point `-0.5`, expected a whole number from 0 to 4294967295; write a whole number such as 0"
        );
        assert_eq!(
            en("invalid type: floating point `2.5`, expected usize"),
            "invalid type: floating point `2.5`, expected a whole number, 0 or more; write a whole number such as 2 or 3"
        );
        assert_eq!(
            en("invalid value: integer `-1`, expected u8"),
            "invalid value: integer `-1`, expected a whole number from 0 to 255"
        );
        assert_eq!(
            en("invalid type: string \"12\", expected i32"),
            "invalid type: string \"12\", expected a whole number from -2147483648 to 2147483647; write the number without quotes: 12"
        );
        assert_eq!(
            en("invalid type: string \"high\", expected u64"),
            "invalid type: string \"high\", expected a whole number, 0 or more"
        );
        assert_eq!(
            en("invalid type: string \"0.5\", expected f64"),
            "invalid type: string \"0.5\", expected a number; write the number without quotes: 0.5"
        );
        // A whole real out of the type's range gets no "write 300": it would be refused too.
        assert_eq!(
            en("invalid type: floating point `300.0`, expected u8"),
            "invalid type: floating point `300.0`, expected a whole number from 0 to 255"
        );
        for t in [
            "u8", "u16", "u32", "u64", "usize", "i8", "i16", "i32", "i64", "isize",
        ] {
            for lang in [Lang::En, Lang::Fr] {
                let m = serde_message(
                    &format!("invalid type: floating point `7.5`, expected {t}"),
                    lang,
                );
                assert!(!m.contains(t), "{m}");
                assert!(m.contains(" 7 ") && m.contains(" 8"), "{m}");
            }
        }
        let fr = serde_message(
            "invalid type: floating point `10.5`, expected i64",
            Lang::Fr,
        );
        assert_eq!(
            fr,
            "type invalide : nombre à virgule `10.5`, attendu : un nombre entier ; écrivez un nombre entier, par exemple 10 ou 11"
        );
    }

    /// Audit of 2026-12-07, evening: "expected struct RawStats" leaked a Rust type name.
    #[test]
    fn no_rust_type_name_is_said() {
        for lang in [Lang::En, Lang::Fr] {
            for m in [
                "invalid type: integer `5`, expected struct RawStats",
                "invalid type: integer `5`, expected enum RawMode",
            ] {
                let said = serde_message(m, lang);
                assert!(!said.contains("Raw"), "{said}");
            }
        }
        assert_eq!(
            serde_message(
                "invalid type: integer `5`, expected struct RawStats",
                Lang::En
            ),
            "invalid type: integer `5`, expected a table"
        );
        assert_eq!(
            serde_message("invalid value: integer `0`, expected trials", Lang::En),
            "invalid value: integer `0`, expected a whole number from 1 to 1000000000000"
        );
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
