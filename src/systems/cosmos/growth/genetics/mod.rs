//! Genetics and mutation (C-GENE-1..5): gene trees as scenario data, the Pµ gauge, the
//! mutation table, escalation, chains and ultimates. Source: cosmos-current.fr.txt,
//! "Règle de manipulation génétique".

mod mutate;
mod schedule;
mod spend;
mod steps;
mod tree;

pub use mutate::{GeneState, MutationRules, Mutations, Ultimate, UltimateChoice};
pub use schedule::{DiceExpr, Phase, Schedule};
pub use spend::{DnaPolicy, Genome, Wish};
pub use steps::{MajorCause, MutationStep};
pub use tree::{sample_tree, Gene, GeneKind, GeneTree, RawGene};
