//! Rule options of Nephilim v3 (N-*).

use super::{Allowed, OptionSpec};

/// Rule options of the Nephilim v3 rules.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "die",
        decision: "N-DIE",
        default: "nephilim",
        allowed: Allowed::OneOf(&["nephilim", "d6", "d4"]),
    },
    OptionSpec {
        key: "init_segment",
        decision: "N-INIT",
        default: "six",
        allowed: Allowed::OneOf(&["six", "five"]),
    },
    // "Sa première action se fera à son initiative normale, sa deuxième à son initiative
    // moins 6, sa troisième à son initiative moins 12 … un malus de 4 par action
    // supplémentaire" (nephilim-v3.fr.txt l. 494; N-INIT).
    OptionSpec {
        key: "nephilim_extra_action_step",
        decision: "N-INIT",
        default: "6",
        allowed: Allowed::Integer { min: 1, max: 12 },
    },
    OptionSpec {
        key: "nephilim_extra_action_malus",
        decision: "N-INIT",
        default: "4",
        allowed: Allowed::Integer { min: 0, max: 8 },
    },
    // "Un résultat brut aux dés de +4 correspond à une réussite critique … de -4 … un
    // échec critique" (nephilim-v3.fr.txt l. 458; N-CRIT), the extreme of +1D-1D (±5 with
    // a d6, ±3 with a d4, l. 466). The band counts from that extreme, so it follows the
    // `die` option; 3 keeps the d4's band above 0.
    OptionSpec {
        key: "nephilim_crit_band",
        decision: "N-CRIT",
        default: "1",
        allowed: Allowed::Integer { min: 1, max: 3 },
    },
    // "Cinq points « absolus » vaudront un point sur cette échelle réduite, qui commencera
    // à -3 également (-4 signifiant l'absence de Ka)" (nephilim-v3.fr.txt l. 32; N-KA).
    // 1 reads each absolute point as a normalised one; 20 keeps Ka 0..200 meaningful.
    OptionSpec {
        key: "nephilim_ka_band",
        decision: "N-KA",
        default: "5",
        allowed: Allowed::Integer { min: 1, max: 20 },
    },
    // "Malus 0 +1 +2 +3 +4" for the levels 0, 1-2, 3-4, 5-6, 7-8 of both counters
    // (nephilim-v3.fr.txt l. 79 and 84; N-HEALTH). 0: the counters carry no malus.
    OptionSpec {
        key: "nephilim_health_malus_step",
        decision: "N-HEALTH",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 4 },
    },
    OptionSpec {
        key: "concentration_score",
        decision: "N-MAGIC",
        default: "skill",
        allowed: Allowed::OneOf(&["skill", "double_skill"]),
    },
    OptionSpec {
        key: "concentration_carry",
        decision: "N-MAGIC",
        default: "none",
        allowed: Allowed::OneOf(&["none", "margin"]),
    },
    OptionSpec {
        key: "stase_bonus",
        decision: "N-MAGIC",
        default: "raw",
        allowed: Allowed::OneOf(&["raw", "normalised"]),
    },
];

/// The band and box sizes of N-KA and N-HEALTH made parameters last (issue 16): same
/// registry, but listed in provenance only off the book (`systems::nephilim::in_force`),
/// so the shipped reports keep their bytes.
pub const BAND_PARAMETERS: &[OptionSpec] = &[
    // "Score en Ka / Bonus de métacaractéristique: 00-05 +0, 06-15 +1, 16-30 +2, 31-50 +3,
    // 51-75 +4, 76-105 +5, ..." (nephilim-v3.fr.txt l. 63-69; N-KA). Counted from Ka 1 (0 is
    // the absence of Ka, l. 32) the bands are 5, 10, 15, 20, 25, 30 wide: a first band and
    // a growth per band, both 5. 20 keeps Ka 0..200 on a few bands.
    OptionSpec {
        key: "nephilim_meta_first_band",
        decision: "N-KA",
        default: "5",
        allowed: Allowed::Integer { min: 1, max: 20 },
    },
    OptionSpec {
        key: "nephilim_meta_band_growth",
        decision: "N-KA",
        default: "5",
        allowed: Allowed::Integer { min: 0, max: 20 },
    },
    // "Chacun de ces compteurs comporte 10 cases … six niveaux" with the states 1-2, 3-4,
    // 5-6, 7-8 (malus +1..+4; incapacity / exhaustion checks at 7-8) and 9-10 (dead /
    // fainted) (nephilim-v3.fr.txt l. 74-88; N-HEALTH): 2 boxes per state. 4 keeps the
    // counters within 20 boxes.
    OptionSpec {
        key: "nephilim_health_boxes_per_state",
        decision: "N-HEALTH",
        default: "2",
        allowed: Allowed::Integer { min: 1, max: 4 },
    },
];

/// Readings of the duel the book leaves open (issue 25): a duel's provenance lists every
/// one (`systems::nephilim::in_force_duel`); a table's only when one is off its default.
pub const DUEL_READINGS: &[OptionSpec] = &[
    // N-TEST "margin = final - difficulty" and N-OPP "margin = difference" (nephilim-v3
    // l. 458, 470): the book does not say how a blow that had to reach a difficulty and
    // then beat a parry combines both.
    OptionSpec {
        key: "nephilim_damage_margin",
        decision: "N-OPP",
        default: "higher",
        allowed: Allowed::OneOf(&["higher", "defence"]),
    },
    // "Chacune de ses actions subira alors un malus de 4 par action supplémentaire"
    // (nephilim-v3 l. 494); parrying and dodging need to "agir dans le même segment" (l. 482).
    OptionSpec {
        key: "nephilim_extra_action_malus_on",
        decision: "N-INIT",
        default: "all",
        allowed: Allowed::OneOf(&["all", "attacks"]),
    },
    // "Les malus du compteur de fatigue, eux, s'appliquent à toutes les actions du
    // personnage" (nephilim-v3 l. 86); initiative is "un test d'Initiative" (l. 480).
    OptionSpec {
        key: "nephilim_fatigue_on_initiative",
        decision: "N-HEALTH",
        default: "yes",
        allowed: Allowed::OneOf(&["yes", "no"]),
    },
    // "Les malus du compteur de blessure s'appliquent uniquement à la Force et à
    // l'Agilité" (nephilim-v3 l. 86): no characteristic is named Agilité, but l. 47 uses it
    // as one and l. 506-508 move "en fonction de son Agilité" under a table headed
    // "Rapidité", so Agilité may read as Rapidité, and initiative is Rapidité + Réaction
    // + 1D - 1D (l. 306). `no` keeps the wound malus off the initiative test (the numbers
    // of before), `yes` is the Agilité = Rapidité reading (audit of 2026-12-08).
    OptionSpec {
        key: "nephilim_wounds_on_initiative",
        decision: "N-HEALTH",
        default: "no",
        allowed: Allowed::OneOf(&["no", "yes"]),
    },
    // "en plus de son malus de 4, il doit chaque round réussir un test de Constitution +
    // Constitution de difficulté 0" / "un jet de Ka de difficulté 0" (nephilim-v3 l. 88).
    OptionSpec {
        key: "nephilim_check_malus",
        decision: "N-HEALTH",
        default: "none",
        allowed: Allowed::OneOf(&["none", "fatigue"]),
    },
    // The book gives extra actions no cost but the -4 (nephilim-v3 l. 494).
    OptionSpec {
        key: "nephilim_extra_action_cost",
        decision: "N-INIT",
        default: "malus",
        allowed: Allowed::OneOf(&["malus", "malus_and_fatigue"]),
    },
    // "il doit chaque round réussir un test de Constitution + Constitution" (nephilim-v3
    // l. 88): the book does not say whether the round whose blows put the opponent out
    // still ends with the survivor's checks (audit of 2026-12-06).
    OptionSpec {
        key: "nephilim_survivor_check",
        decision: "N-HEALTH",
        default: "yes",
        allowed: Allowed::OneOf(&["yes", "no"]),
    },
];
