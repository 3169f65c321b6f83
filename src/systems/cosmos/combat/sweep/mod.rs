//! `cosmosim sweep`: a combat scenario run over a grid of edited values, one CSV row per
//! grid point with 95% intervals and a line chart per varied value.

mod chart;
mod vary;

pub use vary::{parse_vary, Vary};

use std::collections::BTreeMap;

use polars::prelude::*;

use crate::error::UserError;
use crate::report::{Figure, Output, Provenance};
use crate::scenario::ScenarioFile;
use crate::systems::RunOverrides;

use super::report::{headline, options_in_force, Headline};
use super::{load, simulate, DEFAULT_TRIALS};
use chart::{panel, series_groups, value_kind, Labels};
use vary::{check_grid, file_path, grid, set, text};

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
                UserError::new(crate::tr!("combat.sweep.varied_twice", key = v.key)).into(),
            );
        }
    }
    check_grid(varies, o)?;
    let points = grid(varies);
    // One point's model and run context, from the edited file text. Built twice per point
    // (once to validate the whole grid before running any point, once to run it) so that
    // only one point's model is alive at a time: kept for every point they held about
    // 8 KB each, 8 GB at the grid cap.
    let load_point = |p: &Vec<toml::Value>| -> anyhow::Result<_> {
        let mut t = base.clone();
        for (v, x) in varies.iter().zip(p) {
            set(&mut t, &file_path(&base, &v.key), x.clone(), &v.key)?;
        }
        let edited = file.edited(toml::to_string(&t)?);
        let (raw, model) = load(&edited).map_err(|e| {
            let label: Vec<String> = varies
                .iter()
                .zip(p)
                .map(|(v, x)| format!("{}={}", v.key, text(x)))
                .collect();
            UserError::new(crate::tr!(
                "combat.sweep.with_vary",
                label = label.join(" "),
                error = e.0
            ))
        })?;
        let (ctx, trials) = o.resolve(&edited, &raw.run, &raw.rules, DEFAULT_TRIALS)?;
        Ok((model, ctx, trials))
    };
    // Validate every point before running any.
    for p in &points {
        load_point(p)?;
    }
    let mut heads: Vec<Headline> = Vec::with_capacity(points.len());
    let mut trials_used = 0;
    let mut seed = 0;
    let mut options = BTreeMap::new();
    for p in &points {
        // A stop (SIGINT...) makes the engine skip every remaining batch; the command layer
        // then discards the partial grid, so this layer need not know about signals.
        let (model, ctx, trials) = load_point(p)?;
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
                        title: crate::tr!("combat.sweep.apocalypse_title", key = v.key),
                        x: v.key.clone(),
                        y: crate::tr!("combat.sweep.apocalypse_axis").into(),
                    },
                    &groups,
                    &v.values,
                    &xs,
                    &apocalypse,
                ),
                panel(
                    kind,
                    Labels {
                        title: crate::tr!("combat.sweep.win_title", side = first_side, key = v.key),
                        x: v.key.clone(),
                        y: crate::tr!("combat.sweep.win_axis", side = first_side),
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
    let mut key_figures = vec![crate::tr!(
        "combat.sweep.grid_key",
        points = points.len(),
        trials = trials_used
    )];
    if let Some((a, p)) = best {
        let at: Vec<String> = varies
            .iter()
            .zip(p)
            .map(|(v, x)| format!("{}={}", v.key, text(x)))
            .collect();
        key_figures.push(crate::tr!(
            "combat.sweep.lowest_key",
            rate = crate::lang::pct(a, 2),
            // The keys may hold combatant names from the file.
            at = crate::report::md_text(&at.join(" "))
        ));
    }
    Ok(Output {
        name: "combat-sweep".into(),
        title: crate::tr!("combat.sweep.title").into(),
        question: crate::tr!("combat.sweep.question").into(),
        frame,
        figures,
        key_figures,
        provenance: prov,
    })
}
