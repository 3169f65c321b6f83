//! Rule options and parameters of Great Cosmos tests and karma (C-TEST, C-KARMA).
//! Parameters are the book's numbers (cited), set like options to try "what if".

use super::{Allowed, OptionSpec};

/// The previous edition as the parameter values that differ from the current one
/// (C-EDITION). cosmos-previous.fr.txt has the same tests, karma, postures, level grants
/// and element table (every number checked against cosmos-current.fr.txt); it has no
/// "Règle de l'endurance" (no fatigue), no genetics and no affiliation, and its own aura
/// table (l. 300-303, chosen by `edition` itself). No fatigue reads as no maluses, no
/// wider crit band and no gains; exhaustion cannot be reached without gains.
pub const PREVIOUS_EDITION: &[(&str, &str)] = &[
    ("fatigue_light_malus", "0"),
    ("fatigue_moderate_malus", "0"),
    ("fatigue_extreme_malus", "0"),
    ("fatigue_crit_failure_extra", "0"),
    ("fatigue_rounds_per_fp", "100"),
    ("fatigue_combat_end_fp", "0"),
    ("fatigue_per_points", "10000"),
    ("fatigue_knockout_fm", "0"),
    ("fatigue_psychic_fm", "0"),
    ("fatigue_point_relief", "0"),
    ("fatigue_sepulchral_backlash_fp", "0"),
    ("fatigue_illumination_backlash", "0"),
    // An expedition's own gain of each day (its fights read the combat gains above).
    ("fatigue_daily_gain", "0"),
];

/// The fatigue state thresholds, each checked against exhaustion (C-FAT-4).
const FATIGUE_FROM: [&str; 3] = [
    "fatigue_light_from",
    "fatigue_moderate_from",
    "fatigue_extreme_from",
];

/// A fatigue state that would start past exhaustion (C-FAT-4: light <= moderate <= extreme
/// <= exhaustion; out of order among themselves they read as their running maximum, but
/// none may lie above `fatigue_exhausted_at`): (threshold key, its value, exhaustion).
/// A threshold equal to exhaustion leaves that state empty, as `fatigue_extreme_from = 10`
/// always did.
pub fn fatigue_past_exhaustion(o: &super::RuleOptions) -> Option<(&'static str, i64, i64)> {
    let max = o.integer("fatigue_exhausted_at");
    FATIGUE_FROM
        .iter()
        .map(|k| (*k, o.integer(k)))
        .find(|(_, v)| *v > max)
        .map(|(k, v)| (k, v, max))
}

/// Rule options of the Great Cosmos test and karma rules.
pub const OPTIONS: &[OptionSpec] = &[
    // A named parameter set: the rules of one edition of the book (C-EDITION).
    OptionSpec {
        key: "edition",
        decision: "C-EDITION",
        default: "current",
        allowed: Allowed::OneOf(&["current", "previous"]),
    },
    OptionSpec {
        key: "percent_mode",
        decision: "C-TEST-1",
        default: "points",
        allowed: Allowed::OneOf(&["points", "relative"]),
    },
    OptionSpec {
        key: "super_crit_roll",
        decision: "C-TEST-2",
        default: "natural",
        allowed: Allowed::OneOf(&["natural", "score"]),
    },
    OptionSpec {
        key: "karma_overflow",
        decision: "C-KARMA-1",
        default: "clamp",
        allowed: Allowed::OneOf(&["clamp", "cancel"]),
    },
    OptionSpec {
        key: "posture_karma_exit",
        decision: "C-KARMA-2",
        default: "restore",
        allowed: Allowed::OneOf(&["restore", "keep"]),
    },
    // Parameters: "Si le score est compris entre 1 et 10 inclus, il s'agit d'une réussite
    // critique" (Great Cosmos, Tests).
    OptionSpec {
        key: "crit_success_to",
        decision: "C-TEST-2",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 30 },
    },
    // "un 42 ... réussite super-critique", "un 66 ... échec super-critique".
    OptionSpec {
        key: "super_success_roll",
        decision: "C-TEST-2",
        default: "42",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    OptionSpec {
        key: "super_failure_roll",
        decision: "C-TEST-2",
        default: "66",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    // "à partir de +5 / -5 de karma, on retire / ajoute 1d10" (Great Cosmos, Karma).
    OptionSpec {
        key: "karma_die_from",
        decision: "C-TEST-3",
        default: "5",
        allowed: Allowed::Integer { min: 1, max: 10 },
    },
    OptionSpec {
        key: "karma_die_sides",
        decision: "C-TEST-3",
        default: "10",
        allowed: Allowed::Integer { min: 2, max: 20 },
    },
    // "Le joueur effectue un score compris entre 91 et 100, l'action est un échec
    // critique" (Great Cosmos, Tests, line 54). 101 leaves no band.
    OptionSpec {
        key: "crit_failure_from",
        decision: "C-TEST-2",
        default: "91",
        allowed: Allowed::Integer { min: 31, max: 101 },
    },
    // "Fatigue extrême ... -30% et +5% d'échecs critiques" (Règle de l'endurance, line
    // 435; C-FAT-4): the band starts this much lower, 86 in the book.
    OptionSpec {
        key: "fatigue_crit_failure_extra",
        decision: "C-FAT-4",
        default: "5",
        allowed: Allowed::Integer { min: 0, max: 20 },
    },
    // "la nouvelle valeur de karma ... ne doit ni excéder 10 ni être strictement
    // inférieur à -10" (Karma, line 77; C-KARMA-1); the -10/+10 rows of the karma table
    // (C-TEST-4) and the posture lock (C-KARMA-2) read the same bound.
    OptionSpec {
        key: "karma_bound",
        decision: "C-KARMA-1",
        default: "10",
        allowed: Allowed::Integer { min: 2, max: 10 },
    },
    // The fatigue states are read by every test (TestRules), so they sit here with the
    // fatigue crit band and are recorded with the test rules.
    // Parameters of the fatigue states (C-FAT-4): "Fatigue légère 4 ≤ FP/FM < 6 : -5%",
    // "Fatigue modérée 6 ≤ FP/FM < 8 : -10%", "Fatigue extrême 8 ≤ FP/FM < 10 : -30%"
    // (Règle de l'endurance, lines 432-435). Exhaustion stays at 10, the tracks' ceiling
    // where gains spill onto the other track (C-FAT-2).
    OptionSpec {
        key: "fatigue_light_from",
        decision: "C-FAT-4",
        default: "4",
        allowed: Allowed::Integer { min: 1, max: 10 },
    },
    OptionSpec {
        key: "fatigue_moderate_from",
        decision: "C-FAT-4",
        default: "6",
        allowed: Allowed::Integer { min: 1, max: 10 },
    },
    OptionSpec {
        key: "fatigue_extreme_from",
        decision: "C-FAT-4",
        default: "8",
        allowed: Allowed::Integer { min: 1, max: 10 },
    },
    OptionSpec {
        key: "fatigue_light_malus",
        decision: "C-FAT-4",
        default: "5",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "fatigue_moderate_malus",
        decision: "C-FAT-4",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "fatigue_extreme_malus",
        decision: "C-FAT-4",
        default: "30",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    // "Épuisement physique FP = 10 ... Tout gain de FP au-delà de ce maximum sont
    // transformés en gain de FM" (and FM = 10 likewise; Règle de l'endurance, lines
    // 437-444; C-FAT-2, C-FAT-4): exhaustion is also the tracks' ceiling where gains spill
    // onto the other track. At most the book's 10, so the exact (FP, FM) tables and the
    // combat histograms keep their -3..10 size; no state threshold may lie above it.
    OptionSpec {
        key: "fatigue_exhausted_at",
        decision: "C-FAT-4",
        default: "10",
        allowed: Allowed::Integer { min: 2, max: 10 },
    },
];
