//! Rule options of Great Cosmos growth rules (creation, levelling, fatigue, genetics, aura, inventory).

use super::{Allowed, OptionSpec};

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
    help: "how minor mutations escalate (2nd irreversible, 3rd a major): together = every minor on a gene counts whatever its sign and the major is negative; separate = positive and negative minors each count on their own and the major keeps their sign",
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

/// C-CREATE-1..3 creation numbers as parameters (issue 16). Each window's bounds meet at
/// the dice's middle (min at most, max at least), so min <= max always holds and every
/// window keeps an acceptance chance of about 0.4 % or more: rerolling ends.
pub const CREATION_PARAMETERS: &[OptionSpec] = &[
    OptionSpec {
        key: "creation_hp_pm_sum_min",
        decision: "C-CREATE-1",
        default: "250",
        allowed: Allowed::Integer { min: 10, max: 500 },
        help: "parameter: lowest accepted sum of the ten HP/PM d100 at creation, else all ten are rerolled (book: 250)",
    },
    OptionSpec {
        key: "creation_hp_pm_sum_max",
        decision: "C-CREATE-1",
        default: "750",
        allowed: Allowed::Integer { min: 500, max: 1000 },
        help: "parameter: highest accepted sum of the ten HP/PM d100 at creation, else all ten are rerolled (book: 750)",
    },
    OptionSpec {
        key: "creation_stats_sum_min",
        decision: "C-CREATE-2",
        default: "200",
        allowed: Allowed::Integer { min: 120, max: 300 },
        help: "parameter: lowest accepted sum of the six stat dice at creation, else all six are rerolled (book: 200)",
    },
    OptionSpec {
        key: "creation_stats_sum_max",
        decision: "C-CREATE-2",
        default: "400",
        allowed: Allowed::Integer { min: 300, max: 480 },
        help: "parameter: highest accepted sum of the six stat dice at creation, else all six are rerolled (book: 400)",
    },
    OptionSpec {
        key: "conversion_sum_min",
        decision: "C-CREATE-3",
        default: "60",
        allowed: Allowed::Integer { min: 40, max: 100 },
        help: "parameter: lowest accepted sum of the two conversion dice, else both are rerolled (book: 60)",
    },
    OptionSpec {
        key: "conversion_sum_max",
        decision: "C-CREATE-3",
        default: "140",
        allowed: Allowed::Integer { min: 100, max: 160 },
        help: "parameter: highest accepted sum of the two conversion dice, else both are rerolled (book: 140)",
    },
    OptionSpec {
        key: "creation_move_points",
        decision: "C-CREATE-2",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: most stat points a new character may move after assigning the dice, the default of a creation file's move_points with a move policy (book: up to 10)",
    },
    OptionSpec {
        key: "conversion_move_points",
        decision: "C-CREATE-3",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: most stat points a converted character may move, the default of a conversion's move_points with a move policy (book: up to 20)",
    },
    // "Chaque jet obtenu doit être également entre 20 et 80, les dés n'étant pas conformes
    // à cette fourchette seront relancés individuellement" (l. 195; C-CREATE-2); "chaque
    // jet doit être individuellement compris entre 20 et 80" (l. 205; C-CREATE-3). Each
    // 1..100; min <= max and the sum windows' reach are checked together
    // (`create_die_conflict`).
    OptionSpec {
        key: "create_die_min",
        decision: "C-CREATE-2, C-CREATE-3",
        default: "20",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: lowest d100 result a creation stat die keeps (the six stat dice, the two conversion dice), a lower one is rerolled alone; stats at creation may go down to it when below 20 (book: 20)",
    },
    OptionSpec {
        key: "create_die_max",
        decision: "C-CREATE-2, C-CREATE-3",
        default: "80",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: highest d100 result a creation stat die keeps (the six stat dice, the two conversion dice), a higher one is rerolled alone; stats at creation may go up to it when above the level's cap (book: 80)",
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
/// The least acceptance chance a die window may leave the six stat dice (or the two
/// conversion dice) in their sum window (C-CREATE-2/3): below it, rerolling all the dice
/// would not end in practice (a thousand rolls per character on average). Every window of
/// the sum parameters alone stays above it (the least is about 0.9 %, six dice on 20..80
/// summing to exactly 300).
pub const MIN_STAT_ACCEPT: f64 = 0.001;

/// A creation die window (`create_die_min`..`create_die_max`) the other creation
/// parameters in force cannot use: min above max, or six stat dice (two conversion dice)
/// that cannot reach their accepted sum window, or reach it less than [`MIN_STAT_ACCEPT`]
/// of the time. Returns the key to point at (the one the user set, when only one of the
/// pair is), the message and what is allowed; `None` at the book's values.
pub fn create_die_conflict(o: &super::RuleOptions) -> Option<(&'static str, String, &'static str)> {
    // The sum parameters' own ranges keep the book's dice reachable and likely enough.
    if o.get("create_die_min") == "20" && o.get("create_die_max") == "80" {
        return None;
    }
    let set = o.explicitly_set();
    let pick = |a: &'static str, b: &'static str| {
        if !set.contains_key(a) && set.contains_key(b) {
            b
        } else {
            a
        }
    };
    let (lo, hi) = (o.integer("create_die_min"), o.integer("create_die_max"));
    let allowed = crate::tr!("options.check.create_die_allowed");
    if lo > hi {
        return Some((
            pick("create_die_min", "create_die_max"),
            crate::tr!("options.check.create_die_order", min = lo, max = hi),
            allowed,
        ));
    }
    for (n, kmin, kmax) in [
        (6, "creation_stats_sum_min", "creation_stats_sum_max"),
        (2, "conversion_sum_min", "conversion_sum_max"),
    ] {
        let (smin, smax) = (o.integer(kmin), o.integer(kmax));
        let (reach_lo, reach_hi) = (n * lo, n * hi);
        // Dice too low for the window: their maximum or the window's minimum is at fault;
        // too high: their minimum or the window's maximum.
        let key = if n * (lo + hi) < smin + smax {
            pick("create_die_max", kmin)
        } else {
            pick("create_die_min", kmax)
        };
        if reach_hi < smin || reach_lo > smax {
            return Some((
                key,
                crate::tr!(
                    "options.check.create_die_unreachable",
                    n = n,
                    lo = lo,
                    hi = hi,
                    reach_lo = reach_lo,
                    reach_hi = reach_hi,
                    kmin = kmin,
                    kmax = kmax,
                    smin = smin,
                    smax = smax
                ),
                allowed,
            ));
        }
        let p = crate::dice::Dist::uniform(lo..=hi)
            .map(|d| {
                d.sum_of(n as usize)
                    .prob_where(|s| (smin..=smax).contains(s))
            })
            .unwrap_or(0.0);
        if p < MIN_STAT_ACCEPT {
            return Some((
                key,
                crate::tr!(
                    "options.check.create_die_rare",
                    n = n,
                    lo = lo,
                    hi = hi,
                    kmin = kmin,
                    kmax = kmax,
                    smin = smin,
                    smax = smax,
                    p = format!("{p:.1e}")
                ),
                allowed,
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::RuleOptions;
    use super::*;

    fn conflict_of(pairs: &[&str]) -> Option<(&'static str, String, &'static str)> {
        create_die_conflict(&RuleOptions::from_pairs(pairs).unwrap())
    }

    #[test]
    fn die_windows_the_sums_can_use_pass() {
        assert!(conflict_of(&[]).is_none());
        assert!(conflict_of(&["create_die_min=30", "create_die_max=70"]).is_none());
        assert!(conflict_of(&["create_die_min=1", "create_die_max=100"]).is_none());
        // One face: six 50s sum 300, two sum 100, both inside the book's windows.
        assert!(conflict_of(&["create_die_min=50", "create_die_max=50"]).is_none());
    }

    #[test]
    fn broken_die_windows_name_the_key_set() {
        let (key, m, allowed) = conflict_of(&["create_die_min=60", "create_die_max=50"]).unwrap();
        assert_eq!(key, "create_die_min");
        assert!(
            m.contains("create_die_min = 60 is above create_die_max = 50"),
            "{m}"
        );
        assert!(allowed.contains("create_die_min <= create_die_max"));
        // Six dice of 20..30 sum at most 180, below 200: the die maximum was set.
        let (key, m, _) = conflict_of(&["create_die_max=30"]).unwrap();
        assert_eq!(key, "create_die_max");
        assert!(m.contains("sum 120..180") && m.contains("200..400"), "{m}");
        // Two dice of 75..80 sum at least 150, above the conversion's 140.
        let (key, m, _) =
            conflict_of(&["create_die_min=75", "creation_stats_sum_max=480"]).unwrap();
        assert_eq!(key, "create_die_min");
        assert!(m.contains("150..160") && m.contains("60..140"), "{m}");
        // Reachable only by six 50s: (1/51)^6, far below MIN_STAT_ACCEPT.
        let (key, m, _) = conflict_of(&[
            "create_die_min=50",
            "create_die_max=100",
            "creation_stats_sum_max=300",
        ])
        .unwrap();
        assert_eq!(key, "create_die_min");
        assert!(m.contains("5.7e-11"), "{m}");
        // Only the maximum set, below the book's minimum: the maximum is named.
        let (key, m, _) = conflict_of(&["create_die_max=10"]).unwrap();
        assert_eq!(key, "create_die_max");
        assert!(
            m.contains("create_die_min = 20 is above create_die_max = 10"),
            "{m}"
        );
    }
}
