use std::path::Path;

use polars::prelude::*;

use super::atomic::replace_with;

/// Digits after the point for probabilities and means: enough to check exact values by
/// hand, stable across platforms.
const FLOAT_PRECISION: usize = 10;

/// The CSV text of a frame (header + rows, `\n` line ends).
pub fn csv_string(frame: &mut DataFrame) -> anyhow::Result<String> {
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf)
        .include_header(true)
        .with_float_precision(Some(FLOAT_PRECISION))
        .finish(frame)?;
    Ok(String::from_utf8(buf)?)
}

/// Writes a frame as CSV, atomically.
pub fn write_csv(frame: &mut DataFrame, path: &Path) -> anyhow::Result<()> {
    replace_with(path, |tmp| {
        let mut f = std::fs::File::create(tmp)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
        CsvWriter::new(&mut f)
            .include_header(true)
            .with_float_precision(Some(FLOAT_PRECISION))
            .finish(frame)?;
        Ok(())
    })
}

/// A whole-number column read off each row.
pub fn int_column<R>(name: &str, rows: &[R], f: impl Fn(&R) -> i64) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<i64>>())
}

/// A real-number column read off each row.
pub fn float_column<R>(name: &str, rows: &[R], f: impl Fn(&R) -> f64) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<f64>>())
}
