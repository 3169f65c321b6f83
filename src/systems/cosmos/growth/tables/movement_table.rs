//! `cosmos-movement`: walk and sprint distances by Agilité, load and FP (C-MOVE, C-INV,
//! C-FAT-4).

use polars::prelude::*;

use crate::context::Context;
use crate::report::{Chart, Figure, LineChart, LineSeries, Output, Provenance};
use crate::systems::cosmos::growth::movement::{movement, Mover};
use crate::systems::cosmos::growth::{inventory, GrowthRules, OPTIONS};
use crate::systems::cosmos::TestRules;

/// The grid of the movement table.
#[derive(Clone, Debug, PartialEq)]
pub struct MovementGrid {
    pub agility: Vec<i64>,
    pub force: i32,
    /// Slots carried.
    pub loads: Vec<i64>,
    pub fp: Vec<i64>,
    pub karma: i8,
}

impl Default for MovementGrid {
    fn default() -> Self {
        MovementGrid {
            agility: (20..=85).step_by(5).collect(),
            force: 50,
            loads: vec![20, 21, 22, 24],
            fp: vec![0, 4, 6, 8],
            karma: 0,
        }
    }
}

/// CSV `agility,force,capacity,load,slots_over,fp,fatigue_state,move_walk,
/// move_sprint_fail,move_sprint_success,move_sprint_crit,move_sprint_super,
/// p_sprint_success,p_sprint_crit,p_sprint_super,expected_sprint`.
pub fn movement_output(grid: &MovementGrid, ctx: &Context) -> anyhow::Result<Output> {
    let rules = TestRules::from_options(&ctx.options);
    let growth = GrowthRules::from_options(&ctx.options);
    let mut c: Vec<Vec<i64>> = vec![vec![]; 11];
    let mut f: Vec<Vec<f64>> = vec![vec![]; 4];
    let mut states = vec![];
    let run = |a: i64, load: i64, fp: i64| {
        movement(
            &Mover {
                agility: a as i32,
                force: grid.force,
                load: load as i32,
                fp: fp as i32,
                karma: grid.karma,
            },
            &rules,
            &growth,
        )
        .map_err(|e| e.user(ctx.lang))
    };
    for &a in &grid.agility {
        for &load in &grid.loads {
            for &fp in &grid.fp {
                let r = run(a, load, fp)?;
                let cap = inventory::capacity(grid.force) as i64;
                let row = [
                    a,
                    grid.force as i64,
                    cap,
                    load,
                    (load - cap).max(0),
                    fp,
                    r.walk as i64,
                ];
                for (i, v) in row
                    .into_iter()
                    .chain(r.sprint.map(|x| x as i64))
                    .enumerate()
                {
                    c[i].push(v);
                }
                // The state under the thresholds in force (C-FAT-4 parameters, exhaustion
                // included): an FP above `fatigue_exhausted_at` reads as exhausted.
                states.push(rules.fatigue.state(fp as i32).name());
                for (i, v) in [
                    r.p[1] + r.p[2] + r.p[3],
                    r.p[2],
                    r.p[3],
                    r.expected_sprint(),
                ]
                .into_iter()
                .enumerate()
                {
                    f[i].push(v);
                }
            }
        }
    }
    let names = ["agility", "force", "capacity", "load", "slots_over", "fp"];
    let mut cols: Vec<Column> = names
        .iter()
        .zip(&c)
        .map(|(n, v)| Column::new((*n).into(), v.clone()))
        .collect();
    cols.push(Column::new("fatigue_state".into(), states));
    let names2 = [
        "move_walk",
        "move_sprint_fail",
        "move_sprint_success",
        "move_sprint_crit",
        "move_sprint_super",
    ];
    cols.extend(
        names2
            .iter()
            .zip(&c[6..])
            .map(|(n, v)| Column::new((*n).into(), v.clone())),
    );
    let names3 = [
        "p_sprint_success",
        "p_sprint_crit",
        "p_sprint_super",
        "expected_sprint",
    ];
    cols.extend(
        names3
            .iter()
            .zip(&f)
            .map(|(n, v)| Column::new((*n).into(), v.clone())),
    );
    let frame = DataFrame::new_infer_height(cols)?;

    let fresh = *grid.fp.first().unwrap_or(&0);
    let light_load = *grid.loads.first().unwrap_or(&0);
    let curve = |load: i64, fp: i64| -> anyhow::Result<Vec<(f64, f64)>> {
        grid.agility
            .iter()
            .map(|&a| Ok((a as f64, run(a, load, fp)?.expected_sprint())))
            .collect()
    };
    let mut by_load = LineChart {
        title: tr!(
            ctx.lang,
            "growth.movement.by_load_title",
            force = grid.force,
            fp = fresh
        ),
        x_label: tr!(ctx.lang, "growth.movement.x_agility").into(),
        y_label: tr!(ctx.lang, "growth.movement.y_sprint").into(),
        ..Default::default()
    };
    for &l in &grid.loads {
        by_load.series.push(LineSeries {
            name: tr!(ctx.lang, "growth.movement.series_slots", slots = l),
            points: curve(l, fresh)?,
            band: vec![],
        });
    }
    let mut by_fp = LineChart {
        title: tr!(ctx.lang, "growth.movement.by_fp_title", slots = light_load),
        x_label: tr!(ctx.lang, "growth.movement.x_agility").into(),
        y_label: tr!(ctx.lang, "growth.movement.y_sprint").into(),
        ..Default::default()
    };
    for &fp in &grid.fp {
        by_fp.series.push(LineSeries {
            name: format!("FP {fp}"),
            points: curve(light_load, fp)?,
            band: vec![],
        });
    }
    let r55 = run(55, light_load, fresh)?;
    let r55o = run(55, light_load + 4, fresh)?;
    let key = vec![
        tr!(
            ctx.lang,
            "growth.movement.key_55",
            slots = light_load,
            fp = fresh,
            walk = r55.walk,
            fail = r55.sprint[0],
            success = r55.sprint[1],
            crit = r55.sprint[2],
            sup = r55.sprint[3],
            expected = ctx.lang.num(r55.expected_sprint(), 2)
        ),
        tr!(
            ctx.lang,
            "growth.movement.key_over",
            over = inventory::slots_over(grid.force, light_load as i32 + 4),
            capacity = inventory::capacity(grid.force),
            walk = r55o.walk,
            expected = ctx.lang.num(r55o.expected_sprint(), 2)
        ),
    ];
    let mut opts = ctx.options.in_force(OPTIONS);
    opts.extend(ctx.options.in_force(crate::systems::cosmos::OPTIONS));
    let prov = Provenance::exact("cosmos-movement", "cosmos", opts)
        .with_param("agility", crate::report::range_text(&grid.agility))
        .with_param("force", grid.force)
        .with_param("loads", crate::report::range_text(&grid.loads))
        .with_param("fp", crate::report::range_text(&grid.fp))
        .with_param("karma", grid.karma);
    Ok(Output {
        name: "cosmos-movement".into(),
        title: tr!(ctx.lang, "growth.movement.title").into(),
        question: tr!(ctx.lang, "growth.movement.question").into(),
        frame,
        figures: vec![Figure::new(vec![
            Chart::Lines(by_load),
            Chart::Lines(by_fp),
        ])],
        key_figures: key,
        provenance: prov,
    })
}
