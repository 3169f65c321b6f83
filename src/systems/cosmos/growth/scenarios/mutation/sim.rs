//! The mutation simulation: characters exposed day after day (C-GENE-2..5), with events,
//! levels raising Chance and campaign tests moving karma between mutations.

use crate::engine::{Counts, Draws, Merge, Moments, RatioSums, Rng64, Simulation, Tally};
use crate::systems::cosmos::growth::campaign::Mix;
use crate::systems::cosmos::growth::genetics::{
    MajorCause, MutationRules, MutationStep as Step, Mutations, Ultimate,
};
use crate::systems::cosmos::{drift, TestRules, TestSampler, TestSpec, KARMA_STATES};
use crate::systems::trace::{Quiet, Watch};

use super::model::MutationModel;

/// Time-to-event tallies (days; `max_days + 1` = not by the end), ultimate types.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct MutationAcc {
    pub first_major: Tally,
    pub ultimate: Tally,
    pub final_ultimate: Tally,
    pub first_type: Counts<4>,
    pub final_type: Counts<4>,
    pub mutations: Moments,
    /// Positive majors out of majors, per character: the share of all majors that are
    /// positive is the ratio of their totals.
    pub positive_majors: RatioSums,
    /// Times each `[[mutation.events]]` happened, over all characters.
    pub event_counts: Vec<u64>,
    /// Mutations caused by events (their Pµ, their rolls and their majors).
    pub event_mutations: u64,
}

impl Merge for MutationAcc {
    fn merge(&mut self, o: Self) {
        self.first_major.merge(o.first_major);
        self.ultimate.merge(o.ultimate);
        self.final_ultimate.merge(o.final_ultimate);
        self.first_type.merge(o.first_type);
        self.final_type.merge(o.final_type);
        self.mutations.merge(o.mutations);
        self.positive_majors.merge(o.positive_majors);
        for (a, b) in self.event_counts.iter_mut().zip(o.event_counts) {
            *a += b;
        }
        self.event_mutations += o.event_mutations;
    }
}

/// Characters exposed day after day.
pub struct MutationSim<'a> {
    pub model: &'a MutationModel,
    pub rules: MutationRules,
    pub chance: i64,
    pub karma: i8,
    /// 21 samplers (karma -10..10) per Chance value: one, or one per level.
    samplers: Vec<TestSampler>,
    /// Campaign tests between mutations: tests per day and their mix.
    campaign: Option<(u32, Mix)>,
    /// The test rules campaign karma drifts under (`karma_overflow`, `karma_bound`).
    test_rules: crate::systems::cosmos::TestRules,
}

impl<'a> MutationSim<'a> {
    pub fn new(
        model: &'a MutationModel,
        rules: MutationRules,
        test: &TestRules,
        chance: i64,
        karma: i8,
    ) -> MutationSim<'a> {
        let chances = model
            .levels
            .as_ref()
            .map_or_else(|| vec![chance], |l| l.chances(chance));
        let samplers = chances
            .iter()
            .flat_map(|&c| {
                (-10..=10).map(move |k| {
                    TestSampler::new(&TestSpec::new(c as f64, k).expect("karma in range"), test)
                })
            })
            .collect();
        MutationSim {
            model,
            rules,
            chance,
            karma,
            samplers,
            campaign: model
                .campaign
                .as_ref()
                .map(|(n, mix)| (*n, Mix::new(mix.clone(), test))),
            test_rules: *test,
        }
    }
}

impl Simulation for MutationSim<'_> {
    type Acc = MutationAcc;

    fn empty(&self) -> MutationAcc {
        let d = self.model.max_days as i64;
        MutationAcc {
            first_major: Tally::new(1, d),
            ultimate: Tally::new(1, d),
            final_ultimate: Tally::new(1, d),
            first_type: Counts::default(),
            final_type: Counts::default(),
            mutations: Moments::default(),
            positive_majors: RatioSums::default(),
            event_counts: vec![0; self.model.events.len()],
            event_mutations: 0,
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut MutationAcc) {
        if self.plain() {
            self.characters::<false>(draws, trials, acc)
        } else {
            self.characters::<true>(draws, trials, acc)
        }
    }
}

impl MutationSim<'_> {
    /// Two copies of the day loop: the plain one (daily exposure only) keeps the speed it
    /// had before events, levels and campaign tests existed.
    pub(super) fn plain(&self) -> bool {
        self.model.events.is_empty() && self.model.levels.is_none() && self.campaign.is_none()
    }

    fn characters<const EXTRA: bool>(&self, draws: &Draws, trials: u64, acc: &mut MutationAcc) {
        let mut st = Mutations::new(&self.model.tree, &self.rules);
        for mut rng in draws.trials(trials) {
            self.character::<EXTRA, _>(&mut st, &mut rng, acc, &mut Quiet);
        }
    }

    /// One character exposed day after day, counted; its first ultimate. `w` sees each
    /// step (`trace.rs`); the batch run passes [`Quiet`], which compiles the notes away.
    pub(super) fn character<const EXTRA: bool, W: Watch<Step>>(
        &self,
        st: &mut Mutations<'_>,
        rng: &mut Rng64,
        acc: &mut MutationAcc,
        w: &mut W,
    ) -> Option<Ultimate> {
        let m = self.model;
        let never = m.max_days as i64 + 1;
        // The samplers of the first (or only) Chance value.
        let base = &self.samplers[..KARMA_STATES];
        st.reset(self.karma);
        let (mut major, mut ult, mut fin) = (never, never, never);
        let mut count = 0u32;
        let mut last = m.max_days;
        for day in 1..=m.max_days {
            let mut chance = base;
            if EXTRA {
                self.extras(day, st, rng, &mut count, &mut chance, acc, w);
            }
            // C-GENE-2: the day's Pµ; at 100 the gauge mutates the character.
            let pmu = m.schedule.on_day(day).map_or(0, |d| d.roll(rng));
            if W::ON && pmu != 0 {
                w.note(Step::Exposure {
                    day,
                    pmu,
                    from: st.pmu,
                    to: (st.pmu + pmu).max(0),
                });
            }
            count += st.accrue(pmu, rng, chance, &self.rules, w);
            if major == never && st.majors > 0 {
                major = day as i64;
            }
            if ult == never && st.first_ultimate.is_some() {
                ult = day as i64;
            }
            if st.done() {
                fin = day as i64;
                last = day;
                break;
            }
            // C-GENE-5: gene therapy cures the reversible minors.
            if m.therapy_every > 0 && day % m.therapy_every == 0 {
                let cured = st.cure_reversible(&self.rules);
                if W::ON && cured > 0 {
                    w.note(Step::Therapy { day, cured });
                }
            }
        }
        acc.first_major.push(major);
        acc.ultimate.push(ult);
        acc.final_ultimate.push(fin);
        if let Some(u) = st.first_ultimate {
            acc.first_type.add(u as usize);
        }
        // The ultimate held when the run ends: a character still at half HP (C-GENE-5: its
        // one more major has not come) holds half_hp, so the final shares cover everyone
        // who reached an ultimate (audit of 2026-12-07, night: the half_hp row read 0).
        if let Some(u) = st.final_ultimate.or(st.first_ultimate) {
            acc.final_type.add(u as usize);
        }
        acc.mutations.push(count as f64);
        // Pooled over characters, not a mean of each one's share: a character with one
        // major would weigh as much as one with five (audit of 2026-12-06).
        acc.positive_majors
            .push(u64::from(st.majors_positive), u64::from(st.majors));
        w.see(|| Step::End {
            day: last,
            first: st.first_ultimate,
        });
        st.first_ultimate
    }

    /// The day's campaign tests, level and events (before its exposure). Sets `chance` to
    /// the samplers of the day's level.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn extras<'s, W: Watch<Step>>(
        &'s self,
        day: u32,
        st: &mut Mutations<'_>,
        rng: &mut Rng64,
        count: &mut u32,
        chance: &mut &'s [TestSampler],
        acc: &mut MutationAcc,
        w: &mut W,
    ) {
        let m = self.model;
        // The day's other tests first (C-KARMA-1): the mutation's Chance test reads the
        // karma they leave.
        if let Some((n, mix)) = &self.campaign {
            let from = st.karma;
            for _ in 0..*n {
                st.karma = drift(st.karma, mix.test(rng, st.karma), &self.test_rules);
            }
            if W::ON && st.karma != from {
                w.note(Step::Karma {
                    day,
                    tests: *n,
                    from,
                    to: st.karma,
                });
            }
        }
        let lv = m.levels.as_ref().map_or(0, |l| l.index(day));
        if W::ON {
            if let Some(l) = &m.levels {
                if day == 1 || l.index(day - 1) != lv {
                    w.note(Step::Level {
                        day,
                        level: l.start + ((day - 1) / l.days_per_level).min(10 - l.start),
                        chance: l.chances(self.chance)[lv],
                    });
                }
            }
        }
        *chance = &self.samplers[lv * KARMA_STATES..(lv + 1) * KARMA_STATES];
        // Events before the day's exposure, in file order: a major first, then the rolls,
        // then the Pµ (the zombie bite's order in the book).
        for (i, e) in m.events.iter().enumerate() {
            if st.done() || !e.happens(day, rng) {
                continue;
            }
            acc.event_counts[i] += 1;
            w.see(|| Step::Event { day, event: i });
            let before = *count;
            if e.major {
                st.add_major(rng, &self.rules, false, MajorCause::Event, None, w);
                *count += 1;
            }
            for _ in 0..e.mutations {
                if !st.done() {
                    st.mutate(rng, chance, &self.rules, w);
                    *count += 1;
                }
            }
            if let Some(p) = &e.pmu {
                let pmu = p.roll(rng);
                w.see(|| Step::EventPmu {
                    pmu,
                    from: st.pmu,
                    to: (st.pmu + pmu).max(0),
                });
                *count += st.accrue(pmu, rng, chance, &self.rules, w);
            }
            acc.event_mutations += (*count - before) as u64;
        }
    }
}

/// One (Chance, karma) cell through the engine.
pub fn run_cell(
    model: &MutationModel,
    ctx: &crate::context::Context,
    trials: u64,
    chance: i64,
    karma: i8,
) -> MutationAcc {
    let rules = MutationRules::from_options(&ctx.options);
    let test = TestRules::from_options(&ctx.options);
    let sim = MutationSim::new(model, rules, &test, chance, karma);
    let progress = ctx.progress(
        trials,
        &tr!(ctx.lang, "growth.mutation.progress", chance, karma),
    );
    let key = ctx
        .stream
        .clone()
        .int("chance", chance)
        .int("karma", karma.into());
    let acc = ctx.engine.run(&sim, &key, trials, &progress);
    progress.finish();
    acc
}
