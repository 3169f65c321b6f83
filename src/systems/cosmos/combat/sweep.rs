//! `cosmosim sweep`: a combat scenario run over a grid of edited values, one CSV row per
//! grid point with 95% intervals and a line chart per varied value.

use std::collections::BTreeMap;

use polars::prelude::*;

use crate::error::UserError;
use crate::report::{
    BarChart, BarSeries, Chart, Figure, LineChart, LineSeries, Output, Provenance, XKind,
};
use crate::scenario::ScenarioFile;
use crate::systems::RunOverrides;

use super::report::{headline, options_in_force, Headline};
use super::{load, simulate, DEFAULT_TRIALS};

/// One `--vary key.path=values` flag.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    /// As typed (`hero.level`).
    pub key: String,
    pub values: Vec<toml::Value>,
}

impl Vary {
    /// CSV column name: the key path in snake_case (`hero_policy_dark_below_hp`).
    pub fn column(&self) -> String {
        self.key.replace(['.', '-'], "_")
    }
}

fn scalar(s: &str) -> toml::Value {
    let s = s.trim();
    if let Ok(i) = s.parse::<i64>() {
        toml::Value::Integer(i)
    } else if let Ok(f) = s.parse::<f64>() {
        toml::Value::Float(f)
    } else if s == "true" || s == "false" {
        toml::Value::Boolean(s == "true")
    } else {
        toml::Value::String(s.trim_matches('"').to_string())
    }
}

/// Parses `key.path=a,b,c` or `key.path=lo..hi:step` (step 1 by default).
pub fn parse_vary(s: &str) -> Result<Vary, String> {
    let (key, spec) = s.split_once('=').ok_or_else(|| {
        format!("`{s}`: expected key.path=a,b or key.path=lo..hi:step, e.g. hero.level=3,5")
    })?;
    let key = key.trim().to_string();
    if key.is_empty() || key.split('.').any(|p| p.is_empty()) {
        return Err(format!(
            "`{s}`: the key path must be dot-separated names, e.g. hero.policy.dark_below_hp"
        ));
    }
    let values = if let Some((lo, rest)) = spec.split_once("..") {
        let (hi, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let num = |x: &str| {
            x.trim()
                .parse::<f64>()
                .map_err(|_| format!("`{x}` is not a number in `{s}`"))
        };
        let (lo_f, hi_f, step_f) = (num(lo)?, num(hi)?, num(step)?);
        if step_f <= 0.0 || hi_f < lo_f {
            return Err(format!(
                "`{s}`: the range needs lo <= hi and a positive step"
            ));
        }
        let n = ((hi_f - lo_f) / step_f + 1e-9).floor() as usize + 1;
        if n > 1000 {
            return Err(format!("`{s}`: {n} values; at most 1000"));
        }
        let ints = [lo, hi, step]
            .iter()
            .all(|x| x.trim().parse::<i64>().is_ok());
        (0..n)
            .map(|i| {
                let v = lo_f + step_f * i as f64;
                if ints {
                    toml::Value::Integer(v.round() as i64)
                } else {
                    // Round off binary noise (0.30000000000000004).
                    toml::Value::Float((v * 1e9).round() / 1e9)
                }
            })
            .collect()
    } else {
        spec.split(',').map(scalar).collect::<Vec<_>>()
    };
    if values.is_empty() {
        return Err(format!("`{s}`: no values"));
    }
    Ok(Vary { key, values })
}

/// The key path in the file: a first segment naming a combatant means
/// `combatants.<name>`.
fn file_path(root: &toml::Table, key: &str) -> Vec<String> {
    let parts: Vec<String> = key.split('.').map(str::to_string).collect();
    let is_top = root.contains_key(&parts[0]);
    let is_fighter = root
        .get("combatants")
        .and_then(|c| c.as_table())
        .is_some_and(|c| c.contains_key(&parts[0]));
    if !is_top && is_fighter {
        std::iter::once("combatants".to_string())
            .chain(parts)
            .collect()
    } else {
        parts
    }
}

fn set(
    root: &mut toml::Table,
    path: &[String],
    value: toml::Value,
    key: &str,
) -> Result<(), UserError> {
    let mut t = root;
    for seg in &path[..path.len() - 1] {
        let next = t
            .entry(seg.clone())
            .or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = next.as_table_mut().ok_or_else(|| {
            UserError::new(format!(
                "--vary {key}: `{seg}` is a value, not a table, in the scenario file"
            ))
        })?;
    }
    t.insert(path[path.len() - 1].clone(), value);
    Ok(())
}

fn text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Every grid point, first flag slowest.
fn grid(varies: &[Vary]) -> Vec<Vec<toml::Value>> {
    let mut points = vec![vec![]];
    for v in varies {
        points = points
            .into_iter()
            .flat_map(|p| {
                v.values.iter().map(move |x| {
                    let mut q = p.clone();
                    q.push(x.clone());
                    q
                })
            })
            .collect();
    }
    points
}

/// Keys whose value cannot change a sweep's answer, and the grid size cap, checked before
/// any point is built.
fn check_grid(varies: &[Vary], o: &RunOverrides) -> Result<(), UserError> {
    for v in varies {
        let refused = match v.key.as_str() {
            "system" | "kind" => Some("it picks the kind of scenario, not a value of it"),
            "title" | "question" => Some("it is a label; it cannot change the numbers"),
            "run.trials" if o.trials.is_some() => Some("--trials overrides it"),
            "run.seed" if o.seed.is_some() => Some("--seed overrides it"),
            _ => None,
        };
        if let Some(why) = refused {
            return Err(UserError::new(format!(
                "--vary {}: this key cannot be varied: {why}; vary a combatant, attack, policy or rule key",
                v.key
            )));
        }
    }
    let cap = o
        .max_points
        .unwrap_or(crate::limits::DEFAULT_MAX_GRID_POINTS);
    let mut n: u64 = 1;
    for v in varies {
        n = n.saturating_mul(v.values.len() as u64);
    }
    if n > cap {
        return Err(UserError::new(format!(
            "the grid has {n} points; allowed: at most {cap} (raise it with --max-points, up to {})",
            crate::limits::MAX_GRID_POINTS
        )));
    }
    Ok(())
}

/// Runs the grid and returns the `combat-sweep` output.
pub fn sweep(file: &ScenarioFile, varies: &[Vary], o: &RunOverrides) -> anyhow::Result<Output> {
    let base: toml::Table = toml::from_str(&file.text).map_err(|_| {
        file.parse_raw::<toml::Table>()
            .err()
            .unwrap_or_else(|| UserError::new("not TOML"))
    })?;
    let mut seen = std::collections::BTreeSet::new();
    for v in varies {
        if !seen.insert(v.key.clone()) {
            return Err(
                UserError::new(format!("--vary {}: the same key is varied twice", v.key)).into(),
            );
        }
    }
    check_grid(varies, o)?;
    let points = grid(varies);
    // Validate every point before running any.
    let mut runs = Vec::new();
    for p in &points {
        let mut t = base.clone();
        let label: Vec<String> = varies
            .iter()
            .zip(p)
            .map(|(v, x)| format!("{}={}", v.key, text(x)))
            .collect();
        for (v, x) in varies.iter().zip(p) {
            set(&mut t, &file_path(&base, &v.key), x.clone(), &v.key)?;
        }
        let edited = file.edited(toml::to_string(&t)?);
        let (raw, model) = load(&edited).map_err(|e| {
            UserError::new(format!(
                "with --vary {}: {} (line numbers refer to the edited file)",
                label.join(" "),
                e.0
            ))
        })?;
        let (ctx, trials) = o.resolve(&edited, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
        runs.push((model, ctx, trials));
    }
    let mut heads: Vec<Headline> = Vec::new();
    let mut trials_used = 0;
    let mut seed = 0;
    let mut options = BTreeMap::new();
    for (model, ctx, trials) in runs {
        let (sim, acc) = simulate(model, &ctx, trials);
        heads.push(headline(&sim, &acc));
        trials_used = trials;
        seed = ctx.engine.seed();
        options = options_in_force(&ctx);
    }
    let mut cols: Vec<Column> = Vec::new();
    for (i, v) in varies.iter().enumerate() {
        let numeric = v.values.iter().all(|x| x.is_integer() || x.is_float());
        if v.values.iter().all(|x| x.is_integer()) {
            let xs: Vec<i64> = points
                .iter()
                .map(|p| p[i].as_integer().unwrap_or(0))
                .collect();
            cols.push(Column::new(v.column().into(), xs));
        } else if numeric {
            let xs: Vec<f64> = points
                .iter()
                .map(|p| {
                    p[i].as_float()
                        .unwrap_or_else(|| p[i].as_integer().unwrap_or(0) as f64)
                })
                .collect();
            cols.push(Column::new(v.column().into(), xs));
        } else {
            cols.push(Column::new(
                v.column().into(),
                points.iter().map(|p| text(&p[i])).collect::<Vec<_>>(),
            ));
        }
    }
    cols.push(Column::new(
        "trials".into(),
        vec![trials_used; points.len()],
    ));
    let mut triple = |name: &str, f: &dyn Fn(&Headline) -> (f64, f64, f64)| {
        let (a, b): (Vec<f64>, (Vec<f64>, Vec<f64>)) = heads
            .iter()
            .map(|h| {
                let r = f(h);
                (r.0, (r.1, r.2))
            })
            .unzip();
        cols.push(Column::new(name.into(), a));
        cols.push(Column::new(format!("{name}_lo").into(), b.0));
        cols.push(Column::new(format!("{name}_hi").into(), b.1));
    };
    let sides: Vec<String> = heads[0].win.iter().map(|w| w.0.clone()).collect();
    for (i, s) in sides.iter().enumerate() {
        let col = format!(
            "p_win_{}",
            s.to_lowercase()
                .replace(|c: char| !c.is_ascii_alphanumeric(), "_")
        );
        triple(&col, &|h: &Headline| (h.win[i].1, h.win[i].2, h.win[i].3));
    }
    triple("p_round_cap", &|h: &Headline| h.round_cap);
    triple("apocalypse_per_dark_point", &|h: &Headline| {
        h.apocalypse_per_dark
    });
    triple("apocalypse_per_combat", &|h: &Headline| {
        h.apocalypse_per_combat
    });
    triple("p_apocalypse_in_combat", &|h: &Headline| {
        h.p_apocalypse_in_combat
    });
    triple("revive_per_dark_point", &|h: &Headline| h.revive_per_dark);
    triple("backlash_per_posture", &|h: &Headline| {
        h.backlash_per_posture
    });
    cols.push(Column::new(
        "mean_rounds".into(),
        heads.iter().map(|h| h.mean_rounds).collect::<Vec<_>>(),
    ));
    cols.push(Column::new(
        "dark_points_spent".into(),
        heads.iter().map(|h| h.dark_spent).collect::<Vec<_>>(),
    ));
    if heads.iter().any(|h| h.aura.is_some()) {
        // The aura columns of `combat-sides.csv`, summed over sides (C-AURA); zeros at grid
        // points without aura.
        let aura = |h: &Headline| h.aura.unwrap_or_default();
        cols.push(Column::new(
            "aura_uses_per_combat".into(),
            heads
                .iter()
                .map(|h| aura(h).uses as f64 / h.combats.max(1) as f64)
                .collect::<Vec<_>>(),
        ));
        cols.push(Column::new(
            "aura_cancelled".into(),
            heads.iter().map(|h| aura(h).cancelled).collect::<Vec<_>>(),
        ));
        cols.push(Column::new(
            "aura_rolled".into(),
            heads.iter().map(|h| aura(h).rolled()).collect::<Vec<_>>(),
        ));
        let mut t = |name: &str, f: &dyn Fn(&super::acc::AuraCounts) -> (u64, u64)| {
            let r: Vec<(f64, f64, f64)> = heads
                .iter()
                .map(|h| {
                    let (a, b) = f(&aura(h));
                    super::report::rate(a, b)
                })
                .collect();
            cols.push(Column::new(
                name.into(),
                r.iter().map(|x| x.0).collect::<Vec<_>>(),
            ));
            cols.push(Column::new(
                format!("{name}_lo").into(),
                r.iter().map(|x| x.1).collect::<Vec<_>>(),
            ));
            cols.push(Column::new(
                format!("{name}_hi").into(),
                r.iter().map(|x| x.2).collect::<Vec<_>>(),
            ));
        };
        t("aura_victim_success_share", &|a| {
            (a.victim_success, a.rolled())
        });
        t("aura_actions_lost_share", &|a| (a.actions_lost, a.rolled()));
    }
    let frame = DataFrame::new_infer_height(cols)?;

    // One chart per varied value: x = that value, one series per combination of the others.
    let mut figures = Vec::new();
    for (i, v) in varies.iter().enumerate() {
        let groups = series_groups(varies, &points, i);
        let xs: Vec<toml::Value> = points.iter().map(|p| p[i].clone()).collect();
        let kind = value_kind(&v.values);
        let first_side = heads[0].win[0].0.clone();
        // With no Dark point spent the rate is 0 of 0: undefined, left out of the chart.
        let apocalypse: Vec<_> = heads
            .iter()
            .map(|h| {
                if h.dark_spent == 0 {
                    (f64::NAN, f64::NAN, f64::NAN)
                } else {
                    h.apocalypse_per_dark
                }
            })
            .collect();
        let win: Vec<_> = heads
            .iter()
            .map(|h| (h.win[0].1, h.win[0].2, h.win[0].3))
            .collect();
        figures.push(Figure {
            suffix: Some(v.column()),
            panels: vec![
                panel(
                    kind,
                    Labels {
                        title: format!("Apocalypse per Dark point vs {}", v.key),
                        x: v.key.clone(),
                        y: "Apocalypse per Dark point spent (95% interval)".into(),
                    },
                    &groups,
                    &v.values,
                    &xs,
                    &apocalypse,
                ),
                panel(
                    kind,
                    Labels {
                        title: format!("P({first_side} wins) vs {}", v.key),
                        x: v.key.clone(),
                        y: format!("P({first_side} wins) (95% interval)"),
                    },
                    &groups,
                    &v.values,
                    &xs,
                    &win,
                ),
            ],
        });
    }
    let mut prov = Provenance::monte_carlo("combat-sweep", "cosmos", options, seed, trials_used)
        .with_param("kind", "combat");
    for v in varies {
        prov = prov.with_param(
            &format!("vary.{}", v.key),
            v.values.iter().map(text).collect::<Vec<_>>().join(","),
        );
    }
    prov.scenario = Some(file.reference());
    let best = heads
        .iter()
        .zip(&points)
        .map(|(h, p)| (h.apocalypse_per_dark.0, p))
        .fold(None::<(f64, &Vec<toml::Value>)>, |acc, (a, p)| match acc {
            Some((b, _)) if b <= a => acc,
            _ => Some((a, p)),
        });
    let mut key_figures = vec![format!(
        "{} grid points x {trials_used} combats",
        points.len()
    )];
    if let Some((a, p)) = best {
        let at: Vec<String> = varies
            .iter()
            .zip(p)
            .map(|(v, x)| format!("{}={}", v.key, text(x)))
            .collect();
        key_figures.push(format!(
            "lowest Apocalypse per Dark point: {:.2}% at {}",
            100.0 * a,
            at.join(" ")
        ));
    }
    Ok(Output {
        name: "combat-sweep".into(),
        title: "Combat over a grid of scenario values".into(),
        question: "How do the win rate and the Apocalypse, Revive and backlash rates move as scenario values change?".into(),
        frame,
        figures,
        key_figures,
        provenance: prov,
    })
}

/// What the values of one `--vary` flag are, which decides its chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ValueKind {
    /// Names, booleans, anything not a number (modes, policies): bars per category.
    Categorical,
    /// Whole numbers (levels, HP): a point per value, integer ticks, no line.
    Integer,
    /// Fractional numbers: lines with a marker at every simulated value.
    Real,
}

fn value_kind(values: &[toml::Value]) -> ValueKind {
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
fn series_groups(
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

struct Labels {
    title: String,
    x: String,
    y: String,
}

/// One chart panel of a sweep: `metric[j]` = (value, lo, hi) at grid point `j`, whose
/// varied value is `xs[j]`; `groups` name the series (the other flags' values) and list
/// their grid points in the order of `values`. Undefined values (NaN) are left out.
fn panel(
    kind: ValueKind,
    labels: Labels,
    groups: &[(String, Vec<usize>)],
    values: &[toml::Value],
    xs: &[toml::Value],
    metric: &[(f64, f64, f64)],
) -> Chart {
    let defined = metric.iter().any(|m| m.0.is_finite());
    let title = if defined {
        labels.title
    } else {
        format!("{} (undefined: 0 of 0 at every point)", labels.title)
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
                        s.values[c] = metric[j].0;
                        s.intervals[c] = (metric[j].1, metric[j].2);
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
            y_range: Some((0.0, 1.0)),
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
                let (p, lo, hi) = metric[j];
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
        y_range: Some((0.0, 1.0)),
        x_kind: if kind == ValueKind::Integer {
            XKind::Integer
        } else {
            XKind::Sampled
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vary_lists_and_ranges() {
        let v = parse_vary("hero.level=3,5").unwrap();
        assert_eq!(
            v.values,
            vec![toml::Value::Integer(3), toml::Value::Integer(5)]
        );
        assert_eq!(v.column(), "hero_level");
        let v = parse_vary("hero.policy.dark_below_hp=0.2..0.8:0.1").unwrap();
        assert_eq!(v.values.len(), 7);
        assert_eq!(v.values[1], toml::Value::Float(0.3));
        assert_eq!(v.values[6], toml::Value::Float(0.8));
        assert_eq!(parse_vary("a.b=1..3").unwrap().values.len(), 3);
        assert_eq!(
            parse_vary("hero.mode=offensive,defensive").unwrap().values[0],
            toml::Value::String("offensive".into())
        );
        assert!(parse_vary("hero.level").is_err());
        assert!(parse_vary("hero..x=1").is_err());
        assert!(parse_vary("a=5..1").is_err());
        assert!(parse_vary("a=1..2:0").is_err());
    }

    #[test]
    fn grid_is_the_product_first_flag_slowest() {
        let a = parse_vary("a=1,2").unwrap();
        let b = parse_vary("b=x,y,z").unwrap();
        let g = grid(&[a, b]);
        assert_eq!(g.len(), 6);
        assert_eq!(
            g[1],
            vec![toml::Value::Integer(1), toml::Value::String("y".into())]
        );
    }

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

    fn groups_of(vs: &[Vary], i: usize) -> (Vec<(String, Vec<usize>)>, Vec<Vec<toml::Value>>) {
        let pts = grid(vs);
        (series_groups(vs, &pts, i), pts)
    }

    fn labels() -> Labels {
        Labels {
            title: "t".into(),
            x: "x".into(),
            y: "y".into(),
        }
    }

    #[test]
    fn categorical_sweeps_are_bars_per_category() {
        let vs = [
            parse_vary("a.mode=offensive,defensive,balanced").unwrap(),
            parse_vary("b.level=1,2").unwrap(),
        ];
        let (groups, pts) = groups_of(&vs, 0);
        let xs: Vec<toml::Value> = pts.iter().map(|p| p[0].clone()).collect();
        let metric: Vec<(f64, f64, f64)> = (0..6).map(|j| (j as f64 / 10.0, 0.0, 1.0)).collect();
        let kind = value_kind(&vs[0].values);
        match panel(kind, labels(), &groups, &vs[0].values, &xs, &metric) {
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
        let (groups, pts) = groups_of(&vs, 0);
        let xs: Vec<toml::Value> = pts.iter().map(|p| p[0].clone()).collect();
        let mut metric: Vec<(f64, f64, f64)> = (0..5).map(|j| (0.1 * j as f64, 0.0, 1.0)).collect();
        // An undefined rate is left out, not drawn as 0.
        metric[2].0 = f64::NAN;
        match panel(
            value_kind(&vs[0].values),
            labels(),
            &groups,
            &vs[0].values,
            &xs,
            &metric,
        ) {
            Chart::Lines(c) => {
                assert_eq!(c.x_kind, XKind::Integer);
                let x: Vec<f64> = c.series[0].points.iter().map(|p| p.0).collect();
                assert_eq!(x, vec![1.0, 2.0, 4.0, 5.0]);
            }
            other => panic!("expected points, got {other:?}"),
        }
        let vs = [parse_vary("a.p=0.2..0.4:0.1").unwrap()];
        let (groups, pts) = groups_of(&vs, 0);
        let xs: Vec<toml::Value> = pts.iter().map(|p| p[0].clone()).collect();
        let metric = vec![(0.5, 0.4, 0.6); 3];
        match panel(
            value_kind(&vs[0].values),
            labels(),
            &groups,
            &vs[0].values,
            &xs,
            &metric,
        ) {
            Chart::Lines(c) => assert_eq!(c.x_kind, XKind::Sampled),
            other => panic!("expected lines, got {other:?}"),
        }
    }
}
