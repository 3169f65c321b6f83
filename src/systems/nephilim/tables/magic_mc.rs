//! `nephilim-magic --method mc`: the spell pipeline (N-MAGIC) drawn die by die, to check
//! the exact table: concentration test, stase ritual, plexus dice, control test.

use polars::prelude::*;

use crate::context::{Context, Method};
use crate::dice::Die;
use crate::engine::{Counts, Draws, Rng64, Simulation, StreamKey};
use crate::report::{
    float_column, int_column, interval_columns, text_column, Chart, Figure, LineChart, LineSeries,
    Output,
};
use crate::stats::{wilson, Proportion};
use crate::systems::nephilim::ka::normalise;
use crate::systems::nephilim::{classify, Circle, DSampler, Duration, NephilimRules};

use super::{provenance, MagicGrid};

/// Highest stase points drawn: request + the largest +1D-1D (+5 with the d6 option).
const STASE_SWING: i64 = 5;

/// One cell: counts [concentration ok and spell works, concentration ok and control
/// failed, concentration failed].
struct CastSim {
    d: DSampler,
    crit: i64,
    conc_margin: i64,
    carry_margin: bool,
    stase: i64,
    /// Control score by stase points drawn (0..=stase + STASE_SWING), N-KA normalised.
    ka_score: Vec<i64>,
    plexus: Option<[(u32, Die); 2]>,
    control_difficulty: i64,
}

impl CastSim {
    #[inline(always)]
    fn plexus(&self, rng: &mut Rng64) -> i64 {
        let Some([(np, dp), (nm, dm)]) = self.plexus else {
            return 0;
        };
        let mut v = 0i64;
        for _ in 0..np {
            v += dp.roll(rng) as i64;
        }
        for _ in 0..nm {
            v -= dm.roll(rng) as i64;
        }
        v
    }
}

impl Simulation for CastSim {
    type Acc = Counts<3>;

    fn empty(&self) -> Counts<3> {
        Counts::default()
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut Counts<3>) {
        let rng = &mut draws.batch();
        for _ in 0..trials {
            let raw = self.d.roll(rng);
            if !classify(self.conc_margin, raw, self.crit).is_success() {
                acc.counts[2] += 1;
                continue;
            }
            let carry = if self.carry_margin {
                self.conc_margin + raw
            } else {
                0
            };
            let drawn = if self.stase > 0 {
                (self.stase + self.d.roll(rng)).max(0)
            } else {
                0
            };
            let margin =
                self.ka_score[drawn as usize] + self.plexus(rng) + carry - self.control_difficulty;
            let ok = classify(margin, self.d.roll(rng), self.crit).is_success();
            acc.counts[usize::from(!ok)] += 1;
        }
    }
}

struct Row {
    circle: Circle,
    skill: i64,
    ka: i64,
    duration: Duration,
    counts: Counts<3>,
}

/// The grid the `report` cross-check uses: every circle at a few skills, Ka-elements and
/// durations (180 cells), so the check stays within seconds.
pub fn report_magic_grid() -> MagicGrid {
    MagicGrid {
        skills: vec![-3, 0, 2, 4],
        ka: vec![10, 20, 30, 45, 60],
        durations: vec![Duration::Action, Duration::Rounds, Duration::Hours],
        ..MagicGrid::default()
    }
}

/// The stream key of a cell: the spell and the cell's values (rules are not part of it).
fn key(grid: &MagicGrid, c: Circle, skill: i64, ka: i64, d: Duration) -> StreamKey {
    let plexus = grid.plexus.map_or(String::new(), |p| {
        format!("+{}d{} -{}d{}", p.plus.0, p.plus.1, p.minus.0, p.minus.1)
    });
    StreamKey::new("nephilim.magic")
        .int("spell_level", grid.spell_level)
        .int("increments", grid.increments)
        .int("stase", grid.stase)
        .text("plexus", &plexus)
        .text("circle", c.name())
        .int("skill", skill)
        .int("ka", ka)
        .text("duration", d.name())
}

/// The Monte Carlo `nephilim-magic` output (`trials` per cell), same rows as the exact
/// table plus `trials` and Wilson 95% intervals.
pub fn magic_mc_output(grid: &MagicGrid, ctx: &Context, trials: u64) -> anyhow::Result<Output> {
    let rules = NephilimRules::from_options(&ctx.options);
    let cells = grid.circles.len() * grid.skills.len() * grid.ka.len() * grid.durations.len();
    let progress = ctx.progress(trials * cells as u64, "nephilim-magic mc");
    let mut rows = Vec::new();
    for &circle in &grid.circles {
        let spell = grid.spell(circle);
        for &skill in &grid.skills {
            for &ka in &grid.ka {
                let ka_score = (0..=grid.stase + STASE_SWING)
                    .map(|drawn| {
                        if rules.stase_normalised {
                            normalise(ka, rules.ka_band).map(|k| k + drawn)
                        } else {
                            normalise(ka + drawn, rules.ka_band)
                        }
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                for &duration in &grid.durations {
                    let counts = if skill < spell.level {
                        // Below the spell level nobody casts (as in the exact table).
                        Counts {
                            counts: [0, 0, trials],
                        }
                    } else {
                        let score = if rules.double_skill { 2 * skill } else { skill };
                        let sim = CastSim {
                            d: rules.die.sampler(),
                            crit: rules.crit_from(),
                            conc_margin: score - circle.concentration_difficulty(duration),
                            carry_margin: rules.carry_margin,
                            stase: grid.stase,
                            ka_score: ka_score.clone(),
                            plexus: match grid.plexus {
                                Some(p) => Some([
                                    (p.plus.0, Die::new(p.plus.1 as u64)?),
                                    (p.minus.0, Die::new(p.minus.1 as u64)?),
                                ]),
                                None => None,
                            },
                            control_difficulty: circle.control_difficulty() + grid.increments,
                        };
                        ctx.engine.run(
                            &sim,
                            &key(grid, circle, skill, ka, duration),
                            trials,
                            &progress,
                        )
                    };
                    rows.push(Row {
                        circle,
                        skill,
                        ka,
                        duration,
                        counts,
                    });
                }
            }
        }
    }
    progress.finish();
    let n = trials;
    let conc = |r: &Row| r.counts.counts[0] + r.counts.counts[1];
    let frame = DataFrame::new_infer_height(
        [
            vec![
                text_column("circle", &rows, |r| r.circle.name()),
                int_column("skill", &rows, |r| r.skill),
                int_column("ka_element", &rows, |r| r.ka),
                text_column("duration", &rows, |r| r.duration.name()),
                int_column("trials", &rows, |_| n as i64),
            ],
            interval_columns("p_concentration", &rows, |r| Proportion::new(conc(r), n)).into(),
            vec![float_column("p_control", &rows, |r| {
                if conc(r) > 0 {
                    r.counts.counts[0] as f64 / conc(r) as f64
                } else {
                    f64::NAN
                }
            })],
            interval_columns("p_works", &rows, |r| Proportion::new(r.counts.counts[0], n)).into(),
        ]
        .concat(),
    )?;
    let skill0 = grid.ref_skill();
    let dur0 = grid.ref_duration();
    let mut chart = LineChart {
        title: crate::tr!(
            "nephilim.magic.mc_chart",
            skill = format!("{skill0:+}"),
            duration = dur0.name()
        ),
        x_label: crate::tr!("nephilim.magic.x_axis").into(),
        y_label: crate::tr!("nephilim.magic.y_axis").into(),
        y_range: Some((0.0, 1.0)),
        ..Default::default()
    };
    for &c in &grid.circles {
        let pick: Vec<&Row> = rows
            .iter()
            .filter(|r| r.circle == c && r.skill == skill0 && r.duration == dur0)
            .collect();
        chart.series.push(LineSeries {
            name: c.name().replace('_', " "),
            points: pick
                .iter()
                .map(|r| (r.ka as f64, r.counts.counts[0] as f64 / n as f64))
                .collect(),
            band: pick
                .iter()
                .map(|r| {
                    let (lo, hi) = wilson(r.counts.counts[0], n);
                    (r.ka as f64, lo, hi)
                })
                .collect(),
        });
    }
    let prov = grid.with_params(provenance("nephilim-magic-mc", ctx, Method::Mc, trials));
    Ok(Output {
        name: "nephilim-magic".into(),
        title: crate::tr!("nephilim.magic.mc_title").into(),
        question: crate::tr!("nephilim.magic.mc_question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: vec![],
        provenance: prov,
    })
}
