//! Named rule options: every reading of a rule that reasonable designers could dispute
//! (the `[option]` marks of the rules decisions) has a key, a default and a set of allowed
//! values. Options are set with `--option key=value` or in a scenario file, validated
//! against this registry, and printed with their value in force in every output.

use crate::lang::Lang;
use std::collections::BTreeMap;

use crate::error::UserError;
use crate::limits::clip;

pub mod combat;
pub mod cosmos;
pub mod creation;
pub mod fallout;
pub mod growth;
pub mod nephilim;
pub mod page;
pub mod sources;
pub mod trinites;

/// The option tables of every system. The registry sits below the systems (which read
/// it), so no system is imported here.
const TABLES: &[&[OptionSpec]] = &[
    cosmos::OPTIONS,
    nephilim::OPTIONS,
    nephilim::BAND_PARAMETERS,
    nephilim::DUEL_READINGS,
    fallout::OPTIONS,
    trinites::OPTIONS,
    growth::OPTIONS,
    growth::MUTATION_OPTIONS,
    growth::RACE_OPTIONS,
    growth::EXPEDITION_OPTIONS,
    growth::AURA_OPTIONS,
    growth::LEVEL_PARAMETERS,
    growth::CREATION_PARAMETERS,
    growth::ENDURANCE_PARAMETERS,
    combat::OPTIONS,
];

/// Up to five option keys closest to a mistyped `key` (a key containing it, or contained
/// in it, first; then by Jaro-Winkler similarity), so the message stays short as the
/// registry grows.
fn closest(key: &str) -> Vec<&'static str> {
    let key = key.trim().to_lowercase();
    if key.is_empty() || key.len() > 100 {
        return Vec::new();
    }
    let mut scored: Vec<(f64, &'static str)> = registry()
        .map(|s| {
            let contains = s.key.contains(key.as_str()) || key.contains(s.key);
            let score = if contains {
                1.0
            } else {
                strsim::jaro_winkler(&key, s.key)
            };
            (score, s.key)
        })
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.into_iter().take(5).map(|(_, k)| k).collect()
}

/// What values an option takes.
#[derive(Clone, Copy, Debug)]
pub enum Allowed {
    /// Exactly one of these words.
    OneOf(&'static [&'static str]),
    /// A comma-separated subset of these words (`none` for the empty set).
    SetOf(&'static [&'static str]),
    /// A number in `min..=max`.
    Number { min: f64, max: f64 },
    /// A whole number in `min..=max` (a rule parameter: a band edge, a die size...).
    Integer { min: i64, max: i64 },
    /// Cells of a table by name pair: comma-separated `first>second=number` with names from
    /// `names` and numbers in `min..=max`, or `none` (a parameter set such as the element
    /// coefficients).
    Cells {
        names: &'static [&'static str],
        min: f64,
        max: f64,
    },
    /// Entries by name, each a pair of whole numbers: comma-separated `name=a/b` with names
    /// from `names` and both numbers in `min..=max`, or `none` (a parameter set such as the
    /// potion table, FP change/FM change per potion).
    Pairs {
        names: &'static [&'static str],
        min: i64,
        max: i64,
    },
}

/// The cells of an [`Allowed::Cells`] value as (row, column, number) indices; `None` when
/// the value is not allowed.
pub fn parse_cells(
    value: &str,
    names: &[&str],
    min: f64,
    max: f64,
) -> Option<Vec<(usize, usize, f64)>> {
    if value.trim() == "none" || value.trim().is_empty() {
        return Some(Vec::new());
    }
    value
        .split(',')
        .map(|cell| {
            let (pair, x) = cell.split_once('=')?;
            let (a, b) = pair.split_once('>')?;
            let at = |n: &str| names.iter().position(|m| *m == n.trim());
            let x: f64 = x.trim().parse().ok()?;
            (x.is_finite() && x >= min && x <= max).then_some(())?;
            Some((at(a)?, at(b)?, x))
        })
        .collect()
}

/// The entries of an [`Allowed::Pairs`] value as (name index, first, second); `None` when
/// the value is not allowed. A name given twice is refused on input (`Allowed::duplicate`).
pub fn parse_pairs(
    value: &str,
    names: &[&str],
    min: i64,
    max: i64,
) -> Option<Vec<(usize, i64, i64)>> {
    if value.trim() == "none" || value.trim().is_empty() {
        return Some(Vec::new());
    }
    value
        .split(',')
        .map(|entry| {
            let (name, pair) = entry.split_once('=')?;
            let (a, b) = pair.split_once('/')?;
            let at = names.iter().position(|m| *m == name.trim())?;
            let within = |x: &str| {
                let x: i64 = x.trim().parse().ok()?;
                (min..=max).contains(&x).then_some(x)
            };
            Some((at, within(a)?, within(b)?))
        })
        .collect()
}

impl Allowed {
    pub fn describe(&self, lang: Lang) -> String {
        match self {
            Allowed::OneOf(v) => v.join(" | "),
            Allowed::SetOf(v) => tr!(lang, "options.allowed.set_of", words = v.join(", ")),
            Allowed::Number { min, max } => {
                tr!(lang, "options.allowed.number", min, max)
            }
            Allowed::Integer { min, max } => {
                tr!(lang, "options.allowed.integer", min, max)
            }
            Allowed::Cells { names, min, max } => tr!(
                lang,
                "options.allowed.cells",
                names = names.join(", "),
                min,
                max
            ),
            Allowed::Pairs { names, min, max } => tr!(
                lang,
                "options.allowed.pairs",
                names = names.join(", "),
                min,
                max
            ),
        }
    }

    /// The first entry a table value (`Cells`, `Pairs`) gives twice, by its name (`eau>feu`,
    /// `phoenix`): refused rather than one silently winning, since two values for one cell
    /// are a typo or a paste the designer should see.
    fn duplicate(&self, value: &str) -> Option<String> {
        let names: Vec<String> = match self {
            Allowed::Cells { names, min, max } => parse_cells(value, names, *min, *max)?
                .into_iter()
                .map(|(a, b, _)| format!("{}>{}", names[a], names[b]))
                .collect(),
            Allowed::Pairs { names, min, max } => parse_pairs(value, names, *min, *max)?
                .into_iter()
                .map(|(a, _, _)| names[a].to_string())
                .collect(),
            _ => return None,
        };
        let mut seen = std::collections::BTreeSet::new();
        names.into_iter().find(|n| !seen.insert(n.clone()))
    }

    fn check(&self, value: &str) -> bool {
        match self {
            Allowed::OneOf(v) => v.contains(&value),
            Allowed::SetOf(v) => value == "none" || value.split(',').all(|w| v.contains(&w.trim())),
            Allowed::Number { min, max } => value
                .parse::<f64>()
                .map(|x| x.is_finite() && x >= *min && x <= *max)
                .unwrap_or(false),
            Allowed::Integer { min, max } => value
                .parse::<i64>()
                .map(|x| x >= *min && x <= *max)
                .unwrap_or(false),
            Allowed::Cells { names, min, max } => parse_cells(value, names, *min, *max).is_some(),
            Allowed::Pairs { names, min, max } => parse_pairs(value, names, *min, *max).is_some(),
        }
    }
}

/// One rule option of the registry.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    pub key: &'static str,
    /// The rules-decisions ID the option belongs to.
    pub decision: &'static str,
    pub default: &'static str,
    pub allowed: Allowed,
}

impl OptionSpec {
    /// What the option does, in `lang`: the catalogues' `options.help.<key>` (a test
    /// checks every option has one in each language).
    pub fn help(&self, lang: Lang) -> &'static str {
        lang.text(&format!("options.help.{}", self.key))
    }

    /// Whether `value` is allowed for this option.
    pub fn allowed_value(&self, value: &str) -> bool {
        self.allowed.check(value)
    }

    /// The game system the option belongs to, read from its decision ID's prefix
    /// (`C-` Great Cosmos, `N-` Nephilim, `F-` 2d20, `T-` Trinités).
    pub fn system(&self) -> &'static str {
        match self.decision.split('-').next() {
            Some("C") => "cosmos",
            Some("N") => "nephilim",
            Some("F") => "fallout",
            Some("T") => "trinites",
            _ => "any",
        }
    }
}

/// Every option the tool knows, all systems together.
pub fn registry() -> impl Iterator<Item = &'static OptionSpec> {
    TABLES.iter().flat_map(|s| s.iter())
}

pub fn spec(key: &str) -> Option<&'static OptionSpec> {
    registry().find(|s| s.key == key)
}

/// Rule options set by the user; anything not set reads as its default.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RuleOptions {
    set: BTreeMap<&'static str, String>,
}

impl RuleOptions {
    /// Parses `key=value` pairs as given to `--option`; one key given twice with
    /// different values is an error.
    pub fn from_pairs<S: AsRef<str>>(pairs: &[S], lang: Lang) -> Result<RuleOptions, UserError> {
        let mut o = RuleOptions::default();
        for p in pairs {
            let p = p.as_ref();
            let (k, v) = p.split_once('=').ok_or_else(|| {
                UserError::new(tr!(lang, "options.expected_pair", value = clip(p, lang)))
            })?;
            let (k, v) = (k.trim(), v.trim());
            if let Some(before) = o.set.get(k) {
                if before != v {
                    return Err(UserError::new(tr!(
                        lang,
                        "options.given_twice",
                        key = k,
                        first = clip(before, lang),
                        second = clip(v, lang)
                    )));
                }
            }
            o.set(k, v, lang)?;
        }
        Ok(o)
    }

    /// Options set that belong to another game system than `system`, as warnings that
    /// name the options that do apply.
    pub fn foreign_to(&self, system: &str, lang: Lang) -> Vec<String> {
        let mut out = Vec::new();
        for k in self.set.keys() {
            let Some(spec) = spec(k) else { continue };
            if spec.system() != system && spec.system() != "any" {
                let own: Vec<&str> = registry()
                    .filter(|s| s.system() == system)
                    .map(|s| s.key)
                    .collect();
                out.push(tr!(
                    lang,
                    "options.foreign",
                    key = k,
                    owner = spec.system(),
                    system,
                    apply = if own.is_empty() {
                        tr!(lang, "options.none_apply").to_string()
                    } else {
                        own.join(", ")
                    }
                ));
            }
        }
        out
    }

    /// Sets one option after checking its key and value.
    pub fn set(&mut self, key: &str, value: &str, lang: Lang) -> Result<(), UserError> {
        let spec = spec(key).ok_or_else(|| {
            let close = closest(key);
            UserError::new(tr!(
                lang,
                "options.unknown",
                key = clip(key, lang),
                close = if close.is_empty() {
                    tr!(lang, "options.none_apply").to_string()
                } else {
                    close.join(", ")
                },
                count = registry().count()
            ))
        })?;
        if !spec.allowed.check(value) {
            return Err(UserError::new(tr!(
                lang,
                "options.not_allowed",
                key,
                value = clip(value, lang),
                allowed = spec.allowed.describe(lang),
                decision = spec.decision
            )));
        }
        if let Some(entry) = spec.allowed.duplicate(value) {
            return Err(UserError::new(tr!(
                lang,
                "safety.work.duplicate_entry",
                key,
                entry = clip(&entry, lang),
                allowed = spec.allowed.describe(lang)
            )));
        }
        self.set.insert(spec.key, value.to_string());
        Ok(())
    }

    /// The value in force: set, else the edition's (C-EDITION), else the default. Keys are
    /// program constants.
    pub fn get(&self, key: &str) -> &str {
        match self.set.get(key) {
            Some(v) => v,
            None if self.set.get("edition").is_some_and(|e| e == "previous") => {
                match cosmos::PREVIOUS_EDITION.iter().find(|(k, _)| *k == key) {
                    Some((_, v)) => v,
                    None => self.default_of(key),
                }
            }
            None => self.default_of(key),
        }
    }

    fn default_of(&self, key: &str) -> &'static str {
        spec(key)
            .unwrap_or_else(|| panic!("rule option `{key}` is missing from the registry"))
            .default
    }

    /// A numeric option (validated on set; defaults are numbers by construction).
    /// A whole-number parameter (validated on input, so the fallback is never used).
    pub fn integer(&self, key: &str) -> i64 {
        self.get(key).parse().unwrap_or(0)
    }

    pub fn number(&self, key: &str) -> f64 {
        self.get(key).parse().unwrap_or(f64::NAN)
    }

    /// A set option as its members.
    pub fn members(&self, key: &str) -> Vec<String> {
        match self.get(key) {
            "none" | "" => Vec::new(),
            v => v.split(',').map(|w| w.trim().to_string()).collect(),
        }
    }

    /// The options of the given specs with their values in force, for provenance.
    pub fn in_force(&self, specs: &[OptionSpec]) -> BTreeMap<String, String> {
        specs
            .iter()
            .map(|s| (s.key.to_string(), self.get(s.key).to_string()))
            .collect()
    }

    /// A constraint between parameters broken by the values in force, once every source
    /// of options is merged (the ranges are checked key by key on set): the key to point
    /// at, the message and what is allowed. Today: no fatigue state past exhaustion
    /// (C-FAT-4); a creation die window the sum windows cannot use (C-CREATE-2/3).
    pub fn conflict(&self, lang: Lang) -> Option<(&'static str, String, &'static str)> {
        // C-CREATE-2/3: each creation die's window against the sum windows.
        if let Some(c) = growth::create_die_conflict(self, lang) {
            return Some(c);
        }
        let (key, value, max) = cosmos::fatigue_past_exhaustion(self)?;
        Some((
            key,
            tr!(
                lang,
                "options.check.fatigue_past_exhaustion",
                key,
                value,
                max
            ),
            tr!(lang, "options.check.fatigue_past_exhaustion_allowed"),
        ))
    }

    /// [`RuleOptions::conflict`] as an error.
    pub fn check_together(&self, lang: Lang) -> Result<(), UserError> {
        match self.conflict(lang) {
            Some((_, message, allowed)) => Err(UserError::new(tr!(
                lang,
                "options.check.conflict",
                message,
                allowed
            ))),
            None => Ok(()),
        }
    }

    /// Options explicitly set, for provenance of mixed outputs.
    pub fn explicitly_set(&self) -> BTreeMap<String, String> {
        self.set
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell or potion given twice is refused, naming it; distinct ones pass.
    #[test]
    fn table_values_refuse_an_entry_given_twice() {
        let e = RuleOptions::from_pairs(
            &["element_cells=eau>feu=1.5, feu>glace=1, eau>feu=2"],
            Lang::En,
        )
        .unwrap_err();
        assert!(
            e.0.contains("element_cells") && e.0.contains("`eau>feu`"),
            "{}",
            e.0
        );
        assert!(e.0.contains("twice"), "{}", e.0);
        // feu>eau is another cell than eau>feu.
        assert!(
            RuleOptions::from_pairs(&["element_cells=eau>feu=1.5, feu>eau=1"], Lang::En).is_ok()
        );
        let e = RuleOptions::from_pairs(&["potion_effects=phoenix=-1/0,phoenix=-2/0"], Lang::En)
            .unwrap_err();
        assert!(
            e.0.contains("potion_effects") && e.0.contains("`phoenix`"),
            "{}",
            e.0
        );
    }

    #[test]
    fn defaults_and_overrides() {
        let o = RuleOptions::from_pairs(&["super_crit_roll=score"], Lang::En).unwrap();
        assert_eq!(o.get("super_crit_roll"), "score");
        assert_eq!(o.get("percent_mode"), "points");
    }

    #[test]
    fn unknown_key_lists_known_options() {
        let e = RuleOptions::from_pairs(&["super_crit=score"], Lang::En).unwrap_err();
        assert!(e.0.contains("unknown rule option `super_crit`"), "{e}");
        assert!(e.0.contains("super_crit_roll"), "{e}");
        assert!(e.0.contains("cosmosim options"), "{e}");
        // A typo finds its key; the message does not list the whole registry.
        let e = RuleOptions::from_pairs(&["posture_turn=2"], Lang::En).unwrap_err();
        assert!(e.0.contains("posture_turns"), "{e}");
        assert!(!e.0.contains("trinites_target"), "{e}");
        let e = RuleOptions::from_pairs(&["zzzz=2"], Lang::En).unwrap_err();
        assert!(e.0.contains("closest: none"), "{e}");
    }

    #[test]
    fn bad_value_lists_allowed_values() {
        let e = RuleOptions::from_pairs(&["karma_overflow=wrap"], Lang::En).unwrap_err();
        assert!(e.0.contains("clamp | cancel"), "{e}");
        assert!(e.0.contains("C-KARMA-1"), "{e}");
        assert!(RuleOptions::from_pairs(&["karma_overflow"], Lang::En).is_err());
    }

    #[test]
    fn twice_with_different_values_is_refused() {
        let e =
            RuleOptions::from_pairs(&["karma_overflow=clamp", "karma_overflow=cancel"], Lang::En)
                .unwrap_err();
        assert!(e.0.contains("given twice"), "{e}");
        assert!(RuleOptions::from_pairs(
            &["karma_overflow=clamp", "karma_overflow=clamp"],
            Lang::En
        )
        .is_ok());
    }

    #[test]
    fn options_of_another_system_are_named_with_those_that_apply() {
        let o = RuleOptions::from_pairs(&["die=d6"], Lang::En).unwrap();
        let w = o.foreign_to("cosmos", Lang::En);
        assert_eq!(w.len(), 1, "{w:?}");
        assert!(w[0].contains("`die` is a nephilim option"), "{}", w[0]);
        assert!(w[0].contains("super_crit_roll"), "{}", w[0]);
        assert!(o.foreign_to("nephilim", Lang::En).is_empty());
    }

    #[test]
    fn a_fatigue_state_past_exhaustion_is_refused() {
        // C-FAT-4: exhaustion at 8 with the book's extreme fatigue from 8 is allowed (the
        // extreme state is then empty); at 7 the extreme state would start past it.
        let ok = RuleOptions::from_pairs(&["fatigue_exhausted_at=8"], Lang::En).unwrap();
        assert!(ok.conflict(Lang::En).is_none());
        let bad = RuleOptions::from_pairs(&["fatigue_exhausted_at=7"], Lang::En).unwrap();
        let (key, m, _) = bad.conflict(Lang::En).unwrap();
        assert_eq!(key, "fatigue_extreme_from");
        assert!(
            m.contains("fatigue_extreme_from = 8") && m.contains("7"),
            "{m}"
        );
        assert!(bad.check_together(Lang::En).is_err());
        let lowered = RuleOptions::from_pairs(
            &[
                "fatigue_exhausted_at=5",
                "fatigue_light_from=2",
                "fatigue_moderate_from=3",
                "fatigue_extreme_from=4",
            ],
            Lang::En,
        )
        .unwrap();
        assert!(lowered.conflict(Lang::En).is_none());
        assert!(RuleOptions::default().conflict(Lang::En).is_none());
    }

    #[test]
    fn every_registered_default_is_allowed_and_keys_unique() {
        let mut keys = std::collections::BTreeSet::new();
        for s in registry() {
            assert!(
                s.allowed.check(s.default),
                "{} default {}",
                s.key,
                s.default
            );
            assert!(keys.insert(s.key), "duplicate option {}", s.key);
        }
    }
}
