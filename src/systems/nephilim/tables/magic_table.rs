use polars::prelude::*;

use crate::context::{Context, Method};
use crate::report::{Chart, Figure, Heatmap, LineChart, LineSeries, Output};
use crate::systems::nephilim::ka::normalise;
use crate::systems::nephilim::{Circle, Duration, MagicModel, NephilimRules, Plexus, Spell};

use super::{provenance, range_text};

/// The grid of the `nephilim-magic` table.
#[derive(Clone, Debug, PartialEq)]
pub struct MagicGrid {
    pub circles: Vec<Circle>,
    /// Casting skill of the circle.
    pub skills: Vec<i64>,
    /// Raw (absolute) Ka-element scores.
    pub ka: Vec<i64>,
    pub durations: Vec<Duration>,
    pub spell_level: i64,
    pub increments: i64,
    pub plexus: Option<Plexus>,
    pub stase: i64,
}

impl Default for MagicGrid {
    fn default() -> Self {
        MagicGrid {
            circles: Circle::ALL.to_vec(),
            skills: (-3..=6).collect(),
            ka: (5..=60).step_by(5).collect(),
            durations: Duration::ALL.to_vec(),
            spell_level: -3,
            increments: 0,
            plexus: None,
            stase: 0,
        }
    }
}

struct Row {
    circle: Circle,
    skill: i64,
    ka: i64,
    duration: Duration,
    p_conc: f64,
    p_control: f64,
    p_works: f64,
}

fn nearest(v: &[i64], target: i64) -> i64 {
    *v.iter()
        .min_by_key(|x| (*x - target).abs())
        .unwrap_or(&target)
}

/// The `nephilim-magic` output: `circle,skill,ka_element,ka_normalised,duration,
/// concentration_difficulty,control_difficulty,p_concentration,p_control,p_works`
/// (N-MAGIC, N-KA), exact. `p_control` is conditional on a successful concentration.
pub fn magic_output(grid: &MagicGrid, ctx: &Context) -> anyhow::Result<Output> {
    let rules = NephilimRules::from_options(&ctx.options);
    let mut rows = Vec::new();
    for &circle in &grid.circles {
        let spell = Spell {
            circle,
            level: grid.spell_level,
            increments: grid.increments,
            plexus: grid.plexus,
            stase: grid.stase,
        };
        let model = MagicModel::new(&spell, rules);
        for &skill in &grid.skills {
            for &ka in &grid.ka {
                for &duration in &grid.durations {
                    let c = model.cast(&spell, skill, ka, duration)?;
                    rows.push(Row {
                        circle,
                        skill,
                        ka,
                        duration,
                        p_conc: c.p_concentration,
                        p_control: c.p_control,
                        p_works: c.p_works,
                    });
                }
            }
        }
    }
    let frame = DataFrame::new_infer_height(vec![
        Column::new(
            "circle".into(),
            rows.iter().map(|r| r.circle.name()).collect::<Vec<_>>(),
        ),
        Column::new(
            "skill".into(),
            rows.iter().map(|r| r.skill).collect::<Vec<_>>(),
        ),
        Column::new(
            "ka_element".into(),
            rows.iter().map(|r| r.ka).collect::<Vec<_>>(),
        ),
        Column::new(
            "ka_normalised".into(),
            rows.iter()
                .map(|r| normalise(r.ka, rules.ka_band))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Column::new(
            "duration".into(),
            rows.iter().map(|r| r.duration.name()).collect::<Vec<_>>(),
        ),
        Column::new(
            "concentration_difficulty".into(),
            rows.iter()
                .map(|r| r.circle.concentration_difficulty(r.duration))
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "control_difficulty".into(),
            rows.iter()
                .map(|r| r.circle.control_difficulty() + grid.increments)
                .collect::<Vec<_>>(),
        ),
        Column::new(
            "p_concentration".into(),
            rows.iter().map(|r| r.p_conc).collect::<Vec<_>>(),
        ),
        Column::new(
            "p_control".into(),
            rows.iter().map(|r| r.p_control).collect::<Vec<_>>(),
        ),
        Column::new(
            "p_works".into(),
            rows.iter().map(|r| r.p_works).collect::<Vec<_>>(),
        ),
    ])?;

    let ref_ka = nearest(&grid.ka, 30);
    let ref_skill = nearest(&grid.skills, 2);
    let ref_dur = if grid.durations.contains(&Duration::Rounds) {
        Duration::Rounds
    } else {
        grid.durations[0]
    };
    let find = |c: Circle, s: i64, k: i64, d: Duration| {
        rows.iter()
            .find(|r| r.circle == c && r.skill == s && r.ka == k && r.duration == d)
            .map(|r| r.p_works)
            .unwrap_or(0.0)
    };
    let mut panels = Vec::new();
    let mut lines = LineChart {
        title: crate::tr!(
            "nephilim.magic.chart",
            skill = format!("{ref_skill:+}"),
            duration = ref_dur.name()
        ),
        x_label: crate::tr!("nephilim.magic.x_axis").into(),
        y_label: crate::tr!("nephilim.magic.y_axis").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    for &c in &grid.circles {
        lines.series.push(LineSeries {
            name: c.name().replace('_', " "),
            points: grid
                .ka
                .iter()
                .map(|&k| (k as f64, find(c, ref_skill, k, ref_dur)))
                .collect(),
            band: Vec::new(),
        });
    }
    panels.push(Chart::Lines(lines));
    for &c in &grid.circles {
        panels.push(Chart::Heatmap(Heatmap {
            title: crate::tr!(
                "nephilim.magic.heat_title",
                circle = c.name().replace('_', " "),
                ka = ref_ka
            ),
            x_label: crate::tr!("nephilim.magic.duration").into(),
            y_label: crate::tr!("nephilim.magic.skill").into(),
            columns: grid
                .durations
                .iter()
                .map(|d| d.name().to_string())
                .collect(),
            rows: Heatmap::labels(&grid.skills),
            values: grid
                .skills
                .iter()
                .map(|&s| {
                    grid.durations
                        .iter()
                        .map(|&d| find(c, s, ref_ka, d))
                        .collect()
                })
                .collect(),
            range: (0.0, 1.0),
        }));
    }

    let mut key = Vec::new();
    for &c in &grid.circles {
        if grid.durations.contains(&Duration::Action) {
            key.push(crate::tr!(
                "nephilim.magic.key",
                circle = c.name().replace('_', " "),
                skill = format!("{ref_skill:+}"),
                ka = ref_ka,
                normalised = format!("{:+}", normalise(ref_ka, rules.ka_band)?),
                action = crate::lang::num(find(c, ref_skill, ref_ka, Duration::Action), 4),
                rounds = crate::lang::num(find(c, ref_skill, ref_ka, ref_dur), 4)
            ));
        }
    }
    let mut prov = provenance("nephilim-magic", ctx, Method::Exact, 0)
        .with_param(
            "circles",
            grid.circles
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(","),
        )
        .with_param("skills", range_text(&grid.skills))
        .with_param("ka_element", range_text(&grid.ka))
        .with_param(
            "durations",
            grid.durations
                .iter()
                .map(|d| d.name())
                .collect::<Vec<_>>()
                .join(","),
        )
        .with_param("spell_level", grid.spell_level)
        .with_param("increments", grid.increments)
        .with_param(
            "plexus",
            grid.plexus
                .map(|p| p.text())
                .unwrap_or_else(|| "none".into()),
        )
        .with_param("stase", grid.stase);
    prov = prov.with_param(
        "p_control",
        "conditional on a successful concentration test",
    );
    Ok(Output {
        name: "nephilim-magic".into(),
        title: crate::tr!("nephilim.magic.title").into(),
        question: crate::tr!("nephilim.magic.question").into(),
        frame,
        figures: vec![Figure {
            suffix: None,
            panels,
        }],
        key_figures: key,
        provenance: prov,
    })
}
