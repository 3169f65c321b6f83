//! DNA points spent on the gene tree by a policy (issue 10 item 11; C-GENE-1, C-LEVEL-4).
//! Source: cosmos-current.fr.txt, "Règle de manipulation génétique" (l. 278-288):
//! - one DNA point activates one allele (O-O -> X-O -> X-X); a point is never taken back;
//! - a gene's children take points only once it is X-X ("il est nécessaire d'avoir les
//!   deux allèles d'un gène actif (X-X) pour pouvoir attribuer des points aux gènes dits
//!   enfants");
//! - innate (grey) genes only at creation, one point for both alleles;
//! - special (green) genes take points up to their `max`;
//! - negative (red) genes cost as normal ones (activating them lifts their malus);
//! - exclusive pairs: once one has an active allele, the other stays O-O.
//!
//! The policy is a wish list in order: each wish asks for a number of active alleles on a
//! gene. Points go to the first wish that can still take one, one point at a time, so a
//! wish waiting for its parent does not block the wishes after it, and a wish whose
//! exclusive partner is active is given up. Unspent points carry to the next grant
//! (levels 3, 6, 9, C-LEVEL-4).

use super::{GeneKind, GeneTree};

/// One entry of the wish list: bring `gene` to `alleles` active alleles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wish {
    pub gene: usize,
    pub alleles: u32,
}

/// A DNA spending policy: the wish list, first wish first.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DnaPolicy {
    pub wishes: Vec<Wish>,
}

/// Active alleles per gene and the points not yet spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Genome {
    pub active: Vec<u32>,
    pub unspent: u32,
}

impl Genome {
    /// The tree's starting alleles, no points.
    pub fn new(tree: &GeneTree) -> Genome {
        Genome {
            active: tree.genes.iter().map(|g| g.active).collect(),
            unspent: 0,
        }
    }

    /// Whether one more point can go to `g` now (the rules above).
    pub fn can_raise(&self, tree: &GeneTree, g: usize, at_creation: bool) -> bool {
        let gene = &tree.genes[g];
        let a = self.active[g];
        if a >= gene.max {
            return false;
        }
        if gene.kind == GeneKind::Innate && !at_creation {
            return false;
        }
        if let Some(p) = gene.parent {
            if self.active[p] < 2 {
                return false;
            }
        }
        !tree
            .exclusive
            .iter()
            .any(|&(x, y)| (x == g && self.active[y] > 0) || (y == g && self.active[x] > 0))
    }

    /// Adds `points` to the purse and spends what the policy can; returns the points spent.
    pub fn spend(
        &mut self,
        tree: &GeneTree,
        policy: &DnaPolicy,
        points: u32,
        at_creation: bool,
    ) -> u32 {
        self.unspent += points;
        let mut spent = 0;
        'points: while self.unspent > 0 {
            for w in &policy.wishes {
                let target = w.alleles.min(tree.genes[w.gene].max);
                if self.active[w.gene] < target && self.can_raise(tree, w.gene, at_creation) {
                    // An innate gene: one point activates both alleles.
                    self.active[w.gene] = if tree.genes[w.gene].kind == GeneKind::Innate {
                        2
                    } else {
                        self.active[w.gene] + 1
                    };
                    self.unspent -= 1;
                    spent += 1;
                    continue 'points;
                }
            }
            break;
        }
        spent
    }

    /// Genes fully active (X-X, or at their max for a special gene).
    pub fn full(&self, tree: &GeneTree) -> usize {
        self.active
            .iter()
            .zip(&tree.genes)
            .filter(|(a, g)| **a >= g.max.min(2))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::super::sample_tree;
    use super::*;

    /// The sample tree with every gene O-O.
    fn bare() -> GeneTree {
        let mut t = sample_tree();
        for g in &mut t.genes {
            g.active = 0;
        }
        t
    }

    fn id(t: &GeneTree, name: &str) -> usize {
        t.genes.iter().position(|g| g.name == name).unwrap()
    }

    #[test]
    fn children_wait_for_their_parent_and_points_carry() {
        let t = bare();
        let (os, dens) = (id(&t, "ossature"), id(&t, "densite_osseuse"));
        let p = DnaPolicy {
            wishes: vec![
                Wish {
                    gene: dens,
                    alleles: 2,
                },
                Wish {
                    gene: os,
                    alleles: 2,
                },
            ],
        };
        let mut g = Genome::new(&t);
        // 3 points: the child waits, the parent takes 2 (X-X), then the child 1.
        assert_eq!(g.spend(&t, &p, 3, true), 3);
        assert_eq!((g.active[os], g.active[dens]), (2, 1));
        // 5 more: the child takes its last allele; nothing else is wished: 4 carry.
        assert_eq!(g.spend(&t, &p, 5, false), 1);
        assert_eq!((g.active[dens], g.unspent), (2, 4));
    }

    #[test]
    fn exclusive_pairs_and_innate_genes() {
        let t = bare();
        let (a, b) = t.exclusive[0];
        let parent = t.genes[a].parent;
        let mut g = Genome::new(&t);
        if let Some(p) = parent {
            g.active[p] = 2;
        }
        if let Some(p) = t.genes[b].parent {
            g.active[p] = 2;
        }
        let p = DnaPolicy {
            wishes: vec![
                Wish {
                    gene: a,
                    alleles: 1,
                },
                Wish {
                    gene: b,
                    alleles: 2,
                },
            ],
        };
        // One allele on `a`; `b` is then barred (C-GENE-1 exclusive pair): 1 point spent.
        assert_eq!(g.spend(&t, &p, 4, false), 1);
        assert_eq!((g.active[a], g.active[b], g.unspent), (1, 0, 3));
        // An innate gene: at creation only, one point for X-X.
        let mut tree = t.clone();
        tree.genes[0].kind = GeneKind::Innate;
        tree.genes[0].active = 0;
        let q = DnaPolicy {
            wishes: vec![Wish {
                gene: 0,
                alleles: 2,
            }],
        };
        let mut late = Genome::new(&tree);
        assert_eq!(late.spend(&tree, &q, 2, false), 0);
        let mut early = Genome::new(&tree);
        assert_eq!(early.spend(&tree, &q, 2, true), 1);
        assert_eq!(early.active[0], 2);
    }

    #[test]
    fn special_genes_take_points_up_to_their_max() {
        let t = sample_tree();
        let s = t
            .genes
            .iter()
            .position(|g| g.kind == GeneKind::Special)
            .expect("the sample tree has a special gene");
        let mut g = Genome::new(&t);
        if let Some(p) = t.genes[s].parent {
            g.active[p] = 2;
        }
        let before = g.active[s];
        let p = DnaPolicy {
            wishes: vec![Wish {
                gene: s,
                alleles: 100,
            }],
        };
        let spent = g.spend(&t, &p, 50, false);
        assert_eq!(g.active[s], t.genes[s].max);
        assert_eq!(spent, t.genes[s].max - before);
    }
}
