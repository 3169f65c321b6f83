/// The six outcome classes of a normal test (C-TEST-2), best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Outcome {
    SuperSuccess = 0,
    CritSuccess = 1,
    Success = 2,
    Failure = 3,
    CritFailure = 4,
    SuperFailure = 5,
}

impl Outcome {
    pub const ALL: [Outcome; 6] = [
        Outcome::SuperSuccess,
        Outcome::CritSuccess,
        Outcome::Success,
        Outcome::Failure,
        Outcome::CritFailure,
        Outcome::SuperFailure,
    ];

    /// The snake_case name used in CSV columns.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::SuperSuccess => "super_success",
            Outcome::CritSuccess => "crit_success",
            Outcome::Success => "success",
            Outcome::Failure => "failure",
            Outcome::CritFailure => "crit_failure",
            Outcome::SuperFailure => "super_failure",
        }
    }

    /// The class as charts and pages show it, in the current language (the rulebook's
    /// "Réussite critique"... in French); CSV values keep [`Outcome::name`].
    pub fn label(self, lang: crate::lang::Lang) -> &'static str {
        match self {
            Outcome::SuperSuccess => tr!(lang, "cosmos.outcome.super_success"),
            Outcome::CritSuccess => tr!(lang, "cosmos.outcome.crit_success"),
            Outcome::Success => tr!(lang, "cosmos.outcome.success"),
            Outcome::Failure => tr!(lang, "cosmos.outcome.failure"),
            Outcome::CritFailure => tr!(lang, "cosmos.outcome.crit_failure"),
            Outcome::SuperFailure => tr!(lang, "cosmos.outcome.super_failure"),
        }
    }

    pub fn from_index(i: u8) -> Outcome {
        Outcome::ALL[i as usize % 6]
    }

    pub fn is_success(self) -> bool {
        self <= Outcome::Success
    }

    /// Success tier used by attack/defence comparisons (C-CMB-2): 0 failure, 1 success,
    /// 2 crit, 3 super.
    #[inline(always)]
    pub fn tier(self) -> u8 {
        // Arithmetic on the class order rather than a match: the combat loop reads the tier
        // of random outcomes, where a branch per class would be mispredicted.
        3u8.saturating_sub(self as u8)
    }

    /// Karma change after a normal test (C-KARMA-1).
    pub fn karma_delta(self) -> i8 {
        match self {
            Outcome::SuperSuccess => -2,
            Outcome::CritSuccess => -1,
            Outcome::CritFailure => 1,
            Outcome::SuperFailure => 2,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Outcome;
    use crate::lang::Lang;

    #[test]
    fn tiers_are_failure_success_crit_super() {
        // C-CMB-2: 0 for every failure, then 1 success, 2 critical, 3 super-critical.
        let tiers: Vec<u8> = Outcome::ALL.iter().map(|o| o.tier()).collect();
        assert_eq!(tiers, [3, 2, 1, 0, 0, 0]);
    }

    #[test]
    fn french_labels_are_the_rulebook_s() {
        // C-TEST-2: the six classes as the rulebook names them.
        let fr: Vec<&str> = [
            "super_success",
            "crit_success",
            "success",
            "failure",
            "crit_failure",
            "super_failure",
        ]
        .iter()
        .map(|k| Lang::Fr.text(&format!("cosmos.outcome.{k}")))
        .collect();
        assert_eq!(
            fr,
            [
                "Réussite super-critique",
                "Réussite critique",
                "Réussite",
                "Échec",
                "Échec critique",
                "Échec super-critique"
            ]
        );
    }
}
