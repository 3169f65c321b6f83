//! Text from a file or a flag (a title, a question, a combatant's or an expectation's name)
//! goes into the Markdown pages through [`md_text`], so it always reads as the words typed
//! and never as markup: the `.md` is rendered to HTML, and a name must not be able to open
//! a link, an image, an HTML tag or a table cell there (issue 24).

/// `s` as literal Markdown text, on one line.
///
/// Where it is applied (one layer, so nothing is escaped twice, which would show
/// backslashes in the HTML): the code that puts a name into Markdown escapes it there, and
/// only there. A page's title and question stay plain text (CSV, PNG, provenance) and are
/// escaped by each page writer and by the index. Key figures (`Output::key_figures`,
/// `ScenarioResult::key_figures`) and summary lines are Markdown already: their producers
/// (the systems' report code, tune, optimise) escape the names they hold, and the index and
/// `summary.md` copy them as they are. Numbers, CSV values and column names, and PNG chart
/// text are never escaped (they are not Markdown).
///
/// Every character Markdown or HTML could read as syntax is backslash-escaped (CommonMark
/// turns `\<` back into `<`, which the HTML renderer then writes `&lt;`). Line breaks and
/// tabs become spaces because a heading, a list item or a table cell is one line. Other
/// control characters and the bidi embedding/override/isolate marks become U+FFFD: the
/// first are invisible or break viewers, the second would reorder the rest of the line on
/// screen (a name could make a figure beside it read differently).
pub fn md_text(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    // Only blanks so far / only blanks then digits so far: where block markers act.
    let mut lead = true;
    let mut number = false;
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let word_at = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(|c| c.is_alphanumeric())
        };
        match c {
            '\n' | '\r' | '\t' => out.push(' '),
            c if c.is_control() || is_bidi_control(c) => out.push('\u{FFFD}'),
            // Inside a word `_` can neither open nor close emphasis (CommonMark's
            // flanking rules), so `super_crit_roll` stays readable in the `.md`.
            '_' if word_at(i.checked_sub(1)) && word_at(Some(i + 1)) => out.push(c),
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '!' | '~' | '#' => {
                out.push('\\');
                out.push(c);
            }
            // List markers, setext underlines and ordered-list numbers only act at the
            // start of a block, where a name placed after `# ` or `- ` may well be.
            '-' | '+' | '=' if lead => {
                out.push('\\');
                out.push(c);
            }
            '.' | ')' if number => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
        let blank = matches!(c, ' ' | '\n' | '\r' | '\t');
        number = (lead || number) && c.is_ascii_digit();
        lead = lead && blank;
    }
    out
}

/// `s` as a Markdown code span, on one line: shown in a fixed font, exactly as typed.
///
/// Nothing inside a code span is markup, except a run of backticks as long as the fence:
/// the fence is made one longer than the longest run in `s`. The span brings its own
/// fence, so a template places `{name}`, never `` `{name}` ``. Outside a table only: in a
/// table cell use [`md_code_cell`].
pub fn md_code(s: &str) -> String {
    let clean: String = s
        .chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => ' ',
            c if c.is_control() || is_bidi_control(c) => '\u{FFFD}',
            c => c,
        })
        .collect();
    let mut longest = 0;
    let mut run = 0;
    for c in clean.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest + 1);
    // A space each side keeps a backtick at either end from joining the fence; CommonMark
    // strips one space from each side when both are there.
    let pad = if clean.starts_with('`') || clean.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{clean}{pad}{fence}")
}

/// [`md_code`] for a table cell. A `|` would end the cell even inside a code span (GFM
/// splits cells before reading spans), so it is escaped, which GFM undoes inside the span
/// of a table cell only: elsewhere the backslash would show, hence two functions.
pub fn md_code_cell(s: &str) -> String {
    md_code(s).replace('|', "\\|")
}

/// Explicit bidi embeddings, overrides and isolates (and their terminators): U+202A–U+202E
/// and U+2066–U+2069. The implicit marks (U+200E, U+200F, U+061C) cannot reorder
/// neighbouring text and stay.
pub fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Markdown of `s` rendered to HTML, without the paragraph around it.
    fn rendered(md: &str) -> String {
        let mut html = String::new();
        pulldown_cmark::html::push_html(&mut html, pulldown_cmark::Parser::new(md));
        html.trim()
            .trim_start_matches("<p>")
            .trim_end_matches("</p>")
            .to_string()
    }

    fn html_escape(s: &str) -> String {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('"', "&quot;")
    }

    #[test]
    fn markup_in_a_name_is_shown_as_typed() {
        for s in [
            "<script>alert(1)</script>",
            "<img src=x onerror=alert(1)>",
            "[click](javascript:alert(1))",
            "![x](/etc/passwd)",
            "**bold** _it_ `code` ~~gone~~",
            "a | b | c",
            "&amp; &lt; &#60;",
            "<https://example.org>",
            "back\\slash\\",
            "# not a heading",
            "- not a list",
            "1. not a list",
            "2) not a list",
            "  - indented list",
            " 3. indented list",
            "=== not a rule",
            "Goblin-king's 3.5 blades (x2)",
            "snake_case_name _a_ b_ _c __d__ e__f__g",
        ] {
            // A paragraph drops its leading blanks; nothing else may change.
            assert_eq!(rendered(&md_text(s)), html_escape(s.trim_start()), "{s}");
        }
    }

    #[test]
    fn a_name_stays_on_one_line_and_shows_no_control_or_bidi_character() {
        assert_eq!(md_text("a\nb\r\nc\td"), "a b  c d");
        assert_eq!(
            md_text("x\u{0}y\u{1b}[31mz\u{7f}\u{85}"),
            "x\u{FFFD}y\u{FFFD}\\[31mz\u{FFFD}\u{FFFD}"
        );
        assert_eq!(md_text("ab\u{202E}cd\u{2066}"), "ab\u{FFFD}cd\u{FFFD}");
        // The implicit marks stay: they are how right-to-left words are typed.
        assert_eq!(md_text("a\u{200F}b"), "a\u{200F}b");
    }

    #[test]
    fn a_code_span_shows_its_text_as_typed() {
        for s in [
            "table_file a.csv",
            "<script>x</script>",
            "a`b",
            "``x``",
            "`",
            "a & b",
            // Outside a table a `|` needs nothing, and a backslash before it would show.
            "x | y",
        ] {
            let html = rendered(&md_code(s));
            assert_eq!(html, format!("<code>{}</code>", html_escape(s)), "{s}");
        }
        // In a table cell a `|` stays in the cell.
        let mut html = String::new();
        let md = format!("| a |\n|---|\n| {} |\n", md_code_cell("x | y"));
        pulldown_cmark::html::push_html(
            &mut html,
            pulldown_cmark::Parser::new_ext(&md, pulldown_cmark::Options::ENABLE_TABLES),
        );
        assert!(html.contains("<td><code>x | y</code></td>"), "{html}");
    }

    #[test]
    fn plain_words_are_left_alone() {
        for s in [
            "Duel: Offensive against Defensive",
            "Duel : offensif — ééé 🙂 55 %",
            "rule_options.super_crit_roll",
        ] {
            assert_eq!(md_text(s), s);
        }
    }
}
