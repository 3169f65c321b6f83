//! One character's mutations (C-GENE-2..5): the Pµ gauge, the Chance-test table, minor
//! escalation, chains and ultimates. The state is reused from trial to trial (no
//! allocation per trial).

use crate::dice::Die;
use crate::engine::Rng64;
use crate::systems::cosmos::{drift, Outcome, TestRules, TestSampler, KARMA_MIN};

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
    /// mutates once (C-GENE-2). Returns the number of mutations.
    pub fn accrue(
        &mut self,
        pmu: i32,
        rng: &mut Rng64,
        chance: &[TestSampler],
        rules: &MutationRules,
    ) -> u32 {
        self.pmu = (self.pmu + pmu).max(0);
        let mut n = 0;
        while self.pmu >= 100 && !self.done() {
            self.pmu -= 100;
            self.mutate(rng, chance, rules);
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
    pub fn mutate(
        &mut self,
        rng: &mut Rng64,
        chance: &[TestSampler],
        rules: &MutationRules,
    ) -> Outcome {
        let tree = self.tree;
        let g = Self::pick(rng, &self.targets).unwrap_or(0);
        let o = chance[(self.karma - KARMA_MIN) as usize].sample(rng);
        self.karma = drift(self.karma, o, &rules.karma);
        self.outcomes[o as usize] += 1;
        match o {
            Outcome::SuperSuccess => self.add_major(rng, rules, true),
            Outcome::CritSuccess => {
                self.add_minor(g, false, true, rng, rules);
                if let Some(r) = Self::pick(rng, &tree.relatives[g]) {
                    self.add_minor(r, false, true, rng, rules);
                }
            }
            // One call site for both, as before signs were tracked (keeps `mutate` small).
            Outcome::Success | Outcome::Failure => {
                self.add_minor(g, false, o == Outcome::Success, rng, rules)
            }
            Outcome::CritFailure => self.add_major(rng, rules, false),
            Outcome::SuperFailure => {
                self.add_major(rng, rules, false);
                for &c in &tree.children[g] {
                    self.add_minor(c, true, false, rng, rules);
                }
            }
        }
        self.check_chains(rng, rules);
        o
    }

    /// A minor of sign `positive` on gene `g`, with escalation (C-GENE-4: "si un même
    /// gène subit deux fois une mutation mineure, celle-ci devient alors irréversible";
    /// three times, a major). By default every minor counts whatever its sign and the
    /// major has the sign of at least two of the three; `minor_sign = separate`
    /// counts each sign on its own and the major keeps the sign.
    pub fn add_minor(
        &mut self,
        g: usize,
        irreversible: bool,
        positive: bool,
        rng: &mut Rng64,
        rules: &MutationRules,
    ) {
        let s = &mut self.genes[g];
        s.minors += 1;
        s.positive += positive as u8;
        if !rules.separate_signs {
            s.irreversible |= irreversible || s.minors >= 2;
            if s.minors >= 3 {
                // "celle-ci devient une mutation majeure": the major has the sign of the
                // minors it comes from, the sign of at least two of the three when they
                // differ (issue 25: it was always counted negative, so
                // `positive_major_share` undercounted).
                let major_positive = s.positive >= 2;
                *s = GeneState::default();
                self.add_major(rng, rules, major_positive);
            }
            return;
        }
        if positive {
            s.positive_irreversible |= irreversible || s.positive >= 2;
            if s.positive >= 3 {
                s.minors -= 3;
                s.positive = 0;
                s.positive_irreversible = false;
                self.add_major(rng, rules, true);
            }
        } else {
            let neg = s.negative();
            s.irreversible |= irreversible || neg >= 2;
            if neg >= 3 {
                s.minors -= 3;
                s.irreversible = false;
                self.add_major(rng, rules, false);
            }
        }
    }

    /// Three consecutive genes each with a minor: the topmost's minor becomes a major,
    /// once per chain (C-GENE-4).
    fn check_chains(&mut self, rng: &mut Rng64, rules: &MutationRules) {
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
                self.add_major(rng, rules, positive);
            }
        }
    }

    /// A major mutation; the 3rd brings an ultimate, and after a half-HP ultimate the
    /// next major brings one of the other three (C-GENE-5).
    pub fn add_major(&mut self, rng: &mut Rng64, rules: &MutationRules, positive: bool) {
        if self.done() {
            return;
        }
        self.majors += 1;
        self.majors_positive += positive as u32;
        if self.majors == 3 {
            let u = match rules.ultimate {
                UltimateChoice::Fixed(u) => u,
                UltimateChoice::Random => Ultimate::ALL[Die::D4.index(rng) as usize],
            };
            self.first_ultimate = Some(u);
            if u != Ultimate::HalfHp {
                self.final_ultimate = Some(u);
            }
        } else if self.majors == 4 {
            self.final_ultimate = Some(Ultimate::ALL[Die::known(3).index(rng) as usize]);
        }
    }

    /// Gene therapy: reversible minors are cured (C-GENE-5).
    pub fn cure_reversible(&mut self, rules: &MutationRules) {
        for s in &mut self.genes {
            if !rules.separate_signs {
                if s.minors == 1 && !s.irreversible {
                    *s = GeneState::default();
                }
                continue;
            }
            if s.negative() == 1 && !s.irreversible {
                s.minors -= 1;
            }
            if s.positive == 1 && !s.positive_irreversible {
                s.minors -= 1;
                s.positive = 0;
            }
        }
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tree::{GeneTree, RawGene};
    use super::*;
    use crate::engine::stream;
    use crate::scenario::ScenarioFile;

    fn line(n: usize) -> GeneTree {
        let raw: Vec<RawGene> = (0..n)
            .map(|i| RawGene {
                name: format!("g{i}"),
                parent: (i > 0).then(|| format!("g{}", i - 1)),
                kind: super::super::GeneKind::Normal,
                max: None,
                active: 0,
                exclusive: vec![],
            })
            .collect();
        GeneTree::build(&ScenarioFile::from_text("t.toml", ""), &["genes"], &raw).unwrap()
    }

    fn rules() -> MutationRules {
        MutationRules {
            target_active: false,
            ultimate: UltimateChoice::Fixed(Ultimate::HalfHp),
            karma: TestRules::default(),
            separate_signs: false,
        }
    }

    #[test]
    fn escalation_on_one_gene() {
        let t = line(1);
        let mut m = Mutations::new(&t, &rules());
        let mut rng = stream(1, 0, 0);
        m.add_minor(0, false, false, &mut rng, &rules());
        assert_eq!(
            m.genes[0],
            GeneState {
                minors: 1,
                ..Default::default()
            }
        );
        m.add_minor(0, false, false, &mut rng, &rules());
        assert_eq!(
            m.genes[0],
            GeneState {
                minors: 2,
                irreversible: true,
                ..Default::default()
            }
        );
        m.add_minor(0, false, false, &mut rng, &rules());
        assert_eq!((m.genes[0], m.majors), (GeneState::default(), 1));
    }

    #[test]
    fn chain_promotes_the_topmost_once() {
        let t = line(3);
        let r = rules();
        let mut m = Mutations::new(&t, &r);
        let mut rng = stream(1, 0, 0);
        for g in 0..3 {
            m.add_minor(g, false, false, &mut rng, &r);
        }
        m.check_chains(&mut rng, &r);
        assert_eq!((m.majors, m.genes[0].minors), (1, 0));
        // Same chain again: no second promotion.
        m.add_minor(0, false, false, &mut rng, &r);
        m.check_chains(&mut rng, &r);
        assert_eq!(m.majors, 1);
    }

    #[test]
    fn ultimate_at_the_third_major_and_half_hp_allows_one_more() {
        let t = line(1);
        let r = rules();
        let mut m = Mutations::new(&t, &r);
        let mut rng = stream(1, 0, 0);
        m.add_major(&mut rng, &r, true);
        m.add_major(&mut rng, &r, false);
        assert_eq!(m.first_ultimate, None);
        m.add_major(&mut rng, &r, false);
        assert_eq!(
            (m.first_ultimate, m.final_ultimate),
            (Some(Ultimate::HalfHp), None)
        );
        m.add_major(&mut rng, &r, false);
        assert!(matches!(m.final_ultimate, Some(u) if u != Ultimate::HalfHp));
        let fixed = MutationRules {
            ultimate: UltimateChoice::Fixed(Ultimate::Zombie),
            ..r
        };
        let mut m = Mutations::new(&t, &fixed);
        for _ in 0..3 {
            m.add_major(&mut rng, &fixed, false);
        }
        assert_eq!(m.final_ultimate, Some(Ultimate::Zombie));
    }

    #[test]
    fn gauge_remainder_carries() {
        let t = line(2);
        let r = rules();
        let chance: Vec<TestSampler> = (-10..=10)
            .map(|k| {
                TestSampler::new(
                    &crate::systems::cosmos::TestSpec::new(50.0, k).unwrap(),
                    &Default::default(),
                )
            })
            .collect();
        let mut m = Mutations::new(&t, &r);
        let mut rng = stream(1, 0, 0);
        assert_eq!(m.accrue(250, &mut rng, &chance, &r), 2);
        assert_eq!(m.pmu, 50);
        assert_eq!(m.accrue(49, &mut rng, &chance, &r), 0);
        assert_eq!(m.accrue(1, &mut rng, &chance, &r), 1);
        assert_eq!(m.pmu, 0);
        m.cure_reversible(&r);
    }

    #[test]
    fn minor_signs_escalate_together_or_apart() {
        // Default reading: + - + on one gene is three minors, so a major, positive as two
        // of the three (issue 25); - - + a negative one; + + + a positive one.
        let t = line(1);
        let r = rules();
        let mut rng = stream(1, 0, 0);
        let mut m = Mutations::new(&t, &r);
        for pos in [true, false, true] {
            m.add_minor(0, false, pos, &mut rng, &r);
        }
        assert_eq!((m.majors, m.majors_positive), (1, 1));
        for pos in [false, false, true] {
            m.add_minor(0, false, pos, &mut rng, &r);
        }
        assert_eq!((m.majors, m.majors_positive), (2, 1));
        let mut m = Mutations::new(&t, &r);
        for _ in 0..3 {
            m.add_minor(0, false, true, &mut rng, &r);
        }
        assert_eq!(
            (m.majors, m.majors_positive, m.genes[0]),
            (1, 1, GeneState::default())
        );
        // minor_sign = separate: + - + is two positives and one negative, no major; the
        // second positive made the positive minors irreversible, the negative stays curable.
        let sep = MutationRules {
            separate_signs: true,
            ..r
        };
        let mut m = Mutations::new(&t, &sep);
        for pos in [true, false, true] {
            m.add_minor(0, false, pos, &mut rng, &sep);
        }
        assert_eq!(m.majors, 0);
        assert_eq!(
            m.genes[0],
            GeneState {
                minors: 3,
                irreversible: false,
                positive: 2,
                positive_irreversible: true
            }
        );
        m.cure_reversible(&sep);
        assert_eq!((m.genes[0].minors, m.genes[0].positive), (2, 2));
        // A third positive: a positive major, the gene keeps nothing.
        m.add_minor(0, false, true, &mut rng, &sep);
        assert_eq!((m.majors, m.majors_positive), (1, 1));
        assert_eq!(m.genes[0], GeneState::default());
        // Three negatives: a negative major.
        for _ in 0..3 {
            m.add_minor(0, false, false, &mut rng, &sep);
        }
        assert_eq!((m.majors, m.majors_positive), (2, 1));
    }

    #[test]
    fn together_chain_promotes_a_positive_minor_as_positive() {
        // Issue 25: under the default `minor_sign = together`, three consecutive genes each
        // with a positive minor promote a positive major (it was counted negative).
        let t = line(3);
        let r = rules();
        let mut rng = stream(1, 0, 0);
        let mut m = Mutations::new(&t, &r);
        for g in 0..3 {
            m.add_minor(g, false, true, &mut rng, &r);
        }
        m.check_chains(&mut rng, &r);
        assert_eq!((m.majors, m.majors_positive, m.genes[0].minors), (1, 1, 0));
        assert_eq!(m.genes[0], GeneState::default());
    }

    #[test]
    fn separate_chain_promotes_with_the_sign_of_the_minor() {
        let t = line(3);
        let sep = MutationRules {
            separate_signs: true,
            ..rules()
        };
        let mut rng = stream(1, 0, 0);
        let mut m = Mutations::new(&t, &sep);
        for g in 0..3 {
            m.add_minor(g, false, true, &mut rng, &sep);
        }
        m.check_chains(&mut rng, &sep);
        assert_eq!((m.majors, m.majors_positive, m.genes[0].minors), (1, 1, 0));
    }
}
