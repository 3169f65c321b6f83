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
    },
    // "Chaque résultat de 1 est une réussite critique et compte pour deux réussites"
    // (fallout-2d20.fr.txt l. 21; F-TEST). Capped at the tag rank's 6 (TAG_RANK_MAX).
    OptionSpec {
        key: "fallout_crit_face",
        decision: "F-TEST",
        default: "1",
        allowed: Allowed::Integer { min: 1, max: 6 },
    },
    // "Chaque résultat de 20 entraîne une complication" (fallout-2d20.fr.txt l. 25) and
    // the "Table des marges de complication" (l. 45-52: range 2 = 19-20 ... 5 = 16-20;
    // F-TEST). 21: a Normale test has none; 11: the widest band (range 5) is 7-20.
    OptionSpec {
        key: "fallout_complication_from",
        decision: "F-TEST",
        default: "20",
        allowed: Allowed::Integer { min: 11, max: 21 },
    },
    // "Un test ne peut bénéficier que de trois dés bonus au maximum" (fallout-2d20.fr.txt
    // l. 68; F-AP). At most the book's 3: the exact P(pass) by bonus dice is sized for it.
    OptionSpec {
        key: "fallout_bonus_dice_max",
        decision: "F-AP",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
    },
    // "Coût des d20 bonus": 3d20 1 PA, 4d20 3 PA, 5d20 6 PA (fallout-2d20.fr.txt
    // l. 70-76; F-AP: 1, 2, 3 per die). 0 makes a die free.
    OptionSpec {
        key: "fallout_bonus_price_1",
        decision: "F-AP",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 6 },
    },
    OptionSpec {
        key: "fallout_bonus_price_2",
        decision: "F-AP",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 6 },
    },
    OptionSpec {
        key: "fallout_bonus_price_3",
        decision: "F-AP",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 6 },
    },
    OptionSpec {
        key: "fallout_ap_shortfall",
        decision: "F-AP",
        default: "split",
        allowed: Allowed::OneOf(&["split", "whole_die"]),
    },
    OptionSpec {
        key: "fallout_extra_damage",
        decision: "F-CD",
        default: "melee_thrown",
        allowed: Allowed::OneOf(&["melee_thrown", "any"]),
    },
];
