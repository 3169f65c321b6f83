//! Rule options of Nephilim v3 (N-*).

use super::{Allowed, OptionSpec};

/// Rule options of the Nephilim v3 rules.
pub const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        key: "die",
        decision: "N-DIE",
        default: "nephilim",
        allowed: Allowed::OneOf(&["nephilim", "d6", "d4"]),
        help: "the die D of +1D-1D: nephilim = faces 0,1,2,2,3,4 (crits at +-4), d6 = plain d6 (more heroic, crits at +-5), d4 = plain d4 (less heroic, crits at +-3)",
    },
    OptionSpec {
        key: "init_segment",
        decision: "N-INIT",
        default: "six",
        allowed: Allowed::OneOf(&["six", "five"]),
        help: "which initiatives share the first segment: six = highest down to highest-5 inclusive, \"en lui retranchant 5\" (an opponent 6 or more below acts later, the step of 6 of extra actions; N-INIT default), five = highest down to highest-4 (5 or more below acts later)",
    },
    // "Sa première action se fera à son initiative normale, sa deuxième à son initiative
    // moins 6, sa troisième à son initiative moins 12 … un malus de 4 par action
    // supplémentaire" (nephilim-v3.fr.txt l. 494; N-INIT).
    OptionSpec {
        key: "nephilim_extra_action_step",
        decision: "N-INIT",
        default: "6",
        allowed: Allowed::Integer { min: 1, max: 12 },
        help: "parameter: initiative step between a fighter's declared actions in a round (2nd action at initiative - step, 3rd at - 2 x step; book: 6)",
    },
    OptionSpec {
        key: "nephilim_extra_action_malus",
        decision: "N-INIT",
        default: "4",
        allowed: Allowed::Integer { min: 0, max: 8 },
        help: "parameter: malus on every action of the round per extra action declared (two actions -4 each, three -8 each in the book; book: 4)",
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
        help: "parameter: how many raw +1D-1D results at each end are critical: 1 = only the extreme (+4/-4 with the nephilim die, +-5 with d6, +-3 with d4), 2 = also +3/-3, ...; a critical result the success (failure) needed is still a simple one (book: 1)",
    },
    // "Cinq points « absolus » vaudront un point sur cette échelle réduite, qui commencera
    // à -3 également (-4 signifiant l'absence de Ka)" (nephilim-v3.fr.txt l. 32; N-KA).
    // 1 reads each absolute point as a normalised one; 20 keeps Ka 0..200 meaningful.
    OptionSpec {
        key: "nephilim_ka_band",
        decision: "N-KA",
        default: "5",
        allowed: Allowed::Integer { min: 1, max: 20 },
        help: "parameter: absolute Ka points per point of the normalised scale (Ka 0 -> -4, 1..band -> -3, +1 per further band), in magic's control test (exact and Monte Carlo) and the ka_normalised column (book: 5)",
    },
    // "Malus 0 +1 +2 +3 +4" for the levels 0, 1-2, 3-4, 5-6, 7-8 of both counters
    // (nephilim-v3.fr.txt l. 79 and 84; N-HEALTH). 0: the counters carry no malus.
    OptionSpec {
        key: "nephilim_health_malus_step",
        decision: "N-HEALTH",
        default: "1",
        allowed: Allowed::Integer { min: 0, max: 4 },
        help: "parameter: malus per state of the wound and fatigue counters (levels 1-2 one step, 3-4 two, 5-6 three, 7-8 four), wounds on attack, parry and dodge, fatigue on every action, in duels (book: 1)",
    },
    OptionSpec {
        key: "concentration_score",
        decision: "N-MAGIC",
        default: "skill",
        allowed: Allowed::OneOf(&["skill", "double_skill"]),
        help: "score of the concentration test: skill = the spell-casting skill once (as written), double_skill = counted twice like a lone characteristic",
    },
    OptionSpec {
        key: "concentration_carry",
        decision: "N-MAGIC",
        default: "none",
        allowed: Allowed::OneOf(&["none", "margin"]),
        help: "what a good concentration test gives the control test: none, or margin = its margin of success added to the control score",
    },
    OptionSpec {
        key: "stase_bonus",
        decision: "N-MAGIC",
        default: "raw",
        allowed: Allowed::OneOf(&["raw", "normalised"]),
        help: "stase points drawn add to the raw Ka-element score before normalisation (raw), or straight to the normalised score (normalised)",
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
        help: "parameter: Ka scores 1..this give the meta-characteristic bonus +0 (Ka 0 too), the first band; each later band is nephilim_meta_band_growth wider than the one before, +1 per band, in the nephilim-meta table (book: 5, bands 0-5, 6-15, 16-30, 31-50, ...)",
    },
    OptionSpec {
        key: "nephilim_meta_band_growth",
        decision: "N-KA",
        default: "5",
        allowed: Allowed::Integer { min: 0, max: 20 },
        help: "parameter: how much wider each band of the meta-characteristic bonus is than the one before (0: every band as wide as the first), in the nephilim-meta table (book: 5, bands 5, 10, 15, 20 ... wide counted from Ka 1)",
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
        help: "parameter: boxes per state of the wound and fatigue counters: levels 1..b are the first malus state, ..., 3b+1..4b the fourth (incapacity / exhaustion check each round), 4b+1 and more dead / fainted, 5b boxes, in duels (book: 2, 10 boxes, out at 9)",
    },
];

/// Readings of the duel the book leaves open (issue 25), listed in provenance only off
/// their defaults (`systems::nephilim::in_force`), so runs at the defaults keep their bytes.
pub const DUEL_READINGS: &[OptionSpec] = &[
    // N-TEST "margin = final - difficulty" and N-OPP "margin = difference" (nephilim-v3
    // l. 458, 470): the book does not say how a blow that had to reach a difficulty and
    // then beat a parry combines both.
    OptionSpec {
        key: "nephilim_damage_margin",
        decision: "N-OPP",
        default: "higher",
        allowed: Allowed::OneOf(&["higher", "defence"]),
        help: "the margin a blow adds to its damage in a duel: higher = over the higher of the difficulty and the defence's final (a botched parry is never worse for the defender than none), defence = over the defence's final when there was one (N-OPP \"la différence donne la marge\" taken literally)",
    },
    // "Chacune de ses actions subira alors un malus de 4 par action supplémentaire"
    // (nephilim-v3 l. 494); parrying and dodging need to "agir dans le même segment" (l. 482).
    OptionSpec {
        key: "nephilim_extra_action_malus_on",
        decision: "N-INIT",
        default: "all",
        allowed: Allowed::OneOf(&["all", "attacks"]),
        help: "which tests of a fighter who declared extra actions take the -4 per extra action: all = attacks, parries and dodges (\"chacune de ses actions\", a parry is acting in the segment), attacks = attacks only",
    },
    // "Les malus du compteur de fatigue, eux, s'appliquent à toutes les actions du
    // personnage" (nephilim-v3 l. 86); initiative is "un test d'Initiative" (l. 480).
    OptionSpec {
        key: "nephilim_fatigue_on_initiative",
        decision: "N-HEALTH",
        default: "yes",
        allowed: Allowed::OneOf(&["yes", "no"]),
        help: "whether the fatigue counter's malus lowers the initiative test in a duel: yes = the book's \"toutes les actions\", no = only attacks, parries and dodges",
    },
    // "en plus de son malus de 4, il doit chaque round réussir un test de Constitution +
    // Constitution de difficulté 0" / "un jet de Ka de difficulté 0" (nephilim-v3 l. 88).
    OptionSpec {
        key: "nephilim_check_malus",
        decision: "N-HEALTH",
        default: "none",
        allowed: Allowed::OneOf(&["none", "fatigue"]),
        help: "whether the incapacity (Constitution + Constitution) and exhaustion (Ka) checks of a duel take the fatigue counter's malus: none = the malus of 4 stays on the actions and the check is made beside it (\"en plus de son malus de 4\"), fatigue = they take it too",
    },
    // The book gives extra actions no cost but the -4 (nephilim-v3 l. 494).
    OptionSpec {
        key: "nephilim_extra_action_cost",
        decision: "N-INIT",
        default: "malus",
        allowed: Allowed::OneOf(&["malus", "malus_and_fatigue"]),
        help: "what an extra action costs in a duel whose file does not set `fatigue_per_extra_action`: malus = the -4 per extra action only (the book), malus_and_fatigue = also one fatigue box per extra action at the end of the round (a house reading, the tool's default before)",
    },
];
