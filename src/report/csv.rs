use crate::lang::Lang;
use std::path::Path;

use polars::prelude::*;

use super::atomic::replace_with;

/// Digits after the point for probabilities and means: enough to check exact values by
/// hand, stable across platforms.
const FLOAT_PRECISION: usize = 10;

/// The CSV text of a frame (header + rows, `\n` line ends).
pub fn csv_string(frame: &mut DataFrame) -> anyhow::Result<String> {
    undefined_as_empty(frame)?;
    let mut buf = Vec::new();
    CsvWriter::new(&mut buf)
        .include_header(true)
        .with_float_precision(Some(FLOAT_PRECISION))
        .finish(frame)?;
    Ok(String::from_utf8(buf)?)
}

/// Writes a frame as CSV, atomically.
pub fn write_csv(frame: &mut DataFrame, path: &Path, lang: Lang) -> anyhow::Result<()> {
    undefined_as_empty(frame)?;
    replace_with(
        path,
        |tmp| {
            let mut f = std::fs::File::create(tmp)?;
            CsvWriter::new(&mut f)
                .include_header(true)
                .with_float_precision(Some(FLOAT_PRECISION))
                .finish(frame)?;
            Ok(())
        },
        lang,
    )
}

/// Half the last digit a CSV prints: a value above `-ZERO_BELOW` and below 0 prints as
/// zero.
const ZERO_BELOW: f64 = 0.5e-10;

/// Floats as a CSV should read them. An undefined figure (NaN: a rate of 0 events out of
/// 0) is written as an empty cell, never as a number a script could mistake for 0. An
/// unbounded side of an interval (±inf: a mean whose trials show no spread, audit of
/// 2026-12-07) is an empty cell too, as a quantile's half-open side is (issue 26 item 3),
/// never `inf`, which some readers take for text. A value
/// that prints as zero prints `0.0000000000`, never `-0.0000000000` (an empty float sum is
/// -0.0, and a difference of equal sums can be -1e-17; audit of 2026-12-06).
fn undefined_as_empty(frame: &mut DataFrame) -> anyhow::Result<()> {
    let names: Vec<PlSmallStr> = frame
        .columns()
        .iter()
        .filter(|c| c.dtype() == &DataType::Float64)
        .map(|c| c.name().clone())
        .collect();
    let negative_zero = |x: f64| x.is_sign_negative() && x > -ZERO_BELOW;
    for name in names {
        let ca = frame.column(&name)?.f64()?;
        if !ca
            .iter()
            .flatten()
            .any(|x| !x.is_finite() || negative_zero(x))
        {
            continue;
        }
        let cleaned: Float64Chunked = ca
            .iter()
            .map(|x| match x {
                Some(x) if !x.is_finite() => None,
                Some(x) if negative_zero(x) => Some(0.0),
                x => x,
            })
            .collect();
        frame.with_column(cleaned.with_name(name).into_column())?;
    }
    Ok(())
}

/// A column of any type polars stores, read off each row.
pub fn column<R, T>(name: &str, rows: &[R], f: impl Fn(&R) -> T) -> Column
where
    Series: NamedFrom<Vec<T>, [T]>,
{
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<T>>())
}

/// A whole-number column read off each row.
pub fn int_column<R>(name: &str, rows: &[R], f: impl Fn(&R) -> i64) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<i64>>())
}

/// A text column read off each row (names, sides, outcomes).
pub fn text_column<R>(name: &str, rows: &[R], f: impl Fn(&R) -> &str) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<&str>>())
}

/// A real-number column read off each row.
pub fn float_column<R>(name: &str, rows: &[R], f: impl Fn(&R) -> f64) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<f64>>())
}

/// The three columns `name`, `name_lo`, `name_hi` of a figure with its 95% interval, read
/// off each row: the one way an output writes an estimate ([`crate::stats::Estimate`]; a
/// share's [`crate::stats::Proportion`] converts to it).
pub fn interval_columns<R, E: Into<crate::stats::Estimate>>(
    name: &str,
    rows: &[R],
    f: impl Fn(&R) -> E,
) -> [Column; 3] {
    let (mut v, mut lo, mut hi) = (
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
        Vec::with_capacity(rows.len()),
    );
    for r in rows {
        let e: crate::stats::Estimate = f(r).into();
        v.push(e.value);
        lo.push(e.lo);
        hi.push(e.hi);
    }
    [
        Column::new(name.into(), v),
        Column::new(format!("{name}_lo").into(), lo),
        Column::new(format!("{name}_hi").into(), hi),
    ]
}

/// Real-number columns filled a row at a time, in the order of their first value (a
/// per-day table whose figures are computed day by day).
#[derive(Default)]
pub struct FloatColumns(Vec<(String, Vec<f64>)>);

impl FloatColumns {
    pub fn push(&mut self, name: &str, v: f64) {
        match self.0.iter_mut().find(|c| c.0 == name) {
            Some(c) => c.1.push(v),
            None => self.0.push((name.to_string(), vec![v])),
        }
    }

    /// A figure with its 95% interval in the columns `name`, `name_lo`, `name_hi` (as
    /// [`interval_columns`] names them); returns it for a chart.
    pub fn interval(
        &mut self,
        name: &str,
        e: impl Into<crate::stats::Estimate>,
    ) -> crate::stats::Estimate {
        let e = e.into();
        self.push(name, e.value);
        self.push(&format!("{name}_lo"), e.lo);
        self.push(&format!("{name}_hi"), e.hi);
        e
    }

    pub fn into_columns(self) -> impl Iterator<Item = Column> {
        self.0.into_iter().map(|(n, v)| Column::new(n.into(), v))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_undefined_rate_is_an_empty_cell_not_zero() {
        let mut df = DataFrame::new_infer_height(vec![
            Column::new("count".into(), vec![0u64, 3]),
            Column::new("rate".into(), vec![f64::NAN, 0.5]),
        ])
        .unwrap();
        let text = csv_string(&mut df).unwrap();
        assert_eq!(text, "count,rate\n0,\n3,0.5000000000\n");
    }

    /// An unbounded side (a mean whose trials all agree) is an empty cell, as a
    /// quantile's half-open side is; `lookup::value_at` reads it back as unbounded.
    #[test]
    fn an_unbounded_side_is_an_empty_cell_not_inf() {
        let mut df = DataFrame::new_infer_height(vec![
            Column::new("m".into(), vec![0.0, 1.5]),
            Column::new("m_lo".into(), vec![f64::NEG_INFINITY, 1.0]),
            Column::new("m_hi".into(), vec![f64::INFINITY, 2.0]),
        ])
        .unwrap();
        let text = csv_string(&mut df).unwrap();
        assert_eq!(
            text,
            "m,m_lo,m_hi\n0.0000000000,,\n1.5000000000,1.0000000000,2.0000000000\n"
        );
    }

    /// -0.0 (an empty sum) and -1e-17 (a difference of equal sums) print as 0, a value
    /// that prints as a digit keeps its sign, and a null stays empty.
    #[test]
    fn a_value_that_prints_as_zero_has_no_sign() {
        let mut df = DataFrame::new_infer_height(vec![Column::new(
            "p".into(),
            vec![Some(-0.0), Some(-1e-17), Some(-6e-11), None, Some(0.25)],
        )])
        .unwrap();
        let text = csv_string(&mut df).unwrap();
        assert_eq!(
            text,
            "p\n0.0000000000\n0.0000000000\n-0.0000000001\n\n0.2500000000\n"
        );
    }

    #[test]
    fn an_estimate_is_three_columns_named_after_it() {
        let rows = [(1u64, 4u64), (0, 0)];
        let cols = interval_columns("share", &rows, |&(h, n)| {
            crate::stats::Proportion::new(h, n)
        });
        let mut df = DataFrame::new_infer_height(cols.to_vec()).unwrap();
        let text = csv_string(&mut df).unwrap();
        let (lo, hi) = crate::stats::wilson(1, 4);
        assert_eq!(
            text,
            format!("share,share_lo,share_hi\n0.2500000000,{lo:.10},{hi:.10}\n,,\n")
        );
    }
}
