//! The initiative track of L'ART DE LA GUERRE (T-COMBAT): where a fighter's initiative die
//! stands and how a score change moves it, shared by the duel and the skirmish.

/// Where a fighter's initiative die stands (T-COMBAT).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Zone {
    Retrait,
    Garde,
    Feu,
}

impl Zone {
    /// Where a standing fighter's die goes as a round starts (T-COMBAT): one rule for the
    /// duel and the skirmish.
    #[inline]
    pub fn at_round_start(self) -> Zone {
        match self {
            Zone::Garde | Zone::Feu => Zone::Feu,
            Zone::Retrait => Zone::Garde,
        }
    }
}

/// T-COMBAT wrap-around ("Les fluctuations du score d'initiative"): below 1, +12 and one
/// zone back (en retrait stops at 1); above 12, -12 and one zone forward (the feu de
/// l'action stops at 12).
#[inline]
pub fn shift(init: &mut i64, zone: &mut Zone, delta: i64) {
    *init += delta;
    while *init < 1 {
        match *zone {
            Zone::Feu => (*init, *zone) = (*init + 12, Zone::Garde),
            Zone::Garde => (*init, *zone) = (*init + 12, Zone::Retrait),
            Zone::Retrait => *init = 1,
        }
    }
    while *init > 12 {
        match *zone {
            Zone::Retrait => (*init, *zone) = (*init - 12, Zone::Garde),
            Zone::Garde => (*init, *zone) = (*init - 12, Zone::Feu),
            Zone::Feu => *init = 12,
        }
    }
}

/// The initiative score: ceil(final Rapidité test / divisor), at most 12, at least 1 (a
/// d12 shows 1..12; T-COMBAT, "Le test d'initiative"; the divisor is the parameter
/// `trinites_initiative_divisor`, book 2).
#[inline]
pub fn initiative(natural: i64, modifier: i64, divisor: i64) -> i64 {
    ((natural + modifier + divisor - 1).div_euclid(divisor)).clamp(1, 12)
}

/// Who acts next (T-COMBAT): the fighters of `set` in the feu de l'action that hold its
/// highest score, as a bit set (equal scores act simultaneously); 0 once the feu is empty.
/// `at` reads a fighter's zone and score. One pass, no allocation.
#[inline]
pub fn acting_group(set: u32, at: impl Fn(usize) -> (Zone, i64)) -> u32 {
    let mut top = None;
    let mut group = 0u32;
    for i in crate::systems::mask::bits(set) {
        let (zone, init) = at(i);
        if zone != Zone::Feu {
            continue;
        }
        if top.is_none_or(|x| init > x) {
            (top, group) = (Some(init), 1 << i);
        } else if top == Some(init) {
            group |= 1 << i;
        }
    }
    group
}

/// Boxes ticked after `damage` lands on `before` ticked boxes of lines `l` long (T-COMBAT):
/// at most the whole track plus one (dead), and a blessure non létale leaves the last box
/// of the Inconscient line unticked (never untying what is already ticked).
#[inline]
pub fn ticked_after(before: i64, damage: i64, l: i64, non_lethal: bool) -> i64 {
    if non_lethal {
        (before + damage).min(3 * l - 1).max(before)
    } else {
        (before + damage).min(3 * l + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_around_both_ways() {
        // T-COMBAT: en garde at 2, -3 -> 11 en retrait; en retrait never below 1.
        let (mut i, mut z) = (2, Zone::Garde);
        shift(&mut i, &mut z, -3);
        assert_eq!((i, z), (11, Zone::Retrait));
        shift(&mut i, &mut z, -20);
        assert_eq!((i, z), (1, Zone::Retrait));
        // en feu at 1, -3 -> 10 en garde.
        let (mut i, mut z) = (1, Zone::Feu);
        shift(&mut i, &mut z, -3);
        assert_eq!((i, z), (10, Zone::Garde));
        // en garde at 11, +3 -> 2 in the feu de l'action (acts again this round).
        let (mut i, mut z) = (11, Zone::Garde);
        shift(&mut i, &mut z, 3);
        assert_eq!((i, z), (2, Zone::Feu));
        shift(&mut i, &mut z, 30);
        assert_eq!((i, z), (12, Zone::Feu));
    }

    #[test]
    fn initiative_is_half_rounded_up_in_1_to_12() {
        assert_eq!(initiative(7, 0, 2), 4);
        assert_eq!(initiative(8, 0, 2), 4);
        assert_eq!(initiative(1, -6, 2), 1);
        assert_eq!(initiative(30, 5, 2), 12);
        // Other divisors: ceil(final / d) in 1..12.
        assert_eq!(initiative(7, 2, 1), 9);
        assert_eq!(initiative(7, 6, 1), 12);
        assert_eq!(initiative(7, 3, 3), 4);
        assert_eq!(initiative(7, 4, 3), 4);
        assert_eq!(initiative(7, 5, 3), 4);
        assert_eq!(initiative(7, 6, 3), 5);
        assert_eq!(initiative(2, -4, 3), 1);
    }
}
