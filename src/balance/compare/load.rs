//! An output folder as `compare` sees it: every `<name>.csv` that has a `<name>.meta.json`
//! beside it, keyed by its path below the folder. Designer files (no sidecar) and the
//! reports of `expect` and `compare` (a sidecar naming its `command`) are left out.

use crate::lang::Lang;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::error::UserError;
use crate::limits::MAX_COMPARE_OUTPUTS;
use crate::report::{Output, Provenance};

/// One output read back from disk.
pub struct Loaded {
    pub frame: DataFrame,
    pub meta: serde_json::Value,
}

impl Loaded {
    pub fn method(&self) -> &str {
        self.meta["method"].as_str().unwrap_or("exact")
    }

    /// An `Output` wrapper so the figure roles of `figures.rs` apply.
    pub fn as_output(&self, name: &str) -> Output {
        let mut p = Provenance::exact(name, "", Default::default());
        p.method = self.method().to_string();
        p.trials = self.meta["trials"].as_u64();
        Output {
            name: name.to_string(),
            title: String::new(),
            question: String::new(),
            frame: self.frame.clone(),
            figures: Vec::new(),
            key_figures: Vec::new(),
            provenance: p,
        }
    }
}

/// Every `.csv` below `dir`, hidden entries left out. Folders are entered only when they
/// are real folders (a symlink to `..` would loop); a `.csv` of any kind is listed, so a
/// FIFO or a link out of the folder is refused by name when read, never opened.
fn csv_files(dir: &Path) -> Vec<PathBuf> {
    let hidden = |p: &Path| {
        p.file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'))
    };
    crate::input::files_below(
        dir,
        |e| !hidden(&e.path()) && e.file_type().is_ok_and(|t| t.is_dir()),
        |p| !hidden(p) && p.extension().is_some_and(|x| x == "csv"),
    )
}

/// The bytes of `file`, a regular file inside `dir` of at most
/// [`crate::input::MAX_TABLE_BYTES`]; `None` when it does not exist.
fn read_inside(dir: &Path, file: &Path, lang: Lang) -> Result<Option<Vec<u8>>, UserError> {
    let refused = |e: crate::input::Refused| {
        UserError::new(tr!(
            lang,
            "safety.files.compare_refused",
            file = file.display(),
            why = e.text(lang)
        ))
    };
    match crate::input::confine(file, &[dir]) {
        Err(e) if e.is_missing() => return Ok(None),
        Err(e) => return Err(refused(e)),
        Ok(_) => {}
    }
    crate::input::read_file(file, crate::input::MAX_TABLE_BYTES)
        .map(Some)
        .map_err(refused)
}

/// Reads every output of `dir`.
pub fn load_folder(dir: &Path, lang: Lang) -> anyhow::Result<BTreeMap<String, Loaded>> {
    if !dir.is_dir() {
        return Err(UserError::new(tr!(lang, "compare.not_a_folder", dir = dir.display())).into());
    }
    let mut out = BTreeMap::new();
    for csv in csv_files(dir) {
        let meta_path = csv.with_extension("meta.json");
        let Some(meta_bytes) = read_inside(dir, &meta_path, lang)? else {
            continue;
        };
        let meta: serde_json::Value = serde_json::from_slice(&meta_bytes).map_err(|e| {
            UserError::new(tr!(
                lang,
                "compare.not_provenance",
                file = meta_path.display(),
                error = e
            ))
        })?;
        if super::meta::is_command_record(&meta) {
            continue;
        }
        let Some(csv_bytes) = read_inside(dir, &csv, lang)? else {
            continue;
        };
        let frame = CsvReadOptions::default()
            .with_has_header(true)
            .with_infer_schema_length(None)
            .into_reader_with_file_handle(std::io::Cursor::new(csv_bytes))
            .finish()
            .map_err(|e| {
                UserError::new(tr!(
                    lang,
                    "compare.bad_csv",
                    file = csv.display(),
                    error = e
                ))
            })?;
        let rel = csv
            .strip_prefix(dir)
            .unwrap_or(&csv)
            .with_extension("")
            .display()
            .to_string();
        out.insert(rel, Loaded { frame, meta });
        if out.len() > MAX_COMPARE_OUTPUTS {
            return Err(UserError::new(tr!(
                lang,
                "compare.too_many_outputs",
                dir = dir.display(),
                max = MAX_COMPARE_OUTPUTS
            ))
            .into());
        }
    }
    if out.is_empty() {
        return Err(UserError::new(tr!(lang, "compare.no_outputs", dir = dir.display())).into());
    }
    Ok(out)
}
