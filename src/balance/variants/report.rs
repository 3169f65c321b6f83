//! variants.md (the answer first), variants.csv (every compared figure of every variant),
//! headlines.csv and one bar chart per headline figure across the variants.

use crate::lang::Lang;
use polars::prelude::*;

use crate::balance::compare::Move;
use crate::balance::dec;
use crate::balance::expect::decide;
use crate::stats::Estimate;

/// A number for the page, in its language's decimal mark.
fn num(x: f64, lang: Lang) -> String {
    dec(&decide::num(x), lang)
}
use crate::report::{
    column, csv_string, interval_columns, md_code, md_text, BarChart, BarSeries, Chart, Figure,
};

use super::model::VariantsFile;
use super::study::{HeadlineValue, Study};

/// Largest moves listed per variant in variants.md.
const LISTED_MOVES: usize = 15;

fn value_text(h: &HeadlineValue, lang: Lang) -> String {
    match &h.value {
        Err(_) => tr!(lang, "variants.na").into(),
        Ok(v) => match v.interval95 {
            Some((lo, hi)) => format!(
                "{} [{} – {}]",
                num(v.value, lang),
                num(lo, lang),
                num(hi, lang)
            ),
            None => num(v.value, lang),
        },
    }
}

fn verdict(m: &Option<Move>) -> &'static str {
    match m {
        Some(m) if m.moved => "moved",
        Some(m) if m.method == "exact" => "unchanged",
        Some(_) => "no significant move",
        None => "not compared",
    }
}

/// [`verdict`] in the page's language.
fn verdict_shown(v: &str, lang: Lang) -> &'static str {
    match v {
        "moved" => tr!(lang, "variants.moved"),
        "unchanged" => tr!(lang, "variants.unchanged"),
        "no significant move" => tr!(lang, "variants.no_significant_move"),
        _ => tr!(lang, "variants.not_compared"),
    }
}

fn by_size(a: &&Move, b: &&Move) -> std::cmp::Ordering {
    crate::balance::compare::by_size(a, b)
}

/// One sentence per variant: its headline figures against the book, then how much moved.
fn answer(f: &VariantsFile, s: &Study, lang: Lang) -> String {
    let mut md = String::new();
    for (vi, v) in s.variants.iter().enumerate().skip(1) {
        let c = v.comparison.as_ref().expect("variants are compared");
        let moved = c.moved().count();
        let mut parts = Vec::new();
        for (hi, h) in f.headlines.iter().enumerate() {
            let (b, x) = (&s.headlines[hi][0], &s.headlines[hi][vi]);
            let (Ok(bv), Ok(xv)) = (&b.value, &x.value) else {
                let na = if b.value.is_ok() {
                    tr!(lang, "variants.na_absent")
                } else {
                    tr!(lang, "variants.na")
                };
                parts.push(format!("{} {na}", md_text(&h.name)));
                continue;
            };
            parts.push(match verdict(&x.moved) {
                "moved" => format!(
                    "{} {} → {}",
                    md_text(&h.name),
                    num(bv.value, lang),
                    num(xv.value, lang)
                ),
                other => format!(
                    "{} {} ({})",
                    md_text(&h.name),
                    num(bv.value, lang),
                    verdict_shown(other, lang)
                ),
            });
        }
        let what = md_text(&if v.description.is_empty() {
            v.options.join(", ")
        } else {
            v.description.clone()
        });
        let largest = c
            .moved()
            .filter(|m| !m.delta.is_nan())
            .min_by(by_size)
            .map(|m| {
                tr!(
                    lang,
                    "variants.largest",
                    figure = md_code(&m.figure),
                    output = md_text(&m.output),
                    row = md_text(&m.row),
                    base = num(m.base, lang),
                    new = num(m.new, lang)
                )
            })
            .unwrap_or_default();
        let heads = if parts.is_empty() {
            String::new()
        } else {
            let sep = tr!(lang, "variants.separator");
            format!("{}{sep}", parts.join(sep))
        };
        md += &tr!(
            lang,
            "variants.answer_line",
            name = md_text(&v.name),
            what,
            heads,
            moved,
            total = c.figures.len(),
            largest
        );
        let (absent, new) = structure(c);
        if absent.len() + new.len() > 0 {
            md += &tr!(
                lang,
                "variants.structure_count",
                absent = absent.len(),
                new = new.len()
            );
        }
        md.push('\n');
    }
    md
}

/// What the book has and the variant lacks (outputs, then rows as `output (row)`), and
/// what the variant adds: no figure there was compared, so the answer says so rather than
/// leave them out in silence (`edition = "previous"` has no DNA points, C-EDITION).
fn structure(c: &crate::balance::compare::Comparison) -> (Vec<String>, Vec<String>) {
    let mut absent = c.outputs_removed.clone();
    let mut new = c.outputs_added.clone();
    for o in &c.outputs {
        absent.extend(o.rows_removed.iter().map(|r| format!("{} ({r})", o.name)));
        new.extend(o.rows_added.iter().map(|r| format!("{} ({r})", o.name)));
    }
    (absent, new)
}

pub fn markdown(f: &VariantsFile, s: &Study, provenance: &str, lang: Lang) -> String {
    let mut md = format!(
        "# {}\n\n{}\n\n## {}\n\n",
        md_text(&f.title),
        md_text(&f.question),
        tr!(lang, "variants.answer")
    );
    md += &answer(f, s, lang);
    md += "\n";
    md += &tr!(
        lang,
        "variants.rule",
        seed = f.seed,
        alpha = num(f.alpha, lang),
        blocks = super::paired::BLOCKS
    );
    md += "\n";
    if !f.headlines.is_empty() {
        md += &format!(
            "\n## {}\n\n| {} | ",
            tr!(lang, "variants.headlines"),
            tr!(lang, "variants.figure")
        );
        md += &s
            .variants
            .iter()
            .map(|v| md_text(&v.name))
            .collect::<Vec<_>>()
            .join(" | ");
        md += " |\n|---|";
        md += &"---|".repeat(s.variants.len());
        md += "\n";
        for (hi, h) in f.headlines.iter().enumerate() {
            md += &format!("| {} |", md_text(&h.name));
            for (vi, x) in s.headlines[hi].iter().enumerate() {
                let mark = if vi > 0 && verdict(&x.moved) == "moved" {
                    format!(" ({})", tr!(lang, "variants.moved"))
                } else {
                    String::new()
                };
                md += &format!(" {}{mark} |", value_text(x, lang));
            }
            md += "\n";
        }
        for (hi, h) in f.headlines.iter().enumerate() {
            md += &format!(
                "\n![{}](headline-{}.png)\n",
                tr!(lang, "variants.chart_alt", name = md_text(&h.name)),
                hi + 1
            );
        }
    }
    md += &format!("\n## {}\n", tr!(lang, "variants.per_variant"));
    for v in s.variants.iter().skip(1) {
        let c = v.comparison.as_ref().expect("variants are compared");
        md += &format!(
            "\n### {}\n\n{}{}\n",
            md_text(&v.name),
            if v.description.is_empty() {
                String::new()
            } else {
                format!("{}. ", md_text(&v.description))
            },
            tr!(
                lang,
                "variants.rules_changed",
                options = v
                    .options
                    .iter()
                    .map(|o| md_code(o))
                    .collect::<Vec<_>>()
                    .join(", "),
                moved = c.moved().count(),
                total = c.figures.len(),
                untested = c.untested
            )
        );
        let (absent, new) = structure(c);
        for (list, key) in [
            (&absent, tr!(lang, "variants.absent_rows")),
            (&new, tr!(lang, "variants.new_rows")),
        ] {
            if !list.is_empty() {
                let shown: Vec<String> = list.iter().take(LISTED_MOVES).cloned().collect();
                let more = list.len().saturating_sub(LISTED_MOVES);
                md += "\n";
                md += &tr_fill!(
                    key,
                    count = list.len(),
                    rows = md_text(&shown.join("; ")),
                    more = if more > 0 {
                        tr!(lang, "variants.and_more", more)
                    } else {
                        String::new()
                    }
                );
                md += "\n";
            }
        }
        let mut moves: Vec<&Move> = c.moved().collect();
        moves.sort_by(by_size);
        if !moves.is_empty() {
            md += &format!(
                "\n| {} |\n|---|---|---|---|---|---|---|\n",
                tr!(lang, "variants.moves_header")
            );
            for m in moves.iter().take(LISTED_MOVES) {
                md += &format!(
                    "| {} | {} | {} | {} | {} | {} | {} |\n",
                    m.output,
                    m.row,
                    m.figure,
                    num(m.base, lang),
                    num(m.new, lang),
                    num(m.delta, lang),
                    m.q.map(|q| num(q, lang))
                        .unwrap_or_else(|| tr!(lang, "variants.exact").into())
                );
            }
            if moves.len() > LISTED_MOVES {
                md += "\n";
                md += &tr!(lang, "variants.more", more = moves.len() - LISTED_MOVES);
                md += "\n";
            }
        }
    }
    md += &format!("\n## {}\n\n", tr!(lang, "variants.studied"));
    for (src, d) in f.study.iter().zip(&s.dirs) {
        md += &tr!(
            lang,
            "variants.studied_line",
            source = md_text(&src.describe()),
            dir = d
        );
        md += "\n";
    }
    md += "\n";
    md += tr!(lang, "variants.files");
    md += "\n";
    md += &format!("\n## {}\n\n{provenance}\n", tr!(lang, "tune.provenance"));
    md
}

/// Every compared figure of every variant, one row each.
pub fn csv(s: &Study) -> anyhow::Result<String> {
    let all: Vec<(&str, &Move)> = s
        .variants
        .iter()
        .skip(1)
        .flat_map(|v| {
            v.comparison
                .iter()
                .flat_map(|c| c.figures.iter())
                .map(move |m| (v.name.as_str(), m))
        })
        .collect();
    let mut frame = DataFrame::new_infer_height(vec![
        column("variant", &all, |(v, _)| *v),
        column("output", &all, |(_, m)| m.output.as_str()),
        column("row", &all, |(_, m)| m.row.as_str()),
        column("figure", &all, |(_, m)| m.figure.as_str()),
        column("method", &all, |(_, m)| m.method),
        column("book", &all, |(_, m)| m.base),
        column("variant_value", &all, |(_, m)| m.new),
        column("delta", &all, |(_, m)| m.delta),
        column("p", &all, |(_, m)| m.p),
        column("q", &all, |(_, m)| m.q),
        column("moved", &all, |(_, m)| m.moved),
    ])?;
    csv_string(&mut frame)
}

/// The headline figures: one row per (headline, variant).
pub fn headline_csv(f: &VariantsFile, s: &Study) -> anyhow::Result<String> {
    let nan = f64::NAN;
    // A half-open interval's open side stays an empty cell, as in the run's CSV.
    let finite = |x: f64| if x.is_finite() { x } else { nan };
    let mut rows = Vec::new();
    for (i, h) in f.headlines.iter().enumerate() {
        for (vi, x) in s.headlines[i].iter().enumerate() {
            let v = x.value.as_ref().ok();
            let (lo, hi) = v.and_then(|v| v.interval95).unwrap_or((nan, nan));
            let value = Estimate::new(v.map_or(nan, |v| v.value), finite(lo), finite(hi));
            let moved = (vi > 0).then(|| verdict(&x.moved) == "moved");
            rows.push((&h.name, &s.variants[vi].name, value, moved));
        }
    }
    let mut cols = vec![
        column("headline", &rows, |r| r.0.as_str()),
        column("variant", &rows, |r| r.1.as_str()),
    ];
    cols.extend(interval_columns("value", &rows, |r| r.2));
    cols.push(column("moved", &rows, |r| r.3));
    let mut frame = DataFrame::new_infer_height(cols)?;
    csv_string(&mut frame)
}

/// Headline `i` across the book and the variants (`headline-<i+1>.png`).
pub fn chart(f: &VariantsFile, s: &Study, i: usize, lang: Lang) -> Figure {
    let h = &f.headlines[i];
    let xs = &s.headlines[i];
    let values: Vec<f64> = xs
        .iter()
        .map(|x| x.value.as_ref().map(|v| v.value).unwrap_or(f64::NAN))
        .collect();
    let intervals: Vec<(f64, f64)> = xs
        .iter()
        .zip(&values)
        .map(|(x, v)| {
            x.value
                .as_ref()
                .ok()
                .and_then(|v| v.interval95)
                .unwrap_or((*v, *v))
        })
        .collect();
    let any_interval = xs
        .iter()
        .any(|x| x.value.as_ref().is_ok_and(|v| v.interval95.is_some()));
    Figure::new(vec![Chart::Bars(BarChart {
        title: h.name.clone(),
        x_label: tr!(lang, "variants.chart_x").into(),
        y_label: h.figure.clone(),
        categories: s.variants.iter().map(|v| v.name.clone()).collect(),
        series: vec![BarSeries {
            name: h.name.clone(),
            values,
            intervals: if any_interval { intervals } else { Vec::new() },
        }],
        y_range: None,
    })])
}
