//! Charts drawn to PNG with plotters (`style.rs`: fonts, colours, ticks, legends and
//! category labels; `lines.rs`: line charts with their bands; `grid.rs`: bars and heatmaps),
//! then stored as an indexed PNG (`indexed.rs`).

mod grid;
mod lines;
mod style;

use crate::lang::Lang;
use std::path::Path;

use plotters::prelude::*;

use super::{Chart, Figure};
use grid::{draw_bars, draw_heatmap};
use lines::draw_lines;
use style::{fonts, plot_err};

const PANEL: (u32, u32) = (760, 520);

/// Renders a figure to a PNG file (atomically).
pub fn render_png(fig: &Figure, path: &Path, lang: Lang) -> anyhow::Result<()> {
    let bytes = png_bytes(fig, lang)?;
    super::atomic::write_atomic(path, &bytes, lang)
}

/// The PNG bytes of a figure: drawn in RGB, then stored with a palette of at most 256
/// colours (issue 28: a chart is a few flat colours and their anti-aliased edges, so an
/// indexed file is about a third of the RGB one and looks the same).
pub fn png_bytes(fig: &Figure, lang: Lang) -> anyhow::Result<Vec<u8>> {
    let localised;
    let fig = if lang == Lang::Fr {
        localised = french_labels(fig);
        &localised
    } else {
        fig
    };
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

/// A label that is a number, in `lang`'s writing: `0.1` reads `0,1` in French, like the
/// axes' ticks (`style::tick`) and the page text (`Lang::num`). Any other label (`d6`,
/// `v1.2`, a name) is left as written.
pub fn number_label(label: &str, lang: Lang) -> String {
    let t = label.trim();
    let numeric =
        t.contains('.') && !t.ends_with('.') && t.parse::<f64>().is_ok_and(f64::is_finite);
    if lang == Lang::Fr && numeric {
        label.replace('.', ",")
    } else {
        label.to_string()
    }
}

/// The figure with its category, row, column and series labels in French number writing
/// (audit of 2026-12-07, evening: a sweep over 0.1..0.5 drew `0.1` under French bars).
fn french_labels(fig: &Figure) -> Figure {
    let fr = |v: &mut Vec<String>| {
        for s in v.iter_mut() {
            *s = number_label(s, Lang::Fr);
        }
    };
    let mut fig = fig.clone();
    for panel in &mut fig.panels {
        match panel {
            Chart::Bars(b) => {
                fr(&mut b.categories);
                for s in &mut b.series {
                    s.name = number_label(&s.name, Lang::Fr);
                }
            }
            Chart::Heatmap(h) => {
                fr(&mut h.columns);
                fr(&mut h.rows);
            }
            Chart::Lines(c) => {
                for s in &mut c.series {
                    s.name = number_label(&s.name, Lang::Fr);
                }
            }
        }
    }
    fig
}
