//! Issue 14: `cosmosim --lang fr options` gives every option's help in French (catalogue
//! keys `options.help.<key>`), while the English listing gives the English catalogue's
//! word for word (docs/parameters.md is generated from it and stays English).

use assert_cmd::Command;
use cosmosim::lang::Lang;

fn options(lang: Option<&str>) -> String {
    let mut cmd = Command::cargo_bin("cosmosim").unwrap();
    if let Some(lang) = lang {
        cmd.args(["--lang", lang]);
    }
    let out = cmd.arg("options").output().unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// The help line of `key` in a listing: the line after its `allowed` line.
fn help_line<'a>(text: &'a str, key: &str) -> &'a str {
    let head = format!("\n    {key}  (");
    let at = text
        .find(&head)
        .unwrap_or_else(|| panic!("{key} not listed"));
    text[at..].lines().nth(4).unwrap().trim_start()
}

#[test]
fn french_listing_gives_each_help_in_french_with_the_books_terms() {
    let fr = options(Some("fr"));
    assert_eq!(
        help_line(&fr, "posture_turns"),
        "paramètre : une posture Illumination/Sépulcrale prend fin à la fin du Nᵉ tour de \
         posture de son porteur, et le contre-coup survient si et seulement si ce Nᵉ tour a \
         commencé (livre : 3 tours maximum, contre-coup au-delà de 2)"
    );
    assert_eq!(
        help_line(&fr, "karma_overflow"),
        "un changement de karma qui dépasse -10/+10 : clamp s'arrête à la borne, cancel \
         annule tout le changement"
    );
    assert!(help_line(&fr, "fatigue_light_malus").contains("(livre : -5 %)"));
    assert!(help_line(&fr, "fallout_ap_pool_max").contains("réserve de groupe"));
    // No English help is left: none of the registry's texts appears in the French listing.
    for o in cosmosim::rules::registry() {
        assert!(
            !fr.contains(o.help(Lang::En)),
            "{}: English help in --lang fr",
            o.key
        );
        // Keys and values are not translated.
        assert!(fr.contains(&format!("\n    {}  (", o.key)), "{}", o.key);
        assert!(
            fr.contains(&format!("par défaut : {}\n", o.default)),
            "{}",
            o.key
        );
    }
    assert!(!fr.contains("restent en anglais"));
}

#[test]
fn english_listing_gives_the_english_help_word_for_word() {
    let en = options(None);
    assert_eq!(en, options(Some("en")));
    assert!(en.starts_with("Rule options and parameters"));
    for o in cosmosim::rules::registry() {
        let help = o.help(Lang::En);
        assert!(
            !help.starts_with("options.help."),
            "{}: no English help",
            o.key
        );
        assert_eq!(help_line(&en, o.key), help, "{}", o.key);
    }
}
