//! Line charts: each series with its 95% band (or error bars on whole-number axes).

use crate::lang::Lang;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::style::*;
use crate::report::line_chart::{Dash, SeriesStyle, XKind};
use crate::report::LineChart;

pub(super) fn draw_lines(c: &LineChart, area: &Panel<'_>, lang: Lang) -> anyhow::Result<()> {
    let styles = c.styles(lang);
    let names: Vec<String> = if c.has_legend() {
        styles.iter().map(|s| s.legend.clone()).collect()
    } else {
        vec![]
    };
    let (plot, legend) = with_legend_band(area, &names);
    let (x0, x1) = c.x_bounds();
    let (y0, y1) = c.y_bounds();
    let mut chart = ChartBuilder::on(&plot)
        .caption(&c.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(plot_err)?;
    let integer = c.x_kind == XKind::Integer;
    // Whole-number axes: at most one label per integer, and none between integers.
    let x_labels = if integer {
        ((x1 - x0).floor() as usize + 1).clamp(2, 12)
    } else {
        10
    };
    let x_fmt = |x: &f64| {
        if integer && (x - x.round()).abs() > 1e-6 {
            String::new()
        } else {
            tick(*x, lang)
        }
    };
    chart
        .configure_mesh()
        .x_desc(&c.x_label)
        .y_desc(&c.y_label)
        .x_labels(x_labels)
        .x_label_formatter(&x_fmt)
        .y_label_formatter(&|y| tick(*y, lang))
        .label_style((FONT, 13))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    for (s, st) in c.series.iter().zip(&styles) {
        draw_series(&mut chart, s, st, c.x_kind, (y0, y1))?;
    }
    // A shaded band thinner than the 2 px line cannot be seen: say how wide it is
    // instead (issue 28), so a reader never takes a hidden interval for no interval.
    if c.x_kind != XKind::Integer {
        let widest = c
            .series
            .iter()
            .flat_map(|s| s.band.iter().map(|b| b.2 - b.1))
            .filter(|w| w.is_finite())
            .fold(f64::NAN, f64::max);
        let px = plot.dim_in_pixel().1 as f64 / (y1 - y0).abs().max(1e-300);
        if widest.is_finite() && widest * px < 2.0 {
            let note = tr!(lang, "chart.band_thin", half = tick(widest / 2.0, lang));
            let (w, _) = plot.dim_in_pixel();
            plot.draw(&Text::new(
                note,
                (w as i32 - 12, 34),
                (FONT, 12)
                    .into_font()
                    .color(&BLACK)
                    .pos(Pos::new(HPos::Right, VPos::Top)),
            ))
            .map_err(plot_err)?;
        }
    }
    if let Some((band, rows)) = legend {
        let samples: Vec<Sample> = styles
            .iter()
            .map(|st| {
                let colour = palette(st.colour);
                let marker = (!st.marked.is_empty()).then_some(st.marker);
                if integer {
                    Sample::Point(colour, st.marker)
                } else {
                    Sample::Line(colour, st.dash, marker)
                }
            })
            .collect();
        draw_legend(&band, &rows, &names, &samples)?;
    }
    Ok(())
}

pub(super) fn draw_series(
    chart: &mut LineCtx<'_, '_>,
    s: &crate::report::LineSeries,
    st: &SeriesStyle,
    kind: XKind,
    (y0, y1): (f64, f64),
) -> anyhow::Result<()> {
    let color = palette(st.colour);
    let at = |x: f64| x + st.dodge;
    // An unbounded side (a mean whose trials show no spread) runs to the frame's edge.
    let band: Vec<(f64, f64, f64)> = s
        .band
        .iter()
        .map(|&(x, lo, hi)| {
            let edge = |v: f64, e: f64| if v.is_infinite() { e } else { v };
            (x, edge(lo, y0.min(y1)), edge(hi, y0.max(y1)))
        })
        .collect();
    if kind == XKind::Integer {
        // No line: only the simulated values, each with its interval.
        chart
            .draw_series(band.iter().map(|&(x, lo, hi)| {
                let mid = s
                    .points
                    .iter()
                    .find(|p| (p.0 - x).abs() < 1e-9)
                    .map_or(lo, |p| p.1);
                ErrorBar::new_vertical(at(x), lo, mid, hi, color.stroke_width(1), 8)
            }))
            .map_err(plot_err)?;
    } else {
        if !band.is_empty() {
            let mut poly: Vec<(f64, f64)> = band.iter().map(|b| (b.0, b.2)).collect();
            poly.extend(band.iter().rev().map(|b| (b.0, b.1)));
            chart
                .draw_series(std::iter::once(Polygon::new(poly, color.mix(0.2).filled())))
                .map_err(plot_err)?;
        }
        let pts = s.points.iter().copied();
        match st.dash {
            Dash::Solid => chart
                .draw_series(LineSeries::new(pts, color.stroke_width(2)))
                .map(|_| ()),
            Dash::Dashed(d, g) => chart
                .draw_series(DashedLineSeries::new(pts, d, g, color.stroke_width(2)))
                .map(|_| ()),
        }
        .map_err(plot_err)?;
    }
    for &i in &st.marked {
        if let Some(&(x, y)) = s.points.get(i) {
            draw_marker(chart.plotting_area(), (at(x), y), st.marker, color)?;
        }
    }
    Ok(())
}
