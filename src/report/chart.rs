//! Chart descriptions: plain data, rendered by the PNG exporter.

/// One PNG file: one or more panels side by side.
#[derive(Clone, Debug)]
pub struct Figure {
    /// `None` for `<name>.png`, `Some(s)` for `<name>-<s>.png`.
    pub suffix: Option<String>,
    pub panels: Vec<Chart>,
}

#[derive(Clone, Debug)]
pub enum Chart {
    Lines(LineChart),
    Heatmap(Heatmap),
    Bars(BarChart),
    /// A heatmap over named categories (axis ticks show the names).
    NamedHeatmap(NamedHeatmap),
}

/// Bars over named categories, grouped when there are several series, each bar with an
/// optional 95% interval drawn as an error bar.
#[derive(Clone, Debug, Default)]
pub struct BarChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub categories: Vec<String>,
    pub series: Vec<BarSeries>,
    /// Fixed y range; `None` starts at 0 and fits the data.
    pub y_range: Option<(f64, f64)>,
    pub legend: Legend,
}

/// One series of a [`BarChart`]: a value per category.
#[derive(Clone, Debug, Default)]
pub struct BarSeries {
    pub name: String,
    pub values: Vec<f64>,
    /// `(lo, hi)` per category, or empty for no error bars.
    pub intervals: Vec<(f64, f64)>,
}

/// Curves over a shared x axis, each with an optional interval band.
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<LineSeries>,
    /// Fixed y range (e.g. 0..1 for probabilities); `None` fits the data.
    pub y_range: Option<(f64, f64)>,
    /// Where the legend goes; an upper legend gets headroom above fitted data.
    pub legend: Legend,
}

/// Corner of the legend box.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Legend {
    UpperLeft,
    UpperRight,
    LowerLeft,
    #[default]
    LowerRight,
}

#[derive(Clone, Debug, Default)]
pub struct LineSeries {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// (x, lo, hi) for a shaded 95% interval.
    pub band: Vec<(f64, f64, f64)>,
}

/// Values on an integer grid, one colour per cell.
#[derive(Clone, Debug, Default)]
pub struct Heatmap {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub xs: Vec<i64>,
    pub ys: Vec<i64>,
    /// `values[iy][ix]`.
    pub values: Vec<Vec<f64>>,
    /// Range the colour scale spans.
    pub range: (f64, f64),
}

/// A [`Heatmap`] whose columns and rows are named categories (e.g. primes and
/// pénalités) rather than numbers: `x_names[ix]` labels column `map.xs[ix]`,
/// `y_names[iy]` labels row `map.ys[iy]`.
#[derive(Clone, Debug, Default)]
pub struct NamedHeatmap {
    pub map: Heatmap,
    pub x_names: Vec<String>,
    pub y_names: Vec<String>,
}
