//! Characters created and levelled (C-LEVEL-1..4, C-LD-1), tallied per level.

use super::model::{DnaPlan, LevelingModel};
use super::skills_model::SkillPlan;
use super::trace::{Ending, Step};
use crate::engine::{Counts, Draws, Moments, Rng64, Simulation, Tally};
use crate::systems::cosmos::growth::aura::Edition;
use crate::systems::cosmos::growth::creation::create_with;
use crate::systems::cosmos::growth::genetics::Genome;
use crate::systems::cosmos::growth::leveling::{
    campaign_samplers, level_up, level_up_watched, Hero,
};
use crate::systems::cosmos::growth::skills::SkillSheet;
use crate::systems::cosmos::{TestRules, TestSampler};
use crate::systems::trace::{Quiet, Watch};

/// Quantities tallied per level.
pub const QUANTITIES: [&str; 12] = [
    "force",
    "esprit",
    "charisme",
    "agilite",
    "precision",
    "chance",
    "hp",
    "pm",
    "skill_points",
    "skill_points_gained",
    "dna_points",
    "karma",
];

/// The quantities the previous edition does not have (C-EDITION: skill points, C-LEVEL-3,
/// and DNA points, C-LEVEL-4): tallied at 0, never reported.
pub const POINTS: [usize; 3] = [8, 9, 10];

/// The reported quantities of `edition`, with their index in [`QUANTITIES`].
pub fn reported(edition: Edition) -> Vec<(usize, &'static str)> {
    QUANTITIES
        .into_iter()
        .enumerate()
        .filter(|(q, _)| edition == Edition::Current || !POINTS.contains(q))
        .collect()
}

/// Per-level tallies: `values[level_index * 12 + q]`, Chance-bonus counts per level.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct LevelAcc {
    pub values: Vec<Tally>,
    pub moments: Vec<Moments>,
    pub bonus: Vec<Counts<2>>,
    /// Per DNA policy (empty without `[leveling.dna]`).
    pub dna: Vec<PolicyAcc>,
    /// Per stat build: stat means, `[level_index * 6 + stat]` (empty without builds).
    pub builds: Vec<Vec<Moments>>,
    /// Per skill policy (empty without `[leveling.skills]`).
    pub skills: Vec<PolicyAcc>,
}

crate::engine::merge_fields!(LevelAcc: values, moments, bonus, dna, builds, skills);

/// One DNA or skill policy's tallies per level (issue 10 item 11, C-LEVEL-3): a gene tree
/// and a skill tree are tallied alike.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct PolicyAcc {
    /// Points not spent (DNA: waiting for a parent, barred or nothing left to wish).
    pub unspent: Vec<Moments>,
    /// What the policy has: genes fully active (X-X, or 2+ points on a special gene), or
    /// skills unlocked.
    pub have: Vec<Moments>,
    /// Wish met, `[level_index * wishes + w]`.
    pub wish: Vec<Counts<2>>,
    /// Every wish met, per level.
    pub all: Vec<Counts<2>>,
}

impl PolicyAcc {
    fn new(levels: usize, wishes: usize) -> PolicyAcc {
        PolicyAcc {
            unspent: vec![Moments::default(); levels],
            have: vec![Moments::default(); levels],
            wish: vec![Counts::default(); levels * wishes],
            all: vec![Counts::default(); levels],
        }
    }

    /// Tallies policy `k` (of the DNA or the skills) at level index `l`: its points
    /// `unspent`, what it has, which of its wishes are `met`; and shows it to `w`.
    #[allow(clippy::too_many_arguments)]
    fn tally<W: Watch<Step>>(
        &mut self,
        l: usize,
        unspent: u32,
        have: usize,
        met: impl ExactSizeIterator<Item = bool>,
        dna: bool,
        k: usize,
        w: &mut W,
    ) {
        self.unspent[l].push(unspent as f64);
        self.have[l].push(have as f64);
        let nw = met.len();
        let (mut all, mut n) = (true, 0);
        for (wi, met) in met.enumerate() {
            all &= met;
            n += u32::from(met);
            self.wish[l * nw + wi].add(usize::from(met));
        }
        self.all[l].add(usize::from(all));
        w.see(|| Step::Policy {
            dna,
            policy: k as u8,
            unspent,
            have: have as u32,
            met: n,
            wishes: nw as u32,
        });
    }
}

crate::engine::merge_fields!(PolicyAcc: unspent, have, wish, all);

/// Creates characters and takes each to `max_level`.
pub struct LevelingSim {
    pub model: LevelingModel,
    pub rules: TestRules,
    campaign: Vec<TestSampler>,
}

impl LevelingSim {
    pub fn new(model: LevelingModel, rules: TestRules) -> LevelingSim {
        let campaign = if model.levels.campaign.tests_per_level > 0 {
            campaign_samplers(&model.levels.campaign, &rules)
        } else {
            vec![]
        };
        LevelingSim {
            model,
            rules,
            campaign,
        }
    }

    /// Spends the DNA points gained since the last call (creation: the 5 + 1d20; then the
    /// level 3, 6, 9 dice, C-LEVEL-4) by each policy, and tallies the genomes.
    fn spend<W: Watch<Step>>(
        &self,
        d: &DnaPlan,
        genomes: &mut [Genome],
        h: &Hero,
        seen: &mut i32,
        acc: &mut LevelAcc,
        w: &mut W,
    ) {
        let gained = (h.c.dna - *seen).max(0) as u32;
        *seen = h.c.dna;
        let l = (h.level - 1) as usize;
        for (k, ((g, (_, p)), a)) in genomes
            .iter_mut()
            .zip(&d.policies)
            .zip(&mut acc.dna)
            .enumerate()
        {
            // Innate genes only at creation (C-GENE-1).
            g.spend(&d.tree, p, gained, h.level == 1);
            let met = p.wishes.iter().map(|x| g.active[x.gene] >= x.alleles);
            a.tally(l, g.unspent, g.full(&d.tree), met, true, k, w);
        }
    }

    /// Spends the skill points gained since the last call (creation, then each level's
    /// d4-1 and carry, C-LEVEL-3) by each policy, and tallies the sheets. Draws nothing.
    fn spend_skills<W: Watch<Step>>(
        &self,
        plan: &SkillPlan,
        sheets: &mut [SkillSheet],
        h: &Hero,
        seen: &mut i32,
        acc: &mut LevelAcc,
        w: &mut W,
    ) {
        let gained = (h.c.skill_points - *seen).max(0) as u32;
        *seen = h.c.skill_points;
        let l = (h.level - 1) as usize;
        for (k, ((s, (_, p)), a)) in sheets
            .iter_mut()
            .zip(&plan.policies)
            .zip(&mut acc.skills)
            .enumerate()
        {
            s.spend(&plan.tree, p, gained);
            let met = p.wishes.iter().map(|x| s.met(x));
            a.tally(l, s.purse, s.unlocked(), met, false, k, w);
        }
    }

    /// The tallied quantities of `h`, in `QUANTITIES` order.
    fn quantities(&self, h: &Hero) -> [i32; 12] {
        let c = &h.c;
        [
            c.stats[0],
            c.stats[1],
            c.stats[2],
            c.stats[3],
            c.stats[4],
            c.stats[5],
            c.hp,
            c.pm,
            c.skill_points,
            h.skill_gained,
            c.dna,
            h.karma as i32,
        ]
    }

    fn record(&self, h: &Hero, acc: &mut LevelAcc) {
        let i = (h.level - 1) as usize * QUANTITIES.len();
        let v = self.quantities(h);
        for (q, x) in v.into_iter().enumerate() {
            acc.values[i + q].push(x as i64);
            acc.moments[i + q].push(x as f64);
        }
    }
}

impl Simulation for LevelingSim {
    type Acc = LevelAcc;

    fn empty(&self) -> LevelAcc {
        let n = self.model.max_level as usize;
        let mut values = Vec::with_capacity(n * QUANTITIES.len());
        for _ in 0..n {
            for q in QUANTITIES {
                values.push(match q {
                    "hp" | "pm" => Tally::new(0, 6000),
                    "karma" => Tally::new(-10, 10),
                    _ => Tally::new(0, 200),
                });
            }
        }
        LevelAcc {
            values,
            moments: vec![Moments::default(); n * QUANTITIES.len()],
            bonus: vec![Counts::default(); n],
            dna: self.model.dna.as_ref().map_or(Vec::new(), |d| {
                d.policies
                    .iter()
                    .map(|(_, p)| PolicyAcc::new(n, p.wishes.len()))
                    .collect()
            }),
            builds: vec![vec![Moments::default(); n * 6]; self.model.builds.len()],
            skills: self.model.skills.as_ref().map_or(Vec::new(), |d| {
                d.policies
                    .iter()
                    .map(|(_, p)| PolicyAcc::new(n, p.wishes.len()))
                    .collect()
            }),
        }
    }

    fn run_batch(&self, draws: &Draws, trials: u64, acc: &mut LevelAcc) {
        let mut sc = self.scratch();
        for mut rng in draws.trials(trials) {
            self.trial(&mut rng, acc, &mut sc, &mut Quiet);
        }
    }
}

/// One genome per DNA policy and one sheet per skill policy, reset per character (no
/// allocation per trial).
pub struct Scratch {
    genomes: Vec<Genome>,
    sheets: Vec<SkillSheet>,
}

impl LevelingSim {
    pub(super) fn scratch(&self) -> Scratch {
        let m = &self.model;
        Scratch {
            genomes: m.dna.as_ref().map_or(Vec::new(), |d| {
                d.policies.iter().map(|_| Genome::new(&d.tree)).collect()
            }),
            sheets: m.skills.as_ref().map_or(Vec::new(), |d| {
                d.policies
                    .iter()
                    .map(|_| SkillSheet::new(&d.tree))
                    .collect()
            }),
        }
    }

    /// One character created and levelled, counted; how it ended. `w` sees each roll and
    /// choice (`trace.rs`); the batch run passes [`Quiet`], which compiles the notes away.
    #[inline]
    pub(super) fn trial<W: Watch<Step>>(
        &self,
        rng: &mut Rng64,
        acc: &mut LevelAcc,
        sc: &mut Scratch,
        w: &mut W,
    ) -> Ending {
        let m = &self.model;
        let (genomes, sheets) = (&mut sc.genomes, &mut sc.sheets);
        let made = create_with(rng, &m.creation, &m.races);
        let mut h = Hero::new(made.character, m.levels.start_karma);
        if let Some(sheet) = made.race.filter(|_| m.limit_levels) {
            h.min = m.races.sheets[sheet].min;
            h.max = m.races.sheets[sheet].max;
        }
        if W::ON {
            let c = &h.c;
            w.note(Step::Created {
                stats: c.stats,
                hp: c.hp,
                pm: c.pm,
                skill_points: c.skill_points,
                dna: c.dna,
                race: made.race.map(|r| r as u8),
                karma: h.karma,
            });
        }
        self.record(&h, acc);
        // Each build levels the same character with a copy of the dice stream (common
        // random numbers: the same rolls, aimed differently); the main stream, hence
        // every other output, is untouched.
        for (k, ((_, bp), a)) in m.builds.iter().zip(acc.builds.iter_mut()).enumerate() {
            let (mut b, mut r) = (h, rng.clone());
            let mut put = |b: &Hero| {
                let i = (b.level - 1) as usize * 6;
                for (k, v) in b.c.stats.iter().enumerate() {
                    a[i + k].push(*v as f64);
                }
            };
            put(&b);
            for _ in 2..=m.max_level {
                level_up(
                    &mut b,
                    &mut r,
                    bp,
                    &m.creation.priority,
                    &self.rules,
                    &self.campaign,
                );
                put(&b);
            }
            w.see(|| Step::Build {
                build: k as u8,
                stats: b.c.stats,
            });
        }
        let mut dna_seen = 0;
        if let Some(d) = &m.dna {
            for g in genomes.iter_mut() {
                for (a, gene) in g.active.iter_mut().zip(&d.tree.genes) {
                    *a = gene.active;
                }
                g.unspent = 0;
            }
            self.spend(d, genomes, &h, &mut dna_seen, acc, w);
        }
        let mut pc_seen = 0;
        if let Some(plan) = &m.skills {
            sheets.iter_mut().for_each(SkillSheet::reset);
            self.spend_skills(plan, sheets, &h, &mut pc_seen, acc, w);
        }
        let mut end = Ending::default();
        for _ in 2..=m.max_level {
            let o = level_up_watched(
                &mut h,
                rng,
                &m.levels,
                &m.creation.priority,
                &self.rules,
                &self.campaign,
                w,
            );
            acc.bonus[(h.level - 1) as usize].add(usize::from(o.is_success()));
            end.bonus |= u32::from(o.is_success()) << h.level;
            self.record(&h, acc);
            if let Some(d) = &m.dna {
                self.spend(d, genomes, &h, &mut dna_seen, acc, w);
            }
            if let Some(plan) = &m.skills {
                self.spend_skills(plan, sheets, &h, &mut pc_seen, acc, w);
            }
        }
        end.last = self.quantities(&h).map(i64::from);
        end.outcome = if end.bonus & (1 << h.level) != 0 {
            0
        } else {
            1
        };
        let mut bit = 0;
        if let Some(d) = &m.dna {
            for (g, (_, p)) in genomes.iter().zip(&d.policies) {
                let all = p
                    .wishes
                    .iter()
                    .all(|wish| g.active[wish.gene] >= wish.alleles);
                end.all_met |= u16::from(all) << bit;
                bit += 1;
            }
        }
        if let Some(plan) = &m.skills {
            for (s, (_, p)) in sheets.iter().zip(&plan.policies) {
                end.all_met |= u16::from(p.wishes.iter().all(|wish| s.met(wish))) << bit;
                bit += 1;
            }
        }
        w.see(|| Step::End {
            outcome: end.outcome,
            level: h.level,
        });
        end
    }
}
