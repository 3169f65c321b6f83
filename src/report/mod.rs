//! Everything the tool writes: one exporter per format (CSV via polars, PNG via plotters,
//! provenance JSON, the Markdown index), all writing through a temp file and a rename so a
//! failed run never leaves a half-written output behind.

mod atomic;
mod chart;
mod cross_check;
mod csv;
mod index;
mod indexed;
mod line_chart;
mod markdown;
mod meta;
mod page;
mod png;
mod rounds;

pub use atomic::{create_dir, write_atomic, write_error};
pub use chart::{BarChart, BarSeries, Chart, Figure, Heatmap};
pub use cross_check::{class_columns, coverage, Coverage};
pub use csv::{
    column, csv_string, float_column, int_column, interval_columns, text_column, write_csv,
    FloatColumns,
};
pub use index::{write_index, IndexEntry};
pub use line_chart::{LineChart, LineSeries, XKind};
pub use markdown::{is_bidi_control, md_code, md_code_cell, md_text};
pub use meta::{file_sha256, param_text, range_text, Provenance, ScenarioRef, T_DF_PARAM};
pub use page::{charts_section, to_html, write_page};
pub use png::{number_label, png_bytes, render_png};
pub use rounds::end_rounds;

use crate::lang::Lang;
use std::path::{Path, PathBuf};

use polars::prelude::DataFrame;

/// One table or scenario result, ready to export.
#[derive(Clone)]
pub struct Output {
    /// File stem: `<name>.csv`, `<name>.png`, `<name>.meta.json`.
    pub name: String,
    pub title: String,
    /// The question the output answers, in a designer's words.
    pub question: String,
    pub frame: DataFrame,
    pub figures: Vec<Figure>,
    /// Headline numbers for the index.
    pub key_figures: Vec<String>,
    pub provenance: Provenance,
}

impl Output {
    /// Writes CSV, PNGs and provenance into `dir`; returns the paths written.
    pub fn write(&mut self, dir: &Path, lang: Lang) -> anyhow::Result<Vec<PathBuf>> {
        atomic::create_dir(dir, lang)?;
        let mut written = Vec::new();
        let csv_path = dir.join(format!("{}.csv", self.name));
        write_csv(&mut self.frame, &csv_path, lang)?;
        written.push(csv_path);
        for fig in &self.figures {
            let path = dir.join(fig.file_name(&self.name));
            render_png(fig, &path, lang)?;
            written.push(path);
        }
        let meta_path = dir.join(format!("{}.meta.json", self.name));
        self.provenance.write(&meta_path, lang)?;
        written.push(meta_path);
        Ok(written)
    }

    pub fn index_entry(&self) -> IndexEntry {
        IndexEntry {
            name: self.name.clone(),
            title: self.title.clone(),
            question: self.question.clone(),
            key_figures: self.key_figures.clone(),
            files: std::iter::once(format!("{}.csv", self.name))
                .chain(self.figures.iter().map(|f| f.file_name(&self.name)))
                .chain(std::iter::once(format!("{}.meta.json", self.name)))
                .collect(),
            provenance: self.provenance.clone(),
        }
    }
}
