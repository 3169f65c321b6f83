//! The stat-build part of the leveling report (issue 10 item 11): per build, level and
//! stat, the mean with its 95% interval; the builds share characters and dice.

use polars::prelude::*;

use crate::engine::Moments;
use crate::lang::Lang;
use crate::report::interval_columns;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance, XKind};
use crate::stats::Estimate;
use crate::systems::cosmos::growth::leveling::LevelPolicy;
use crate::systems::cosmos::growth::stats::Stat;

/// The `leveling-builds` output and its key figures (one per build, at `max_level`).
pub fn builds_output(
    lang: Lang,
    builds: &[(String, LevelPolicy)],
    acc: &[Vec<Moments>],
    max_level: u32,
    prov: &Provenance,
) -> anyhow::Result<(Output, Vec<String>)> {
    let (mut name, mut lvl, mut stat, mut mean) = (vec![], vec![], vec![], vec![]);
    let mut series = Vec::new();
    let mut key = Vec::new();
    for ((n, p), a) in builds.iter().zip(acc) {
        // The heaviest weight (first in rulebook order) is the build's aim: charted.
        let aim = (0..6).max_by_key(|&i| (p.weights[i], 6 - i)).unwrap_or(0);
        let mut s = LineSeries {
            name: format!("{n}: {}", Stat::ALL[aim].label(lang)),
            ..Default::default()
        };
        for l in 0..max_level as usize {
            for (k, st) in Stat::ALL.iter().enumerate() {
                let m = &a[l * 6 + k];
                let e = Estimate::mean(m);
                name.push(n.clone());
                lvl.push(l as i64 + 1);
                stat.push(st.name());
                mean.push(e);
                if k == aim {
                    s.points.push((l as f64 + 1.0, e.value));
                    s.band.push((l as f64 + 1.0, e.lo, e.hi));
                }
            }
        }
        let last = (max_level as usize - 1) * 6;
        let means: Vec<String> = Stat::ALL
            .iter()
            .enumerate()
            .map(|(k, st)| format!("{} {}", st.label(lang), lang.num(a[last + k].mean, 1)))
            .collect();
        key.push(tr!(
            lang,
            "growth.builds.key",
            name = crate::report::md_text(n),
            weights = Stat::ALL
                .iter()
                .filter(|s| p.weights[**s as usize] > 0)
                .map(|s| format!("{} {}", s.label(lang), p.weights[*s as usize]))
                .collect::<Vec<_>>()
                .join(", "),
            level = max_level,
            means = means.join(", ")
        ));
        series.push(s);
    }
    let mut cols = vec![
        Column::new("build".into(), name),
        Column::new("level".into(), lvl),
        Column::new("stat".into(), stat),
    ];
    cols.extend(interval_columns("mean", &mean, |&e| e));
    PerLevel {
        name: "leveling-builds",
        title: tr!(lang, "growth.builds.title"),
        question: tr!(lang, "growth.builds.question"),
        chart_title: tr!(lang, "growth.builds.chart_title"),
        y_label: tr!(lang, "growth.leveling.y_stat"),
        y_range: None,
    }
    .output(lang, series, cols, key, prov)
}

/// What sets apart the leveling outputs drawn against the level (builds, genes, skills):
/// the output's name and words, the chart's y axis. The rest is one shape.
pub(super) struct PerLevel {
    pub name: &'static str,
    pub title: &'static str,
    pub question: &'static str,
    pub chart_title: &'static str,
    pub y_label: &'static str,
    pub y_range: Option<(f64, f64)>,
}

impl PerLevel {
    /// The output (the table `cols`, one line chart of `series` by level) and its key
    /// figures, which the output also carries.
    pub fn output(
        self,
        lang: Lang,
        series: Vec<LineSeries>,
        cols: Vec<Column>,
        key: Vec<String>,
        prov: &Provenance,
    ) -> anyhow::Result<(Output, Vec<String>)> {
        let chart = LineChart {
            x_kind: XKind::Integer,
            title: self.chart_title.into(),
            x_label: tr!(lang, "growth.leveling.x_level").into(),
            y_label: self.y_label.into(),
            y_range: self.y_range,
            series,
        };
        let frame = DataFrame::new_infer_height(cols)?;
        Ok((
            Output {
                name: self.name.into(),
                title: self.title.into(),
                question: self.question.into(),
                frame,
                figures: vec![Figure::new(vec![Chart::Lines(chart)])],
                key_figures: key.clone(),
                provenance: prov.for_output(self.name),
            },
            key,
        ))
    }
}
