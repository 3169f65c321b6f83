//! Where each rule parameter's default comes from: the rulebook line (the project copies
//! the numbers; it never reads the books) or, where the book gives no number, the decision
//! that fixed it. `docs/parameters.md` is generated from this table and the registry.

/// (parameter key, source) for every parameter of the registry (a test checks it).
pub const SOURCES: &[(&str, &str)] = &[
    // Great Cosmos, tests and karma (cosmos-current.fr.txt).
    ("crit_success_to", "cosmos-current.fr.txt l. 53: « un score compris entre 1 et 10 … réussite critique »"),
    ("crit_failure_from", "cosmos-current.fr.txt l. 54: « un score compris entre 91 et 100 … échec critique »"),
    ("super_success_roll", "cosmos-current.fr.txt l. 55: « Le joueur effectue 42 … réussite super-critique »"),
    ("super_failure_roll", "cosmos-current.fr.txt l. 56: « Le joueur effectue 66 … échec super-critique »"),
    ("karma_die_from", "cosmos-current.fr.txt l. 71-72: « -5 ou moins / +5 ou plus : le joueur lance un dé 10 »"),
    ("karma_die_sides", "cosmos-current.fr.txt l. 71-72: « lance un dé 10 à chaque action »"),
    ("karma_bound", "cosmos-current.fr.txt l. 77: « ne doit ni excéder 10 ni être strictement inférieur à -10 »; l. 70-73 (the ±10 rows)"),
    ("fatigue_crit_failure_extra", "cosmos-current.fr.txt l. 435: « Fatigue extrême … -30% et +5% d'échecs critiques »"),
    ("fatigue_light_from", "cosmos-current.fr.txt l. 432: « Fatigue légère 4 ≤ FP/FM < 6 »"),
    ("fatigue_moderate_from", "cosmos-current.fr.txt l. 433: « Fatigue modérée 6 ≤ FP/FM < 8 »"),
    ("fatigue_extreme_from", "cosmos-current.fr.txt l. 435: « Fatigue extrême 8 ≤ FP/FM < 10 »"),
    ("fatigue_light_malus", "cosmos-current.fr.txt l. 432: « -5% sur tous les jets »"),
    ("fatigue_moderate_malus", "cosmos-current.fr.txt l. 433: « -10% sur tous les jets »"),
    ("fatigue_extreme_malus", "cosmos-current.fr.txt l. 435: « -30% et +5% d'échecs critiques »"),
    ("fatigue_rounds_per_fp", "cosmos-current.fr.txt l. 393: « Tous les 5 tours de combat et en fin de combat +1 FP »"),
    ("fatigue_per_points", "cosmos-current.fr.txt l. 384: « +1 FP et + 1 FM tous les 100 PV perdus »; l. 392: « Tous les 100 PM consommés +1 FM »"),
    ("dna_creation_base", "cosmos-current.fr.txt l. 278: « À la création d'un personnage [...] le joueur obtient 5+1d20 points d'ADN »"),
    ("dna_creation_die", "cosmos-current.fr.txt l. 278: « À la création d'un personnage [...] le joueur obtient 5+1d20 points d'ADN »"),
    ("dna_level3_die", "cosmos-current.fr.txt l. 290: « chaque personnage gagne respectivement 1d4, 1d6, et 1d8 points d'ADN aux niveaux 3, 6 et 9 »"),
    ("dna_level6_die", "cosmos-current.fr.txt l. 290: « chaque personnage gagne respectivement 1d4, 1d6, et 1d8 points d'ADN aux niveaux 3, 6 et 9 »"),
    ("dna_level9_die", "cosmos-current.fr.txt l. 290: « chaque personnage gagne respectivement 1d4, 1d6, et 1d8 points d'ADN aux niveaux 3, 6 et 9 »"),
    ("fatigue_knockout_fm", "cosmos-current.fr.txt l. 385: « +3 FM si le personnage tombe inconscient »"),
    ("fatigue_psychic_fm", "cosmos-current.fr.txt l. 391: « Subir une attaque psychique +2 FM »"),
    ("fatigue_point_relief", "cosmos-current.fr.txt l. 396: « Utiliser un Light Point ou Dark Point -6 FP et -6 FM »"),
    ("fatigue_sepulchral_backlash_fp", "cosmos-current.fr.txt l. 397: « Contre-coup posture Sépulcrale +8 FP »"),
    ("fatigue_illumination_backlash", "cosmos-current.fr.txt l. 398: « Contre-coup posture Illumination +10 FP et +10 FM »"),
    ("fallout_ap_pool_max", "fallout-2d20.fr.txt l. 87: « Vous pouvez conserver jusqu'à 6 PA dans la réserve de groupe »"),
    ("fallout_crit_face", "fallout-2d20.fr.txt l. 21: « Chaque résultat de 1 est une réussite critique et compte pour deux réussites »"),
    ("trinites_retry_malus", "trinites.fr.txt l. 148: « Le test suivant subit une difficulté supplémentaire de 3 »"),
    ("trinites_free_action_malus", "trinites.fr.txt l. 412: « chaque action libre déclarée après la première provoque une réduction cumulative de 3 points »"),
    ("nephilim_extra_action_step", "nephilim-v3.fr.txt l. 494: « sa deuxième à son initiative moins 6, sa troisième à son initiative moins 12 »"),
    ("nephilim_extra_action_malus", "nephilim-v3.fr.txt l. 494: « Chacune de ses actions subira alors un malus de 4 par action supplémentaire »"),
    // Great Cosmos, combat and postures.
    ("offensive_damage_mult", "decision C-CMB-1 (the book gives no number)"),
    ("crit_damage_mult", "decision C-CMB-4 (the book gives no number)"),
    ("super_damage_mult", "decision C-CMB-4 (the book gives no number)"),
    ("sepulchral_damage_mult", "decision C-LD-6 (the book gives no number)"),
    ("backlash_damage_mult", "cosmos-current.fr.txt l. 140: « Les dégâts du personnage sont drastiquement réduits » (x0.5: decision C-LD-6)"),
    ("fs_bonus_mult", "cosmos-current.fr.txt l. 148: « Effet positif supplémentaire sur le Final Skill » (x1.25: decision C-LD-5)"),
    ("illumination_evade", "cosmos-current.fr.txt l. 117: « 7 chances sur 10 d'esquiver / parer automatiquement »"),
    ("posture_turns", "cosmos-current.fr.txt l. 106: « Ces postures ne dure que 3 tours maximum … plus de 2 tours »"),
    ("points_lock_turns", "cosmos-current.fr.txt l. 106: « impossible d'utiliser un nouveau Light ou Dark point dans les deux tours qui suivent »"),
    ("illumination_backlash_turns", "cosmos-current.fr.txt l. 126: « Le personnage ne peut plus agir pendant 2 tours »"),
    ("sepulchral_backlash_turns", "cosmos-current.fr.txt l. 139-140: « pendant 2 tours »; l. 161: « La durée du contre-coup est doublée »"),
    ("illumination_bonus_4", "cosmos-current.fr.txt l. 149: « 4 : +10% bonus sur tous les jets »"),
    ("illumination_bonus_5", "cosmos-current.fr.txt l. 150: « 5 : +20% bonus sur tous les jets »"),
    ("sepulchral_malus_4", "cosmos-current.fr.txt l. 159: « 4 : -10% malus sur tous les jets »"),
    ("sepulchral_malus_5", "cosmos-current.fr.txt l. 160: « 5 : -20% malus sur tous les jets »"),
    ("level5_points", "cosmos-current.fr.txt l. 101: « Au niveau 5 : … 3 points supplémentaires répartis … entre light et dark »"),
    ("element_cells", "cosmos-current.fr.txt l. 171-183: the 12 x 12 table « d'un élément (colonne) agissant sur un autre (ligne) »"),
];

/// The source of parameter `key`, if it has one.
pub fn source(key: &str) -> Option<&'static str> {
    SOURCES.iter().find(|(k, _)| *k == key).map(|(_, s)| *s)
}
