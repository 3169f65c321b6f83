//! Primes and pénalités martiales (PRIMES & PÉNALITÉS), as far as a duel uses them.

/// A prime attached to an attack (at most one per action).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Prime {
    None,
    /// +3 initiative at the end of the turn if the action succeeded.
    Acceleration,
    /// One test against every engaged foe; damage -50% rounded up.
    AttaquesMultiples,
    /// Damage +50% rounded up.
    BlessureGrave,
    /// The last box of the Inconscient line is never ticked.
    BlessureNonLetale,
    /// The target's protection is halved, rounded up.
    BlessurePrecise,
    /// Final result +3.
    Efficacite,
    /// The target's reaction -3.
    Debordement,
    /// +3 to the next reaction before the next turn.
    Prudence,
}

/// The pénalité a prime must be paired with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Penalty {
    None,
    /// Damage -50% rounded up.
    BlessureLegere,
    /// -3 to the next reaction before the next turn.
    Danger,
    /// Final result -3.
    Difficulte,
    /// The target's reaction +3.
    Facilite,
    /// -3 initiative at the end of the turn.
    Ralentissement,
    /// On failure an incident (option `trinites_risque_incident`).
    Risque,
    /// Abandon de position avantageuse: the fighter leaves his cover (skirmish only: a
    /// duel has no advantageous position, so it is not in [`PENALTIES`]).
    AbandonPosition,
}

/// Every prime with its scenario-file name (the `none` entry first).
pub const PRIMES: [(Prime, &str); 9] = [
    (Prime::None, "none"),
    (Prime::Acceleration, "acceleration"),
    (Prime::AttaquesMultiples, "attaques_multiples"),
    (Prime::BlessureGrave, "blessure_grave"),
    (Prime::BlessureNonLetale, "blessure_non_letale"),
    (Prime::BlessurePrecise, "blessure_precise"),
    (Prime::Efficacite, "efficacite"),
    (Prime::Debordement, "debordement"),
    (Prime::Prudence, "prudence"),
];

/// Every pénalité usable in a duel with its scenario-file name. `abandon_position` needs
/// an advantageous position (cover, hiding), which a duel does not have.
pub const PENALTIES: [(Penalty, &str); 7] = [
    (Penalty::None, "none"),
    (Penalty::BlessureLegere, "blessure_legere"),
    (Penalty::Danger, "danger"),
    (Penalty::Difficulte, "difficulte"),
    (Penalty::Facilite, "facilite"),
    (Penalty::Ralentissement, "ralentissement"),
    (Penalty::Risque, "risque"),
];

impl Prime {
    pub fn name(self) -> &'static str {
        PRIMES.iter().find(|p| p.0 == self).map_or("none", |p| p.1)
    }

    pub fn parse(s: &str) -> Option<Prime> {
        PRIMES.iter().find(|p| p.1 == s).map(|p| p.0)
    }

    pub fn index(self) -> usize {
        PRIMES.iter().position(|p| p.0 == self).unwrap_or(0)
    }
}

impl Penalty {
    pub fn name(self) -> &'static str {
        if self == Penalty::AbandonPosition {
            return "abandon_position";
        }
        PENALTIES
            .iter()
            .find(|p| p.0 == self)
            .map_or("none", |p| p.1)
    }

    pub fn parse(s: &str) -> Option<Penalty> {
        PENALTIES.iter().find(|p| p.1 == s).map(|p| p.0)
    }

    pub fn index(self) -> usize {
        PENALTIES.iter().position(|p| p.0 == self).unwrap_or(0)
    }
}

/// `x` increased by 50%, rounded up.
#[inline]
pub fn plus_half(x: i64) -> i64 {
    x + (x + 1) / 2
}

/// `x` decreased by 50%, rounded up (the rulebook's "diminués de 50% et arrondis à l'entier
/// supérieur": 5 -> 3).
#[inline]
pub fn half_up(x: i64) -> i64 {
    (x + 1) / 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (p, n) in PRIMES {
            assert_eq!(Prime::parse(n), Some(p));
        }
        for (p, n) in PENALTIES {
            assert_eq!(Penalty::parse(n), Some(p));
        }
        assert_eq!(Penalty::parse("abandon_position"), None);
    }

    #[test]
    fn halves_round_up() {
        assert_eq!((plus_half(4), plus_half(3), plus_half(8)), (6, 5, 12));
        assert_eq!((half_up(4), half_up(5), half_up(1)), (2, 3, 1));
    }
}
