//! Rule options and parameters of Great Cosmos combat (C-CMB, C-ELEM, C-TURN, C-LD,
//! C-KARMA-2). Parameters are the book's numbers (cited), set like options.

use super::{Allowed, OptionSpec};

const MULT: Allowed = Allowed::Number {
    min: 0.0,
    max: 10.0,
};

/// Rule options of the combat engine.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "offensive_damage_mult",
        decision: "C-CMB-1",
        default: "1.5",
        allowed: MULT,
        help: "damage multiplier of an attacker in Offensive mode (who cannot dodge or parry)",
    },
    OptionSpec {
        key: "crit_damage_mult",
        decision: "C-CMB-4",
        default: "1.5",
        allowed: MULT,
        help: "damage multiplier of a critical-success attack",
    },
    OptionSpec {
        key: "super_damage_mult",
        decision: "C-CMB-4",
        default: "2",
        allowed: MULT,
        help: "damage multiplier of a super-critical-success attack (42)",
    },
    OptionSpec {
        key: "sepulchral_damage_mult",
        decision: "C-LD-6",
        default: "2",
        allowed: MULT,
        help: "damage multiplier in posture Sépulcrale (replaces the Offensive one)",
    },
    OptionSpec {
        key: "backlash_damage_mult",
        decision: "C-LD-6",
        default: "0.5",
        allowed: MULT,
        help: "damage multiplier during the Sépulcrale backlash",
    },
    OptionSpec {
        key: "fs_bonus_mult",
        decision: "C-LD-5",
        default: "1.25",
        allowed: MULT,
        help: "Final Skill damage multiplier under Illumination advantage 3",
    },
    OptionSpec {
        key: "apocalypse_on",
        decision: "C-LD-6",
        default: "expiry,final_skill,combat_end",
        allowed: Allowed::SetOf(&["expiry", "final_skill", "combat_end"]),
        help: "which ends of a Sépulcrale posture fire Apocalypse (when Revive did not fire)",
    },
    OptionSpec {
        key: "dual_element",
        decision: "C-ELEM",
        default: "product",
        allowed: Allowed::OneOf(&["product", "max", "mean"]),
        help: "coefficient of a two-element attack: product, larger or mean of both coefficients",
    },
    OptionSpec {
        key: "extra_action_d6",
        decision: "C-TURN-2",
        default: "per_combat",
        allowed: Allowed::OneOf(&["per_combat", "per_round"]),
        help: "the d6 that spaces extra actions (Agilité - (4+d6) x n) is rolled once per combat or every round",
    },
    OptionSpec {
        key: "illumination_evade",
        decision: "C-LD-5",
        default: "7",
        allowed: Allowed::Number { min: 0.0, max: 10.0 },
        help: "Illumination evades an attack automatically on a d10 at or below this value (7 in 10)",
    },
    OptionSpec {
        key: "riposte_on",
        decision: "C-CMB-3",
        default: "stopped",
        allowed: Allowed::OneOf(&["stopped", "any_crit"]),
        help: "a crit parry/dodge gives a riposte/counter only if it stopped the attack (stopped), or whenever it is a crit (any_crit)",
    },
    OptionSpec {
        key: "points_during_backlash",
        decision: "C-LD-3",
        default: "wait",
        allowed: Allowed::OneOf(&["wait", "ends_backlash"]),
        help: "a Sépulcrale backlash can outlast the 2-turn lock (disadvantage 6): no new Light/Dark point until the backlash is over (wait: a reading beyond the book, whose only lock is \"dans les deux tours qui suivent\"), or a new posture cancels what is left of it (ends_backlash)",
    },
    OptionSpec {
        key: "sepulchral_counter_on",
        decision: "C-LD-6",
        default: "any_damage",
        allowed: Allowed::OneOf(&["any_damage", "actions_only"]),
        help: "the Sépulcrale counter-attack answers damage of any type, ripostes and counter-attacks included (any_damage, \"de n'importe quel type\"), or only damage from actions (actions_only, the earlier reading); a counter never answers a counter",
    },
    OptionSpec {
        key: "illumination_extra_action",
        decision: "C-TURN-2",
        default: "spaced",
        allowed: Allowed::OneOf(&["spaced", "first"]),
        help: "under Illumination with two actions (advantage 6), the first action comes before everyone and the others at Agilité - (4+d6) x n in the normal order (spaced), or all come before everyone (first)",
    },
    OptionSpec {
        key: "illumination_mid_round",
        decision: "C-TURN-3",
        default: "keep_slot",
        allowed: Allowed::OneOf(&["keep_slot", "next"]),
        help: "an Illumination begun during a round keeps the holder's place in that round's order and acts first from the next round (keep_slot), or moves the holder's next action of this round to right after the current action (next)",
    },
    // Parameters (issue 16). "Ces postures ne dure que 3 tours maximum et entraînent un
    // contre-coup derrière si elles ont été utilisées plus de 2 tours" (Great Cosmos, Mode
    // de combat): C-LD-3 ends the posture at the end of the holder's 3rd posture turn and
    // gives the backlash iff that 3rd turn began, so one number sets both.
    OptionSpec {
        key: "posture_turns",
        decision: "C-LD-3",
        default: "3",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: an Illumination/Sépulcrale posture ends at the end of the holder's Nth posture turn, and the backlash comes iff that Nth turn began (book: 3 turns at most, backlash past 2)",
    },
    // "après être sorti de posture Illumination ou Sépulcrale, il est impossible d'utiliser
    // un nouveau Light ou Dark point dans les deux tours qui suivent" (C-LD-3).
    OptionSpec {
        key: "points_lock_turns",
        decision: "C-LD-3",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
        help: "parameter: after a posture ends, no Light/Dark point during the holder's next N turns (book: 2)",
    },
    // "Au niveau 5 : Le joueur se voit octroyer 3 points supplémentaires répartis par le
    // MJ entre light et dark" (Light & Dark Points, line 101; C-LD-1).
    OptionSpec {
        key: "level5_points",
        decision: "C-LD-1",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: Light/Dark points granted at level 5 on top of the 1 Light + 1 Dark of level 1, split by the combatant's level5_dark (at most this many), else two thirds Dark rounded (book: 3, so 2 Dark + 1 Light); explicit light_points/dark_points are kept",
    },
    // "La table ci-dessous détaille la liste des coefficients par défaut d'un élément
    // (colonne) agissant sur un autre (ligne)" (Forces et faiblesses élémentaires, lines
    // 171-183; C-ELEM): the 144 cells are one parameter set; cells named here replace the
    // book's, "une valeur négative inverse l'effet initial".
    OptionSpec {
        key: "element_cells",
        decision: "C-ELEM",
        default: "none",
        allowed: Allowed::Cells {
            names: &[
                "feu", "air", "eau", "terre", "glace", "metal", "elec", "sang", "poison",
                "plante", "dark", "light",
            ],
            min: -10.0,
            max: 10.0,
        },
        help: "parameter set: cells of the element coefficient table as attacker>target=coefficient (e.g. \"eau>feu=1.5,feu>glace=0.5\"); the other cells keep the book's table (book: eau>feu=2)",
    },
    // "+10% bonus sur tous les jets", "+20% bonus sur tous les jets" (Illumination
    // advantages 4 and 5, lines 149-150; C-LD-5).
    OptionSpec {
        key: "illumination_bonus_4",
        decision: "C-LD-5",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: percentage bonus on every test of Illumination advantage 4 (book: +10%)",
    },
    OptionSpec {
        key: "illumination_bonus_5",
        decision: "C-LD-5",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: percentage bonus on every test of Illumination advantage 5 (book: +20%)",
    },
    // "-10% malus sur tous les jets", "-20% malus sur tous les jets" (Sépulcrale
    // disadvantages 4 and 5, lines 159-160; C-LD-6).
    OptionSpec {
        key: "sepulchral_malus_4",
        decision: "C-LD-6",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: percentage malus on every test during the backlash of Sépulcrale disadvantage 4 (book: -10%)",
    },
    OptionSpec {
        key: "sepulchral_malus_5",
        decision: "C-LD-6",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
        help: "parameter: percentage malus on every test during the backlash of Sépulcrale disadvantage 5 (book: -20%)",
    },
    // Fatigue gains in combat (C-FAT-2, `[combat] fatigue = true`; Règle de l'endurance,
    // lines 384-398).
    OptionSpec {
        key: "fatigue_rounds_per_fp",
        decision: "C-FAT-2",
        default: "5",
        allowed: Allowed::Integer { min: 1, max: 100 },
        help: "parameter: +1 FP to every standing combatant every N rounds and at combat end (book: \"Tous les 5 tours de combat et en fin de combat +1 FP\")",
    },
    // The same line's "et en fin de combat +1 FP": the end gain, apart from the period.
    OptionSpec {
        key: "fatigue_combat_end_fp",
        decision: "C-FAT-2",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: FP gained by every standing combatant at the end of a combat, on top of the every-N-rounds gain (book: \"en fin de combat +1 FP\"; 0 in the previous edition, which has no fatigue)",
    },
    OptionSpec {
        key: "fatigue_per_points",
        decision: "C-FAT-2",
        default: "100",
        allowed: Allowed::Integer { min: 10, max: 10000 },
        help: "parameter: +1 FM per this many PM spent and +1 FP +1 FM per this many HP lost (book: 100)",
    },
    OptionSpec {
        key: "fatigue_knockout_fm",
        decision: "C-FAT-2",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: FM gained when knocked out (book: +3 FM)",
    },
    OptionSpec {
        key: "fatigue_psychic_fm",
        decision: "C-FAT-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
        help: "parameter: FM gained per psychic attack suffered (book: +2 FM)",
    },
    OptionSpec {
        key: "fatigue_point_relief",
        decision: "C-FAT-2",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 13 },
        help: "parameter: FP and FM lost when a Light or Dark point is used (book: -6 FP -6 FM)",
    },
    OptionSpec {
        key: "fatigue_sepulchral_backlash_fp",
        decision: "C-FAT-2",
        default: "8",
        allowed: Allowed::Integer { min: 0, max: 13 },
        help: "parameter: FP gained at a Sépulcrale backlash (book: +8 FP)",
    },
    OptionSpec {
        key: "fatigue_illumination_backlash",
        decision: "C-FAT-2",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 13 },
        help: "parameter: FP and FM gained at an Illumination backlash (book: +10 FP +10 FM)",
    },
    // "Le personnage ne peut plus agir pendant 2 tours (incluant esquives et parades)"
    // (Illumination, contre-coup; C-LD-5).
    OptionSpec {
        key: "illumination_backlash_turns",
        decision: "C-LD-5",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
        help: "parameter: the Illumination backlash takes the holder's next N turns, with no action and no defence (book: 2)",
    },
    // "Le personnage agit en dernier ... pendant 2 tours", "Les dégâts ... réduits pendant
    // 2 tours"; disadvantage 6: "La durée du contre-coup est doublée" (Sépulcrale,
    // contre-coup; C-LD-6): the doubling stays a doubling of this value.
    OptionSpec {
        key: "sepulchral_backlash_turns",
        decision: "C-LD-6",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
        help: "parameter: the Sépulcrale backlash lasts the holder's next N turns, twice that on disadvantage 6 (book: 2, so 4)",
    },
];
