use polars::prelude::*;

use crate::context::{Context, Method};
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, XKind};
use crate::systems::nephilim::NephilimRules;

use super::{provenance, range_text};

/// Default Ka scores of `nephilim-meta`: the whole range of the tables' `--ka` (most
/// Nephilim have 15 to 60, l. 29, and the scale has no top).
pub const DEFAULT_KA: std::ops::RangeInclusive<i64> = 0..=200;

/// Most bands listed in the key figures (the rest is in the CSV).
const BANDS_LISTED: i64 = 8;

/// The `nephilim-meta` output (N-KA, exact): for each Ka-element score, the
/// meta-characteristic bonus it gives and the band it lies in, columns
/// `ka,meta_bonus,band_from,band_to`, under the bands in force (parameters
/// `nephilim_meta_first_band`, `nephilim_meta_band_growth`). A characteristic tied to two
/// Ka-elements reads the row of their mean, rounded up (l. 62).
pub fn meta_output(ka: &[i64], ctx: &Context) -> anyhow::Result<Output> {
    let bands = NephilimRules::from_options(&ctx.options).meta_bands;
    let mut bonus = Vec::with_capacity(ka.len());
    let (mut from, mut to) = (Vec::new(), Vec::new());
    for &k in ka {
        let b = bands.bonus(ctx.lang, k)?;
        let (f, t) = bands.band(b);
        bonus.push(b);
        from.push(f);
        to.push(t);
    }
    let frame = DataFrame::new_infer_height(vec![
        Column::new("ka".into(), ka.to_vec()),
        Column::new("meta_bonus".into(), bonus.clone()),
        Column::new("band_from".into(), from),
        Column::new("band_to".into(), to),
    ])?;
    let chart = LineChart {
        title: tr!(ctx.lang, "nephilim.meta.chart").into(),
        x_label: tr!(ctx.lang, "nephilim.meta.x_axis").into(),
        y_label: tr!(ctx.lang, "nephilim.meta.y_axis").into(),
        series: vec![LineSeries {
            name: tr!(ctx.lang, "nephilim.meta.series").into(),
            points: ka
                .iter()
                .zip(&bonus)
                .map(|(&k, &b)| (k as f64, b as f64))
                .collect(),
            band: Vec::new(),
        }],
        y_range: None,
        x_kind: XKind::Integer,
    };
    let mut key = Vec::new();
    let top = bonus
        .iter()
        .copied()
        .max()
        .unwrap_or(0)
        .min(BANDS_LISTED - 1);
    let listed: Vec<String> = (0..=top)
        .map(|b| {
            let (f, t) = bands.band(b);
            tr!(
                ctx.lang,
                "nephilim.meta.band",
                from = f,
                to = t,
                bonus = format!("{b:+}")
            )
        })
        .collect();
    key.push(tr!(
        ctx.lang,
        "nephilim.meta.key_bands",
        bands = listed.join("; ")
    ));
    // The pair rule where rounding up matters: the last score of the +1 band and the next.
    let a = bands.band(1).1;
    key.push(tr!(
        ctx.lang,
        "nephilim.meta.key_pair",
        a,
        b = a + 1,
        bonus = format!("{:+}", bands.pair(ctx.lang, a, a + 1)?)
    ));
    key.push(tr!(
        ctx.lang,
        "nephilim.meta.key_nephilim",
        low = format!("{:+}", bands.bonus(ctx.lang, 15)?),
        high = format!("{:+}", bands.bonus(ctx.lang, 60)?)
    ));
    Ok(Output {
        name: "nephilim-meta".into(),
        title: tr!(ctx.lang, "nephilim.meta.title").into(),
        question: tr!(ctx.lang, "nephilim.meta.question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: key,
        provenance: provenance("nephilim-meta", ctx, Method::Exact, 0)
            .with_param("ka", range_text(ka))
            .with_param_text("pair", tr!(crate::lang::Lang::En, "params.ka_pair"), |l| {
                tr!(l, "params.ka_pair").to_string()
            }),
    })
}
