//! Rule options of Trinités (T-*).

use super::{Allowed, OptionSpec};

/// Rule options of Trinités, for readings the rulebook leaves open. A duel's, a
/// skirmish's and a table's provenance list every one, default included (audit of
/// 2026-12-07, evening, which folded the former `LATE_READINGS` in).
pub const OPTIONS: &[OptionSpec] = &[
    // "Le test suivant subit une difficulté supplémentaire de 3" (trinites.fr.txt l. 148;
    // T-RETRY). 0 makes a retry free; 12 (a whole d12) makes it almost hopeless.
    OptionSpec {
        key: "trinites_retry_malus",
        decision: "T-RETRY",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 12 },
    },
    // "chaque action libre déclarée après la première provoque une réduction cumulative de
    // 3 points des résultats finaux" (trinites.fr.txt l. 412; T-COMBAT).
    OptionSpec {
        key: "trinites_free_action_malus",
        decision: "T-COMBAT",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 12 },
    },
    // "Le test est une réussite lorsque le résultat final est supérieur ou égal à 12"
    // (trinites.fr.txt l. 56; T-TEST, T-CONF). The d12 and its explosion on 12 (l. 65)
    // are the die itself, not a parameter.
    OptionSpec {
        key: "trinites_target",
        decision: "T-TEST",
        default: "12",
        allowed: Allowed::Integer { min: 2, max: 24 },
    },
    // "trois points sont retranchés au score d'initiative" (trinites.fr.txt l. 401, La
    // douleur; T-COMBAT). 12 is the whole initiative track.
    OptionSpec {
        key: "trinites_pain_initiative",
        decision: "T-COMBAT",
        default: "3",
        allowed: Allowed::Integer { min: 0, max: 12 },
    },
    // "Les humains ordinaires disposent de 4 cases par ligne de vie … les Adam' possèdent 8
    // cases par ligne de vie" (trinites.fr.txt l. 169; T-LIFE). Three lines each: endolori,
    // blessé, inconscient.
    OptionSpec {
        key: "trinites_life_line_human",
        decision: "T-LIFE",
        default: "4",
        allowed: Allowed::Integer { min: 1, max: 24 },
    },
    OptionSpec {
        key: "trinites_life_line_adam",
        decision: "T-LIFE",
        default: "8",
        allowed: Allowed::Integer { min: 1, max: 24 },
    },
    // "le personnage récupère 4 points de vie par points de Karma dépensé" (trinites.fr.txt
    // l. 270, Régénération; T-COMBAT). 0 makes a spent point heal nothing; 24 is an
    // Adam's whole line at the largest line parameter.
    OptionSpec {
        key: "trinites_regen_boxes",
        decision: "T-COMBAT",
        default: "4",
        allowed: Allowed::Integer { min: 0, max: 24 },
    },
    // "un test de Rapidité/0 dont le résultat final est divisé par deux -arrondi au nombre
    // entier supérieur si nécessaire- pour donner le score d'initiative … S'il est
    // supérieur à 12, il est ramené à 12" (trinites.fr.txt l. 354; T-COMBAT). The 12 is the
    // face of the initiative d12 and stays; 4 still spreads a final of 5..48 over 2..12.
    OptionSpec {
        key: "trinites_initiative_divisor",
        decision: "T-COMBAT",
        default: "2",
        allowed: Allowed::Integer { min: 1, max: 4 },
    },
    OptionSpec {
        key: "trinites_dual_keep",
        decision: "T-DUAL",
        default: "highest",
        allowed: Allowed::OneOf(&["highest", "deva_if_success"]),
    },
    OptionSpec {
        key: "trinites_regen_action",
        decision: "T-COMBAT",
        default: "libre",
        allowed: Allowed::OneOf(&["libre", "gratuite"]),
    },
    OptionSpec {
        key: "trinites_unconscious_regen",
        decision: "T-LIFE",
        default: "next_round",
        allowed: Allowed::OneOf(&["next_round", "same_round"]),
    },
    OptionSpec {
        key: "trinites_risque_incident",
        decision: "T-COMBAT",
        default: "lose_turn",
        allowed: Allowed::OneOf(&["lose_turn", "none"]),
    },
    // "les dégâts standards que leur occasionne une épée ... sont doublés" (trinites l. 279)
    // and Blessure grave "Les dégâts standards de l'arme sont augmentés de 50% arrondis à
    // l'entier supérieur" (l. 712): both act on the standard damage, in no stated order
    // (issue 25; the order changes the result by the rounding, 3: 9 or 10).
    OptionSpec {
        key: "trinites_sword_order",
        decision: "T-COMBAT",
        default: "sword_first",
        allowed: Allowed::OneOf(&["sword_first", "prime_first"]),
    },
    // Feinter (trinites.fr.txt l. 551-557): "Dans un même tour, l'action qui suit une
    // feinte réussie surprend la cible qui ne peut y opposer de réaction." Read to the
    // letter, the one action after the feint; `turn` lets every later attack of the
    // feinter's turn on the same target go unanswered.
    OptionSpec {
        key: "trinites_feint_scope",
        decision: "T-COMBAT",
        default: "next_action",
        allowed: Allowed::OneOf(&["next_action", "turn"]),
    },
    // Désarmer un adversaire (trinites.fr.txt l. 507-512): "L'arme voltige dans les airs
    // pendant un round puis se trouve à terre." The book does not say how it is taken back.
    OptionSpec {
        key: "trinites_disarm_weapon",
        decision: "T-COMBAT",
        default: "ground",
        allowed: Allowed::OneOf(&["ground", "lost"]),
    },
    // Anticiper un évènement (trinites.fr.txt l. 472): "Il peut ainsi protéger quelqu'un
    // d'une attaque avec une parade", and l. 428: "Plusieurs personnages peuvent tenter de
    // s'opposer à une même action ... résolues par le personnage physiquement le plus
    // proche": the target's own reaction, then the ally's parry.
    OptionSpec {
        key: "trinites_parry_for",
        decision: "T-CONF",
        default: "both",
        allowed: Allowed::OneOf(&["both", "instead"]),
    },
    // Risque (trinites.fr.txt l. 760-762): "Le personnage prend un risque. Si l'action
    // échoue, un incident survient." The book does not say whether an attack whose test
    // succeeds but which the target's reaction defeats (T-CONF) is a failed action.
    // `no_hit` (the tool's reading since the duel was written): the action failed when it
    // hit nobody; `test_failed`: only when the attack test itself failed. Listed in every
    // duel's and skirmish's provenance, default included (audit of 2026-12-07, evening).
    OptionSpec {
        key: "trinites_risque_failure",
        decision: "T-COMBAT",
        default: "no_hit",
        allowed: Allowed::OneOf(&["no_hit", "test_failed"]),
    },
];
