//! `nephilim-magic --method mc`: the spell pipeline (N-MAGIC) drawn die by die, to check
//! the exact table: concentration test, stase ritual, plexus dice, control test.

use polars::prelude::*;

use crate::context::{Context, Method};
use crate::dice::Die;
use crate::engine::{Counts, Draws, Merge, Rng64, Simulation, StreamKey};
use crate::report::{
    float_column, int_column, interval_columns, text_column, Chart, Figure, LineChart, LineSeries,
    Output,
};
use crate::stats::{wilson, Proportion};
use crate::systems::nephilim::ka::normalise;
use crate::systems::nephilim::{Circle, DieKind, Duration, NephilimRules};

use super::{provenance, MagicGrid};

/// Highest stase points drawn: request + the largest +1D-1D (+5 with the d6 option).
const STASE_SWING: i64 = 5;

/// One cell: counts [concentration ok and spell works, concentration ok and control
/// failed, concentration failed].
///
/// Only success or failure matters here, and `classify(m, raw, crit)` succeeds exactly
/// when `m + raw >= 0` whatever the crit band, so the cell's fixed values are folded into
/// tables of the D index pairs once (issue 28: report time); the trial draws the same dice
/// in the same order as the straightforward pipeline ([`CastSim::reference_counts`]).
struct CastSim {
    /// Faces of one D (6, or 4 with the d4 option).
    faces: u64,
    /// What a concentration roll (pair of D indices, [`pair`]) leaves for the control
    /// test: the carried margin, less the control difficulty, plus the Ka score when no
    /// stase is drawn; [`CONC_FAILED`] when the concentration test fails.
    conc: [i64; PAIRS],
    /// Control score by the stase roll's pair: the Ka score of the points drawn.
    stase_ka: [i64; PAIRS],
    /// +1D-1D by pair.
    raw: [i64; PAIRS],
    stase: bool,
    plexus: Option<[(u32, Die); 2]>,
}

/// A pair of D indices `(i, j)` (each below 8) as `i * 8 + j`: one fixed-size table for
/// every die, indexed without a bounds check.
const PAIRS: usize = 64;

#[inline(always)]
fn pair(i: u64, j: u64) -> usize {
    ((i << 3) + j) as usize & (PAIRS - 1)
}

/// A concentration roll that fails: below any margin a cell can reach.
const CONC_FAILED: i64 = i64::MIN;

/// A die of `N` faces known at compile time, so its draw multiplies by a constant.
struct ConstDie<const N: u64>;

impl<const N: u64> ConstDie<N> {
    const DIE: Die = Die::known(N);
}

impl CastSim {
    /// The tables of one cell; `ka_score` is the control score by stase points drawn.
    fn new(
        d: DieKind,
        conc_margin: i64,
        carry_margin: bool,
        stase: i64,
        ka_score: &[i64],
        plexus: Option<[(u32, Die); 2]>,
        control_difficulty: i64,
    ) -> CastSim {
        let f = d.faces();
        let mut sim = CastSim {
            faces: f.len() as u64,
            conc: [0; PAIRS],
            stase_ka: [0; PAIRS],
            raw: [0; PAIRS],
            stase: stase > 0,
            plexus,
        };
        for (i, a) in f.iter().enumerate() {
            for (j, b) in f.iter().enumerate() {
                let k = pair(i as u64, j as u64);
                let raw = a - b;
                sim.raw[k] = raw;
                let carry = if carry_margin { conc_margin + raw } else { 0 };
                let ka = if stase > 0 { 0 } else { ka_score[0] };
                sim.conc[k] = if conc_margin + raw >= 0 {
                    carry + ka - control_difficulty
                } else {
                    CONC_FAILED
                };
                if stase > 0 {
                    sim.stase_ka[k] = ka_score[(stase + raw).max(0) as usize];
                }
            }
        }
        sim
    }

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

    /// The trials with the run-fixed choices (die size, stase ritual, plexus) hoisted
    /// out of the loop.
    #[inline(always)]
    fn trials<const N: u64, const STASE: bool, const PLEXUS: bool>(
        &self,
        rng: &mut Rng64,
        trials: u64,
    ) -> [u64; 3] {
        let die = ConstDie::<N>::DIE;
        let roll = |rng: &mut Rng64| {
            let i = die.index(rng);
            pair(i, die.index(rng))
        };
        let mut c = [0u64; 3];
        for _ in 0..trials {
            let mut margin = self.conc[roll(rng)];
            if margin == CONC_FAILED {
                c[2] += 1;
                continue;
            }
            if STASE {
                margin += self.stase_ka[roll(rng)];
            }
            if PLEXUS {
                margin += self.plexus(rng);
            }
            let ok = margin + self.raw[roll(rng)] >= 0;
            c[usize::from(!ok)] += 1;
        }
        c
    }

    fn dispatch<const N: u64>(&self, rng: &mut Rng64, trials: u64) -> [u64; 3] {
        match (self.stase, self.plexus.is_some()) {
            (false, false) => self.trials::<N, false, false>(rng, trials),
            (true, false) => self.trials::<N, true, false>(rng, trials),
            (false, true) => self.trials::<N, false, true>(rng, trials),
            (true, true) => self.trials::<N, true, true>(rng, trials),
        }
    }
}

impl Simulation for CastSim {
    type Acc = Counts<3>;

    fn empty(&self) -> Counts<3> {
        Counts::default()
    }

    #[inline(never)]
    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut Counts<3>) {
        let rng = &mut draws.batch();
        let c = match self.faces {
            6 => self.dispatch::<6>(rng, trials),
            4 => self.dispatch::<4>(rng, trials),
            n => unreachable!("a D has 4 or 6 faces, not {n}"),
        };
        acc.merge(Counts { counts: c });
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
                            normalise(ctx.lang, ka, rules.ka_band).map(|k| k + drawn)
                        } else {
                            normalise(ctx.lang, ka + drawn, rules.ka_band)
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
                        let sim = CastSim::new(
                            rules.die,
                            score - circle.concentration_difficulty(duration),
                            rules.carry_margin,
                            grid.stase,
                            &ka_score,
                            match grid.plexus {
                                Some(p) => Some([
                                    (p.plus.0, Die::new(p.plus.1 as u64)?),
                                    (p.minus.0, Die::new(p.minus.1 as u64)?),
                                ]),
                                None => None,
                            },
                            circle.control_difficulty() + grid.increments,
                        );
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
        title: tr!(
            ctx.lang,
            "nephilim.magic.mc_chart",
            skill = format!("{skill0:+}"),
            duration = dur0.name()
        ),
        x_label: tr!(ctx.lang, "nephilim.magic.x_axis").into(),
        y_label: tr!(ctx.lang, "nephilim.magic.y_axis").into(),
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
        title: tr!(ctx.lang, "nephilim.magic.mc_title").into(),
        question: tr!(ctx.lang, "nephilim.magic.mc_question").into(),
        frame,
        figures: vec![Figure::new(vec![Chart::Lines(chart)])],
        key_figures: vec![],
        provenance: prov,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::nephilim::classify;

    /// The pipeline drawn die by die as the rules read (N-MAGIC), with the crit band in
    /// force: what the tables must reproduce draw for draw.
    #[allow(clippy::too_many_arguments)]
    fn reference_counts(
        d: DieKind,
        crit: i64,
        conc_margin: i64,
        carry_margin: bool,
        stase: i64,
        ka_score: &[i64],
        plexus: Option<[(u32, Die); 2]>,
        control_difficulty: i64,
        rng: &mut Rng64,
        trials: u64,
    ) -> [u64; 3] {
        let s = d.sampler();
        let mut c = [0u64; 3];
        for _ in 0..trials {
            let raw = s.roll(rng);
            if !classify(conc_margin, raw, crit).is_success() {
                c[2] += 1;
                continue;
            }
            let carry = if carry_margin { conc_margin + raw } else { 0 };
            let drawn = if stase > 0 {
                (stase + s.roll(rng)).max(0)
            } else {
                0
            };
            let mut px = 0i64;
            if let Some([(np, dp), (nm, dm)]) = plexus {
                for _ in 0..np {
                    px += dp.roll(rng) as i64;
                }
                for _ in 0..nm {
                    px -= dm.roll(rng) as i64;
                }
            }
            let margin = ka_score[drawn as usize] + px + carry - control_difficulty;
            let ok = classify(margin, s.roll(rng), crit).is_success();
            c[usize::from(!ok)] += 1;
        }
        c
    }

    #[test]
    fn the_tables_draw_and_count_as_the_pipeline() {
        let plexus = Some([(1, Die::D8), (2, Die::D4)]);
        let ka_score: Vec<i64> = (0..=12 + STASE_SWING).map(|k| 3 + k / 2).collect();
        let key = StreamKey::new("test.magic_mc");
        let mut cases = 0;
        // Every bucket is reached somewhere, so the comparison reads all three.
        let mut seen = [0u64; 3];
        for d in DieKind::ALL {
            for crit in [d.crit(), d.crit() - 1] {
                for (conc, carry, stase, px, control) in [
                    (0, false, 0, None, 4),
                    (-3, true, 0, None, 2),
                    (2, false, 5, None, 6),
                    (-1, true, 12, plexus, 5),
                    (1, false, 0, plexus, 3),
                    (-5, true, 1, None, 0),
                ] {
                    let sim = CastSim::new(d, conc, carry, stase, &ka_score, px, control);
                    let draws = Draws::new(7, &key, cases);
                    let mut acc = Counts::<3>::default();
                    sim.run_batch(&draws, 5_000, &mut acc);
                    let want = reference_counts(
                        d,
                        crit,
                        conc,
                        carry,
                        stase,
                        &ka_score,
                        px,
                        control,
                        &mut draws.batch(),
                        5_000,
                    );
                    assert_eq!(acc.counts, want, "{d:?} crit {crit} case {conc} {stase}");
                    for (t, w) in seen.iter_mut().zip(want) {
                        *t += w;
                    }
                    cases += 1;
                }
            }
        }
        assert!(seen.iter().all(|&n| n > 1_000), "{seen:?}");
    }
}
