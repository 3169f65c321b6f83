//! Rule options of Great Cosmos growth rules (creation, levelling, fatigue, genetics, aura, inventory).

use super::{Allowed, OptionSpec};

pub use super::creation::{create_die_conflict, CREATION_PARAMETERS, MIN_STAT_ACCEPT};

/// Rule options of creation, progression and the small rules (aura, movement, inventory).
pub const OPTIONS: &[OptionSpec] = &[
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
    // Parameters of an expedition's days (Règle de l'endurance; issue 16). The gains of
    // its fights are the combat parameters of C-FAT-2 (`fatigue_rounds_per_fp`, ...).
    // "+1 FP et +1 FM chaque jour naturellement" (line 381; C-FAT-2).
    OptionSpec {
        key: "fatigue_daily_gain",
        decision: "C-FAT-2",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: FP and FM every expedition day brings on its own, before the march and the encounters (book: +1 FP +1 FM a day)",
    },
    // "Se reposer complètement (≥ 8h). Dans ce cas il perd 7 FP et 7 FM immédiatement"
    // (line 403; C-FAT-3); halved, floor, without food in the last 24 h.
    OptionSpec {
        key: "fatigue_full_rest",
        decision: "C-FAT-3",
        default: "7",
        allowed: Allowed::Integer { min: 0, max: 13 },
        help: "parameter: FP and FM a full rest (8 h or more) recovers, halved (floor) without food that day, before the rest quality and the starting modifiers (book: -7 FP -7 FM)",
    },
    // "seul un repos total de 12h minimum permet de récupérer de l'état d'épuisement"
    // (line 447; C-FAT-3).
    OptionSpec {
        key: "fatigue_exhaustion_rest_hours",
        decision: "C-FAT-3",
        default: "12",
        allowed: Allowed::Integer { min: 8, max: 24 },
        help: "parameter: hours of rest a night needs to recover from exhaustion, which then recovers as a full rest; shorter rests leave an exhausted track where it is (book: 12 h)",
    },
    // "Manger un repas, jusqu'à 3 fois par jour. Dans ce cas, il perd 1 FP et 1 FM
    // immédiatement" (line 407; C-FAT-3).
    OptionSpec {
        key: "fatigue_meal_relief",
        decision: "C-FAT-3",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 13 },
        help: "parameter: FP and FM each meal of an expedition day recovers, up to 3 meals a day (book: -1 FP -1 FM)",
    },
    // "Se reposer pendant un court moment (< 8h). Dans ce cas il perd 1 FP et 1 FM toutes
    // les 2h de repos complétées" (line 402; C-FAT-3).
    OptionSpec {
        key: "fatigue_short_rest_hours",
        decision: "C-FAT-3",
        default: "2",
        allowed: Allowed::Integer { min: 1, max: 24 },
        help: "parameter: a short rest recovers 1 FP and 1 FM per this many full hours (book: 1 per 2 h)",
    },
    // "Se reposer complètement (≥ 8h)" (line 403; C-FAT-3).
    OptionSpec {
        key: "fatigue_full_rest_hours",
        decision: "C-FAT-3",
        default: "8",
        allowed: Allowed::Integer { min: 1, max: 24 },
        help: "parameter: hours from which a night's rest is a full rest (fatigue_full_rest, rest quality, starting modifiers); shorter rests are short rests; exhaustion still needs fatigue_exhaustion_rest_hours of a full rest (book: 8 h)",
    },
    // "Faire une courte pause (~15 minutes), jusqu'à 3 fois par jour ... il perd 1 FM et
    // 1 FP immédiatement. Cependant il ne peut descendre en dessous de 3 FP ou 3 FM"
    // (line 408; C-FAT-3).
    OptionSpec {
        key: "fatigue_pause_relief",
        decision: "C-FAT-3",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 13 },
        help: "parameter: FP and FM each 15-minute pause recovers, never below fatigue_pause_floor (book: -1 FP -1 FM)",
    },
    OptionSpec {
        key: "fatigue_pause_floor",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: -3, max: 10 },
        help: "parameter: a pause never takes FP or FM below this (book: 3)",
    },
    // "jusqu'à 3 fois par jour" (lines 407-408; C-FAT-3); the scenario keys `meals` and
    // `pauses` stay capped at 3, so these only lower the count.
    OptionSpec {
        key: "fatigue_meals_per_day",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
        help: "parameter: how many of a day's meals recover fatigue; further meals still count as food against fasting (book: 3 a day)",
    },
    OptionSpec {
        key: "fatigue_pauses_per_day",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
        help: "parameter: how many of a day's pauses recover fatigue (book: 3 a day)",
    },
    // "pour X jours consécutifs totaux sans manger, le personnage gagne +2X FP et +2X FM"
    // (line 382; C-FAT-2).
    OptionSpec {
        key: "fatigue_fasting_gain",
        decision: "C-FAT-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: the X-th consecutive day without food adds this times X to FP and FM (book: +2X FP +2X FM)",
    },
    // "pour X jours consécutifs totaux sans dormir, le personnage gagne +(2X+1) FP et
    // +(2X+1) FM" (line 383; C-FAT-2).
    OptionSpec {
        key: "fatigue_sleepless_gain",
        decision: "C-FAT-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: the X-th consecutive night without sleep adds this times X, plus fatigue_sleepless_extra, to FP and FM (book: +(2X+1) FP +(2X+1) FM)",
    },
    // "Si les conditions de repos sont optimales ... le personnage perd en plus jusqu'à 3
    // FP et FM supplémentaires" (line 406; C-FAT-3); the scenario key stays capped at 3.
    OptionSpec {
        key: "fatigue_rest_quality_max",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
        help: "parameter: a full rest's extra recovery in optimal conditions (the scenario's rest_quality) counts up to this (book: up to 3 FP and FM)",
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

/// Options read only by the mutation scenario (kept apart so that the provenance of the
/// other growth and combat outputs does not list them).
pub const MUTATION_OPTIONS: &[OptionSpec] = &[OptionSpec {
    key: "minor_sign",
    decision: "C-GENE-4",
    default: "together",
    allowed: Allowed::OneOf(&["together", "separate"]),
    help: "how minor mutations escalate (2nd irreversible, 3rd a major): together = every minor on a gene counts whatever its sign and the major has the sign of at least two of the three (a chain promotes a positive minor when the top gene has only positive ones); separate = positive and negative minors each count on their own and the major keeps their sign",
}];

/// Options read only where race/class sheets are given (`[[creation.races]]`, issue 10
/// item 11): listed in a scenario's provenance only then, so other outputs keep theirs.
pub const RACE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "race_class_conflict",
        decision: "C-CREATE-2",
        default: "change",
        allowed: Allowed::OneOf(&["change", "reroll"]),
        help: "stats that the point moves (10, 20 in a conversion) cannot bring within the intended race/class sheet: change = the book (\"sans quoi il sera forcé de changer de race/classe\"), the first sheet of the file's list the stats can meet, or none; reroll = the stat dice are rolled again until the intended sheet is met (a common table reading; at most 1000 rerolls)",
    },
    OptionSpec {
        key: "race_limits_levelling",
        decision: "C-LEVEL-1",
        default: "creation",
        allowed: Allowed::OneOf(&["creation", "always"]),
        help: "whether a race/class sheet still binds after creation: creation = the book names the sheet's limits at creation and conversion only, level-ups keep the 80/85 caps alone; always = a gain above the sheet's maximum is lost like one above the cap, and level-5 moves stay within the sheet",
    },
];

/// Level-up dice as parameters (issue 16; C-LEVEL-4 so far), read by the creation and
/// leveling scenarios; listed in their provenance only when a value differs from the
/// book's, so files run at the book's values keep their provenance.
pub const LEVEL_PARAMETERS: &[OptionSpec] = &[
    OptionSpec {
        key: "dna_creation_base",
        decision: "C-LEVEL-4",
        default: "5",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: DNA points every new character starts with before the creation die (book: 5 + 1d20)",
    },
    OptionSpec {
        key: "dna_creation_die",
        decision: "C-LEVEL-4",
        default: "20",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: faces of the creation DNA die (book: 5 + 1d20)",
    },
    OptionSpec {
        key: "dna_level3_die",
        decision: "C-LEVEL-4",
        default: "4",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the DNA die gained at level 3, 0 = none (book: 1d4)",
    },
    OptionSpec {
        key: "dna_level6_die",
        decision: "C-LEVEL-4",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the DNA die gained at level 6, 0 = none (book: 1d6)",
    },
    OptionSpec {
        key: "dna_level9_die",
        decision: "C-LEVEL-4",
        default: "8",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the DNA die gained at level 9, 0 = none (book: 1d8)",
    },
    OptionSpec {
        key: "skill_creation_die",
        decision: "C-LEVEL-3",
        default: "6",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: faces of the first skill-point die at creation (book: 1d6)",
    },
    OptionSpec {
        key: "skill_pm_die",
        decision: "C-LEVEL-3",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the skill-point die per full skill_pm_step PM at creation, 0 = none (book: 1d6 per 100 PM)",
    },
    OptionSpec {
        key: "skill_pm_step",
        decision: "C-LEVEL-3",
        default: "100",
        allowed: Allowed::Integer { min: 1, max: 1000 },
        help: "parameter: PM per extra skill-point die at creation (book: 1d6 per full 100 PM)",
    },
    OptionSpec {
        key: "skill_bonus_die",
        decision: "C-LEVEL-3",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the creation bonus die that replaces the lowest skill-point roll if higher, 0 = none (book: 1d6)",
    },
    OptionSpec {
        key: "skill_level_die",
        decision: "C-LEVEL-3",
        default: "4",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: faces of the skill-point die of every level-up (book: 1d4-1)",
    },
    OptionSpec {
        key: "skill_level_minus",
        decision: "C-LEVEL-3",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: subtracted from the level-up skill-point die, a level never losing points (book: 1d4-1)",
    },
    OptionSpec {
        key: "skill_zero_carry",
        decision: "C-LEVEL-3",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
        help: "parameter: extra skill points at the level after one that received 0 (book: 2)",
    },
    OptionSpec {
        key: "chance_bonus_dice",
        decision: "C-LEVEL-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: dice of the level-up Chance bonus to HP or PM, 0 = none (book: 2d20)",
    },
    OptionSpec {
        key: "chance_bonus_die",
        decision: "C-LEVEL-2",
        default: "20",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: faces of the level-up Chance bonus dice (book: 2d20)",
    },
    OptionSpec {
        key: "level2_two_die",
        decision: "C-LEVEL-1",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the die added to each of two stats at level 2, 0 = none (book: 1d10)",
    },
    OptionSpec {
        key: "level2_one_die",
        decision: "C-LEVEL-1",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the die added to one stat at level 2, 0 = none (book: 1d20)",
    },
    OptionSpec {
        key: "level3_die",
        decision: "C-LEVEL-1",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: faces of the die added to the lowest stat at level 3, 0 = none (book: 1d10)",
    },
    OptionSpec {
        key: "level4_die",
        decision: "C-LEVEL-1",
        default: "100",
        allowed: Allowed::Integer { min: 0, max: 1000 },
        help: "parameter: faces of the die added to HP or PM at level 4, 0 = none (book: 1d100)",
    },
    OptionSpec {
        key: "stat_cap_low",
        decision: "C-LEVEL-1",
        default: "80",
        allowed: Allowed::Integer { min: 20, max: 100 },
        help: "parameter: stat cap of level-up gains at levels 1 and 2 (book: 80)",
    },
    OptionSpec {
        key: "stat_cap_high",
        decision: "C-LEVEL-1",
        default: "85",
        allowed: Allowed::Integer { min: 20, max: 100 },
        help: "parameter: stat cap of level-up gains from level 3 (book: 85)",
    },
    OptionSpec {
        key: "level5_move_max",
        decision: "C-LEVEL-1",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: most stat points a character may move at level 5, the default of a leveling file's level5_move_points with a move policy (book: up to 10)",
    },
];

/// The potions of an expedition by their scenario names (`[[expedition.potions]] potion`),
/// in the order of `fatigue::Potion` (a test checks both agree).
pub const POTION_NAMES: &[&str] = &[
    "healing",
    "healing_plus",
    "healing_max",
    "healing_concentrated",
    "healing_concentrated_plus",
    "healing_concentrated_max",
    "mana",
    "mana_plus",
    "mana_max",
    "mana_concentrated",
    "mana_concentrated_plus",
    "mana_concentrated_max",
    "phoenix",
    "energising",
];

/// The last numbers of the endurance rule as parameters (issue 16; C-FAT-2, C-FAT-3), read
/// by expeditions only (`TrekRules`) and listed in their provenance only off the book, so
/// shipped reports keep their bytes.
pub const ENDURANCE_PARAMETERS: &[OptionSpec] = &[
    // "pour X jours consécutifs totaux sans dormir, le personnage gagne +(2X+1) FP et
    // +(2X+1) FM" (line 383; C-FAT-2): the 1; the 2 is `fatigue_sleepless_gain`.
    OptionSpec {
        key: "fatigue_sleepless_extra",
        decision: "C-FAT-2",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: the constant of a sleepless night's gain: the X-th consecutive night without sleep adds fatigue_sleepless_gain times X plus this to FP and FM (book: the 1 of +(2X+1))",
    },
    // The potion table (lines 410-426; C-FAT-3 reads the garbled table): one parameter
    // set, FP change/FM change per potion; potions not named keep the decision's reading.
    OptionSpec {
        key: "potion_effects",
        decision: "C-FAT-3",
        default: "none",
        allowed: Allowed::Pairs {
            names: POTION_NAMES,
            min: -13,
            max: 13,
        },
        help: "parameter set: a potion's FP change/FM change as name=fp/fm (e.g. \"healing_plus=-3/0,phoenix=-6/-3\"), negative recovers, positive adds (never lowering a track at exhaustion); the other potions keep the book's table (book: healing, healing_plus, healing_max -1, -2, -3 FP; healing_concentrated(_plus, _max) -2, -3, -4 FP; mana, mana_plus, mana_max 0, -1, -2 FM; mana_concentrated(_plus, _max) -2, -3, -4 FM; phoenix -5/-3; energising -5/3)",
    },
];
