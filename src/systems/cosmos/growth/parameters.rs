//! The C-LEVEL-4 and C-CREATE parameters in force (`dna_*`, the creation sums and die
//! windows, the C-LEVEL-1..3 numbers), read from the rule options once per run onto the
//! creation and level-up policies.

use std::collections::BTreeMap;

use crate::rules::RuleOptions;

use super::creation::{CreationPolicy, CreationSums};
use super::level_rules::{LevelRules, SkillDice};
use super::leveling::LevelPolicy;
use super::stats::StatBounds;

/// Sets the C-LEVEL-4 creation parameters in force on a creation policy; returns the
/// parameters to list in provenance (none at the book's values).
pub fn level_parameters(o: &RuleOptions, p: &mut CreationPolicy) -> BTreeMap<String, String> {
    use crate::rules::growth::LEVEL_PARAMETERS;
    p.dna_base = o.integer("dna_creation_base") as i32;
    p.dna_die = o.integer("dna_creation_die") as u32;
    use crate::rules::growth::CREATION_PARAMETERS;
    p.skill_dice = SkillDice::from_options(o);
    // C-CREATE-1..3 sum windows, read once per run.
    p.sums = CreationSums::from_options(o);
    // C-CREATE-2/3 each die's window, C-LEVEL-1 caps: the stat bounds at creation.
    p.bounds = StatBounds::from_options(o);
    let mut listed = BTreeMap::new();
    // Each table listed only off the book, so shipped reports keep their bytes.
    for table in [LEVEL_PARAMETERS, CREATION_PARAMETERS] {
        if !table.iter().all(|s| o.get(s.key) == s.default) {
            listed.extend(o.in_force(table));
        }
    }
    listed
}

/// The C-LEVEL-4 level dice in force (`dna_level3_die`, `dna_level6_die`,
/// `dna_level9_die`), set on `p` when given with the C-LEVEL-1..3 numbers.
pub fn level_dice_into(o: &RuleOptions, p: Option<&mut LevelPolicy>) -> [u32; 3] {
    let d = [
        o.integer("dna_level3_die") as u32,
        o.integer("dna_level6_die") as u32,
        o.integer("dna_level9_die") as u32,
    ];
    if let Some(p) = p {
        p.dna_dice = d;
        // C-LEVEL-1..3 numbers, read once per run.
        p.rules = LevelRules::from_options(o);
    }
    d
}
