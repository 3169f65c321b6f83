//! Bar charts (grouped, with intervals) and heatmaps on category axes.

use crate::lang::Lang;

use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::colors::colormaps::ViridisRGB;

use super::style::*;
use crate::report::line_chart::span;
use crate::report::{BarChart, Heatmap};

pub(super) fn draw_bars(b: &BarChart, area: &Panel<'_>, lang: Lang) -> anyhow::Result<()> {
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

pub(super) fn draw_heatmap(h: &Heatmap, area: &Panel<'_>, lang: Lang) -> anyhow::Result<()> {
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
