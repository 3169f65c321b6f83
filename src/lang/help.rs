//! `--help` in French (audit of 2026-12-07, evening: clap's help was English only). The
//! English help is clap's, built from the doc comments of `cli.rs` and `args/`, and stays
//! byte-identical. French takes the same command tree and swaps each text for its French
//! one from `help.fr.toml`, looked up by the English text itself, so one translation
//! serves every command that shares a flag (`--seed`, `--out`...). clap's own words
//! (`Usage:`, `Commands:`, `[default: ...]`, `Possible values:`, `Print help`) are replaced
//! too. `tests/lang_help.rs` walks the tree: every English text has its French one and
//! every French entry is used. A text with no entry shows in English rather than failing.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use clap::builder::{PossibleValue, StyledStr};
use clap::{Arg, Command};

#[derive(serde::Deserialize)]
struct Entry {
    en: String,
    fr: String,
}

#[derive(serde::Deserialize)]
struct File {
    help: Vec<Entry>,
}

/// English text -> French text.
fn table() -> &'static BTreeMap<String, String> {
    static FR: OnceLock<BTreeMap<String, String>> = OnceLock::new();
    FR.get_or_init(|| {
        toml::from_str::<File>(include_str!("help.fr.toml"))
            .map(|f| f.help.into_iter().map(|e| (e.en, e.fr)).collect())
            .unwrap_or_default()
    })
}

/// The French of `en`, or `en` itself when the file has none.
fn fr(en: &str) -> String {
    table().get(en).cloned().unwrap_or_else(|| en.to_string())
}

fn styled(s: Option<&StyledStr>) -> Option<String> {
    s.map(|s| s.to_string())
}

/// Every help text of `cmd` and its subcommands (built), in tree order: what French needs.
pub fn texts(cmd: &Command) -> Vec<String> {
    let mut out = Vec::new();
    let mut push = |s: Option<String>| {
        if let Some(s) = s.filter(|s| !s.is_empty()) {
            out.push(s);
        }
    };
    push(styled(cmd.get_about()));
    push(styled(cmd.get_long_about()));
    for a in cmd.get_arguments() {
        push(styled(a.get_help()));
        push(styled(a.get_long_help()));
        for pv in a.get_possible_values() {
            push(styled(pv.get_help()));
        }
    }
    for s in cmd.get_subcommands() {
        out.extend(texts(s));
    }
    out
}

/// The English texts French lacks, and the French entries no text uses (both empty when
/// the file is complete).
pub fn coverage(cmd: &Command) -> (Vec<String>, Vec<String>) {
    let all = texts(cmd);
    let missing = all
        .iter()
        .filter(|t| !table().contains_key(*t))
        .cloned()
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let unused = table()
        .keys()
        .filter(|k| !all.contains(k))
        .cloned()
        .collect();
    (missing, unused)
}

/// `cmd` (the English command tree) with its help in French.
pub fn french(mut cmd: Command) -> Command {
    // Built first: clap adds `--help`, `--version` and the `help` subcommand, and the
    // derive's deferred arguments are in place, so every text can be swapped.
    cmd.build();
    translate(cmd)
}

fn translate(cmd: Command) -> Command {
    let about = styled(cmd.get_about()).map(|s| fr(&s));
    let long_about = styled(cmd.get_long_about()).map(|s| fr(&s));
    let mut cmd = cmd
        .help_template(
            "{before-help}{about-with-newline}\nUtilisation : {usage}\n\n{all-args}{after-help}",
        )
        .subcommand_help_heading("Commandes")
        .mut_args(french_arg)
        .mut_subcommands(translate);
    if let Some(a) = about {
        cmd = cmd.about(a);
    }
    if let Some(a) = long_about {
        cmd = cmd.long_about(a);
    }
    cmd
}

/// `--flag`'s help in French, with clap's `[default: ...]` and possible values in French.
fn french_arg(a: Arg) -> Arg {
    let help = styled(a.get_help()).map(|s| fr(&s));
    let long = styled(a.get_long_help()).map(|s| fr(&s));
    let takes_value = a.get_num_args().is_some_and(|n| n.takes_values());
    let mut notes = Vec::new();
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().into_owned())
        .collect();
    if takes_value && !defaults.is_empty() && !a.is_hide_default_value_set() {
        notes.push(format!("[défaut : {}]", defaults.join(" ")));
    }
    let values: Vec<PossibleValue> = a
        .get_possible_values()
        .into_iter()
        .filter(|v| !v.is_hide_set())
        .collect();
    let described = values.iter().any(|v| v.get_help().is_some());
    let shows_values = !values.is_empty() && !a.is_hide_possible_values_set();
    if shows_values && !described {
        let names: Vec<&str> = values.iter().map(PossibleValue::get_name).collect();
        notes.push(format!("[valeurs possibles : {}]", names.join(", ")));
    }
    let short_notes = notes.join(" ");
    let mut long_notes = notes.join("\n");
    if shows_values && described {
        let list: Vec<String> = values
            .iter()
            .map(|v| match v.get_help() {
                Some(h) => format!("- {} : {}", v.get_name(), fr(&h.to_string())),
                None => format!("- {}", v.get_name()),
            })
            .collect();
        let block = format!("Valeurs possibles :\n{}", list.join("\n"));
        long_notes = if long_notes.is_empty() {
            block
        } else {
            format!("{long_notes}\n\n{block}")
        };
    }
    let join = |text: Option<String>, notes: &str, sep: &str| match (text, notes.is_empty()) {
        (Some(t), false) => Some(format!("{t}{sep}{notes}")),
        (Some(t), true) => Some(t),
        (None, false) => Some(notes.to_string()),
        (None, true) => None,
    };
    let short = join(help.clone(), &short_notes, " ");
    let long = join(long.or(help), &long_notes, "\n\n");
    let mut a = a.hide_default_value(true).hide_possible_values(true);
    if let Some(s) = short {
        a = a.help(s);
    }
    // Only where clap had a long form of its own, or something the short form cannot
    // hold: one long help switches `--help` to the long layout.
    if a.get_long_help().is_some() || (shows_values && described) {
        if let Some(l) = long {
            a = a.long_help(l);
        }
    }
    a
}
