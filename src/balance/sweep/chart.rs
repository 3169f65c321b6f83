//! The sweep's charts: how the varied values are drawn (categories as bars, whole numbers
//! as points, real numbers as marked lines) and how grid points group into series.

use crate::lang::Lang;
use std::collections::BTreeMap;

use crate::report::{BarChart, BarSeries, Chart, LineChart, LineSeries, XKind};
use crate::stats::Estimate;

use super::vary::{text, Vary};

/// What the values of one `--vary` flag are, which decides its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// Names, booleans, anything not a number (modes, policies): bars per category.
    Categorical,
    /// Whole numbers (levels, HP): a point per value, integer ticks, no line.
    Integer,
    /// Fractional numbers: lines with a marker at every simulated value.
    Real,
}

pub fn value_kind(values: &[toml::Value]) -> ValueKind {
    let num = |x: &toml::Value| x.as_float().or(x.as_integer().map(|n| n as f64));
    if values.iter().any(|x| num(x).is_none()) {
        ValueKind::Categorical
    } else if values
        .iter()
        .all(|x| num(x).is_some_and(|f| f.fract() == 0.0))
    {
        ValueKind::Integer
    } else {
        ValueKind::Real
    }
}

/// The series of flag `i`'s charts: one per combination of the other flags' values
/// (named by them), each listing its grid points in the order of flag `i`'s values.
pub fn series_groups(
    varies: &[Vary],
    points: &[Vec<toml::Value>],
    i: usize,
) -> Vec<(String, Vec<usize>)> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (j, p) in points.iter().enumerate() {
        let others: Vec<String> = varies
            .iter()
            .zip(p)
            .enumerate()
            .filter(|(k, _)| *k != i)
            .map(|(_, (w, x))| format!("{}={}", w.key, text(x)))
            .collect();
        groups.entry(others.join(" ")).or_default().push(j);
    }
    groups.into_iter().collect()
}

/// Shares and probabilities on 0..1; any other figure on its own scale.
fn unit_range(metric: &[Estimate]) -> Option<(f64, f64)> {
    let inside = |x: f64| !x.is_finite() || (0.0..=1.0).contains(&x);
    metric
        .iter()
        .all(|m| inside(m.value) && inside(m.lo) && inside(m.hi))
        .then_some((0.0, 1.0))
}

pub struct Labels {
    pub title: String,
    pub x: String,
    pub y: String,
}

/// One chart panel of a sweep: `metric[j]` = (value, lo, hi) at grid point `j`, whose
/// varied value is `xs[j]`; `groups` name the series (the other flags' values) and list
/// their grid points in the order of `values`. Undefined values (NaN) are left out.
pub fn panel(
    kind: ValueKind,
    labels: Labels,
    groups: &[(String, Vec<usize>)],
    values: &[toml::Value],
    xs: &[toml::Value],
    metric: &[Estimate],
    lang: Lang,
) -> Chart {
    let defined = metric.iter().any(|m| m.value.is_finite());
    let title = if defined {
        labels.title
    } else {
        tr!(lang, "sweep.undefined_title", title = labels.title)
    };
    if kind == ValueKind::Categorical {
        let categories: Vec<String> = values.iter().map(text).collect();
        let series = groups
            .iter()
            .map(|(name, js)| {
                let mut s = BarSeries {
                    name: name.clone(),
                    values: vec![f64::NAN; categories.len()],
                    intervals: vec![(f64::NAN, f64::NAN); categories.len()],
                };
                for &j in js {
                    if let Some(c) = values.iter().position(|x| *x == xs[j]) {
                        s.values[c] = metric[j].value;
                        s.intervals[c] = (metric[j].lo, metric[j].hi);
                    }
                }
                s
            })
            .collect();
        return Chart::Bars(BarChart {
            title,
            x_label: labels.x,
            y_label: labels.y,
            categories,
            series,
            y_range: unit_range(metric),
        });
    }
    let series = groups
        .iter()
        .map(|(name, js)| {
            let mut s = LineSeries {
                name: name.clone(),
                ..Default::default()
            };
            for &j in js {
                let x = xs[j]
                    .as_float()
                    .or(xs[j].as_integer().map(|n| n as f64))
                    .unwrap_or(f64::NAN);
                let Estimate { value: p, lo, hi } = metric[j];
                if p.is_finite() && x.is_finite() {
                    s.points.push((x, p));
                    s.band.push((x, lo, hi));
                }
            }
            s
        })
        .collect();
    Chart::Lines(LineChart {
        title,
        x_label: labels.x,
        y_label: labels.y,
        series,
        y_range: unit_range(metric),
        x_kind: if kind == ValueKind::Integer {
            XKind::Integer
        } else {
            XKind::Sampled
        },
    })
}

#[cfg(test)]
mod tests {
    use super::super::vary::{grid, parse_vary};
    use super::*;

    #[test]
    fn varied_values_are_classified_for_their_chart() {
        let kind = |s: &str| value_kind(&parse_vary(s).unwrap().values);
        assert_eq!(
            kind("hero.mode=offensive,defensive"),
            ValueKind::Categorical
        );
        assert_eq!(kind("hero.flag=true,false"), ValueKind::Categorical);
        assert_eq!(kind("hero.x=1,fast"), ValueKind::Categorical);
        assert_eq!(kind("hero.level=1..5"), ValueKind::Integer);
        assert_eq!(kind("hero.hp=10.0,20.0"), ValueKind::Integer);
        assert_eq!(
            kind("hero.policy.dark_below_hp=0.2..0.8:0.1"),
            ValueKind::Real
        );
    }

    fn labels() -> Labels {
        Labels {
            title: "t".into(),
            x: "x".into(),
            y: "y".into(),
        }
    }

    /// The panel of the first varied key over `metric`, as `sweep` draws it.
    fn first_panel(vs: &[Vary], metric: &[Estimate]) -> Chart {
        let pts = grid(vs);
        let groups = series_groups(vs, &pts, 0);
        let xs: Vec<toml::Value> = pts.iter().map(|p| p[0].clone()).collect();
        panel(
            value_kind(&vs[0].values),
            labels(),
            &groups,
            &vs[0].values,
            &xs,
            metric,
            Lang::En,
        )
    }

    #[test]
    fn categorical_sweeps_are_bars_per_category() {
        let vs = [
            parse_vary("a.mode=offensive,defensive,balanced").unwrap(),
            parse_vary("b.level=1,2").unwrap(),
        ];
        let metric: Vec<Estimate> = (0..6)
            .map(|j| Estimate::new(j as f64 / 10.0, 0.0, 1.0))
            .collect();
        match first_panel(&vs, &metric) {
            Chart::Bars(b) => {
                assert_eq!(b.categories, ["offensive", "defensive", "balanced"]);
                assert_eq!(b.series.len(), 2);
                assert_eq!(b.series[0].name, "b.level=1");
                // Grid order: (off,1)=0 (off,2)=1 (def,1)=2 ...
                assert_eq!(b.series[0].values, vec![0.0, 0.2, 0.4]);
                assert_eq!(b.series[1].values, vec![0.1, 0.3, 0.5]);
            }
            other => panic!("expected bars, got {other:?}"),
        }
    }

    #[test]
    fn integer_sweeps_are_points_and_real_sweeps_marked_lines() {
        let vs = [parse_vary("a.level=1..5").unwrap()];
        let mut metric: Vec<Estimate> = (0..5)
            .map(|j| Estimate::new(0.1 * j as f64, 0.0, 1.0))
            .collect();
        // An undefined rate is left out, not drawn as 0.
        metric[2].value = f64::NAN;
        match first_panel(&vs, &metric) {
            Chart::Lines(c) => {
                assert_eq!(c.x_kind, XKind::Integer);
                let x: Vec<f64> = c.series[0].points.iter().map(|p| p.0).collect();
                assert_eq!(x, vec![1.0, 2.0, 4.0, 5.0]);
            }
            other => panic!("expected points, got {other:?}"),
        }
        let vs = [parse_vary("a.p=0.2..0.4:0.1").unwrap()];
        match first_panel(&vs, &[Estimate::new(0.5, 0.4, 0.6); 3]) {
            Chart::Lines(c) => assert_eq!(c.x_kind, XKind::Sampled),
            other => panic!("expected lines, got {other:?}"),
        }
    }
}
