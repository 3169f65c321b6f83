//! Curve helpers shared by the 2d20 charts.

use crate::report::{LineChart, LineSeries};

/// A probability chart over target numbers.
pub(crate) fn tn_chart(title: &str, y_label: &str, y_range: Option<(f64, f64)>) -> LineChart {
    LineChart {
        title: title.into(),
        x_label: crate::tr!("fallout.tables.tn_axis").into(),
        y_label: y_label.into(),
        y_range,
        ..Default::default()
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
