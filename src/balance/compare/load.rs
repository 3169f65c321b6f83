//! An output folder as `compare` sees it: every `<name>.csv` that has a `<name>.meta.json`
//! beside it (so expect.csv, compare.csv and designer files are left out), keyed by its
//! path below the folder.

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

fn csv_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            let hidden = p
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'));
            if hidden {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "csv") {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

/// Reads every output of `dir`.
pub fn load_folder(dir: &Path) -> anyhow::Result<BTreeMap<String, Loaded>> {
    if !dir.is_dir() {
        return Err(UserError::new(format!(
            "{}: not a folder; allowed: an output folder of report, run, table or sweep",
            dir.display()
        ))
        .into());
    }
    let mut out = BTreeMap::new();
    for csv in csv_files(dir) {
        let meta_path = csv.with_extension("meta.json");
        let Ok(meta_text) = std::fs::read_to_string(&meta_path) else {
            continue;
        };
        let meta: serde_json::Value = serde_json::from_str(&meta_text).map_err(|e| {
            UserError::new(format!(
                "{}: not a provenance file: {e}",
                meta_path.display()
            ))
        })?;
        let frame = CsvReadOptions::default()
            .with_has_header(true)
            .with_infer_schema_length(None)
            .try_into_reader_with_file_path(Some(csv.clone()))
            .and_then(|r| r.finish())
            .map_err(|e| UserError::new(format!("{}: cannot read CSV: {e}", csv.display())))?;
        let rel = csv
            .strip_prefix(dir)
            .unwrap_or(&csv)
            .with_extension("")
            .display()
            .to_string();
        out.insert(rel, Loaded { frame, meta });
        if out.len() > MAX_COMPARE_OUTPUTS {
            return Err(UserError::new(format!(
                "{}: more than {MAX_COMPARE_OUTPUTS} outputs; allowed: 1..{MAX_COMPARE_OUTPUTS}",
                dir.display()
            ))
            .into());
        }
    }
    if out.is_empty() {
        return Err(UserError::new(format!(
            "{}: no outputs (no <name>.csv with a <name>.meta.json); allowed: an output folder of report, run, table or sweep",
            dir.display()
        ))
        .into());
    }
    Ok(out)
}
