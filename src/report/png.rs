use std::path::Path;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::register_font;

use super::atomic::replace_with;
use super::{BarChart, Chart, Figure, Heatmap, Legend, LineChart, NamedHeatmap};

const PANEL: (u32, u32) = (760, 520);
const FONT: &str = "sans-serif";

fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The embedded DejaVu font: no system font library needed.
        let _ = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

fn palette(i: usize) -> RGBColor {
    const C: [RGBColor; 8] = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(23, 190, 207),
    ];
    C[i % C.len()]
}

/// Renders a figure to a PNG file (atomically).
pub fn render_png(fig: &Figure, path: &Path) -> anyhow::Result<()> {
    fonts();
    let n = fig.panels.len().max(1) as u32;
    replace_with(path, |tmp| {
        let root = BitMapBackend::new(tmp, (PANEL.0 * n, PANEL.1)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let areas = root.split_evenly((1, n as usize));
        for (chart, area) in fig.panels.iter().zip(areas.iter()) {
            match chart {
                Chart::Lines(c) => draw_lines(c, area)?,
                Chart::Heatmap(h) => draw_heatmap(h, None, area)?,
                Chart::NamedHeatmap(n) => draw_heatmap(&n.map, Some(n), area)?,
                Chart::Bars(b) => draw_bars(b, area)?,
            }
        }
        root.present().map_err(plot_err)?;
        Ok(())
    })
}

fn plot_err<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("chart drawing failed: {e:?}")
}

/// Tick text without trailing zeros: 20, 0.25, 1e-5.
fn tick(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e9 {
        format!("{v:.0}")
    } else if v.abs() >= 1e-3 {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.1e}")
    }
}

fn span(lo: f64, hi: f64) -> (f64, f64) {
    if (hi - lo).abs() < 1e-12 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo, hi)
    }
}

fn draw_lines(
    c: &LineChart,
    area: &DrawingArea<BitMapBackend, plotters::coord::Shift>,
) -> anyhow::Result<()> {
    let xs = c.series.iter().flat_map(|s| s.points.iter().map(|p| p.0));
    let (x0, x1) = xs.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let (x0, x1) = if x0.is_finite() {
        span(x0, x1)
    } else {
        (0.0, 1.0)
    };
    let (y0, y1) = c.y_range.unwrap_or_else(|| {
        let ys = c.series.iter().flat_map(|s| {
            s.points
                .iter()
                .map(|p| p.1)
                .chain(s.band.iter().flat_map(|b| [b.1, b.2]))
        });
        let (a, b) = ys.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), y| {
            (a.min(y), b.max(y))
        });
        if a.is_finite() {
            let pad = (b - a).abs() * 0.05;
            let head = match c.legend {
                Legend::UpperLeft | Legend::UpperRight => {
                    (b - a).abs() * 0.04 * (c.series.len() as f64 + 1.0)
                }
                _ => 0.0,
            };
            span(a - pad, b + pad + head)
        } else {
            (0.0, 1.0)
        }
    });
    let mut chart = ChartBuilder::on(area)
        .caption(&c.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .x_label_formatter(&|x| tick(*x))
        .y_label_formatter(&|y| tick(*y))
        .label_style((FONT, 13))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    for (i, s) in c.series.iter().enumerate() {
        let color = palette(i);
        if !s.band.is_empty() {
            let mut poly: Vec<(f64, f64)> = s.band.iter().map(|b| (b.0, b.2)).collect();
            poly.extend(s.band.iter().rev().map(|b| (b.0, b.1)));
            chart
                .draw_series(std::iter::once(Polygon::new(poly, color.mix(0.2).filled())))
                .map_err(plot_err)?;
        }
        chart
            .draw_series(LineSeries::new(
                s.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(plot_err)?
            .label(s.name.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    if c.series.len() > 1 || c.series.iter().any(|s| !s.name.is_empty()) {
        chart
            .configure_series_labels()
            .label_font((FONT, 13))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(legend_position(c.legend))
            .draw()
            .map_err(plot_err)?;
    }
    Ok(())
}

fn legend_position(l: Legend) -> SeriesLabelPosition {
    match l {
        Legend::UpperLeft => SeriesLabelPosition::UpperLeft,
        Legend::UpperRight => SeriesLabelPosition::UpperRight,
        Legend::LowerLeft => SeriesLabelPosition::LowerLeft,
        Legend::LowerRight => SeriesLabelPosition::LowerRight,
    }
}

fn draw_bars(
    b: &BarChart,
    area: &DrawingArea<BitMapBackend, plotters::coord::Shift>,
) -> anyhow::Result<()> {
    let n = b.categories.len().max(1);
    let groups = b.series.len().max(1);
    let (y0, y1) = b.y_range.unwrap_or_else(|| {
        let top = b
            .series
            .iter()
            .flat_map(|s| {
                s.values
                    .iter()
                    .copied()
                    .chain(s.intervals.iter().map(|i| i.1))
            })
            .fold(0.0f64, f64::max);
        let head = if groups > 1 { 1.25 } else { 1.08 };
        (0.0, if top > 0.0 { top * head } else { 1.0 })
    });
    let mut chart = ChartBuilder::on(area)
        .caption(&b.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), y0..y1)
        .map_err(plot_err)?;
    let cats = b.categories.clone();
    let every = n.div_ceil(12).max(1);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n.min(40))
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() > 1e-6 || i < 0.0 || !(i as usize).is_multiple_of(every) {
                return String::new();
            }
            cats.get(i as usize).cloned().unwrap_or_default()
        })
        .y_label_formatter(&|y| tick(*y))
        .x_desc(&b.x_label)
        .y_desc(&b.y_label)
        .label_style((FONT, 13))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    let width = 0.8 / groups as f64;
    for (g, s) in b.series.iter().enumerate() {
        let color = palette(g);
        let left = |i: usize| i as f64 - 0.4 + g as f64 * width;
        chart
            .draw_series(s.values.iter().enumerate().map(|(i, v)| {
                Rectangle::new(
                    [(left(i) + 0.02, 0.0), (left(i) + width - 0.02, *v)],
                    color.filled(),
                )
            }))
            .map_err(plot_err)?
            .label(s.name.clone())
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 14, y + 5)], color.filled()));
        chart
            .draw_series(s.intervals.iter().enumerate().map(|(i, (lo, hi))| {
                let x = left(i) + width / 2.0;
                let mid = s.values.get(i).copied().unwrap_or(*lo);
                ErrorBar::new_vertical(x, *lo, mid, *hi, BLACK.stroke_width(1), 6)
            }))
            .map_err(plot_err)?;
    }
    if groups > 1 || b.series.iter().any(|s| !s.name.is_empty()) {
        chart
            .configure_series_labels()
            .label_font((FONT, 13))
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(legend_position(b.legend))
            .draw()
            .map_err(plot_err)?;
    }
    Ok(())
}

/// The name of the category at integer position `v` on an axis, or "" between positions.
fn name_at(v: f64, positions: &[i64], names: &[String]) -> String {
    let r = v.round();
    if (v - r).abs() > 1e-6 {
        return String::new();
    }
    positions
        .iter()
        .position(|&p| p as f64 == r)
        .and_then(|i| names.get(i))
        .cloned()
        .unwrap_or_default()
}

fn draw_heatmap(
    h: &Heatmap,
    names: Option<&NamedHeatmap>,
    area: &DrawingArea<BitMapBackend, plotters::coord::Shift>,
) -> anyhow::Result<()> {
    let (main, legend) = area.split_horizontally(PANEL.0 - 90);
    let x0 = *h.xs.first().unwrap_or(&0) as f64 - 0.5;
    let x1 = *h.xs.last().unwrap_or(&0) as f64 + 0.5;
    let y0 = *h.ys.first().unwrap_or(&0) as f64 - 0.5;
    let y1 = *h.ys.last().unwrap_or(&0) as f64 + 0.5;
    let mut chart = ChartBuilder::on(&main)
        .caption(&h.title, (FONT, 20))
        .margin(12)
        // Named categories need room for their names on the y axis.
        .x_label_area_size(40)
        .y_label_area_size(if names.is_some() { 150 } else { 50 })
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(plot_err)?;
    let x_fmt = |x: &f64| match names {
        Some(n) => name_at(*x, &n.map.xs, &n.x_names),
        None => format!("{x:.0}"),
    };
    let y_fmt = |y: &f64| match names {
        Some(n) => name_at(*y, &n.map.ys, &n.y_names),
        None => format!("{y:.0}"),
    };
    let mut mesh = chart.configure_mesh();
    mesh.disable_mesh()
        .x_desc(&h.x_label)
        .y_desc(&h.y_label)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&y_fmt)
        .label_style((FONT, 13));
    if names.is_some() {
        // One tick per category; names stay horizontal (callers put the longer names on
        // the y axis).
        mesh.x_labels(h.xs.len())
            .y_labels(h.ys.len())
            .x_label_style((FONT, 11));
    }
    mesh.draw().map_err(plot_err)?;
    let (lo, hi) = span(h.range.0, h.range.1);
    let cells = h.ys.iter().enumerate().flat_map(|(iy, y)| {
        h.xs.iter().enumerate().map(move |(ix, x)| {
            let v = h.values[iy][ix];
            let c = ViridisRGB::get_color_normalized(v, lo, hi);
            let (x, y) = (*x as f64, *y as f64);
            Rectangle::new([(x - 0.5, y - 0.5), (x + 0.5, y + 0.5)], c.filled())
        })
    });
    chart.draw_series(cells).map_err(plot_err)?;
    // Colour scale.
    let mut scale = ChartBuilder::on(&legend)
        .margin_top(50)
        .margin_bottom(52)
        .margin_right(40)
        .y_label_area_size(0)
        .right_y_label_area_size(36)
        .build_cartesian_2d(0.0..1.0, lo..hi)
        .map_err(plot_err)?;
    scale
        .configure_mesh()
        .disable_mesh()
        .disable_x_axis()
        .label_style((FONT, 12))
        .draw()
        .map_err(plot_err)?;
    let steps = 100;
    scale
        .draw_series((0..steps).map(|i| {
            let a = lo + (hi - lo) * i as f64 / steps as f64;
            let b = lo + (hi - lo) * (i + 1) as f64 / steps as f64;
            Rectangle::new(
                [(0.0, a), (1.0, b)],
                ViridisRGB::get_color_normalized(a, lo, hi).filled(),
            )
        }))
        .map_err(plot_err)?;
    Ok(())
}

#[cfg(test)]
mod named_axis_tests {
    use super::name_at;

    #[test]
    fn ticks_get_the_names_of_their_categories() {
        let names = vec!["none".to_string(), "danger".to_string()];
        assert_eq!(name_at(0.0, &[0, 1], &names), "none");
        assert_eq!(name_at(1.0, &[0, 1], &names), "danger");
        assert_eq!(name_at(0.5, &[0, 1], &names), "");
        assert_eq!(name_at(2.0, &[0, 1], &names), "");
    }
}
