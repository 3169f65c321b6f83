//! Action points (F-AP): the price of bonus d20 and the group pool.

use super::options::Shortfall;

/// Most AP the group pool holds in the book; the excess is lost (F-AP). The parameter
/// `fallout_ap_pool_max` sets the cap in force ([`pool_max`]).
pub const POOL_MAX: u32 = 6;

/// The group pool's cap in force (parameter `fallout_ap_pool_max`, F-AP).
pub fn pool_max(o: &crate::rules::RuleOptions) -> u32 {
    o.integer("fallout_ap_pool_max") as u32
}

/// A starting group pool checked against the cap in force: the one check of `check` (the
/// file's `[rules]`) and `run` (with `--option` too).
pub fn check_start_pool(
    file: &crate::scenario::ScenarioFile,
    path: &[&str],
    value: u32,
    cap: u32,
) -> Result<(), crate::error::UserError> {
    if value > cap {
        return Err(file.error_at(
            path,
            &path.join("."),
            &format!("{value} AP is more than the group pool holds"),
            &format!("0..{cap} (rule parameter fallout_ap_pool_max, F-AP)"),
        ));
    }
    Ok(())
}

/// A `buy` policy read at `at` (`policy`, or `policy.<side>` in a combat): `never`,
/// `always`, or `below` with its probability `below` (F-AP), the one reading of both kinds.
pub fn buy_at(
    file: &crate::scenario::ScenarioFile,
    at: &[&str],
    buy: &str,
    below: Option<f64>,
) -> Result<Buy, crate::error::UserError> {
    let path = |k: &'static str| [at, &[k][..]].concat();
    let shown = |k: &str| format!("{}.{k}", at.join("."));
    match buy {
        "never" => Ok(Buy::Never),
        "always" => Ok(Buy::Always),
        "below" => match below {
            Some(x) if (0.0..=1.0).contains(&x) => Ok(Buy::Below(x)),
            Some(x) => Err(file.error_at(
                &path("below"),
                &shown("below"),
                &tr!(file.lang, "fallout.model.not_probability", x),
                tr!(file.lang, "fallout.model.probability_allowed"),
            )),
            None => Err(file.error_at(
                at,
                &shown("below"),
                tr!(file.lang, "fallout.model.missing_below"),
                tr!(file.lang, "fallout.model.probability_allowed"),
            )),
        },
        other => Err(file.error_at(
            &path("buy"),
            &shown("buy"),
            &tr!(file.lang, "fallout.model.unknown_buy", value = other),
            "\"never\", \"always\", \"below\"",
        )),
    }
}

/// Most bonus d20 on one test, from all sources, in the book: "Un test ne peut bénéficier
/// que de trois dés bonus au maximum" (fallout-2d20.fr.txt l. 68; F-AP). Also the highest
/// `fallout_bonus_dice_max`: the exact P(pass) tables by bonus dice are sized for it.
pub const BONUS_MAX: u8 = 3;
/// AP price of the 1st, 2nd and 3rd bonus d20 (fallout-2d20.fr.txt, "Coût des d20 bonus":
/// cumulative 1, 3, 6; F-AP). Parameters `fallout_bonus_price_1..3`.
pub const BONUS_PRICE: [u32; 3] = [1, 2, 3];

/// The bonus-dice rules in force (F-AP), resolved once per run: how many bonus d20 a test
/// may have and what each one costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BonusRules {
    /// Most bonus d20 on one test (parameter `fallout_bonus_dice_max`, book 3).
    pub max: u8,
    /// AP price of the 1st, 2nd and 3rd bonus d20 (parameters `fallout_bonus_price_1..3`,
    /// book 1, 2, 3).
    pub price: [u32; 3],
}

impl BonusRules {
    /// The book's rules: three bonus dice at 1, 2 and 3 AP.
    pub const BOOK: BonusRules = BonusRules {
        max: BONUS_MAX,
        price: BONUS_PRICE,
    };

    pub fn from_options(o: &crate::rules::RuleOptions) -> BonusRules {
        BonusRules {
            max: o.integer("fallout_bonus_dice_max") as u8,
            price: [
                o.integer("fallout_bonus_price_1") as u32,
                o.integer("fallout_bonus_price_2") as u32,
                o.integer("fallout_bonus_price_3") as u32,
            ],
        }
    }

    /// Price of bonus die number `k` (0-based); `None` beyond the cap in force.
    #[inline(always)]
    pub fn price_of(&self, k: u8) -> Option<u32> {
        if k >= self.max {
            return None;
        }
        self.price.get(k as usize).copied()
    }

    /// Total AP price of `bonus` bonus d20 (book: 0, 1, 3, 6).
    pub fn cumulative_cost(&self, bonus: u8) -> u32 {
        self.price.iter().take(bonus as usize).sum()
    }

    /// Pays for the bonus die number `k` (0-based) from `pool` AP. `allow_mj`: whether the
    /// group accepts to give the MJ AP for what the pool cannot cover; if not and the pool
    /// is short, the die is not bought (`None`); beyond the cap, never.
    #[inline(always)]
    pub fn pay(&self, k: u8, pool: u32, allow_mj: bool, shortfall: Shortfall) -> Option<Payment> {
        pay_price(self.price_of(k)?, pool, allow_mj, shortfall)
    }
}

/// How one bonus die was paid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payment {
    /// AP taken from the group pool.
    pub from_pool: u32,
    /// AP given to the MJ's pool instead (dice bought without AP).
    pub to_mj: u32,
}

/// Pays `price` AP from `pool` ([`BonusRules::pay`]).
#[inline(always)]
fn pay_price(price: u32, pool: u32, allow_mj: bool, shortfall: Shortfall) -> Option<Payment> {
    if pool >= price {
        return Some(Payment {
            from_pool: price,
            to_mj: 0,
        });
    }
    if !allow_mj {
        return None;
    }
    Some(match shortfall {
        Shortfall::Split => Payment {
            from_pool: pool,
            to_mj: price - pool,
        },
        Shortfall::WholeDie => Payment {
            from_pool: 0,
            to_mj: price,
        },
    })
}

/// When the group buys bonus d20.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Buy {
    Never,
    /// Up to `max_bonus` on every test.
    Always,
    /// The next die while P(pass) with the dice so far is below this.
    Below(f64),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pay(k: u8, pool: u32, allow_mj: bool, shortfall: Shortfall) -> Option<Payment> {
        BonusRules::BOOK.pay(k, pool, allow_mj, shortfall)
    }

    #[test]
    fn prices_are_cumulative_1_3_6() {
        assert_eq!(
            (0..=3)
                .map(|k| BonusRules::BOOK.cumulative_cost(k))
                .collect::<Vec<_>>(),
            vec![0, 1, 3, 6]
        );
        // The registry's defaults are the book's rules (F-AP).
        assert_eq!(
            BonusRules::from_options(&crate::rules::RuleOptions::default()),
            BonusRules::BOOK
        );
    }

    /// `fallout_bonus_dice_max` and `fallout_bonus_price_*` (F-AP): a cap of 2 refuses the
    /// third die even with AP to spare; prices 2, 2, 2 cost 6 for three dice.
    #[test]
    fn bonus_parameters_cap_and_price() {
        let two = BonusRules {
            max: 2,
            ..BonusRules::BOOK
        };
        assert_eq!(two.pay(2, 6, true, Shortfall::Split), None);
        assert!(two.pay(1, 6, true, Shortfall::Split).is_some());
        let flat = BonusRules {
            max: 3,
            price: [2, 2, 2],
        };
        assert_eq!(flat.cumulative_cost(3), 6);
        assert_eq!(
            flat.pay(0, 1, true, Shortfall::Split),
            Some(Payment {
                from_pool: 1,
                to_mj: 1
            })
        );
        let none = BonusRules {
            max: 0,
            ..BonusRules::BOOK
        };
        assert_eq!(none.price_of(0), None);
    }

    #[test]
    fn shortfall_readings() {
        assert_eq!(
            pay(1, 5, false, Shortfall::Split),
            Some(Payment {
                from_pool: 2,
                to_mj: 0
            })
        );
        assert_eq!(pay(2, 1, false, Shortfall::Split), None);
        assert_eq!(
            pay(2, 1, true, Shortfall::Split),
            Some(Payment {
                from_pool: 1,
                to_mj: 2
            })
        );
        assert_eq!(
            pay(2, 1, true, Shortfall::WholeDie),
            Some(Payment {
                from_pool: 0,
                to_mj: 3
            })
        );
        assert_eq!(pay(3, 6, true, Shortfall::Split), None);
    }
}
