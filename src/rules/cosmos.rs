//! Rule options of Great Cosmos tests and karma (C-TEST, C-KARMA).

use super::{Allowed, OptionSpec};

/// Rule options of the Great Cosmos test and karma rules.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "percent_mode",
        decision: "C-TEST-1",
        default: "points",
        allowed: Allowed::OneOf(&["points", "relative"]),
        help: "how a percentage bonus/malus moves the threshold: points adds it (55 +10% -> 65), relative scales it (55 +10% -> 60.5)",
    },
    OptionSpec {
        key: "super_crit_roll",
        decision: "C-TEST-2",
        default: "natural",
        allowed: Allowed::OneOf(&["natural", "score"]),
        help: "whether 42 (super success) and 66 (super failure) are read on the natural d100 or on the score after the karma d10",
    },
    OptionSpec {
        key: "karma_overflow",
        decision: "C-KARMA-1",
        default: "clamp",
        allowed: Allowed::OneOf(&["clamp", "cancel"]),
        help: "a karma change past -10/+10: clamp stops at the bound, cancel drops the whole change",
    },
    OptionSpec {
        key: "posture_karma_exit",
        decision: "C-KARMA-2",
        default: "restore",
        allowed: Allowed::OneOf(&["restore", "keep"]),
        help: "karma when an Illumination/Sépulcrale posture ends: back to its value before the posture (restore) or left at +10/-10 (keep)",
    },
];
