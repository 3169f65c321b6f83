//! Column names read as words, for the "meaning" column of `cosmosim figures`: English
//! reads a column's own words (`points_spent` -> "points spent"); French reads them from
//! `columns.fr.toml` (audit of 2026-12-07, evening: `figures --lang fr` gave "probabilité :
//! crit success"). Column names themselves never change: scripts and `expect` files use them.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::Lang;

/// Longest phrase of the glossary, in words.
const LONGEST: usize = 3;

fn glossary() -> &'static BTreeMap<String, String> {
    static FR: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    // Embedded and parsed by a unit test, so a broken file cannot ship; should it happen
    // anyway, the English words show instead of a panic.
    FR.get_or_init(|| super::parse_catalogue(include_str!("columns.fr.toml")).unwrap_or_default())
}

/// A word kept as written in every language: a number (`p50`, `2d20`, `round1`) or a
/// one-letter side (`a`, `b`).
fn kept(word: &str) -> bool {
    word.len() <= 1 || word.chars().any(|c| c.is_ascii_digit())
}

/// `column` (a column name or part of one, words between `_`) in `lang`'s words; the
/// words French has no entry for, in the second place (empty when it reads in full).
fn read(column: &str, lang: Lang) -> (String, Vec<String>) {
    if lang == Lang::En {
        return (column.replace('_', " "), Vec::new());
    }
    // A part after a prefix (`share_final` read after `share`) keeps its leading space.
    let lead = if column.starts_with('_') { " " } else { "" };
    let words: Vec<&str> = column.split('_').filter(|w| !w.is_empty()).collect();
    let g = glossary();
    let (mut out, mut missing) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < words.len() {
        let found = (1..=LONGEST.min(words.len() - i))
            .rev()
            .find_map(|n| g.get(&words[i..i + n].join("_")).map(|fr| (n, fr.clone())));
        match found {
            Some((n, fr)) => {
                out.push(fr);
                i += n;
            }
            None => {
                if !kept(words[i]) {
                    missing.push(words[i].to_string());
                }
                out.push(words[i].to_string());
                i += 1;
            }
        }
    }
    (format!("{lead}{}", out.join(" ")), missing)
}

/// `column`'s words in `lang`.
pub fn words(column: &str, lang: Lang) -> String {
    read(column, lang).0
}

/// The words of `column` French reads in English (no glossary entry): empty for every
/// column the tool writes (`tests/lang_columns.rs`).
pub fn untranslated(column: &str) -> Vec<String> {
    read(column, Lang::Fr).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_glossary_parses_and_reads_phrases_before_words() {
        assert!(glossary().len() > 100);
        assert_eq!(words("crit_success", Lang::En), "crit success");
        assert_eq!(words("crit_success", Lang::Fr), "réussite critique");
        assert_eq!(words("points_spent", Lang::Fr), "points dépensés");
        assert_eq!(words("fm_end_p50", Lang::Fr), "FM finale p50");
        assert_eq!(words("_final", Lang::Fr), " finale");
        assert_eq!(words("_final", Lang::En), " final");
        assert!(untranslated("dual_a").is_empty());
        assert_eq!(untranslated("zorglub_success"), ["zorglub"]);
    }
}
