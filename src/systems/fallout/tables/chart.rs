//! Curve helpers shared by the 2d20 charts.

use crate::lang::Lang;
use crate::report::{LineChart, LineSeries};

/// A probability chart over target numbers.
pub(crate) fn tn_chart(
    lang: Lang,
    title: &str,
    y_label: &str,
    y_range: Option<(f64, f64)>,
) -> LineChart {
    LineChart {
        title: title.into(),
        x_label: tr!(lang, "fallout.tables.tn_axis").into(),
        y_label: y_label.into(),
        y_range,
        ..Default::default()
    }
}

/// The difficulty a chart drawn at one difficulty reads: 2 when the grid has it, else the
/// grid's last.
pub(crate) fn chart_difficulty(difficulties: &[u8]) -> u8 {
    if difficulties.contains(&2) {
        2
    } else {
        *difficulties.last().unwrap_or(&0)
    }
}

/// A curve of the rows `pick` keeps, x and y read by `xy`; skipped if empty.
pub(crate) fn push_series<R>(
    chart: &mut LineChart,
    name: String,
    rows: &[R],
    pick: impl Fn(&R) -> bool,
    xy: impl Fn(&R) -> (f64, f64),
    band: impl Fn(&R) -> Option<(f64, f64)>,
) {
    let mut s = LineSeries {
        name,
        ..Default::default()
    };
    for r in rows.iter().filter(|r| pick(r)) {
        let (x, y) = xy(r);
        s.points.push((x, y));
        if let Some((lo, hi)) = band(r) {
            s.band.push((x, lo, hi));
        }
    }
    if !s.points.is_empty() {
        chart.series.push(s);
    }
}
