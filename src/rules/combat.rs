//! Rule options and parameters of Great Cosmos combat (C-CMB, C-ELEM, C-TURN, C-LD,
//! C-KARMA-2). Parameters are the book's numbers (cited), set like options.

use super::{Allowed, OptionSpec};

const MULT: Allowed = Allowed::Number {
    min: 0.0,
    max: 10.0,
};

/// Rule options of the combat engine: every one is listed, default included, in the
/// provenance of every Great Cosmos combat and of an expedition's linked combat
/// (`systems::cosmos::combat::listed_options`; audit of 2026-12-07, evening, which folded
/// the former `LATE_READINGS` in: listed only off their default, a run at the defaults did
/// not say which reading it used).
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "offensive_damage_mult",
        decision: "C-CMB-1",
        default: "1.5",
        allowed: MULT,
    },
    OptionSpec {
        key: "crit_damage_mult",
        decision: "C-CMB-4",
        default: "1.5",
        allowed: MULT,
    },
    OptionSpec {
        key: "super_damage_mult",
        decision: "C-CMB-4",
        default: "2",
        allowed: MULT,
    },
    OptionSpec {
        key: "sepulchral_damage_mult",
        decision: "C-LD-6",
        default: "2",
        allowed: MULT,
    },
    OptionSpec {
        key: "backlash_damage_mult",
        decision: "C-LD-6",
        default: "0.5",
        allowed: MULT,
    },
    OptionSpec {
        key: "fs_bonus_mult",
        decision: "C-LD-5",
        default: "1.25",
        allowed: MULT,
    },
    OptionSpec {
        key: "apocalypse_on",
        decision: "C-LD-6",
        default: "expiry,final_skill,combat_end",
        allowed: Allowed::SetOf(&["expiry", "final_skill", "combat_end"]),
    },
    OptionSpec {
        key: "dual_element",
        decision: "C-ELEM",
        default: "product",
        allowed: Allowed::OneOf(&["product", "max", "mean"]),
    },
    OptionSpec {
        key: "extra_action_d6",
        decision: "C-TURN-2",
        default: "per_combat",
        allowed: Allowed::OneOf(&["per_combat", "per_round"]),
    },
    OptionSpec {
        key: "illumination_evade",
        decision: "C-LD-5",
        default: "7",
        allowed: Allowed::Number {
            min: 0.0,
            max: 10.0,
        },
    },
    OptionSpec {
        key: "riposte_on",
        decision: "C-CMB-3",
        default: "stopped",
        allowed: Allowed::OneOf(&["stopped", "any_crit"]),
    },
    OptionSpec {
        key: "points_during_backlash",
        decision: "C-LD-3",
        default: "wait",
        allowed: Allowed::OneOf(&["wait", "ends_backlash"]),
    },
    OptionSpec {
        key: "sepulchral_counter_on",
        decision: "C-LD-6",
        default: "any_damage",
        allowed: Allowed::OneOf(&["any_damage", "actions_only"]),
    },
    OptionSpec {
        key: "illumination_extra_action",
        decision: "C-TURN-2",
        default: "spaced",
        allowed: Allowed::OneOf(&["spaced", "first"]),
    },
    OptionSpec {
        key: "illumination_mid_round",
        decision: "C-TURN-3",
        default: "keep_slot",
        allowed: Allowed::OneOf(&["keep_slot", "next"]),
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
    },
    // "après être sorti de posture Illumination ou Sépulcrale, il est impossible d'utiliser
    // un nouveau Light ou Dark point dans les deux tours qui suivent" (C-LD-3).
    OptionSpec {
        key: "points_lock_turns",
        decision: "C-LD-3",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
    },
    // "Au niveau 5 : Le joueur se voit octroyer 3 points supplémentaires répartis par le
    // MJ entre light et dark" (Light & Dark Points, line 101; C-LD-1).
    OptionSpec {
        key: "level5_points",
        decision: "C-LD-1",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 10 },
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
                "feu", "air", "eau", "terre", "glace", "metal", "elec", "sang", "poison", "plante",
                "dark", "light",
            ],
            min: -10.0,
            max: 10.0,
        },
    },
    // "+10% bonus sur tous les jets", "+20% bonus sur tous les jets" (Illumination
    // advantages 4 and 5, lines 149-150; C-LD-5).
    OptionSpec {
        key: "illumination_bonus_4",
        decision: "C-LD-5",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "illumination_bonus_5",
        decision: "C-LD-5",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    // "-10% malus sur tous les jets", "-20% malus sur tous les jets" (Sépulcrale
    // disadvantages 4 and 5, lines 159-160; C-LD-6).
    OptionSpec {
        key: "sepulchral_malus_4",
        decision: "C-LD-6",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "sepulchral_malus_5",
        decision: "C-LD-6",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    // Fatigue gains in combat (C-FAT-2, `[combat] fatigue = true`; Règle de l'endurance,
    // lines 384-398).
    OptionSpec {
        key: "fatigue_rounds_per_fp",
        decision: "C-FAT-2",
        default: "5",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    // The same line's "et en fin de combat +1 FP": the end gain, apart from the period.
    OptionSpec {
        key: "fatigue_combat_end_fp",
        decision: "C-FAT-2",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 10 },
    },
    OptionSpec {
        key: "fatigue_per_points",
        decision: "C-FAT-2",
        default: "100",
        allowed: Allowed::Integer {
            min: 10,
            max: 10000,
        },
    },
    OptionSpec {
        key: "fatigue_knockout_fm",
        decision: "C-FAT-2",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 10 },
    },
    OptionSpec {
        key: "fatigue_psychic_fm",
        decision: "C-FAT-2",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 10 },
    },
    OptionSpec {
        key: "fatigue_point_relief",
        decision: "C-FAT-2",
        default: "6",
        allowed: Allowed::Integer { min: 0, max: 13 },
    },
    OptionSpec {
        key: "fatigue_sepulchral_backlash_fp",
        decision: "C-FAT-2",
        default: "8",
        allowed: Allowed::Integer { min: 0, max: 13 },
    },
    OptionSpec {
        key: "fatigue_illumination_backlash",
        decision: "C-FAT-2",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 13 },
    },
    // "Le personnage ne peut plus agir pendant 2 tours (incluant esquives et parades)"
    // (Illumination, contre-coup; C-LD-5).
    OptionSpec {
        key: "illumination_backlash_turns",
        decision: "C-LD-5",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
    },
    // "Le personnage agit en dernier ... pendant 2 tours", "Les dégâts ... réduits pendant
    // 2 tours"; disadvantage 6: "La durée du contre-coup est doublée" (Sépulcrale,
    // contre-coup; C-LD-6): the doubling stays a doubling of this value.
    OptionSpec {
        key: "sepulchral_backlash_turns",
        decision: "C-LD-6",
        default: "2",
        allowed: Allowed::Integer { min: 0, max: 20 },
    },
    // "Les bonus et malus s'appliquant à l'agilité (blessures, potion, équipement, etc.)
    // sont également pris en compte dans la répartition du tour" (cosmos-current l. 479),
    // while C-FAT-4 puts the FP maluses on "Force, Précision and Agilité tests" and C-TURN-1
    // orders by "effective Agilité" (audit of 2026-12-07).
    OptionSpec {
        key: "fatigue_turn_order",
        decision: "C-TURN-1, C-FAT-4",
        default: "no",
        allowed: Allowed::OneOf(&["no", "yes"]),
    },
    // "Le personnage lance un dé d'avantage spécial au début de la posture dont l'effet
    // s'appliquera pendant toute la durée de celle-ci" (cosmos-current l. 119) and "Utiliser
    // le Final Skill met fin prématurément à la posture Illumination" (l. 120): the two
    // actions of advantage 6 (l. 151) last as long as the posture, so a Final Skill on the
    // first action ends the second with it (`lost`). C-LD-4/C-LD-5 are silent; `kept`
    // is the earlier behaviour (audit of 2026-12-07, afternoon).
    OptionSpec {
        key: "extra_action_after_final_skill",
        decision: "C-LD-4, C-LD-5",
        default: "lost",
        allowed: Allowed::OneOf(&["lost", "kept"]),
    },
];
