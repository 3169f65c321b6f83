//! One character's mutations (C-GENE-2..5): the Pµ gauge, the Chance-test table, minor
//! escalation, chains and ultimates. The state is reused from trial to trial (no
//! allocation per trial).

use crate::dice::Die;
use crate::engine::Rng64;
use crate::systems::cosmos::{drift, Outcome, TestRules, TestSampler, KARMA_MIN};
use crate::systems::trace::Watch;

use super::steps::{MajorCause, MutationStep as Step};
use super::GeneTree;

/// The four ultimate mutations (C-GENE-5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Ultimate {
    Abomination = 0,
    Fatal = 1,
    Zombie = 2,
    /// Half max HP lost; one more major is allowed, then a draw among the other three.
    HalfHp = 3,
}

impl Ultimate {
    pub const ALL: [Ultimate; 4] = [
        Ultimate::Abomination,
        Ultimate::Fatal,
        Ultimate::Zombie,
        Ultimate::HalfHp,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Ultimate::Abomination => "abomination",
            Ultimate::Fatal => "fatal",
            Ultimate::Zombie => "zombie",
            Ultimate::HalfHp => "half_hp",
        }
    }
}

/// How the ultimate is picked (C-GENE-5, option `ultimate_choice`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UltimateChoice {
    Random,
    Fixed(Ultimate),
}

/// The mutation options in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MutationRules {
    /// C-GENE-3 option `mutation_target`: only genes with an active allele.
    pub target_active: bool,
    pub ultimate: UltimateChoice,
    /// The test rules karma drifts under (`karma_overflow`, `karma_bound`, C-KARMA-1).
    pub karma: TestRules,
    /// Option `minor_sign = separate`: positive and negative minors escalate each on their
    /// own (C-GENE-4 is silent on signs; the default `together` counts every minor).
    pub separate_signs: bool,
    /// Option `therapy_cures = negative`: gene therapy leaves the positive minors (the
    /// default `reversible` cures every reversible minor, C-GENE-5 as written).
    pub therapy_negative_only: bool,
}

/// Mutations carried by one gene.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GeneState {
    /// Minor mutations currently on the gene, of either sign (C-GENE-4: the 2nd makes it
    /// irreversible, the 3rd turns into a major).
    pub minors: u8,
    /// Whether the minors are irreversible (with `minor_sign = separate`: the negative
    /// ones).
    pub irreversible: bool,
    /// How many of `minors` are positive.
    pub positive: u8,
    /// With `minor_sign = separate`: the positive minors are irreversible.
    pub positive_irreversible: bool,
}

impl GeneState {
    /// Negative minors on the gene.
    pub fn negative(&self) -> u8 {
        self.minors - self.positive
    }
}

/// One character's mutation state.
#[derive(Clone, Debug)]
pub struct Mutations<'a> {
    tree: &'a GeneTree,
    targets: Vec<usize>,
    pub genes: Vec<GeneState>,
    chain_fired: Vec<bool>,
    pub pmu: i32,
    pub karma: i8,
    pub majors: u32,
    pub majors_positive: u32,
    pub first_ultimate: Option<Ultimate>,
    pub final_ultimate: Option<Ultimate>,
    /// Chance-test outcomes so far, by class.
    pub outcomes: [u32; 6],
}

impl<'a> Mutations<'a> {
    pub fn new(tree: &'a GeneTree, rules: &MutationRules) -> Mutations<'a> {
        let active: Vec<usize> = (0..tree.len())
            .filter(|&i| tree.genes[i].active > 0)
            .collect();
        let targets = if rules.target_active && !active.is_empty() {
            active
        } else {
            (0..tree.len()).collect()
        };
        Mutations {
            tree,
            targets,
            genes: vec![GeneState::default(); tree.len()],
            chain_fired: vec![false; tree.chains.len()],
            pmu: 0,
            karma: 0,
            majors: 0,
            majors_positive: 0,
            first_ultimate: None,
            final_ultimate: None,
            outcomes: [0; 6],
        }
    }

    /// Back to a fresh character at `karma`.
    pub fn reset(&mut self, karma: i8) {
        self.genes
            .iter_mut()
            .for_each(|g| *g = GeneState::default());
        self.chain_fired.iter_mut().for_each(|f| *f = false);
        self.pmu = 0;
        self.karma = karma;
        self.majors = 0;
        self.majors_positive = 0;
        self.first_ultimate = None;
        self.final_ultimate = None;
        self.outcomes = [0; 6];
    }

    /// Whether the character's mutations are over (a final ultimate).
    pub fn done(&self) -> bool {
        self.final_ultimate.is_some()
    }

    /// Adds Pµ; while the gauge is at 100 or more, takes 100 off (the rest carries) and
    /// mutates once (C-GENE-2). Returns the number of mutations. `w` sees each step (the
    /// batch passes `Quiet`).
    pub fn accrue<W: Watch<Step>>(
        &mut self,
        pmu: i32,
        rng: &mut Rng64,
        chance: &[TestSampler],
        rules: &MutationRules,
        w: &mut W,
    ) -> u32 {
        self.pmu = (self.pmu + pmu).max(0);
        let mut n = 0;
        while self.pmu >= 100 && !self.done() {
            self.pmu -= 100;
            w.see(|| Step::Gauge { left: self.pmu });
            self.mutate(rng, chance, rules, w);
            n += 1;
        }
        n
    }

    fn pick(rng: &mut Rng64, from: &[usize]) -> Option<usize> {
        match from.len() {
            0 => None,
            1 => Some(from[0]),
            n => Some(from[Die::new(n as u64).map_or(0, |d| d.index(rng) as usize)]),
        }
    }

    /// One mutation: a uniform target gene, the type by a Chance test (C-GENE-3).
    pub fn mutate<W: Watch<Step>>(
        &mut self,
        rng: &mut Rng64,
        chance: &[TestSampler],
        rules: &MutationRules,
        w: &mut W,
    ) -> Outcome {
        let tree = self.tree;
        let g = Self::pick(rng, &self.targets).unwrap_or(0);
        let o = chance[(self.karma - KARMA_MIN) as usize].sample(rng);
        let karma = self.karma;
        // C-KARMA-1: the Chance test moves karma like any normal test.
        self.karma = drift(self.karma, o, &rules.karma);
        self.outcomes[o as usize] += 1;
        w.see(|| Step::Roll {
            gene: g,
            outcome: o,
            karma,
            karma_after: self.karma,
        });
        let (roll, g1) = (MajorCause::Roll, Some(g));
        match o {
            Outcome::SuperSuccess => self.add_major(rng, rules, true, roll, g1, w),
            Outcome::CritSuccess => {
                self.add_minor(g, false, true, rng, rules, w);
                if let Some(r) = Self::pick(rng, &tree.relatives[g]) {
                    self.add_minor(r, false, true, rng, rules, w);
                }
            }
            // One call site for both, as before signs were tracked (keeps `mutate` small).
            Outcome::Success | Outcome::Failure => {
                self.add_minor(g, false, o == Outcome::Success, rng, rules, w)
            }
            Outcome::CritFailure => self.add_major(rng, rules, false, roll, g1, w),
            Outcome::SuperFailure => {
                self.add_major(rng, rules, false, roll, g1, w);
                for &c in &tree.children[g] {
                    self.add_minor(c, true, false, rng, rules, w);
                }
            }
        }
        self.check_chains(rng, rules, w);
        o
    }

    /// A minor of sign `positive` on gene `g`, with escalation (C-GENE-4: "si un même
    /// gène subit deux fois une mutation mineure, celle-ci devient alors irréversible";
    /// three times, a major). By default every minor counts whatever its sign and the
    /// major has the sign of at least two of the three; `minor_sign = separate`
    /// counts each sign on its own and the major keeps the sign.
    pub fn add_minor<W: Watch<Step>>(
        &mut self,
        g: usize,
        irreversible: bool,
        positive: bool,
        rng: &mut Rng64,
        rules: &MutationRules,
        w: &mut W,
    ) {
        let s = &mut self.genes[g];
        s.minors += 1;
        s.positive += positive as u8;
        let esc = Some(g);
        if !rules.separate_signs {
            s.irreversible |= irreversible || s.minors >= 2;
            w.see(|| Step::Minor {
                gene: g,
                positive,
                count: s.minors,
                irreversible: s.irreversible,
            });
            if s.minors >= 3 {
                // "celle-ci devient une mutation majeure": the major has the sign of the
                // minors it comes from, the sign of at least two of the three when they
                // differ (issue 25: it was always counted negative, so
                // `positive_major_share` undercounted).
                let major_positive = s.positive >= 2;
                *s = GeneState::default();
                self.add_major(rng, rules, major_positive, MajorCause::Escalation, esc, w);
            }
            return;
        }
        let (count, irr) = if positive {
            s.positive_irreversible |= irreversible || s.positive >= 2;
            (s.positive, s.positive_irreversible)
        } else {
            s.irreversible |= irreversible || s.negative() >= 2;
            (s.negative(), s.irreversible)
        };
        w.see(|| Step::Minor {
            gene: g,
            positive,
            count,
            irreversible: irr,
        });
        if count >= 3 {
            // Three of one sign: a major of that sign, the gene keeps the others.
            s.minors -= 3;
            if positive {
                s.positive = 0;
                s.positive_irreversible = false;
            } else {
                s.irreversible = false;
            }
            self.add_major(rng, rules, positive, MajorCause::Escalation, esc, w);
        }
    }

    /// Three consecutive genes each with a minor: the topmost's minor becomes a major,
    /// once per chain (C-GENE-4).
    fn check_chains<W: Watch<Step>>(&mut self, rng: &mut Rng64, rules: &MutationRules, w: &mut W) {
        let tree = self.tree;
        for (k, chain) in tree.chains.iter().enumerate() {
            if !self.chain_fired[k] && chain.iter().all(|&g| self.genes[g].minors > 0) {
                self.chain_fired[k] = true;
                let top = &mut self.genes[chain[0]];
                // Under `minor_sign = separate` the promoted minor keeps its sign ("doublant
                // également les bonus/malus que celle-ci procurait"), a negative one first.
                // Under `together` too (issue 25): a gene carrying only positive minors
                // promotes a positive one.
                let positive = top.negative() == 0;
                top.minors -= 1;
                if !rules.separate_signs {
                    top.positive -= positive as u8;
                    if top.minors == 0 {
                        top.irreversible = false;
                    }
                } else if positive {
                    top.positive -= 1;
                    if top.positive == 0 {
                        top.positive_irreversible = false;
                    }
                } else if top.negative() == 0 {
                    top.irreversible = false;
                }
                self.add_major(rng, rules, positive, MajorCause::Chain, Some(chain[0]), w);
            }
        }
    }

    /// A major mutation; the 3rd brings an ultimate, and after a half-HP ultimate the
    /// next major brings one of the other three (C-GENE-5). `cause` and `gene` are for the
    /// trace only.
    pub fn add_major<W: Watch<Step>>(
        &mut self,
        rng: &mut Rng64,
        rules: &MutationRules,
        positive: bool,
        cause: MajorCause,
        gene: Option<usize>,
        w: &mut W,
    ) {
        if self.done() {
            return;
        }
        self.majors += 1;
        self.majors_positive += positive as u32;
        w.see(|| Step::Major {
            positive,
            cause,
            gene,
            majors: self.majors,
        });
        let u = if self.majors == 3 {
            let u = match rules.ultimate {
                UltimateChoice::Fixed(u) => u,
                UltimateChoice::Random => Ultimate::ALL[Die::D4.index(rng) as usize],
            };
            self.first_ultimate = Some(u);
            if u != Ultimate::HalfHp {
                self.final_ultimate = Some(u);
            }
            u
        } else if self.majors == 4 {
            let u = Ultimate::ALL[Die::known(3).index(rng) as usize];
            self.final_ultimate = Some(u);
            u
        } else {
            return;
        };
        w.see(|| Step::Ultimate {
            ultimate: u,
            last: self.done(),
        });
    }

    /// Gene therapy: reversible minors are cured (C-GENE-5), the positive ones only under
    /// `therapy_cures = reversible`; their count for the trace.
    pub fn cure_reversible(&mut self, rules: &MutationRules) -> u32 {
        let before: u32 = self.genes.iter().map(|g| g.minors as u32).sum();
        let positives = !rules.therapy_negative_only;
        for s in &mut self.genes {
            if !rules.separate_signs {
                if s.minors == 1 && !s.irreversible && (positives || s.positive == 0) {
                    *s = GeneState::default();
                }
                continue;
            }
            if s.negative() == 1 && !s.irreversible {
                s.minors -= 1;
            }
            if positives && s.positive == 1 && !s.positive_irreversible {
                s.minors -= 1;
                s.positive = 0;
            }
        }
        before - self.genes.iter().map(|g| g.minors as u32).sum::<u32>()
    }
}

impl MutationRules {
    /// The options in force (`mutation_target`, `ultimate_choice`, `karma_overflow`,
    /// `minor_sign`).
    pub fn from_options(o: &crate::rules::RuleOptions) -> MutationRules {
        let ultimate = match o.get("ultimate_choice") {
            "abomination" => UltimateChoice::Fixed(Ultimate::Abomination),
            "fatal" => UltimateChoice::Fixed(Ultimate::Fatal),
            "zombie" => UltimateChoice::Fixed(Ultimate::Zombie),
            "half_hp" => UltimateChoice::Fixed(Ultimate::HalfHp),
            _ => UltimateChoice::Random,
        };
        MutationRules {
            target_active: o.get("mutation_target") == "active",
            ultimate,
            karma: TestRules::from_options(o),
            separate_signs: o.get("minor_sign") == "separate",
            therapy_negative_only: o.get("therapy_cures") == "negative",
        }
    }
}

#[cfg(test)]
#[path = "mutate_tests.rs"]
mod tests;
