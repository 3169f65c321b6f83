use polars::prelude::*;

use crate::context::{Context, Method};
use crate::report::{
    float_column, int_column, text_column, Chart, Figure, Heatmap, LineChart, LineSeries, Output,
    Provenance,
};
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

impl MagicGrid {
    /// The spell cast in `circle` with the grid's level, increments, plexus and stase.
    pub(super) fn spell(&self, circle: Circle) -> Spell {
        Spell {
            circle,
            level: self.spell_level,
            increments: self.increments,
            plexus: self.plexus,
            stase: self.stase,
        }
    }

    /// The skill the chart and key figures read: the grid's nearest to +2.
    pub(super) fn ref_skill(&self) -> i64 {
        nearest(&self.skills, 2)
    }

    /// The concentration time the chart reads: rounds when in the grid, else the first.
    pub(super) fn ref_duration(&self) -> Duration {
        if self.durations.contains(&Duration::Rounds) {
            Duration::Rounds
        } else {
            self.durations[0]
        }
    }

    /// `prov` with the grid's values as parameters (the exact and Monte Carlo tables).
    pub(super) fn with_params(&self, prov: Provenance) -> Provenance {
        prov.with_param(
            "circles",
            self.circles
                .iter()
                .map(|c| c.name())
                .collect::<Vec<_>>()
                .join(","),
        )
        .with_param("skills", range_text(&self.skills))
        .with_param("ka_element", range_text(&self.ka))
        .with_param(
            "durations",
            self.durations
                .iter()
                .map(|d| d.name())
                .collect::<Vec<_>>()
                .join(","),
        )
        .with_param("spell_level", self.spell_level)
        .with_param("increments", self.increments)
        .with_param(
            "plexus",
            self.plexus
                .map(|p| p.text())
                .unwrap_or_else(|| "none".into()),
        )
        .with_param("stase", self.stase)
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
        let spell = grid.spell(circle);
        let model = MagicModel::new(&spell, rules);
        for &skill in &grid.skills {
            for &ka in &grid.ka {
                for &duration in &grid.durations {
                    let c = model.cast(ctx.lang, &spell, skill, ka, duration)?;
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
        text_column("circle", &rows, |r| r.circle.name()),
        int_column("skill", &rows, |r| r.skill),
        int_column("ka_element", &rows, |r| r.ka),
        Column::new(
            "ka_normalised".into(),
            rows.iter()
                .map(|r| normalise(ctx.lang, r.ka, rules.ka_band))
                .collect::<Result<Vec<_>, _>>()?,
        ),
        text_column("duration", &rows, |r| r.duration.name()),
        int_column("concentration_difficulty", &rows, |r| {
            r.circle.concentration_difficulty(r.duration)
        }),
        int_column("control_difficulty", &rows, |r| {
            r.circle.control_difficulty() + grid.increments
        }),
        float_column("p_concentration", &rows, |r| r.p_conc),
        float_column("p_control", &rows, |r| r.p_control),
        float_column("p_works", &rows, |r| r.p_works),
    ])?;

    let ref_ka = nearest(&grid.ka, 30);
    let ref_skill = grid.ref_skill();
    let ref_dur = grid.ref_duration();
    let find = |c: Circle, s: i64, k: i64, d: Duration| {
        rows.iter()
            .find(|r| r.circle == c && r.skill == s && r.ka == k && r.duration == d)
            .map(|r| r.p_works)
            .unwrap_or(0.0)
    };
    let mut panels = Vec::new();
    let mut lines = LineChart {
        title: tr!(
            ctx.lang,
            "nephilim.magic.chart",
            skill = format!("{ref_skill:+}"),
            duration = ref_dur.name()
        ),
        x_label: tr!(ctx.lang, "nephilim.magic.x_axis").into(),
        y_label: tr!(ctx.lang, "nephilim.magic.y_axis").into(),
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
            title: tr!(
                ctx.lang,
                "nephilim.magic.heat_title",
                circle = c.name().replace('_', " "),
                ka = ref_ka
            ),
            x_label: tr!(ctx.lang, "nephilim.magic.duration").into(),
            y_label: tr!(ctx.lang, "nephilim.magic.skill").into(),
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
            key.push(tr!(
                ctx.lang,
                "nephilim.magic.key",
                circle = c.name().replace('_', " "),
                skill = format!("{ref_skill:+}"),
                ka = ref_ka,
                normalised = format!("{:+}", normalise(ctx.lang, ref_ka, rules.ka_band)?),
                action = ctx
                    .lang
                    .num(find(c, ref_skill, ref_ka, Duration::Action), 4),
                rounds = ctx.lang.num(find(c, ref_skill, ref_ka, ref_dur), 4)
            ));
        }
    }
    let prov = grid
        .with_params(provenance("nephilim-magic", ctx, Method::Exact, 0))
        .with_param_text(
            "p_control",
            tr!(crate::lang::Lang::En, "params.p_control"),
            |l| tr!(l, "params.p_control").to_string(),
        );
    Ok(Output {
        name: "nephilim-magic".into(),
        title: tr!(ctx.lang, "nephilim.magic.title").into(),
        question: tr!(ctx.lang, "nephilim.magic.question").into(),
        frame,
        figures: vec![Figure::new(panels)],
        key_figures: key,
        provenance: prov,
    })
}
