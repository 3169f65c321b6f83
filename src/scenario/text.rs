//! A title or question written in a file, in one language or several: `title = "..."` or
//! `title = { en = "...", fr = "..." }`. Shipped scenarios carry both, so `report --lang
//! fr` reads French from end to end; a designer's own file needs only their language.

use serde::Deserialize;

use crate::lang::Lang;

/// Text a file gives, in one or more languages.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(
    untagged,
    expecting = "a string, or a table of languages such as { en = \"...\", fr = \"...\" }"
)]
pub enum Text {
    Plain(String),
    ByLang(ByLang),
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ByLang {
    pub en: String,
    pub fr: Option<String>,
}

impl Text {
    /// The text in `lang`, or the English one when the file has no translation.
    pub fn in_lang(&self, lang: Lang) -> &str {
        match (self, lang) {
            (Text::Plain(s), _) => s,
            (Text::ByLang(b), Lang::Fr) => b.fr.as_deref().unwrap_or(&b.en),
            (Text::ByLang(b), Lang::En) => &b.en,
        }
    }

    /// A file's optional text in `lang`.
    pub fn pick(text: Option<Text>, lang: Lang) -> Option<String> {
        text.map(|t| t.in_lang(lang).to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize)]
    struct F {
        t: Text,
    }

    #[test]
    fn a_text_is_plain_or_per_language_with_english_as_fallback() {
        let plain: F = toml::from_str("t = \"Duel\"").unwrap();
        assert_eq!(plain.t.in_lang(Lang::Fr), "Duel");
        let both: F = toml::from_str("t = { en = \"Duel\", fr = \"Le duel\" }").unwrap();
        assert_eq!(both.t.in_lang(Lang::En), "Duel");
        assert_eq!(both.t.in_lang(Lang::Fr), "Le duel");
        let en_only: F = toml::from_str("t = { en = \"Duel\" }").unwrap();
        assert_eq!(en_only.t.in_lang(Lang::Fr), "Duel");
        let e = toml::from_str::<F>("t = { de = \"x\" }")
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("table of languages"), "{e}");
    }
}
