//! The DNA part of the leveling report (issue 10 item 11): per policy and level, DNA
//! points left unspent, genes fully active and P(each wish met), with 95% intervals.

use polars::prelude::*;

use crate::lang::Lang;
use crate::report::interval_columns;
use crate::report::{LineSeries, Output, Provenance};
use crate::stats::Proportion;

use super::super::common::nonnegative_mean;

use super::builds::PerLevel;
use super::model::DnaPlan;
use super::sim::PolicyAcc;

/// The `leveling-genes` output (one row per policy, level and wish) and its key figures.
pub fn genes_output(
    lang: Lang,
    d: &DnaPlan,
    acc: &[PolicyAcc],
    max_level: u32,
    prov: &Provenance,
) -> anyhow::Result<(Output, Vec<String>)> {
    let (mut pol, mut lvl, mut wish, mut alleles) = (vec![], vec![], vec![], vec![]);
    let (mut p_met, mut p_all, mut unspent, mut full) = (vec![], vec![], vec![], vec![]);
    let mut series = Vec::new();
    let mut key = Vec::new();
    for ((name, p), a) in d.policies.iter().zip(acc) {
        let nw = p.wishes.len();
        let mut s = LineSeries {
            name: tr!(lang, "growth.genes.series", name),
            ..Default::default()
        };
        for l in 0..max_level as usize {
            let c = &a.all[l];
            let all = Proportion::new(c.counts[1], c.total());
            s.points.push((l as f64 + 1.0, all.p));
            s.band.push((l as f64 + 1.0, all.lo, all.hi));
            let f = nonnegative_mean(&a.have[l]);
            for (w, x) in p.wishes.iter().enumerate() {
                let c = &a.wish[l * nw + w];
                pol.push(name.clone());
                lvl.push(l as i64 + 1);
                wish.push(d.tree.genes[x.gene].name.clone());
                alleles.push(x.alleles as i64);
                p_met.push(Proportion::new(c.counts[1], c.total()));
                p_all.push(all.p);
                unspent.push(a.unspent[l].mean);
                full.push(f);
            }
        }
        let last = max_level as usize - 1;
        let c = &a.all[last];
        let r = Proportion::new(c.counts[1], c.total());
        let first_half = a.all.iter().position(|c| 2 * c.counts[1] >= c.total());
        key.push(tr!(
            lang,
            "growth.genes.key",
            name = crate::report::md_text(name),
            level = max_level,
            p = lang.num(r.p, 4),
            lo = lang.num(r.lo, 4),
            hi = lang.num(r.hi, 4),
            half = first_half.map_or(tr!(lang, "growth.genes.never_half").to_string(), |l| {
                tr!(lang, "growth.genes.half_from", level = l + 1)
            }),
            full = lang.num(a.have[last].mean, 2),
            unspent = lang.num(a.unspent[last].mean, 2)
        ));
        series.push(s);
    }
    let mut cols = vec![
        Column::new("policy".into(), pol),
        Column::new("level".into(), lvl),
        Column::new("gene".into(), wish),
        Column::new("alleles".into(), alleles),
    ];
    cols.extend(interval_columns("p_wish_met", &p_met, |&p| p));
    cols.push(Column::new("p_all_wishes_met".into(), p_all));
    cols.push(Column::new("dna_unspent_mean".into(), unspent));
    let [full_mean, full_lo, full_hi] = interval_columns("genes_full", &full, |&e| e);
    cols.extend([
        full_mean.with_name("genes_full_mean".into()),
        full_lo,
        full_hi,
    ]);
    PerLevel {
        name: "leveling-genes",
        title: tr!(lang, "growth.genes.title"),
        question: tr!(lang, "growth.genes.question"),
        chart_title: tr!(lang, "growth.genes.chart_title"),
        y_label: tr!(lang, "growth.expedition.y_probability"),
        y_range: Some((0.0, 1.0)),
    }
    .output(lang, series, cols, key, prov)
}
