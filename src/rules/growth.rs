//! Rule options of Great Cosmos growth rules (creation, levelling, fatigue, genetics, aura, inventory).

use super::{Allowed, OptionSpec};

/// Rule options of creation, progression and the small rules (aura, movement, inventory).
pub const OPTIONS: &[OptionSpec] = &[
    // Parameters of the fatigue states (C-FAT-4): "Fatigue légère 4 ≤ FP/FM < 6 : -5%",
    // "Fatigue modérée 6 ≤ FP/FM < 8 : -10%", "Fatigue extrême 8 ≤ FP/FM < 10 : -30%"
    // (Règle de l'endurance, lines 432-435). Exhaustion stays at 10, the tracks' ceiling
    // where gains spill onto the other track (C-FAT-2).
    OptionSpec {
        key: "fatigue_light_from",
        decision: "C-FAT-4",
        default: "4",
        allowed: Allowed::Integer { min: 1, max: 10 },
        help: "parameter: light fatigue from this FP/FM (book: 4); the states must stay in order, light <= moderate <= extreme <= 10",
    },
    OptionSpec {
        key: "fatigue_moderate_from",
        decision: "C-FAT-4",
        default: "6",
        allowed: Allowed::Integer { min: 1, max: 10 },
        help: "parameter: moderate fatigue from this FP/FM (book: 6; -1 move on FP)",
    },
    OptionSpec {
        key: "fatigue_extreme_from",
        decision: "C-FAT-4",
        default: "8",
        allowed: Allowed::Integer { min: 1, max: 10 },
        help: "parameter: extreme fatigue from this FP/FM (book: 8; -2 move on FP, the wider crit-failure band)",
    },
    OptionSpec {
        key: "fatigue_light_malus",
        decision: "C-FAT-4",
        default: "5",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: percentage malus on the track's tests in light fatigue (book: -5%)",
    },
    OptionSpec {
        key: "fatigue_moderate_malus",
        decision: "C-FAT-4",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: percentage malus on the track's tests in moderate fatigue (book: -10%)",
    },
    OptionSpec {
        key: "fatigue_extreme_malus",
        decision: "C-FAT-4",
        default: "30",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: percentage malus on the track's tests in extreme fatigue and exhaustion (book: -30%)",
    },
    OptionSpec {
        key: "sprint_fatigue_order",
        decision: "C-MOVE",
        default: "before",
        allowed: Allowed::OneOf(&["before", "after"]),
        help: "when the fatigue move malus (-1 moderate, -2 extreme FP) applies to a sprint: before the x2/x2.5/x3 multiplier (it is multiplied too) or after it",
    },
    OptionSpec {
        key: "overload_agility",
        decision: "C-INV",
        default: "stat",
        allowed: Allowed::OneOf(&["stat", "tests"]),
        help: "what the -5 Agilité per slot over capacity lowers: the stat itself, wherever Agilité is used, so the move ceil(Agilité/20) drops too (stat, C-INV default), or only Agilité tests (tests)",
    },
    OptionSpec {
        key: "previous_aura_esprit_bonus",
        decision: "C-AURA",
        default: "keep",
        allowed: Allowed::OneOf(&["keep", "drop"]),
        help: "previous-edition aura face 6: whether the victim's bonus also counts on the passive Esprit test (keep, the edition keeps bonuses) or not (drop)",
    },
    OptionSpec {
        key: "passive_test",
        decision: "C-AURA, C-FAT-5",
        default: "karma",
        allowed: Allowed::OneOf(&["karma", "plain"]),
        help: "what a passive test (\"jet d'esprit passif sans bonus\": aura face 6, the concentrate action in extreme fatigue) keeps: karma = the karma die applies and the test moves karma, only bonuses are dropped (C-AURA: karma's d10 is not a bonus); plain = karma read as 0 and karma unmoved. Fatigue maluses apply in both (C-FAT-4)",
    },
    OptionSpec {
        key: "mutation_target",
        decision: "C-GENE-3",
        default: "all",
        allowed: Allowed::OneOf(&["all", "active"]),
        help: "which genes a mutation can land on: all genes of the tree, or only genes with an active allele (all genes if none is active)",
    },
    OptionSpec {
        key: "ultimate_choice",
        decision: "C-GENE-5",
        default: "random",
        allowed: Allowed::OneOf(&["random", "abomination", "fatal", "zombie", "half_hp"]),
        help: "the ultimate mutation at the 3rd major: drawn uniformly among the four, or a fixed game-master choice",
    },
];
