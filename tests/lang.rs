//! Issue 14: one catalogue per language, and no key missing in either. Every key the code
//! uses (`tr!(lang, "key")` and `words!("key")`, always a literal) must exist in both catalogues with the same
//! `{placeholders}`, and every catalogue key must be used. The one family of keys built at
//! run time is `options.help.<key>` (`cosmosim options`): one per registered rule option,
//! checked against the registry below.

use std::collections::BTreeSet;
use std::path::Path;

use cosmosim::lang::{parse_catalogue, placeholders, Lang, ALL};

fn used_keys(dir: &Path, keys: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            used_keys(&path, keys);
        } else if path.extension().is_some_and(|e| e == "rs") {
            // Comments (docs showing `tr!` by example) are not uses.
            let text: String = std::fs::read_to_string(&path)
                .unwrap()
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .map(|l| format!("{l}\n"))
                .collect();
            let mut rest = text.as_str();
            // `tr!(lang, "key", ...)` and `words!("key", ...)`, a message worded later.
            while let Some(at) = rest
                .find("tr!(")
                .into_iter()
                .chain(rest.find("words!("))
                .min()
            {
                // `include_str!(` is not `tr!(`.
                let before = rest[..at].chars().next_back();
                let skip = if rest[at..].starts_with("tr!(") { 4 } else { 7 };
                rest = &rest[at + skip..];
                if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                    continue;
                }
                // `tr!(lang, "key", ...)`: the key follows the language.
                let mut trimmed = rest.trim_start();
                if !trimmed.starts_with('"') {
                    if let Some(comma) = trimmed.find(',') {
                        trimmed = trimmed[comma + 1..].trim_start();
                    }
                }
                if let Some(body) = trimmed.strip_prefix('"') {
                    let end = body.find('"').unwrap();
                    keys.insert(body[..end].to_string());
                }
            }
        }
    }
}

/// `options.help.<key>` for every option of the registry: the keys `cosmosim options`
/// builds at run time (src/commands/options.rs), so no literal `tr!` names them.
fn option_help_keys() -> BTreeSet<String> {
    cosmosim::rules::registry()
        .map(|o| format!("options.help.{}", o.key))
        .collect()
}

fn catalogue(lang: Lang) -> std::collections::BTreeMap<String, String> {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("src/lang")
        .join(format!("{}.toml", lang.code()));
    parse_catalogue(&std::fs::read_to_string(&file).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", file.display()))
}

#[test]
fn both_catalogues_have_the_same_keys_and_placeholders() {
    let en = catalogue(Lang::En);
    let fr = catalogue(Lang::Fr);
    let only_en: Vec<_> = en.keys().filter(|k| !fr.contains_key(*k)).collect();
    let only_fr: Vec<_> = fr.keys().filter(|k| !en.contains_key(*k)).collect();
    assert!(only_en.is_empty(), "keys missing in fr.toml: {only_en:?}");
    assert!(only_fr.is_empty(), "keys missing in en.toml: {only_fr:?}");
    let mut differ = Vec::new();
    for (k, e) in &en {
        let mut pe = placeholders(e);
        let mut pf = placeholders(&fr[k]);
        pe.sort();
        pf.sort();
        if pe != pf {
            differ.push(format!("{k}: en {pe:?} fr {pf:?}"));
        }
        if fr[k].trim().is_empty() || e.trim().is_empty() {
            differ.push(format!("{k}: empty text"));
        }
    }
    assert!(
        differ.is_empty(),
        "placeholders differ:\n{}",
        differ.join("\n")
    );
}

#[test]
fn every_key_the_code_uses_exists_and_every_key_is_used() {
    let mut used = BTreeSet::new();
    used_keys(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut used,
    );
    assert!(!used.is_empty());
    for lang in ALL {
        let cat = catalogue(lang);
        let missing: Vec<_> = used.iter().filter(|k| !cat.contains_key(*k)).collect();
        assert!(missing.is_empty(), "{}.toml lacks {missing:?}", lang.code());
        let built = option_help_keys();
        let unused: Vec<_> = cat
            .keys()
            .filter(|k| !used.contains(*k) && !built.contains(*k))
            .collect();
        assert!(
            unused.is_empty(),
            "{}.toml keys no code uses: {unused:?}",
            lang.code()
        );
    }
}

#[test]
fn the_binary_embeds_the_catalogues_on_disk() {
    for lang in ALL {
        assert_eq!(lang.catalogue(), &catalogue(lang), "{}", lang.code());
    }
}

#[test]
fn every_registered_option_has_its_help_in_both_catalogues() {
    let en = catalogue(Lang::En);
    let fr = catalogue(Lang::Fr);
    let mut problems = Vec::new();
    for o in cosmosim::rules::registry() {
        let key = format!("options.help.{}", o.key);
        match (en.get(&key), fr.get(&key)) {
            (Some(e), Some(f)) => {
                if f == e {
                    problems.push(format!("{key}: fr.toml is the English text"));
                }
            }
            (e, f) => problems.push(format!(
                "{key}: missing in{}{}",
                if e.is_none() { " en.toml" } else { "" },
                if f.is_none() { " fr.toml" } else { "" }
            )),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Issue 23, item 5: the language travels with each run, not with a thread or the process.
/// Two runs of one scenario, one French and one English, on two threads at once and both
/// on the same engine pool, each write in their own language, exactly as each does alone.
#[test]
fn two_runs_at_once_each_write_in_their_own_language() {
    use cosmosim::commands::run_scenario;
    use cosmosim::systems::RunOverrides;
    fn run(lang: Lang) -> (String, String) {
        let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenarios/nephilim/duel.toml");
        let o = RunOverrides {
            trials: Some(2_000),
            threads: 2,
            quiet: true,
            ..Default::default()
        };
        let r = run_scenario(&file, &o, lang).unwrap();
        (r.summary, r.outputs[0].title.clone())
    }
    let (fr_alone, en_alone) = (run(Lang::Fr), run(Lang::En));
    assert_ne!(fr_alone, en_alone);
    for _ in 0..4 {
        let fr = std::thread::spawn(move || run(Lang::Fr));
        let en = std::thread::spawn(move || run(Lang::En));
        assert_eq!(fr.join().unwrap(), fr_alone);
        assert_eq!(en.join().unwrap(), en_alone);
    }
}
