//! Rule parameters of Great Cosmos character creation (C-CREATE-1..3): the sum windows,
//! the move ceilings and each stat die's own window, and the check that a changed die
//! window still lets the dice reach their sum windows.

use super::{Allowed, OptionSpec};

/// C-CREATE-1..3 creation numbers as parameters (issue 16). Each window's bounds meet at
/// the dice's middle (min at most, max at least), so min <= max always holds and every
/// window keeps an acceptance chance of about 0.4 % or more: rerolling ends.
pub const CREATION_PARAMETERS: &[OptionSpec] = &[
    OptionSpec {
        key: "creation_hp_pm_sum_min",
        decision: "C-CREATE-1",
        default: "250",
        allowed: Allowed::Integer { min: 10, max: 500 },
    },
    OptionSpec {
        key: "creation_hp_pm_sum_max",
        decision: "C-CREATE-1",
        default: "750",
        allowed: Allowed::Integer {
            min: 500,
            max: 1000,
        },
    },
    OptionSpec {
        key: "creation_stats_sum_min",
        decision: "C-CREATE-2",
        default: "200",
        allowed: Allowed::Integer { min: 120, max: 300 },
    },
    OptionSpec {
        key: "creation_stats_sum_max",
        decision: "C-CREATE-2",
        default: "400",
        allowed: Allowed::Integer { min: 300, max: 480 },
    },
    OptionSpec {
        key: "conversion_sum_min",
        decision: "C-CREATE-3",
        default: "60",
        allowed: Allowed::Integer { min: 40, max: 100 },
    },
    OptionSpec {
        key: "conversion_sum_max",
        decision: "C-CREATE-3",
        default: "140",
        allowed: Allowed::Integer { min: 100, max: 160 },
    },
    OptionSpec {
        key: "creation_move_points",
        decision: "C-CREATE-2",
        default: "10",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    OptionSpec {
        key: "conversion_move_points",
        decision: "C-CREATE-3",
        default: "20",
        allowed: Allowed::Integer { min: 0, max: 100 },
    },
    // "Chaque jet obtenu doit être également entre 20 et 80, les dés n'étant pas conformes
    // à cette fourchette seront relancés individuellement" (l. 195; C-CREATE-2); "chaque
    // jet doit être individuellement compris entre 20 et 80" (l. 205; C-CREATE-3). Each
    // 1..100; min <= max and the sum windows' reach are checked together
    // (`create_die_conflict`).
    OptionSpec {
        key: "create_die_min",
        decision: "C-CREATE-2, C-CREATE-3",
        default: "20",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
    OptionSpec {
        key: "create_die_max",
        decision: "C-CREATE-2, C-CREATE-3",
        default: "80",
        allowed: Allowed::Integer { min: 1, max: 100 },
    },
];

/// The least acceptance chance a die window may leave the six stat dice (or the two
/// conversion dice) in their sum window (C-CREATE-2/3): below it, rerolling all the dice
/// would not end in practice (a thousand rolls per character on average). Every window of
/// the sum parameters alone stays above it (the least is about 0.9 %, six dice on 20..80
/// summing to exactly 300).
pub const MIN_STAT_ACCEPT: f64 = 0.001;

/// A creation die window (`create_die_min`..`create_die_max`) the other creation
/// parameters in force cannot use: min above max, or six stat dice (two conversion dice)
/// that cannot reach their accepted sum window, or reach it less than [`MIN_STAT_ACCEPT`]
/// of the time. Returns the key to point at (the one the user set, when only one of the
/// pair is), the message and what is allowed; `None` at the book's values.
pub fn create_die_conflict(
    o: &super::RuleOptions,
    lang: crate::lang::Lang,
) -> Option<(&'static str, String, &'static str)> {
    // The sum parameters' own ranges keep the book's dice reachable and likely enough.
    if o.get("create_die_min") == "20" && o.get("create_die_max") == "80" {
        return None;
    }
    let set = o.explicitly_set();
    let pick = |a: &'static str, b: &'static str| {
        if !set.contains_key(a) && set.contains_key(b) {
            b
        } else {
            a
        }
    };
    let (lo, hi) = (o.integer("create_die_min"), o.integer("create_die_max"));
    let allowed = tr!(lang, "options.check.create_die_allowed");
    if lo > hi {
        return Some((
            pick("create_die_min", "create_die_max"),
            tr!(lang, "options.check.create_die_order", min = lo, max = hi),
            allowed,
        ));
    }
    for (n, kmin, kmax) in [
        (6, "creation_stats_sum_min", "creation_stats_sum_max"),
        (2, "conversion_sum_min", "conversion_sum_max"),
    ] {
        let (smin, smax) = (o.integer(kmin), o.integer(kmax));
        let (reach_lo, reach_hi) = (n * lo, n * hi);
        // Dice too low for the window: their maximum or the window's minimum is at fault;
        // too high: their minimum or the window's maximum.
        let key = if n * (lo + hi) < smin + smax {
            pick("create_die_max", kmin)
        } else {
            pick("create_die_min", kmax)
        };
        if reach_hi < smin || reach_lo > smax {
            return Some((
                key,
                tr!(
                    lang,
                    "options.check.create_die_unreachable",
                    n,
                    lo,
                    hi,
                    reach_lo,
                    reach_hi,
                    kmin,
                    kmax,
                    smin,
                    smax
                ),
                allowed,
            ));
        }
        let p = crate::dice::Dist::uniform(lo..=hi)
            .map(|d| {
                d.sum_of(n as usize)
                    .prob_where(|s| (smin..=smax).contains(s))
            })
            .unwrap_or(0.0);
        if p < MIN_STAT_ACCEPT {
            return Some((
                key,
                tr!(
                    lang,
                    "options.check.create_die_rare",
                    n,
                    lo,
                    hi,
                    kmin,
                    kmax,
                    smin,
                    smax,
                    p = format!("{p:.1e}")
                ),
                allowed,
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::RuleOptions;
    use super::*;

    fn conflict_of(pairs: &[&str]) -> Option<(&'static str, String, &'static str)> {
        create_die_conflict(
            &RuleOptions::from_pairs(pairs, crate::lang::Lang::En).unwrap(),
            crate::lang::Lang::En,
        )
    }

    #[test]
    fn die_windows_the_sums_can_use_pass() {
        assert!(conflict_of(&[]).is_none());
        assert!(conflict_of(&["create_die_min=30", "create_die_max=70"]).is_none());
        assert!(conflict_of(&["create_die_min=1", "create_die_max=100"]).is_none());
        // One face: six 50s sum 300, two sum 100, both inside the book's windows.
        assert!(conflict_of(&["create_die_min=50", "create_die_max=50"]).is_none());
    }

    #[test]
    fn broken_die_windows_name_the_key_set() {
        let (key, m, allowed) = conflict_of(&["create_die_min=60", "create_die_max=50"]).unwrap();
        assert_eq!(key, "create_die_min");
        assert!(
            m.contains("create_die_min = 60 is above create_die_max = 50"),
            "{m}"
        );
        assert!(allowed.contains("create_die_min <= create_die_max"));
        // Six dice of 20..30 sum at most 180, below 200: the die maximum was set.
        let (key, m, _) = conflict_of(&["create_die_max=30"]).unwrap();
        assert_eq!(key, "create_die_max");
        assert!(m.contains("sum 120..180") && m.contains("200..400"), "{m}");
        // Two dice of 75..80 sum at least 150, above the conversion's 140.
        let (key, m, _) =
            conflict_of(&["create_die_min=75", "creation_stats_sum_max=480"]).unwrap();
        assert_eq!(key, "create_die_min");
        assert!(m.contains("150..160") && m.contains("60..140"), "{m}");
        // Reachable only by six 50s: (1/51)^6, far below MIN_STAT_ACCEPT.
        let (key, m, _) = conflict_of(&[
            "create_die_min=50",
            "create_die_max=100",
            "creation_stats_sum_max=300",
        ])
        .unwrap();
        assert_eq!(key, "create_die_min");
        assert!(m.contains("5.7e-11"), "{m}");
        // Only the maximum set, below the book's minimum: the maximum is named.
        let (key, m, _) = conflict_of(&["create_die_max=10"]).unwrap();
        assert_eq!(key, "create_die_max");
        assert!(
            m.contains("create_die_min = 20 is above create_die_max = 10"),
            "{m}"
        );
    }
}
