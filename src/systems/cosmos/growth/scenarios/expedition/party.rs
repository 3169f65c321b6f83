//! A party on an expedition (issue 10 item 8; C-FAT-1..5): several travellers, each with
//! their own stats and starting modifiers, in the same fights, eating from the same bags
//! and drinking from the same potion stocks.
//!
//! What is shared and what is not:
//! - the day's plan (march, meals planned, pauses, sleep) and the number of encounters and
//!   each fight's rounds are the party's; each traveller rolls their own HP lost, PM spent,
//!   psychic attacks and other C-FAT-2 events of the fight;
//! - with `rations`, meals come out of one stock, served one round at a time in the order
//!   of the list (everyone's first meal before anyone's second), as many rounds as meals
//!   count that day (`fatigue_meals_per_day`, at least one); a traveller served no meal
//!   fasts that day (C-FAT-2) and rests at half (C-FAT-3);
//! - each potion stock is drunk by policy: in the evening, every traveller whose track is at
//!   or above the stock's threshold may drink one, the most fatigued first (ties: list
//!   order), while the stock lasts.
//!
//! "The party can go on" after day d: after the night, every traveller has both tracks
//! below 10 (FP 10 "incapable de bouger", FM 10 "tombe inconscient au bout de quelques
//! heures", cosmos-current l. 438-444; C-FAT-4).

use crate::engine::{Counts, Draws, Moments, Rng64, Simulation, Tally};
use crate::systems::cosmos::growth::fatigue::expedition::{PotionUse, Trek};
use crate::systems::cosmos::growth::fatigue::reference::{ReferenceTable, ReferenceTest};
use crate::systems::cosmos::growth::GrowthRules;
use crate::systems::cosmos::SpecError;
use crate::systems::cosmos::TestRules;
use crate::systems::trace::{Quiet, Watch};

use crate::systems::cosmos::combat::{play_from, CombatSim, Fought};

use super::model::{ExpeditionModel, Party, MAX_TRAVELLERS};
use super::sim::Moment;
use super::trace::{Ending, Step, Who, STOPPED, WENT_ON};

/// One traveller's tallies.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct MemberAcc {
    pub worst: Moment,
    pub end: Moment,
    /// Day of first exhaustion (days + 1: never).
    pub first_exhaustion: Tally,
}

crate::engine::merge_fields!(MemberAcc: worst, end, first_exhaustion);

/// Per-traveller and party tallies, per day.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PartyAcc {
    pub members: Vec<MemberAcc>,
    /// Someone reached 10 FP or FM during the day (the day's worst point).
    pub someone_worst: Vec<Counts<2>>,
    /// Someone is at 10 FP or FM in the evening.
    pub someone_end: Vec<Counts<2>>,
    /// Travellers with both tracks below 10 after the night (0..n).
    pub able: Vec<Tally>,
    /// Day the party first cannot go on (days + 1: never).
    pub first_stop: Tally,
    /// Rations left in the evening (empty without shared rations).
    pub rations_left: Vec<Moments>,
    /// Potions left in the evening, by stock.
    pub potions_left: Vec<Vec<Moments>>,
}

crate::engine::merge_fields!(PartyAcc: members, someone_worst, someone_end, able, first_stop, rations_left, potions_left);

/// A party's expeditions.
pub struct PartySim {
    pub model: ExpeditionModel,
    /// The linked combat, ready to play (issue 10 item 9).
    pub combat: Option<CombatSim>,
    /// The reference test of each traveller (their own Esprit for a concentrate action).
    pub tables: Vec<ReferenceTable>,
    /// The endurance numbers in force (C-FAT-2..4 parameters).
    trek: crate::systems::cosmos::growth::fatigue::expedition::TrekRules,
}

impl PartySim {
    /// With the growth options in force (C-FAT-5 passive test).
    pub fn with_growth(
        model: ExpeditionModel,
        rules: &TestRules,
        growth: &GrowthRules,
    ) -> Result<PartySim, SpecError> {
        let (stat, threshold, karma) = model.reference;
        let mut tables = Vec::new();
        for m in &party(&model).members {
            let test = ReferenceTest {
                stat,
                threshold,
                karma,
                concentrate: model.concentrate.then_some(m.traveller.esprit as f64),
            };
            tables.push(ReferenceTable::new(&test, rules, growth.passive_test)?);
        }
        let combat = model
            .linked
            .as_ref()
            .map(|l| CombatSim::new(l.model.clone(), l.rules).carrying_fatigue());
        Ok(PartySim {
            model,
            combat,
            tables,
            trek: growth.trek,
        })
    }
}

fn party(m: &ExpeditionModel) -> &Party {
    m.party.as_ref().expect("a party model")
}

/// How much `t` needs a potion of `p` now (the track that triggers the policy), or None.
#[inline(always)]
fn need(t: &Trek, p: &PotionUse) -> Option<i32> {
    let fp = p.when_fp.filter(|&w| t.f.fp >= w).map(|_| t.f.fp);
    let fm = p.when_fm.filter(|&w| t.f.fm >= w).map(|_| t.f.fm);
    fp.max(fm)
}

impl Simulation for PartySim {
    type Acc = PartyAcc;

    fn empty(&self) -> PartyAcc {
        let d = self.model.plans.len();
        let p = party(&self.model);
        let n = p.members.len();
        PartyAcc {
            members: (0..n)
                .map(|_| MemberAcc {
                    worst: Moment::new(d),
                    end: Moment::new(d),
                    first_exhaustion: Tally::new(1, d as i64),
                })
                .collect(),
            someone_worst: vec![Counts::default(); d],
            someone_end: vec![Counts::default(); d],
            able: vec![Tally::new(0, n as i64); d],
            first_stop: Tally::new(1, d as i64),
            rations_left: if p.rations.is_some() {
                vec![Moments::default(); d]
            } else {
                Vec::new()
            },
            potions_left: vec![vec![Moments::default(); d]; self.model.potions.len()],
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut PartyAcc) {
        let mut scratch = self.scratch();
        for mut rng in draws.trials(trials) {
            self.trial(&mut rng, acc, &mut scratch, &mut Quiet);
        }
    }
}

/// The played combat's scratch state, once per batch.
pub struct Scratch {
    combat: crate::systems::cosmos::combat::CombatAcc,
    fought: Vec<Fought>,
    /// Each combatant's FP/FM at the start of a played fight: the file's, then each
    /// traveller's own that day (issue 25 defect 5).
    start: Vec<(i8, i8)>,
}

impl PartySim {
    pub(super) fn scratch(&self) -> Scratch {
        Scratch {
            combat: match &self.combat {
                Some(cs) => cs.empty_acc(),
                None => crate::systems::cosmos::combat::CombatAcc::new(0, 0, 0),
            },
            fought: vec![Fought::default(); self.combat.as_ref().map_or(0, |c| c.n)],
            start: self.combat.as_ref().map_or(Vec::new(), |c| {
                c.model
                    .fighters
                    .iter()
                    .map(|f| (f.start.fp, f.start.fm))
                    .collect()
            }),
        }
    }

    /// One expedition of the party, counted; how it ended. `w` sees each step
    /// (`trace.rs`); the batch run passes [`Quiet`], which compiles the notes away.
    #[inline]
    pub(super) fn trial<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut PartyAcc,
        sc: &mut Scratch,
        w: &mut W,
    ) -> Ending {
        let m = &self.model;
        let p = party(m);
        let n = p.members.len();
        let days = m.plans.len() as i64;
        let pots = &m.potions;
        let meal_rounds = self.trek.meals_per_day.max(1);
        let mut treks = [Trek::default(); MAX_TRAVELLERS];
        for (t, mem) in treks.iter_mut().zip(&p.members) {
            *t = Trek::starting_at(mem.start, &[], self.trek);
        }
        let treks = &mut treks[..n];
        if W::ON {
            // C-FAT-1: each traveller's modifiers and their own.
            for (i, t) in treks.iter().enumerate() {
                w.note(Step::Start {
                    who: i as u8,
                    f: t.f,
                });
            }
        }
        let mut stock = [0u32; 8];
        for (s, pu) in stock.iter_mut().zip(pots) {
            *s = pu.count;
        }
        let mut rations = p.rations;
        let mut first = [days + 1; MAX_TRAVELLERS];
        let mut stop = days + 1;
        let mut knocked_ever = 0u16;
        let mut potions = 0;
        for (d, plan) in m.plans.iter().enumerate() {
            w.see(|| Step::Day { day: d as u32 + 1 });
            for (i, t) in treks.iter_mut().enumerate() {
                t.morning(plan, &mut Who(i as u8, w));
            }
            // The party meets the day's encounters together (C-FAT-2 per traveller).
            let k = plan.encounters.roll(rng).max(0);
            w.see(|| Step::Encounters { count: k });
            let mut knocked = [false; MAX_TRAVELLERS];
            for _ in 0..k {
                if let (Some(cs), Some(l)) = (&self.combat, &m.linked) {
                    // A played combat (item 9), with the trial's stream, each
                    // traveller as tired as the day has left them (C-FAT-4 in the
                    // fight; HP are not tracked between fights: the file's).
                    for (t, &c) in treks.iter().zip(&l.combatant) {
                        sc.start[c] = (t.f.fp as i8, t.f.fm as i8);
                    }
                    let rounds =
                        play_from(cs, rng, &mut sc.combat, &mut sc.fought, &sc.start) as i32;
                    if W::ON {
                        // The combat engine's own account is `cosmosim trace` of the
                        // combat file; here, its result.
                        let down = sc
                            .fought
                            .iter()
                            .enumerate()
                            .filter(|(_, f)| f.down)
                            .fold(0u32, |a, (c, _)| a | 1 << c);
                        w.note(Step::Combat {
                            rounds: rounds as u32,
                            down,
                        });
                    }
                    for (i, ((t, &c), ko)) in treks
                        .iter_mut()
                        .zip(&l.combatant)
                        .zip(&mut knocked)
                        .enumerate()
                    {
                        let r = sc.fought[c];
                        let who = &mut Who(i as u8, w);
                        if cs.model.fatigue.on {
                            t.fight_delta(r.dfp, r.dfm, who);
                        } else {
                            let points = r.light_used as i32 + r.dark_used as i32;
                            let stood = i32::from(r.stood);
                            t.fight_counts(
                                rounds, stood, r.hp_lost, r.pm_spent, points, r.down, who,
                            );
                        }
                        *ko |= r.down;
                    }
                    continue;
                }
                let rounds = m.encounter.rounds.roll(rng).max(1);
                for (i, t) in treks.iter_mut().enumerate() {
                    t.fight_of(
                        rounds,
                        &m.encounter,
                        m.extras.as_ref(),
                        rng,
                        &mut Who(i as u8, w),
                    );
                }
            }
            // Meals from the shared bags, one round at a time: only as many rounds as
            // meals count that day (`fatigue_meals_per_day`, C-FAT-3), and at least one
            // for a day that plans food, which still keeps off fasting (C-FAT-2).
            let mut meals = [plan.meals; MAX_TRAVELLERS];
            if let Some(r) = rations.as_mut() {
                let mut served = [0u32; MAX_TRAVELLERS];
                for _ in 0..plan.meals.min(3).min(meal_rounds) {
                    for s in served.iter_mut().take(n) {
                        if *r > 0 {
                            *r -= 1;
                            *s += 1;
                        }
                    }
                }
                meals = served;
                w.see(|| Step::Rations { left: *r });
            }
            for (i, (t, &m)) in treks.iter_mut().zip(&meals).enumerate() {
                t.supper_of(plan, m, &mut Who(i as u8, w));
            }
            // Shared potions by policy, the most fatigued first (C-FAT-3).
            for (s, pu) in stock.iter_mut().zip(pots) {
                let mut order = [(0i32, 0usize); MAX_TRAVELLERS];
                let mut c = 0;
                for (i, t) in treks.iter().enumerate() {
                    if let Some(v) = need(t, pu) {
                        order[c] = (-v, i);
                        c += 1;
                    }
                }
                order[..c].sort_unstable();
                for &(_, i) in &order[..c] {
                    if *s == 0 {
                        break;
                    }
                    *s -= 1;
                    potions += 1;
                    treks[i].drink(pu.potion, *s, &mut Who(i as u8, w));
                }
            }
            let (mut any_w, mut any_e) = (false, false);
            for (i, t) in treks.iter().enumerate() {
                let (wp, e) = (t.peak, t.f);
                let end_ex = t.exhausted();
                let a = &mut acc.members[i];
                let tb = &self.tables[i];
                let (p_worst, p_end) = (tb.at(wp.fp, wp.fm), tb.at(e.fp, e.fm));
                a.worst.push(d, wp.fp, wp.fm, t.exhausted_today, p_worst);
                a.end.push(d, e.fp, e.fm, end_ex, p_end);
                w.see(|| Step::Evening {
                    who: i as u8,
                    worst: wp,
                    end: e,
                    exhausted: t.exhausted_today,
                    p_worst,
                    p_end,
                });
                if t.exhausted_today && first[i] > days {
                    first[i] = d as i64 + 1;
                }
                any_w |= t.exhausted_today;
                any_e |= end_ex;
            }
            acc.someone_worst[d].add(usize::from(any_w));
            acc.someone_end[d].add(usize::from(any_e));
            if let Some(r) = rations {
                acc.rations_left[d].push(r as f64);
            }
            for (l, s) in acc.potions_left.iter_mut().zip(stock) {
                l[d].push(s as f64);
            }
            for (i, (t, &m)) in treks.iter_mut().zip(&meals).enumerate() {
                t.night_of(plan, m, &mut Who(i as u8, w));
            }
            // Knocked out in a played fight: not up to setting off the next morning
            // (HP <= 0 "tombe inconscient"; HP are not tracked between days).
            let able = treks
                .iter()
                .zip(knocked)
                .filter(|(t, ko)| !ko && !t.exhausted())
                .count();
            acc.able[d].push(able as i64);
            if able < n && stop > days {
                stop = d as i64 + 1;
            }
            for (i, ko) in knocked.iter().enumerate().take(n) {
                knocked_ever |= u16::from(*ko) << i;
            }
            if W::ON {
                let mask = |f: &dyn Fn(usize) -> bool| {
                    (0..n).filter(|&i| f(i)).fold(0u16, |a, i| a | 1 << i)
                };
                w.note(Step::SetOff {
                    exhausted: mask(&|i| treks[i].exhausted()),
                    knocked: mask(&|i| knocked[i]),
                });
            }
        }
        for (a, f) in acc.members.iter_mut().zip(first) {
            a.first_exhaustion.push(f);
        }
        acc.first_stop.push(stop);
        let mut end = Ending::new(days);
        end.first = first;
        end.stop = stop;
        end.knocked = knocked_ever;
        end.potions = potions;
        end.outcome = if stop <= days { STOPPED } else { WENT_ON };
        w.see(|| Step::End {
            outcome: end.outcome,
            party: true,
            first: first[..n].iter().copied().min().unwrap_or(days + 1),
            stop,
        });
        end
    }
}
