//! clap's refusals of a command line, worded in French under `--lang fr` (clap writes its
//! own in English): a flag's value, an unknown flag or command, a value not among those
//! allowed, a missing argument, two flags that exclude each other. Other kinds (help,
//! version) stay as clap writes them.

use clap::error::{ContextKind, ContextValue, ErrorKind};

use crate::lang::{Lang, Words};

/// The refusal in `lang`, without the `error:` prefix; `None` for the kinds clap words
/// best itself. In English only a flag's refused value is worded here: clap's own reasons
/// read "invalid digit found in string" and "5 is not in 11..=100" (Rust's notation; the
/// audit of 2026-12-07, night), where cosmosim writes "not a whole number" and `11..100`.
pub fn worded(e: &clap::Error, lang: Lang) -> Option<String> {
    if lang == Lang::En && e.kind() != ErrorKind::ValueValidation {
        return None;
    }
    let text = |k| match e.get(k) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        Some(ContextValue::Strings(v)) => Some(v.join(", ")),
        _ => None,
    };
    let list = |k| match e.get(k) {
        Some(ContextValue::Strings(v)) => Some(
            v.iter()
                .map(|s| format!("'{s}'"))
                .collect::<Vec<_>>()
                .join(", "),
        ),
        Some(ContextValue::String(s)) => Some(format!("'{s}'")),
        _ => None,
    };
    let clip = |v: String| crate::limits::clip(&v, lang);
    let head = match e.kind() {
        ErrorKind::ValueValidation => {
            let reason = std::error::Error::source(e).map(|r| reason(r, lang))?;
            tr!(
                lang,
                "cli.invalid_value",
                value = clip(text(ContextKind::InvalidValue)?),
                arg = text(ContextKind::InvalidArg)?,
                reason
            )
        }
        ErrorKind::InvalidValue => tr!(
            lang,
            "cli.not_allowed",
            value = clip(text(ContextKind::InvalidValue)?),
            arg = text(ContextKind::InvalidArg)?,
            allowed = list(ContextKind::ValidValue).unwrap_or_default()
        ),
        ErrorKind::UnknownArgument => tr!(
            lang,
            "cli.unknown_argument",
            arg = clip(text(ContextKind::InvalidArg)?)
        ),
        ErrorKind::InvalidSubcommand => tr!(
            lang,
            "cli.unknown_command",
            name = clip(text(ContextKind::InvalidSubcommand)?)
        ),
        ErrorKind::MissingRequiredArgument => tr!(
            lang,
            "cli.missing_arguments",
            args = text(ContextKind::InvalidArg)?
        ),
        ErrorKind::ArgumentConflict => tr!(
            lang,
            "cli.conflict",
            arg = text(ContextKind::InvalidArg)?,
            other = text(ContextKind::PriorArg).unwrap_or_default()
        ),
        _ => return None,
    };
    let mut out = head;
    for (kind, text) in [
        (ContextKind::SuggestedArg, tr!(lang, "cli.did_you_mean_arg")),
        (
            ContextKind::SuggestedValue,
            tr!(lang, "cli.did_you_mean_value"),
        ),
        (
            ContextKind::SuggestedSubcommand,
            tr!(lang, "cli.did_you_mean_command"),
        ),
    ] {
        if let Some(names) = list(kind) {
            out.push_str(&tr_fill!(text, names));
        }
    }
    if let Some(ContextValue::StyledStr(usage)) = e.get(ContextKind::Usage) {
        let usage = usage.to_string();
        let usage = usage.trim().trim_start_matches("Usage:").trim();
        out.push_str(&tr!(lang, "cli.usage", usage));
    }
    out.push_str(tr!(lang, "cli.more_help"));
    Some(out)
}

/// A value parser's reason: ours word themselves ([`Words`]); the standard library's
/// number parsers and clap's range checks are translated, anything else kept.
fn reason(r: &(dyn std::error::Error + 'static), lang: Lang) -> String {
    use std::num::IntErrorKind;
    if let Some(w) = r.downcast_ref::<Words>() {
        return w.text(lang);
    }
    if let Some(p) = r.downcast_ref::<std::num::ParseIntError>() {
        return match p.kind() {
            IntErrorKind::Empty => tr!(lang, "cli.reason.empty"),
            IntErrorKind::PosOverflow => tr!(lang, "cli.reason.too_large"),
            IntErrorKind::NegOverflow => tr!(lang, "cli.reason.too_small"),
            _ => tr!(lang, "cli.reason.not_whole"),
        }
        .to_string();
    }
    if r.is::<std::num::ParseFloatError>() {
        return tr!(lang, "cli.reason.not_number").to_string();
    }
    let text = r.to_string();
    // clap's ranged parsers: "200 is not in 0..=100", written as cosmosim writes an
    // inclusive range everywhere else (`0..100`, as in `--karma -10..10`).
    if let Some((value, range)) = text.split_once(" is not in ") {
        let range = range.replacen("..=", "..", 1);
        return tr!(lang, "cli.reason.out_of_range", value, range);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser, Debug)]
    #[command(name = "t")]
    struct T {
        #[arg(long)]
        seed: Option<u64>,
        #[arg(long, value_parser = clap::value_parser!(u8).range(0..=100))]
        esprit: Option<u8>,
        #[arg(long, value_parser = ["en", "fr"])]
        lang: Option<String>,
        #[arg(long, conflicts_with = "seed")]
        quick: bool,
    }

    fn fr(args: &[&str]) -> String {
        let e = T::try_parse_from(std::iter::once("t").chain(args.iter().copied())).unwrap_err();
        worded(&e, Lang::Fr).unwrap_or_else(|| panic!("not worded: {e}"))
    }

    #[test]
    fn clap_refusals_read_in_french() {
        let m = fr(&["--seed", "abc"]);
        assert!(
            m.starts_with(
                "valeur invalide 'abc' pour '--seed <SEED>' : ce n'est pas un nombre entier"
            ),
            "{m}"
        );
        assert!(fr(&["--seed", "99999999999999999999999"]).contains("nombre trop grand"));
        assert!(fr(&["--seed", ""]).contains("valeur vide"));
        let m = fr(&["--esprit", "200"]);
        assert!(
            m.contains("200 est hors limites ; valeurs admises : 0..100"),
            "{m}"
        );
        let m = fr(&["--lang", "de"]);
        assert!(m.contains("valeurs admises : 'en', 'fr'"), "{m}");
        let m = fr(&["--sed", "1"]);
        assert!(m.starts_with("argument inattendu '--sed'"), "{m}");
        assert!(m.contains("un argument proche existe : '--seed'"), "{m}");
        assert!(m.contains("utilisation : t"), "{m}");
        let m = fr(&["--seed", "1", "--quick"]);
        assert!(m.contains("ne peut pas être utilisé avec"), "{m}");
        for m in [m, fr(&["--sed", "1"]), fr(&["--esprit", "200"])] {
            for english in ["Usage", "unexpected", "tip:", "is not in", "cannot be used"] {
                assert!(!m.contains(english), "English left in: {m}");
            }
        }
        // English stays clap's own, but for a refused value.
        let e = T::try_parse_from(["t", "--sed", "1"]).unwrap_err();
        assert!(worded(&e, Lang::En).is_none());
    }

    /// Audit of 2026-12-07, night: a refused value in English read "invalid digit found
    /// in string" or "5 is not in 11..=100".
    #[test]
    fn refused_values_read_as_cosmosim_writes_them_in_english() {
        let en = |args: &[&str]| {
            let e =
                T::try_parse_from(std::iter::once("t").chain(args.iter().copied())).unwrap_err();
            worded(&e, Lang::En).unwrap_or_else(|| panic!("not worded: {e}"))
        };
        let m = en(&["--esprit", "200"]);
        assert!(
            m.starts_with(
                "invalid value '200' for '--esprit <ESPRIT>': 200 is out of range; allowed: 0..100"
            ),
            "{m}"
        );
        assert!(m.ends_with("For more information, try '--help'."), "{m}");
        let m = en(&["--seed", "5..9"]);
        assert!(
            m.contains("'5..9' for '--seed <SEED>': not a whole number"),
            "{m}"
        );
        for m in [m, en(&["--esprit", "200"]), en(&["--seed", ""])] {
            for rust in ["invalid digit", "..=", "cannot parse"] {
                assert!(!m.contains(rust), "Rust's words left in: {m}");
            }
        }
    }
}
