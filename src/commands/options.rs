use crate::lang::Lang;
use crate::rules::{registry, OptionSpec};

fn system_name(system: &str, lang: Lang) -> &'static str {
    match system {
        "cosmos" => "The Tale of Great Cosmos",
        "nephilim" => "Nephilim v3",
        "fallout" => "2d20",
        "trinites" => "Trinités",
        _ => tr!(lang, "options.list.all_systems"),
    }
}

/// The rule a decision ID belongs to: `C-TEST-2` -> `C-TEST`.
fn rule_of(decision: &str) -> &str {
    match decision.rfind('-') {
        Some(i) if decision[i + 1..].chars().all(|c| c.is_ascii_digit()) => &decision[..i],
        _ => decision,
    }
}

/// A parameter is one of the book's numbers; a reading chooses between interpretations.
fn kind(o: &OptionSpec, lang: Lang) -> &'static str {
    if crate::rules::page::is_parameter(o) {
        tr!(lang, "options.list.parameter")
    } else if o.decision == "C-EDITION" {
        // `edition` names a set of parameter values (C-EDITION).
        tr!(lang, "options.list.parameter_set")
    } else {
        tr!(lang, "options.list.reading")
    }
}

/// The rule options and parameters, grouped by system and rule, for `cosmosim options`.
pub fn list_options(lang: Lang) -> String {
    let mut s = String::from(tr!(lang, "options.list.intro"));
    let mut all: Vec<&OptionSpec> = registry().collect();
    // Stable: systems in a fixed order, then rules, then the registry's own order.
    let order = |o: &OptionSpec| match o.system() {
        "cosmos" => 0,
        "fallout" => 1,
        "nephilim" => 2,
        "trinites" => 3,
        _ => 4,
    };
    all.sort_by_key(|o| (order(o), rule_of(o.decision).to_string()));
    let (mut system, mut rule) = ("", "");
    for o in all {
        if o.system() != system {
            system = o.system();
            rule = "";
            s += &format!("\n{}\n", system_name(system, lang));
        }
        if rule_of(o.decision) != rule {
            rule = rule_of(o.decision);
            s += &format!("\n  {rule}\n");
        }
        s += &tr!(
            lang,
            "options.list.entry",
            key = o.key,
            kind = kind(o, lang),
            decision = o.decision,
            default = o.default,
            allowed = o.allowed.describe(lang),
            help = o.help(lang)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_listed_once_under_its_system_and_rule() {
        let text = list_options(Lang::En);
        for o in registry() {
            let line = format!("    {}  ({}, {})", o.key, kind(o, Lang::En), o.decision);
            assert_eq!(text.matches(&line).count(), 1, "{line}");
        }
        let cosmos = text.find("The Tale of Great Cosmos").unwrap();
        let test_rule = text.find("\n  C-TEST\n").unwrap();
        let die = text.find("karma_die_sides  (parameter, C-TEST-3)").unwrap();
        assert!(cosmos < test_rule && test_rule < die);
        assert!(text.contains("super_crit_roll  (reading, C-TEST-2)"));
        assert_eq!(rule_of("C-TEST-2"), "C-TEST");
        assert_eq!(rule_of("N-INIT"), "N-INIT");
    }

    #[test]
    fn help_reads_the_language_and_falls_back_to_english() {
        let posture = crate::rules::spec("posture_turns").unwrap();
        let en = posture.help(Lang::En);
        assert!(en.contains("Illumination/Sépulcrale posture"), "{en}");
        let fr = posture.help(Lang::Fr);
        assert_ne!(fr, en);
        assert!(fr.contains("posture Illumination/Sépulcrale"), "{fr}");
        // An option the catalogues do not know yet (a parameter registered by another
        // branch before its help keys are added) shows its catalogue key, not a panic.
        let unknown = OptionSpec {
            key: "not_in_the_catalogue",
            ..*posture
        };
        assert_eq!(unknown.help(Lang::Fr), "options.help.not_in_the_catalogue");
    }
}
