use crate::lang::Lang;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::de::DeserializeOwned;
use serde::Deserialize;

use crate::engine::StreamKey;
use crate::error::UserError;
use crate::report::{file_sha256, ScenarioRef};
use crate::rules::RuleOptions;

use super::locate;

/// A scenario file as read from disk, with its hash for provenance.
#[derive(Clone, Debug)]
pub struct ScenarioFile {
    pub path: PathBuf,
    pub text: String,
    pub sha256: String,
    /// Warnings validation found (the file is valid but likely not what was meant);
    /// `check` prints them and `run` adds them to `summary.md`.
    warnings: Arc<Mutex<Vec<String>>>,
    /// The language the run of this file writes in (`--lang`, else the file's `lang`):
    /// its validation messages and everything the kind reports.
    pub lang: Lang,
    /// The user's own text when this is an edited copy (a `--vary` point, a `tune`
    /// candidate): errors are located in it, not in the edited text the user never saw
    /// (audit of 2026-12-07, evening).
    original: Option<Arc<str>>,
}

/// What a kind allows for a missing required key: `(table, field, lang)`, the table path
/// without array indices (`""` at the top); `None` when it has nothing to say.
pub type MissingAllowed = dyn Fn(&str, &str, Lang) -> Option<String>;

/// The keys every scenario file starts with.
#[derive(Clone, Debug, Deserialize)]
pub struct ScenarioHeader {
    /// Which game system runs it: `cosmos`, `fallout`, `trinites`.
    pub system: String,
    /// Which kind of scenario of that system (e.g. cosmos `combat`), where it has several.
    pub kind: Option<String>,
}

/// `[run]`: defaults for trials and seed (command-line flags win).
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct RunSection {
    pub trials: Option<u64>,
    pub seed: Option<u64>,
    /// A stream name: files that give the same name (and kind) draw the same random
    /// streams whatever their values, so two versions of a scenario can be compared with
    /// common random numbers (see [`ScenarioFile::stream_key`]).
    pub stream: Option<String>,
    /// The share of unfinished trials (round cap) above which `run`, `sweep`, `tune` and
    /// `optimise` warn (0..1, default 0.05; `balance::stalemate`).
    pub stalemate_warning: Option<f64>,
}

impl ScenarioFile {
    /// Reads a scenario-like TOML file (scenario, linked combat, expectations, variants)
    /// through [`crate::input`]: a regular file of at most
    /// [`crate::input::MAX_TEXT_BYTES`].
    pub fn read(path: &Path, lang: Lang) -> Result<ScenarioFile, UserError> {
        let bytes = crate::input::read_file(path, crate::input::MAX_TEXT_BYTES).map_err(|e| {
            UserError::new(tr!(
                lang,
                "error.file.cannot_read",
                file = path.display(),
                error = e.text(lang)
            ))
        })?;
        let text = String::from_utf8(bytes.clone())
            .map_err(|_| UserError::new(tr!(lang, "error.file.not_utf8", file = path.display())))?;
        Ok(ScenarioFile {
            path: path.to_path_buf(),
            text,
            sha256: file_sha256(&bytes),
            warnings: Default::default(),
            lang,
            original: None,
        })
    }

    /// A scenario given as text (tests, built-in examples).
    pub fn from_text(path: &str, text: &str, lang: Lang) -> ScenarioFile {
        ScenarioFile {
            path: PathBuf::from(path),
            text: text.to_string(),
            sha256: file_sha256(text.as_bytes()),
            warnings: Default::default(),
            lang,
            original: None,
        }
    }

    /// The same file with edited text (a sweep point): same path, hash and warnings.
    pub fn edited(&self, text: String) -> ScenarioFile {
        ScenarioFile {
            path: self.path.clone(),
            text,
            sha256: self.sha256.clone(),
            warnings: self.warnings.clone(),
            lang: self.lang,
            original: Some(
                self.original
                    .clone()
                    .unwrap_or_else(|| Arc::from(self.text.as_str())),
            ),
        }
    }

    /// The stream key of this file's simulations (issue 23): the kind tag
    /// (`system.kind`) and every value of the file except its words and its settings.
    /// Left out: `title`, `question`, `lang`, `[run]` (trials, seed) and `[rules]` at the
    /// top, and any `title`, `question` or `description` deeper down. So renaming,
    /// translating or reordering never moves a number, and a rule variant (`[rules]`,
    /// `--option`) keeps the book's streams. A file that is not TOML has no values (it
    /// never gets past validation). `[run] stream = "name"` replaces the values by that
    /// name: files giving the same name share their streams.
    pub fn stream_key(&self) -> StreamKey {
        let mut root: toml::Table = toml::from_str(&self.text).unwrap_or_default();
        let system = root.remove("system");
        let kind = root.remove("kind");
        let word = |v: Option<toml::Value>| match v {
            Some(toml::Value::String(s)) => s,
            _ => String::new(),
        };
        let tag = format!("{}.{}", word(system), word(kind));
        let named = root
            .get("run")
            .and_then(|r| r.get("stream"))
            .and_then(|s| s.as_str());
        if let Some(name) = named {
            return StreamKey::new(&tag).text("stream", name);
        }
        for k in ["title", "question", "lang", "run", "rules"] {
            root.remove(k);
        }
        let mut values = toml::Value::Table(root);
        drop_words(&mut values);
        StreamKey::new(&tag).value("file", &values)
    }

    /// `[run] stalemate_warning` (validated by `RunOverrides::resolve`), or the default.
    pub fn stalemate_warning(&self) -> f64 {
        toml::from_str::<toml::Table>(&self.text)
            .ok()
            .and_then(|t| t.get("run")?.get("stalemate_warning")?.as_float())
            .filter(|x| (0.0..=1.0).contains(x))
            .unwrap_or(crate::limits::DEFAULT_STALEMATE_WARNING)
    }

    pub fn reference(&self) -> ScenarioRef {
        ScenarioRef {
            path: self.path.display().to_string(),
            sha256: self.sha256.clone(),
        }
    }

    /// The `system` key, which picks the model the rest of the file is read into.
    pub fn header(&self) -> Result<ScenarioHeader, UserError> {
        #[derive(Deserialize)]
        struct Loose {
            system: Option<String>,
            kind: Option<String>,
        }
        let loose: Loose = self.parse_raw()?;
        match loose.system {
            Some(system) => Ok(ScenarioHeader {
                system,
                kind: loose.kind,
            }),
            None => Err(self.error_at(
                &[],
                "system",
                tr!(self.lang, "error.file.missing_system"),
                tr!(self.lang, "error.file.system_allowed"),
            )),
        }
    }

    /// Deserializes the whole file; type errors and unknown keys come back with their
    /// position and key path.
    /// Every text is checked first (see `texts.rs`), so no later message quotes a control
    /// character and every kind of file refuses the same texts.
    pub fn parse_raw<T: DeserializeOwned>(&self) -> Result<T, UserError> {
        self.parse_raw_hinted(&|_, _, _| None)
    }

    /// [`Self::parse_raw`], with what a missing required key allows: `allowed(table,
    /// field, lang)` gets the table path without indices (`group` for `group[0]`, empty at
    /// the top) and the missing field, and gives the allowed values the kind's
    /// validation checks, which the serde shapes do not know (audit of 2026-12-07,
    /// afternoon: "missing field `rapidite`" said nothing of -12..24).
    pub fn parse_raw_hinted<T: DeserializeOwned>(
        &self,
        allowed: &MissingAllowed,
    ) -> Result<T, UserError> {
        if let Ok(root) = toml::from_str::<toml::Table>(&self.text) {
            if let Err(r) = super::texts::check_texts(&root, self.lang) {
                let path: Vec<&str> = r.path.iter().map(String::as_str).collect();
                return Err(self.error_at(&path, &r.shown, &r.message, &r.allowed));
            }
        }
        let de = toml::Deserializer::parse(&self.text).map_err(|e| self.toml_error(&e, None))?;
        serde_path_to_error::deserialize(de).map_err(|e| {
            let path = e.path().to_string();
            let err = self.toml_error(e.inner(), Some(path.clone()));
            let more = super::hints::key_hints::<T>(self, &path, e.inner().message(), allowed);
            match more {
                Some(m) => UserError::new(format!("{err}{m}")),
                None => err,
            }
        })
    }

    fn toml_error(&self, e: &toml::de::Error, path: Option<String>) -> UserError {
        let (line, col) = match (&self.original, path.as_deref()) {
            (Some(_), Some(p)) => {
                let segs: Vec<String> = super::starters::segments(p)
                    .into_iter()
                    .map(|s| match s {
                        super::starters::Seg::Key(k) => k,
                        super::starters::Seg::Index(i) => i.to_string(),
                    })
                    .collect();
                let segs: Vec<&str> = segs.iter().map(String::as_str).collect();
                self.place(&segs)
            }
            _ => e
                .span()
                .map(|s| line_col(&self.text, s.start))
                .unwrap_or((1, 1)),
        };
        let raw = e.message().trim();
        // `[run] trials` refuses 0 and more than MAX_TRIALS, which its type (u64) does not
        // say: "0 or more" was wrong (audit of 2026-12-07, evening).
        let raw = match path.as_deref() {
            Some("run.trials") => raw.replace(", expected u64", ", expected trials"),
            _ => raw.to_string(),
        };
        let raw = raw.as_str();
        let mut msg = super::message::serde_message(raw, self.lang);
        if raw == "duplicate key" {
            // Name the key: the text at the error's position, up to `=` (or a header).
            if let Some(span) = e.span() {
                let rest = &self.text[span.start.min(self.text.len())..];
                let first = rest.lines().next().unwrap_or("");
                let key = first
                    .split('=')
                    .next()
                    .unwrap_or("")
                    .trim()
                    .trim_matches(|c| c == '[' || c == ']')
                    .trim();
                if !key.is_empty() {
                    // `[weapons]` where `[[weapons]]` was meant (audit of 2026-12-07,
                    // night): "set twice; keep one" would have them drop an entry.
                    let header = |h: &str| self.text.lines().any(|l| l.trim_start().starts_with(h));
                    let list = header(&format!("[{key}]")) && header(&format!("[[{key}]]"));
                    let template = match list {
                        true => tr!(self.lang, "error.file.table_or_list"),
                        false => tr!(self.lang, "error.file.duplicate_key"),
                    };
                    msg = crate::tr_fill!(template, key = crate::limits::clip(key, self.lang));
                }
            }
        }
        let msg = crate::limits::clip_quoted(&msg, self.lang);
        match path.as_deref() {
            Some(".") | Some("") | None => {
                UserError::new(format!("{}:{line}:{col}: {msg}", self.path.display()))
            }
            Some(p) => UserError::new(tr!(
                self.lang,
                "error.frame.at_key",
                file = self.path.display(),
                line,
                col,
                key = p,
                message = msg
            )),
        }
    }

    /// Line and column of the value at `path` (or its deepest ancestor written) in the
    /// user's own text: an edited copy's errors point at the user's file, whose lines the
    /// edit (re-written by `toml`) moved.
    fn place(&self, path: &[&str]) -> (usize, usize) {
        let text = self.original.as_deref().unwrap_or(self.text.as_str());
        locate(text, path)
            .map(|off| line_col(text, off))
            .unwrap_or((1, 1))
    }

    /// An error about the value at `path` (key path segments, array indices as numbers),
    /// located in the file.
    pub fn error_at(
        &self,
        path: &[&str],
        shown_key: &str,
        message: &str,
        allowed: &str,
    ) -> UserError {
        let (line, col) = self.place(path);
        UserError::new(tr!(
            self.lang,
            "error.frame.located",
            file = self.path.display(),
            line,
            col,
            key = shown_key,
            message,
            allowed
        ))
    }

    /// An error about the value at `path` whose message already says what is allowed (a
    /// rule option's own refusal), so no second "allowed" follows it.
    pub fn error_at_key(&self, path: &[&str], shown_key: &str, message: &str) -> UserError {
        UserError::new(self.at_key(path, shown_key, message))
    }

    /// `message` about the value at `path`, located in the file and naming its key.
    fn at_key(&self, path: &[&str], shown_key: &str, message: &str) -> String {
        let (line, col) = self.place(path);
        tr!(
            self.lang,
            "error.frame.at_key",
            file = self.path.display(),
            line,
            col,
            key = shown_key,
            message
        )
    }

    /// Records a warning about the value at `path`, located like an error (kept once).
    pub fn warn_at(&self, path: &[&str], shown_key: &str, message: &str) {
        let w = self.at_key(path, shown_key, message);
        let mut all = self.warnings.lock().unwrap_or_else(|e| e.into_inner());
        if !all.contains(&w) {
            all.push(w);
        }
    }

    /// The warnings recorded so far, in the order found.
    pub fn warnings(&self) -> Vec<String> {
        self.warnings
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// `[rules]` as rule options, each checked against the registry.
    pub fn rule_options(
        &self,
        rules: &BTreeMap<String, toml::Value>,
    ) -> Result<RuleOptions, UserError> {
        let mut o = RuleOptions::default();
        for (k, v) in rules {
            let value = match v {
                toml::Value::String(s) => s.clone(),
                // An empty list is the empty set (issue 25: `apocalypse_on = []`).
                toml::Value::Array(a) if a.is_empty() => "none".to_string(),
                toml::Value::Array(a) => a
                    .iter()
                    .map(|x| {
                        x.as_str()
                            .map(str::to_string)
                            .unwrap_or_else(|| x.to_string())
                    })
                    .collect::<Vec<_>>()
                    .join(","),
                other => other.to_string(),
            };
            o.set(k, &value, self.lang).map_err(|e| {
                let (line, col) = self.place(&["rules", k]);
                UserError::new(tr!(
                    self.lang,
                    "error.frame.at_key",
                    file = self.path.display(),
                    line,
                    col,
                    key = format!("rules.{k}"),
                    message = e.0
                ))
            })?;
        }
        Ok(o)
    }
}

/// Removes the words of a file's values (see [`ScenarioFile::stream_key`]).
fn drop_words(v: &mut toml::Value) {
    match v {
        toml::Value::Table(t) => {
            for k in ["title", "question", "description"] {
                t.remove(k);
            }
            for (_, x) in t.iter_mut() {
                drop_words(x);
            }
        }
        toml::Value::Array(a) => a.iter_mut().for_each(drop_words),
        _ => {}
    }
}

/// `v` if it lies in `lo..=hi`, else a located error with the range (shared by every
/// scenario kind's validation).
pub fn int_in(
    file: &ScenarioFile,
    path: &[&str],
    shown: &str,
    v: i64,
    lo: i64,
    hi: i64,
) -> Result<i64, UserError> {
    if v < lo || v > hi {
        return Err(file.error_at(
            path,
            shown,
            &tr!(file.lang, "error.out_of_range", value = v),
            &format!("{lo}..{hi}"),
        ));
    }
    Ok(v)
}

/// [`int_in`] at a key shown as its path joined by dots (`combat.max_rounds`).
pub fn int_at(
    file: &ScenarioFile,
    path: &[&str],
    v: i64,
    lo: i64,
    hi: i64,
) -> Result<i64, UserError> {
    int_in(file, path, &path.join("."), v, lo, hi)
}

/// 1-based line and column (in characters) of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refused_text_is_located_in_the_file() {
        // texts.rs finds it; the file names its line and column (issue 24).
        let text = "system = \"x\"\n[[combatant]]\nname = \"ok\"\n[[combatant]]\nname = \"a\\u001b[31mb\"\n";
        let e = ScenarioFile::from_text("t.toml", text, crate::lang::Lang::En)
            .parse_raw::<toml::Table>()
            .unwrap_err()
            .0;
        assert!(e.starts_with("t.toml:5:8: key `combatant[1].name`"), "{e}");
        let e = ScenarioFile::from_text(
            "t.toml",
            "question = \"a\\u202eb\"\n",
            crate::lang::Lang::En,
        )
        .parse_raw::<toml::Table>()
        .unwrap_err()
        .0;
        assert!(e.starts_with("t.toml:1:12: key `question`"), "{e}");
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Toy {
        system: String,
        #[serde(default)]
        run: RunSection,
        stats: Stats,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Stats {
        force: u32,
    }

    #[test]
    fn type_error_names_line_column_and_key() {
        let f = ScenarioFile::from_text(
            "toy.toml",
            "system = \"cosmos\"\n[stats]\nforce = \"high\"\n",
            crate::lang::Lang::En,
        );
        let e = f.parse_raw::<Toy>().unwrap_err().0;
        assert!(e.starts_with("toy.toml:3:9: key `stats.force`:"), "{e}");
    }

    #[test]
    fn unknown_key_is_reported_with_alternatives() {
        let f = ScenarioFile::from_text(
            "toy.toml",
            "system = \"cosmos\"\n[stats]\nforce = 3\nforse = 4\n",
            crate::lang::Lang::En,
        );
        let e = f.parse_raw::<Toy>().unwrap_err().0;
        assert!(
            e.contains("toy.toml:4:1") && e.contains("forse") && e.contains("force"),
            "{e}"
        );
    }

    #[test]
    fn a_duplicate_key_is_named() {
        let f = ScenarioFile::from_text(
            "toy.toml",
            "system = \"cosmos\"\n[stats]\nforce = 3\nforce = 4\n",
            crate::lang::Lang::En,
        );
        let e = f.parse_raw::<Toy>().unwrap_err().0;
        assert!(
            e.contains("toy.toml:4:1") && e.contains("duplicate key `force`"),
            "{e}"
        );
        let f = ScenarioFile::from_text(
            "toy.toml",
            "system = \"a\"\n[stats]\n[stats]\n",
            crate::lang::Lang::En,
        );
        let e = f.parse_raw::<Toy>().unwrap_err().0;
        assert!(e.contains("duplicate key `stats`"), "{e}");
    }

    #[test]
    fn semantic_error_is_located() {
        let f = ScenarioFile::from_text(
            "toy.toml",
            "system = \"cosmos\"\n[stats]\nforce = 300\n",
            crate::lang::Lang::En,
        );
        let e = f
            .error_at(
                &["stats", "force"],
                "stats.force",
                "300 is out of range",
                "20..80",
            )
            .0;
        assert_eq!(
            e,
            "toy.toml:3:9: key `stats.force`: 300 is out of range; allowed: 20..80"
        );
    }

    #[test]
    fn missing_system_and_bad_rules() {
        let f = ScenarioFile::from_text(
            "toy.toml",
            "[rules]\nsuper_crit_roll = \"both\"\n",
            crate::lang::Lang::En,
        );
        assert!(f.header().unwrap_err().0.contains("missing key `system`"));
        let rules: BTreeMap<String, toml::Value> = [(
            "super_crit_roll".to_string(),
            toml::Value::String("both".into()),
        )]
        .into();
        let e = f.rule_options(&rules).unwrap_err().0;
        assert!(
            e.starts_with("toy.toml:2:19: key `rules.super_crit_roll`:"),
            "{e}"
        );
        assert!(e.contains("natural | score"), "{e}");
    }
}
