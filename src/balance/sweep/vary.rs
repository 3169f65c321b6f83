//! The `--vary key.path=values` flags of a sweep: parsing, the grid of points, and the
//! edits of the scenario's TOML at each point.

use crate::error::UserError;
use crate::lang::{Clip, Lang};
use crate::systems::RunOverrides;

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

pub fn scalar(s: &str) -> toml::Value {
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
pub fn parse_vary(s: &str) -> Result<Vary, crate::lang::Words> {
    let (key, spec) = s
        .split_once('=')
        .ok_or_else(|| words!("syntax.vary_form", value = Clip(s)))?;
    let key = key.trim().to_string();
    if key.is_empty() || key.split('.').any(|p| p.is_empty()) {
        return Err(words!("syntax.vary_key", value = Clip(s)));
    }
    let values = if let Some((lo, rest)) = spec.split_once("..") {
        let (hi, step) = rest.split_once(':').unwrap_or((rest, "1"));
        let num = |x: &str| {
            x.trim()
                .parse::<f64>()
                .map_err(|_| words!("syntax.vary_number", part = Clip(x), value = Clip(s)))
        };
        let (lo_f, hi_f, step_f) = (num(lo)?, num(hi)?, num(step)?);
        if step_f <= 0.0 || hi_f < lo_f {
            return Err(words!("syntax.vary_range", value = Clip(s)));
        }
        let n = ((hi_f - lo_f) / step_f + 1e-9).floor() as usize + 1;
        if n > 1000 {
            return Err(words!(
                "syntax.vary_count",
                value = Clip(s),
                count = n,
                max = 1000
            ));
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
        if let Some((lo, hi)) = crate::limits::dashed_range(spec) {
            return Err(words!("syntax.dash_range", value = s, lo = lo, hi = hi));
        }
        spec.split(',').map(scalar).collect::<Vec<_>>()
    };
    if values.is_empty() {
        return Err(words!("syntax.vary_empty", value = Clip(s)));
    }
    Ok(Vary { key, values })
}

pub fn text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Every grid point, first flag slowest.
pub fn grid(varies: &[Vary]) -> Vec<Vec<toml::Value>> {
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
pub fn check_grid(varies: &[Vary], o: &RunOverrides, lang: Lang) -> Result<(), UserError> {
    for v in varies {
        let refused = match v.key.as_str() {
            "system" | "kind" => Some(tr!(lang, "sweep.why_kind")),
            "title" | "question" => Some(tr!(lang, "sweep.why_label")),
            "run.trials" if o.trials.is_some() => Some(tr!(lang, "sweep.why_trials")),
            "run.seed" if o.seed.is_some() => Some(tr!(lang, "sweep.why_seed")),
            _ => None,
        };
        if let Some(why) = refused {
            return Err(UserError::new(tr!(lang, "sweep.refused", key = v.key, why)));
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
        return Err(UserError::new(tr!(
            lang,
            "sweep.grid_cap",
            n,
            cap,
            max = crate::limits::MAX_GRID_POINTS
        )));
    }
    Ok(())
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
