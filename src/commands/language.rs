//! Which language a command writes in: `--lang` wins, then the `lang` key of the file the
//! command reads (scenario, expectations or variants file), then English. Chosen once,
//! before any work, so every page and message of the run is in one language.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::cli::{Cli, Command};
use crate::lang::Lang;
use crate::scenario::ScenarioFile;

/// The language of `cli`'s command.
pub fn choose(cli: &Cli) -> anyhow::Result<Lang> {
    // The file's `lang` is checked even when `--lang` wins, so a file (`lang = "FR"`) is
    // refused or accepted the same with and without the flag: values are exact, like
    // `--lang` itself.
    let from_file = file_of(&cli.command)
        .map(|path| file_lang(&path, cli.lang.unwrap_or(Lang::En)))
        .transpose()?
        .flatten();
    Ok(cli.lang.or(from_file).unwrap_or(Lang::En))
}

/// The language `--lang` names in a raw command line (`--lang fr` or `--lang=fr`, the
/// last one wins), read before clap parses it; `None` without a valid one (clap then
/// reports a bad value itself). Nothing after `--` is a flag.
pub fn from_argv<I, S>(args: I) -> Option<Lang>
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut found = None;
    let mut next_is_value = false;
    for a in args {
        let Some(a) = a.as_ref().to_str() else {
            next_is_value = false;
            continue;
        };
        if next_is_value {
            found = Lang::parse(a).or(found);
            next_is_value = false;
        } else if a == "--" {
            break;
        } else if a == "--lang" {
            next_is_value = true;
        } else if let Some(v) = a.strip_prefix("--lang=") {
            found = Lang::parse(v).or(found);
        }
    }
    found
}

/// The file whose `lang` key speaks for the command (the first, for `expect`).
fn file_of(command: &Command) -> Option<PathBuf> {
    match command {
        Command::Run(a) => Some(a.file.clone()),
        Command::Trace(a) => Some(a.file.clone()),
        Command::Sweep(a) => Some(a.scenario.file.clone()),
        Command::Check { file } => Some(file.clone()),
        Command::Expect(a) => a.files.first().cloned(),
        Command::Variants(a) => Some(a.file.clone()),
        Command::Tune(a) if a.source.len() == 1 => Some(PathBuf::from(&a.source[0])),
        Command::Optimise(a) if a.source.len() == 1 => Some(PathBuf::from(&a.source[0])),
        _ => None,
    }
}

/// The file's `lang`, if it has one; a bad one is refused in `speak` (`--lang`, else
/// English). A file that cannot be read says nothing here: the command itself reports that.
pub fn file_lang(path: &Path, speak: Lang) -> anyhow::Result<Option<Lang>> {
    #[derive(Deserialize)]
    struct Loose {
        lang: Option<toml::Value>,
    }
    let Ok(file) = ScenarioFile::read(path, speak) else {
        return Ok(None);
    };
    let Ok(loose) = toml::from_str::<Loose>(&file.text) else {
        // Broken TOML: the command reports where, in the language a plain top-level
        // `lang = "fr"` line asks for (an unknown one is not refused here: the file is
        // refused anyway).
        return Ok(plain_lang_line(&file.text));
    };
    let Some(value) = loose.lang else {
        return Ok(None);
    };
    match value.as_str().and_then(Lang::parse) {
        Some(l) => Ok(Some(l)),
        None => Err(file
            .error_at(
                &["lang"],
                "lang",
                tr!(file.lang, "safety.work.unknown_lang"),
                tr!(file.lang, "safety.work.lang_allowed"),
            )
            .into()),
    }
}

/// The language of a `lang = "xx"` line before the first table header, read without a
/// TOML parser (for files that do not parse).
fn plain_lang_line(text: &str) -> Option<Lang> {
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            return None;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        if k.trim() == "lang" {
            let v = v.split('#').next().unwrap_or("").trim();
            return v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .and_then(Lang::parse);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lang_of(text: &str) -> anyhow::Result<Option<Lang>> {
        let dir = std::env::temp_dir().join(format!("cosmosim-lang-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("f{}.toml", text.len()));
        std::fs::write(&path, text).unwrap();
        let r = file_lang(&path, Lang::En);
        let _ = std::fs::remove_file(&path);
        r
    }

    #[test]
    fn the_raw_command_line_names_its_language() {
        assert_eq!(from_argv(["run", "x.toml", "--lang", "fr"]), Some(Lang::Fr));
        assert_eq!(from_argv(["--lang=fr", "check", "x.toml"]), Some(Lang::Fr));
        assert_eq!(from_argv(["--lang=fr", "--lang", "en"]), Some(Lang::En));
        assert_eq!(from_argv(["check", "x.toml"]), None);
        assert_eq!(from_argv(["--lang", "de"]), None);
        assert_eq!(from_argv(["figures", "--", "--lang", "fr"]), None);
    }

    #[test]
    fn a_file_names_its_language_or_is_refused_with_the_allowed_values() {
        assert_eq!(lang_of("system = \"cosmos\"\n").unwrap(), None);
        assert_eq!(lang_of("lang = \"fr\"\n").unwrap(), Some(Lang::Fr));
        assert_eq!(lang_of("lang = \"en\"\nx = 1\n").unwrap(), Some(Lang::En));
        let e = lang_of("x = 1\nlang = \"de\"\n").unwrap_err().to_string();
        assert!(
            e.contains(":2:") && e.contains("`lang`") && e.contains("\"fr\""),
            "{e}"
        );
        // Broken TOML is the command's to report, in the language of a plain line.
        assert_eq!(lang_of("lang = \n").unwrap(), None);
        assert_eq!(
            lang_of("lang = \"fr\" # ici\n[a]\nx = = 1\n").unwrap(),
            Some(Lang::Fr)
        );
        assert_eq!(lang_of("[a]\nlang = \"fr\"\nx = = 1\n").unwrap(), None);
    }
}
