//! Chart descriptions: plain data, rendered by the PNG exporter. The decisions that keep a
//! chart honest (how x values are drawn, which series coincide and how they are told
//! apart, where labels go) are made here, on data, so they can be tested without pixels.

use crate::lang::Lang;
use crate::stats::Estimate;

use super::line_chart::LineChart;

/// One PNG file: one or more panels side by side.
#[derive(Clone, Debug)]
pub struct Figure {
    /// `None` for `<name>.png`, `Some(s)` for `<name>-<s>.png`.
    pub suffix: Option<String>,
    pub panels: Vec<Chart>,
}

impl Figure {
    /// The figure `<name>.png` of an output: `panels` side by side, no suffix.
    pub fn new(panels: Vec<Chart>) -> Figure {
        Figure {
            suffix: None,
            panels,
        }
    }

    /// The file name of this figure for an output named `name`.
    pub fn file_name(&self, name: &str) -> String {
        match &self.suffix {
            Some(s) => format!("{name}-{s}.png"),
            None => format!("{name}.png"),
        }
    }

    /// What the figure shows, in words (a page's alt text): each panel's title with what
    /// it plots against what, so two charts of one output never share a description.
    pub fn alt(&self, lang: Lang) -> String {
        self.panels
            .iter()
            .map(|p| {
                let (title, x, y) = match p {
                    Chart::Lines(c) => (&c.title, &c.x_label, &c.y_label),
                    Chart::Heatmap(h) => (&h.title, &h.x_label, &h.y_label),
                    Chart::Bars(b) => (&b.title, &b.x_label, &b.y_label),
                };
                if x.is_empty() || y.is_empty() {
                    title.clone()
                } else {
                    tr!(lang, "page.chart_alt", title, y, x)
                }
            })
            .collect::<Vec<_>>()
            .join(" · ")
    }
}

#[derive(Clone, Debug)]
pub enum Chart {
    Lines(LineChart),
    Heatmap(Heatmap),
    Bars(BarChart),
}

/// Bars over named categories, grouped when there are several series, each bar with an
/// optional 95% interval drawn as an error bar. The legend (several series or a named
/// one) is drawn in a band below the plot, never over the bars.
#[derive(Clone, Debug, Default)]
pub struct BarChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<BarSeries>,
    /// Fixed y range; `None` starts at 0 and fits the data.
    pub y_range: Option<(f64, f64)>,
}

/// One series of a [`BarChart`]: a value per category.
#[derive(Clone, Debug, Default)]
pub struct BarSeries {
    pub name: String,
    pub values: Vec<f64>,
    /// `(lo, hi)` per category, or empty for no error bars.
    pub intervals: Vec<(f64, f64)>,
}

impl BarSeries {
    /// A bar per row, its height read off the row by `f`; no error bars.
    pub fn of<R>(name: impl Into<String>, rows: &[R], f: impl Fn(&R) -> f64) -> BarSeries {
        BarSeries {
            name: name.into(),
            values: rows.iter().map(f).collect(),
            intervals: vec![],
        }
    }

    /// A bar per row with its 95% interval: `f` reads the figure off the row.
    pub fn with_intervals<R, E: Into<Estimate>>(
        name: impl Into<String>,
        rows: &[R],
        f: impl Fn(&R) -> E,
    ) -> BarSeries {
        let (values, intervals) = rows
            .iter()
            .map(|r| {
                let e: Estimate = f(r).into();
                (e.value, (e.lo, e.hi))
            })
            .unzip();
        BarSeries {
            name: name.into(),
            values,
            intervals,
        }
    }
}

/// Values on a grid of named rows and columns, one colour per cell.
#[derive(Clone, Debug, Default)]
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    /// Column labels, left to right: the values, never indices.
    pub columns: Vec<String>,
    /// Row labels, bottom to top.
    pub rows: Vec<String>,
    /// `values[row][column]`; NaN marks a cell with no value (drawn grey).
    pub values: Vec<Vec<f64>>,
    /// Range the colour scale spans.
    pub range: (f64, f64),
}

impl Heatmap {
    /// Labels from any printable values.
    pub fn labels<T: std::fmt::Display>(values: &[T]) -> Vec<String> {
        values.iter().map(|v| v.to_string()).collect()
    }

    /// Every row has one value per column and every row and column has a label.
    pub fn is_consistent(&self) -> bool {
        self.values.len() == self.rows.len()
            && self.values.iter().all(|r| r.len() == self.columns.len())
    }
}

/// Entries of a legend band laid out in rows that fit `width` pixels, with about
/// `char_px` per character and `sample_px` for the line sample: indices per row.
pub fn legend_rows(names: &[String], width: u32, char_px: u32, sample_px: u32) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = vec![];
    let mut used = 0;
    for (i, name) in names.iter().enumerate() {
        let w = entry_width(name, char_px, sample_px);
        match rows.last_mut() {
            Some(row) if used + w <= width => {
                row.push(i);
                used += w;
            }
            _ => {
                rows.push(vec![i]);
                used = w;
            }
        }
    }
    rows
}

/// Width of one legend entry in pixels: sample, gap, text, trailing gap.
pub fn entry_width(name: &str, char_px: u32, sample_px: u32) -> u32 {
    sample_px + 6 + char_px * name.chars().count() as u32 + 18
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_figure_says_what_it_plots() {
        let fig = Figure {
            suffix: Some("rounds".into()),
            panels: vec![
                Chart::Lines(LineChart {
                    title: "Win rate".into(),
                    x_label: "HP".into(),
                    y_label: "share".into(),
                    ..Default::default()
                }),
                Chart::Bars(BarChart {
                    title: "Rounds".into(),
                    ..Default::default()
                }),
            ],
        };
        assert_eq!(
            fig.alt(Lang::En),
            "Chart: Win rate, share against HP · Rounds"
        );
        assert_eq!(fig.file_name("combat"), "combat-rounds.png");
    }

    #[test]
    fn legend_rows_fit_the_width() {
        let names: Vec<String> = (0..9).map(|i| format!("series number {i}")).collect();
        let rows = legend_rows(&names, 700, 8, 26);
        assert!(rows.len() > 1);
        for row in &rows {
            let w: u32 = row.iter().map(|&i| entry_width(&names[i], 8, 26)).sum();
            assert!(w <= 700 || row.len() == 1);
        }
        assert_eq!(rows.iter().flatten().count(), 9);
    }

    #[test]
    fn heatmap_labels_match_the_grid() {
        let h = Heatmap {
            columns: Heatmap::labels(&[-10, -5, 0]),
            rows: Heatmap::labels(&["d4", "d6"]),
            values: vec![vec![0.0; 3]; 2],
            ..Default::default()
        };
        assert!(h.is_consistent());
        assert_eq!(h.columns[1], "-5");
        let bad = Heatmap { rows: vec![], ..h };
        assert!(!bad.is_consistent());
    }
}
