//! `compare.md`, `compare.csv` and the chart of the largest moves.

use crate::lang::Lang;
use std::collections::BTreeMap;

use polars::prelude::*;

use crate::balance::dec;
use crate::balance::expect::decide::num;
use crate::report::{
    column, csv_string, md_code, md_code_cell, md_text, BarChart, BarSeries, Chart, Figure,
};

use super::diff::{Comparison, Move};

/// Moves listed per output in compare.md (all are in compare.csv).
const MD_MOVES_PER_OUTPUT: usize = 30;
/// Bars in the chart.
const CHART_MOVES: usize = 12;
/// Rows added/removed listed per output in compare.md.
const MD_ROWS: usize = 10;

/// Largest move first (an undefined one before all), then by output, row and figure.
pub fn by_size(a: &Move, b: &Move) -> std::cmp::Ordering {
    let size = |m: &Move| {
        if m.delta.is_nan() {
            f64::INFINITY
        } else {
            m.delta.abs()
        }
    };
    size(b)
        .total_cmp(&size(a))
        .then_with(|| a.output.cmp(&b.output))
        .then_with(|| a.row.cmp(&b.row))
        .then_with(|| a.figure.cmp(&b.figure))
}

/// The headline for the terminal and compare.md.
pub fn headline(c: &Comparison, lang: Lang) -> String {
    let moved = c.moved().count();
    let exact = c.moved().filter(|m| m.method == "exact").count();
    let mc_total = c.figures.iter().filter(|m| m.method != "exact").count();
    tr!(
        lang,
        "compare.headline",
        moved,
        total = c.figures.len(),
        exact,
        mc = moved - exact,
        mc_total,
        alpha = dec(&num(c.alpha), lang),
        added = {
            let n = c.outputs_added.len();
            tr_fill!(
                if lang.singular(n as u64) {
                    tr!(lang, "compare.outputs_added_one")
                } else {
                    tr!(lang, "compare.outputs_added")
                },
                n
            )
        },
        removed = c.outputs_removed.len()
    )
}

fn sig(m: &Move, lang: Lang) -> String {
    match (m.p, m.q) {
        (Some(p), Some(q)) => dec(&format!("p {:.2e}, q {:.2e}", p, q), lang),
        _ if m.delta.is_nan() => tr!(lang, "compare.one_side").into(),
        _ => tr!(lang, "compare.exact").into(),
    }
}

pub fn markdown(c: &Comparison, base: &str, new: &str, lang: Lang) -> String {
    let mut s = format!(
        "# {}\n\n**{}.**\n\n",
        tr!(
            lang,
            "compare.title",
            base = md_code(base),
            new = md_code(new)
        ),
        headline(c, lang)
    );
    s += &tr!(
        lang,
        "compare.rule",
        alpha = dec(&num(c.alpha), lang),
        mc_total = c.figures.iter().filter(|m| m.method != "exact").count(),
        untested = c.untested
    );
    s += "\n\n";
    if !c.outputs_added.is_empty() || !c.outputs_removed.is_empty() {
        s += &format!("## {}\n\n", tr!(lang, "compare.added_removed"));
        for o in &c.outputs_added {
            s += &tr!(lang, "compare.added", output = md_code(o));
            s.push('\n');
        }
        for o in &c.outputs_removed {
            s += &tr!(lang, "compare.removed", output = md_code(o));
            s.push('\n');
        }
        s += "\n";
    }
    let prov: Vec<_> = c
        .outputs
        .iter()
        .filter(|o| !o.provenance.is_empty())
        .collect();
    if !prov.is_empty() {
        s += &format!(
            "## {}\n\n| {} |\n|---|---|---|---|\n",
            tr!(lang, "compare.provenance"),
            tr!(lang, "compare.provenance_header")
        );
        for o in prov {
            for (what, b, n) in &o.provenance {
                s += &format!(
                    "| {} | {} | {} | {} |\n",
                    md_code_cell(&o.name),
                    md_text(what),
                    md_text(b),
                    md_text(n)
                );
            }
        }
        s += "\n";
    }
    // Outputs ordered by their largest move.
    let mut groups: BTreeMap<&str, Vec<&Move>> = BTreeMap::new();
    for m in c.moved() {
        groups.entry(m.output.as_str()).or_default().push(m);
    }
    let mut order: Vec<(&str, Vec<&Move>)> = groups.into_iter().collect();
    for (_, v) in order.iter_mut() {
        v.sort_by(|a, b| by_size(a, b));
    }
    order.sort_by(|a, b| by_size(a.1[0], b.1[0]));
    for o in &c.outputs {
        if o.structural() && !order.iter().any(|(n, _)| *n == o.name) {
            order.push((o.name.as_str(), Vec::new()));
        }
    }
    for (name, moves) in &order {
        s += &format!(
            "## {}\n\n",
            tr!(
                lang,
                "compare.output_moved",
                output = md_code(name),
                moved = moves.len()
            )
        );
        if let Some(o) = c.outputs.iter().find(|o| o.name == *name) {
            s += &structure(o, lang);
        }
        if moves.is_empty() {
            continue;
        }
        s += &format!(
            "| {} |\n|---|---|---|---|---|---|\n",
            tr!(lang, "compare.moves_header")
        );
        for m in moves.iter().take(MD_MOVES_PER_OUTPUT) {
            s += &format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                md_text(&m.row),
                md_text(&m.figure),
                dec(&num(m.base), lang),
                dec(&num(m.new), lang),
                dec(&num(m.delta), lang),
                sig(m, lang)
            );
        }
        if moves.len() > MD_MOVES_PER_OUTPUT {
            s += "\n";
            s += &tr!(
                lang,
                "compare.more",
                more = moves.len() - MD_MOVES_PER_OUTPUT
            );
            s.push('\n');
        }
        s += "\n";
    }
    if order.is_empty() {
        s += tr!(lang, "compare.nothing");
        s.push('\n');
    }
    s
}

fn structure(o: &super::diff::OutputDiff, lang: Lang) -> String {
    let mut s = String::new();
    let list = |v: &[String]| {
        let mut t = v
            .iter()
            .take(MD_ROWS)
            .map(|x| md_code(x))
            .collect::<Vec<_>>()
            .join("; ");
        if v.len() > MD_ROWS {
            t += &tr!(lang, "compare.in_all", count = v.len());
        }
        t
    };
    for (text, v) in [
        (tr!(lang, "compare.columns_added"), &o.columns_added),
        (tr!(lang, "compare.columns_removed"), &o.columns_removed),
        (tr!(lang, "compare.rows_added"), &o.rows_added),
        (tr!(lang, "compare.rows_removed"), &o.rows_removed),
    ] {
        if !v.is_empty() {
            s += &tr_fill!(text, count = v.len(), list = list(v));
            s.push('\n');
        }
    }
    if !s.is_empty() {
        s += "\n";
    }
    s
}

/// compare.csv: every figure compared, moved ones first, biggest first.
pub fn csv(c: &Comparison) -> anyhow::Result<String> {
    let mut all: Vec<&Move> = c.figures.iter().collect();
    all.sort_by(|a, b| b.moved.cmp(&a.moved).then_with(|| by_size(a, b)));
    let defined = |v: f64| Some(v).filter(|v| !v.is_nan());
    let mut frame = DataFrame::new_infer_height(vec![
        column("output", &all, |m| m.output.as_str()),
        column("row", &all, |m| m.row.as_str()),
        column("figure", &all, |m| m.figure.as_str()),
        column("method", &all, |m| m.method),
        column("base", &all, |m| defined(m.base)),
        column("new", &all, |m| defined(m.new)),
        column("delta", &all, |m| defined(m.delta)),
        column("p_value", &all, |m| m.p),
        column("q_value", &all, |m| m.q),
        column("moved", &all, |m| m.moved),
    ])?;
    csv_string(&mut frame)
}

/// The chart of the largest moves (None when nothing moved).
pub fn chart(c: &Comparison, lang: Lang) -> Option<Figure> {
    let mut moves: Vec<&Move> = c.moved().filter(|m| !m.delta.is_nan()).collect();
    if moves.is_empty() {
        return None;
    }
    moves.sort_by(|a, b| by_size(a, b));
    moves.truncate(CHART_MOVES);
    let label =
        |m: &Move| -> String { format!("{} {}", m.figure, m.row).chars().take(28).collect() };
    let values: Vec<f64> = moves.iter().map(|m| m.delta).collect();
    let lo = values.iter().cloned().fold(0.0f64, f64::min);
    let hi = values.iter().cloned().fold(0.0f64, f64::max);
    let pad = ((hi - lo) * 0.1).max(1e-9);
    Some(Figure::new(vec![Chart::Bars(BarChart {
        title: tr!(lang, "compare.chart_title", shown = moves.len()),
        x_label: tr!(lang, "compare.chart_x").into(),
        y_label: tr!(lang, "compare.chart_y").into(),
        categories: moves.iter().map(|m| label(m)).collect(),
        series: vec![BarSeries {
            name: tr!(lang, "compare.chart_y").into(),
            values,
            intervals: Vec::new(),
        }],
        y_range: Some((lo - pad, hi + pad)),
    })]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Audit of 2026-12-07 afternoon: "1 outputs added".
    #[test]
    fn one_output_added_is_singular() {
        let c = |added: usize| Comparison {
            outputs_added: (0..added).map(|i| format!("o{i}")).collect(),
            outputs_removed: Vec::new(),
            outputs: Vec::new(),
            figures: Vec::new(),
            untested: 0,
            alpha: 0.05,
        };
        assert!(headline(&c(1), Lang::En).contains("; 1 output added, 0 removed"));
        assert!(headline(&c(2), Lang::En).contains("; 2 outputs added, 0 removed"));
        assert!(headline(&c(0), Lang::En).contains("; 0 outputs added, 0 removed"));
        assert!(headline(&c(1), Lang::Fr).contains("; sortie ajoutée : 1, retirées : 0"));
        assert!(headline(&c(2), Lang::Fr).contains("; sorties ajoutées : 2, retirées : 0"));
    }
}
