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
    },
    OptionSpec {
        key: "overload_agility",
        decision: "C-INV",
        default: "stat",
        allowed: Allowed::OneOf(&["stat", "tests"]),
    },
    OptionSpec {
        key: "previous_aura_esprit_bonus",
        decision: "C-AURA",
        default: "keep",
        allowed: Allowed::OneOf(&["keep", "drop"]),
    },
    OptionSpec {
        key: "passive_test",
        decision: "C-AURA, C-FAT-5",
        default: "karma",
        allowed: Allowed::OneOf(&["karma", "plain"]),
    },
    // Parameters of an expedition's days (Règle de l'endurance; issue 16). The gains of
    // its fights are the combat parameters of C-FAT-2 (`fatigue_rounds_per_fp`, ...).
    // "+1 FP et +1 FM chaque jour naturellement" (line 381; C-FAT-2).
    OptionSpec {
        key: "fatigue_daily_gain",
        decision: "C-FAT-2",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 10 },
    },
    // "Se reposer complètement (≥ 8h). Dans ce cas il perd 7 FP et 7 FM immédiatement"
    // (line 403; C-FAT-3); halved, floor, without food in the last 24 h.
    OptionSpec {
        key: "fatigue_full_rest",
        decision: "C-FAT-3",
        default: "7",
        allowed: Allowed::Integer { min: 0, max: 13 },
    },
    // "seul un repos total de 12h minimum permet de récupérer de l'état d'épuisement"
    // (line 447; C-FAT-3).
    OptionSpec {
        key: "fatigue_exhaustion_rest_hours",
        decision: "C-FAT-3",
        default: "12",
        allowed: Allowed::Integer { min: 8, max: 24 },
    },
    // "Manger un repas, jusqu'à 3 fois par jour. Dans ce cas, il perd 1 FP et 1 FM
    // immédiatement" (line 407; C-FAT-3).
    OptionSpec {
        key: "fatigue_meal_relief",
        decision: "C-FAT-3",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 13 },
    },
    // "Se reposer pendant un court moment (< 8h). Dans ce cas il perd 1 FP et 1 FM toutes
    // les 2h de repos complétées" (line 402; C-FAT-3).
    OptionSpec {
        key: "fatigue_short_rest_hours",
        decision: "C-FAT-3",
        default: "2",
        allowed: Allowed::Integer { min: 1, max: 24 },
    },
    // "Se reposer complètement (≥ 8h)" (line 403; C-FAT-3).
    OptionSpec {
        key: "fatigue_full_rest_hours",
        decision: "C-FAT-3",
        default: "8",
        allowed: Allowed::Integer { min: 1, max: 24 },
    },
    // "Faire une courte pause (~15 minutes), jusqu'à 3 fois par jour ... il perd 1 FM et
    // 1 FP immédiatement. Cependant il ne peut descendre en dessous de 3 FP ou 3 FM"
    // (line 408; C-FAT-3).
    OptionSpec {
        key: "fatigue_pause_relief",
        decision: "C-FAT-3",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 13 },
    },
    OptionSpec {
        key: "fatigue_pause_floor",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: -3, max: 10 },
    },
    // "jusqu'à 3 fois par jour" (lines 407-408; C-FAT-3); the scenario keys `meals` and
    // `pauses` stay capped at 3, so these only lower the count.
    OptionSpec {
        key: "fatigue_meals_per_day",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
    },
    OptionSpec {
        key: "fatigue_pauses_per_day",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
    },
    // "pour X jours consécutifs totaux sans manger, le personnage gagne +2X FP et +2X FM"
    // (line 382; C-FAT-2).
    OptionSpec {
        key: "fatigue_fasting_gain",
        decision: "C-FAT-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
    },
    // "pour X jours consécutifs totaux sans dormir, le personnage gagne +(2X+1) FP et
    // +(2X+1) FM" (line 383; C-FAT-2).
    OptionSpec {
        key: "fatigue_sleepless_gain",
        decision: "C-FAT-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
    },
    // "Si les conditions de repos sont optimales ... le personnage perd en plus jusqu'à 3
    // FP et FM supplémentaires" (line 406; C-FAT-3); the scenario key stays capped at 3.
    OptionSpec {
        key: "fatigue_rest_quality_max",
        decision: "C-FAT-3",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 3 },
    },
    OptionSpec {
        key: "mutation_target",
        decision: "C-GENE-3",
        default: "all",
        allowed: Allowed::OneOf(&["all", "active"]),
    },
    OptionSpec {
        key: "ultimate_choice",
        decision: "C-GENE-5",
        default: "random",
        allowed: Allowed::OneOf(&["random", "abomination", "fatal", "zombie", "half_hp"]),
    },
];

/// Options read only by the mutation scenario (kept apart so that the provenance of the
/// other growth and combat outputs does not list them).
pub const MUTATION_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "minor_sign",
        decision: "C-GENE-4",
        default: "together",
        allowed: Allowed::OneOf(&["together", "separate"]),
    },
    // "Mutation mineure : mutation aux effets limités qui peut être complètement soignée et
    // retiré à l'aide d'une thérapie génique" (cosmos-current l. 296) says which minors
    // can be cured, of either sign; C-GENE-5 "Optional gene therapy cures reversible
    // minors (policy)". Whether a therapy also takes away a positive one is not said
    // (audit of 2026-12-07).
    OptionSpec {
        key: "therapy_cures",
        decision: "C-GENE-5",
        default: "reversible",
        allowed: Allowed::OneOf(&["reversible", "negative"]),
    },
];

/// Options read only by the expedition scenarios: listed in their provenance only when off
/// the default (`TrekRules::listed`), so other outputs and shipped files keep theirs.
pub const EXPEDITION_OPTIONS: &[OptionSpec] = &[
    // "Faire une courte pause (~15 minutes), jusqu'à 3 fois par jour" (cosmos-current
    // l. 408) and "Manger un repas, jusqu'à 3 fois par jour" (l. 407) say how often, not
    // when in the day: after the evening's meals (the tool's order so far) or before them,
    // during the day's march (audit of 2026-12-07, C1).
    OptionSpec {
        key: "pause_order",
        decision: "C-FAT-3",
        default: "after_meals",
        allowed: Allowed::OneOf(&["after_meals", "before_meals"]),
    },
    // "seul un repos total de 12h minimum permet de récupérer de l'état d'épuisement.
    // Toute autre tentative ne réduira plus les points de FP et/ou FM" (cosmos-current
    // l. 447): per track (the tool's reading so far: the exhausted track holds, the other
    // recovers) or for the whole character (either track at 10 holds both). C-FAT-3
    // ("Exhaustion (10) only clears with a rest >= 12 h") does not say (audit of
    // 2026-12-07, afternoon).
    OptionSpec {
        key: "exhaustion_blocks",
        decision: "C-FAT-3",
        default: "track",
        allowed: Allowed::OneOf(&["track", "both"]),
    },
];

/// Options read only by combats with aura in play (C-AURA): listed in a combat's provenance
/// only where they can change it (`combat/aura_report.rs`), so other outputs and shipped
/// files keep theirs.
pub const AURA_OPTIONS: &[OptionSpec] = &[
    // "les races ne disposant pas de l'aura peuvent engranger des points d'anti-aura. Ils
    // obtiennent un point d'anti-aura chaque fois qu'ils sont victimes de l'aura"
    // (cosmos-current l. 264): only races without aura (default). C-AURA ("Each aura use
    // gives the victim 1 anti-aura point") is silent on a holder that is a victim;
    // `every_victim` is the tool's reading before the audit of 2026-12-08.
    OptionSpec {
        key: "anti_aura_gain",
        decision: "C-AURA",
        default: "without_aura",
        allowed: Allowed::OneOf(&["without_aura", "every_victim"]),
    },
];

/// Options read only where race/class sheets are given (`[[creation.races]]`, issue 10
/// item 11): listed in a scenario's provenance only then, so other outputs keep theirs.
pub const RACE_OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "race_class_conflict",
        decision: "C-CREATE-2",
        default: "change",
        allowed: Allowed::OneOf(&["change", "reroll"]),
    },
    OptionSpec {
        key: "race_limits_levelling",
        decision: "C-LEVEL-1",
        default: "creation",
        allowed: Allowed::OneOf(&["creation", "always"]),
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
    },
    OptionSpec {
        key: "dna_creation_die",
        decision: "C-LEVEL-4",
        default: "20",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    OptionSpec {
        key: "dna_level3_die",
        decision: "C-LEVEL-4",
        default: "4",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "dna_level6_die",
        decision: "C-LEVEL-4",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "dna_level9_die",
        decision: "C-LEVEL-4",
        default: "8",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "skill_creation_die",
        decision: "C-LEVEL-3",
        default: "6",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    OptionSpec {
        key: "skill_pm_die",
        decision: "C-LEVEL-3",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "skill_pm_step",
        decision: "C-LEVEL-3",
        default: "100",
        allowed: Allowed::Integer { min: 1, max: 1000 },
    },
    OptionSpec {
        key: "skill_bonus_die",
        decision: "C-LEVEL-3",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "skill_level_die",
        decision: "C-LEVEL-3",
        default: "4",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    OptionSpec {
        key: "skill_level_minus",
        decision: "C-LEVEL-3",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "skill_zero_carry",
        decision: "C-LEVEL-3",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
    },
    OptionSpec {
        key: "chance_bonus_dice",
        decision: "C-LEVEL-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
    },
    OptionSpec {
        key: "chance_bonus_die",
        decision: "C-LEVEL-2",
        default: "20",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    OptionSpec {
        key: "level2_two_die",
        decision: "C-LEVEL-1",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "level2_one_die",
        decision: "C-LEVEL-1",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "level3_die",
        decision: "C-LEVEL-1",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "level4_die",
        decision: "C-LEVEL-1",
        default: "100",
        allowed: Allowed::Integer { min: 0, max: 1000 },
    },
    OptionSpec {
        key: "stat_cap_low",
        decision: "C-LEVEL-1",
        default: "80",
        allowed: Allowed::Integer { min: 20, max: 100 },
    },
    OptionSpec {
        key: "stat_cap_high",
        decision: "C-LEVEL-1",
        default: "85",
        allowed: Allowed::Integer { min: 20, max: 100 },
    },
    OptionSpec {
        key: "level5_move_max",
        decision: "C-LEVEL-1",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
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
    },
];
