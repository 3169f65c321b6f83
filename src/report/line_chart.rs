//! Line charts as data: what the x values are, each series' marker, dash and dodge, which
//! series coincide (and how they are told apart), and the axis ranges drawn.

use crate::lang::Lang;

/// Curves over a shared numeric x axis, each with an optional interval. The legend is
/// drawn in a band below the plot, never over the data.
#[derive(Clone, Debug, Default)]
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<LineSeries>,
    /// Fixed y range (e.g. 0..1 for probabilities); `None` fits the data.
    pub y_range: Option<(f64, f64)>,
    /// What the x values are; decides lines or points, markers and ticks.
    pub x_kind: XKind,
}

/// What the x values of a [`LineChart`] are. Categories are not an x kind: they are a
/// [`BarChart`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum XKind {
    /// A dense or exact grid where a curve is the truth between points: lines (with
    /// thinned markers when several series must be told apart), shaded bands.
    #[default]
    Continuous,
    /// Real values that were each simulated: lines with a marker at every simulated x,
    /// so the eye can tell measured points from interpolation.
    Sampled,
    /// Whole numbers (levels, HP): a marker at each value with its interval as an error
    /// bar, integer ticks, and no line suggesting values in between.
    Integer,
}

#[derive(Clone, Debug, Default)]
pub struct LineSeries {
    pub name: String,
    pub points: Vec<(f64, f64)>,
    /// (x, lo, hi) for a 95% interval (a shaded band, or error bars for integer x).
    pub band: Vec<(f64, f64, f64)>,
}

/// Marker shapes, one per series, so series differ by more than colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Marker {
    Circle,
    Triangle,
    Square,
    Diamond,
    Cross,
    Ring,
}

const MARKERS: [Marker; 6] = [
    Marker::Circle,
    Marker::Triangle,
    Marker::Square,
    Marker::Diamond,
    Marker::Cross,
    Marker::Ring,
];

/// Line pattern: a series drawn over one it coincides with is dashed so both show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dash {
    Solid,
    /// Dash length and gap in pixels.
    Dashed(u32, u32),
}

const DASHES: [Dash; 4] = [
    Dash::Solid,
    Dash::Dashed(10, 6),
    Dash::Dashed(3, 5),
    Dash::Dashed(18, 8),
];

/// How one series of a [`LineChart`] is drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct SeriesStyle {
    /// Palette index.
    pub colour: usize,
    pub marker: Marker,
    pub dash: Dash,
    /// The first earlier series this one coincides with (same values within 1% of the
    /// y span at every shared x): the legend says so.
    pub same_as: Option<usize>,
    /// Indices of the points that get a marker.
    pub marked: Vec<usize>,
    /// Horizontal offset (in x units) so points at one x do not hide each other.
    pub dodge: f64,
    pub legend: String,
}

/// Two series coincide when they share at least one x and differ by at most `tol` at
/// every shared x (x compared to 1e-9).
pub fn coincide(a: &LineSeries, b: &LineSeries, tol: f64) -> bool {
    let mut shared = 0;
    for &(x, y) in &a.points {
        if let Some(&(_, y2)) = b.points.iter().find(|p| (p.0 - x).abs() < 1e-9) {
            shared += 1;
            if !((y - y2).abs() <= tol || (y.is_nan() && y2.is_nan())) {
                return false;
            }
        }
    }
    shared > 0
}

/// Most markers a `Continuous` series gets; more would turn into a thick line.
const MAX_THINNED_MARKERS: usize = 14;

impl LineChart {
    /// The y range drawn: the fixed one, or the data and bands with 5% padding.
    pub fn y_bounds(&self) -> (f64, f64) {
        if let Some(r) = self.y_range {
            return r;
        }
        let ys = self.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.1)
                .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
        });
        let (a, b) = ys
            .filter(|y| y.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
                (a.min(y), b.max(y))
            });
        if a.is_finite() {
            padded(a, b)
        } else {
            (0.0, 1.0)
        }
    }

    /// The x range drawn, with room for dodged integer points.
    pub fn x_bounds(&self) -> (f64, f64) {
        let (a, b) = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
                (a.min(x), b.max(x))
            });
        if !a.is_finite() {
            return (0.0, 1.0);
        }
        match self.x_kind {
            // Half a step of margin: the end points are not glued to the frame.
            XKind::Integer => {
                let m = 0.5 * self.x_step();
                (a - m, b + m)
            }
            _ => span(a, b),
        }
    }

    /// Smallest gap between distinct x values (1 when there is a single x).
    fn x_step(&self) -> f64 {
        let mut xs: Vec<f64> = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .collect();
        xs.sort_by(f64::total_cmp);
        xs.dedup_by(|a, b| (*a - *b).abs() < 1e-9);
        let gap = xs
            .windows(2)
            .map(|w| w[1] - w[0])
            .fold(f64::INFINITY, f64::min);
        if gap.is_finite() && gap > 0.0 {
            gap
        } else {
            1.0
        }
    }

    /// Style of every series: a colour and marker each; a series that coincides with an
    /// earlier one gets the next dash pattern of its group, drawn over it, and a legend
    /// naming the series it hides.
    pub fn styles(&self, lang: Lang) -> Vec<SeriesStyle> {
        let (y0, y1) = self.y_bounds();
        let tol = 0.01 * (y1 - y0).abs();
        let n = self.series.len();
        let mut group_size: Vec<usize> = vec![0; n];
        let step = self.x_step();
        self.series
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let same_as = (0..i).find(|&k| coincide(&self.series[k], s, tol));
                let root = same_as.map_or(i, |k| {
                    // Group under the first series of the chain.
                    let mut r = k;
                    while let Some(up) =
                        (0..r).find(|&j| coincide(&self.series[j], &self.series[r], tol))
                    {
                        r = up;
                    }
                    r
                });
                let rank = group_size[root];
                group_size[root] += 1;
                let dash = DASHES[rank % DASHES.len()];
                let marked = match self.x_kind {
                    XKind::Integer | XKind::Sampled => (0..s.points.len()).collect(),
                    XKind::Continuous if n > 1 || same_as.is_some() => {
                        thinned(s.points.len(), i, n)
                    }
                    XKind::Continuous => vec![],
                };
                let dodge = if self.x_kind == XKind::Integer && n > 1 {
                    // Spread the series over 30% of a step, centred on the value.
                    step * 0.3 * (i as f64 / (n - 1) as f64 - 0.5)
                } else {
                    0.0
                };
                let legend = match same_as {
                    Some(k) => tr!(
                        lang,
                        "chart.coincides",
                        name = s.name,
                        other = self.series[k].name
                    ),
                    None => s.name.clone(),
                };
                SeriesStyle {
                    colour: i,
                    marker: MARKERS[i % MARKERS.len()],
                    dash,
                    same_as,
                    marked,
                    dodge,
                    legend,
                }
            })
            .collect()
    }

    /// Whether a legend is drawn: several series or a named one.
    pub fn has_legend(&self) -> bool {
        self.series.len() > 1 || self.series.iter().any(|s| !s.name.is_empty())
    }
}

/// At most [`MAX_THINNED_MARKERS`] evenly spaced point indices; series `i` of `n` starts
/// at a different phase so markers of coinciding series do not sit on each other.
fn thinned(len: usize, i: usize, n: usize) -> Vec<usize> {
    if len == 0 {
        return vec![];
    }
    let stride = len.div_ceil(MAX_THINNED_MARKERS).max(1);
    let phase = (i * stride) / n.max(1) % stride;
    (phase..len).step_by(stride).collect()
}

/// A non-empty range around a single value.
/// A fitted axis: 5% of room on each side, but never across 0 or 1 when the data stays
/// within them, so a share's axis ends at 1 (issue 28) and a count's starts at 0.
pub fn padded(lo: f64, hi: f64) -> (f64, f64) {
    let pad = (hi - lo).abs() * 0.05;
    let mut a = lo - pad;
    let mut b = hi + pad;
    if lo >= 0.0 && a < 0.0 {
        a = 0.0;
    }
    if hi <= 1.0 && b > 1.0 {
        b = 1.0;
    }
    span(a, b)
}

pub fn span(lo: f64, hi: f64) -> (f64, f64) {
    if (hi - lo).abs() < 1e-12 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fitted_axes_never_pad_past_0_or_1() {
        // A share reaching 0.98: the axis ends at 1, not 1.03 (issue 28).
        assert_eq!(padded(0.2, 0.98).1, 1.0);
        assert_eq!(padded(0.0, 0.5).0, 0.0);
        // Values beyond 1, or below 0, keep their room.
        assert!(padded(0.2, 1.2).1 > 1.2);
        assert!(padded(-0.5, 0.5).0 < -0.5);
        let bars = LineChart {
            series: vec![LineSeries {
                name: "a".into(),
                points: vec![(1.0, 0.4), (2.0, 0.9)],
                band: vec![(1.0, 0.35, 0.45), (2.0, 0.85, 0.97)],
            }],
            ..Default::default()
        };
        assert_eq!(bars.y_bounds().1, 1.0);
    }

    fn series(name: &str, pts: &[(f64, f64)]) -> LineSeries {
        LineSeries {
            name: name.into(),
            points: pts.to_vec(),
            band: vec![],
        }
    }

    #[test]
    fn coinciding_series_get_distinct_dashes_and_say_so() {
        let a = series("karma -10", &[(0.0, 0.1), (1.0, 0.5), (2.0, 0.9)]);
        let b = series("karma -5", &[(0.0, 0.1), (1.0, 0.5), (2.0, 0.9)]);
        let c = series("karma 0", &[(0.0, 0.2), (1.0, 0.6), (2.0, 0.95)]);
        let d = series("karma 5", &[(0.0, 0.2), (1.0, 0.6001), (2.0, 0.95)]);
        let chart = LineChart {
            series: vec![a, b, c, d],
            y_range: Some((0.0, 1.0)),
            ..Default::default()
        };
        let st = chart.styles(Lang::En);
        assert_eq!(st[0].dash, Dash::Solid);
        assert_eq!(st[1].same_as, Some(0));
        assert_ne!(st[1].dash, Dash::Solid);
        assert_eq!(st[2].same_as, None);
        assert_eq!(st[2].dash, Dash::Solid);
        assert_eq!(st[3].same_as, Some(2));
        assert_ne!(st[3].dash, Dash::Solid);
        assert!(st[1].legend.contains("coincides with karma -10"));
        // Every series has its own marker and colour, and markers are drawn.
        for (i, s) in st.iter().enumerate() {
            assert_eq!(s.colour, i);
            assert!(!s.marked.is_empty());
        }
        let markers: std::collections::BTreeSet<_> =
            st.iter().map(|s| format!("{:?}", s.marker)).collect();
        assert_eq!(markers.len(), 4);
    }

    #[test]
    fn three_coinciding_series_get_three_patterns() {
        let p = [(0.0, 1.0), (1.0, 2.0)];
        let chart = LineChart {
            series: vec![series("a", &p), series("b", &p), series("c", &p)],
            ..Default::default()
        };
        let st = chart.styles(Lang::En);
        assert_eq!(st[2].same_as, Some(0));
        assert_ne!(st[1].dash, st[2].dash);
        assert_ne!(st[0].dash, st[2].dash);
    }

    #[test]
    fn distinct_series_stay_solid() {
        let chart = LineChart {
            series: vec![
                series("a", &[(0.0, 0.0), (1.0, 0.5)]),
                series("b", &[(0.0, 0.0), (1.0, 0.9)]),
            ],
            y_range: Some((0.0, 1.0)),
            ..Default::default()
        };
        assert!(chart.styles(Lang::En).iter().all(|s| s.dash == Dash::Solid));
        // Series without a shared x never coincide.
        assert!(!coincide(
            &series("a", &[(0.0, 1.0)]),
            &series("b", &[(1.0, 1.0)]),
            0.1
        ));
    }

    #[test]
    fn integer_x_marks_every_point_dodged_and_sampled_marks_every_point() {
        let pts: Vec<(f64, f64)> = (1..=5).map(|l| (l as f64, 0.1 * l as f64)).collect();
        let mut chart = LineChart {
            series: vec![series("a", &pts), series("b", &pts)],
            x_kind: XKind::Integer,
            ..Default::default()
        };
        let st = chart.styles(Lang::En);
        assert_eq!(st[0].marked, vec![0, 1, 2, 3, 4]);
        assert!(st[0].dodge < 0.0 && st[1].dodge > 0.0);
        assert!(st[1].dodge <= 0.15 + 1e-12);
        assert_eq!(chart.x_bounds(), (0.5, 5.5));
        chart.x_kind = XKind::Sampled;
        assert!(chart
            .styles(Lang::En)
            .iter()
            .all(|s| s.marked.len() == 5 && s.dodge == 0.0));
        // A single continuous curve gets no markers; many points are thinned.
        let dense: Vec<(f64, f64)> = (0..100).map(|x| (x as f64, x as f64)).collect();
        let one = LineChart {
            series: vec![series("", &dense)],
            ..Default::default()
        };
        assert!(one.styles(Lang::En)[0].marked.is_empty());
        let two = LineChart {
            series: vec![series("a", &dense), series("b", &dense)],
            ..Default::default()
        };
        let st = two.styles(Lang::En);
        assert!(st[0].marked.len() <= MAX_THINNED_MARKERS);
        assert!(!st[1].marked.is_empty());
        assert_ne!(st[0].marked[0], st[1].marked[0], "phases differ");
    }
}
