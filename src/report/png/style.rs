//! What every chart shares: the embedded font, the palette, tick text, the legend band
//! below a plot and the category labels of bars and heatmaps.

use crate::lang::Lang;
use std::sync::Once;

use plotters::prelude::*;
use plotters::style::register_font;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::report::chart::legend_rows;
use crate::report::line_chart::{Dash, Marker};

pub(super) const FONT: &str = "sans-serif";

pub(super) fn fonts() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The embedded DejaVu font: no system font library needed.
        let _ = register_font(FONT, FontStyle::Normal, dejavu::sans::regular());
        let _ = register_font(FONT, FontStyle::Bold, dejavu::sans::bold());
    });
}

pub(super) fn palette(i: usize) -> RGBColor {
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

/// The drawing error in words (its Display, never the nested Debug dump); the caller
/// names the file.
pub(super) fn plot_err<E: std::fmt::Display>(e: E) -> anyhow::Error {
    anyhow::anyhow!("{e}")
}

/// Tick text without trailing zeros: 20, 0.25, 1e-5; French axes read 0,25.
pub(super) fn tick(v: f64, lang: Lang) -> String {
    let s = tick_en(v);
    match lang {
        crate::lang::Lang::En => s,
        crate::lang::Lang::Fr => s.replace('.', ","),
    }
}

pub(super) fn tick_en(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e9 {
        format!("{v:.0}")
    } else if v.abs() >= 1e-3 {
        let s = format!("{v:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        format!("{v:.1e}")
    }
}

pub(super) type Area<'b, CT> = DrawingArea<BitMapBackend<'b>, CT>;
pub(super) type Panel<'b> = Area<'b, plotters::coord::Shift>;

/// Legend text size and the pixels a character takes at that size (DejaVu Sans 13 px
/// averages about 7.5 px; rounded up so entries never overlap).
pub(super) const LEGEND_FONT: u32 = 13;
pub(super) const LEGEND_CHAR_PX: u32 = 8;
pub(super) const LEGEND_SAMPLE_PX: u32 = 28;
pub(super) const LEGEND_ROW_PX: u32 = 18;

/// How a legend entry's sample is drawn.
pub(super) enum Sample {
    Line(RGBColor, Dash, Option<Marker>),
    Point(RGBColor, Marker),
    Bar(RGBColor),
}

/// Splits a panel into the plot and, when there is a legend, a band below it sized to
/// hold every entry: the legend is never drawn over the data.
#[allow(clippy::type_complexity)]
pub(super) fn with_legend_band<'b>(
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

pub(super) fn draw_legend(
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
            x += crate::report::chart::entry_width(&names[i], LEGEND_CHAR_PX, LEGEND_SAMPLE_PX)
                as i32;
        }
    }
    Ok(())
}

/// One marker at `at` (data coordinates of whatever area it is drawn on).
pub(super) fn draw_marker<CT>(
    area: &Area<'_, CT>,
    at: CT::From,
    m: Marker,
    c: RGBColor,
) -> anyhow::Result<()>
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

pub(super) type LineCtx<'a, 'b> = ChartContext<
    'a,
    BitMapBackend<'b>,
    Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
>;

/// Upright labels are a little smaller so that one fits beside each of ~50 bars.
pub(super) const UPRIGHT_FONT: u32 = 11;
pub(super) const UPRIGHT_SPACING_PX: f64 = 12.0;

/// Category labels are turned upright when they would not fit side by side.
pub(super) fn upright_labels(labels: &[String], slot_px: f64) -> bool {
    let longest = labels.iter().map(|c| c.chars().count()).max().unwrap_or(0);
    longest as f64 * 7.5 > slot_px * 0.95
}

/// Category labels read top to bottom under the axis, each starting just below its tick
/// (plotters centres rotated tick labels on the tick, which cuts long ones).
pub(super) fn draw_upright_labels(
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
pub(super) fn upright_area(labels: &[String]) -> u32 {
    let longest = labels.iter().map(|c| c.chars().count()).max().unwrap_or(0) as u32;
    (longest * 7 + 30).clamp(40, 200)
}

/// Index labels of a category axis drawn on f64 coordinates: the label of category `i`
/// at x = i, nothing elsewhere, and only every `every`-th one when they are too many.
pub(super) fn category_label(labels: &[String], x: f64, every: usize) -> String {
    let i = x.round();
    if (x - i).abs() > 1e-6 || i < 0.0 || !(i as usize).is_multiple_of(every) {
        return String::new();
    }
    labels.get(i as usize).cloned().unwrap_or_default()
}
