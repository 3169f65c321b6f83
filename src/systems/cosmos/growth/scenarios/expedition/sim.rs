//! Expeditions, day after day (C-FAT-1..5): what each day records, at its worst point and
//! at its end.

use crate::engine::{Counts, Draws, Moments, Rng64, Simulation, Tally};
use crate::systems::cosmos::growth::fatigue::expedition::{Trek, TrekRules};
use crate::systems::cosmos::growth::fatigue::reference::{ReferenceTable, ReferenceTest};
use crate::systems::cosmos::growth::fatigue::FATIGUE_MIN;
use crate::systems::cosmos::growth::GrowthRules;
use crate::systems::cosmos::SpecError;
use crate::systems::cosmos::TestRules;
use crate::systems::trace::{Quiet, Watch};

use super::legs::march_table;
use super::model::ExpeditionModel;
use super::trace::{Ending, Step, Who, EXHAUSTED, NOT_EXHAUSTED};

/// When in the day a figure is taken.
///
/// - *worst point*: the highest FP and the highest FM reached in the day, from the morning
///   through the march, the fights and the evening's fasting gains (before any recovery
///   can undo them); P(exhausted) there is P(either track reached 10 at any moment).
/// - *end of day*: the evening, after meals, pauses, fasting and potions, before the
///   night's rest.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Moment {
    pub fp: Vec<Tally>,
    pub fm: Vec<Tally>,
    pub exhausted: Vec<Counts<2>>,
    pub reference: Vec<Moments>,
}

impl Moment {
    pub(super) fn new(days: usize) -> Moment {
        Moment {
            fp: vec![Tally::new(-3, 10); days],
            fm: vec![Tally::new(-3, 10); days],
            exhausted: vec![Counts::default(); days],
            reference: vec![Moments::default(); days],
        }
    }

    #[inline(always)]
    pub(super) fn push(&mut self, d: usize, fp: i32, fm: i32, exhausted: bool, p: f64) {
        self.fp[d].push(fp as i64);
        self.fm[d].push(fm as i64);
        self.exhausted[d].add(usize::from(exhausted));
        self.reference[d].push(p);
    }
}

crate::engine::merge_fields!(Moment: fp, fm, exhausted, reference);

/// Per-day tallies at the worst point and at the end of the day.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct TrekAcc {
    pub worst: Moment,
    pub end: Moment,
    pub first_exhaustion: Tally,
    /// Grid units marched per day (empty without a march leg).
    pub march: Vec<Moments>,
}

crate::engine::merge_fields!(TrekAcc: worst, end, first_exhaustion, march);

/// Expeditions, day after day.
pub struct ExpeditionSim {
    pub model: ExpeditionModel,
    pub table: ReferenceTable,
    /// Grid units marched in a day by morning FP -3..10, with a march leg.
    march: Option<[f64; 14]>,
    /// The endurance numbers in force (C-FAT-2..4 parameters).
    trek: TrekRules,
}

impl ExpeditionSim {
    /// With the default growth options.
    pub fn new(model: ExpeditionModel, rules: &TestRules) -> Result<ExpeditionSim, SpecError> {
        ExpeditionSim::with_growth(model, rules, &GrowthRules::default())
    }

    /// With the growth options in force (sprint and overload readings, C-MOVE, C-INV; the
    /// passive test of a concentrate action, C-FAT-5).
    pub fn with_growth(
        model: ExpeditionModel,
        rules: &TestRules,
        growth: &GrowthRules,
    ) -> Result<ExpeditionSim, SpecError> {
        let (stat, threshold, karma) = model.reference;
        let test = ReferenceTest {
            stat,
            threshold,
            karma,
            concentrate: model.concentrate.then_some(model.traveller.esprit as f64),
        };
        Ok(ExpeditionSim {
            table: ReferenceTable::new(&test, rules, growth.passive_test)?,
            march: match &model.legs.march {
                Some(m) => Some(march_table(m, rules, growth)?),
                None => None,
            },
            trek: growth.trek,
            model,
        })
    }
}

impl Simulation for ExpeditionSim {
    type Acc = TrekAcc;

    fn empty(&self) -> TrekAcc {
        let d = self.model.plans.len();
        TrekAcc {
            worst: Moment::new(d),
            end: Moment::new(d),
            first_exhaustion: Tally::new(1, d as i64),
            march: if self.march.is_some() {
                vec![Moments::default(); d]
            } else {
                Vec::new()
            },
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut TrekAcc) {
        for mut rng in draws.trials(trials) {
            self.trial(&mut rng, acc, &mut Quiet);
        }
    }
}

impl ExpeditionSim {
    /// One expedition, counted; how it ended. `w` sees each step (`trace.rs`); the batch
    /// run passes [`Quiet`], which compiles the notes away.
    #[inline]
    pub(super) fn trial<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut TrekAcc,
        w: &mut W,
    ) -> Ending {
        let m = &self.model;
        let days = m.plans.len() as i64;
        let mut t = Trek::new(&m.traveller, &m.potions, self.trek);
        if W::ON {
            // C-FAT-1: the Force/Esprit/mental-health modifiers.
            w.note(Step::Start { who: 0, f: t.f });
        }
        let mut first = days + 1;
        let mut potions = 0;
        for (d, plan) in m.plans.iter().enumerate() {
            w.see(|| Step::Day { day: d as u32 + 1 });
            if let Some(table) = &self.march {
                // The march happens in the day, at the morning's FP (C-FAT-4).
                let units = table[(t.f.fp - FATIGUE_MIN) as usize];
                acc.march[d].push(units);
                w.see(|| Step::March { fp: t.f.fp, units });
            }
            t.morning(plan, &mut Who(0, w));
            let n = plan.encounters.roll(rng).max(0);
            w.see(|| Step::Encounters { count: n });
            for _ in 0..n {
                let rounds = m.encounter.rounds.roll(rng).max(1);
                t.fight_of(rounds, &m.encounter, m.extras.as_ref(), rng, &mut Who(0, w));
            }
            let stock: u32 = t.left.iter().sum();
            t.evening(plan, &m.potions, &mut Who(0, w));
            potions += stock - t.left.iter().sum::<u32>();
            let (wp, e) = (t.peak, t.f);
            let (p_worst, p_end) = (self.table.at(wp.fp, wp.fm), self.table.at(e.fp, e.fm));
            acc.worst.push(d, wp.fp, wp.fm, t.exhausted_today, p_worst);
            acc.end.push(d, e.fp, e.fm, t.exhausted(), p_end);
            w.see(|| Step::Evening {
                who: 0,
                worst: wp,
                end: e,
                exhausted: t.exhausted_today,
                p_worst,
                p_end,
            });
            if t.exhausted_today && first > days {
                first = d as i64 + 1;
            }
            t.night(plan, &mut Who(0, w));
        }
        acc.first_exhaustion.push(first);
        let mut end = Ending::new(days);
        end.first[0] = first;
        end.potions = potions;
        end.outcome = if first <= days {
            EXHAUSTED
        } else {
            NOT_EXHAUSTED
        };
        w.see(|| Step::End {
            outcome: end.outcome,
            party: false,
            first,
            stop: days + 1,
        });
        end
    }
}
