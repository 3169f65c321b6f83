//! "In which round does the fight end?": the table and chart every fight scenario shows.

use crate::lang::Lang;
use polars::prelude::DataFrame;

use super::{float_column, int_column, LineChart, LineSeries};

/// From (round, fights that ended in it) and the number of fights: the frame
/// `round,p_end,p_ended_by` and its chart, titled "Round in which the `what` ends".
pub fn end_rounds(
    rounds: impl IntoIterator<Item = (i64, u64)>,
    fights: u64,
    what: &str,
    lang: Lang,
) -> anyhow::Result<(DataFrame, LineChart)> {
    let nf = fights as f64;
    let mut cum = 0u64;
    let rows: Vec<(i64, f64, f64)> = rounds
        .into_iter()
        .map(|(r, c)| {
            cum += c;
            (r, c as f64 / nf, cum as f64 / nf)
        })
        .collect();
    let frame = DataFrame::new_infer_height(vec![
        int_column("round", &rows, |r| r.0),
        float_column("p_end", &rows, |r| r.1),
        float_column("p_ended_by", &rows, |r| r.2),
    ])?;
    let series = |name: &str, f: fn(&(i64, f64, f64)) -> f64| LineSeries {
        name: name.into(),
        points: rows.iter().map(|r| (r.0 as f64, f(r))).collect(),
        band: vec![],
    };
    let chart = LineChart {
        x_kind: Default::default(),
        title: tr!(lang, "chart.rounds_title", what),
        x_label: tr!(lang, "chart.round").into(),
        y_label: tr!(lang, "chart.probability").into(),
        series: vec![
            series(tr!(lang, "chart.ends_in_round"), |r| r.1),
            series(tr!(lang, "chart.ended_by_round"), |r| r.2),
        ],
        y_range: Some((0.0, 1.0)),
    };
    Ok((frame, chart))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_and_running_totals() {
        let (frame, chart) = end_rounds([(1, 1), (2, 3)], 4, "duel", Lang::En).unwrap();
        let text = crate::report::csv_string(&mut frame.clone()).unwrap();
        assert_eq!(
            text,
            "round,p_end,p_ended_by\n1,0.2500000000,0.2500000000\n2,0.7500000000,1.0000000000\n"
        );
        assert_eq!(chart.title, "Round in which the duel ends");
        assert_eq!(chart.series[1].points, vec![(1.0, 0.25), (2.0, 1.0)]);
    }
}
