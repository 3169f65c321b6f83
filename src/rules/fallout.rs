//! Rule options of the 2d20 system (F-*).

use super::{Allowed, OptionSpec};

/// Rule options of the 2d20 system.
pub const OPTIONS: &[OptionSpec] = &[
    // "Vous pouvez conserver jusqu'à 6 PA dans la réserve de groupe" (fallout-2d20.fr.txt,
    // line 87; F-AP).
    OptionSpec {
        key: "fallout_ap_pool_max",
        decision: "F-AP",
        default: "6",
        allowed: Allowed::Integer { min: 1, max: 30 },
        help: "parameter: most AP the group pool holds, the excess is lost; a file's starting pools.group_ap / start.group_ap is checked against it (book: 6)",
    },
    // "Chaque résultat de 1 est une réussite critique et compte pour deux réussites"
    // (fallout-2d20.fr.txt l. 21; F-TEST). Capped at the tag rank's 6 (TAG_RANK_MAX).
    OptionSpec {
        key: "fallout_crit_face",
        decision: "F-TEST",
        default: "1",
        allowed: Allowed::Integer { min: 1, max: 6 },
        help: "parameter: faces 1 to this value are critical successes (two successes) on any skill, when they are also at or under the target number; a tag skill still crits up to its rank (book: 1)",
    },
    OptionSpec {
        key: "fallout_ap_shortfall",
        decision: "F-AP",
        default: "split",
        allowed: Allowed::OneOf(&["split", "whole_die"]),
        help: "a bonus d20 the group pool can only partly pay for: split takes what the pool has and gives the MJ the rest; whole_die pays a die entirely from the pool or, if the pool cannot cover it, entirely as MJ AP (pool untouched)",
    },
    OptionSpec {
        key: "fallout_extra_damage",
        decision: "F-CD",
        default: "melee_thrown",
        allowed: Allowed::OneOf(&["melee_thrown", "any"]),
        help: "which weapons may buy extra combat dice with AP (1 AP each, at most 3): melee_thrown follows the book (\"une arme de corps à corps ou de lancer\"); any lets ranged weapons buy them too, as F-CD reads without the restriction",
    },
];
