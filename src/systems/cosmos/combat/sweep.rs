//! `cosmosim sweep`: a combat scenario run over a grid of edited values, one CSV row per
//! grid point with 95% intervals and a line chart per varied value.

use std::collections::BTreeMap;

use polars::prelude::*;

use crate::error::UserError;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance};
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
        let edited = ScenarioFile {
            path: file.path.clone(),
            text: toml::to_string(&t)?,
            sha256: file.sha256.clone(),
        };
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

    // One chart per varied value: x = that value, one line per combination of the others.
    let mut figures = Vec::new();
    for (i, v) in varies.iter().enumerate() {
        let x_of = |p: &Vec<toml::Value>| p[i].as_float().or(p[i].as_integer().map(|n| n as f64));
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
        let series = |f: &dyn Fn(&Headline) -> (f64, f64, f64)| -> Vec<LineSeries> {
            groups
                .iter()
                .map(|(name, js)| {
                    let mut s = LineSeries {
                        name: name.clone(),
                        ..Default::default()
                    };
                    for (pos, &j) in js.iter().enumerate() {
                        let x = x_of(&points[j]).unwrap_or(pos as f64);
                        let (p, lo, hi) = f(&heads[j]);
                        s.points.push((x, p));
                        s.band.push((x, lo, hi));
                    }
                    s
                })
                .collect()
        };
        let first_side = heads[0].win[0].0.clone();
        figures.push(Figure {
            suffix: Some(v.column()),
            panels: vec![
                Chart::Lines(LineChart {
                    legend: Default::default(),
                    title: format!("Apocalypse per Dark point vs {}", v.key),
                    x_label: v.key.clone(),
                    y_label: "Apocalypse per Dark point spent (95% band)".into(),
                    series: series(&|h: &Headline| h.apocalypse_per_dark),
                    y_range: Some((0.0, 1.0)),
                }),
                Chart::Lines(LineChart {
                    legend: Default::default(),
                    title: format!("P({first_side} wins) vs {}", v.key),
                    x_label: v.key.clone(),
                    y_label: format!("P({first_side} wins) (95% band)"),
                    series: series(&|h: &Headline| (h.win[0].1, h.win[0].2, h.win[0].3)),
                    y_range: Some((0.0, 1.0)),
                }),
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
}
