//! One attack of the skirmish, its modifiers and damage (LES ACTIONS: Frapper, Tirer;
//! PRIMES & PÉNALITÉS; T-COMBAT), shared by the simulation and the exact exchange table so
//! both read the rules the same way.

use crate::engine::Rng64;
use crate::systems::trinites::duel::{Penalty, Prime};
use crate::systems::trinites::{roll_test, DualKeep, TestRoll};

/// Distance of a shot at a foe in the same spot (engaged): point blank.
pub const POINT_BLANK: i64 = 1;

/// Tirer, "Circonstances": distance < range +3; range..=2×range 0; up to 3×range -6;
/// beyond 3×range the shot is impossible (`None`).
pub fn range_difficulty(distance: i64, range: i64) -> Option<i64> {
    if distance < range {
        Some(3)
    } else if distance <= 2 * range {
        Some(0)
    } else if distance <= 3 * range {
        Some(-6)
    } else {
        None
    }
}

/// Modifiers of one attack, everything included.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StrikeMods {
    /// Attack skill + difficulty; the test succeeds at natural + this >= 12.
    pub attack: i64,
    /// The target's reaction skill + difficulty; `None` when it cannot react
    /// (unconscious).
    pub reaction: Option<i64>,
}

/// The attacker's modifier: skill, the free-action malus (`free_malus`: -3 per declared
/// free action beyond the first in the book, T-COMBAT), Efficacité +3 / Difficulté -3, and the circumstance
/// (range and cover for a shot, inert target +3).
pub fn attack_modifier(
    skill: i64,
    free_malus: i64,
    prime: Prime,
    penalty: Penalty,
    circumstance: i64,
) -> i64 {
    let mut m = skill + free_malus + circumstance;
    if prime == Prime::Efficacite {
        m += 3;
    }
    if penalty == Penalty::Difficulte {
        m -= 3;
    }
    m
}

/// The target's reaction modifier: its skill, -1 per foe engaged with it for a strike
/// (Frapper, "y compris le premier"), Prudence +3 / Danger -3 still pending, the
/// attacker's Débordement -3 / Facilité +3.
pub fn reaction_modifier(
    skill: i64,
    engaged: i64,
    prudence: bool,
    danger: bool,
    prime: Prime,
    penalty: Penalty,
) -> i64 {
    let mut m = skill - engaged;
    if prudence {
        m += 3;
    }
    if danger {
        m -= 3;
    }
    if prime == Prime::Debordement {
        m -= 3;
    }
    if penalty == Penalty::Facilite {
        m += 3;
    }
    m
}

/// Damage of a hit (T-COMBAT, "Damage order" in docs/rules.md): weapon damage, ×2 for a
/// sword against a Trinité (VIE ET MORT), then Blessure grave +50% or Attaques multiples
/// -50%, then Blessure légère -50% (each rounded up), minus the protection (halved and
/// rounded up by Blessure précise); never below 0.
pub fn hit_damage(
    damage: i64,
    sword_vs_trinite: bool,
    prime: Prime,
    penalty: Penalty,
    protection: i64,
) -> i64 {
    hit_damage_in(damage, sword_vs_trinite, prime, penalty, protection, false)
}

/// [`hit_damage`] with the order of the sword's x2 and the prime's ±50% in force (option
/// `trinites_sword_order`; `prime_first`: the prime, then x2).
pub fn hit_damage_in(
    damage: i64,
    sword_vs_trinite: bool,
    prime: Prime,
    penalty: Penalty,
    protection: i64,
    prime_first: bool,
) -> i64 {
    let d = standard_damage(damage, sword_vs_trinite, prime, prime_first);
    after_penalty(d, prime, penalty, protection)
}

/// The standard damage after a sword's x2 against a Trinité (VIE ET MORT) and Blessure
/// grave +50% / Attaques multiples -50% (rounded up), in the order in force.
pub fn standard_damage(
    damage: i64,
    sword_vs_trinite: bool,
    prime: Prime,
    prime_first: bool,
) -> i64 {
    use crate::systems::trinites::duel::{half_up, plus_half};
    let mut d = damage;
    if sword_vs_trinite && !prime_first {
        d *= 2;
    }
    match prime {
        Prime::BlessureGrave => d = plus_half(d),
        Prime::AttaquesMultiples => d = half_up(d),
        _ => {}
    }
    if sword_vs_trinite && prime_first {
        d *= 2;
    }
    d
}

fn after_penalty(d: i64, prime: Prime, penalty: Penalty, protection: i64) -> i64 {
    use crate::systems::trinites::duel::half_up;
    let mut d = d;
    if penalty == Penalty::BlessureLegere {
        d = half_up(d);
    }
    let prot = if prime == Prime::BlessurePrecise {
        half_up(protection)
    } else {
        protection
    };
    (d - prot).max(0)
}

/// Whether a successful attack with final result `attack_final` gets through the target's
/// reaction (`None`: the target cannot react). T-CONF: the reacting side wins ties; a
/// natural 1 always fails (T-TEST).
#[inline]
pub fn hit_given(
    rng: &mut Rng64,
    attack_final: i64,
    reaction: Option<i64>,
    target_dual: bool,
    keep: DualKeep,
    target: i64,
) -> bool {
    match reaction {
        None => true,
        Some(rm) => react(rng, attack_final, rm, target_dual, keep, target).0,
    }
}

/// The reaction test at `rm` against a successful attack with final result
/// `attack_final`: whether the attack gets through, and the reaction's roll (a trace tells
/// it). T-CONF: the reacting side wins ties; a natural 1 always fails (T-TEST).
#[inline(always)]
pub fn react(
    rng: &mut Rng64,
    attack_final: i64,
    rm: i64,
    target_dual: bool,
    keep: DualKeep,
    target: i64,
) -> (bool, TestRoll) {
    let r = roll_test(rng, target_dual, rm, keep, target);
    (!r.succeeds(rm, target) || attack_final > r.natural + rm, r)
}

/// Samples one attack: `true` when it hits (the attack test, then [`hit_given`]).
pub fn roll_hit(
    rng: &mut Rng64,
    mods: StrikeMods,
    attacker_dual: bool,
    target_dual: bool,
    keep: DualKeep,
    target: i64,
) -> bool {
    let a = roll_test(rng, attacker_dual, mods.attack, keep, target);
    a.succeeds(mods.attack, target)
        && hit_given(
            rng,
            a.natural + mods.attack,
            mods.reaction,
            target_dual,
            keep,
            target,
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_bands() {
        // Tirer: below range +3, up to double 0, up to triple -6, beyond impossible.
        assert_eq!(range_difficulty(9, 10), Some(3));
        assert_eq!(range_difficulty(10, 10), Some(0));
        assert_eq!(range_difficulty(20, 10), Some(0));
        assert_eq!(range_difficulty(21, 10), Some(-6));
        assert_eq!(range_difficulty(30, 10), Some(-6));
        assert_eq!(range_difficulty(31, 10), None);
    }

    #[test]
    fn damage_by_hand() {
        // Sword 4 vs a Trinité: 8; Blessure grave 12; protection 2 -> 10.
        assert_eq!(
            hit_damage(4, true, Prime::BlessureGrave, Penalty::Danger, 2),
            10
        );
        // Attaques multiples 5 -> 3, Blessure légère -> 2, protection 3 -> 0 (not negative).
        assert_eq!(
            hit_damage(
                5,
                false,
                Prime::AttaquesMultiples,
                Penalty::BlessureLegere,
                3
            ),
            0
        );
        // Blessure précise: protection 3 -> 2.
        assert_eq!(
            hit_damage(3, false, Prime::BlessurePrecise, Penalty::Risque, 3),
            1
        );
    }

    #[test]
    fn modifiers_by_hand() {
        // Two free actions: -3; Efficacité +3; cover -2.
        assert_eq!(
            attack_modifier(5, -3, Prime::Efficacite, Penalty::Danger, -2),
            3
        );
        assert_eq!(attack_modifier(5, -6, Prime::None, Penalty::None, 0), -1);
        // Two engaged foes -2, Prudence +3, Débordement -3.
        assert_eq!(
            reaction_modifier(6, 2, true, false, Prime::Debordement, Penalty::Risque),
            4
        );
    }
}
