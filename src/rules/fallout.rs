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
    // "Chaque résultat de 20 entraîne une complication" (fallout-2d20.fr.txt l. 25) and
    // the "Table des marges de complication" (l. 45-52: range 2 = 19-20 ... 5 = 16-20;
    // F-TEST). 21: a Normale test has none; 11: the widest band (range 5) is 7-20.
    OptionSpec {
        key: "fallout_complication_from",
        decision: "F-TEST",
        default: "20",
        allowed: Allowed::Integer { min: 11, max: 21 },
        help: "parameter: lowest face of a complication at the Normale complication range; each step of the range adds the face below (range r: faces from this value + 1 - r up; 21 = no complication at range 1; book: 20)",
    },
    // "Un test ne peut bénéficier que de trois dés bonus au maximum" (fallout-2d20.fr.txt
    // l. 68; F-AP). At most the book's 3: the exact P(pass) by bonus dice is sized for it.
    OptionSpec {
        key: "fallout_bonus_dice_max",
        decision: "F-AP",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
        help: "parameter: most bonus d20 bought on one test (AP-economy and firefight scenarios; a policy's max_bonus above it reads as it; book: 3)",
    },
    // "Coût des d20 bonus": 3d20 1 PA, 4d20 3 PA, 5d20 6 PA (fallout-2d20.fr.txt
    // l. 70-76; F-AP: 1, 2, 3 per die). 0 makes a die free.
    OptionSpec {
        key: "fallout_bonus_price_1",
        decision: "F-AP",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 6 },
        help: "parameter: AP price of the 1st bonus d20 of a test (book: 1)",
    },
    OptionSpec {
        key: "fallout_bonus_price_2",
        decision: "F-AP",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 6 },
        help: "parameter: AP price of the 2nd bonus d20 of a test (book: 2, 3 in all)",
    },
    OptionSpec {
        key: "fallout_bonus_price_3",
        decision: "F-AP",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 6 },
        help: "parameter: AP price of the 3rd bonus d20 of a test (book: 3, 6 in all)",
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
