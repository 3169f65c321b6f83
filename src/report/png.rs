use crate::lang::Lang;
use std::path::Path;
use std::sync::Once;

use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::chart::{legend_rows, span, Dash, Marker, SeriesStyle, XKind};
use super::{BarChart, Chart, Figure, Heatmap, LineChart};

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
pub fn render_png(fig: &Figure, path: &Path, lang: Lang) -> anyhow::Result<()> {
    let bytes = png_bytes(fig, lang)?;
    super::atomic::write_atomic(path, &bytes, lang)
}

/// The PNG bytes of a figure: drawn in RGB, then stored with a palette of at most 256
/// colours (issue 28: a chart is a few flat colours and their anti-aliased edges, so an
/// indexed file is about a third of the RGB one and looks the same).
pub fn png_bytes(fig: &Figure, lang: Lang) -> anyhow::Result<Vec<u8>> {
    fonts();
    let n = fig.panels.len().max(1) as u32;
    let (w, h) = (PANEL.0 * n, PANEL.1);
    let mut rgb = vec![0u8; (w * h * 3) as usize];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area();
        root.fill(&WHITE).map_err(plot_err)?;
        let areas = root.split_evenly((1, n as usize));
        for (chart, area) in fig.panels.iter().zip(areas.iter()) {
            match chart {
                Chart::Lines(c) => draw_lines(c, area, lang)?,
                Chart::Heatmap(h) => draw_heatmap(h, area, lang)?,
                Chart::Bars(b) => draw_bars(b, area, lang)?,
            }
        }
        root.present().map_err(plot_err)?;
    }
    super::indexed::encode(&rgb, w, h)
}

/// The drawing error in words (its Display, never the nested Debug dump); the caller
/// names the file.
fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// Tick text without trailing zeros: 20, 0.25, 1e-5; French axes read 0,25.
fn tick(v: f64, lang: Lang) -> String {
    let s = tick_en(v);
    match lang {
        crate::lang::Lang::En => s,
        crate::lang::Lang::Fr => s.replace('.', ","),
    }
}

fn tick_en(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e9 {
        format!("{v:.0}")
    } else if v.abs() >= 1e-3 {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.1e}")
    }
}

type Area<'b, CT> = DrawingArea<BitMapBackend<'b>, CT>;
type Panel<'b> = Area<'b, plotters::coord::Shift>;

/// Legend text size and the pixels a character takes at that size (DejaVu Sans 13 px
/// averages about 7.5 px; rounded up so entries never overlap).
const LEGEND_FONT: u32 = 13;
const LEGEND_CHAR_PX: u32 = 8;
const LEGEND_SAMPLE_PX: u32 = 28;
const LEGEND_ROW_PX: u32 = 18;

/// How a legend entry's sample is drawn.
enum Sample {
    Line(RGBColor, Dash, Option<Marker>),
    Point(RGBColor, Marker),
    Bar(RGBColor),
}

/// Splits a panel into the plot and, when there is a legend, a band below it sized to
/// hold every entry: the legend is never drawn over the data.
#[allow(clippy::type_complexity)]
fn with_legend_band<'b>(
    area: &Panel<'b>,
    names: &[String],
) -> (Panel<'b>, Option<(Panel<'b>, Vec<Vec<usize>>)>) {
    if names.is_empty() {
        return (area.clone(), None);
    }
    let (w, h) = area.dim_in_pixel();
    let rows = legend_rows(
        names,
        w.saturating_sub(40),
        LEGEND_CHAR_PX,
        LEGEND_SAMPLE_PX,
    );
    let band = (rows.len() as u32 * LEGEND_ROW_PX + 10).min(h / 2);
    let (plot, legend) = area.split_vertically(h - band);
    (plot, Some((legend, rows)))
}

fn draw_legend(
    area: &Panel<'_>,
    rows: &[Vec<usize>],
    names: &[String],
    samples: &[Sample],
) -> anyhow::Result<()> {
    let font = (FONT, LEGEND_FONT).into_font().color(&BLACK);
    for (r, row) in rows.iter().enumerate() {
        let y = 4 + (r as u32 * LEGEND_ROW_PX + LEGEND_ROW_PX / 2) as i32;
        let mut x = 20i32;
        for &i in row {
            let mid = x + LEGEND_SAMPLE_PX as i32 / 2;
            match samples[i] {
                Sample::Line(c, dash, marker) => {
                    let ends = vec![(x, y), (x + LEGEND_SAMPLE_PX as i32, y)];
                    match dash {
                        Dash::Solid => area.draw(&PathElement::new(ends, c.stroke_width(2))),
                        Dash::Dashed(d, g) => {
                            area.draw(&plotters::element::DashedPathElement::new(
                                ends,
                                d.min(8),
                                g.min(4),
                                c.stroke_width(2),
                            ))
                        }
                    }
                    .map_err(plot_err)?;
                    if let Some(m) = marker {
                        draw_marker(area, (mid, y), m, c)?;
                    }
                }
                Sample::Point(c, m) => {
                    area.draw(&PathElement::new(
                        vec![(mid, y - 7), (mid, y + 7)],
                        c.stroke_width(1),
                    ))
                    .map_err(plot_err)?;
                    draw_marker(area, (mid, y), m, c)?;
                }
                Sample::Bar(c) => {
                    area.draw(&Rectangle::new(
                        [(mid - 7, y - 5), (mid + 7, y + 5)],
                        c.filled(),
                    ))
                    .map_err(plot_err)?;
                }
            }
            let tx = x + LEGEND_SAMPLE_PX as i32 + 6;
            area.draw(&Text::new(names[i].clone(), (tx, y - 7), font.clone()))
                .map_err(plot_err)?;
            x += super::chart::entry_width(&names[i], LEGEND_CHAR_PX, LEGEND_SAMPLE_PX) as i32;
        }
    }
    Ok(())
}

/// One marker at `at` (data coordinates of whatever area it is drawn on).
fn draw_marker<CT>(area: &Area<'_, CT>, at: CT::From, m: Marker, c: RGBColor) -> anyhow::Result<()>
where
    CT: CoordTranslate,
    CT::From: Clone,
{
    let fill = c.filled();
    match m {
        Marker::Circle => area.draw(&Circle::new(at, 4, fill)),
        Marker::Triangle => area.draw(&TriangleMarker::new(at, 5, fill)),
        Marker::Square => {
            area.draw(&(EmptyElement::at(at) + Rectangle::new([(-4, -4), (4, 4)], fill)))
        }
        Marker::Diamond => area.draw(
            &(EmptyElement::at(at) + Polygon::new(vec![(0, -6), (6, 0), (0, 6), (-6, 0)], fill)),
        ),
        Marker::Cross => area.draw(&Cross::new(at, 5, c.stroke_width(2))),
        Marker::Ring => area.draw(&Circle::new(at, 5, c.stroke_width(2))),
    }
    .map_err(plot_err)
}

fn draw_lines(c: &LineChart, area: &Panel<'_>, lang: Lang) -> anyhow::Result<()> {
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
        draw_series(&mut chart, s, st, c.x_kind)?;
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

type LineCtx<'a, 'b> = ChartContext<
    'a,
    BitMapBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

fn draw_series(
    chart: &mut LineCtx<'_, '_>,
    s: &super::LineSeries,
    st: &SeriesStyle,
    kind: XKind,
) -> anyhow::Result<()> {
    let color = palette(st.colour);
    let at = |x: f64| x + st.dodge;
    if kind == XKind::Integer {
        // No line: only the simulated values, each with its interval.
        chart
            .draw_series(s.band.iter().map(|&(x, lo, hi)| {
                let mid = s
                    .points
                    .iter()
                    .find(|p| (p.0 - x).abs() < 1e-9)
                    .map_or(lo, |p| p.1);
                ErrorBar::new_vertical(at(x), lo, mid, hi, color.stroke_width(1), 8)
            }))
            .map_err(plot_err)?;
    } else {
        if !s.band.is_empty() {
            let mut poly: Vec<(f64, f64)> = s.band.iter().map(|b| (b.0, b.2)).collect();
            poly.extend(s.band.iter().rev().map(|b| (b.0, b.1)));
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

/// Upright labels are a little smaller so that one fits beside each of ~50 bars.
const UPRIGHT_FONT: u32 = 11;
const UPRIGHT_SPACING_PX: f64 = 12.0;

/// Category labels are turned upright when they would not fit side by side.
fn upright_labels(labels: &[String], slot_px: f64) -> bool {
    let longest = labels.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    longest as f64 * 7.5 > slot_px * 0.95
}

/// Category labels read top to bottom under the axis, each starting just below its tick
/// (plotters centres rotated tick labels on the tick, which cuts long ones).
fn draw_upright_labels(
    area: &Panel<'_>,
    chart: &LineCtx<'_, '_>,
    labels: &[String],
    every: usize,
    y_axis: f64,
) -> anyhow::Result<()> {
    let (bx, by) = area.get_base_pixel();
    let style = (FONT, UPRIGHT_FONT)
        .into_font()
        .transform(FontTransform::Rotate90)
        .color(&BLACK)
        .pos(Pos::new(HPos::Left, VPos::Center));
    for (i, label) in labels.iter().enumerate().step_by(every.max(1)) {
        let (px, py) = chart.backend_coord(&(i as f64, y_axis));
        area.draw(&Text::new(
            label.clone(),
            (px - bx, py - by + 8),
            style.clone(),
        ))
        .map_err(plot_err)?;
    }
    Ok(())
}

/// Space below the axis for upright labels.
fn upright_area(labels: &[String]) -> u32 {
    let longest = labels.iter().map(|c| c.chars().count()).max().unwrap_or(0) as u32;
    (longest * 7 + 30).clamp(40, 200)
}

/// Index labels of a category axis drawn on f64 coordinates: the label of category `i`
/// at x = i, nothing elsewhere, and only every `every`-th one when they are too many.
fn category_label(labels: &[String], x: f64, every: usize) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 || !(i as usize).is_multiple_of(every) {
        return String::new();
    }
    labels.get(i as usize).cloned().unwrap_or_default()
}

fn draw_bars(b: &BarChart, area: &Panel<'_>, lang: Lang) -> anyhow::Result<()> {
    let n = b.categories.len().max(1);
    let groups = b.series.len().max(1);
    let legend_on = groups > 1 || b.series.iter().any(|s| !s.name.is_empty());
    let names: Vec<String> = if legend_on {
        b.series.iter().map(|s| s.name.clone()).collect()
    } else {
        vec![]
    };
    let (plot, legend) = with_legend_band(area, &names);
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
            .filter(|v| v.is_finite())
            .fold(0.0f64, f64::max);
        // A share's axis ends at 1 (issue 28): the headroom never crosses it.
        let room = top * 1.08;
        (
            0.0,
            if top <= 0.0 {
                1.0
            } else if top <= 1.0 {
                room.min(1.0)
            } else {
                room
            },
        )
    });
    let plot_w = plot.dim_in_pixel().0 as f64 - 96.0;
    let slot = plot_w / n as f64;
    let upright = upright_labels(&b.categories, slot);
    // Upright labels need UPRIGHT_SPACING_PX each.
    let every = if upright {
        ((UPRIGHT_SPACING_PX * n as f64) / plot_w).ceil().max(1.0) as usize
    } else {
        1
    };
    let label_area = if upright {
        upright_area(&b.categories)
    } else {
        40
    };
    let mut chart = ChartBuilder::on(&plot)
        .caption(&b.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(label_area)
        .y_label_area_size(60)
        .build_cartesian_2d(-0.5..(n as f64 - 0.5), y0..y1)
        .map_err(plot_err)?;
    let cats = b.categories.clone();
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_labels(n.min(60))
        .x_label_formatter(&|x| {
            if upright {
                String::new()
            } else {
                category_label(&cats, *x, every)
            }
        })
        .y_label_formatter(&|y| tick(*y, lang))
        .x_desc(&b.x_label)
        .y_desc(&b.y_label)
        // Sets both axes: must come before the x-specific style.
        .label_style((FONT, 13))
        .light_line_style(RGBColor(235, 235, 235))
        .draw()
        .map_err(plot_err)?;
    if upright {
        draw_upright_labels(area, &chart, &b.categories, every, y0)?;
    }
    let width = 0.8 / groups as f64;
    for (g, s) in b.series.iter().enumerate() {
        let color = palette(g);
        let left = |i: usize| i as f64 - 0.4 + g as f64 * width;
        chart
            .draw_series(
                // An undefined value (NaN) gets no bar rather than a bar at 0.
                s.values
                    .iter()
                    .enumerate()
                    .filter(|(_, v)| v.is_finite())
                    .map(|(i, v)| {
                        Rectangle::new(
                            [(left(i) + 0.02, 0.0), (left(i) + width - 0.02, *v)],
                            color.filled(),
                        )
                    }),
            )
            .map_err(plot_err)?;
        chart
            .draw_series(
                s.intervals
                    .iter()
                    .enumerate()
                    .filter(|(_, (lo, hi))| lo.is_finite() && hi.is_finite())
                    .map(|(i, (lo, hi))| {
                        let x = left(i) + width / 2.0;
                        let mid = s.values.get(i).copied().unwrap_or(*lo);
                        ErrorBar::new_vertical(x, *lo, mid, *hi, BLACK.stroke_width(1), 6)
                    }),
            )
            .map_err(plot_err)?;
    }
    if let Some((band, rows)) = legend {
        let samples: Vec<Sample> = (0..names.len()).map(|g| Sample::Bar(palette(g))).collect();
        draw_legend(&band, &rows, &names, &samples)?;
    }
    Ok(())
}

fn draw_heatmap(h: &Heatmap, area: &Panel<'_>, lang: Lang) -> anyhow::Result<()> {
    let (w, _) = area.dim_in_pixel();
    let (main, legend) = area.split_horizontally(w - 90);
    let nx = h.columns.len().max(1);
    let ny = h.rows.len().max(1);
    // Cells sit at their index; the axes print the row and column labels.
    let plot_w = main.dim_in_pixel().0 as f64 - 90.0;
    // Short labels (numbers) stay flat and are thinned; names turn upright.
    let longest = h
        .columns
        .iter()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1);
    let upright = longest > 4 && upright_labels(&h.columns, plot_w / nx as f64);
    let x_every = if upright {
        ((UPRIGHT_SPACING_PX * nx as f64) / plot_w).ceil().max(1.0) as usize
    } else {
        ((longest as f64 * 7.5 + 8.0) * nx as f64 / plot_w)
            .ceil()
            .max(1.0) as usize
    };
    let y_every = (ny as f64 * 16.0 / 380.0).ceil().max(1.0) as usize;
    let longest_row = h.rows.iter().map(|c| c.chars().count()).max().unwrap_or(1) as u32;
    let mut chart = ChartBuilder::on(&main)
        .caption(&h.title, (FONT, 20))
        .margin(12)
        .x_label_area_size(if upright {
            upright_area(&h.columns)
        } else {
            40
        })
        .y_label_area_size((longest_row * 8 + 34).clamp(50, 170))
        .build_cartesian_2d(-0.5..(nx as f64 - 0.5), -0.5..(ny as f64 - 0.5))
        .map_err(plot_err)?;
    chart
        .configure_mesh()
        .disable_mesh()
        .x_desc(&h.x_label)
        .y_desc(&h.y_label)
        .x_labels(nx.min(60))
        .y_labels(ny.min(60))
        .x_label_formatter(&|x| {
            if upright {
                String::new()
            } else {
                category_label(&h.columns, *x, x_every)
            }
        })
        .y_label_formatter(&|y| category_label(&h.rows, *y, y_every))
        .label_style((FONT, 13))
        .draw()
        .map_err(plot_err)?;
    if upright {
        draw_upright_labels(area, &chart, &h.columns, x_every, -0.5)?;
    }
    let (lo, hi) = span(h.range.0, h.range.1);
    let cells = h.values.iter().enumerate().flat_map(|(iy, row)| {
        row.iter().enumerate().map(move |(ix, &v)| {
            // A cell with no value is grey, never the colour of a real value.
            let c = if v.is_nan() {
                RGBColor(200, 200, 200)
            } else {
                ViridisRGB::get_color_normalized(v, lo, hi)
            };
            let (x, y) = (ix as f64, iy as f64);
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
    // The scale keeps plotters' own tick text (English bytes unchanged); French only swaps
    // the decimal mark.
    let range = RangedCoordf64::from(lo..hi);
    let fr_tick = |y: &f64| range.format_ext(y).replace('.', ",");
    let mut mesh = scale.configure_mesh();
    mesh.disable_mesh().disable_x_axis().label_style((FONT, 12));
    if lang == crate::lang::Lang::Fr {
        mesh.y_label_formatter(&fr_tick);
    }
    mesh.draw().map_err(plot_err)?;
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
